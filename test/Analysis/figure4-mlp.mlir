// TOAST figure 4: the two-layer MLP gets exactly the four colors of
// figure 4c: x:[B,X], w1:[X,U], w2:[U,W], y,z:[B,U], w:[B,W].
// RUN: toast-opt %s --toast-test-nda-colors | FileCheck %s
// RUN: toast-opt %s --toast-nda=json=- -o /dev/null | FileCheck %s --check-prefix=JSON

// CHECK: module attributes {nda.num_bits = 0 : i64, nda.num_colors = 4 : i64, nda.num_conflicts = 0 : i64, nda.num_sets = 0 : i64}
// CHECK: func.func @mlp(%arg0: tensor<256x8xf32> {nda.colors = "[[B:c[0-9]+]],[[X:c[0-9]+]]"}, %arg1: tensor<8x16xf32> {nda.colors = "[[X]],[[U:c[0-9]+]]"}, %arg2: tensor<16x4xf32> {nda.colors = "[[U]],[[W:c[0-9]+]]"})
// CHECK: stablehlo.dot_general {{.*}}nda.colors = ["[[B]],[[U]]"]
// CHECK: stablehlo.constant {{.*}}nda.colors = ["[[B]],[[U]]"]
// CHECK: stablehlo.maximum {{.*}}nda.colors = ["[[B]],[[U]]"]
// CHECK: stablehlo.dot_general {{.*}}nda.colors = ["[[B]],[[W]]"]

// JSON: "num_colors": 4,
// JSON: "num_conflicts": 0,
// JSON: "num_compatibility_sets": 0,
// JSON: "num_resolution_bits": 0,
module {
  func.func @mlp(%x: tensor<256x8xf32>, %w1: tensor<8x16xf32>, %w2: tensor<16x4xf32>) -> tensor<256x4xf32> {
    %y = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<256x8xf32>, tensor<8x16xf32>) -> tensor<256x16xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<256x16xf32>
    %z = stablehlo.maximum %y, %zero : tensor<256x16xf32>
    %w = stablehlo.dot_general %z, %w2, contracting_dims = [1] x [0] : (tensor<256x16xf32>, tensor<16x4xf32>) -> tensor<256x4xf32>
    return %w : tensor<256x4xf32>
  }
}
