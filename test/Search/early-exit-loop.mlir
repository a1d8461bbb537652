// A loop that may exit early (its condition has a counted term and another
// one, as a decode loop that stops when every sequence is done): the search
// prices its body at the maximum trip count and says so once, on its condition
// (emit=planned too, which builds a second environment to emit the winner).
// The strategy it finds runs like the original on two devices.
// RUN: toast-opt %s --toast-auto-partition="mesh=B=2 device=a100 seed=1 min-dims=1 progress=false" -verify-diagnostics -o %t.auto.mlir
// RUN: toast-opt %t.auto.mlir --partir-lower-to-hlo -o %t.hlo.mlir
// RUN: toast-opt %s --toast-auto-partition="mesh=B=2 device=a100 seed=1 min-dims=1 progress=false emit=planned" -o %t.planned.mlir 2>&1 | FileCheck %s --check-prefix=ONCE
// RUN: toast-run --compare %s %t.planned.mlir --seed 3 | FileCheck %s
// RUN: toast-run --compare %s %t.hlo.mlir --seed 3 | FileCheck %s
// RUN: FileCheck %s --check-prefix=LOCAL < %t.hlo.mlir
// ONCE: remark: automatic partitioning: this condition may end its loop before 4 iterations
// ONCE-NOT: remark: automatic partitioning
// CHECK: result #0 tensor<256x64xf32>: {{.*}}: ok
// LOCAL: stablehlo.dot_general {{.*}} -> tensor<128x64xf32>
module {
  func.func @main(%x: tensor<256x64xf32>, %w: tensor<64x64xf32>, %done: tensor<1xi1>) -> tensor<256x64xf32> {
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %r:3 = stablehlo.while(%i = %zero, %d = %done, %h = %x) : tensor<i32>, tensor<1xi1>, tensor<256x64xf32>
     cond {
      %n = stablehlo.constant dense<4> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %true = stablehlo.constant dense<true> : tensor<i1>
      %all = stablehlo.reduce(%d init: %true) applies stablehlo.and across dimensions = [0] : (tensor<1xi1>, tensor<i1>) -> tensor<i1>
      %notAll = stablehlo.not %all : tensor<i1>
      // expected-remark @+1 {{automatic partitioning: this condition may end its loop before 4 iterations; the loop's body is priced that many times}}
      %go = stablehlo.and %p, %notAll : tensor<i1>
      stablehlo.return %go : tensor<i1>
    } do {
      %y = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
      %s = stablehlo.tanh %y : tensor<256x64xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next, %d, %s : tensor<i32>, tensor<1xi1>, tensor<256x64xf32>
    }
    return %r#2 : tensor<256x64xf32>
  }
}
