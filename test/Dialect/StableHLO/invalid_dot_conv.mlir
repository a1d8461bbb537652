// RUN: toast-opt %s -split-input-file -verify-diagnostics

// Verifier errors and malformed syntax of dot, dot_general and convolution.

func.func @dot_rank(%a: tensor<2x3x4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.dot' op expected operands of rank 1 or 2}}
  %0 = stablehlo.dot %a, %b : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @dot_contracting(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'stablehlo.dot' op contracting dimension sizes must match: 3 vs 4}}
  %0 = stablehlo.dot %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @dot_result(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) {
  // expected-error @+1 {{'stablehlo.dot' op inferred shape [2, 5] is incompatible with result type 'tensor<5x2xf32>'}}
  %0 = stablehlo.dot %a, %b : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<5x2xf32>
  return
}

// -----

func.func @dot_precision_count(%a: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.dot' op precision config must have 0 or 2 entries, got 1}}
  %0 = stablehlo.dot %a, %a, precision = [DEFAULT] : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  return
}

// -----

func.func @dot_precision_keyword(%a: tensor<3xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.dot' unknown precision 'FASTEST'}}
  %0 = stablehlo.dot %a, %a, precision = [FASTEST, DEFAULT] : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  return
}

// -----

func.func @dot_general_batching_count(%a: tensor<8x2x3xf32>, %b: tensor<8x3x4xf32>) {
  // expected-error @+1 {{'stablehlo.dot_general' op lhs and rhs must have the same number of batching dimensions}}
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [], contracting_dims = [2] x [1] : (tensor<8x2x3xf32>, tensor<8x3x4xf32>) -> tensor<8x2x4xf32>
  return
}

// -----

func.func @dot_general_contracting_count(%a: tensor<8x2x3xf32>, %b: tensor<8x3x4xf32>) {
  // expected-error @+1 {{'stablehlo.dot_general' op lhs and rhs must have the same number of contracting dimensions}}
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1, 2] : (tensor<8x2x3xf32>, tensor<8x3x4xf32>) -> tensor<8x2xf32>
  return
}

// -----

func.func @dot_general_lhs_range(%a: tensor<8x2x3xf32>, %b: tensor<8x3x4xf32>) {
  // expected-error @+1 {{'stablehlo.dot_general' op lhs batching/contracting dimension 3 is out of range [0, 3)}}
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [3] x [1] : (tensor<8x2x3xf32>, tensor<8x3x4xf32>) -> tensor<8x2x4xf32>
  return
}

// -----

func.func @dot_general_rhs_duplicate(%a: tensor<8x2x3xf32>, %b: tensor<8x3x4xf32>) {
  // expected-error @+1 {{'stablehlo.dot_general' op rhs batching/contracting dimension 0 appears more than once}}
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [0] : (tensor<8x2x3xf32>, tensor<8x3x4xf32>) -> tensor<8x2x4xf32>
  return
}

// -----

func.func @dot_general_batch_size(%a: tensor<8x2x3xf32>, %b: tensor<7x3x4xf32>) {
  // expected-error @+1 {{'stablehlo.dot_general' op batching dimension sizes must match: lhs dim 0 has size 8, rhs dim 0 has size 7}}
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x2x3xf32>, tensor<7x3x4xf32>) -> tensor<8x2x4xf32>
  return
}

// -----

func.func @dot_general_contracting_size(%a: tensor<8x2x3xf32>, %b: tensor<8x5x4xf32>) {
  // expected-error @+1 {{'stablehlo.dot_general' op contracting dimension sizes must match: lhs dim 2 has size 3, rhs dim 1 has size 5}}
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x2x3xf32>, tensor<8x5x4xf32>) -> tensor<8x2x4xf32>
  return
}

// -----

func.func @dot_general_result(%a: tensor<8x2x3xf32>, %b: tensor<8x3x4xf32>) {
  // expected-error @+1 {{'stablehlo.dot_general' op inferred shape [8, 2, 4] is incompatible with result type 'tensor<8x4x2xf32>'}}
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x2x3xf32>, tensor<8x3x4xf32>) -> tensor<8x4x2xf32>
  return
}

// -----

func.func @dot_general_precision_count(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'stablehlo.dot_general' op precision config must have 0 or 2 entries, got 3}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_general_missing_contracting(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{expected ','}}
  %0 = stablehlo.dot_general %a, %b, batching_dims = [] x [] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_general_missing_x(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.dot_general' expected 'x'}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1], [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_general_algorithm_key(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.dot_general' expected 'lhs_precision_type'}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], algorithm = <lhs_precision = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_general_algorithm_missing(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{expected ','}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @dot_general_unknown_option(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.dot_general' expected 'precision'}}
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], speed = [FAST] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @conv_rank(%x: tensor<1x8x8xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{'stablehlo.convolution' op lhs, rhs and result must have rank 4 (2 + number of spatial dimensions)}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

func.func @conv_features(%x: tensor<1x8x8x2xf32>, %k: tensor<3x3x3x1xf32>) {
  // expected-error @+1 {{'stablehlo.convolution' op input feature dimension (2) must equal kernel input features (3) times feature_group_count (1)}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x2xf32>, tensor<3x3x3x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

func.func @conv_groups(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{'stablehlo.convolution' op feature_group_count and batch_group_count cannot both exceed 1}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 2 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

func.func @conv_group_count(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{'stablehlo.convolution' op feature_group_count and batch_group_count must be positive}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 0 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

func.func @conv_stride_count(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{'stablehlo.convolution' op window_strides must have 2 entries, got 1}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

func.func @conv_stride_zero(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{'stablehlo.convolution' op window sizes, strides and dilations must be positive (dimension 0)}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [0, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

func.func @conv_padding_negative(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{'stablehlo.convolution' op padding makes dimension 0 negative}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[-5, -5], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

func.func @conv_result(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{'stablehlo.convolution' op inferred shape [1, 3, 3, 1] is incompatible with result type 'tensor<1x6x6x1xf32>'}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

func.func @conv_reverse_count(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{'stablehlo.convolution' op window reversal must have one entry per spatial dimension}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

func.func @conv_padding_shape(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{'stablehlo.convolution' op padding must have shape [N, 2]}}
  %0 = "stablehlo.convolution"(%x, %k) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, padding = dense<0> : tensor<4xi64>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

func.func @conv_dims_range(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{'stablehlo.convolution' op input dimension 7 is out of range [0, 4)}}
  %0 = "stablehlo.convolution"(%x, %k) {dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 7, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

func.func @conv_spatial_count(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{'stablehlo.convolution' op input, kernel and output must have the same number of spatial dimensions}}
  %0 = "stablehlo.convolution"(%x, %k) {dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}
