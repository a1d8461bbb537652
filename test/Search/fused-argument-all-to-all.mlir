// A fused argument's inner gathers stay in the fused loop's body when the
// reader's slice turns its outer gather into an all_to_all. The MLP of
// fused-argument-gathers.mlir on {B:2, S:2, M:2}: both weights' tiling
// loops fuse into the second dot's B sum loop; their S and M loops gather
// in that body, in front of the loops holding dot, maximum and dot. Each
// dot's slice on S moves the outer S gather to the other dimension
// (SliceOfGatherToAllToAll, OptimizeCollectives.cpp), which reads the
// inner M gather where lowering put it: both M gathers run first (w2's
// first), each all_to_all right before its dot. The planner placed the M
// gathers before their dots too (aheadLevel only took uses gathering
// every tiling loop left): same step time, peak 7.50 KiB instead of 9.00.
//
// RUN: toast-opt %s --toast-emit-planned="device=a100" --partir-simulate="device=a100 summary=true" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=SIM
// RUN: toast-opt %s --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIM
// SIM: step time      : 16.026 us
// SIM: peak memory    : 9.00 KiB (9220 B)
// SIM: collectives    : all_gather=2 all_reduce=2 reduce_scatter=0 all_to_all=2
// RUN: FileCheck %s --input-file=%t.mlir
// CHECK: partir_hlo.all_gather [{"M"}, {}] %arg2
// CHECK-NEXT: partir_hlo.all_gather [{}, {"M"}] %arg1
// CHECK: partir_hlo.all_to_all 0 -> 1 ["S"]
// CHECK-NEXT: stablehlo.dot_general %arg0
// CHECK: stablehlo.maximum
// CHECK-NEXT: partir_hlo.all_to_all 1 -> 0 ["S"]
// CHECK-NEXT: stablehlo.dot_general
// RUN: toast-run --compare %s %t.mlir | FileCheck %s --check-prefix=AGREE
// AGREE: results agree
//
// The same state with w2 tiled B, M, S (not mesh-axis order): a search
// state records which axes a dimension carries, not their order, so the
// planned program nests w2's loops B, S, M as above, while
// --partir-materialize-core nests them as written: the gathers of M then S
// merge before the slice on S can meet the S gather, and lowering keeps
// an all_gather of [M][S] and an all_slice (18.03 us, 11.00 KiB). The
// emitter says so.
// RUN: sed -e 's/"B:0", "S:1", "M:0"/"B:0", "M:0", "S:1"/' %s > %t.order.mlir
// RUN: toast-opt %t.order.mlir --toast-emit-planned="device=a100" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ORDER
// ORDER: warning: planned program: this argument's tiling is not in mesh-axis order
// RUN: toast-opt %t.order.mlir --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRITTEN
// WRITTEN: step time      : 18.032 us
// WRITTEN: collectives    : all_gather=2 all_reduce=2 reduce_scatter=0 all_to_all=1
// RUN: toast-opt %s --toast-emit-planned="device=a100" -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// QUIET-NOT: warning

module attributes {partir.mesh = #partir.mesh<["B"=2, "S"=2, "M"=2]>} {
  func.func @main(%x: tensor<16x32xf32> {partir.tiling = ["M:0"]}, %w1: tensor<32x64xf32> {partir.tiling = ["B:1", "S:0", "M:1"]}, %w2: tensor<64x32xf32> {partir.tiling = ["B:0", "S:1", "M:0"]}) -> tensor<16x32xf32> {
    %0 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] {partir.loops = ["B:1", "S:1", "M:0"]} : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] {partir.loops = ["B:1", "S:1", "M:0"]} : (tensor<f32>) -> tensor<16x64xf32>
    %2 = stablehlo.maximum %0, %1 {partir.loops = ["B:1", "S:1", "M:0"]} : tensor<16x64xf32>
    %3 = stablehlo.dot_general %2, %w2, contracting_dims = [1] x [0] {partir.loops = ["B:2", "S:2", "M:0"]} : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
    return %3 : tensor<16x32xf32>
  }
}
