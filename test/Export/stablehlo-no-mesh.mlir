// A program without mesh or collectives exports as a single partition.
// RUN: toast-opt %s --partir-export-stablehlo | FileCheck %s

// CHECK: module attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32}
// CHECK: stablehlo.add
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %x, %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
