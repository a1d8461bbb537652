// Loops as jax.lax.scan exports them: the layers' weights stacked on a
// leading [L] dimension and carried through a stablehlo.while whose body
// slices layer i. XLA runs a while in place, so a carried value has one
// buffer: the body's block argument, the result and (when the loop never
// writes it, or is the last reader of its init) the init share it.
// Unit device: f32 1e12 FLOP/s, links 1e9 B/s and 1e-6 s per step.
//
// @scan: x 8x64xf32 (2048 B), stack w 4x64x64xf32 (65536 B); h0 = exp(x);
// while (i = 0, h = h0, a = w), 4 trips: s = dynamic_slice a[i] (1x64x64,
// 16384 B), m = reshape s (a view), u = dot(h, m) (8x64, 2048 B), yields
// (i + 1, u, a). The stack is passed through: it shares w's buffer. h0's
// last reader is the loop: h shares h0's buffer; the counter shares the
// constant's. Peak at the dot: x 2048 + w 65536 + counter 4 + h 2048 +
// s 16384 + u 2048 = 88068 B. (Counting operands and results apart, as
// the simulator did before, put the peak at the while with the stack
// twice: 139276 B.) FLOPs: 4 trips x 2*8*64*64 = 262144.
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=file:%S/Inputs/unit-device.json function=scan json=%t.scan.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=SCAN < %t.scan.json
//
// @scan_keep: the same loop, but h0 is read again after it (returned
// h + h0): the loop cannot write h0's buffer, so h is a copy made when the
// loop starts (XLA's copy insertion), 2048 B more: 90116 B at the dot.
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=file:%S/Inputs/unit-device.json function=scan_keep json=%t.keep.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=KEEP < %t.keep.json
//
// @nested: an outer loop (2 trips) carries h (8x64xf32, 2048 B, from
// h0 = exp(x)) into an inner loop (3 trips) that updates it (u = dot(g, w),
// w 64x64xf32 = 16384 B); the outer body yields the inner result. The
// inner loop is the last reader of the outer carry's value in the body, so
// it updates it in place: h0, both carries and both results are one
// buffer. The counters share their constants. Peak at the inner body's
// add (op #9): x 2048 + w 16384 + h 2048 + u 2048 + the outer counter, the
// inner counter, the constant 1 and the new counter (4 B each) = 22544 B
// (a copy for the inner carry would add 2048).
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=file:%S/Inputs/unit-device.json function=nested json=%t.nested.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=NESTED < %t.nested.json
//
// @fsdp: the stack is sharded on A=2 (4x32x64 per device); every
// iteration all-gathers its layer (64x64xf32, R = 16384 B: 1 step,
// 8192 B sent, 1e-6 + 8192/1e9 = 9.192e-06 s). 4 trips: 4 all_gathers,
// 3.6768e-05 s, 32768 B; compute 4 x 65536 / 1e12 = 2.62144e-07 s; step
// 3.7030144e-05 s.
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=file:%S/Inputs/unit-device.json function=fsdp json=%t.fsdp.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=FSDP < %t.fsdp.json

// SCAN:      "flops": 262144,
// SCAN:      "peak_memory_bytes": 88068,
// SCAN:      "uncounted_loops": 0,
// SCAN:      "peak_memory_op": "stablehlo.dot_general",

// KEEP:      "peak_memory_bytes": 90116,
// KEEP:      "peak_memory_op": "stablehlo.dot_general",

// NESTED:      "flops": 393216,
// NESTED:      "peak_memory_bytes": 22544,
// NESTED:      "peak_memory_op": "stablehlo.add",
// NESTED:      "peak_memory_op_index": 9,

// FSDP:      "step_time_s": 3.7030144e-05,
// FSDP-NEXT: "compute_time_s": 2.62144e-07,
// FSDP-NEXT: "comm_time_s": 3.6768e-05,
// FSDP-NEXT: "flops": 262144,
// FSDP-NEXT: "comm_bytes": 32768,
// FSDP:        "all_gather": 4,
// FSDP-NEXT:   "all_reduce": 0,

