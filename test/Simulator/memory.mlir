// Peak memory by hand. Every tensor below is 1024xf32 = 4096 B.
//
// @chain: a = exp(x); b = exp(a); c = a + b; d = exp(c); return d.
//   op #0 exp: x, a           =  8192
//   op #1 exp: x, a, b        = 12288
//   op #2 add: x, a, b, c     = 16384  <- peak (a and b die after it)
//   op #3 exp: x, c, d        = 12288
// With fusion=true, b (read by the add only) and c (read by the last exp
// only) are never materialized; a is read by two ops and exp is too
// expensive to duplicate, and d is returned, so they are. The fusion of d
// reads a (it computes b and c inside), so a lives until op #3: x, a, d =
// 12288 there, first reached at op #3.
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=a100 function=chain json=%t.chain.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=CHAIN < %t.chain.json
// RUN: toast-opt %s --partir-simulate="memory-bound=false device=a100 function=chain fusion=true json=%t.fused.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=FUSED < %t.fused.json
//
// @reshape: a reshape aliases its operand (no copy): x, then x + exp = 8192
// at op #1.
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=a100 function=reshape json=%t.reshape.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=RESHAPE < %t.reshape.json
//
// @calls: two calls of @twice (exp, exp) are inlined into 4 ops; the
// callee's argument aliases the caller's value and its result becomes the
// call's result. op #1: x, e1, f1 = 12288 (peak, first reached); op #2:
// x, f1, e2 = 12288; op #3: x, e2, f2 = 12288.
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=a100 function=calls json=%t.calls.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=CALLS < %t.calls.json
//
// @loop: a while loop whose body runs once in the model (its trip count
// is not a constant): i (8 B) and v (4096) are arguments, which the caller
// keeps, so the loop carries copies of them (8 + 4096, live from the
// loop's start; the results are these buffers). The condition yields
// p (i1, 1 B), the body n = i + i (8 B) and w = exp(v) (4096); what a
// region yields dies with it (it is written into the carry). Peak at the
// exponential: 4104 (arguments) + 4104 (carries) + 8 + 4096 = 12312; at
// the while op only 8208 is left.
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=a100 function=loop json=%t.loop.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=LOOP < %t.loop.json

// CHAIN: "peak_memory_bytes": 16384,
// CHAIN: "num_ops": 4,
// CHAIN: "argument_bytes": 4096,
// CHAIN-NEXT: "peak_memory_op": "stablehlo.add",
// CHAIN: "peak_memory_op_index": 2,

// FUSED: "peak_memory_bytes": 12288,
// FUSED: "peak_memory_op": "stablehlo.exponential",
// FUSED: "peak_memory_op_index": 3,

// RESHAPE: "peak_memory_bytes": 8192,
// RESHAPE: "peak_memory_op": "stablehlo.exponential",
// RESHAPE: "peak_memory_op_index": 1,

// CALLS: "peak_memory_bytes": 12288,
// CALLS: "num_ops": 4,
// CALLS: "peak_memory_op_index": 1,

// LOOP: "peak_memory_bytes": 12312,
// LOOP: "peak_memory_op": "stablehlo.exponential",

module {
  func.func private @chain(%x: tensor<1024xf32>) -> tensor<1024xf32> {
    %a = stablehlo.exponential %x : tensor<1024xf32>
    %b = stablehlo.exponential %a : tensor<1024xf32>
    %c = stablehlo.add %a, %b : tensor<1024xf32>
    %d = stablehlo.exponential %c : tensor<1024xf32>
    return %d : tensor<1024xf32>
  }

  func.func private @reshape(%x: tensor<1024xf32>) -> tensor<32x32xf32> {
    %r = stablehlo.reshape %x : (tensor<1024xf32>) -> tensor<32x32xf32>
    %e = stablehlo.exponential %r : tensor<32x32xf32>
    return %e : tensor<32x32xf32>
  }

  func.func private @twice(%y: tensor<1024xf32>) -> tensor<1024xf32> {
    %e = stablehlo.exponential %y : tensor<1024xf32>
    %f = stablehlo.exponential %e : tensor<1024xf32>
    return %f : tensor<1024xf32>
  }

  func.func private @calls(%x: tensor<1024xf32>) -> tensor<1024xf32> {
    %1 = func.call @twice(%x) : (tensor<1024xf32>) -> tensor<1024xf32>
    %2 = func.call @twice(%1) : (tensor<1024xf32>) -> tensor<1024xf32>
    return %2 : tensor<1024xf32>
  }

  func.func private @loop(%x: tensor<i64>, %y: tensor<1024xf32>) -> tensor<1024xf32> {
    %0:2 = stablehlo.while(%i = %x, %v = %y) : tensor<i64>, tensor<1024xf32>
     cond {
      %p = stablehlo.compare LT, %i, %i : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %n = stablehlo.add %i, %i : tensor<i64>
      %w = stablehlo.exponential %v : tensor<1024xf32>
      stablehlo.return %n, %w : tensor<i64>, tensor<1024xf32>
    }
    return %0#1 : tensor<1024xf32>
  }
}
