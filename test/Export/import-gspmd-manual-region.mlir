// The GSPMD form of a shard_map region (what older JAX and PyTorch/XLA
// export): @Sharding + @SPMDFullToShardShape into the region, @Sharding
// {manual} + @SPMDShardToFullShape out of it. The import reads it as an
// sdy.manual_computation on all mesh axes, so it is honoured like one: no
// gather/slice pair at the matching boundary, no custom call left in the
// device-local program or its StableHLO export, and toast-run runs the
// original (reading the region the same way) and compares.
// RUN: split-file %s %t
// RUN: toast-opt %t/gspmd.mlir --partir-import-shardings | FileCheck %s --check-prefix=IMPORT
// RUN: toast-opt %t/gspmd.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo -o %t/hlo.mlir
// RUN: FileCheck %s --check-prefix=HLO --input-file=%t/hlo.mlir
// RUN: not grep -E "custom_call|partir_hlo|sdy.manual" %t/hlo.mlir
// RUN: toast-run --compare %t/matmul.mlir %t/gspmd.mlir | FileCheck %s --check-prefix=AGREE
// RUN: toast-run --compare %t/gspmd.mlir %t/hlo.mlir | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/hlo.mlir --partir-export-stablehlo -o %t/shlo.mlir
// RUN: not grep -E "custom_call|sdy\." %t/shlo.mlir
// RUN: toast-run --compare %t/gspmd.mlir %t/shlo.mlir | FileCheck %s --check-prefix=AGREE
// RUN: not toast-opt %t/escape.mlir --partir-import-shardings 2>&1 | FileCheck %s --check-prefix=ESCAPE
// RUN: not toast-run %t/escape.mlir 2>&1 | FileCheck %s --check-prefix=ESCAPE
// RUN: not toast-opt %t/arity.mlir --partir-import-shardings 2>&1 | FileCheck %s --check-prefix=ARITY
// RUN: not toast-opt %t/no-sharding.mlir --partir-import-shardings 2>&1 | FileCheck %s --check-prefix=NOSHARDING

// AGREE: results agree

// IMPORT: sdy.mesh @mesh = <["d0"=2, "d1"=2]>
// (The region's operand edge reads %arg0 on both axes, so the first tile
// takes the other level along: the levels are of different dimensions, their
// order does not change the layout.)
// IMPORT: func.func @main(%arg0: tensor<8x4xf32> {partir.tiling = ["d1:1", "d0:0"]}, %arg1: tensor<4x6xf32> {partir.atomic = ["d0"], partir.tiling = ["d1:0"]})
// IMPORT-NOT: custom_call
// IMPORT: sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"d0"}, {"d1"}]>, <@mesh, [{"d1"}, {}]>] out_shardings=[<@mesh, [{"d0"}, {}]>] manual_axes={"d0", "d1"} (%{{.*}}: tensor<4x2xf32>, %{{.*}}: tensor<2x6xf32>)
// IMPORT-NOT: custom_call

// HLO: func.func @main(%arg0: tensor<4x2xf32> {partir.sharding = {{\[\["d0"\], \["d1"\]\]}}}, %arg1: tensor<2x6xf32> {partir.sharding = {{\[\["d1"\], \[\]\]}}})
// HLO-NEXT: stablehlo.dot_general %arg0, %arg1
// HLO-NEXT: "stablehlo.all_reduce"

// ARITY: arity.mlir:2:8: error: cannot read the GSPMD manual region: a region boundary takes one operand and has one result
// NOSHARDING: no-sharding.mlir:2:8: error: cannot read the GSPMD manual region: the operand of @SPMDFullToShardShape must be a @Sharding call
// ESCAPE: escape.mlir:8:5: error: cannot read the GSPMD manual region: this op uses a value of the region that does not go through @SPMDShardToFullShape

//--- matmul.mlir
func.func @main(%x: tensor<8x4xf32>, %w: tensor<4x6xf32>) -> tensor<8x6xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

//--- gspmd.mlir
module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%x: tensor<8x4xf32> {mhlo.sharding = "{devices=[2,2]<=[4]}"}, %w: tensor<4x6xf32> {mhlo.sharding = "{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}) -> (tensor<8x6xf32> {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"}) {
    %0 = stablehlo.custom_call @Sharding(%x) {backend_config = "", mhlo.sharding = "{devices=[2,2]<=[4]}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<8x4xf32>) -> tensor<4x2xf32>
    %2 = stablehlo.custom_call @Sharding(%w) {backend_config = "", mhlo.sharding = "{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"} : (tensor<4x6xf32>) -> tensor<4x6xf32>
    %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4x6xf32>) -> tensor<2x6xf32>
    %4 = stablehlo.dot_general %1, %3, contracting_dims = [1] x [0] : (tensor<4x2xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
    %5 = "stablehlo.all_reduce"(%4) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%u: tensor<f32>, %v: tensor<f32>):
      %s = stablehlo.add %u, %v : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4x6xf32>) -> tensor<4x6xf32>
    %6 = stablehlo.custom_call @Sharding(%5) {backend_config = "", mhlo.sharding = "{manual}"} : (tensor<4x6xf32>) -> tensor<4x6xf32>
    %7 = stablehlo.custom_call @SPMDShardToFullShape(%6) {backend_config = "", mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<4x6xf32>) -> tensor<8x6xf32>
    return %7 : tensor<8x6xf32>
  }
}

//--- escape.mlir
module attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
    %0 = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<4xf32>
    %2 = stablehlo.exponential %1 : tensor<4xf32>
    %3 = stablehlo.custom_call @SPMDShardToFullShape(%2) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<4xf32>) -> tensor<8xf32>
    %4 = stablehlo.negate %2 : tensor<4xf32>
    return %3, %4 : tensor<8xf32>, tensor<4xf32>
  }
}

//--- arity.mlir
func.func @main(%x: tensor<8xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @SPMDFullToShardShape() {mhlo.sharding = "{manual}"} : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

//--- no-sharding.mlir
func.func @main(%x: tensor<8xf32>) -> tensor<4xf32> {
  %0 = stablehlo.custom_call @SPMDFullToShardShape(%x) {mhlo.sharding = "{manual}"} : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
