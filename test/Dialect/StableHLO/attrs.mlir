// RUN: toast-opt %s | toast-opt | FileCheck %s
// RUN: toast-opt %s --mlir-print-op-generic | toast-opt | FileCheck %s

// Round trip of the StableHLO attributes in attribute position. Keys parse in
// any order and print in StableHLO's order; empty lists (and zero integers
// that are not required) are not printed.

// CHECK-LABEL: func.func private @dot
// CHECK-SAME: a = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>
// CHECK-SAME: b = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>
// CHECK-SAME: c = #stablehlo.dot<>
func.func private @dot() attributes {
  a = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>,
  b = #stablehlo.dot<rhs_contracting_dimensions = [0], lhs_contracting_dimensions = [1], lhs_batching_dimensions = []>,
  c = #stablehlo.dot<>}

// CHECK-LABEL: func.func private @gather
// CHECK-SAME: a = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>
// CHECK-SAME: b = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>
// CHECK-SAME: c = #stablehlo.gather<>
// CHECK-SAME: d = #stablehlo.gather<start_index_map = [0]>
func.func private @gather() attributes {
  a = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
  b = #stablehlo.gather<index_vector_dim = 2, start_index_map = [1], start_indices_batching_dims = [0], operand_batching_dims = [0], collapsed_slice_dims = [1], offset_dims = [2]>,
  c = #stablehlo.gather<>,
  d = #stablehlo.gather<start_index_map = [0], index_vector_dim = 0>}

// CHECK-LABEL: func.func private @scatter
// CHECK-SAME: a = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], input_batching_dims = [2], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
// CHECK-SAME: b = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1]>
func.func private @scatter() attributes {
  a = #stablehlo.scatter<index_vector_dim = 1, scatter_dims_to_operand_dims = [0], scatter_indices_batching_dims = [0], input_batching_dims = [2], inserted_window_dims = [0], update_window_dims = [1]>,
  b = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1]>}

// The short form; the raw form prints short whenever each layout is a
// permutation, and stays raw otherwise.
// CHECK-LABEL: func.func private @conv
// CHECK-SAME: a = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>
// CHECK-SAME: b = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>
// CHECK-SAME: c = #stablehlo.conv<[f, 1, 0, b]x[o, 1, 0, i]->[1, b, 0, f]>
// CHECK-SAME: d = #stablehlo.conv<[b, f]x[i, o]->[b, f]>
// CHECK-SAME: e = #stablehlo.conv<[b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f]>
// CHECK-SAME: f = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>
// CHECK-SAME: g = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 0, input_spatial_dimensions = [1], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2]>
// CHECK-SAME: h = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 2, input_spatial_dimensions = [1], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 2, kernel_spatial_dimensions = [0, 3], output_batch_dimension = 0, output_feature_dimension = 2, output_spatial_dimensions = [1]>
func.func private @conv() attributes {
  a = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,
  b = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 1, input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2, 3]>,
  c = #stablehlo.conv<[f, 1, 0, b]x[o, 1, 0, i]->[1, b, 0, f]>,
  d = #stablehlo.conv<[b, f]x[i, o]->[b, f]>,
  e = #stablehlo.conv<[b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f]>,
  f = #stablehlo.conv<raw output_spatial_dimensions = [1, 2], output_feature_dimension = 3, output_batch_dimension = 0, kernel_spatial_dimensions = [0, 1], kernel_output_feature_dimension = 3, kernel_input_feature_dimension = 2, input_spatial_dimensions = [1, 2], input_feature_dimension = 3, input_batch_dimension = 0>,
  g = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 0, input_spatial_dimensions = [1], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2], output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2]>,
  h = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 2, input_spatial_dimensions = [1], kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 2, kernel_spatial_dimensions = [0, 3], output_batch_dimension = 0, output_feature_dimension = 2, output_spatial_dimensions = [1]>}

