// An all_reduce of f32 values whose body is typed f64 (the verifier accepts
// it): the body's f64 results are stored back as f32 (float-storage.mlir).
// Device d contributes d; each adds (a - b) + b + b.
// RUN: toast-run %s --print-results | FileCheck %s

// CHECK: @main runs SPMD on 2 devices
// CHECK: result #0: tensor<2xf32> [1, 1]
module attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main() -> tensor<2xf32> {
    %pid = stablehlo.partition_id : tensor<ui32>
    %p = stablehlo.convert %pid : (tensor<ui32>) -> tensor<f32>
    %x = stablehlo.broadcast_in_dim %p, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %sum = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f64>, %b: tensor<f64>):
      %d = stablehlo.subtract %a, %b : tensor<f64>
      %e = stablehlo.add %d, %b : tensor<f64>
      %s = stablehlo.add %e, %b : tensor<f64>
      stablehlo.return %s : tensor<f64>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    return %sum : tensor<2xf32>
  }
}
