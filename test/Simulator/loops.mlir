// Counted while loops repeat their body: a counter that starts from a
// constant, is compared with a constant and steps by a constant gives the
// trip count; other loops are priced as one iteration and counted in
// "uncounted_loops". Unit device: f32 1e12 FLOP/s, links 1e9 B/s and 1e-6 s
// per step; mesh {A=2}.
//
// @counted: i = 0; while i < 10: y = dot(x, w) (65536 FLOPs), all_reduce
// over A of y (256x16xf32 = 16384 B: 2 steps, 16384 B sent), i = i + 1.
//   10 trips: FLOPs 655360, compute 10 * 6.5536e-08 = 6.5536e-07 s,
//   comm 10 * (2e-6 + 16384/1e9) = 1.8384e-04 s, 10 all_reduces,
//   163840 B; step 1.8449536e-04 s.
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=file:%S/Inputs/unit-device.json function=counted json=%t.counted.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=COUNTED < %t.counted.json
//
// @down: i = 9; while i >= 0 (written 0 <= i): i = i - 3 -> i = 9, 6, 3, 0:
//   4 trips of the same dot: 262144 FLOPs.
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=file:%S/Inputs/unit-device.json function=down json=%t.down.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=DOWN < %t.down.json
//
// @unknown: the limit is an argument: one iteration, flagged by a warning
// on the loop and a note in the summary (uncounted-loop.mlir checks the
// warnings' locations).
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=file:%S/Inputs/unit-device.json function=unknown json=%t.unknown.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTE
// RUN: FileCheck %s --check-prefix=UNKNOWN < %t.unknown.json
//
// @nested: repeats multiply: an outer loop of 3 trips around an inner loop
// of 2 trips whose body all-reduces 1024xf32 over A (4096 B: 2 steps,
// 4096 B sent, 2e-6 + 4096/1e9 = 6.096e-06 s). 3 x 2 = 6 all_reduces,
// 3.6576e-05 s, 24576 B.
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=file:%S/Inputs/unit-device.json function=nested json=%t.nested.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=NESTED < %t.nested.json

// COUNTED:      "step_time_s": 0.00018449536,
// COUNTED-NEXT: "compute_time_s": 6.5536e-07,
// COUNTED-NEXT: "comm_time_s": 0.00018384,
// COUNTED-NEXT: "flops": 655360,
// COUNTED-NEXT: "comm_bytes": 163840,
// COUNTED:        "all_reduce": 10,
// COUNTED:      "uncounted_loops": 0,

// DOWN:      "flops": 262144,
// DOWN:      "uncounted_loops": 0,

// NOTE: warning: this condition gives its loop no constant trip count; counting one iteration
// NOTE: note           : 1 while loop(s) without a constant trip count priced as one iteration
// UNKNOWN:      "flops": 65536,
// UNKNOWN:      "uncounted_loops": 1,

// NESTED:      "comm_time_s": 3.6576e-05,
// NESTED-NEXT: "flops": 0,
// NESTED-NEXT: "comm_bytes": 24576,
// NESTED:        "all_reduce": 6,
// NESTED:      "uncounted_loops": 0,

module attributes {partir.mesh = #partir.mesh<["A"=2]>} {
  func.func private @counted(%x: tensor<256x8xf32>, %w: tensor<8x16xf32>) -> tensor<256x16xf32> {
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %init = stablehlo.constant dense<0.0> : tensor<256x16xf32>
    %r:2 = stablehlo.while(%i = %zero, %acc = %init) : tensor<i32>, tensor<256x16xf32>
     cond {
      %ten = stablehlo.constant dense<10> : tensor<i32>
      %p = stablehlo.compare LT, %i, %ten : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<256x8xf32>, tensor<8x16xf32>) -> tensor<256x16xf32>
      %s = partir_hlo.all_reduce "sum" ["A"] %y : tensor<256x16xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %n = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %n, %s : tensor<i32>, tensor<256x16xf32>
    }
    return %r#1 : tensor<256x16xf32>
  }

  func.func private @down(%x: tensor<256x8xf32>, %w: tensor<8x16xf32>) -> tensor<256x16xf32> {
    %nine = stablehlo.constant dense<9> : tensor<i32>
    %init = stablehlo.constant dense<0.0> : tensor<256x16xf32>
    %r:2 = stablehlo.while(%i = %nine, %acc = %init) : tensor<i32>, tensor<256x16xf32>
     cond {
      %zero = stablehlo.constant dense<0> : tensor<i32>
      %p = stablehlo.compare LE, %zero, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<256x8xf32>, tensor<8x16xf32>) -> tensor<256x16xf32>
      %three = stablehlo.constant dense<3> : tensor<i32>
      %n = stablehlo.subtract %i, %three : tensor<i32>
      stablehlo.return %n, %y : tensor<i32>, tensor<256x16xf32>
    }
    return %r#1 : tensor<256x16xf32>
  }

  func.func private @unknown(%x: tensor<256x8xf32>, %w: tensor<8x16xf32>, %limit: tensor<i32>) -> tensor<256x16xf32> {
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %init = stablehlo.constant dense<0.0> : tensor<256x16xf32>
    %r:2 = stablehlo.while(%i = %zero, %acc = %init) : tensor<i32>, tensor<256x16xf32>
     cond {
      %p = stablehlo.compare LT, %i, %limit : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<256x8xf32>, tensor<8x16xf32>) -> tensor<256x16xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %n = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %n, %y : tensor<i32>, tensor<256x16xf32>
    }
    return %r#1 : tensor<256x16xf32>
  }

  func.func private @nested(%x: tensor<1024xf32>) -> tensor<1024xf32> {
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %zero, %a = %x) : tensor<i32>, tensor<1024xf32>
     cond {
      %three = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %inner:2 = stablehlo.while(%j = %zero, %b = %a) : tensor<i32>, tensor<1024xf32>
       cond {
        %two = stablehlo.constant dense<2> : tensor<i32>
        %q = stablehlo.compare LT, %j, %two : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q : tensor<i1>
      } do {
        %s = partir_hlo.all_reduce "sum" ["A"] %b : tensor<1024xf32>
        %one = stablehlo.constant dense<1> : tensor<i32>
        %nj = stablehlo.add %j, %one : tensor<i32>
        stablehlo.return %nj, %s : tensor<i32>, tensor<1024xf32>
      }
      %one = stablehlo.constant dense<1> : tensor<i32>
      %ni = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %ni, %inner#1 : tensor<i32>, tensor<1024xf32>
    }
    return %r#1 : tensor<1024xf32>
  }
}
