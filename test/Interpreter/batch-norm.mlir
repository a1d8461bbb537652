// batch_norm_inference, _training and _grad with the specification's
// formulas; the expected values are worked out by hand in the comments.
// RUN: toast-run %s | FileCheck %s

// CHECK: @main: 9 checks passed, 0 failed
func.func @main() {
  // x: [4, 2], features along dimension 1.
  //   feature 0: 1, 1, 5, 5 -> mean 3, centered -2, -2, 2, 2, variance 4
  //   feature 1: 0, 2, 0, 2 -> mean 1, centered -1, 1, -1, 1, variance 1
  %x = stablehlo.constant dense<[[1.0, 0.0], [1.0, 2.0], [5.0, 0.0], [5.0, 2.0]]> : tensor<4x2xf32>
  %scale = stablehlo.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %offset = stablehlo.constant dense<[10.0, 0.0]> : tensor<2xf32>

  // Training with epsilon 0: standard deviations 2 and 1, normalized
  // feature 0 = -1, -1, 1, 1 -> 2 * n + 10 = 8, 8, 12, 12;
  // feature 1 = -1, 1, -1, 1 -> 3 * n + 0 = -3, 3, -3, 3.
  %out, %mean, %var = "stablehlo.batch_norm_training"(%x, %scale, %offset) {epsilon = 0.0 : f32, feature_index = 1 : i64} : (tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>)
  %out_e = stablehlo.constant dense<[[8.0, -3.0], [8.0, 3.0], [12.0, -3.0], [12.0, 3.0]]> : tensor<4x2xf32>
  %mean_e = stablehlo.constant dense<[3.0, 1.0]> : tensor<2xf32>
  %var_e = stablehlo.constant dense<[4.0, 1.0]> : tensor<2xf32>
  stablehlo.custom_call @check.expect_close(%out, %out_e) {has_side_effect = true} : (tensor<4x2xf32>, tensor<4x2xf32>) -> ()
  stablehlo.custom_call @check.expect_close(%mean, %mean_e) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  stablehlo.custom_call @check.expect_close(%var, %var_e) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()

  // Gradient at those statistics, N = 4 elements per feature, with
  //   dx = scale / stddev / N * (N * dy - sum(dy) - xc * sum(dy * xc) / var)
  // feature 0: dy = 1, 0, 0, 0: sum(dy) = 1, sum(dy * xc) = -2,
  //   dx = 2 / 2 / 4 * (4 dy - 1 + xc / 2) = 0.5, -0.5, 0, 0;
  //   grad_scale = sum(dy * n) = -1, grad_offset = 1.
  // feature 1: dy = 2, 0, 0, 0: sum(dy) = 2, sum(dy * xc) = -2,
  //   dx = 3 / 1 / 4 * (4 dy - 2 + 2 xc) = 3, 0, -3, 0;
  //   grad_scale = -2, grad_offset = 2.
  %dy = stablehlo.constant dense<[[1.0, 2.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]> : tensor<4x2xf32>
  %dx, %dscale, %doffset = "stablehlo.batch_norm_grad"(%x, %scale, %mean, %var, %dy) {epsilon = 0.0 : f32, feature_index = 1 : i64} : (tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>)
  %dx_e = stablehlo.constant dense<[[0.5, 3.0], [-0.5, 0.0], [0.0, -3.0], [0.0, 0.0]]> : tensor<4x2xf32>
  %dscale_e = stablehlo.constant dense<[-1.0, -2.0]> : tensor<2xf32>
  %doffset_e = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  stablehlo.custom_call @check.expect_close(%dx, %dx_e) {has_side_effect = true} : (tensor<4x2xf32>, tensor<4x2xf32>) -> ()
  stablehlo.custom_call @check.expect_close(%dscale, %dscale_e) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  stablehlo.custom_call @check.expect_close(%doffset, %doffset_e) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()

  // Inference, features along dimension 0, epsilon 1: variances 3 and 15
  // give standard deviations 2 and 4.
  //   row 0: 4 * (x - 1) / 2 + 0 for x = 1, 3, 5 -> 0, 4, 8
  //   row 1: 1 * (x - 2) / 4 - 1 for x = 2, 6, -2 -> -1, 0, -2
  %y = stablehlo.constant dense<[[1.0, 3.0, 5.0], [2.0, 6.0, -2.0]]> : tensor<2x3xf32>
  %s = stablehlo.constant dense<[4.0, 1.0]> : tensor<2xf32>
  %o = stablehlo.constant dense<[0.0, -1.0]> : tensor<2xf32>
  %m = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %v = stablehlo.constant dense<[3.0, 15.0]> : tensor<2xf32>
  %inf = "stablehlo.batch_norm_inference"(%y, %s, %o, %m, %v) {epsilon = 1.0 : f32, feature_index = 0 : i64} : (tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  %inf_e = stablehlo.constant dense<[[0.0, 4.0, 8.0], [-1.0, 0.0, -2.0]]> : tensor<2x3xf32>
  stablehlo.custom_call @check.expect_close(%inf, %inf_e) {has_side_effect = true} : (tensor<2x3xf32>, tensor<2x3xf32>) -> ()

  // The feature dimension in the middle of a rank-3 f64 operand
  // x[a][c][b]: feature 0 holds 1, 2, 3, 6 (mean 3, variance
  // (4 + 1 + 0 + 9) / 4 = 3.5), feature 1 holds 10, 10, 10, 14 (mean 11,
  // variance (1 + 1 + 1 + 9) / 4 = 3). With epsilon 1, scale 1 and offset
  // 0: feature 0 is xc / sqrt(4.5) (sqrt(4.5) = 2.1213203435596424),
  // feature 1 is xc / 2.
  %z = stablehlo.constant dense<[[[1.0, 2.0], [10.0, 10.0]], [[3.0, 6.0], [10.0, 14.0]]]> : tensor<2x2x2xf64>
  %one = stablehlo.constant dense<1.0> : tensor<2xf64>
  %zero = stablehlo.constant dense<0.0> : tensor<2xf64>
  %zout, %zmean, %zvar = "stablehlo.batch_norm_training"(%z, %one, %zero) {epsilon = 1.0 : f32, feature_index = 1 : i64} : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>) -> (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>)
  %zout_e = stablehlo.constant dense<[[[-0.9428090415820634, -0.4714045207910317], [-0.5, -0.5]], [[0.0, 1.414213562373095], [-0.5, 1.5]]]> : tensor<2x2x2xf64>
  %zstats = stablehlo.concatenate %zmean, %zvar, dim = 0 : (tensor<2xf64>, tensor<2xf64>) -> tensor<4xf64>
  %zstats_e = stablehlo.constant dense<[3.0, 11.0, 3.5, 3.0]> : tensor<4xf64>
  stablehlo.custom_call @check.expect_close(%zout, %zout_e) {has_side_effect = true} : (tensor<2x2x2xf64>, tensor<2x2x2xf64>) -> ()
  stablehlo.custom_call @check.expect_close(%zstats, %zstats_e) {has_side_effect = true} : (tensor<4xf64>, tensor<4xf64>) -> ()
  return
}
