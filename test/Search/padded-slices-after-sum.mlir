// A partial sum read by slices that do not merge because one pads (10
// columns over M:3): the reader's first slice, even and on the summed
// axis, meets the all_reduce and the pair becomes a reduce_scatter, the
// padded slice stays (first.mlir); behind the padded slice the even one
// stays a slice and the all_reduce stays (behind.mlir). Both were states
// the planner left to the reference path ("an even slice on a summed
// axis"); on the torch-mlir DETR export ({B:4, M:2}, 200 rollouts, seed 1)
// a 200-rollout search priced 24 states by the reference path, 41 before.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: toast-opt %t/first.mlir --toast-emit-planned="device=a100" --partir-simulate="device=a100 summary=true" -o %t/first.planned.mlir 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: toast-opt %t/first.mlir --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: FileCheck %s --check-prefix=FIRST-PLAN < %t/first.planned.mlir
// RUN: toast-run --compare %t/first.mlir %t/first.planned.mlir | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/behind.mlir --toast-emit-planned="device=a100" --partir-simulate="device=a100 summary=true" -o %t/behind.planned.mlir 2>&1 | FileCheck %s --check-prefix=BEHIND
// RUN: toast-opt %t/behind.mlir --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEHIND
// RUN: FileCheck %s --check-prefix=BEHIND-PLAN < %t/behind.planned.mlir
// RUN: toast-run --compare %t/behind.mlir %t/behind.planned.mlir | FileCheck %s --check-prefix=AGREE
// FIRST: step time      : 6.001 us
// FIRST: peak memory    : 688 B
// FIRST-PLAN: partir_hlo.reduce_scatter "sum" [{"B"}, {}]
// FIRST-PLAN-NEXT: partir_hlo.all_slice [{}, {"M"}]
// BEHIND: step time      : 12.002 us
// BEHIND: peak memory    : 928 B
// BEHIND-PLAN: partir_hlo.all_reduce "sum" ["B"]
// BEHIND-PLAN-NEXT: partir_hlo.all_slice [{}, {"M"}]
// BEHIND-PLAN-NEXT: partir_hlo.all_slice [{"B"}, {}]
// AGREE: results agree

//--- first.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=3]>} {
  func.func @main(%x: tensor<8x16xf32> {partir.tiling = ["B:1"]}, %w: tensor<16x10xf32> {partir.tiling = ["B:0"]}) -> tensor<8x10xf32> {
    %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] {partir.loops = ["B:2"]} : (tensor<8x16xf32>, tensor<16x10xf32>) -> tensor<8x10xf32>
    %n = stablehlo.negate %d {partir.loops = ["B:0", "M:1"]} : tensor<8x10xf32>
    return %n : tensor<8x10xf32>
  }
}
//--- behind.mlir
module attributes {partir.mesh = #partir.mesh<["M"=3, "B"=4]>} {
  func.func @main(%x: tensor<8x16xf32> {partir.tiling = ["B:1"]}, %w: tensor<16x10xf32> {partir.tiling = ["B:0"]}) -> tensor<8x10xf32> {
    %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] {partir.loops = ["B:2"]} : (tensor<8x16xf32>, tensor<16x10xf32>) -> tensor<8x10xf32>
    %n = stablehlo.negate %d {partir.loops = ["M:1", "B:0"]} : tensor<8x10xf32>
    return %n : tensor<8x10xf32>
  }
}
