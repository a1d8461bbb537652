// The JAX shard_map pipeline export: toast-run runs the original (the
// region on 8 devices, collective_permute between stages), the import takes
// the boundary shardings, and the lowering inlines the region with no
// gather or slice at all (every layout already matches); the device-local
// program and its StableHLO export compute what the original computes.
// REQUIRES: corpus
// RUN: toast-opt %corpus/exports/jax_mlp_pipeline_shardmap_sdy.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo -o %t.hlo.mlir
// RUN: FileCheck %s --input-file=%t.hlo.mlir
// RUN: not grep -E "partir_hlo.all_(gather|slice)|sdy.manual_computation" %t.hlo.mlir
// RUN: toast-run --compare %corpus/exports/jax_mlp_pipeline_shardmap_sdy.mlir %t.hlo.mlir | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t.hlo.mlir --partir-export-stablehlo -o %t.shlo.mlir
// RUN: toast-run --compare %corpus/exports/jax_mlp_pipeline_shardmap_sdy.mlir %t.shlo.mlir | FileCheck %s --check-prefix=AGREE
// RUN: FileCheck %s --check-prefix=SHLO --input-file=%t.shlo.mlir

// CHECK-LABEL: func.func public @main
// CHECK-SAME: %arg2: tensor<2x128x128xf32> {partir.sharding = {{\[\["stages"\], \[\], \[\]\]}}}
// CHECK-SAME: %arg6: tensor<16x784xf32> {partir.sharding = {{\[\["stages"\], \[\]\]}}}
// CHECK-NOT: sdy.manual_computation
// CHECK-NOT: partir_hlo.all_gather
// CHECK-NOT: partir_hlo.all_slice
// CHECK: "stablehlo.collective_permute"
// CHECK: return

// AGREE: @main runs SPMD on 8 devices
// AGREE: results agree

// SHLO-NOT: sdy.
