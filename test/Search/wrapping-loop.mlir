// A counter that would wrap around its type before the condition fails (an i8
// under `i <= 127`) gives no constant trip count: the search prices the body
// as one iteration and warns, rather than pricing 128 iterations of a loop
// that never ends (Simulator/wrapping-loop.mlir checks the simulator).
// RUN: toast-opt %s --toast-auto-partition="mesh=B=2 device=a100 seed=1 min-dims=1 progress=false" -verify-diagnostics -o /dev/null
module {
  func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %zero = stablehlo.constant dense<0> : tensor<i8>
    %r:2 = stablehlo.while(%i = %zero, %h = %x) : tensor<i8>, tensor<64x64xf32>
     cond {
      %n = stablehlo.constant dense<127> : tensor<i8>
      // expected-warning @+1 {{automatic partitioning: this condition gives its loop no constant trip count; the loop's body is priced as one iteration}}
      %p = stablehlo.compare LE, %i, %n : (tensor<i8>, tensor<i8>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %y = stablehlo.dot_general %h, %h, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %one = stablehlo.constant dense<1> : tensor<i8>
      %next = stablehlo.add %i, %one : tensor<i8>
      stablehlo.return %next, %y : tensor<i8>, tensor<64x64xf32>
    }
    return %r#1 : tensor<64x64xf32>
  }
}
