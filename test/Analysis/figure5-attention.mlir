// TOAST figure 5: simplified attention with the mock softmax (averaging:
// a reduce and a pointwise division). Colors S, D, H1, H2 (figure 5a);
// exactly five conflicts (figure 5d) in one compatibility set with two
// resolutions, hence one resolution bit.
// RUN: toast-opt %s --toast-test-nda-colors | FileCheck %s
// RUN: toast-opt %s --toast-nda="json=%t.json dot=%t.dot" -o /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=DOT < %t.dot
// RUN: %python %S/Inputs/check_nda_json.py %t.json --conflicts 5 --sets 1 --bits 1 --colors 4

// CHECK: module attributes {nda.num_bits = 1 : i64, nda.num_colors = 4 : i64, nda.num_conflicts = 5 : i64, nda.num_sets = 1 : i64}
// CHECK: func.func @attn(%arg0: tensor<8x4xf32> {nda.colors = "[[S:c[0-9]+]],[[D:c[0-9]+]]"}, %arg1: tensor<4x6xf32> {nda.colors = "[[D]],[[H1:c[0-9]+]]"}, %arg2: tensor<4x6xf32> {nda.colors = "[[D]],[[H1]]"}, %arg3: tensor<4x5xf32> {nda.colors = "[[D]],[[H2:c[0-9]+]]"})
// CHECK: %[[K:.*]] = stablehlo.dot_general {{.*}}nda.colors = ["[[S]],[[H1]]"]
// CHECK: stablehlo.dot_general {{.*}}nda.colors = ["[[S]],[[H2]]"]
// CHECK: stablehlo.dot_general {{.*}}nda.colors = ["[[S]],[[H1]]"]
// CHECK: stablehlo.transpose {{.*}}nda.colors = ["[[H1]],[[S]]"]
// a : [S, S] -- the conflict
// CHECK: stablehlo.dot_general {{.*}}nda.colors = ["[[S]],[[S]]"]
// CHECK: stablehlo.reduce{{.*}}nda.colors = ["[[S]]"]
// CHECK: stablehlo.broadcast_in_dim {{.*}}nda.colors = ["[[S]],[[S]]"]
// CHECK: stablehlo.divide {{.*}}nda.colors = ["[[S]],[[S]]"]
// CHECK: stablehlo.dot_general {{.*}}nda.colors = ["[[S]],[[H2]]"]

// JSON: "num_colors": 4,
// JSON: "num_conflicts": 5,
// JSON: "num_compatibility_sets": 1,
// JSON: "num_resolution_bits": 1,
// JSON: "compatibility_sets": [
// JSON-NEXT: {
// JSON-NEXT: "id": 0,
// JSON-NEXT: "bit": 0,
// JSON-NEXT: "consistent": true,
// JSON-NEXT: "num_resolutions": 2,

// DOT: digraph nda {
// DOT-COUNT-5: [dir=none, color=red, penwidth=2, label="s0", fontcolor=red];
// DOT-NEXT: }
module {
  func.func @attn(%x: tensor<8x4xf32>, %wq: tensor<4x6xf32>, %wk: tensor<4x6xf32>, %wv: tensor<4x5xf32>) -> tensor<8x5xf32> {
    %k = stablehlo.dot_general %x, %wk, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
    %v = stablehlo.dot_general %x, %wv, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x5xf32>) -> tensor<8x5xf32>
    %q = stablehlo.dot_general %x, %wq, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
    %qt = stablehlo.transpose %q, dims = [1, 0] : (tensor<8x6xf32>) -> tensor<6x8xf32>
    %a = stablehlo.dot_general %k, %qt, contracting_dims = [1] x [0] : (tensor<8x6xf32>, tensor<6x8xf32>) -> tensor<8x8xf32>
    // begin: mock softmax (averaging)
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %b = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %c = stablehlo.broadcast_in_dim %b, dims = [0] : (tensor<8xf32>) -> tensor<8x8xf32>
    %d = stablehlo.divide %a, %c : tensor<8x8xf32>
    // end: mock softmax
    %z = stablehlo.dot_general %d, %v, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x5xf32>) -> tensor<8x5xf32>
    return %z : tensor<8x5xf32>
  }
}
