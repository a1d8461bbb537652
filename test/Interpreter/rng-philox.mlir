// stablehlo.rng_bit_generator with PHILOX (and DEFAULT, which XLA's CPU
// and GPU backends expand to PHILOX) against the Philox4x32-10 known-answer
// vectors of Random123 (Salmon et al., SC'11). The state is [key, counter
// low, counter high] (u64); 32-bit outputs are the four words of block 0.
// RUN: toast-run %s | FileCheck %s
// CHECK: @main: 9 checks passed, 0 failed

func.func @main() {
  // key = (0, 0), counter = (0, 0, 0, 0).
  %s0 = stablehlo.constant dense<[0, 0, 0]> : tensor<3xui64>
  %n0, %b0 = stablehlo.rng_bit_generator %s0, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  %e0 = stablehlo.constant dense<[1713891541, 3781805453, 3159862348, 2600524760]> : tensor<4xui32>
  stablehlo.custom_call @check.expect_eq(%b0, %e0) {has_side_effect = true} : (tensor<4xui32>, tensor<4xui32>) -> ()
  %m0 = stablehlo.constant dense<[0, 1, 0]> : tensor<3xui64>
  stablehlo.custom_call @check.expect_eq(%n0, %m0) {has_side_effect = true} : (tensor<3xui64>, tensor<3xui64>) -> ()

  // key = (ffffffff, ffffffff), counter = (ffffffff x 4): the counter
  // wraps around to 0.
  %s1 = stablehlo.constant dense<[18446744073709551615, 18446744073709551615, 18446744073709551615]> : tensor<3xui64>
  %n1, %b1 = stablehlo.rng_bit_generator %s1, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  %e1 = stablehlo.constant dense<[1083123565, 1103641358, 2718681030, 1834242557]> : tensor<4xui32>
  stablehlo.custom_call @check.expect_eq(%b1, %e1) {has_side_effect = true} : (tensor<4xui32>, tensor<4xui32>) -> ()
  %m1 = stablehlo.constant dense<[18446744073709551615, 0, 0]> : tensor<3xui64>
  stablehlo.custom_call @check.expect_eq(%n1, %m1) {has_side_effect = true} : (tensor<3xui64>, tensor<3xui64>) -> ()

  // key = (a4093822, 299f31d0), counter = (243f6a88, 85a308d3, 13198a2e,
  // 03707344) (the digits of pi), as DEFAULT.
  %s2 = stablehlo.constant dense<[2999170649027065890, 9629550131187509896, 247824715720788526]> : tensor<3xui64>
  %n2, %b2 = stablehlo.rng_bit_generator %s2, algorithm = DEFAULT : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  %e2 = stablehlo.constant dense<[3513581065, 2499661035, 1342301216, 605187745]> : tensor<4xui32>
  stablehlo.custom_call @check.expect_eq(%b2, %e2) {has_side_effect = true} : (tensor<4xui32>, tensor<4xui32>) -> ()
  %m2 = stablehlo.constant dense<[2999170649027065890, 9629550131187509897, 247824715720788526]> : tensor<3xui64>
  stablehlo.custom_call @check.expect_eq(%n2, %m2) {has_side_effect = true} : (tensor<3xui64>, tensor<3xui64>) -> ()

  // 64-bit outputs pair the words low first: (w1:w0), (w3:w2).
  %n3, %b3 = stablehlo.rng_bit_generator %s2, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<2xui64>)
  %e3 = stablehlo.constant dense<[10735962399924092425, 2599261574057288736]> : tensor<2xui64>
  stablehlo.custom_call @check.expect_eq(%b3, %e3) {has_side_effect = true} : (tensor<2xui64>, tensor<2xui64>) -> ()

  // A 2-element state is [key, counter low] with counter high = 0; five
  // 32-bit outputs take two blocks, the second starting with block 1's
  // first word.
  %s4 = stablehlo.constant dense<[0, 0]> : tensor<2xui64>
  %n4, %b4 = stablehlo.rng_bit_generator %s4, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui32>)
  %first4 = stablehlo.slice %b4 [0:4] : (tensor<5xui32>) -> tensor<4xui32>
  stablehlo.custom_call @check.expect_eq(%first4, %e0) {has_side_effect = true} : (tensor<4xui32>, tensor<4xui32>) -> ()
  %m4 = stablehlo.constant dense<[0, 2]> : tensor<2xui64>
  stablehlo.custom_call @check.expect_eq(%n4, %m4) {has_side_effect = true} : (tensor<2xui64>, tensor<2xui64>) -> ()
  return
}
