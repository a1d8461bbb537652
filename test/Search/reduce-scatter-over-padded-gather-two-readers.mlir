// reduce-scatter-over-padded-gather.mlir with two readers that slice the
// sum's axis (B) first and differ after it: tanh slices its columns again
// on M (even), exp the padded rows on M. The optimizer visits the last
// reader (exp) first: its padded M slice does not merge with its B slice,
// so the B slices of both readers are the all_reduce's only users and
// become one reduce_scatter; tanh's even M slice is then a slice of the
// reduce_scatter, not merged with its B slice. The planner follows this
// when the last reader's second slice pads (Evaluation::firstSlicesMeetSum;
// the t2b vocabulary-31 agreement states of this kind, 2 of 46, went to
// the reference path until session 23). The planned program is the
// lowered one and runs as the original.
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

// CHECK: %[[G:.*]] = partir_hlo.all_gather [{"M"}, {}] {{.*}} : tensor<3x16xf32> -> tensor<5x16xf32>
// CHECK-NEXT: %[[S:.*]] = partir_hlo.reduce_scatter "sum" [{}, {"B"}] %[[G]] : tensor<5x16xf32> -> tensor<5x4xf32>
// CHECK-NEXT: %[[T:.*]] = partir_hlo.all_slice [{}, {"M"}] %[[S]] : tensor<5x4xf32> -> tensor<5x2xf32>
// CHECK-NEXT: stablehlo.tanh %[[T]]
// CHECK-NEXT: %[[E:.*]] = partir_hlo.all_slice [{"M"}, {}] %[[S]] : tensor<5x4xf32> -> tensor<3x4xf32>
// CHECK-NEXT: stablehlo.exponential %[[E]]

// SAME: results agree

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%a: tensor<5x8xf32>, %b: tensor<8x16xf32>) -> (tensor<5x16xf32>, tensor<5x16xf32>) {
    %n = stablehlo.negate %a : tensor<5x8xf32>
    %p = stablehlo.dot_general %n, %b, contracting_dims = [1] x [0] {partir.loops = ["B:2", "M:0"]} : (tensor<5x8xf32>, tensor<8x16xf32>) -> tensor<5x16xf32>
    %t = stablehlo.tanh %p {partir.loops = ["B:1", "M:1"]} : tensor<5x16xf32>
    %e = stablehlo.exponential %p {partir.loops = ["B:1", "M:0"]} : tensor<5x16xf32>
    return %t, %e : tensor<5x16xf32>, tensor<5x16xf32>
  }
}
