// The BP+MP+Z3 matmul chain as device-local StableHLO with stablehlo
// collectives over replica groups (the form XLA takes; devices numbered
// row-major over the mesh {B=4, M=2}, so B-groups are {0,2,4,6} and
// {1,3,5,7} and M-groups are {0,1}, {2,3}, ...). It prices exactly like the
// PartIR:HLO program of matmul-chain.mlir (Z3 there): two all_gathers over
// groups of 4, one all_reduce over groups of 2, on a100.
//
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=a100 json=%t.json summary=false" -o /dev/null
// RUN: FileCheck %s < %t.json

// CHECK:      "step_time_s": 1.60089468718e-05,
// CHECK-NEXT: "compute_time_s": 8.40205128205e-10,
// CHECK-NEXT: "comm_time_s": 1.60081066667e-05,
// CHECK-NEXT: "flops": 16384,
// CHECK-NEXT: "comm_bytes": 2432,
// CHECK-NEXT: "peak_memory_bytes": 6528,
// CHECK-NEXT: "memory_floor_bytes": 4480,
// CHECK-NEXT: "collectives": {
// CHECK-NEXT:   "all_gather": 2,
// CHECK-NEXT:   "all_reduce": 1,
// CHECK-NEXT:   "reduce_scatter": 0,
// CHECK-NEXT:   "all_to_all": 0,

module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%x: tensor<64x8xf32>, %w1: tensor<2x8xf32>, %w2: tensor<8x2xf32>) -> tensor<64x8xf32> {
    %0 = "stablehlo.all_gather"(%w1) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<2x8xf32>) -> tensor<8x8xf32>
    %1 = "stablehlo.all_gather"(%w2) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<8x2xf32>) -> tensor<8x8xf32>
    %2 = stablehlo.dot_general %x, %0, contracting_dims = [1] x [0] : (tensor<64x8xf32>, tensor<8x8xf32>) -> tensor<64x8xf32>
    %3 = stablehlo.dot_general %2, %1, contracting_dims = [1] x [0] : (tensor<64x8xf32>, tensor<8x8xf32>) -> tensor<64x8xf32>
    %4 = "stablehlo.all_reduce"(%3) <{replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<64x8xf32>) -> tensor<64x8xf32>
    return %4 : tensor<64x8xf32>
  }
}
