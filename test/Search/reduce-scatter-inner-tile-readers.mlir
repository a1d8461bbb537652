// Tiles inside the sum are gathered after the all_reduce once
// ReduceBeforeGather moved it down, and every reader that slices them
// first cancels that gather: the all_reduce meets the rest of the readers'
// slices as one reduce_scatter, for two live readers as for one. The
// planner took the tile levels only for one live reader (a restriction
// that holds outside the sum, reduce-scatter-several-readers.mlir), so it
// priced an all_reduce, a gather and slices: 8.001 us (peak 536 B) where
// lowering runs 4.001 us. Exhaustive searches of such programs on
// {B:2, S:2, M:2} had 6 states each priced 8-17% high.
// A dead reader is another matter: dead-reader-keeps-all-reduce.mlir.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: toast-opt %t/two.mlir --toast-emit-planned="device=a100" --partir-simulate="device=a100 summary=true" -o %t/two.planned.mlir 2>&1 | FileCheck %s --check-prefix=COST
// RUN: toast-opt %t/two.mlir --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST
// RUN: FileCheck %s --check-prefix=PLAN < %t/two.planned.mlir
// RUN: toast-run --compare %t/two.mlir %t/two.planned.mlir | FileCheck %s --check-prefix=AGREE
// COST: step time      : 4.001 us
// COST: peak memory    : 452 B
// PLAN: partir_hlo.all_gather [{}, {"M"}]
// PLAN-NEXT: partir_hlo.reduce_scatter "sum" [{}, {"B"}]
// PLAN-NOT: all_reduce
// AGREE: results agree

//--- two.mlir
module attributes {partir.mesh = #partir.mesh<["B"=2, "S"=2, "M"=2]>} {
  func.func @main(%arg0: tensor<6x10xf32> {partir.tiling = ["B:1", "S:0"]}, %arg1: tensor<10x14xf32> {partir.tiling = ["B:0", "M:1"]}) -> (tensor<6x14xf32>, tensor<6x14xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {partir.loops = ["B:2", "S:0", "M:1"]} : (tensor<6x10xf32>, tensor<10x14xf32>) -> tensor<6x14xf32>
    %1 = stablehlo.tanh %0 {partir.loops = ["B:1", "S:0"]} : tensor<6x14xf32>
    %2 = stablehlo.exponential %0 {partir.loops = ["B:1", "S:0"]} : tensor<6x14xf32>
    return %1, %2 : tensor<6x14xf32>, tensor<6x14xf32>
  }
}
