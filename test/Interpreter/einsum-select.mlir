// einsum, unary_einsum, broadcast, get_dimension_size and
// torch_index_select; the expected values are worked out by hand in the
// comments.
// RUN: toast-run %s | FileCheck %s

// CHECK: @main: 21 checks passed, 0 failed
func.func @main() {
  %a = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = stablehlo.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>
  // a @ b = [[1 + 3, 2 + 3], [4 + 6, 5 + 6]].
  %0 = stablehlo.einsum %a, %b, config = "ab,bc->ac" : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %e0 = stablehlo.constant dense<[[4.0, 5.0], [10.0, 11.0]]> : tensor<2x2xf32>
  stablehlo.custom_call @check.expect_eq(%0, %e0) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
  // The same, transposed by the result term.
  %1 = stablehlo.einsum %a, %b, config = "ab,bc->ca" : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %e1 = stablehlo.constant dense<[[4.0, 10.0], [5.0, 11.0]]> : tensor<2x2xf32>
  stablehlo.custom_call @check.expect_eq(%1, %e1) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
  // Batched: [1, 2] . [5, 6] = 17 and [3, 4] . [7, 8] = 53.
  %q = stablehlo.constant dense<[[[1.0, 2.0]], [[3.0, 4.0]]]> : tensor<2x1x2xf32>
  %k = stablehlo.constant dense<[[[5.0], [6.0]], [[7.0], [8.0]]]> : tensor<2x2x1xf32>
  %2 = stablehlo.einsum %q, %k, config = "bij,bjk->bik" : (tensor<2x1x2xf32>, tensor<2x2x1xf32>) -> tensor<2x1x1xf32>
  %e2 = stablehlo.constant dense<[[[17.0]], [[53.0]]]> : tensor<2x1x1xf32>
  stablehlo.custom_call @check.expect_eq(%2, %e2) {has_side_effect = true} : (tensor<2x1x1xf32>, tensor<2x1x1xf32>) -> ()
  // `...` keeps the rows: sums of squares 1 + 4 + 9 and 16 + 25 + 36.
  %3 = stablehlo.einsum %a, %a, config = "...i,...i->..." : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2xf32>
  %e3 = stablehlo.constant dense<[14.0, 77.0]> : tensor<2xf32>
  stablehlo.custom_call @check.expect_eq(%3, %e3) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  // Outer product.
  %v = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %w = stablehlo.constant dense<[3.0, 4.0, 5.0]> : tensor<3xf32>
  %4 = stablehlo.einsum %v, %w, config = "a,b->ab" : (tensor<2xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %e4 = stablehlo.constant dense<[[3.0, 4.0, 5.0], [6.0, 8.0, 10.0]]> : tensor<2x3xf32>
  stablehlo.custom_call @check.expect_eq(%4, %e4) {has_side_effect = true} : (tensor<2x3xf32>, tensor<2x3xf32>) -> ()
  // A scalar operand times the row sums: 2 * 6, 2 * 15.
  %two = stablehlo.constant dense<2.0> : tensor<f32>
  %5 = stablehlo.einsum %two, %a, config = ",ab->a" : (tensor<f32>, tensor<2x3xf32>) -> tensor<2xf32>
  %e5 = stablehlo.constant dense<[12.0, 30.0]> : tensor<2xf32>
  stablehlo.custom_call @check.expect_eq(%5, %e5) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  // A diagonal of the left operand: [1 * 10, 4 * 20].
  %s = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %t = stablehlo.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %6 = stablehlo.einsum %s, %t, config = "aa,a->a" : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %e6 = stablehlo.constant dense<[10.0, 80.0]> : tensor<2xf32>
  stablehlo.custom_call @check.expect_eq(%6, %e6) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  // i8 operands, i32 result: [[1, 2], [3, 4]] @ [[5, 6], [7, 8]].
  %i = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>
  %j = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi8>
  %7 = stablehlo.einsum %i, %j, config = "ab,bc->ac" : (tensor<2x2xi8>, tensor<2x2xi8>) -> tensor<2x2xi32>
  %e7 = stablehlo.constant dense<[[19, 22], [43, 50]]> : tensor<2x2xi32>
  stablehlo.custom_call @check.expect_eq(%7, %e7) {has_side_effect = true} : (tensor<2x2xi32>, tensor<2x2xi32>) -> ()

  // unary_einsum: row sums, transpose, full sum, trace and diagonal.
  %8 = stablehlo.unary_einsum %a, config = "ab->a" : (tensor<2x3xf32>) -> tensor<2xf32>
  %e8 = stablehlo.constant dense<[6.0, 15.0]> : tensor<2xf32>
  stablehlo.custom_call @check.expect_eq(%8, %e8) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  %9 = stablehlo.unary_einsum %a, config = "ab->ba" : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %e9 = stablehlo.constant dense<[[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]> : tensor<3x2xf32>
  stablehlo.custom_call @check.expect_eq(%9, %e9) {has_side_effect = true} : (tensor<3x2xf32>, tensor<3x2xf32>) -> ()
  %10 = stablehlo.unary_einsum %a, config = "ab->" : (tensor<2x3xf32>) -> tensor<f32>
  %e10 = stablehlo.constant dense<21.0> : tensor<f32>
  stablehlo.custom_call @check.expect_eq(%10, %e10) {has_side_effect = true} : (tensor<f32>, tensor<f32>) -> ()
  %11 = stablehlo.unary_einsum %i, config = "ii->" : (tensor<2x2xi8>) -> tensor<i8>
  %e11 = stablehlo.constant dense<5> : tensor<i8>
  stablehlo.custom_call @check.expect_eq(%11, %e11) {has_side_effect = true} : (tensor<i8>, tensor<i8>) -> ()
  %12 = stablehlo.unary_einsum %i, config = "ii->i" : (tensor<2x2xi8>) -> tensor<2xi8>
  %e12 = stablehlo.constant dense<[1, 4]> : tensor<2xi8>
  stablehlo.custom_call @check.expect_eq(%12, %e12) {has_side_effect = true} : (tensor<2xi8>, tensor<2xi8>) -> ()

  // broadcast repeats the operand along new leading dimensions.
  %13 = stablehlo.broadcast %v, sizes = [3] : (tensor<2xf32>) -> tensor<3x2xf32>
  %e13 = stablehlo.constant dense<[[1.0, 2.0], [1.0, 2.0], [1.0, 2.0]]> : tensor<3x2xf32>
  stablehlo.custom_call @check.expect_eq(%13, %e13) {has_side_effect = true} : (tensor<3x2xf32>, tensor<3x2xf32>) -> ()
  %seven = stablehlo.constant dense<7> : tensor<i32>
  %14 = stablehlo.broadcast %seven, sizes = [2, 2] : (tensor<i32>) -> tensor<2x2xi32>
  %e14 = stablehlo.constant dense<7> : tensor<2x2xi32>
  stablehlo.custom_call @check.expect_eq(%14, %e14) {has_side_effect = true} : (tensor<2x2xi32>, tensor<2x2xi32>) -> ()

  // get_dimension_size of a 2x3 tensor.
  %15 = stablehlo.get_dimension_size %a, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>
  %e15 = stablehlo.constant dense<3> : tensor<i32>
  stablehlo.custom_call @check.expect_eq(%15, %e15) {has_side_effect = true} : (tensor<i32>, tensor<i32>) -> ()
  %16 = stablehlo.get_dimension_size %a, dim = 0 : (tensor<2x3xf32>) -> tensor<i32>
  %e16 = stablehlo.constant dense<2> : tensor<i32>
  stablehlo.custom_call @check.expect_eq(%16, %e16) {has_side_effect = true} : (tensor<i32>, tensor<i32>) -> ()

  // torch_index_select of columns 2, 0, 5, -1 of a; out-of-range indices
  // clamp to 2 and 0.
  %cols = stablehlo.constant dense<[2, 0, 5, -1]> : tensor<4xi32>
  %17 = "stablehlo.torch_index_select"(%a, %cols) {batch_dims = 0 : i64, dim = 1 : i64} : (tensor<2x3xf32>, tensor<4xi32>) -> tensor<2x4xf32>
  %e17 = stablehlo.constant dense<[[3.0, 1.0, 3.0, 1.0], [6.0, 4.0, 6.0, 4.0]]> : tensor<2x4xf32>
  stablehlo.custom_call @check.expect_eq(%17, %e17) {has_side_effect = true} : (tensor<2x4xf32>, tensor<2x4xf32>) -> ()
  // Rows 1, 1, 0.
  %rows = stablehlo.constant dense<[1, 1, 0]> : tensor<3xi64>
  %18 = "stablehlo.torch_index_select"(%a, %rows) {batch_dims = 0 : i64, dim = 0 : i64} : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<3x3xf32>
  %e18 = stablehlo.constant dense<[[4.0, 5.0, 6.0], [4.0, 5.0, 6.0], [1.0, 2.0, 3.0]]> : tensor<3x3xf32>
  stablehlo.custom_call @check.expect_eq(%18, %e18) {has_side_effect = true} : (tensor<3x3xf32>, tensor<3x3xf32>) -> ()
  // One batch dimension: row b selects a[b][index[b][j]]:
  // row 0 picks columns 2, 1 (3, 2), row 1 columns 0, 0 (4, 4).
  %per_row = stablehlo.constant dense<[[2, 1], [0, 0]]> : tensor<2x2xui32>
  %19 = "stablehlo.torch_index_select"(%a, %per_row) {batch_dims = 1 : i64, dim = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xui32>) -> tensor<2x2xf32>
  %e19 = stablehlo.constant dense<[[3.0, 2.0], [4.0, 4.0]]> : tensor<2x2xf32>
  stablehlo.custom_call @check.expect_eq(%19, %e19) {has_side_effect = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
  // A 2-D index in the middle of a rank-3 operand: the result is
  // x[:1] ++ index ++ x[2:], x[i][index[j][k]][l].
  %x = stablehlo.constant dense<[[[1, 2], [3, 4], [5, 6]]]> : tensor<1x3x2xi32>
  %grid = stablehlo.constant dense<[[2, 0]]> : tensor<1x2xi32>
  %20 = "stablehlo.torch_index_select"(%x, %grid) {batch_dims = 0 : i64, dim = 1 : i64} : (tensor<1x3x2xi32>, tensor<1x2xi32>) -> tensor<1x1x2x2xi32>
  %e20 = stablehlo.constant dense<[[[[5, 6], [1, 2]]]]> : tensor<1x1x2x2xi32>
  stablehlo.custom_call @check.expect_eq(%20, %e20) {has_side_effect = true} : (tensor<1x1x2x2xi32>, tensor<1x1x2x2xi32>) -> ()
  return
}
