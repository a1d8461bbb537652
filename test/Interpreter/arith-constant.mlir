// torch-mlir exports write some tensor constants with `arith.constant`
// (DETR's attention scale and layer-norm epsilon): toast-run reads and
// evaluates them like stablehlo.constant, in the original and in a program
// partitioned on two devices.
// RUN: toast-run %s | FileCheck %s
// RUN: toast-opt %s --toast-auto-partition="mesh=B=2 device=a100 seed=1 min-dims=1 progress=false" --partir-lower-to-hlo -o %t.hlo.mlir
// RUN: toast-run --compare %s %t.hlo.mlir --seed 2 | FileCheck %s --check-prefix=COMPARE

// CHECK: @main: 1 checks passed, 0 failed
// COMPARE: result #0 tensor<8x4xf64>: {{.*}}: ok
func.func @main(%x: tensor<8x4xf64>) -> tensor<8x4xf64> {
  %scale = arith.constant dense<0.17677669529663689> : tensor<1xf64>
  %s = stablehlo.reshape %scale : (tensor<1xf64>) -> tensor<f64>
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f64>) -> tensor<8x4xf64>
  %y = stablehlo.multiply %x, %b : tensor<8x4xf64>
  %eps = arith.constant dense<[1.0e-05, 2.0e-05]> : tensor<2xf64>
  %two = stablehlo.constant dense<[1.0e-05, 2.0e-05]> : tensor<2xf64>
  stablehlo.custom_call @check.expect_eq(%eps, %two) {has_side_effect = true} : (tensor<2xf64>, tensor<2xf64>) -> ()
  return %y : tensor<8x4xf64>
}
