// TOAST sections 2.2 / 3.3: f(x) = matmul(x, transpose(x)) has one
// conflict: z : [S, S].
// RUN: toast-opt %s --toast-test-nda-colors | FileCheck %s
// RUN: toast-opt %s --toast-nda=json=%t.json -o /dev/null
// RUN: %python %S/Inputs/check_nda_json.py %t.json --conflicts 1 --sets 1 --bits 1 --colors 2

// CHECK: nda.num_bits = 1 : i64, nda.num_colors = 2 : i64, nda.num_conflicts = 1 : i64, nda.num_sets = 1 : i64
// CHECK: func.func @f(%arg0: tensor<32x4xf32> {nda.colors = "[[S:c[0-9]+]],[[T:c[0-9]+]]"})
// CHECK: stablehlo.transpose {{.*}}nda.colors = ["[[T]],[[S]]"]
// CHECK: stablehlo.dot_general {{.*}}nda.colors = ["[[S]],[[S]]"]
module {
  func.func @f(%x: tensor<32x4xf32>) -> tensor<32x32xf32> {
    %y = stablehlo.transpose %x, dims = [1, 0] : (tensor<32x4xf32>) -> tensor<4x32xf32>
    %z = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<32x4xf32>, tensor<4x32xf32>) -> tensor<32x32xf32>
    return %z : tensor<32x32xf32>
  }
}
