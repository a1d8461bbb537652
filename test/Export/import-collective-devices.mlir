// Collectives in a shard_map body keep their replica_groups through
// lowering, so the groups must name the mesh's devices, and groups over
// global device ids must hold every device. Lowering checks this with the
// check the automatic partitioner runs up front, so the import path
// (import, materialize, lower, simulate) rejects such programs as
// --toast-auto-partition and toast-run do, instead of pricing them.
// RUN: split-file %s %t
// RUN: toast-opt %t/device9.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo --partir-simulate=device=a100 -verify-diagnostics -o /dev/null
// RUN: toast-opt %t/missing.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo --partir-simulate=device=a100 -verify-diagnostics -o /dev/null
// RUN: toast-opt %t/padded.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo --partir-simulate=device=a100 -verify-diagnostics -o /dev/null
// RUN: not toast-opt %t/missing.mlir --toast-auto-partition="mesh=B=2,M=2 rollouts=5 budget-s=0 progress=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: not toast-run %t/missing.mlir 2>&1 | FileCheck %s --check-prefix=INTERP
// Groups that cover the mesh lower and run.
// RUN: toast-opt %t/ok.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo -o %t/ok.hlo.mlir
// RUN: toast-run --compare %t/ok.mlir %t/ok.hlo.mlir | FileCheck %s --check-prefix=OK

// AUTO: missing.mlir:7:12: error: automatic partition: this collective leaves device 2 of the mesh #partir.mesh<["B"=2, "M"=2]> out of every replica group
// INTERP: error: toast-run: device 2 is in none of the replica_groups
// OK: result #0 tensor<8x6xf32>: {{.*}}: ok

//--- device9.mlir
module @m attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["B"=2, "M"=2]>
  func.func public @main(%x: tensor<8x4xf32>, %w: tensor<4x6xf32>) -> tensor<8x6xf32> {
    %0 = sdy.manual_computation(%x, %w) in_shardings=[<@mesh, [{"B"}, {"M"}]>, <@mesh, [{"M"}, {}]>] out_shardings=[<@mesh, [{"B"}, {}]>] manual_axes={"B", "M"} (%l: tensor<4x2xf32>, %lw: tensor<2x6xf32>) {
      %p = stablehlo.dot_general %l, %lw, contracting_dims = [1] x [0] : (tensor<4x2xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
      // expected-error @+1 {{cannot lower: this collective names device 9, which the mesh #partir.mesh<["B"=2, "M"=2]> of 4 devices does not have}}
      %s = "stablehlo.all_reduce"(%p) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 9]]> : tensor<2x2xi64>, use_global_device_ids}> ({
      ^bb0(%u: tensor<f32>, %v: tensor<f32>):
        %t = stablehlo.add %u, %v : tensor<f32>
        stablehlo.return %t : tensor<f32>
      }) : (tensor<4x6xf32>) -> tensor<4x6xf32>
      sdy.return %s : tensor<4x6xf32>
    } : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
    return %0 : tensor<8x6xf32>
  }
}

//--- missing.mlir
module @m attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["B"=2, "M"=2]>
  func.func public @main(%x: tensor<8x4xf32>, %w: tensor<4x6xf32>) -> tensor<8x6xf32> {
    %0 = sdy.manual_computation(%x, %w) in_shardings=[<@mesh, [{"B"}, {"M"}]>, <@mesh, [{"M"}, {}]>] out_shardings=[<@mesh, [{"B"}, {}]>] manual_axes={"B", "M"} (%l: tensor<4x2xf32>, %lw: tensor<2x6xf32>) {
      %p = stablehlo.dot_general %l, %lw, contracting_dims = [1] x [0] : (tensor<4x2xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
      // expected-error @+1 {{cannot lower: this collective leaves device 2 of the mesh #partir.mesh<["B"=2, "M"=2]> out of every replica group}}
      %s = "stablehlo.all_reduce"(%p) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
      ^bb0(%u: tensor<f32>, %v: tensor<f32>):
        %t = stablehlo.add %u, %v : tensor<f32>
        stablehlo.return %t : tensor<f32>
      }) : (tensor<4x6xf32>) -> tensor<4x6xf32>
      sdy.return %s : tensor<4x6xf32>
    } : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
    return %0 : tensor<8x6xf32>
  }
}

//--- padded.mlir
module @m attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["B"=2, "M"=2]>
  func.func public @main(%x: tensor<8x4xf32>, %w: tensor<4x6xf32>) -> tensor<8x6xf32> {
    %0 = sdy.manual_computation(%x, %w) in_shardings=[<@mesh, [{"B"}, {"M"}]>, <@mesh, [{"M"}, {}]>] out_shardings=[<@mesh, [{"B"}, {}]>] manual_axes={"B", "M"} (%l: tensor<4x2xf32>, %lw: tensor<2x6xf32>) {
      %p = stablehlo.dot_general %l, %lw, contracting_dims = [1] x [0] : (tensor<4x2xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
      // expected-error @+1 {{cannot lower: this collective leaves device 3 of the mesh #partir.mesh<["B"=2, "M"=2]> out of every replica group}}
      %s = "stablehlo.all_reduce"(%p) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, -1]]> : tensor<2x2xi64>, use_global_device_ids}> ({
      ^bb0(%u: tensor<f32>, %v: tensor<f32>):
        %t = stablehlo.add %u, %v : tensor<f32>
        stablehlo.return %t : tensor<f32>
      }) : (tensor<4x6xf32>) -> tensor<4x6xf32>
      sdy.return %s : tensor<4x6xf32>
    } : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
    return %0 : tensor<8x6xf32>
  }
}

//--- ok.mlir
module @m attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["B"=2, "M"=2]>
  func.func public @main(%x: tensor<8x4xf32>, %w: tensor<4x6xf32>) -> tensor<8x6xf32> {
    %0 = sdy.manual_computation(%x, %w) in_shardings=[<@mesh, [{"B"}, {"M"}]>, <@mesh, [{"M"}, {}]>] out_shardings=[<@mesh, [{"B"}, {}]>] manual_axes={"B", "M"} (%l: tensor<4x2xf32>, %lw: tensor<2x6xf32>) {
      %p = stablehlo.dot_general %l, %lw, contracting_dims = [1] x [0] : (tensor<4x2xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
      %s = "stablehlo.all_reduce"(%p) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
      ^bb0(%u: tensor<f32>, %v: tensor<f32>):
        %t = stablehlo.add %u, %v : tensor<f32>
        stablehlo.return %t : tensor<f32>
      }) : (tensor<4x6xf32>) -> tensor<4x6xf32>
      sdy.return %s : tensor<4x6xf32>
    } : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
    return %0 : tensor<8x6xf32>
  }
}
