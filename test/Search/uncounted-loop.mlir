// A loop whose trip count is not a constant: the search prices its body as
// one iteration (the simulator's rule) and says so once, on its condition; it
// still partitions the program, inside the body too.
// RUN: toast-opt %s --toast-auto-partition="mesh=B=2 device=a100 seed=1 min-dims=1 progress=false" -verify-diagnostics -o /dev/null
module {
  func.func @main(%x: tensor<64x64xf32>, %n: tensor<i32>) -> tensor<64x64xf32> {
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %zero, %h = %x) : tensor<i32>, tensor<64x64xf32>
     cond {
      // expected-warning @+1 {{automatic partitioning: this condition gives its loop no constant trip count; the loop's body is priced as one iteration}}
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %y = stablehlo.dot_general %h, %h, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next, %y : tensor<i32>, tensor<64x64xf32>
    }
    return %r#1 : tensor<64x64xf32>
  }
}
