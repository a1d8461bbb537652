// A loop whose condition has a counted term and another one (a decode loop
// that also stops when every sequence is done, as JAX's generate writes
// it) is priced at its maximum trip count, 12 here, and --partir-simulate
// says so with a remark on its condition and in "at_most_loops". FLOPs: one
// 16x16 dot (8192) per trip: 98304.
// RUN: toast-opt %s --partir-simulate="device=a100 json=%t.json summary=false" -verify-diagnostics -o /dev/null
// RUN: FileCheck %s < %t.json
// RUN: toast-opt %s --partir-simulate=device=a100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SUMMARY

// CHECK: "flops": 98304,
// CHECK: "uncounted_loops": 0,
// CHECK: "at_most_loops": 1,
// SUMMARY: note           : 1 while loop(s) priced at their maximum trip count (they may exit earlier)

module {
  func.func @main(%x: tensor<16x16xf32>, %done: tensor<1xi1>) -> tensor<16x16xf32> {
    %c7 = stablehlo.constant dense<7> : tensor<i32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %start = stablehlo.add %c7, %c1 : tensor<i32>
    %r:3 = stablehlo.while(%i = %start, %d = %done, %h = %x) : tensor<i32>, tensor<1xi1>, tensor<16x16xf32>
     cond {
      %n = stablehlo.constant dense<20> : tensor<i32>
      %last = stablehlo.compare EQ, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %true = stablehlo.constant dense<true> : tensor<i1>
      %all = stablehlo.reduce(%d init: %true) applies stablehlo.and across dimensions = [0] : (tensor<1xi1>, tensor<i1>) -> tensor<i1>
      %stop = stablehlo.or %last, %all : tensor<i1>
      // expected-remark @+1 {{this condition may end its loop before its 12 iterations (it has other terms); priced at 12}}
      %go = stablehlo.not %stop : tensor<i1>
      stablehlo.return %go : tensor<i1>
    } do {
      %y = stablehlo.dot_general %h, %h, contracting_dims = [1] x [0] : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next, %d, %y : tensor<i32>, tensor<1xi1>, tensor<16x16xf32>
    }
    return %r#2 : tensor<16x16xf32>
  }
}
