// Round trip of sdy.manual_computation (JAX's shard_map), pretty and
// generic: shardings with open dimensions, sub-axes and free axes, several
// operands and results, and a body with no operands.
// RUN: toast-opt %s | toast-opt | FileCheck %s
// RUN: toast-opt %s --mlir-print-op-generic | toast-opt | FileCheck %s

sdy.mesh @mesh = <["a"=2, "b"=4]>

// CHECK-LABEL: func.func @one_axis
// CHECK: %[[R:.*]] = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%[[A:.*]]: tensor<8x32xf32>) {
// CHECK-NEXT:   %[[S:.*]] = stablehlo.add %[[A]], %[[A]] : tensor<8x32xf32>
// CHECK-NEXT:   sdy.return %[[S]] : tensor<8x32xf32>
// CHECK-NEXT: } : (tensor<16x32xf32>) -> tensor<16x32xf32>
// CHECK-NEXT: return %[[R]]
func.func @one_axis(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a", ?}, {?}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%arg1: tensor<8x32xf32>) {
    %1 = stablehlo.add %arg1, %arg1 : tensor<8x32xf32>
    sdy.return %1 : tensor<8x32xf32>
  } : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}

// Free axis "b" after the manual one: only "a" divides the local shape.
// CHECK-LABEL: func.func @free_axes
// CHECK: sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"a", "b"}, {}]>, <@mesh, [{}, {"b"}]>] out_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, [{}]>] manual_axes={"a"} (%{{.*}}: tensor<8x4xf32>, %{{.*}}: tensor<4x8xf32>) {
// CHECK: sdy.return %{{.*}}, %{{.*}} : tensor<8x8xf32>, tensor<8xf32>
// CHECK-NEXT: } : (tensor<16x4xf32>, tensor<4x8xf32>) -> (tensor<16x8xf32>, tensor<8xf32>)
func.func @free_axes(%x: tensor<16x4xf32>, %w: tensor<4x8xf32>) -> (tensor<16x8xf32>, tensor<8xf32>) {
  %0:2 = sdy.manual_computation(%x, %w) in_shardings=[<@mesh, [{"a", "b"}, {}]>, <@mesh, [{}, {"b"}]>] out_shardings=[<@mesh, [{"a"}, {}]>, <@mesh, [{}]>] manual_axes={"a"} (%arg1: tensor<8x4xf32>, %arg2: tensor<4x8xf32>) {
    %1 = stablehlo.dot_general %arg1, %arg2, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
    sdy.return %1, %2 : tensor<8x8xf32>, tensor<8xf32>
  } : (tensor<16x4xf32>, tensor<4x8xf32>) -> (tensor<16x8xf32>, tensor<8xf32>)
  return %0#0, %0#1 : tensor<16x8xf32>, tensor<8xf32>
}

// Both axes manual, one of them through a sub-axis; a scalar result.
// CHECK-LABEL: func.func @sub_axes
// CHECK: sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"b":(1)2}, {"a", "b":(2)2}]>] out_shardings=[<@mesh, []>] manual_axes={"a", "b"} (%{{.*}}: tensor<4x4xf32>) {
// CHECK: } : (tensor<8x16xf32>) -> tensor<f32>
func.func @sub_axes(%x: tensor<8x16xf32>) -> tensor<f32> {
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"b":(1)2}, {"a", "b":(2)2}]>] out_shardings=[<@mesh, []>] manual_axes={"a", "b"} (%arg1: tensor<4x4xf32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%arg1 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<f32>
    sdy.return %1 : tensor<f32>
  } : (tensor<8x16xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// No operands, no manual axes, an attribute dictionary.
// CHECK-LABEL: func.func @empty
// CHECK: sdy.manual_computation() in_shardings=[] out_shardings=[<@mesh, [{}]>] manual_axes={} () {
// CHECK: } {note = "kept"} : () -> tensor<4xf32>
func.func @empty() -> tensor<4xf32> {
  %0 = sdy.manual_computation() in_shardings=[] out_shardings=[<@mesh, [{}]>] manual_axes={} () {
    %1 = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
    sdy.return %1 : tensor<4xf32>
  } {note = "kept"} : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
