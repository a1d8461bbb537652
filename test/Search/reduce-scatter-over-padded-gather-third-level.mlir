// The reader of reduce-scatter-over-padded-gather.mlir with a third slice
// level (S, after the sum's B and the padded M): lowering leaves it a slice
// of its own after the padded one (MergeSlices does not merge a padded
// inner slice), where Evaluation::firstSlicesMeetSum's plan would merge the
// M and S slices into one (found by review: 8.0105 against 8.0108 us).
// Such a state is not followed: the planner leaves it to the reference
// path, and the planned emitter says so.
//
// RUN: toast-opt %s --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives -o - | FileCheck %s
// RUN: not toast-opt %s --toast-emit-planned -o /dev/null 2>&1 | FileCheck %s --check-prefix=REF

// CHECK: %[[G:.*]] = partir_hlo.all_gather [{}, {"M"}, {}]
// CHECK-NEXT: %[[S:.*]] = partir_hlo.reduce_scatter "sum" [{}, {}, {"B"}] %[[G]]
// CHECK-NEXT: %[[M:.*]] = partir_hlo.all_slice [{}, {"M"}, {}] %[[S]]
// CHECK-NEXT: %[[X:.*]] = partir_hlo.all_slice [{"S"}, {}, {}] %[[M]]
// CHECK-NEXT: stablehlo.exponential %[[X]]

// REF: error: planned program: a state priced by the reference path

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2, "S"=3]>} {
  func.func @main(%a: tensor<6x5x8xf32>, %b: tensor<6x8x12xf32>) -> (tensor<6x5x12xf32>) {
    %n = stablehlo.negate %a : tensor<6x5x8xf32>
    %m = stablehlo.negate %b : tensor<6x8x12xf32>
    %p = stablehlo.dot_general %n, %m, batching_dims = [0] x [0], contracting_dims = [2] x [1] {partir.loops = ["B:3", "M:1"]} : (tensor<6x5x8xf32>, tensor<6x8x12xf32>) -> tensor<6x5x12xf32>
    %e = stablehlo.exponential %p {partir.loops = ["B:2", "M:1", "S:0"]} : tensor<6x5x12xf32>
    return %e : tensor<6x5x12xf32>
  }
}
