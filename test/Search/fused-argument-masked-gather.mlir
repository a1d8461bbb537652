// An argument whose tiling loop fused into its reader's outer loop (%w's
// M tile into the dot's M loop over the contraction) runs its gathers in
// that loop's body, ahead of the reader's inner slices, even when the
// reader reads it through a padding mask (7 rows over M: 4 per device, the
// last one padded). The planner kept a masked operand's gather right
// before its mask, after the other operand's B slice: peak 488 B against
// lowering's 536 B, 9% low (found by review on random padded programs,
// mesh order M then B).
//
// RUN: toast-opt %s --toast-emit-planned="device=a100" --partir-simulate="device=a100 summary=true" -o %t.planned.mlir 2>&1 | FileCheck %s --check-prefix=COST
// RUN: toast-opt %s --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST
// RUN: FileCheck %s --check-prefix=PLAN < %t.planned.mlir
// RUN: toast-run --compare %s %t.planned.mlir | FileCheck %s --check-prefix=AGREE
// COST: step time      : 16.002 us
// COST: peak memory    : 536 B
// PLAN: stablehlo.transpose
// PLAN-NEXT: partir_hlo.all_gather [{}, {"B"}] %arg2
// PLAN-NEXT: partir_hlo.all_slice [{"B"}, {}]
// PLAN: stablehlo.select
// PLAN: stablehlo.select
// PLAN-NEXT: stablehlo.dot_general
// AGREE: results agree

module attributes {partir.mesh = #partir.mesh<["M"=2, "B"=3]>} {
  func.func @main(%x: tensor<8x12xf32> {partir.tiling = ["B:1"]}, %u: tensor<12x7xf32> {partir.tiling = ["M:1", "B:0"]}, %w: tensor<7x5xf32> {partir.tiling = ["M:0", "B:1"]}) -> (tensor<7x8xf32>, tensor<8x5xf32>) {
    %0 = stablehlo.dot_general %x, %u, contracting_dims = [1] x [0] {partir.loops = ["M:1", "B:2"]} : (tensor<8x12xf32>, tensor<12x7xf32>) -> tensor<8x7xf32>
    %1 = stablehlo.transpose %0, dims = [1, 0] {partir.loops = ["M:0", "B:1"]} : (tensor<8x7xf32>) -> tensor<7x8xf32>
    %2 = stablehlo.dot_general %0, %w, contracting_dims = [1] x [0] {partir.loops = ["M:2", "B:0"]} : (tensor<8x7xf32>, tensor<7x5xf32>) -> tensor<8x5xf32>
    return %1, %2 : tensor<7x8xf32>, tensor<8x5xf32>
  }
}
