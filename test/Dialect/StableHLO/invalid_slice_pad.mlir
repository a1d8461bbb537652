// RUN: toast-opt %s -split-input-file -verify-diagnostics

// Verifier errors and malformed syntax of slice, dynamic_slice,
// dynamic_update_slice, pad and reverse.

func.func @slice_rank(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'stablehlo.slice' op start, limit and strides must each have one entry per operand dimension (2)}}
  %0 = stablehlo.slice %x [0:2] : (tensor<4x4xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @slice_limit(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.slice' op slice range 0:5 is invalid for dimension 0 of size 4}}
  %0 = stablehlo.slice %x [0:5] : (tensor<4xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @slice_start_after_limit(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.slice' op slice range 3:2 is invalid for dimension 0 of size 4}}
  %0 = stablehlo.slice %x [3:2] : (tensor<4xf32>) -> tensor<0xf32>
  return
}

// -----

func.func @slice_negative_start(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.slice' op slice range -1:2 is invalid for dimension 0 of size 4}}
  %0 = stablehlo.slice %x [-1:2] : (tensor<4xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @slice_stride(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.slice' op stride 0 must be positive}}
  %0 = stablehlo.slice %x [0:4:0] : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @slice_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.slice' op inferred shape [2] is incompatible with result type 'tensor<1xf32>'}}
  %0 = stablehlo.slice %x [0:4:3] : (tensor<4xf32>) -> tensor<1xf32>
  return
}

// -----

func.func @slice_element_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.slice' op requires the same element type for all operands and results}}
  %0 = stablehlo.slice %x [0:4] : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @slice_generic_sizes(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.slice' op start, limit and strides must each have one entry per operand dimension (1)}}
  %0 = "stablehlo.slice"(%x) <{start_indices = array<i64: 0, 1>, limit_indices = array<i64: 1>, strides = array<i64: 1>}> : (tensor<4xf32>) -> tensor<1xf32>
  return
}

// -----

func.func @slice_syntax_missing_limit(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected ':'}}
  %0 = stablehlo.slice %x [0] : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @slice_syntax_brackets(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected '['}}
  %0 = stablehlo.slice %x (0:4) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @dynamic_slice_index_count(%x: tensor<4x4xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op expects one start index per operand dimension (2), got 1}}
  %0 = stablehlo.dynamic_slice %x, %i, sizes = [1, 1] : (tensor<4x4xf32>, tensor<i32>) -> tensor<1x1xf32>
  return
}

// -----

func.func @dynamic_slice_sizes_count(%x: tensor<4xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op slice_sizes must have one entry per operand dimension}}
  %0 = stablehlo.dynamic_slice %x, %i, sizes = [1, 1] : (tensor<4xf32>, tensor<i32>) -> tensor<1x1xf32>
  return
}

// -----

func.func @dynamic_slice_size(%x: tensor<4xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op slice size 5 is out of bounds for dimension 0}}
  %0 = stablehlo.dynamic_slice %x, %i, sizes = [5] : (tensor<4xf32>, tensor<i32>) -> tensor<5xf32>
  return
}

// -----

func.func @dynamic_slice_result(%x: tensor<4xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op result shape must equal slice_sizes}}
  %0 = stablehlo.dynamic_slice %x, %i, sizes = [2] : (tensor<4xf32>, tensor<i32>) -> tensor<3xf32>
  return
}

// -----

func.func @dynamic_slice_element_type(%x: tensor<4xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op result must have the operand's element type}}
  %0 = stablehlo.dynamic_slice %x, %i, sizes = [2] : (tensor<4xf32>, tensor<i32>) -> tensor<2xi32>
  return
}

// -----

func.func @dynamic_slice_index_type(%x: tensor<4xf32>, %i: tensor<1xi32>) {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op operand #1 must be variadic of 0D tensor of signless integer or unsigned integer values, but got 'tensor<1xi32>'}}
  %0 = stablehlo.dynamic_slice %x, %i, sizes = [2] : (tensor<4xf32>, tensor<1xi32>) -> tensor<2xf32>
  return
}

// -----

func.func @dynamic_slice_float_index(%x: tensor<4xf32>, %i: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.dynamic_slice' op operand #1 must be variadic of 0D tensor of signless integer or unsigned integer values, but got 'tensor<f32>'}}
  %0 = stablehlo.dynamic_slice %x, %i, sizes = [2] : (tensor<4xf32>, tensor<f32>) -> tensor<2xf32>
  return
}

