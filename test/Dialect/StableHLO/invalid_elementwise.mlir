// RUN: toast-opt %s -split-input-file -verify-diagnostics

// Verifier errors and malformed syntax of the elementwise ops.

// Operand and result element types must agree for same-type ops.
func.func @add_result_type(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.add' op requires the same element type for all operands and results}}
  %0 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @add_shape(%a: tensor<4xf32>, %b: tensor<5xf32>) {
  // expected-error @+1 {{'stablehlo.add' op all non-scalar operands/results must have the same shape and base type}}
  %0 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<5xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @unary_type(%a: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.exponential' op requires the same element type for all operands and results}}
  %0 = stablehlo.exponential %a : (tensor<4xf32>) -> tensor<4xf64>
  return
}

// -----

func.func @unary_shape(%a: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.abs' op all non-scalar operands/results must have the same shape and base type}}
  %0 = stablehlo.abs %a : (tensor<4xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @unranked(%a: tensor<*xf32>) {
  // expected-error @+1 {{'stablehlo.negate' op operand #0 must be ranked tensor of any type values, but got 'tensor<*xf32>'}}
  %0 = stablehlo.negate %a : tensor<*xf32>
  return
}

// -----

func.func @not_a_tensor(%a: vector<4xf32>) {
  // expected-error @+1 {{'stablehlo.negate' op operand #0 must be ranked tensor of any type values, but got 'vector<4xf32>'}}
  %0 = stablehlo.negate %a : vector<4xf32>
  return
}

// -----

// The function type must have as many inputs as the op has operands.
func.func @wrong_type_count(%a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.add' expected 2 operand type(s) in function type, got 1}}
  %0 = stablehlo.add %a, %a : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @wrong_result_count(%a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.negate' expected one result type, got 2}}
  %0 = stablehlo.negate %a : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @wrong_operand_count(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected ','}}
  %0 = stablehlo.add %a : tensor<4xf32>
  return
}

// -----

func.func @missing_type(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected ':'}}
  %0 = stablehlo.add %a, %a
  return
}

// -----

func.func @bitcast_shape(%a: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.bitcast_convert' op same-width bitcast must keep the shape}}
  %0 = stablehlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<2xi32>
  return
}

// -----

func.func @bitcast_minor_dim(%a: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.bitcast_convert' op bitcast from 'tensor<4xf32>' to 'tensor<4x2xi8>' must add or remove a minor dimension of size 4}}
  %0 = stablehlo.bitcast_convert %a : (tensor<4xf32>) -> tensor<4x2xi8>
  return
}

// -----

func.func @bitcast_index(%a: tensor<4xindex>) {
  // expected-error @+1 {{'stablehlo.bitcast_convert' op operand and result must have integer, float or complex element types}}
  %0 = stablehlo.bitcast_convert %a : (tensor<4xindex>) -> tensor<4xi64>
  return
}

// -----

func.func @reduce_precision_format(%a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.reduce_precision' expected a format like 'e5m10', got 'f5m10'}}
  %0 = stablehlo.reduce_precision %a, format = f5m10 : tensor<4xf32>
  return
}

// -----

func.func @reduce_precision_no_mantissa(%a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.reduce_precision' expected a format like 'e5m10', got 'e5'}}
  %0 = stablehlo.reduce_precision %a, format = e5 : tensor<4xf32>
  return
}

// -----

func.func @reduce_precision_not_number(%a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.reduce_precision' expected a format like 'e5m10', got 'exmy'}}
  %0 = stablehlo.reduce_precision %a, format = exmy : tensor<4xf32>
  return
}

// -----

func.func @reduce_precision_exponent(%a: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.reduce_precision' op exponent_bits must be at least 1}}
  %0 = stablehlo.reduce_precision %a, format = e0m10 : tensor<4xf32>
  return
}

// -----

func.func @reduce_precision_mantissa(%a: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.reduce_precision' op mantissa_bits must be non-negative}}
  %0 = "stablehlo.reduce_precision"(%a) {exponent_bits = 5 : i32, mantissa_bits = -1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @reduce_precision_negative_exponent(%a: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.reduce_precision' op exponent_bits must be at least 1}}
  %0 = "stablehlo.reduce_precision"(%a) {exponent_bits = -3 : i32, mantissa_bits = 2 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @complex_not_complex(%a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.complex' expected a tensor of complex type, got 'tensor<4xf32>'}}
  %0 = stablehlo.complex %a, %a : tensor<4xf32>
  return
}

// -----

func.func @complex_result(%a: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.complex' op result must have a complex element type}}
  %0 = stablehlo.complex %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @complex_parts(%a: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.complex' op operand element types must be 'f64'}}
  %0 = stablehlo.complex %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f64>>
  return
}

// -----

func.func @complex_function_type(%a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.complex' expected (lhs, rhs) -> result type}}
  %0 = stablehlo.complex %a, %a : (tensor<4xf32>) -> tensor<4xcomplex<f32>>
  return
}
