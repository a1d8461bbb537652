// A counter that would wrap around its type before the condition fails gives
// its loop no constant trip count: the loop may never end, so pricing the
// count the arithmetic suggests would be wrong. The simulator and the search
// price one iteration and warn on the condition, as for any uncounted loop;
// toast-run shows that the loops do not end. Both functions wrap:
// @i8_closed: an i8 counter under `i <= 127` goes 127 -> -128, so the
//   condition always holds (not 128 trips).
// @i64_big_step: an i64 stepping by 2^62 under `i < 2^63 - 1` reaches
//   2^63, which wraps to the minimum (not 2 trips).
// Each dot is 2 * 16 * 8 * 8 = 2048 FLOPs, one per function.
// RUN: toast-opt %s --partir-simulate="device=a100 function=i8_closed json=%t.i8.json summary=false" -verify-diagnostics -o /dev/null
// RUN: FileCheck %s < %t.i8.json
// RUN: toast-opt %s --partir-simulate="device=a100 function=i64_big_step json=%t.i64.json summary=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s < %t.i64.json
// RUN: not toast-run %s --entry=i8_closed --max-while-iterations=300 2>&1 | FileCheck %s --check-prefix=INTERP
// RUN: not toast-run %s --entry=i64_big_step --max-while-iterations=300 2>&1 | FileCheck %s --check-prefix=INTERP

// CHECK: "flops": 2048,
// CHECK: "uncounted_loops": 1,
// WARN: warning: this condition gives its loop no constant trip count; counting one iteration
// INTERP: error: toast-run: while loop exceeded 300 iterations

module {
  func.func @i8_closed(%x: tensor<16x8xf32>, %w: tensor<8x8xf32>) -> tensor<16x8xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i8>
    %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i8>, tensor<16x8xf32>
     cond {
      %n = stablehlo.constant dense<127> : tensor<i8>
      // expected-warning @+1 {{this condition gives its loop no constant trip count; counting one iteration}}
      %p = stablehlo.compare LE, %i, %n : (tensor<i8>, tensor<i8>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i8>
      %next = stablehlo.add %i, %one : tensor<i8>
      %m = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] : (tensor<16x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
      stablehlo.return %next, %m : tensor<i8>, tensor<16x8xf32>
    }
    return %r#1 : tensor<16x8xf32>
  }

  func.func @i64_big_step(%x: tensor<16x8xf32>, %w: tensor<8x8xf32>) -> tensor<16x8xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i64>
    %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i64>, tensor<16x8xf32>
     cond {
      %n = stablehlo.constant dense<9223372036854775807> : tensor<i64>
      %p = stablehlo.compare LT, %i, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %step = stablehlo.constant dense<4611686018427387904> : tensor<i64>
      %next = stablehlo.add %i, %step : tensor<i64>
      %m = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] : (tensor<16x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
      stablehlo.return %next, %m : tensor<i64>, tensor<16x8xf32>
    }
    return %r#1 : tensor<16x8xf32>
  }
}
