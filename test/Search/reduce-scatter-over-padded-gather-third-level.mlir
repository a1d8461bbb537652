// The reader of reduce-scatter-over-padded-gather.mlir with a third slice
// level (S, after the sum's B and the padded M): lowering leaves it a slice
// of its own after the padded one (MergeSlices does not merge a padded
// inner slice). Until session 24 the planner merged the M and S slices
// into one (found by review: 8.0105 against 8.0108 us) and then left such
// states to the reference path; the reader's slices after the
// reduce_scatter are now planned level by level, merged where neither
// pads (Evaluation::splitScatteredRest). The planned program is the
// lowered one, simulates to the same step time and peak, and runs as the
// original.
//
// RUN: toast-opt %s --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="device=a100 summary" -o %t.core.mlir 2> %t.core.txt
// RUN: toast-opt %s --toast-emit-planned --partir-simulate="device=a100 summary" -o %t.planned.mlir 2> %t.planned.txt
// RUN: cat %t.core.txt %t.planned.txt | FileCheck %s --check-prefix=PEAK
// RUN: FileCheck %s < %t.core.mlir
// RUN: FileCheck %s < %t.planned.mlir
// RUN: toast-run --compare %s %t.planned.mlir | FileCheck %s --check-prefix=SAME

// PEAK: step time : [[TIME:.*]]
// PEAK: peak memory : [[PEAK:.*]] of
// PEAK: step time : [[TIME]]
// PEAK: peak memory : [[PEAK]] of

// CHECK: %[[G:.*]] = partir_hlo.all_gather [{}, {"M"}, {}]
// CHECK-NEXT: %[[S:.*]] = partir_hlo.reduce_scatter "sum" [{}, {}, {"B"}] %[[G]]
// CHECK-NEXT: %[[M:.*]] = partir_hlo.all_slice [{}, {"M"}, {}] %[[S]]
// CHECK-NEXT: %[[X:.*]] = partir_hlo.all_slice [{"S"}, {}, {}] %[[M]]
// CHECK-NEXT: stablehlo.exponential %[[X]]

// SAME: results agree

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2, "S"=3]>} {
  func.func @main(%a: tensor<6x5x8xf32>, %b: tensor<6x8x12xf32>) -> (tensor<6x5x12xf32>) {
    %n = stablehlo.negate %a : tensor<6x5x8xf32>
    %m = stablehlo.negate %b : tensor<6x8x12xf32>
    %p = stablehlo.dot_general %n, %m, batching_dims = [0] x [0], contracting_dims = [2] x [1] {partir.loops = ["B:3", "M:1"]} : (tensor<6x5x8xf32>, tensor<6x8x12xf32>) -> tensor<6x5x12xf32>
    %e = stablehlo.exponential %p {partir.loops = ["B:2", "M:1", "S:0"]} : tensor<6x5x12xf32>
    return %e : tensor<6x5x12xf32>
  }
}
