// RUN: toast-opt %s -split-input-file -verify-diagnostics

// Verifier errors of the batch norms and rng.

func.func @batch_norm_feature_index(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.batch_norm_inference' op feature_index 2 is out of range [0, 2)}}
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 1.0e-3 : f32, feature_index = 2 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @batch_norm_feature_size(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %m: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.batch_norm_inference' op mean must be a 1-D tensor of 3 elements (dimension 1 of the operand), got 'tensor<2xf32>'}}
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %m, %s) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @batch_norm_element_type(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf16>) {
  // expected-error @+1 {{'stablehlo.batch_norm_inference' op offset must have the operand's element type 'f32', got 'tensor<3xf16>'}}
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %o, %s, %s) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf16>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @batch_norm_result_type(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.batch_norm_inference' op result must have the operand type 'tensor<2x3xf32>', got 'tensor<3x2xf32>'}}
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @batch_norm_integer(%x: tensor<2x3xi32>, %s: tensor<3xi32>) {
  // expected-error @+1 {{'stablehlo.batch_norm_inference' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<2x3xi32>'}}
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  return
}

// -----

func.func @batch_norm_missing_epsilon(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.batch_norm_inference' op requires attribute 'epsilon'}}
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) {feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @batch_norm_training_stats(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.batch_norm_training' op batch_var must be a 1-D tensor of 3 elements (dimension 1 of the operand), got 'tensor<2xf32>'}}
  %0:3 = "stablehlo.batch_norm_training"(%x, %s, %s) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<2xf32>)
  return
}

// -----

func.func @batch_norm_training_output(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.batch_norm_training' op output must have the operand type 'tensor<2x3xf32>', got 'tensor<2x3xf64>'}}
  %0:3 = "stablehlo.batch_norm_training"(%x, %s, %s) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf64>, tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @batch_norm_grad_output(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %dy: tensor<3x2xf32>) {
  // expected-error @+1 {{'stablehlo.batch_norm_grad' op grad_output must have the operand type 'tensor<2x3xf32>', got 'tensor<3x2xf32>'}}
  %0:3 = "stablehlo.batch_norm_grad"(%x, %s, %s, %s, %dy) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3x2xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @batch_norm_grad_scale(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.batch_norm_grad' op grad_scale must be a 1-D tensor of 3 elements (dimension 1 of the operand), got 'tensor<4xf32>'}}
  %0:3 = "stablehlo.batch_norm_grad"(%x, %s, %s, %s, %x) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<4xf32>, tensor<3xf32>)
  return
}

// -----

func.func @rng_element_types(%a: tensor<f32>, %b: tensor<f16>, %s: tensor<1xi64>) {
  // expected-error @+1 {{'stablehlo.rng' op a, b and the result must have one element type}}
  %0 = stablehlo.rng %a, %b, %s, distribution = UNIFORM : (tensor<f32>, tensor<f16>, tensor<1xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @rng_normal_integers(%a: tensor<i32>, %s: tensor<1xi64>) {
  // expected-error @+1 {{'stablehlo.rng' op NORMAL needs floating-point elements, got 'i32'}}
  %0 = stablehlo.rng %a, %a, %s, distribution = NORMAL : (tensor<i32>, tensor<i32>, tensor<1xi64>) -> tensor<4xi32>
  return
}

// -----

func.func @rng_complex(%a: tensor<complex<f32>>, %s: tensor<1xi64>) {
  // expected-error @+1 {{'stablehlo.rng' op expects integer, boolean or floating-point elements, got 'complex<f32>'}}
  %0 = stablehlo.rng %a, %a, %s, distribution = UNIFORM : (tensor<complex<f32>>, tensor<complex<f32>>, tensor<1xi64>) -> tensor<4xcomplex<f32>>
  return
}

// -----

func.func @rng_shape_rank(%a: tensor<f32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'stablehlo.rng' op shape has 2 entries but the result has rank 1}}
  %0 = stablehlo.rng %a, %a, %s, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @rng_shape_values(%a: tensor<f32>) {
  %s = stablehlo.constant dense<[3, 5]> : tensor<2xi32>
  // expected-error @+1 {{'stablehlo.rng' op shape [3, 5] differs from the result type 'tensor<3x4xf32>'}}
  %0 = stablehlo.rng %a, %a, %s, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @rng_scalar_bounds(%a: tensor<2xf32>, %s: tensor<1xi64>) {
  // expected-error @+1 {{'stablehlo.rng' op operand #0 must be 0D tensor of any type values, but got 'tensor<2xf32>'}}
  %0 = stablehlo.rng %a, %a, %s, distribution = UNIFORM : (tensor<2xf32>, tensor<2xf32>, tensor<1xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @rng_distribution(%a: tensor<f32>, %s: tensor<1xi64>) {
  // expected-error @+2 {{expected ::toast::stablehlo::RngDistribution to be one of: UNIFORM, NORMAL}}
  // expected-error @+1 {{failed to parse HLO_RngDistributionAttr parameter 'value'}}
  %0 = stablehlo.rng %a, %a, %s, distribution = GAUSS : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
  return
}
