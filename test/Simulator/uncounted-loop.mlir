// A loop whose trip count is not a constant is priced as one iteration,
// and --partir-simulate says so with a warning on its condition: once per loop,
// even when the function holding it is called twice, and also for a loop
// nested in a counted one. It is not an error: the report is written and
// counts every walk of such a loop in "uncounted_loops" (two calls of
// @step, plus the inner loop of @main's counted loop). FLOPs: one 16x16
// dot (8192) per call of @step and per trip of the counted loop: 32768.
// RUN: toast-opt %s --partir-simulate="device=a100 json=%t.json summary=false" -verify-diagnostics -o /dev/null
// RUN: FileCheck %s < %t.json

// CHECK: "flops": 32768,
// CHECK: "uncounted_loops": 3,

module {
  func.func private @step(%x: tensor<16x16xf32>, %n: tensor<i32>) -> tensor<16x16xf32> {
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %zero, %h = %x) : tensor<i32>, tensor<16x16xf32>
     cond {
      // expected-warning @+1 {{this condition gives its loop no constant trip count; counting one iteration}}
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %y = stablehlo.dot_general %h, %h, contracting_dims = [1] x [0] : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next, %y : tensor<i32>, tensor<16x16xf32>
    }
    return %r#1 : tensor<16x16xf32>
  }

  func.func @main(%x: tensor<16x16xf32>, %n: tensor<i32>) -> tensor<16x16xf32> {
    %a = func.call @step(%x, %n) : (tensor<16x16xf32>, tensor<i32>) -> tensor<16x16xf32>
    %b = func.call @step(%a, %n) : (tensor<16x16xf32>, tensor<i32>) -> tensor<16x16xf32>
    // A counted loop (2 trips) around an uncounted one: 2 x 1 dots.
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %zero, %h = %b) : tensor<i32>, tensor<16x16xf32>
     cond {
      %two = stablehlo.constant dense<2> : tensor<i32>
      %p = stablehlo.compare LT, %i, %two : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %inner:2 = stablehlo.while(%j = %zero, %g = %h) : tensor<i32>, tensor<16x16xf32>
       cond {
        // expected-warning @+1 {{this condition gives its loop no constant trip count; counting one iteration}}
        %q = stablehlo.compare LT, %j, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q : tensor<i1>
      } do {
        %y = stablehlo.dot_general %g, %g, contracting_dims = [1] x [0] : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
        %one = stablehlo.constant dense<1> : tensor<i32>
        %nj = stablehlo.add %j, %one : tensor<i32>
        stablehlo.return %nj, %y : tensor<i32>, tensor<16x16xf32>
      }
      %one = stablehlo.constant dense<1> : tensor<i32>
      %ni = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %ni, %inner#1 : tensor<i32>, tensor<16x16xf32>
    }
    return %r#1 : tensor<16x16xf32>
  }
}
