// Tuples and tokens are values: built, taken apart, nested, passed through
// calls and loops, returned and taken as arguments (JAX threads a token
// through programs with ordered effects).
// RUN: toast-run %s --print-results | FileCheck %s
// RUN: toast-run %s --entry effects | FileCheck %s --check-prefix=EFFECTS

// CHECK: result #0: tuple(tensor<2xf32> [1.5, -2], tuple(tensor<i32> [7], !stablehlo.token))
// CHECK: @main: 4 checks passed, 0 failed
func.func @main() -> tuple<tensor<2xf32>, tuple<tensor<i32>, !stablehlo.token>> {
  %a = stablehlo.constant dense<[1.5, -2.0]> : tensor<2xf32>
  %i = stablehlo.constant dense<7> : tensor<i32>
  %t = stablehlo.create_token : !stablehlo.token
  %inner = stablehlo.tuple %i, %t : tuple<tensor<i32>, !stablehlo.token>
  %outer = stablehlo.tuple %a, %inner : tuple<tensor<2xf32>, tuple<tensor<i32>, !stablehlo.token>>
  // The round trip: the elements come back unchanged.
  %a2 = stablehlo.get_tuple_element %outer[0] : (tuple<tensor<2xf32>, tuple<tensor<i32>, !stablehlo.token>>) -> tensor<2xf32>
  stablehlo.custom_call @check.expect_eq(%a2, %a) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  %inner2 = stablehlo.get_tuple_element %outer[1] : (tuple<tensor<2xf32>, tuple<tensor<i32>, !stablehlo.token>>) -> tuple<tensor<i32>, !stablehlo.token>
  %i2 = stablehlo.get_tuple_element %inner2[0] : (tuple<tensor<i32>, !stablehlo.token>) -> tensor<i32>
  stablehlo.custom_call @check.expect_eq(%i2, %i) {has_side_effect = true} : (tensor<i32>, tensor<i32>) -> ()
  // Through a call: swap(a, i) = (i, a).
  %s = func.call @swap(%outer) : (tuple<tensor<2xf32>, tuple<tensor<i32>, !stablehlo.token>>) -> tuple<tensor<i32>, tensor<2xf32>>
  %s0 = stablehlo.get_tuple_element %s[0] : (tuple<tensor<i32>, tensor<2xf32>>) -> tensor<i32>
  stablehlo.custom_call @check.expect_eq(%s0, %i) {has_side_effect = true} : (tensor<i32>, tensor<i32>) -> ()
  // Through a loop carrying a tuple and a token: three times
  // (a, n) -> (a + a, n + 1) from ([1.5, -2], 0) gives [12, -16].
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %start = stablehlo.tuple %a, %zero : tuple<tensor<2xf32>, tensor<i32>>
  %loop:2 = stablehlo.while(%c = %start, %tk = %t) : tuple<tensor<2xf32>, tensor<i32>>, !stablehlo.token
   cond {
    %n = stablehlo.get_tuple_element %c[1] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i32>
    %p = stablehlo.compare LT, %n, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %v = stablehlo.get_tuple_element %c[0] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
    %n = stablehlo.get_tuple_element %c[1] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %v2 = stablehlo.add %v, %v : tensor<2xf32>
    %n2 = stablehlo.add %n, %one : tensor<i32>
    %next = stablehlo.tuple %v2, %n2 : tuple<tensor<2xf32>, tensor<i32>>
    %tk2 = stablehlo.after_all %tk : !stablehlo.token
    stablehlo.return %next, %tk2 : tuple<tensor<2xf32>, tensor<i32>>, !stablehlo.token
  }
  %final = stablehlo.get_tuple_element %loop#0[0] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
  %expected = stablehlo.constant dense<[12.0, -16.0]> : tensor<2xf32>
  stablehlo.custom_call @check.expect_eq(%final, %expected) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  return %outer : tuple<tensor<2xf32>, tuple<tensor<i32>, !stablehlo.token>>
}

func.func private @swap(%p: tuple<tensor<2xf32>, tuple<tensor<i32>, !stablehlo.token>>) -> tuple<tensor<i32>, tensor<2xf32>> {
  %a = stablehlo.get_tuple_element %p[0] : (tuple<tensor<2xf32>, tuple<tensor<i32>, !stablehlo.token>>) -> tensor<2xf32>
  %inner = stablehlo.get_tuple_element %p[1] : (tuple<tensor<2xf32>, tuple<tensor<i32>, !stablehlo.token>>) -> tuple<tensor<i32>, !stablehlo.token>
  %i = stablehlo.get_tuple_element %inner[0] : (tuple<tensor<i32>, !stablehlo.token>) -> tensor<i32>
  %r = stablehlo.tuple %i, %a : tuple<tensor<i32>, tensor<2xf32>>
  return %r : tuple<tensor<i32>, tensor<2xf32>>
}

// A function in the form of a JAX export with ordered effects: a token
// argument and result around the computation. Arguments are random; the
// token passes through after_all.
// EFFECTS: @effects ran on random arguments (seed 0)
// EFFECTS-NEXT: result #0: !stablehlo.token
// EFFECTS-NEXT: result #1: tensor<2xf32>
// EFFECTS-NEXT: result #2: tuple(tensor<i32> [{{-?[0-9]+}}], !stablehlo.token)
// EFFECTS: @effects: 1 checks passed, 0 failed
func.func @effects(%t: !stablehlo.token, %x: tensor<2xf32>, %p: tuple<tensor<i32>, !stablehlo.token>) -> (!stablehlo.token, tensor<2xf32>, tuple<tensor<i32>, !stablehlo.token>) {
  %t2 = stablehlo.after_all %t : !stablehlo.token
  %y = stablehlo.multiply %x, %x : tensor<2xf32>
  %pt = stablehlo.get_tuple_element %p[1] : (tuple<tensor<i32>, !stablehlo.token>) -> !stablehlo.token
  %t3 = stablehlo.after_all %t2, %pt : !stablehlo.token
  %sq = stablehlo.multiply %x, %x : tensor<2xf32>
  stablehlo.custom_call @check.expect_eq(%y, %sq) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  return %t3, %y, %p : !stablehlo.token, tensor<2xf32>, tuple<tensor<i32>, !stablehlo.token>
}
