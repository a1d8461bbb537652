// PartIR:Core loops run sequentially: #tile concatenates, #sum adds, #any
// takes one copy (and checks that all iterations agree). A hand-written
// Core version of a program computes what the original computes.
// RUN: split-file %s %t
// RUN: toast-run --compare %t/original.mlir %t/core.mlir --seed 5 | FileCheck %s
// CHECK: comparing @main on random arguments (seed 5), atol 1.000000e-05, rtol 1.000000e-04
// CHECK-NEXT: result #0 tensor<8x6xf32>: max abs error {{.*}}: ok
// CHECK-NEXT: result #1 tensor<6xf32>: max abs error {{.*}}: ok
// CHECK-NEXT: result #2 tensor<4x6xf32>: max abs error 0.000e+00, max rel error 0.000e+00: ok
// CHECK-NEXT: results agree

// A wrong partitioned program is caught.
// RUN: not toast-run --compare %t/original.mlir %t/core-wrong.mlir --seed 5 | FileCheck %s --check-prefix=WRONG
// WRONG: result #1 tensor<6xf32>: max abs error {{.*}}: MISMATCH
// WRONG-NEXT: 6 of 6 elements outside the tolerance; first at [0]: partitioned {{.*}}, original {{.*}}
// WRONG: results differ

// An #any loop whose iterations disagree is an error.
// RUN: not toast-run %t/any-disagrees.mlir 2>&1 | FileCheck %s --check-prefix=ANY
// ANY: any-disagrees.mlir:4:10: error: toast-run: #partir.any loop result #0: iteration 1 yields 2 at index [0] but iteration 0 yields 0

// Signatures must match.
// RUN: not toast-run --compare %t/original.mlir %t/other-args.mlir 2>&1 | FileCheck %s --check-prefix=ARGS
// ARGS: error: toast-run: argument count mismatch: the original @main takes 2 arguments, the partitioned one 1
// RUN: not toast-run --compare %t/original.mlir %t/other-shapes.mlir 2>&1 | FileCheck %s --check-prefix=SHAPES
// SHAPES: error: toast-run: argument #1 has type 'tensor<4x3xf32>' in the partitioned program but 'tensor<4x6xf32>' in the original (both must take global shapes)

//--- original.mlir
func.func @main(%x: tensor<8x4xf32>, %w: tensor<4x6xf32>) -> (tensor<8x6xf32>, tensor<6xf32>, tensor<4x6xf32>) {
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%y init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<8x6xf32>, tensor<f32>) -> tensor<6xf32>
  return %y, %r, %w : tensor<8x6xf32>, tensor<6xf32>, tensor<4x6xf32>
}
//--- core.mlir
// Batch-parallel on B, model-parallel (contraction split, #sum) on M.
module attributes {partir.mesh = #partir.mesh<["B"=2, "M"=2]>} {
  func.func @main(%x: tensor<8x4xf32>, %w: tensor<4x6xf32>) -> (tensor<8x6xf32>, tensor<6xf32>, tensor<4x6xf32>) {
    %y = partir.loop "B" [#partir.tile<0>] (%b: !partir.range<2>) {
      %xb = partir.slice 0 %x[%b] : tensor<8x4xf32> -> tensor<4x4xf32>
      %yb = partir.loop "M" [#partir.sum] (%m: !partir.range<2>) {
        %xm = partir.slice 1 %xb[%m] : tensor<4x4xf32> -> tensor<4x2xf32>
        %wm = partir.slice 0 %w[%m] : tensor<4x6xf32> -> tensor<2x6xf32>
        %p = stablehlo.dot_general %xm, %wm, contracting_dims = [1] x [0] : (tensor<4x2xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
        partir.yield %p : tensor<4x6xf32>
      } : tensor<4x6xf32>
      partir.yield %yb : tensor<4x6xf32>
    } : tensor<8x6xf32>
    %r = partir.loop "B" [#partir.sum] (%b: !partir.range<2>) {
      %yb = partir.slice 0 %y[%b] : tensor<8x6xf32> -> tensor<4x6xf32>
      %zero = stablehlo.constant dense<0.0> : tensor<f32>
      %rb = stablehlo.reduce(%yb init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32>
      partir.yield %rb : tensor<6xf32>
    } : tensor<6xf32>
    %wr = partir.loop "M" [#partir.any] (%m: !partir.range<2>) {
      %t = partir.tag "weights" %w : tensor<4x6xf32>
      partir.yield %t : tensor<4x6xf32>
    } : tensor<4x6xf32>
    return %y, %r, %wr : tensor<8x6xf32>, tensor<6xf32>, tensor<4x6xf32>
  }
}
//--- core-wrong.mlir
// The row sum reads only the first half of the rows.
module attributes {partir.mesh = #partir.mesh<["B"=2]>} {
  func.func @main(%x: tensor<8x4xf32>, %w: tensor<4x6xf32>) -> (tensor<8x6xf32>, tensor<6xf32>, tensor<4x6xf32>) {
    %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
    %r = partir.loop "B" [#partir.sum] (%b: !partir.range<2>) {
      %yb = stablehlo.slice %y [0:4, 0:6] : (tensor<8x6xf32>) -> tensor<4x6xf32>
      %zero = stablehlo.constant dense<0.0> : tensor<f32>
      %rb = stablehlo.reduce(%yb init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32>
      partir.yield %rb : tensor<6xf32>
    } : tensor<6xf32>
    return %y, %r, %w : tensor<8x6xf32>, tensor<6xf32>, tensor<4x6xf32>
  }
}
//--- any-disagrees.mlir
module attributes {partir.mesh = #partir.mesh<["B"=2]>} {
  func.func @main() -> tensor<2xi32> {
    %v = stablehlo.iota dim = 0 : tensor<4xi32>
    %r = partir.loop "B" [#partir.any] (%b: !partir.range<2>) {
      %s = partir.slice 0 %v[%b] : tensor<4xi32> -> tensor<2xi32>
      partir.yield %s : tensor<2xi32>
    } : tensor<2xi32>
    return %r : tensor<2xi32>
  }
}
//--- other-args.mlir
func.func @main(%x: tensor<8x4xf32>) -> (tensor<8x6xf32>, tensor<6xf32>, tensor<4x6xf32>) {
  %c = stablehlo.constant dense<0.0> : tensor<4x6xf32>
  %y = stablehlo.dot_general %x, %c, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %z = stablehlo.constant dense<0.0> : tensor<6xf32>
  return %y, %z, %c : tensor<8x6xf32>, tensor<6xf32>, tensor<4x6xf32>
}
//--- other-shapes.mlir
func.func @main(%x: tensor<8x4xf32>, %w: tensor<4x3xf32>) -> (tensor<8x6xf32>, tensor<6xf32>, tensor<4x6xf32>) {
  %c = stablehlo.constant dense<0.0> : tensor<8x6xf32>
  %z = stablehlo.constant dense<0.0> : tensor<6xf32>
  %w2 = stablehlo.concatenate %w, %w, dim = 1 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x6xf32>
  return %c, %z, %w2 : tensor<8x6xf32>, tensor<6xf32>, tensor<4x6xf32>
}
