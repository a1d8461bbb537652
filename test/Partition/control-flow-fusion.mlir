// A loop computed before a while whose only use is a slice inside the body
// is not fused into the body: its work would run once per iteration.
//
// RUN: toast-opt %s --partir-propagate --partir-materialize-core | FileCheck %s
// RUN: toast-opt %s --partir-propagate --partir-materialize-core -o %t.mlir
// RUN: toast-run --compare %s %t.mlir | FileCheck %s --check-prefix=SAME

module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @main(%x: tensor<8x4xf32> {partir.tiling = ["B:0"]}, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %w = stablehlo.exponential %x : tensor<8x4xf32>
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %c0, %h = %v) : tensor<i32>, tensor<8x4xf32>
     cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      %s = stablehlo.add %h, %w : tensor<8x4xf32>
      stablehlo.return %next, %s : tensor<i32>, tensor<8x4xf32>
    }
    return %r#1 : tensor<8x4xf32>
  }
}

// CHECK: %[[W:.*]] = partir.loop "B" [#partir.tile<0>]
// CHECK: stablehlo.exponential
// CHECK: stablehlo.while
// CHECK: } do {
// CHECK-NOT: stablehlo.exponential
// CHECK: partir.slice 0 %[[W]]
// CHECK-NOT: stablehlo.exponential
// CHECK: stablehlo.return

// SAME: results agree
