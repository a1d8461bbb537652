// RUN: toast-opt %s | toast-opt | FileCheck %s
// RUN: toast-opt %s --mlir-print-op-generic | toast-opt | FileCheck %s

// Round trip of einsum and unary_einsum: contractions, batch letters, sums,
// transposes, diagonals and `...`.

// CHECK-LABEL: func.func @einsum
// CHECK-SAME: (%[[A:[^:]+]]: tensor<2x3xf32>, %[[B:[^:]+]]: tensor<3x4xf32>, %[[Q:[^:]+]]: tensor<5x2x3xf32>, %[[K:[^:]+]]: tensor<5x3x4xf32>)
func.func @einsum(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %q: tensor<5x2x3xf32>, %k: tensor<5x3x4xf32>) {
  // CHECK: stablehlo.einsum %[[A]], %[[B]], config = "ab,bc->ac" : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %0 = stablehlo.einsum %a, %b, config = "ab,bc->ac" : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  // CHECK: stablehlo.einsum %[[Q]], %[[K]], config = "bij,bjk->bki" : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x4x2xf32>
  %1 = "stablehlo.einsum"(%q, %k) {einsum_config = "bij,bjk->bki"} : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x4x2xf32>
  // An outer product and a full contraction.
  // CHECK: stablehlo.einsum %[[A]], %[[A]], config = "ab,cd->abcd" : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3x2x3xf32>
  %2 = stablehlo.einsum %a, %a, config = "ab,cd->abcd" : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3x2x3xf32>
  // CHECK: stablehlo.einsum %[[A]], %[[A]], config = "ab,ab->" : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<f32>
  %3 = stablehlo.einsum %a, %a, config = "ab,ab->" : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<f32>
  // `...` of different lengths align on the minor dimensions.
  // CHECK: stablehlo.einsum %[[Q]], %[[A]], config = "...ij,...ij->...i" : (tensor<5x2x3xf32>, tensor<2x3xf32>) -> tensor<5x2xf32>
  %4 = stablehlo.einsum %q, %a, config = "...ij,...ij->...i" : (tensor<5x2x3xf32>, tensor<2x3xf32>) -> tensor<5x2xf32>
  // A scalar operand (XLA rewrites unary_einsum to this form).
  // CHECK: stablehlo.einsum %{{.+}}, %[[A]], config = ",ab->a" : (tensor<f32>, tensor<2x3xf32>) -> tensor<2xf32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %5 = stablehlo.einsum %one, %a, config = ",ab->a" : (tensor<f32>, tensor<2x3xf32>) -> tensor<2xf32>
  // Mixed element types.
  // CHECK: stablehlo.einsum %{{.+}}, %{{.+}}, config = "ab,bc->ac" {mhlo.frontend_attributes = {a = "b"}} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
  %i = stablehlo.constant dense<1> : tensor<2x3xi8>
  %j = stablehlo.constant dense<1> : tensor<3x4xi8>
  %6 = stablehlo.einsum %i, %j, config = "ab,bc->ac" {mhlo.frontend_attributes = {a = "b"}} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
  return
}

// CHECK-LABEL: func.func @unary_einsum
// CHECK-SAME: (%[[A:[^:]+]]: tensor<2x3xf32>, %[[S:[^:]+]]: tensor<3x3xi32>)
func.func @unary_einsum(%a: tensor<2x3xf32>, %s: tensor<3x3xi32>) {
  // CHECK: stablehlo.unary_einsum %[[A]], config = "ab->a" : (tensor<2x3xf32>) -> tensor<2xf32>
  %0 = stablehlo.unary_einsum %a, config = "ab->a" : (tensor<2x3xf32>) -> tensor<2xf32>
  // CHECK: stablehlo.unary_einsum %[[A]], config = "ab->ba" : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = "stablehlo.unary_einsum"(%a) <{einsum_config = "ab->ba"}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // The diagonal and the trace.
  // CHECK: stablehlo.unary_einsum %[[S]], config = "ii->i" : (tensor<3x3xi32>) -> tensor<3xi32>
  %2 = stablehlo.unary_einsum %s, config = "ii->i" : (tensor<3x3xi32>) -> tensor<3xi32>
  // CHECK: stablehlo.unary_einsum %[[S]], config = "ii->" : (tensor<3x3xi32>) -> tensor<i32>
  %3 = stablehlo.unary_einsum %s, config = "ii->" : (tensor<3x3xi32>) -> tensor<i32>
  return
}
