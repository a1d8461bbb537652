// RUN: toast-opt %s -split-input-file -verify-diagnostics

// Verifier errors of einsum, unary_einsum, broadcast, get_dimension_size
// and torch_index_select.

func.func @einsum_no_arrow(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.einsum' op einsum config 'ab,ab' must contain '->' once}}
  %0 = stablehlo.einsum %a, %a, config = "ab,ab" : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<f32>
  return
}

// -----

func.func @einsum_term_count(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.einsum' op einsum config 'ab->ab' has 1 operand terms, expected 2}}
  %0 = stablehlo.einsum %a, %a, config = "ab->ab" : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @einsum_rank(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.einsum' op einsum config term 'abc' names 3 dimensions but operand #1 has rank 2}}
  %0 = stablehlo.einsum %a, %a, config = "ab,abc->a" : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @einsum_sizes(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.einsum' op einsum label 'b' has sizes 3 and 2}}
  %0 = stablehlo.einsum %a, %a, config = "ab,bc->ac" : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @einsum_result_label(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.einsum' op einsum result label 'z' is not in any operand}}
  %0 = stablehlo.einsum %a, %a, config = "ab,ab->az" : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @einsum_result_repeated(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.einsum' op einsum result label 'a' appears more than once}}
  %0 = stablehlo.einsum %a, %a, config = "ab,ab->aa" : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @einsum_result_shape(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'stablehlo.einsum' op inferred shape [2, 4] is incompatible with result type 'tensor<4x2xf32>'}}
  %0 = stablehlo.einsum %a, %b, config = "ab,bc->ac" : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @einsum_character(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.einsum' op unexpected character '1' in einsum config}}
  %0 = stablehlo.einsum %a, %a, config = "a1,ab->a" : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @einsum_two_ellipses(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.einsum' op einsum config term '...a...' has more than one '...'}}
  %0 = stablehlo.einsum %a, %a, config = "...a...,ab->a" : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @einsum_ellipsis_result(%q: tensor<5x2x3xf32>, %a: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.einsum' op the result's '...' must stand for 2 dimensions, the longest operand '...'}}
  %0 = stablehlo.einsum %q, %a, config = "...j,...j->..." : (tensor<5x2x3xf32>, tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @unary_einsum_diagonal(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.unary_einsum' op einsum label 'i' has sizes 2 and 3}}
  %0 = stablehlo.unary_einsum %a, config = "ii->i" : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @unary_einsum_terms(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.unary_einsum' op einsum config 'ab,ab->a' has 2 operand terms, expected 1}}
  %0 = stablehlo.unary_einsum %a, config = "ab,ab->a" : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @broadcast_shape(%x: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.broadcast' op inferred shape [2, 3] is incompatible with result type 'tensor<3x2xf32>'}}
  %0 = stablehlo.broadcast %x, sizes = [2] : (tensor<3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @broadcast_negative(%x: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.broadcast' op broadcast_sizes must not be negative, got -2}}
  %0 = stablehlo.broadcast %x, sizes = [-2] : (tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @broadcast_element_type(%x: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.broadcast' op requires the same element type for all operands and results}}
  %0 = stablehlo.broadcast %x, sizes = [2] : (tensor<3xf32>) -> tensor<2x3xf16>
  return
}

// -----

func.func @get_dimension_size_dim(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.get_dimension_size' op dimension 2 is out of range [0, 2)}}
  %0 = stablehlo.get_dimension_size %x, dim = 2 : (tensor<2x3xf32>) -> tensor<i32>
  return
}

// -----

func.func @get_dimension_size_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.get_dimension_size' op result #0 must be 0D tensor of 32-bit signless integer values, but got 'tensor<i64>'}}
  %0 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<2x3xf32>) -> tensor<i64>
  return
}

// -----

func.func @torch_index_select_dim(%x: tensor<5x4xf32>, %i: tensor<3xi32>) {
  // expected-error @+1 {{'stablehlo.torch_index_select' op dim 2 is out of range [0, 2)}}
  %0 = "stablehlo.torch_index_select"(%x, %i) {batch_dims = 0 : i64, dim = 2 : i64} : (tensor<5x4xf32>, tensor<3xi32>) -> tensor<5x4xf32>
  return
}

// -----

func.func @torch_index_select_batch_dims(%x: tensor<5x4xf32>, %i: tensor<3xi32>) {
  // expected-error @+1 {{'stablehlo.torch_index_select' op batch_dims 2 is out of range [0, 1] (the index rank)}}
  %0 = "stablehlo.torch_index_select"(%x, %i) {batch_dims = 2 : i64, dim = 1 : i64} : (tensor<5x4xf32>, tensor<3xi32>) -> tensor<5x4xf32>
  return
}

// -----

func.func @torch_index_select_batch_size(%x: tensor<5x4xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'stablehlo.torch_index_select' op batch dimension 0 has size 5 in the operand but 3 in the index}}
  %0 = "stablehlo.torch_index_select"(%x, %i) {batch_dims = 1 : i64, dim = 1 : i64} : (tensor<5x4xf32>, tensor<3x2xi32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @torch_index_select_shape(%x: tensor<5x4xf32>, %i: tensor<3xi32>) {
  // expected-error @+1 {{'stablehlo.torch_index_select' op inferred shape [3, 4] is incompatible with result type 'tensor<5x3xf32>'}}
  %0 = "stablehlo.torch_index_select"(%x, %i) {batch_dims = 0 : i64, dim = 0 : i64} : (tensor<5x4xf32>, tensor<3xi32>) -> tensor<5x3xf32>
  return
}

// -----

func.func @torch_index_select_index_type(%x: tensor<5x4xf32>, %i: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.torch_index_select' op operand #1 must be ranked tensor of}}
  %0 = "stablehlo.torch_index_select"(%x, %i) {batch_dims = 0 : i64, dim = 0 : i64} : (tensor<5x4xf32>, tensor<3xf32>) -> tensor<3x4xf32>
  return
}
