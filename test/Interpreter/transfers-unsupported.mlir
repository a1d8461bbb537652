// infeed, outfeed, send and recv talk to a host or another program the
// interpreter does not have: each is a located error and exit status 1.
// RUN: split-file %s %t

// RUN: not toast-run %t/infeed.mlir 2>&1 | FileCheck %s --check-prefix=INFEED
// INFEED: infeed.mlir:3:10: error: toast-run: 'stablehlo.infeed' is unsupported in the interpreter (it transfers data to or from a host or another program)

// RUN: not toast-run %t/outfeed.mlir 2>&1 | FileCheck %s --check-prefix=OUTFEED
// OUTFEED: outfeed.mlir:4:8: error: toast-run: 'stablehlo.outfeed' is unsupported in the interpreter

// RUN: not toast-run %t/send.mlir 2>&1 | FileCheck %s --check-prefix=SEND
// SEND: send.mlir:4:8: error: toast-run: 'stablehlo.send' is unsupported in the interpreter

// RUN: not toast-run %t/recv.mlir 2>&1 | FileCheck %s --check-prefix=RECV
// RECV: recv.mlir:3:10: error: toast-run: 'stablehlo.recv' is unsupported in the interpreter

// Evaluation stops at the transfer: the run fails even though the check
// before it passed.
// RUN: not toast-run %t/after-check.mlir 2>&1 | FileCheck %s --check-prefix=AFTER
// AFTER: after-check.mlir:5:8: error: toast-run: 'stablehlo.outfeed' is unsupported in the interpreter
// AFTER-NOT: checks passed

//--- infeed.mlir
func.func @main() -> tensor<2xf32> {
  %t = stablehlo.create_token : !stablehlo.token
  %x:2 = "stablehlo.infeed"(%t) {infeed_config = ""} : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  return %x#0 : tensor<2xf32>
}

//--- outfeed.mlir
func.func @main() {
  %t = stablehlo.after_all : !stablehlo.token
  %x = stablehlo.constant dense<1.0> : tensor<2xf32>
  %0 = "stablehlo.outfeed"(%x, %t) {outfeed_config = ""} : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  return
}

//--- send.mlir
func.func @main(%x: tensor<2xf32>) -> !stablehlo.token {
  %t = stablehlo.create_token : !stablehlo.token
  // A host callback, as jax.debug.print lowers it.
  %0 = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true} : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  return %0 : !stablehlo.token
}

//--- recv.mlir
func.func @main(%t: !stablehlo.token) -> tensor<2xf32> {
  %0 = stablehlo.after_all %t : !stablehlo.token
  %x:2 = "stablehlo.recv"(%0) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
  return %x#0 : tensor<2xf32>
}

//--- after-check.mlir
func.func @main(%t: !stablehlo.token) {
  %x = stablehlo.constant dense<1.0> : tensor<2xf32>
  stablehlo.custom_call @check.expect_eq(%x, %x) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  // The check passed, but the run fails here.
  %0 = "stablehlo.outfeed"(%x, %t) {outfeed_config = ""} : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
  return
}
