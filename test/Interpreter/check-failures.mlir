// Failing checks are reported at their location with the first differing
// element and both values; evaluation continues and toast-run exits 1.
// RUN: not toast-run %s 2>&1 | FileCheck %s

func.func @main() {
  %a = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %b = stablehlo.constant dense<[1, 2, 4, 5]> : tensor<4xi32>
  // CHECK: check-failures.mlir:[[@LINE+1]]:3: error: check failed: @check.expect_eq: 2 of 4 elements differ; first at index [2]: actual 3, expected 4
  stablehlo.custom_call @check.expect_eq(%a, %b) {has_side_effect = true} : (tensor<4xi32>, tensor<4xi32>) -> ()
  %x = stablehlo.constant dense<[[1.0, 2.0], [3.0, 0x7FC00000]]> : tensor<2x2xf32>
  %y = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  // CHECK: check-failures.mlir:[[@LINE+1]]:3: error: check failed: @check.expect_close: 1 of 4 elements differ; first at index [1, 1]: actual nan, expected 4 (atol 1.000000e-05, rtol 1.000000e-05)
  stablehlo.custom_call @check.expect_close(%x, %y) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
  %p = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf64>
  %q = stablehlo.constant dense<[1.0, 2.001]> : tensor<2xf64>
  // CHECK: check-failures.mlir:[[@LINE+1]]:3: error: check failed: @check.expect_almost_eq: 1 of 2 elements differ; first at index [1]: actual 2, expected 2.0009999999999999
  stablehlo.custom_call @check.expect_almost_eq(%p, %q) {has_side_effect = true} : (tensor<2xf64>, tensor<2xf64>) -> ()
  // The passing check after the failures still runs.
  stablehlo.custom_call @check.expect_eq(%a, %a) {has_side_effect = true} : (tensor<4xi32>, tensor<4xi32>) -> ()
  return
}
// CHECK: @main: 1 checks passed, 3 failed
