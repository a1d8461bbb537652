// RUN: toast-opt %s -split-input-file -verify-diagnostics

// Verifier errors of gather, scatter and sort.

func.func @gather_slice_sizes(%x: tensor<8x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op slice_sizes must have one entry per operand dimension (2)}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gather_slice_size_bound(%x: tensor<8x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op slice size 5 is out of bounds for operand dimension 1}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 5>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @gather_collapsed_range(%x: tensor<8x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op collapsed/batching slice dimension 2 is out of range [0, 2)}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [2], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gather_start_index_map(%x: tensor<8x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op start_index_map entry 0 appears more than once}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gather_index_vector_dim(%x: tensor<8x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op index_vector_dim 3 is out of range}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 3>, slice_sizes = array<i64: 1, 4>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gather_index_vector_size(%x: tensor<8x4xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op start_index_map has 1 entries but the index vector has size 2}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<8x4xf32>, tensor<3x2xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gather_batching_sizes(%x: tensor<2x8x4xf32>, %i: tensor<2x3x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op operand_batching_dims and start_indices_batching_dims must have the same size}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 4>}> : (tensor<2x8x4xf32>, tensor<2x3x1xi32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @gather_collapsed_size(%x: tensor<8x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op collapsed/batching dimension 0 must have slice size 0 or 1}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2, 4>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gather_offset_dims_count(%x: tensor<8x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op offset_dims has 2 entries, expected 1}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gather_result(%x: tensor<8x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op inferred shape [3, 4] is incompatible with result type 'tensor<4x3xf32>'}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @gather_element_type(%x: tensor<8x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op result must have the operand's element type}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x4xi32>
  return
}

// -----

func.func @gather_missing_attr(%x: tensor<8x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'stablehlo.gather' op requires attribute 'dimension_numbers'}}
  %0 = "stablehlo.gather"(%x, %i) <{slice_sizes = array<i64: 1, 4>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @scatter_results(%x: tensor<8xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.scatter' op result types must equal the input types}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<8xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<8xf16>
  return
}

// -----

func.func @scatter_inserted_range(%x: tensor<8xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.scatter' op inserted/batching window dimension 1 is out of range [0, 1)}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<8xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @scatter_index_vector_size(%x: tensor<8xf32>, %i: tensor<2x2xi32>, %u: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.scatter' op scatter_dims_to_operand_dims has 1 entries but the index vector has size 2}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<8xf32>, tensor<2x2xi32>, tensor<2xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @scatter_batching_sizes(%x: tensor<2x8xf32>, %i: tensor<2x3x1xi32>, %u: tensor<2x3xf32>) {
  // expected-error @+1 {{'stablehlo.scatter' op input_batching_dims and scatter_indices_batching_dims must have the same size}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<2x8xf32>, tensor<2x3x1xi32>, tensor<2x3xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @scatter_window_rank(%x: tensor<8x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>) {
  // expected-error @+1 {{'stablehlo.scatter' op update_window_dims (0) plus inserted and batching dims (1) must equal the operand rank (2)}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<8x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @scatter_updates_rank(%x: tensor<8x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4x1xf32>) {
  // expected-error @+1 {{'stablehlo.scatter' op updates must have rank 2, got 3}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<8x4xf32>, tensor<2x1xi32>, tensor<2x4x1xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @scatter_region_args(%x: tensor<8xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.scatter' op update_computation must take 2 arguments, got 1}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<8xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @scatter_region_rank(%x: tensor<8xf32>, %i: tensor<2x1xi32>, %u: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.scatter' op update_computation arguments must be rank-0 tensors, got 'tensor<1xf32>'}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
  ^bb0(%a: tensor<1xf32>, %b: tensor<1xf32>):
    stablehlo.return %a : tensor<1xf32>
  }) : (tensor<8xf32>, tensor<2x1xi32>, tensor<2xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @sort_dimension(%x: tensor<4x5xf32>) {
  // expected-error @+1 {{'stablehlo.sort' op dimension 2 is out of range for rank 2}}
  %0 = "stablehlo.sort"(%x) <{dimension = 2 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @sort_results(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.sort' op expects one result per input}}
  %0 = "stablehlo.sort"(%x, %x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    %p = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @sort_comparator_args(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.sort' op comparator must take 2 arguments, got 1}}
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>):
    %p = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @sort_comparator_arg_type(%x: tensor<4xf32>, %y: tensor<4xi32>) {
  // expected-error @+1 {{'stablehlo.sort' op comparator argument 2 must have element type 'i32', got 'tensor<f32>'}}
  %0:2 = "stablehlo.sort"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    %p = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<4xf32>, tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>)
  return
}

// -----

func.func @sort_comparator_return(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.sort' op comparator must return a single tensor<i1>}}
  %0 = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @sort_shapes(%x: tensor<4xf32>, %y: tensor<5xf32>) {
  // expected-error @+1 {{'stablehlo.sort' op requires the same shape for all operands and results}}
  %0:2 = "stablehlo.sort"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    %p = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<4xf32>, tensor<5xf32>) -> (tensor<4xf32>, tensor<5xf32>)
  return
}
