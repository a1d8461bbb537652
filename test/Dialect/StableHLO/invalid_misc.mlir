// RUN: toast-opt %s -split-input-file -verify-diagnostics

// Verifier errors and malformed syntax of optimization_barrier, custom_call,
// device ids, rng_bit_generator, fft, cholesky, map, ops without inputs and
// unknown ops.

func.func @barrier_type_count(%a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.optimization_barrier' number of operands and types do not match: got 2 operands and 1 types}}
  %0:2 = stablehlo.optimization_barrier %a, %a : tensor<4xf32>
  return
}

// -----

func.func @barrier_result_types(%a: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.optimization_barrier' op result types must equal the operand types}}
  %0 = "stablehlo.optimization_barrier"(%a) : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @barrier_missing_types(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected ':'}}
  %0 = stablehlo.optimization_barrier %a
  return
}

// -----

func.func @custom_call_target(%a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.custom_call' expected valid '@'-identifier for symbol name}}
  %0 = stablehlo.custom_call foo(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @custom_call_parens(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected '('}}
  %0 = stablehlo.custom_call @foo %a : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @custom_call_type_count(%a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.custom_call' number of operands and types do not match: got 2 operands and 1 types}}
  %0 = stablehlo.custom_call @foo(%a, %a) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @custom_call_api_version(%a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.custom_call' 'stablehlo.custom_call' op attribute 'api_version' failed to satisfy constraint: 32-bit signless integer attribute}}
  %0 = stablehlo.custom_call @foo(%a) {api_version = "4"} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @custom_call_called_computations(%a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.custom_call' 'stablehlo.custom_call' op attribute 'called_computations' failed to satisfy constraint: flat symbol ref array attribute}}
  %0 = stablehlo.custom_call @foo(%a) {called_computations = ["f"]} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @partition_id_type() {
  // expected-error @+1 {{'stablehlo.partition_id' op result #0 must be 0D tensor of 32-bit unsigned integer values, but got 'tensor<i32>'}}
  %0 = stablehlo.partition_id : tensor<i32>
  return
}

// -----

func.func @replica_id_type() {
  // expected-error @+1 {{'stablehlo.replica_id' op result #0 must be 0D tensor of 32-bit unsigned integer values, but got 'tensor<2xui32>'}}
  %0 = stablehlo.replica_id : tensor<2xui32>
  return
}

// -----

func.func @rng_algorithm_keyword(%s: tensor<2xui64>) {
  // expected-error @+2 {{custom op 'stablehlo.rng_bit_generator' expected ::toast::stablehlo::RngAlgorithm to be one of: DEFAULT, THREE_FRY, PHILOX}}
  // expected-error @+1 {{custom op 'stablehlo.rng_bit_generator' failed to parse HLO_RngAlgorithmAttr parameter 'value' which is to be a `::toast::stablehlo::RngAlgorithm`}}
  %0:2 = stablehlo.rng_bit_generator %s, algorithm = MT19937 : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  return
}

// -----

func.func @rng_result_count(%s: tensor<2xui64>) {
  // expected-error @+1 {{'stablehlo.rng_bit_generator' op expected 2 results}}
  %0 = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<2xui64>) -> tensor<4xui32>
  return
}

// -----

func.func @fft_type_keyword(%x: tensor<16xf32>) {
  // expected-error @+2 {{custom op 'stablehlo.fft' expected ::toast::stablehlo::FftType to be one of: FFT, IFFT, RFFT, IRFFT}}
  // expected-error @+1 {{custom op 'stablehlo.fft' failed to parse HLO_FftTypeAttr parameter 'value' which is to be a `::toast::stablehlo::FftType`}}
  %0 = stablehlo.fft %x, type = DFT, length = [16] : (tensor<16xf32>) -> tensor<9xcomplex<f32>>
  return
}

// -----

func.func @cholesky_type(%a: tensor<3x3xf32>) {
  // expected-error @+1 {{'stablehlo.cholesky' op requires the same type for all operands and results}}
  %0 = stablehlo.cholesky %a, lower = true : (tensor<3x3xf32>) -> tensor<3x3xf16>
  return
}

// -----

func.func @map_result_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.map' op requires the same shape for all operands and results}}
  %0 = "stablehlo.map"(%x) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @unknown_op(%x: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.frobnicate' is unknown}}
  %0 = stablehlo.frobnicate %x : tensor<4xf32>
  return
}

// -----

func.func @unknown_generic_op(%x: tensor<4xf32>) {
  // expected-error @+1 {{unregistered operation 'stablehlo.frobnicate' found in dialect ('stablehlo') that does not allow unknown operations}}
  %0 = "stablehlo.frobnicate"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @reduce_no_inputs() {
  // expected-error @+1 {{'stablehlo.reduce' op expects at least one input}}
  "stablehlo.reduce"() <{dimensions = array<i64>}> ({
  ^bb0:
    stablehlo.return
  }) : () -> ()
  return
}

// -----

func.func @scatter_no_inputs(%i: tensor<2x1xi32>) {
  // expected-error @+1 {{'stablehlo.scatter' op expects at least one input}}
  "stablehlo.scatter"(%i) <{scatter_dimension_numbers = #stablehlo.scatter<index_vector_dim = 1>}> ({
  ^bb0:
    stablehlo.return
  }) : (tensor<2x1xi32>) -> ()
  return
}
