// Convolution features that the StableHLO test data does not cover, checked
// against equivalent programs built from simpler ops (random inputs):
// window reversal = reversed kernel, batch groups = per-group convolutions,
// lhs dilation = interior padding of the input, rhs dilation = interior
// padding of the kernel, negative padding = cropping, feature groups =
// per-group convolutions.
// RUN: split-file %s %t
// RUN: toast-run --compare %t/reversal.mlir %t/reversal-ref.mlir --seed 1 --rtol 1e-6 --atol 1e-6 | FileCheck %s
// RUN: toast-run --compare %t/batch-groups.mlir %t/batch-groups-ref.mlir --seed 2 --rtol 1e-6 --atol 1e-6 | FileCheck %s
// RUN: toast-run --compare %t/dilations.mlir %t/dilations-ref.mlir --seed 3 --rtol 1e-6 --atol 1e-6 | FileCheck %s
// RUN: toast-run --compare %t/feature-groups.mlir %t/feature-groups-ref.mlir --seed 4 --rtol 1e-6 --atol 1e-6 | FileCheck %s
// CHECK: results agree

//--- reversal.mlir
func.func @main(%x: tensor<2x7x6x3xf32>, %k: tensor<3x2x3x4xf32>) -> tensor<2x5x5x4xf32> {
  %y = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x7x6x3xf32>, tensor<3x2x3x4xf32>) -> tensor<2x5x5x4xf32>
  return %y : tensor<2x5x5x4xf32>
}
//--- reversal-ref.mlir
func.func @main(%x: tensor<2x7x6x3xf32>, %k: tensor<3x2x3x4xf32>) -> tensor<2x5x5x4xf32> {
  %r = stablehlo.reverse %k, dims = [0] : tensor<3x2x3x4xf32>
  %y = stablehlo.convolution(%x, %r) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x7x6x3xf32>, tensor<3x2x3x4xf32>) -> tensor<2x5x5x4xf32>
  return %y : tensor<2x5x5x4xf32>
}
//--- batch-groups.mlir
func.func @main(%x: tensor<4x6x3xf32>, %k: tensor<3x3x4xf32>) -> tensor<2x4x4xf32> {
  %y = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x6x3xf32>, tensor<3x3x4xf32>) -> tensor<2x4x4xf32>
  return %y : tensor<2x4x4xf32>
}
//--- batch-groups-ref.mlir
func.func @main(%x: tensor<4x6x3xf32>, %k: tensor<3x3x4xf32>) -> tensor<2x4x4xf32> {
  %x0 = stablehlo.slice %x [0:2, 0:6, 0:3] : (tensor<4x6x3xf32>) -> tensor<2x6x3xf32>
  %x1 = stablehlo.slice %x [2:4, 0:6, 0:3] : (tensor<4x6x3xf32>) -> tensor<2x6x3xf32>
  %k0 = stablehlo.slice %k [0:3, 0:3, 0:2] : (tensor<3x3x4xf32>) -> tensor<3x3x2xf32>
  %k1 = stablehlo.slice %k [0:3, 0:3, 2:4] : (tensor<3x3x4xf32>) -> tensor<3x3x2xf32>
  %y0 = stablehlo.convolution(%x0, %k0) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x6x3xf32>, tensor<3x3x2xf32>) -> tensor<2x4x2xf32>
  %y1 = stablehlo.convolution(%x1, %k1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x6x3xf32>, tensor<3x3x2xf32>) -> tensor<2x4x2xf32>
  %y = stablehlo.concatenate %y0, %y1, dim = 2 : (tensor<2x4x2xf32>, tensor<2x4x2xf32>) -> tensor<2x4x4xf32>
  return %y : tensor<2x4x4xf32>
}
//--- dilations.mlir
// Input 5 dilated by 2 -> 9, padded by (-1, 2) -> 10; kernel 3 dilated by 2
// -> 5; stride 2: (10 - 5) / 2 + 1 = 3 outputs.
func.func @main(%x: tensor<1x5x2xf32>, %k: tensor<3x2x3xf32>) -> tensor<1x3x3xf32> {
  %y = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2], pad = [[-1, 2]], lhs_dilate = [2], rhs_dilate = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x2xf32>, tensor<3x2x3xf32>) -> tensor<1x3x3xf32>
  return %y : tensor<1x3x3xf32>
}
//--- dilations-ref.mlir
func.func @main(%x: tensor<1x5x2xf32>, %k: tensor<3x2x3xf32>) -> tensor<1x3x3xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %xp = stablehlo.pad %x, %zero, low = [0, -1, 0], high = [0, 2, 0], interior = [0, 1, 0] : (tensor<1x5x2xf32>, tensor<f32>) -> tensor<1x10x2xf32>
  %kp = stablehlo.pad %k, %zero, low = [0, 0, 0], high = [0, 0, 0], interior = [1, 0, 0] : (tensor<3x2x3xf32>, tensor<f32>) -> tensor<5x2x3xf32>
  %y = stablehlo.convolution(%xp, %kp) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x10x2xf32>, tensor<5x2x3xf32>) -> tensor<1x3x3xf32>
  return %y : tensor<1x3x3xf32>
}
//--- feature-groups.mlir
func.func @main(%x: tensor<2x4x6xf32>, %k: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %y = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<2x4x6xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}
//--- feature-groups-ref.mlir
func.func @main(%x: tensor<2x4x6xf32>, %k: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %x0 = stablehlo.slice %x [0:2, 0:4, 0:3] : (tensor<2x4x6xf32>) -> tensor<2x4x3xf32>
  %x1 = stablehlo.slice %x [0:2, 0:4, 3:6] : (tensor<2x4x6xf32>) -> tensor<2x4x3xf32>
  %k0 = stablehlo.slice %k [0:2, 0:3, 0:2] : (tensor<2x3x4xf32>) -> tensor<2x3x2xf32>
  %k1 = stablehlo.slice %k [0:2, 0:3, 2:4] : (tensor<2x3x4xf32>) -> tensor<2x3x2xf32>
  %y0 = stablehlo.convolution(%x0, %k0) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x4x3xf32>, tensor<2x3x2xf32>) -> tensor<2x3x2xf32>
  %y1 = stablehlo.convolution(%x1, %k1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x4x3xf32>, tensor<2x3x2xf32>) -> tensor<2x3x2xf32>
  %y = stablehlo.concatenate %y0, %y1, dim = 2 : (tensor<2x3x2xf32>, tensor<2x3x2xf32>) -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}
