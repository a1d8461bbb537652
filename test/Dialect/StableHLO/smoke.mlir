// RUN: toast-opt %s | toast-opt | FileCheck %s
// RUN: toast-opt %s --mlir-print-op-generic | toast-opt | FileCheck %s

// CHECK-LABEL: func.func @add
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: stablehlo.add %{{.*}}, %{{.*}} : tensor<4xf32>
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}
