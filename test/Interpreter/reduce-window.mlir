// reduce_window features that the StableHLO test data does not cover
// (window and base dilations; padding with a non-identity init value),
// checked against equivalent programs on random inputs. Per the
// specification, padding and base-dilation holes hold the init value.
// RUN: split-file %s %t
// RUN: toast-run --compare %t/window-dilation.mlir %t/window-dilation-ref.mlir --seed 1 | FileCheck %s
// RUN: toast-run --compare %t/base-dilation.mlir %t/base-dilation-ref.mlir --seed 2 | FileCheck %s
// CHECK: results agree

//--- window-dilation.mlir
func.func @main(%x: tensor<10xf32>) -> tensor<4xf32> {
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %y = "stablehlo.reduce_window"(%x, %init) <{window_dimensions = array<i64: 2>, window_dilations = array<i64: 3>, window_strides = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<10xf32>, tensor<f32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
//--- window-dilation-ref.mlir
// y[i] = max(x[2i], x[2i + 3])
func.func @main(%x: tensor<10xf32>) -> tensor<4xf32> {
  %a = stablehlo.slice %x [0:7:2] : (tensor<10xf32>) -> tensor<4xf32>
  %b = stablehlo.slice %x [3:10:2] : (tensor<10xf32>) -> tensor<4xf32>
  %y = stablehlo.maximum %a, %b : tensor<4xf32>
  return %y : tensor<4xf32>
}
//--- base-dilation.mlir
func.func @main(%x: tensor<3x4xf32>) -> tensor<5x4xf32> {
  %init = stablehlo.constant dense<1.0> : tensor<f32>
  %y = "stablehlo.reduce_window"(%x, %init) <{window_dimensions = array<i64: 2, 2>, base_dilations = array<i64: 2, 1>, padding = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3x4xf32>, tensor<f32>) -> tensor<5x4xf32>
  return %y : tensor<5x4xf32>
}
//--- base-dilation-ref.mlir
// Pad with the init value (interior holes included), then sum 2x2 windows
// and add the init value once more.
func.func @main(%x: tensor<3x4xf32>) -> tensor<5x4xf32> {
  %init = stablehlo.constant dense<1.0> : tensor<f32>
  %p = stablehlo.pad %x, %init, low = [0, 1], high = [1, 0], interior = [1, 0] : (tensor<3x4xf32>, tensor<f32>) -> tensor<6x5xf32>
  %a = stablehlo.slice %p [0:5, 0:4] : (tensor<6x5xf32>) -> tensor<5x4xf32>
  %b = stablehlo.slice %p [0:5, 1:5] : (tensor<6x5xf32>) -> tensor<5x4xf32>
  %c = stablehlo.slice %p [1:6, 0:4] : (tensor<6x5xf32>) -> tensor<5x4xf32>
  %d = stablehlo.slice %p [1:6, 1:5] : (tensor<6x5xf32>) -> tensor<5x4xf32>
  %ones = stablehlo.broadcast_in_dim %init, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
  %s0 = stablehlo.add %ones, %a : tensor<5x4xf32>
  %s1 = stablehlo.add %s0, %b : tensor<5x4xf32>
  %s2 = stablehlo.add %s1, %c : tensor<5x4xf32>
  %y = stablehlo.add %s2, %d : tensor<5x4xf32>
  return %y : tensor<5x4xf32>
}
