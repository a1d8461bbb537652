// RUN: toast-opt %s | toast-opt | FileCheck %s
// RUN: toast-opt %s --mlir-print-op-generic | toast-opt | FileCheck %s

// Round trip of tuples, tokens and the transfers they order (infeed,
// outfeed, send, recv), in the pretty forms and in the generic forms with
// properties or with an attribute dictionary.

// CHECK-LABEL: func.func @tuple
// CHECK-SAME: (%[[A:[^:]+]]: tensor<2xf32>, %[[I:[^:]+]]: tensor<i32>, %[[T:[^:]+]]: !stablehlo.token)
func.func @tuple(%a: tensor<2xf32>, %i: tensor<i32>, %t: !stablehlo.token) -> tuple<tensor<2xf32>, tensor<i32>> {
  // CHECK: %[[P:.+]] = stablehlo.tuple %[[A]], %[[I]] : tuple<tensor<2xf32>, tensor<i32>>
  %0 = stablehlo.tuple %a, %i : tuple<tensor<2xf32>, tensor<i32>>
  // Nested tuples and tokens are elements too.
  // CHECK: stablehlo.tuple %[[P]], %[[T]] : tuple<tuple<tensor<2xf32>, tensor<i32>>, !stablehlo.token>
  %1 = stablehlo.tuple %0, %t : tuple<tuple<tensor<2xf32>, tensor<i32>>, !stablehlo.token>
  // CHECK: stablehlo.tuple : tuple<>
  %2 = stablehlo.tuple : tuple<>
  // CHECK: stablehlo.tuple %[[I]] : tuple<tensor<i32>>
  %3 = "stablehlo.tuple"(%i) : (tensor<i32>) -> tuple<tensor<i32>>
  // A function type is accepted after the colon too.
  // CHECK: stablehlo.tuple %[[I]], %[[I]] : tuple<tensor<i32>, tensor<i32>>
  %4 = stablehlo.tuple %i, %i : (tensor<i32>, tensor<i32>) -> tuple<tensor<i32>, tensor<i32>>
  return %0 : tuple<tensor<2xf32>, tensor<i32>>
}

