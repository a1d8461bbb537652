// Export then import: the shardings --partir-export-shardings writes for
// BP+MP+Z3, imported back (both the sdy and the mhlo form), give the SPMD
// program of the schedule itself (PartIR Listing 5).
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule="file=%S/../Partition/Inputs/bp-mp-z3.json materialize=false" --partir-export-shardings | toast-opt --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo --partir-export-stablehlo | FileCheck %s
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule="file=%S/../Partition/Inputs/bp-mp-z3.json materialize=false" --partir-export-shardings=format=mhlo | toast-opt --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo --partir-export-stablehlo | FileCheck %s
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule="file=%S/../Partition/Inputs/bp-mp-z3.json materialize=false" --partir-export-shardings=format=sdy | toast-opt --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo --partir-export-stablehlo | FileCheck %s

// CHECK: module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
// CHECK-NEXT: func.func @main(%[[X:.*]]: tensor<64x8xf32> {{.*}}, %[[W1:.*]]: tensor<2x8xf32> {{.*}}, %[[W2:.*]]: tensor<8x2xf32> {{.*}}) -> (tensor<64x8xf32> {{.*}}) {
// CHECK-DAG: %[[G1:.*]] = "stablehlo.all_gather"(%[[W1]]) {{.*}}all_gather_dim = 0 {{.*}} : (tensor<2x8xf32>) -> tensor<8x8xf32>
// CHECK-DAG: %[[G2:.*]] = "stablehlo.all_gather"(%[[W2]]) {{.*}}all_gather_dim = 1 {{.*}} : (tensor<8x2xf32>) -> tensor<8x8xf32>
// CHECK: %[[A:.*]] = stablehlo.dot_general %[[X]], %[[G1]], contracting_dims = [1] x [0] : (tensor<64x8xf32>, tensor<8x8xf32>) -> tensor<64x8xf32>
// CHECK-NEXT: %[[B:.*]] = stablehlo.dot_general %[[A]], %[[G2]], contracting_dims = [1] x [0] : (tensor<64x8xf32>, tensor<8x8xf32>) -> tensor<64x8xf32>
// CHECK-NEXT: %[[R:.*]] = "stablehlo.all_reduce"(%[[B]])
// CHECK-SAME{LITERAL}: replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>
// CHECK: return %[[R]] : tensor<64x8xf32>
