// A partial sum over B whose producer also tiles a padded dimension on M
// (5 rows over M:2) inside the sum, read by two ops that slice B first and
// then M. Lowering gathers the M tile and then sums over B; the readers'
// M slices pad, so they do not merge with their B slices, and those B
// slices are the all_reduce's only users: the optimizer (readers first)
// turns them into one reduce_scatter before ReduceBeforeGather could move
// the sum below the gather. What is left is the padded gather, the
// reduce_scatter, and each reader's M slice of it
// (Evaluation::firstSlicesMeetSum). Until session 23 the planner sent such
// states to the reference path (padsPastScatter: "a padded tile inside the
// sum"); the planned program now is the lowered one, simulates to the same
// step time and peak, and runs as the original.
//
// RUN: toast-opt %s --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="device=a100 summary" -o %t.core.mlir 2> %t.core.txt
// RUN: toast-opt %s --toast-emit-planned --partir-simulate="device=a100 summary" -o %t.planned.mlir 2> %t.planned.txt
// RUN: cat %t.core.txt %t.planned.txt | FileCheck %s --check-prefix=PEAK
// RUN: FileCheck %s < %t.core.mlir
// RUN: FileCheck %s < %t.planned.mlir
// RUN: toast-run --compare %s %t.planned.mlir | FileCheck %s --check-prefix=SAME

// PEAK: step time : [[TIME:.*]]
// PEAK: peak memory : [[PEAK:[0-9]+]] B of
// PEAK: step time : [[TIME]]
// PEAK: peak memory : [[PEAK]] B of

// CHECK: %[[P:.*]] = stablehlo.dot_general
// CHECK-NEXT: %[[G:.*]] = partir_hlo.all_gather [{"M"}, {}] %[[P]] : tensor<3x12xf32> -> tensor<5x12xf32>
// CHECK-NEXT: %[[S:.*]] = partir_hlo.reduce_scatter "sum" [{}, {"B"}] %[[G]] : tensor<5x12xf32> -> tensor<5x3xf32>
// CHECK-NEXT: %[[E:.*]] = partir_hlo.all_slice [{"M"}, {}] %[[S]]
// CHECK-NEXT: stablehlo.exponential %[[E]]
// CHECK-NEXT: %[[T:.*]] = partir_hlo.all_slice [{"M"}, {}] %[[S]]
// CHECK-NEXT: stablehlo.tanh %[[T]]

// SAME: results agree

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%a: tensor<5x8xf32>, %b: tensor<8x12xf32>) -> (tensor<5x12xf32>, tensor<5x12xf32>) {
    %n = stablehlo.negate %a : tensor<5x8xf32>
    %p = stablehlo.dot_general %n, %b, contracting_dims = [1] x [0] {partir.loops = ["B:2", "M:0"]} : (tensor<5x8xf32>, tensor<8x12xf32>) -> tensor<5x12xf32>
    %e = stablehlo.exponential %p {partir.loops = ["B:1", "M:0"]} : tensor<5x12xf32>
    %t = stablehlo.tanh %p {partir.loops = ["B:1", "M:0"]} : tensor<5x12xf32>
    return %e, %t : tensor<5x12xf32>, tensor<5x12xf32>
  }
}
