// A reader of a partial sum with a padded tile inside it that the planner
// does not follow, kept out of the analytic cost (the reference path
// prices it): a dead reader. Its slices take part in the optimizer's
// rewrites until canonicalization erases it, so the live reader's first
// slice (the sum's axis) and the dead one's become a reduce_scatter; the
// planner has no nest for a dead reader and refuses the reduce_scatter
// (Evaluation::scatterOutermostSum), and the live reader's chain, whose
// B slice stands behind a gather of a tile inside the sum only, is not
// replanned either (replanPaddedUse: planned as a slice it was 1.75x high,
// session 24). From review12 (session 23); its other programs are planned
// now (reduce-scatter-over-padded-gather-several-slices.mlir). When the
// planner learns this one, replace the REF line by the equality checks of
// reduce-scatter-over-padded-gather.mlir.
//
// RUN: not toast-opt %s --toast-emit-planned -o /dev/null 2>&1 | FileCheck %s --check-prefix=REF
// RUN: toast-opt %s --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives -o - | FileCheck %s

// REF: error: planned program: a state priced by the reference path

// CHECK: %[[G:.*]] = partir_hlo.all_gather [{"M"}, {}]
// CHECK-NEXT: %[[S:.*]] = partir_hlo.reduce_scatter "sum" [{}, {"B"}] %[[G]]
// CHECK-NEXT: %[[M:.*]] = partir_hlo.all_slice [{"M"}, {}] %[[S]]
// CHECK-NEXT: stablehlo.exponential %[[M]]

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2, "S"=3]>} {
  func.func @main(%a: tensor<5x8xf32>, %b: tensor<8x12xf32>) -> (tensor<5x12xf32>) {
    %n = stablehlo.negate %a : tensor<5x8xf32>
    %p = stablehlo.dot_general %n, %b, contracting_dims = [1] x [0] {partir.loops = ["B:2", "M:0"]} : (tensor<5x8xf32>, tensor<8x12xf32>) -> tensor<5x12xf32>
    %e = stablehlo.exponential %p {partir.loops = ["B:1", "M:0"]} : tensor<5x12xf32>
    %t = stablehlo.tanh %p {partir.loops = ["B:1", "M:0"]} : tensor<5x12xf32>
    return %e : tensor<5x12xf32>
  }
}

