// RUN: toast-opt %s -split-input-file -verify-diagnostics

// Verifier errors of constant, iota, broadcast_in_dim, transpose, reshape and
// concatenate.

func.func @constant_type() {
  // expected-error @+1 {{'stablehlo.constant' op value type 'tensor<2xi32>' differs from result type 'tensor<3xi32>'}}
  %0 = "stablehlo.constant"() <{value = dense<1> : tensor<2xi32>}> : () -> tensor<3xi32>
  return
}

// -----

func.func @constant_not_elements() {
  // expected-error @+1 {{custom op 'stablehlo.constant' expected a tensor constant, got 1 : i32}}
  %0 = stablehlo.constant 1 : i32
  return
}

// -----

func.func @constant_vector() {
  // expected-error @+1 {{'stablehlo.constant' op result #0 must be ranked tensor of any type values, but got 'vector<2xi32>'}}
  %0 = stablehlo.constant dense<1> : vector<2xi32>
  return
}

// -----

func.func @iota_rank0() {
  // expected-error @+1 {{'stablehlo.iota' op result must have rank at least 1}}
  %0 = stablehlo.iota dim = 0 : tensor<i32>
  return
}

// -----

func.func @iota_dim() {
  // expected-error @+1 {{'stablehlo.iota' op iota dimension 2 is out of range [0, 2)}}
  %0 = stablehlo.iota dim = 2 : tensor<4x5xi32>
  return
}

// -----

func.func @iota_negative_dim() {
  // expected-error @+1 {{'stablehlo.iota' op iota dimension -1 is out of range [0, 2)}}
  %0 = stablehlo.iota dim = -1 : tensor<4x5xi32>
  return
}

// -----

func.func @broadcast_dims_size(%x: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op broadcast_dimensions has 2 entries but the operand has rank 1}}
  %0 = stablehlo.broadcast_in_dim %x, dims = [0, 1] : (tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @broadcast_dims_range(%x: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op broadcast dimension 2 is out of range [0, 2)}}
  %0 = stablehlo.broadcast_in_dim %x, dims = [2] : (tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @broadcast_dims_unique(%x: tensor<3x3xf32>) {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op broadcast dimension 1 appears more than once}}
  %0 = stablehlo.broadcast_in_dim %x, dims = [1, 1] : (tensor<3x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @broadcast_size(%x: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op operand dimension 0 of size 3 cannot be broadcast to result dimension 0 of size 2}}
  %0 = stablehlo.broadcast_in_dim %x, dims = [0] : (tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @broadcast_element_type(%x: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.broadcast_in_dim' op requires the same element type for all operands and results}}
  %0 = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x3xi32>
  return
}

// -----

func.func @transpose_size(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.transpose' op permutation has 1 entries but the operand has rank 2}}
  %0 = stablehlo.transpose %x, dims = [0] : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @transpose_not_permutation(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.transpose' op permutation entry 1 appears more than once}}
  %0 = stablehlo.transpose %x, dims = [1, 1] : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @transpose_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.transpose' op permutation entry 2 is out of range [0, 2)}}
  %0 = stablehlo.transpose %x, dims = [0, 2] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @transpose_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.transpose' op inferred shape [3, 2] is incompatible with result type 'tensor<2x3xf32>'}}
  %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @transpose_element_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.transpose' op requires the same element type for all operands and results}}
  %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf16>
  return
}

// -----

func.func @reshape_count(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.reshape' op reshape must preserve the number of elements: 6 vs 5}}
  %0 = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @reshape_element_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.reshape' op reshape must keep the element type}}
  %0 = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<6xi32>
  return
}

// -----

func.func @concatenate_empty() {
  // expected-error @+1 {{'stablehlo.concatenate' op expected 1 or more operands, but found 0}}
  %0 = stablehlo.concatenate dim = 0 : () -> tensor<0xf32>
  return
}

// -----

func.func @concatenate_dim(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.concatenate' op dimension 2 is out of range [0, 2)}}
  %0 = stablehlo.concatenate %a, %a, dim = 2 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concatenate_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.concatenate' op all inputs must have the same rank}}
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concatenate_other_dim(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{'stablehlo.concatenate' op inputs differ in non-concatenated dimension 1}}
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concatenate_result(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.concatenate' op inferred shape [2, 6] is incompatible with result type 'tensor<4x3xf32>'}}
  %0 = stablehlo.concatenate %a, %a, dim = 1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concatenate_element_type(%a: tensor<2x3xf32>, %b: tensor<2x3xf16>) {
  // expected-error @+1 {{'stablehlo.concatenate' op requires the same element type for all operands and results}}
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf16>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concatenate_missing_comma(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{expected ','}}
  %0 = stablehlo.concatenate %a dim = 0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @reshape_dynamic_result(%x: tensor<2x3xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{result must have a static shape, got 'tensor<?xf32>'}}
  %0 = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
