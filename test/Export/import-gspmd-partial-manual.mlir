// Partly manual GSPMD regions: a shard_map over a subset of the mesh axes,
// as JAX writes it without Shardy. The boundary calls' local shardings
// carry a manual subgroup (`last_tile_dims={manual, replicated}`) whose
// devices are the manual axes; `unspecified_dims` leave the dimensions to
// the partitioner. The import reads the region as an sdy.manual_computation
// on those axes only, with open boundary dimensions; the body is then
// partitioned on the free axes, and toast-run runs the original and the
// lowered program alike.
// RUN: split-file %s %t
// RUN: toast-opt %t/major.mlir --partir-import-shardings | FileCheck %s --check-prefix=MAJOR
// RUN: toast-opt %t/major.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo -o %t/major-hlo.mlir
// RUN: not grep -E "custom_call|partir_hlo|sdy.manual" %t/major-hlo.mlir
// RUN: toast-run --compare %t/major.mlir %t/major-hlo.mlir --seed 2 | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/major-hlo.mlir --partir-export-stablehlo -o %t/major-shlo.mlir
// RUN: toast-run --compare %t/major.mlir %t/major-shlo.mlir --seed 2 | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/minor.mlir --partir-import-shardings | FileCheck %s --check-prefix=MINOR
// RUN: toast-opt %t/minor.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo -o %t/minor-hlo.mlir
// RUN: FileCheck %s --check-prefix=MINOR-HLO --input-file=%t/minor-hlo.mlir
// RUN: toast-run --compare %t/minor.mlir %t/minor-hlo.mlir --seed 2 | FileCheck %s --check-prefix=AGREE
// RUN: not toast-opt %t/disagree.mlir --partir-import-shardings 2>&1 | FileCheck %s --check-prefix=DISAGREE
// RUN: not toast-run %t/disagree.mlir 2>&1 | FileCheck %s --check-prefix=DISAGREE
// RUN: toast-opt %t/stray.mlir --partir-import-shardings 2>&1 | FileCheck %s --check-prefix=STRAY

// AGREE: results agree

// Manual on the major device axis "d0", the minor one replicates.
// MAJOR: sdy.mesh @mesh = <["d0"=2, "r0"=2]>
// MAJOR: sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"d0", ?}, {?}]>] out_shardings=[<@mesh, [{"d0", ?}, {?}]>] manual_axes={"d0"} (%arg1: tensor<4x4xf32>)
// MAJOR-NOT: custom_call

// Manual on the minor axis "d1" (`<=[2,2]T(1,0)`): the body's matmul is
// partitioned on the free axis "d0" (rows of the operand's shard); its
// all_reduce over "d1" is opaque, so its operand is gathered on "d0".
// MINOR: sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{?}, {"d1"}]>, <@mesh, [{"d1"}, {?}]>] out_shardings=[<@mesh, [{?}, {?}]>] manual_axes={"d1"} (%arg2: tensor<8x2xf32>, %arg3: tensor<2x6xf32>)
// MINOR: stablehlo.dot_general %arg2, %arg3, {{.*}}partir.loops = ["d0:0"]
// MINOR-HLO: func.func public @main(%arg0: tensor<4x2xf32> {partir.sharding = {{\[\["d0"\], \["d1"\]\]}}}, %arg1: tensor<2x6xf32> {partir.sharding = {{\[\["d1"\], \[\]\]}}})
// MINOR-HLO-NEXT: stablehlo.dot_general %arg0, %arg1, {{.*}} -> tensor<4x6xf32>
// MINOR-HLO-NEXT: partir_hlo.all_gather [{"d0"}, {}]
// MINOR-HLO-NEXT: "stablehlo.all_reduce"

// DISAGREE: error: cannot read the GSPMD manual region: its boundaries are manual on different mesh axes
// DISAGREE: note: another boundary of the region

// STRAY: warning: result 0: ignoring mhlo.sharding "{devices=[2,1,2]<=[4] last_tile_dims={manual}}": manual on some axes outside a manual region's boundary