// CHECK-LABEL: func.func private @channel_handle
// CHECK-SAME: a = #stablehlo.channel_handle<handle = 5, type = 2>
// CHECK-SAME: b = #stablehlo.channel_handle<handle = 1, type = 0>
func.func private @channel_handle() attributes {
  a = #stablehlo.channel_handle<type = 2, handle = 5>,
  b = #stablehlo.channel_handle<handle = 1, type = 0>}

// All three keys are required and always printed.
// CHECK-LABEL: func.func private @output_operand_alias
// CHECK-SAME: a = #stablehlo.output_operand_alias<output_tuple_indices = [0, 1], operand_index = 2, operand_tuple_indices = [3]>
// CHECK-SAME: b = #stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>
func.func private @output_operand_alias() attributes {
  a = #stablehlo.output_operand_alias<operand_tuple_indices = [3], operand_index = 2, output_tuple_indices = [0, 1]>,
  b = #stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>}

// CHECK-LABEL: func.func private @dot_algorithm
// CHECK-SAME: a = #stablehlo.dot_algorithm<lhs_precision_type = f8E4M3FN, rhs_precision_type = f8E5M2, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = true>
// CHECK-SAME: b = #stablehlo.dot_algorithm<lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 3, rhs_component_count = 3, num_primitive_operations = 6, allow_imprecise_accumulation = false>
func.func private @dot_algorithm() attributes {
  a = #stablehlo.dot_algorithm<lhs_precision_type = f8E4M3FN, rhs_precision_type = f8E5M2, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = true>,
  b = #stablehlo.dot_algorithm<lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 3, rhs_component_count = 3, num_primitive_operations = 6, allow_imprecise_accumulation = false>}

// CHECK-LABEL: func.func private @enums
// CHECK-SAME: cd = [#stablehlo<comparison_direction EQ>, #stablehlo<comparison_direction NE>, #stablehlo<comparison_direction GE>, #stablehlo<comparison_direction GT>, #stablehlo<comparison_direction LE>, #stablehlo<comparison_direction LT>]
// CHECK-SAME: ct = [#stablehlo<comparison_type NOTYPE>, #stablehlo<comparison_type FLOAT>, #stablehlo<comparison_type TOTALORDER>, #stablehlo<comparison_type SIGNED>, #stablehlo<comparison_type UNSIGNED>]
// CHECK-SAME: fft = [#stablehlo<fft_type FFT>, #stablehlo<fft_type IFFT>, #stablehlo<fft_type RFFT>, #stablehlo<fft_type IRFFT>]
// CHECK-SAME: p = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGH>, #stablehlo<precision HIGHEST>]
// CHECK-SAME: ra = [#stablehlo<rng_algorithm DEFAULT>, #stablehlo<rng_algorithm THREE_FRY>, #stablehlo<rng_algorithm PHILOX>]
// CHECK-SAME: rd = [#stablehlo<rng_distribution UNIFORM>, #stablehlo<rng_distribution NORMAL>]
// CHECK-SAME: t = [#stablehlo<transpose TRANSPOSE_INVALID>, #stablehlo<transpose NO_TRANSPOSE>, #stablehlo<transpose TRANSPOSE>, #stablehlo<transpose ADJOINT>]
func.func private @enums() attributes {
  cd = [#stablehlo<comparison_direction EQ>, #stablehlo<comparison_direction NE>, #stablehlo<comparison_direction GE>, #stablehlo<comparison_direction GT>, #stablehlo<comparison_direction LE>, #stablehlo<comparison_direction LT>],
  ct = [#stablehlo<comparison_type NOTYPE>, #stablehlo<comparison_type FLOAT>, #stablehlo<comparison_type TOTALORDER>, #stablehlo<comparison_type SIGNED>, #stablehlo<comparison_type UNSIGNED>],
  p = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGH>, #stablehlo<precision HIGHEST>],
  t = [#stablehlo<transpose TRANSPOSE_INVALID>, #stablehlo<transpose NO_TRANSPOSE>, #stablehlo<transpose TRANSPOSE>, #stablehlo<transpose ADJOINT>],
  ra = [#stablehlo<rng_algorithm DEFAULT>, #stablehlo<rng_algorithm THREE_FRY>, #stablehlo<rng_algorithm PHILOX>],
  rd = [#stablehlo<rng_distribution UNIFORM>, #stablehlo<rng_distribution NORMAL>],
  fft = [#stablehlo<fft_type FFT>, #stablehlo<fft_type IFFT>, #stablehlo<fft_type RFFT>, #stablehlo<fft_type IRFFT>]}

// Attributes used as discardable attributes of ops and modules are kept.
// CHECK-LABEL: module @attributes_on_ops
// CHECK-SAME: attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32, toast.conv = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>}
module @attributes_on_ops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32, toast.conv = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>} {
  // CHECK-LABEL: func.func @on_op
  func.func @on_op(%x: tensor<4xf32>) -> tensor<4xf32> {
    // CHECK: stablehlo.negate %{{.+}} {toast.dir = #stablehlo<comparison_direction GT>, toast.gather = #stablehlo.gather<offset_dims = [0]>} : tensor<4xf32>
    %0 = stablehlo.negate %x {toast.gather = #stablehlo.gather<offset_dims = [0]>, toast.dir = #stablehlo<comparison_direction GT>} : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
