// RUN: toast-opt %s -split-input-file -verify-diagnostics

// Verifier errors and malformed syntax of reduce, reduce_window,
// select_and_scatter and triangular_solve.

func.func @reduce_dims_range(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce' op reduced dimension 2 is out of range [0, 2)}}
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [2] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @reduce_dims_duplicate(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce' op reduced dimension 1 appears more than once}}
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1, 1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @reduce_result(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce' op inferred shape [4] is incompatible with result type 'tensor<8xf32>'}}
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  return
}

// -----

func.func @reduce_init_rank(%x: tensor<4x8xf32>, %z: tensor<1xf32>) {
  // expected-error @+1 {{'stablehlo.reduce' op init values must be rank-0 tensors}}
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<1xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @reduce_result_count(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce' op expects one result per input}}
  %0:2 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @reduce_input_shapes(%x: tensor<4x8xf32>, %y: tensor<4x4xi32>, %z: tensor<f32>, %w: tensor<i32>) {
  // expected-error @+1 {{'stablehlo.reduce' op all inputs must have the same shape}}
  %0:2 = stablehlo.reduce(%x init: %z), (%y init: %w) across dimensions = [1] : (tensor<4x8xf32>, tensor<4x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%c: tensor<i32>, %d: tensor<i32>) {
    stablehlo.return %a, %c : tensor<f32>, tensor<i32>
  }
  return
}

// -----

func.func @reduce_body_args(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce' op body must take 2 arguments, got 1}}
  %0 = "stablehlo.reduce"(%x, %z) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @reduce_body_arg_type(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce' op body argument 1 must have type 'tensor<f32>', got 'tensor<f16>'}}
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f16>) {
    stablehlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reduce_body_return_count(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce' op body must return 1 values}}
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    stablehlo.return %a, %b : tensor<f32>, tensor<f32>
  }
  return
}

// -----

func.func @reduce_body_return_type(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce' op body must return values of types matching the init values}}
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %c = stablehlo.convert %a : (tensor<f32>) -> tensor<f16>
    stablehlo.return %c : tensor<f16>
  }
  return
}

// -----

func.func @reduce_body_empty(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce' op body must return 1 values}}
  %0 = "stablehlo.reduce"(%x, %z) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @reduce_compact_two_inputs(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce' op body must take 4 arguments, got 2}}
  %0:2 = stablehlo.reduce(%x init: %z), (%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return
}

// -----

func.func @reduce_compact_unknown_op(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{unregistered operation 'stablehlo.plus' found in dialect ('stablehlo') that does not allow unknown operations}}
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.plus across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @reduce_compact_needs_attr(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.compare' op requires attribute 'comparison_direction'}}
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.compare across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @reduce_type_count(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{custom op 'stablehlo.reduce' expected 2 operand types, got 1}}
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @reduce_missing_reducer(%x: tensor<4xf32>, %z: tensor<f32>) {
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  // expected-error @+1 {{custom op 'stablehlo.reduce' expected 'reducer'}}
  return
}

// -----

func.func @reduce_reducer_untyped(%x: tensor<4xf32>, %z: tensor<f32>) {
  %0 = stablehlo.reduce(%x init: %z) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
   // expected-error @+1 {{expected ':'}}
   reducer(%a, %b) {
    stablehlo.return %a : tensor<f32>
  }
  return
}

// -----

func.func @reduce_missing_init(%x: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{custom op 'stablehlo.reduce' expected 'init'}}
  %0 = stablehlo.reduce(%x) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @reduce_window_dims_count(%x: tensor<8x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce_window' op window_dimensions must have 2 entries, got 1}}
  %0 = "stablehlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8x8xf32>, tensor<f32>) -> tensor<7x7xf32>
  return
}

// -----

func.func @reduce_window_padding(%x: tensor<8x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce_window' op padding must have 4 entries, got 2}}
  %0 = "stablehlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2, 2>, padding = dense<0> : tensor<2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8x8xf32>, tensor<f32>) -> tensor<7x7xf32>
  return
}

// -----

func.func @reduce_window_result(%x: tensor<8x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.reduce_window' op result shape does not match the windowed input shape}}
  %0 = "stablehlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<8x8xf32>, tensor<f32>) -> tensor<7x7xf32>
  return
}

// -----

func.func @reduce_window_init(%x: tensor<8x8xf32>, %z: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.reduce_window' op init values must be rank-0 tensors}}
  %0 = "stablehlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<2xf32>, %b: tensor<2xf32>):
    stablehlo.return %a : tensor<2xf32>
  }) : (tensor<8x8xf32>, tensor<2xf32>) -> tensor<7x7xf32>
  return
}

// -----

func.func @select_and_scatter_result(%o: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.select_and_scatter' op result type must equal the operand type}}
  %0 = "stablehlo.select_and_scatter"(%o, %s, %z) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<5xf32>
  return
}

// -----

func.func @select_and_scatter_source(%o: tensor<4xf32>, %s: tensor<3xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.select_and_scatter' op source shape must be the windowed operand shape}}
  %0 = "stablehlo.select_and_scatter"(%o, %s, %z) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<4xf32>, tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @select_and_scatter_args(%o: tensor<4xf32>, %s: tensor<2xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.select_and_scatter' op select and scatter regions take two arguments}}
  %0 = "stablehlo.select_and_scatter"(%o, %s, %z) <{window_dimensions = array<i64: 2>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>):
    %c = stablehlo.compare GE, %a, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %a : tensor<f32>
  }) : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @triangular_solve_rank(%a: tensor<3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.triangular_solve' op a and b must have the same rank, at least 2}}
  %0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}> : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @triangular_solve_square(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'stablehlo.triangular_solve' op a must be square in its two minor dimensions}}
  %0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}> : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @triangular_solve_transpose(%a: tensor<3x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'stablehlo.triangular_solve' op transpose_a must not be TRANSPOSE_INVALID}}
  %0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE_INVALID>}> : (tensor<3x3xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @triangular_solve_result(%a: tensor<3x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'stablehlo.triangular_solve' op result type must equal the type of b}}
  %0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}> : (tensor<3x3xf32>, tensor<3x4xf32>) -> tensor<3x3xf32>
  return
}
