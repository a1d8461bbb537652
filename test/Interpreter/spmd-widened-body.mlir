// An all_reduce of f32 values whose body is typed f64 (the verifier accepts
// it): the body's f64 results are stored back as f32 (float-storage.mlir).
// Device d contributes d; each adds (a - b) + b + b.
// RUN: toast-run %s --print-results | FileCheck %s
// RUN: toast-run %s --entry narrow_sum --print-results | FileCheck %s --check-prefix=NARROW
// RUN: toast-run %s --entry narrow_scatter --print-results | FileCheck %s --check-prefix=SCATTER

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

  // A plain add typed bf16 over f32 values adds in bf16, as the same body
  // written otherwise would: each 1 + 2^-8 is 1 in bf16, so the sum is 2
  // (2.0078125 in f32).
  // NARROW: result #0: tensor<2xf32> [2, 2]
  func.func @narrow_sum() -> tensor<2xf32> {
    %x = stablehlo.constant dense<1.00390625> : tensor<2xf32>
    %sum = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
      %s = stablehlo.add %a, %b : tensor<bf16>
      stablehlo.return %s : tensor<bf16>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    return %sum : tensor<2xf32>
  }

  // SCATTER: result #0: tensor<1xf32> [2]{{$}}
  func.func @narrow_scatter() -> tensor<1xf32> {
    %x = stablehlo.constant dense<1.00390625> : tensor<2xf32>
    %sum = "stablehlo.reduce_scatter"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
    ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
      %s = stablehlo.add %a, %b : tensor<bf16>
      stablehlo.return %s : tensor<bf16>
    }) : (tensor<2xf32>) -> tensor<1xf32>
    return %sum : tensor<1xf32>
  }
}
