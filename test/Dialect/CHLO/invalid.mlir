// RUN: toast-opt %s -split-input-file -verify-diagnostics

// Verifier errors and malformed syntax of the CHLO ops.

func.func @unary_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'chlo.erf' op requires the same element type for all operands and results}}
  %0 = chlo.erf %x : tensor<4xf32> -> tensor<4xf16>
  return
}

// -----

func.func @unary_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'chlo.lgamma' op all non-scalar operands/results must have the same shape and base type}}
  %0 = chlo.lgamma %x : tensor<4xf32> -> tensor<5xf32>
  return
}

// -----

func.func @unary_unranked(%x: tensor<*xf32>) {
  // expected-error @+1 {{custom op 'chlo.erf' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %0 = chlo.erf %x : tensor<*xf32> -> tensor<*xf32>
  return
}

// -----

func.func @unary_syntax(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected '->'}}
  %0 = chlo.erf %x : tensor<4xf32>
  return
}

// -----

func.func @binary_type(%a: tensor<4xf32>, %b: tensor<4xf64>) {
  // expected-error @+1 {{'chlo.zeta' op requires the same element type for all operands and results}}
  %0 = chlo.zeta %a, %b : tensor<4xf32>, tensor<4xf64> -> tensor<4xf32>
  return
}

// -----

func.func @binary_shape(%a: tensor<4xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'chlo.next_after' op all non-scalar operands/results must have the same shape and base type}}
  %0 = chlo.next_after %a, %b : tensor<4xf32>, tensor<2xf32> -> tensor<4xf32>
  return
}

// -----

func.func @top_k_rank(%x: tensor<f32>) {
  // expected-error @+1 {{'chlo.top_k' op operand must have rank at least 1}}
  %0:2 = chlo.top_k(%x, k = 1) : tensor<f32> -> (tensor<f32>, tensor<i32>)
  return
}

// -----

func.func @top_k_too_large(%x: tensor<5x3xf32>) {
  // expected-error @+1 {{'chlo.top_k' op k = 4 must be in [0, 3]}}
  %0:2 = chlo.top_k(%x, k = 4) : tensor<5x3xf32> -> (tensor<5x4xf32>, tensor<5x4xi32>)
  return
}

// -----

func.func @top_k_negative(%x: tensor<5x3xf32>) {
  // expected-error @+1 {{'chlo.top_k' op k = -1 must be in [0, 3]}}
  %0:2 = chlo.top_k(%x, k = -1) : tensor<5x3xf32> -> (tensor<5x1xf32>, tensor<5x1xi32>)
  return
}

// -----

func.func @top_k_values_shape(%x: tensor<5x3xf32>) {
  // expected-error @+1 {{'chlo.top_k' op values and indices must have shape [..., k]}}
  %0:2 = chlo.top_k(%x, k = 2) : tensor<5x3xf32> -> (tensor<5x3xf32>, tensor<5x2xi32>)
  return
}

// -----

func.func @top_k_indices_shape(%x: tensor<5x3xf32>) {
  // expected-error @+1 {{'chlo.top_k' op values and indices must have shape [..., k]}}
  %0:2 = chlo.top_k(%x, k = 2) : tensor<5x3xf32> -> (tensor<5x2xf32>, tensor<2x5xi32>)
  return
}

// -----

func.func @top_k_values_type(%x: tensor<5x3xf32>) {
  // expected-error @+1 {{'chlo.top_k' op values must have the operand's element type}}
  %0:2 = chlo.top_k(%x, k = 2) : tensor<5x3xf32> -> (tensor<5x2xf16>, tensor<5x2xi32>)
  return
}

// -----

func.func @top_k_indices_type(%x: tensor<5x3xf32>) {
  // expected-error @+1 {{'chlo.top_k' op indices must be i32}}
  %0:2 = chlo.top_k(%x, k = 2) : tensor<5x3xf32> -> (tensor<5x2xf32>, tensor<5x2xi64>)
  return
}

// -----

func.func @top_k_result_count(%x: tensor<5x3xf32>) {
  // expected-error @+1 {{'chlo.top_k' op expected 2 results}}
  %0 = "chlo.top_k"(%x) {k = 2 : i64} : (tensor<5x3xf32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @top_k_missing_k(%x: tensor<5x3xf32>) {
  // expected-error @+1 {{expected ','}}
  %0:2 = chlo.top_k(%x) : tensor<5x3xf32> -> (tensor<5x2xf32>, tensor<5x2xi32>)
  return
}

// -----

func.func @unknown(%x: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'chlo.broadcast_add' is unknown}}
  %0 = chlo.broadcast_add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}