module attributes {partir.mesh = #partir.mesh<["A"=2]>} {
  func.func private @scan(%x: tensor<8x64xf32>, %w: tensor<4x64x64xf32>) -> tensor<8x64xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %h0 = stablehlo.exponential %x : tensor<8x64xf32>
    %r:3 = stablehlo.while(%i = %c0, %h = %h0, %a = %w) : tensor<i32>, tensor<8x64xf32>, tensor<4x64x64xf32>
     cond {
      %n = stablehlo.constant dense<4> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %s = stablehlo.dynamic_slice %a, %i, %z, %z, sizes = [1, 64, 64] : (tensor<4x64x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x64xf32>
      %m = stablehlo.reshape %s : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
      %u = stablehlo.dot_general %h, %m, contracting_dims = [1] x [0] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next, %u, %a : tensor<i32>, tensor<8x64xf32>, tensor<4x64x64xf32>
    }
    return %r#1 : tensor<8x64xf32>
  }

  func.func private @scan_keep(%x: tensor<8x64xf32>, %w: tensor<4x64x64xf32>) -> tensor<8x64xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %h0 = stablehlo.exponential %x : tensor<8x64xf32>
    %r:3 = stablehlo.while(%i = %c0, %h = %h0, %a = %w) : tensor<i32>, tensor<8x64xf32>, tensor<4x64x64xf32>
     cond {
      %n = stablehlo.constant dense<4> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %s = stablehlo.dynamic_slice %a, %i, %z, %z, sizes = [1, 64, 64] : (tensor<4x64x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x64xf32>
      %m = stablehlo.reshape %s : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
      %u = stablehlo.dot_general %h, %m, contracting_dims = [1] x [0] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next, %u, %a : tensor<i32>, tensor<8x64xf32>, tensor<4x64x64xf32>
    }
    %sum = stablehlo.add %r#1, %h0 : tensor<8x64xf32>
    return %sum : tensor<8x64xf32>
  }

  func.func private @nested(%x: tensor<8x64xf32>, %w: tensor<64x64xf32>) -> tensor<8x64xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %h0 = stablehlo.exponential %x : tensor<8x64xf32>
    %r:2 = stablehlo.while(%i = %c0, %h = %h0) : tensor<i32>, tensor<8x64xf32>
     cond {
      %two = stablehlo.constant dense<2> : tensor<i32>
      %p = stablehlo.compare LT, %i, %two : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %inner:2 = stablehlo.while(%j = %z, %g = %h) : tensor<i32>, tensor<8x64xf32>
       cond {
        %three = stablehlo.constant dense<3> : tensor<i32>
        %q = stablehlo.compare LT, %j, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q : tensor<i1>
      } do {
        %u = stablehlo.dot_general %g, %w, contracting_dims = [1] x [0] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
        %one = stablehlo.constant dense<1> : tensor<i32>
        %nj = stablehlo.add %j, %one : tensor<i32>
        stablehlo.return %nj, %u : tensor<i32>, tensor<8x64xf32>
      }
      %one = stablehlo.constant dense<1> : tensor<i32>
      %ni = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %ni, %inner#1 : tensor<i32>, tensor<8x64xf32>
    }
    return %r#1 : tensor<8x64xf32>
  }

  func.func private @fsdp(%x: tensor<8x64xf32>, %w: tensor<4x32x64xf32>) -> tensor<8x64xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:3 = stablehlo.while(%i = %c0, %h = %x, %a = %w) : tensor<i32>, tensor<8x64xf32>, tensor<4x32x64xf32>
     cond {
      %n = stablehlo.constant dense<4> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %s = stablehlo.dynamic_slice %a, %i, %z, %z, sizes = [1, 32, 64] : (tensor<4x32x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x32x64xf32>
      %m = stablehlo.reshape %s : (tensor<1x32x64xf32>) -> tensor<32x64xf32>
      %g = partir_hlo.all_gather [{"A"}, {}] %m : tensor<32x64xf32> -> tensor<64x64xf32>
      %u = stablehlo.dot_general %h, %g, contracting_dims = [1] x [0] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next, %u, %a : tensor<i32>, tensor<8x64xf32>, tensor<4x32x64xf32>
    }
    return %r#1 : tensor<8x64xf32>
  }
}
