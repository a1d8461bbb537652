// A padded tile outside the sum does not keep the partial sum from a
// reduce_scatter: the dot's tile of 10 columns over B:3 (4 per device, 2 of
// padding on the last) fuses into the add, which pads no collective, and
// the sum over S meets the add's slice on S after the inner M tile's
// gather. The planner gave up on any padded slicing of a reader and priced
// an all_reduce over S, the gather and a slice: 6.001 us against lowering's
// 4.001 us (odd3 on {B:3, S:2, M:2}: 6 states 5-14% high).
//
// RUN: toast-opt %s --toast-emit-planned="device=a100" --partir-simulate="device=a100 summary=true" -o %t.planned.mlir 2>&1 | FileCheck %s --check-prefix=COST
// RUN: toast-opt %s --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST
// RUN: FileCheck %s --check-prefix=PLAN < %t.planned.mlir
// RUN: toast-run --compare %s %t.planned.mlir | FileCheck %s --check-prefix=AGREE
// COST: step time      : 4.001 us
// COST: peak memory    : 388 B
// PLAN: partir_hlo.all_gather [{"M"}, {}]
// PLAN-NEXT: partir_hlo.reduce_scatter "sum" [{"S"}, {}]
// PLAN-NOT: all_reduce
// AGREE: results agree

module attributes {partir.mesh = #partir.mesh<["B"=3, "S"=2, "M"=2]>} {
  func.func @main(%h: tensor<6x14xf32> {partir.tiling = ["S:1", "M:0"]}, %w: tensor<14x10xf32> {partir.tiling = ["B:1", "S:0"]}, %a: tensor<6x10xf32> {partir.tiling = ["B:1", "S:0"]}) -> tensor<6x10xf32> {
    %d = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] {partir.loops = ["B:1", "S:2", "M:0"]} : (tensor<6x14xf32>, tensor<14x10xf32>) -> tensor<6x10xf32>
    %s = stablehlo.add %d, %a {partir.loops = ["B:1", "S:0"]} : tensor<6x10xf32>
    return %s : tensor<6x10xf32>
  }
}