// The pretty form is the one PyTorch/XLA exports print (corpus
// torchxla_moe_decode_gspmd8.mlir).
// CHECK-LABEL: func.func @get_tuple_element
// CHECK-SAME: (%[[P:[^:]+]]: tuple<tensor<1x8xbf16>, tensor<1x8xi64>>, %[[N:[^:]+]]: tuple<tuple<tensor<f32>>, !stablehlo.token>)
func.func @get_tuple_element(%p: tuple<tensor<1x8xbf16>, tensor<1x8xi64>>, %n: tuple<tuple<tensor<f32>>, !stablehlo.token>) {
  // CHECK: stablehlo.get_tuple_element %[[P]][1] : (tuple<tensor<1x8xbf16>, tensor<1x8xi64>>) -> tensor<1x8xi64>
  %0 = stablehlo.get_tuple_element %p[1] : (tuple<tensor<1x8xbf16>, tensor<1x8xi64>>) -> tensor<1x8xi64>
  // CHECK: stablehlo.get_tuple_element %[[P]][0] : (tuple<tensor<1x8xbf16>, tensor<1x8xi64>>) -> tensor<1x8xbf16>
  %1 = "stablehlo.get_tuple_element"(%p) <{index = 0 : i32}> : (tuple<tensor<1x8xbf16>, tensor<1x8xi64>>) -> tensor<1x8xbf16>
  // CHECK: %[[IN:.+]] = stablehlo.get_tuple_element %[[N]][0] : (tuple<tuple<tensor<f32>>, !stablehlo.token>) -> tuple<tensor<f32>>
  %2 = "stablehlo.get_tuple_element"(%n) {index = 0 : i32} : (tuple<tuple<tensor<f32>>, !stablehlo.token>) -> tuple<tensor<f32>>
  // CHECK: stablehlo.get_tuple_element %[[N]][1] : (tuple<tuple<tensor<f32>>, !stablehlo.token>) -> !stablehlo.token
  %3 = stablehlo.get_tuple_element %n[1] : (tuple<tuple<tensor<f32>>, !stablehlo.token>) -> !stablehlo.token
  // CHECK: stablehlo.get_tuple_element %[[IN]][0] : (tuple<tensor<f32>>) -> tensor<f32>
  %4 = stablehlo.get_tuple_element %2[0] : (tuple<tensor<f32>>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @tokens
// CHECK-SAME: (%[[T0:[^:]+]]: !stablehlo.token, %[[T1:[^:]+]]: !stablehlo.token)
func.func @tokens(%t0: !stablehlo.token, %t1: !stablehlo.token) -> !stablehlo.token {
  // CHECK: %[[J:.+]] = stablehlo.after_all %[[T0]], %[[T1]] : !stablehlo.token
  %0 = stablehlo.after_all %t0, %t1 : !stablehlo.token
  // CHECK: stablehlo.after_all : !stablehlo.token
  %1 = stablehlo.after_all : !stablehlo.token
  // CHECK: stablehlo.after_all %[[T0]] : !stablehlo.token
  %2 = "stablehlo.after_all"(%t0) : (!stablehlo.token) -> !stablehlo.token
  // CHECK: stablehlo.create_token : !stablehlo.token
  %3 = stablehlo.create_token : !stablehlo.token
  // CHECK: stablehlo.create_token {mhlo.frontend_attributes = {a = "b"}} : !stablehlo.token
  %4 = "stablehlo.create_token"() {mhlo.frontend_attributes = {a = "b"}} : () -> !stablehlo.token
  // CHECK: return %[[J]] : !stablehlo.token
  return %0 : !stablehlo.token
}

// CHECK-LABEL: func.func @infeed_outfeed
// CHECK-SAME: (%[[T:[^:]+]]: !stablehlo.token)
func.func @infeed_outfeed(%t: !stablehlo.token) -> !stablehlo.token {
  // CHECK: %[[IN:.+]]:3 = "stablehlo.infeed"(%[[T]]) <{infeed_config = "", layout = {{\[\[}}1, 0], [0]]}> : (!stablehlo.token) -> (tensor<2x3xf32>, tensor<4xi32>, !stablehlo.token)
  %0:3 = "stablehlo.infeed"(%t) {infeed_config = "", layout = [[1, 0], [0]]} : (!stablehlo.token) -> (tensor<2x3xf32>, tensor<4xi32>, !stablehlo.token)
  // infeed_config defaults to "".
  // CHECK: %[[IN2:.+]] = "stablehlo.infeed"(%[[IN]]#2) <{infeed_config = ""}> : (!stablehlo.token) -> !stablehlo.token
  %1 = "stablehlo.infeed"(%0#2) : (!stablehlo.token) -> !stablehlo.token
  // CHECK: %[[OUT:.+]] = "stablehlo.outfeed"(%[[IN]]#0, %[[IN]]#1, %[[IN2]]) <{outfeed_config = "cfg"}> : (tensor<2x3xf32>, tensor<4xi32>, !stablehlo.token) -> !stablehlo.token
  %2 = "stablehlo.outfeed"(%0#0, %0#1, %1) <{outfeed_config = "cfg"}> : (tensor<2x3xf32>, tensor<4xi32>, !stablehlo.token) -> !stablehlo.token
  // CHECK: "stablehlo.outfeed"(%[[OUT]]) <{outfeed_config = ""}> : (!stablehlo.token) -> !stablehlo.token
  %3 = "stablehlo.outfeed"(%2) : (!stablehlo.token) -> !stablehlo.token
  return %3 : !stablehlo.token
}

// Host transfers as jax.debug.print and host callbacks lower them.
// CHECK-LABEL: func.func @send_recv
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x2xi64>, %[[T:[^:]+]]: !stablehlo.token)
func.func @send_recv(%x: tensor<2x2xi64>, %t: !stablehlo.token) -> !stablehlo.token {
  // CHECK: %[[S:.+]] = "stablehlo.send"(%[[X]], %[[T]]) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true}> {mhlo.frontend_attributes = {_xla_host_transfer_handler_name = "tf_rendezvous"}} : (tensor<2x2xi64>, !stablehlo.token) -> !stablehlo.token
  %0 = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true, mhlo.frontend_attributes = {_xla_host_transfer_handler_name = "tf_rendezvous"}} : (tensor<2x2xi64>, !stablehlo.token) -> !stablehlo.token
  // CHECK: %[[R:.+]]:2 = "stablehlo.recv"(%[[S]]) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 3>, is_host_transfer = true}> : (!stablehlo.token) -> (tensor<2x2xi64>, !stablehlo.token)
  %1:2 = "stablehlo.recv"(%0) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 3>, is_host_transfer = true}> : (!stablehlo.token) -> (tensor<2x2xi64>, !stablehlo.token)
  // Device to device, with the source-target pairs of newer exports;
  // is_host_transfer is false, explicitly or by default.
  // CHECK: %[[S2:.+]] = "stablehlo.send"(%[[R]]#0, %[[R]]#1) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, is_host_transfer = false, source_target_pairs = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> : (tensor<2x2xi64>, !stablehlo.token) -> !stablehlo.token
  %2 = "stablehlo.send"(%1#0, %1#1) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, is_host_transfer = false, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xi64>, !stablehlo.token) -> !stablehlo.token
  // CHECK: "stablehlo.recv"(%[[S2]]) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, source_target_pairs = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> : (!stablehlo.token) -> (tensor<2x2xi64>, !stablehlo.token)
  %3:2 = "stablehlo.recv"(%2) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>} : (!stablehlo.token) -> (tensor<2x2xi64>, !stablehlo.token)
  return %3#1 : !stablehlo.token
}

// Tokens and tuples pass through control flow.
// CHECK-LABEL: func.func @token_loop
func.func @token_loop(%n: tensor<i64>, %t: !stablehlo.token) -> !stablehlo.token {
  // CHECK: stablehlo.while(%[[I:.+]] = %{{.+}}, %[[TK:.+]] = %{{.+}}) : tensor<i64>, !stablehlo.token
  %0:2 = stablehlo.while(%i = %n, %tk = %t) : tensor<i64>, !stablehlo.token
   cond {
    %p = stablehlo.compare LT, %i, %i : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    // CHECK: stablehlo.after_all %[[TK]] : !stablehlo.token
    %next = stablehlo.after_all %tk : !stablehlo.token
    stablehlo.return %i, %next : tensor<i64>, !stablehlo.token
  }
  return %0#1 : !stablehlo.token
}
