// The reduce_scatter past outer tiles (reduce-scatter-outer-tile.mlir)
// needs the producer's tile loop to fuse into its reader, or the reader's
// slice to cancel its gather: one live reader and no dead one. Two live
// readers (two.mlir) or a dead second reader (dead.mlir, which keeps Core's fuser
// from fusing: dead-reader-blocks-fusion.mlir) leave the all_reduce over S
// and the slices; the rule priced a reduce_scatter there, 4.001 us where
// lowering runs 8.001 us (two.mlir, and its peak 452 B against 536 B) and
// 6.001 us (dead.mlir). Found by the session's review.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: toast-opt %t/two.mlir --toast-emit-planned="device=a100" --partir-simulate="device=a100 summary=true" -o %t/two.planned.mlir 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: toast-opt %t/two.mlir --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: toast-run --compare %t/two.mlir %t/two.planned.mlir | FileCheck %s --check-prefix=AGREE
// TWO: step time      : 8.001 us
// TWO: peak memory    : 536 B
// RUN: toast-opt %t/dead.mlir --toast-emit-planned="device=a100" --partir-simulate="device=a100 summary=true" -o %t/dead.planned.mlir 2>&1 | FileCheck %s --check-prefix=DEAD
// RUN: toast-opt %t/dead.mlir --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEAD
// RUN: toast-run --compare %t/dead.mlir %t/dead.planned.mlir | FileCheck %s --check-prefix=AGREE
// DEAD: step time      : 6.001 us
// DEAD: peak memory    : 452 B
// AGREE: results agree

//--- two.mlir
module attributes {partir.mesh = #partir.mesh<["B"=2, "S"=2, "M"=2]>} {
  func.func @main(%arg0: tensor<6x10xf32> {partir.tiling = ["B:0", "S:1"]}, %arg1: tensor<10x14xf32> {partir.tiling = ["S:0", "M:1"]}) -> (tensor<6x14xf32>, tensor<6x14xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {partir.loops = ["B:0", "S:2", "M:1"]} : (tensor<6x10xf32>, tensor<10x14xf32>) -> tensor<6x14xf32>
    %1 = stablehlo.tanh %0 {partir.loops = ["B:0", "S:1"]} : tensor<6x14xf32>
    %2 = stablehlo.exponential %0 {partir.loops = ["B:0", "S:1"]} : tensor<6x14xf32>
    return %1, %2 : tensor<6x14xf32>, tensor<6x14xf32>
  }
}
//--- dead.mlir
module attributes {partir.mesh = #partir.mesh<["B"=2, "S"=2, "M"=2]>} {
  func.func @main(%arg0: tensor<6x10xf32> {partir.tiling = ["B:0", "S:1"]}, %arg1: tensor<10x14xf32> {partir.tiling = ["S:0", "M:1"]}) -> (tensor<6x14xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] {partir.loops = ["B:0", "S:2", "M:1"]} : (tensor<6x10xf32>, tensor<10x14xf32>) -> tensor<6x14xf32>
    %9 = stablehlo.exponential %0 {partir.loops = ["B:0", "S:1"]} : tensor<6x14xf32>
    %1 = stablehlo.tanh %0 {partir.loops = ["B:0", "S:1"]} : tensor<6x14xf32>
    return %1 : tensor<6x14xf32>
  }
}
