// A scanned MLP (Inputs/scan-mlp.mlir: stacked [L, ...] weights sliced per
// iteration by dynamic_slice at the loop counter) under batch, Megatron and
// ZeRO-3 schedules. The loop's carried values become device-local shards,
// the collectives the plan needs sit inside the body (once per layer), and
// every partitioned program computes what the original does.
//
// Batch parallelism: the carried activations are [8, 16] shards and the body
// needs no collective at all.
// RUN: toast-opt %S/Inputs/scan-mlp.mlir --partir-manual-partition="axis=B inputs=batch.x=0 mesh=B=4" --partir-materialize-core --partir-lower-to-hlo -o %t.bp.mlir
// RUN: FileCheck %s --check-prefix=BP < %t.bp.mlir
// RUN: toast-run --compare %S/Inputs/scan-mlp.mlir %t.bp.mlir | FileCheck %s --check-prefix=SAME
//
// BP: func.func public @main(%arg0: tensor<8x16xf32>
// BP-NOT: partir_hlo.
// BP: stablehlo.while({{.*}}) : tensor<i32>, tensor<8x16xf32>, tensor<4x16x64xf32>, tensor<4x64x16xf32>
// BP-NOT: partir_hlo.
// BP: stablehlo.return {{.*}} : tensor<i32>, tensor<8x16xf32>, tensor<4x16x64xf32>, tensor<4x64x16xf32>
// BP-NOT: partir_hlo.
// BP: return {{.*}} : tensor<8x16xf32>
//
// Batch + Megatron: the stacked weights are carried as their M shards and
// the body all-reduces each layer's output once.
// RUN: toast-opt %S/Inputs/scan-mlp.mlir --partir-manual-partition="axis=B inputs=batch.x=0 mesh=B=4,M=2" --partir-manual-partition="axis=M inputs=params.layers.w1=2" --partir-materialize-core --partir-lower-to-hlo -o %t.mp.mlir
// RUN: FileCheck %s --check-prefix=MP < %t.mp.mlir
// RUN: toast-run --compare %S/Inputs/scan-mlp.mlir %t.mp.mlir | FileCheck %s --check-prefix=SAME
//
// MP: stablehlo.while({{.*}}) : tensor<i32>, tensor<8x16xf32>, tensor<4x16x32xf32>, tensor<4x32x16xf32>
// MP: } do {
// MP-NOT: partir_hlo.
// MP: partir_hlo.all_reduce "sum" ["M"] {{.*}} : tensor<8x16xf32>
// MP-NOT: partir_hlo.
// MP: stablehlo.return
//
// + ZeRO-3 over B: the stacks are carried sharded on B too and each layer's
// weights are gathered inside the body, one layer at a time (FSDP).
// RUN: toast-opt %S/Inputs/scan-mlp.mlir --partir-manual-partition="axis=B inputs=batch.x=0 mesh=B=4,M=2" --partir-manual-partition="axis=M inputs=params.layers.w1=2" --partir-manual-partition="axis=B inputs=params.layers.w1=1;params.layers.w2=2" --partir-materialize-core --partir-lower-to-hlo -o %t.z3.mlir
// RUN: FileCheck %s --check-prefix=Z3 < %t.z3.mlir
// RUN: toast-run --compare %S/Inputs/scan-mlp.mlir %t.z3.mlir | FileCheck %s --check-prefix=SAME
//
// Z3: stablehlo.while({{.*}}) : tensor<i32>, tensor<8x16xf32>, tensor<4x4x32xf32>, tensor<4x32x4xf32>
// Z3: } do {
// Z3: partir_hlo.all_gather [{"B"}, {}] {{.*}} : tensor<4x32xf32> -> tensor<16x32xf32>
// Z3: partir_hlo.all_gather [{}, {"B"}] {{.*}} : tensor<32x4xf32> -> tensor<32x16xf32>
// Z3: partir_hlo.all_reduce "sum" ["M"]
// Z3: stablehlo.return
// Z3-NOT: partir_hlo.
// Z3: return
//
// The device-local program exports to StableHLO collectives and still runs.
// RUN: toast-opt %t.z3.mlir --partir-export-stablehlo -o %t.z3.export.mlir
// RUN: toast-run --compare %S/Inputs/scan-mlp.mlir %t.z3.export.mlir | FileCheck %s --check-prefix=SAME
//
// In PartIR:Core the while stays global: its block arguments get
// value-tiling loops like function arguments (fused here into the loop of
// the first matmul, which slices the carried activations).
// RUN: toast-opt %S/Inputs/scan-mlp.mlir --partir-manual-partition="axis=B inputs=batch.x=0 mesh=B=4" --partir-materialize-core -o %t.core.mlir
// RUN: FileCheck %s --check-prefix=CORE < %t.core.mlir
// RUN: toast-run --compare %S/Inputs/scan-mlp.mlir %t.core.mlir | FileCheck %s --check-prefix=SAME
//
// CORE: %[[X:.*]] = partir.loop "B" [#partir.tile<0>]
// CORE: stablehlo.while({{.*}} = %[[X]], {{.*}}) : tensor<i32>, tensor<32x16xf32>
// CORE-NOT: partir.loop
// CORE: } do {
// CORE: partir.loop "B" [#partir.tile<0>]
// CORE: partir.slice 0 %iterArg_0
// CORE: stablehlo.dot_general
// CORE: stablehlo.return
// CORE: partir.loop "B" [#partir.tile<0>]
// CORE-NEXT: partir.slice 0 %{{.*}}#1
//
// SAME: results agree