//--- major.mlir
module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32> {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"}) -> (tensor<8x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[1,1,2,2]<=[4] last_tile_dims={manual, replicated}}"} : (tensor<8x4xf32>) -> tensor<4x4xf32>
    %2 = stablehlo.sine %1 {mhlo.sharding = "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dims={manual}}"} : tensor<4x4xf32>
    %3 = "stablehlo.all_reduce"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %4 = stablehlo.custom_call @Sharding(%3) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[1,1,2,2]<=[4] last_tile_dims={manual, replicated}}"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %5 = stablehlo.custom_call @SPMDShardToFullShape(%4) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<4x4xf32>) -> tensor<8x4xf32>
    %6 = stablehlo.cosine %5 : tensor<8x4xf32>
    return %6 : tensor<8x4xf32>
  }
}

//--- minor.mlir
module @jit_g attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32> {mhlo.sharding = "{devices=[2,2]<=[4]}"}, %arg1: tensor<4x6xf32> {mhlo.sharding = "{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"}) -> (tensor<8x6xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "unspecified_dims=[0]", mhlo.sharding = "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "unspecified_dims=[0]", mhlo.sharding = "{devices=[1,1,2,2]<=[2,2]T(1,0) last_tile_dims={manual, replicated}}"} : (tensor<8x4xf32>) -> tensor<8x2xf32>
    %2 = stablehlo.custom_call @Sharding(%arg1) {backend_config = "unspecified_dims=[1]", mhlo.sharding = "{devices=[2,1,2]<=[2,2]T(1,0) last_tile_dim_replicate}"} : (tensor<4x6xf32>) -> tensor<4x6xf32>
    %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {backend_config = "unspecified_dims=[1]", mhlo.sharding = "{devices=[1,1,2,2]<=[2,2]T(1,0) last_tile_dims={manual, replicated}}"} : (tensor<4x6xf32>) -> tensor<2x6xf32>
    %4 = stablehlo.dot_general %1, %3, contracting_dims = [1] x [0] : (tensor<8x2xf32>, tensor<2x6xf32>) -> tensor<8x6xf32>
    %5 = "stablehlo.all_reduce"(%4) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8x6xf32>) -> tensor<8x6xf32>
    %6 = stablehlo.custom_call @Sharding(%5) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[1,1,2,2]<=[2,2]T(1,0) last_tile_dims={manual, replicated}}"} : (tensor<8x6xf32>) -> tensor<8x6xf32>
    %7 = stablehlo.custom_call @SPMDShardToFullShape(%6) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{replicated}"} : (tensor<8x6xf32>) -> tensor<8x6xf32>
    return %7 : tensor<8x6xf32>
  }
}

//--- disagree.mlir
module @jit_h attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32> {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"}) -> (tensor<8x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.custom_call @Sharding(%arg0) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %1 = stablehlo.custom_call @SPMDFullToShardShape(%0) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[1,1,2,2]<=[4] last_tile_dims={manual, replicated}}"} : (tensor<8x4xf32>) -> tensor<4x4xf32>
    %2 = stablehlo.sine %1 {mhlo.sharding = "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dims={manual}}"} : tensor<4x4xf32>
    %3 = "stablehlo.all_reduce"(%2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %4 = stablehlo.custom_call @Sharding(%3) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[1,1,2,2]<=[2,2]T(1,0) last_tile_dims={manual, replicated}}"} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %5 = stablehlo.custom_call @SPMDShardToFullShape(%4) {backend_config = "unspecified_dims=[0,1]", mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"} : (tensor<4x4xf32>) -> tensor<8x4xf32>
    %6 = stablehlo.cosine %5 : tensor<8x4xf32>
    return %6 : tensor<8x4xf32>
  }
}

//--- stray.mlir
module {
  func.func @main(%arg0: tensor<8x4xf32>) -> (tensor<8x4xf32> {mhlo.sharding = "{devices=[2,1,2]<=[4] last_tile_dims={manual}}"}) {
    return %arg0 : tensor<8x4xf32>
  }
}
