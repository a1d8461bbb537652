// RUN: toast-opt %s -split-input-file -verify-diagnostics

// Verifier errors and malformed syntax of tuples, tokens and transfers.

func.func @tuple_result_type(%a: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.tuple' op result type must be 'tuple<tensor<2xf32>>' (the operand types), got 'tuple<tensor<2xf16>>'}}
  %0 = "stablehlo.tuple"(%a) : (tensor<2xf32>) -> tuple<tensor<2xf16>>
  return
}

// -----

func.func @tuple_not_a_tuple_type(%a: tensor<2xf32>) {
  // expected-error @+1 {{expected a tuple type, got 'tensor<2xf32>'}}
  %0 = stablehlo.tuple %a : tensor<2xf32>
  return
}

// -----

func.func @tuple_operand_count(%a: tensor<2xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.tuple' number of operands and types do not match: got 1 operands and 2 types}}
  %0 = stablehlo.tuple %a : tuple<tensor<2xf32>, tensor<2xf32>>
  return
}

// -----

func.func @tuple_operand_type(%a: tensor<2xf32>) {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%a' expects different type than prior uses: 'tensor<3xf32>' vs 'tensor<2xf32>'}}
  %0 = stablehlo.tuple %a : tuple<tensor<3xf32>>
  return
}

// -----

func.func @get_tuple_element_index(%t: tuple<tensor<2xf32>, tensor<i32>>) {
  // expected-error @+1 {{'stablehlo.get_tuple_element' op index 2 is out of range [0, 2)}}
  %0 = stablehlo.get_tuple_element %t[2] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i32>
  return
}

// -----

func.func @get_tuple_element_type(%t: tuple<tensor<2xf32>, tensor<i32>>) {
  // expected-error @+1 {{'stablehlo.get_tuple_element' op result type must be 'tensor<i32>' (element 1 of the tuple), got 'tensor<i64>'}}
  %0 = stablehlo.get_tuple_element %t[1] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i64>
  return
}

// -----

func.func @get_tuple_element_not_tuple(%a: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.get_tuple_element' op operand #0 must be tuple, but got 'tensor<2xf32>'}}
  %0 = "stablehlo.get_tuple_element"(%a) {index = 0 : i32} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @get_tuple_element_missing_index(%t: tuple<tensor<2xf32>>) {
  // expected-error @+1 {{expected '['}}
  %0 = stablehlo.get_tuple_element %t : (tuple<tensor<2xf32>>) -> tensor<2xf32>
  return
}

// -----

func.func @after_all_operand(%a: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.after_all' op operand #0 must be variadic of token, but got 'tensor<2xf32>'}}
  %0 = "stablehlo.after_all"(%a) : (tensor<2xf32>) -> !stablehlo.token
  return
}

// -----

func.func @create_token_type() {
  // expected-error @+1 {{'stablehlo.create_token' op result #0 must be token, but got 'tensor<f32>'}}
  %0 = stablehlo.create_token : tensor<f32>
  return
}

// -----

// expected-error @+1 {{unknown  type `tokens` in dialect `stablehlo`}}
func.func @unknown_type(%t: !stablehlo.tokens) {
  return
}

// -----

func.func @infeed_no_token(%t: !stablehlo.token) {
  // expected-error @+1 {{'stablehlo.infeed' op last result must be a !stablehlo.token}}
  %0 = "stablehlo.infeed"(%t) {infeed_config = ""} : (!stablehlo.token) -> tensor<2xf32>
  return
}

// -----

func.func @infeed_token_first(%t: !stablehlo.token) {
  // expected-error @+1 {{'stablehlo.infeed' op results before the token must be tensors, got '!stablehlo.token'}}
  %0:2 = "stablehlo.infeed"(%t) {infeed_config = ""} : (!stablehlo.token) -> (!stablehlo.token, !stablehlo.token)
  return
}

// -----

func.func @outfeed_token(%a: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.outfeed' op operand #1 must be token, but got 'tensor<2xf32>'}}
  %0 = "stablehlo.outfeed"(%a, %a) {outfeed_config = ""} : (tensor<2xf32>, tensor<2xf32>) -> !stablehlo.token
  return
}

// -----

func.func @send_channel(%a: tensor<2xf32>, %t: !stablehlo.token) {
  // expected-error @+1 {{'stablehlo.send' op requires attribute 'channel_handle'}}
  %0 = "stablehlo.send"(%a, %t) {is_host_transfer = true} : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  return
}

// -----

func.func @send_pairs(%a: tensor<2xf32>, %t: !stablehlo.token) {
  // expected-error @+1 {{'stablehlo.send' op source 0 appears more than once}}
  %0 = "stablehlo.send"(%a, %t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 1], [0, 2]]> : tensor<2x2xi64>} : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  return
}

// -----

func.func @recv_pairs_shape(%t: !stablehlo.token) {
  // expected-error @+1 {{'stablehlo.recv' op source_target_pairs must have shape [N, 2]}}
  %0:2 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[0, 1]> : tensor<2xi64>} : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  return
}

// -----

func.func @recv_no_results(%t: !stablehlo.token) {
  // expected-error @+1 {{'stablehlo.recv' op last result must be a !stablehlo.token}}
  "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> ()
  return
}
