// Two things the analytic cost always modelled so, which the simulator now
// does too (session 24; they were the whole of the 7e-9 and 1-byte offsets
// between the two on the initial states of the torch-mlir DETR and
// torch-xla MoE exports):
//
// @arith: a torch-mlir export keeps scalar `arith.constant` ops. Like any
// constant they take no time (the simulator priced each as an 8-byte
// memory op, 5 ps on an A100). Its step is exactly @stablehlo's, which
// holds the same constant as `stablehlo.constant`.
//
// @captured: a reducer body that reads a value from outside (here the
// constant %t) reads it as an input of the reduce, which keeps it alive
// until the reduce runs. Live bytes: x 32, %t 1, %f 1, the result 4 = 38
// at the reduce (37 before: %t died at once).
//
// RUN: toast-opt %s --partir-simulate="device=a100 function=arith json=%t.arith.json summary=false" -o /dev/null
// RUN: toast-opt %s --partir-simulate="device=a100 function=stablehlo json=%t.stablehlo.json summary=false" -o /dev/null
// RUN: cat %t.arith.json %t.stablehlo.json | FileCheck %s --check-prefix=SAME
// RUN: toast-opt %s --partir-simulate="device=a100 function=captured json=%t.captured.json summary=false memory-csv=%t.csv" -o /dev/null
// RUN: FileCheck %s --check-prefix=CAPTURED < %t.captured.json
// RUN: FileCheck %s --check-prefix=CSV < %t.csv

// SAME: "step_time_s": [[STEP:.*]],
// SAME: "step_time_s": [[STEP]],

// CAPTURED: "peak_memory_bytes": 38,
// CSV: 0,33,0,stablehlo.constant
// CSV-NEXT: 0,34,1,stablehlo.constant
// CSV-NEXT: 0,38,2,stablehlo.reduce

func.func @arith(%x: tensor<1024xf64>) -> tensor<1024xf64> {
  %c = arith.constant dense<0.17677669529663689> : tensor<1xf64>
  %b = stablehlo.broadcast_in_dim %c, dims = [0] : (tensor<1xf64>) -> tensor<1024xf64>
  %y = stablehlo.multiply %x, %b : tensor<1024xf64>
  return %y : tensor<1024xf64>
}

func.func @stablehlo(%x: tensor<1024xf64>) -> tensor<1024xf64> {
  %c = stablehlo.constant dense<0.17677669529663689> : tensor<1xf64>
  %b = stablehlo.broadcast_in_dim %c, dims = [0] : (tensor<1xf64>) -> tensor<1024xf64>
  %y = stablehlo.multiply %x, %b : tensor<1024xf64>
  return %y : tensor<1024xf64>
}

func.func @captured(%x: tensor<4x8xi1>) -> tensor<4xi1> {
  %t = stablehlo.constant dense<true> : tensor<i1>
  %f = stablehlo.constant dense<false> : tensor<i1>
  %r = stablehlo.reduce(%x init: %f) across dimensions = [1] : (tensor<4x8xi1>, tensor<i1>) -> tensor<4xi1>
   reducer(%a: tensor<i1>, %b: tensor<i1>) {
    %s = stablehlo.or %a, %b : tensor<i1>
    %q = stablehlo.select %s, %t, %f : tensor<i1>, tensor<i1>
    stablehlo.return %q : tensor<i1>
  }
  return %r : tensor<4xi1>
}
