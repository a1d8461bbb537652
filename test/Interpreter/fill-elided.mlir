// Exports with elided weights (dense_resource<__elided__>) cannot run as
// they are; with --fill-elided they run on random values drawn from each
// constant's type and the seed, equal for equal types, so the original and
// a partitioned program compare on the same weights.
// RUN: not toast-run %s 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: toast-run %s --fill-elided --seed 3 | FileCheck %s
// RUN: toast-opt %s --toast-auto-partition="mesh=B=2 device=a100 seed=1 min-dims=1 progress=false" --partir-lower-to-hlo -o %t.hlo.mlir
// RUN: toast-run --compare %s %t.hlo.mlir --fill-elided --seed 3 | FileCheck %s --check-prefix=COMPARE

// ERR: error: toast-run: elided constant (dense_resource '__elided__' has no data); cannot evaluate (--fill-elided draws random values)
// Two elided constants of one type are equal: their difference is zero.
// CHECK: result #1: tensor<8x8xf32> [0, 0, 0, 0,
// COMPARE: result #0 tensor<16x8xf32>: {{.*}}: ok
module {
  func.func @main(%x: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<8x8xf32>) {
    %w = stablehlo.constant dense_resource<__elided__> : tensor<8x8xf32>
    %v = stablehlo.constant dense_resource<__elided__> : tensor<8x8xf32>
    %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<16x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
    %t = stablehlo.tanh %y : tensor<16x8xf32>
    %d = stablehlo.subtract %w, %v : tensor<8x8xf32>
    return %t, %d : tensor<16x8xf32>, tensor<8x8xf32>
  }
}
