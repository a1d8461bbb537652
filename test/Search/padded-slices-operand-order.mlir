// The order in which an op reads its operands' padded slices. Padded slices
// of one use do not merge, so an op may read an operand sliced at an inner
// loop level (here %a, tiled on B, sliced on M) and then one sliced at an
// outer level (%b, tiled on M, sliced on B: 6 rows over 4 devices, padded).
// materializeCore puts every slice of an op in its innermost loop body,
// operand after operand, each operand's outer level first, so the lowered
// program reads them in operand order (not loop level by loop level), as
// the pricer and the planned emitter do (inputOrder). Until session 23 the
// planner sent such states to the reference path (checkPaddedOrder, on the
// premise that lowering interleaves the levels): 24 of a 1,500-rollout
// search's states on the torch-xla MoE export, and with loop regions'
// padded chains replanned most of the GPT-2 decode export's.
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

// CHECK: %[[A:.*]] = stablehlo.exponential
// CHECK: %[[B:.*]] = stablehlo.tanh
// CHECK: %[[AM:.*]] = partir_hlo.all_slice [{}, {"M"}] %[[A]]
// CHECK-NEXT: %[[BG:.*]] = partir_hlo.all_gather [{}, {"M"}] %[[B]]
// CHECK-NEXT: %[[BB:.*]] = partir_hlo.all_slice [{"B"}, {}] %[[BG]]
// CHECK-NEXT: %[[BM:.*]] = partir_hlo.all_slice [{}, {"M"}] %[[BB]]
// CHECK-NEXT: stablehlo.add %[[AM]], %[[BM]]

// SAME: results agree

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%x: tensor<6x10xf32>, %y: tensor<6x10xf32>) -> (tensor<6x10xf32>, tensor<6x10xf32>, tensor<6x10xf32>) {
    %a = stablehlo.exponential %x {partir.loops = ["B:0"]} : tensor<6x10xf32>
    %b = stablehlo.tanh %y {partir.loops = ["M:1"]} : tensor<6x10xf32>
    %r = stablehlo.add %a, %b {partir.loops = ["B:0", "M:1"]} : tensor<6x10xf32>
    return %r, %a, %b : tensor<6x10xf32>, tensor<6x10xf32>, tensor<6x10xf32>
  }
}
