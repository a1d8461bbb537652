// RUN: toast-opt %s -split-input-file -verify-diagnostics

// Malformed syntax of the StableHLO attributes, in attribute position and in
// the pretty convolution syntax (layouts and window).

func.func @conv_layout_letter(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.convolution' expected 'b', 'f' or a spatial index, got 'z'}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, z]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

func.func @conv_layout_missing_feature(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.convolution' expected both 'b' and 'f' in convolution layout}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

func.func @conv_layout_duplicate(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.convolution' duplicate 'i'}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, i]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

func.func @conv_layout_spatial(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.convolution' spatial dimensions must be a permutation of 0..1}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 2, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

func.func @conv_layout_spatial_count(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.convolution' input, kernel and output must have the same number of spatial dimensions}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

func.func @conv_layout_separator(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.convolution' expected 'x'}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]*[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

func.func @conv_window_key(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.convolution' unknown window attribute 'strides'}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {strides = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

func.func @conv_window_duplicate(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.convolution' duplicate window attribute 'stride'}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

func.func @conv_window_pad_pair(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.convolution' expected [low, high] padding pair}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[0, 0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

// `reverse` takes true/false or (older printers) 0/1, nothing else.
func.func @conv_window_reverse(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.convolution' expected 'true', 'false', 0 or 1}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [2, 0]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

func.func @conv_window_reverse_keyword(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.convolution' expected 'true', 'false', 0 or 1}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [yes, no]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

func.func @conv_missing_window(%x: tensor<1x8x8x1xf32>, %k: tensor<3x3x1x1xf32>) {
  // expected-error @+1 {{expected ','}}
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32>
  return
}

// -----

// expected-error @+1 {{expected 'i', 'o' or a spatial index, got 'b'}}
func.func private @conv_attr_letter() attributes {a = #stablehlo.conv<[b, 0, f]x[0, i, b]->[b, 0, f]>}

// -----

// expected-error @+1 {{missing key 'kernel_input_feature_dimension' in #stablehlo.conv}}
func.func private @conv_raw_missing_key() attributes {a = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2]>}

// -----

// expected-error @+1 {{unknown key 'input_batch' in #stablehlo.conv}}
func.func private @conv_raw_unknown_key() attributes {a = #stablehlo.conv<raw input_batch = 0>}

// -----

// expected-error @+1 {{unknown key 'collapsed_slice_dim' in #stablehlo.gather}}
func.func private @gather_unknown_key() attributes {a = #stablehlo.gather<offset_dims = [1], collapsed_slice_dim = [0]>}

// -----

// expected-error @+1 {{duplicate key 'offset_dims' in #stablehlo.gather}}
func.func private @gather_duplicate_key() attributes {a = #stablehlo.gather<offset_dims = [1], offset_dims = [0]>}

// -----

// expected-error @+1 {{expected '['}}
func.func private @gather_not_a_list() attributes {a = #stablehlo.gather<offset_dims = 1>}

// -----

// expected-error @+1 {{unknown key 'window_dims' in #stablehlo.scatter}}
func.func private @scatter_unknown_key() attributes {a = #stablehlo.scatter<update_window_dims = [1], window_dims = [0]>}

// -----

// expected-error @+1 {{unknown key 'lhs_contracting_dims' in #stablehlo.dot}}
func.func private @dot_unknown_key() attributes {a = #stablehlo.dot<lhs_contracting_dims = [1]>}

// -----

// expected-error @+1 {{expected '='}}
func.func private @dot_missing_equal() attributes {a = #stablehlo.dot<lhs_contracting_dimensions [1]>}

// -----

// expected-error @+1 {{missing key 'operand_tuple_indices' in #stablehlo.output_operand_alias}}
func.func private @output_operand_alias_missing() attributes {a = #stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0>}

// -----

// expected-error @+1 {{expected ','}}
func.func private @channel_handle_missing() attributes {a = #stablehlo.channel_handle<handle = 1>}

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{failed to parse HLO_DotAlgorithm parameter 'lhsPrecisionType' which is to be a `::mlir::Type`}}
func.func private @dot_algorithm_type() attributes {a = #stablehlo.dot_algorithm<lhs_precision_type = 3, rhs_precision_type = f32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = false>}

// -----

// expected-error @+2 {{expected ::toast::stablehlo::ComparisonDirection to be one of: EQ, NE, GE, GT, LE, LT}}
// expected-error @+1 {{failed to parse HLO_ComparisonDirectionAttr parameter 'value' which is to be a `::toast::stablehlo::ComparisonDirection`}}
func.func private @enum_keyword() attributes {a = #stablehlo<comparison_direction LESS>}

// -----

// expected-error @+1 {{unknown attribute `comparison_kind` in dialect `stablehlo`}}
func.func private @enum_mnemonic() attributes {a = #stablehlo<comparison_kind LT>}

// -----

// expected-error @+1 {{unknown attribute `sharding` in dialect `stablehlo`}}
func.func private @unknown_attr() attributes {a = #stablehlo.sharding<"x">}

// -----

// expected-error @+2 {{expected ::toast::stablehlo::Precision to be one of: DEFAULT, HIGH, HIGHEST}}
// expected-error @+1 {{failed to parse HLO_PrecisionAttr parameter 'value' which is to be a `::toast::stablehlo::Precision`}}
func.func private @precision_keyword() attributes {a = #stablehlo<precision FAST>}

// -----

// expected-error @+2 {{expected ::toast::stablehlo::RngAlgorithm to be one of: DEFAULT, THREE_FRY, PHILOX}}
// expected-error @+1 {{failed to parse HLO_RngAlgorithmAttr parameter 'value' which is to be a `::toast::stablehlo::RngAlgorithm`}}
func.func private @rng_algorithm_keyword() attributes {a = #stablehlo<rng_algorithm MERSENNE>}
