// Passing checks of every kind: toast-run exits 0 and prints the counts.
// RUN: toast-run %s | FileCheck %s
// RUN: toast-run %s --entry tolerances | FileCheck %s --check-prefix=TOL

// CHECK: @main: 4 checks passed, 0 failed
func.func @main() -> tensor<4xf32> {
  %x = stablehlo.constant dense<[1.0, -2.5, 0x7FC00000, 0x7F800000]> : tensor<4xf32>
  %y = stablehlo.constant dense<[1.0, -2.5, 0x7FC00000, 0x7F800000]> : tensor<4xf32>
  %s = stablehlo.add %x, %y : tensor<4xf32>
  %e = stablehlo.constant dense<[2.0, -5.0, 0x7FC00000, 0x7F800000]> : tensor<4xf32>
  // NaN matches NaN, infinities match exactly.
  stablehlo.custom_call @check.expect_eq(%s, %e) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
  stablehlo.custom_call @check.expect_close(%s, %e) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
  stablehlo.custom_call @check.expect_almost_eq(%s, %e) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()
  %i = stablehlo.constant dense<[127, -128]> : tensor<2xi8>
  %one = stablehlo.constant dense<1> : tensor<2xi8>
  %w = stablehlo.add %i, %one : tensor<2xi8>
  %we = stablehlo.constant dense<[-128, -127]> : tensor<2xi8>
  stablehlo.custom_call @check.expect_eq(%w, %we) {has_side_effect = true} : (tensor<2xi8>, tensor<2xi8>) -> ()
  return %s : tensor<4xf32>
}

// The tolerances: expect_close allows 1e-5 for f32, expect_almost_eq 1e-4,
// and 2 ulp / 1e-2 for bf16.
// TOL: @tolerances: 3 checks passed, 0 failed
func.func @tolerances() {
  %a = stablehlo.constant dense<[1.0, 100.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[1.000009, 100.0009]> : tensor<2xf32>
  stablehlo.custom_call @check.expect_close(%a, %b) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  %c = stablehlo.constant dense<[1.00009, 100.009]> : tensor<2xf32>
  stablehlo.custom_call @check.expect_almost_eq(%a, %c) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  %h = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xbf16>
  %k = stablehlo.constant dense<[1.0078125, 2.015625]> : tensor<2xbf16>
  stablehlo.custom_call @check.expect_close(%h, %k) {has_side_effect = true} : (tensor<2xbf16>, tensor<2xbf16>) -> ()
  return
}

// JAX's sharding annotations are identities in the global program.
// RUN: toast-run %s --entry annotations | FileCheck %s --check-prefix=ANNOT
// ANNOT: @annotations: 1 checks passed, 0 failed
func.func @annotations() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %s = stablehlo.custom_call @Sharding(%a) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<2xf32>) -> tensor<2xf32>
  %h = stablehlo.custom_call @MoveToHost(%s) : (tensor<2xf32>) -> tensor<2xf32>
  %d = stablehlo.custom_call @MoveToDevice(%h) : (tensor<2xf32>) -> tensor<2xf32>
  stablehlo.custom_call @check.expect_eq(%d, %a) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  return
}