// -----

func.func @dynamic_update_slice_result(%x: tensor<4xf32>, %u: tensor<2xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'stablehlo.dynamic_update_slice' op result type must equal the operand type}}
  %0 = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<4xf32>, tensor<2xf32>, tensor<i32>) -> tensor<5xf32>
  return
}

// -----

func.func @dynamic_update_slice_rank(%x: tensor<4xf32>, %u: tensor<1x2xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'stablehlo.dynamic_update_slice' op update must have the operand's rank}}
  %0 = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<4xf32>, tensor<1x2xf32>, tensor<i32>) -> tensor<4xf32>
  return
}

// -----

func.func @dynamic_update_slice_indices(%x: tensor<4xf32>, %u: tensor<2xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'stablehlo.dynamic_update_slice' op expects one start index per operand dimension}}
  %0 = stablehlo.dynamic_update_slice %x, %u, %i, %i : (tensor<4xf32>, tensor<2xf32>, tensor<i32>, tensor<i32>) -> tensor<4xf32>
  return
}

// -----

func.func @dynamic_update_slice_size(%x: tensor<4xf32>, %u: tensor<5xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'stablehlo.dynamic_update_slice' op update is larger than the operand in dimension 0}}
  %0 = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<4xf32>, tensor<5xf32>, tensor<i32>) -> tensor<4xf32>
  return
}

// -----

func.func @dynamic_update_slice_element_type(%x: tensor<4xf32>, %u: tensor<2xi32>, %i: tensor<i32>) {
  // expected-error @+1 {{'stablehlo.dynamic_update_slice' op update must have the operand's element type}}
  %0 = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<4xf32>, tensor<2xi32>, tensor<i32>) -> tensor<4xf32>
  return
}

// -----

func.func @pad_scalar(%x: tensor<4xf32>, %p: tensor<1xf32>) {
  // expected-error @+1 {{'stablehlo.pad' op padding value must be a scalar}}
  %0 = stablehlo.pad %x, %p, low = [0], high = [0], interior = [0] : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @pad_sizes(%x: tensor<4xf32>, %p: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.pad' op low, high and interior padding must each have one entry per operand dimension (1)}}
  %0 = stablehlo.pad %x, %p, low = [0, 0], high = [0], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @pad_interior(%x: tensor<4xf32>, %p: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.pad' op interior padding must be non-negative}}
  %0 = stablehlo.pad %x, %p, low = [0], high = [0], interior = [-1] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @pad_negative(%x: tensor<4xf32>, %p: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.pad' op padding makes dimension 0 negative}}
  %0 = stablehlo.pad %x, %p, low = [-3], high = [-2], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<0xf32>
  return
}

// -----

func.func @pad_result(%x: tensor<4xf32>, %p: tensor<f32>) {
  // expected-error @+1 {{'stablehlo.pad' op inferred shape [9] is incompatible with result type 'tensor<6xf32>'}}
  %0 = stablehlo.pad %x, %p, low = [1], high = [1], interior = [1] : (tensor<4xf32>, tensor<f32>) -> tensor<6xf32>
  return
}

// -----

func.func @pad_element_type(%x: tensor<4xf32>, %p: tensor<i32>) {
  // expected-error @+1 {{'stablehlo.pad' op requires the same element type for all operands and results}}
  %0 = stablehlo.pad %x, %p, low = [0], high = [0], interior = [0] : (tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
  return
}

// -----

func.func @pad_missing_key(%x: tensor<4xf32>, %p: tensor<f32>) {
  // expected-error @+1 {{custom op 'stablehlo.pad' expected 'high'}}
  %0 = stablehlo.pad %x, %p, low = [0], interior = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @reverse_dim(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.reverse' op reversed dimension 1 is out of range [0, 1)}}
  %0 = stablehlo.reverse %x, dims = [1] : tensor<4xf32>
  return
}

// -----

func.func @reverse_duplicate(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'stablehlo.reverse' op reversed dimension 0 appears more than once}}
  %0 = stablehlo.reverse %x, dims = [0, 0] : tensor<4x4xf32>
  return
}

// -----

func.func @reverse_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.reverse' op requires the same type for all operands and results}}
  %0 = stablehlo.reverse %x, dims = [0] : (tensor<4xf32>) -> tensor<4xf16>
  return
}
