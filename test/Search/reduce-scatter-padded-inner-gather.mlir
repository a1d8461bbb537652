// The gathers under a reduce_scatter stay one per padded level: the dot's
// rows (9 over S:2, 5 per device, 1 of padding on the last) and columns
// (14 over M:2) are gathered before the sum over B meets the reader's
// slice of rows on B. The optimizer merges two gathers only when neither
// pads, so lowering gathers M, then S, then scatters; the planner merged
// them into one all_gather over S and M: 10.003 us (a 4-device ring)
// against lowering's 8.003 us, and 1032 B of peak against 1144 B (found by
// review on random programs; 13 of 71 programs had states off).
//
// RUN: toast-opt %s --toast-emit-planned="device=a100" --partir-simulate="device=a100 summary=true" -o %t.planned.mlir 2>&1 | FileCheck %s --check-prefix=COST
// RUN: toast-opt %s --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST
// RUN: FileCheck %s --check-prefix=PLAN < %t.planned.mlir
// RUN: toast-run --compare %s %t.planned.mlir | FileCheck %s --check-prefix=AGREE
// COST: step time      : 8.003 us
// COST: peak memory    : {{.*}} (1144 B)
// PLAN: partir_hlo.all_gather [{}, {"M"}] {{.*}} -> tensor<5x14xf32>
// PLAN-NEXT: partir_hlo.all_gather [{"S"}, {}] {{.*}} -> tensor<9x14xf32>
// PLAN-NEXT: partir_hlo.reduce_scatter "sum" [{"B"}, {}]
// AGREE: results agree

module attributes {partir.mesh = #partir.mesh<["B"=3, "S"=2, "M"=2]>} {
  func.func @main(%x: tensor<9x12xf32> {partir.tiling = ["B:1", "S:0"]}, %w: tensor<12x14xf32> {partir.tiling = ["B:0", "M:1"]}, %v: tensor<14x5xf32> {partir.tiling = ["M:1"]}) -> tensor<9x5xf32> {
    %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] {partir.loops = ["B:2", "S:0", "M:1"]} : (tensor<9x12xf32>, tensor<12x14xf32>) -> tensor<9x14xf32>
    %1 = stablehlo.dot_general %0, %v, contracting_dims = [1] x [0] {partir.loops = ["B:0", "M:1"]} : (tensor<9x14xf32>, tensor<14x5xf32>) -> tensor<9x5xf32>
    return %1 : tensor<9x5xf32>
  }
}
