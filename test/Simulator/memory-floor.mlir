// The memory floor by hand (docs/simulator.md, "Memory floor"). The floor
// counts, at each point between two ops, the buffers defined before the
// point and read after it (arguments the caller keeps and returned values
// up to the end), and leaves out single-use fusible intermediates and what
// a backend recomputes where it is read (here: splat constants).
//
// @main is a tiny training step: a linear model z = x . w, the squared
// error against y, and one SGD update of w. Sizes: w 16x8 = 512 B,
// x 32x16 = 2048 B, y 32x8 = 1024 B (arguments 3584 B); z, d, sq, two,
// g_z 32x8 = 1024 B; g_w, lr, upd, w_new 16x8 = 512 B; zero, loss 4 B.
// The fusion rule (docs/simulator.md, "Fusion") fuses d (a cheap
// subtract, duplicated into its two readers), sq (into the reduce) and
// upd (into w_new); fused, d's readers read z and y instead.
//
//   op  value                      last read   counted at points
//   #0  z    = x . w               #6          1..6  (read by d's copies)
//   #1  d    = z - y               -           never (fusible)
//   #2  sq   = d * d               -           never (fusible)
//   #3  zero (splat constant)      #4          never (recomputed)
//   #4  loss = sum(sq)             returned    5..11
//   #5  two  (splat constant)      #6          never (recomputed)
//   #6  g_z  = two * d             #7          7
//   #7  g_w  = x^T . g_z           #10         8..10 (read by w_new)
//   #8  lr   (splat constant)      #10         never (recomputed)
//   #9  upd  = lr * g_w            -           never (fusible)
//   #10 w_new = w - upd            returned    11
//
// Point c lies after op c-1. The arguments (3584 B) are counted at every
// point. On top of them: points 1..4: z = 1024; 5 and 6: z + loss = 1028
// (the floor, first reached after op #4); 7: g_z + loss = 1028; 8..10:
// g_w + loss = 516; 11: w_new + loss = 516. Floor = 3584 + 1028 = 4612 B,
// arguments 3584 B.
//
// The peak counts both the operands and the results of each op: at #6,
// arguments + z + loss + g_z = 3584 + 1024 + 4 + 1024 = 5636 B (peak /
// floor = 1.22); `two`, a splat constant, is computed inside g_z's fusion
// like a broadcast of a scalar (XLA rewrites it so) and has no buffer.
// RUN: toast-opt %s --partir-simulate="device=a100 json=%t.json" -o /dev/null 2> %t.summary
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.summary
// JSON:      "peak_memory_bytes": 5636,
// JSON-NEXT: "memory_floor_bytes": 4612,
// JSON:      "peak_memory_op_index": 6,
// JSON:      "memory_overflow_bytes": 0,
// JSON-NEXT: "memory_floor_argument_bytes": 3584,
// JSON-NEXT: "memory_floor_op": "stablehlo.reduce",
// JSON-NEXT: "memory_floor_loc": "loc(\"{{.*}}memory-floor.mlir\":[[#@LINE+67]]:11)",
// JSON-NEXT: "memory_floor_op_index": 4,
// SUMMARY: peak memory    : 5.50 KiB (5636 B) of 40.00 GiB
// SUMMARY-NEXT: memory floor   : 4.50 KiB (4612 B) (peak / floor = 1.22), arguments 3.50 KiB (3584 B), after op #4 stablehlo.reduce loc({{.*}}memory-floor.mlir"
//
// fusion=false materializes everything (`two` too: 6660 B at #6), and the
// fused values' readers no longer keep z alive: the floor leaves the fusible values out all the
// same, and is first reached at point 7 (g_z + loss).
// RUN: toast-opt %s --partir-simulate="device=a100 fusion=false json=%t.unfused.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=UNFUSED < %t.unfused.json
// UNFUSED:      "peak_memory_bytes": 6660,
// UNFUSED-NEXT: "memory_floor_bytes": 4612,
// UNFUSED:      "memory_floor_op_index": 6,
//
// donate=true donates w to w_new (same type): w dies at #10, its last
// read, and w_new is written into it. The floor at point 11 becomes
// 3584 + loss = 3588, below 4612, so neither number moves.
// RUN: toast-opt %s --partir-simulate="device=a100 donate=true json=%t.donated.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.donated.json
//
// @entry: a program whose floor is at function entry: the arguments
// (a 4096 B, b 1024 B) are all there before the first op, and a, donated
// (`jax.buffer_donor`, no result to take), dies at its last read. The
// slice r is fused into the add, which reads a: the peak is at #1:
// a + b + s = 6144 B; after op #1: b + s = 2048 B.
// RUN: toast-opt %s --partir-simulate="device=a100 function=entry json=%t.entry.json" -o /dev/null 2> %t.entry.summary
// RUN: FileCheck %s --check-prefix=ENTRY < %t.entry.json
// RUN: FileCheck %s --check-prefix=ENTRY-SUMMARY < %t.entry.summary
// ENTRY:      "peak_memory_bytes": 6144,
// ENTRY-NEXT: "memory_floor_bytes": 5120,
// ENTRY:      "memory_floor_argument_bytes": 5120,
// ENTRY-NEXT: "memory_floor_op": "",
// ENTRY-NEXT: "memory_floor_loc": "",
// ENTRY-NEXT: "memory_floor_op_index": -1,
// ENTRY-SUMMARY: memory floor   : 5.00 KiB (5120 B) (peak / floor = 1.20), arguments 5.00 KiB (5120 B), at function entry
//
// @broadcast: a value recomputed from a smaller one counts as that value,
// once. Arguments s 16xf32 = 64 B and x 64x16xf32 = 4096 B (4160 B); every
// other value is 4096 B.
//   #0 v = broadcast(s)   read at #2 and #4: points 1..4, counted as s
//                         (which the caller keeps anyway: nothing more)
//   #1 e = exp(x)         read at #2 and #3: points 2..3
//   #2 a = e + v          one elementwise use: fusible, never counted
//   #3 m = a * e          likewise
//   #4 r = m + v          returned: point 5
// Floor = 4160 + e = 8256 B, first after op #1 (and again at point 5 with
// r). Counting v as a buffer would give 12352 B. Unfused (fusion=false),
// the peak holds s, x, v, e, a and m at #3: 4160 + 4 * 4096 = 20544 B. By
// default v (a broadcast, duplicated into both adds), a and m are fused,
// e is not (an exponential read by two ops is not duplicated): the peak
// is s, x, e and r at #4, 12352 B, and r's fusion reads e and s.
// RUN: toast-opt %s --partir-simulate="fusion=false device=a100 function=broadcast json=%t.bcast.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=BCAST < %t.bcast.json
// RUN: toast-opt %s --partir-simulate="device=a100 function=broadcast json=%t.bcast-fused.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=BCAST-FUSED < %t.bcast-fused.json
// BCAST:      "peak_memory_bytes": 20544,
// BCAST-NEXT: "memory_floor_bytes": 8256,
// BCAST:      "memory_floor_argument_bytes": 4160,
// BCAST:      "memory_floor_op_index": 1,
// BCAST-FUSED:      "peak_memory_bytes": 12352,
// BCAST-FUSED-NEXT: "memory_floor_bytes": 8256,

func.func @main(%w: tensor<16x8xf32>, %x: tensor<32x16xf32>, %y: tensor<32x8xf32>) -> (tensor<f32>, tensor<16x8xf32>) {
  %z = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x8xf32>) -> tensor<32x8xf32>
  %d = stablehlo.subtract %z, %y : tensor<32x8xf32>
  %sq = stablehlo.multiply %d, %d : tensor<32x8xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %loss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<32x8xf32>, tensor<f32>) -> tensor<f32>
  %two = stablehlo.constant dense<2.000000e+00> : tensor<32x8xf32>
  %g_z = stablehlo.multiply %two, %d : tensor<32x8xf32>
  %g_w = stablehlo.dot_general %x, %g_z, contracting_dims = [0] x [0] : (tensor<32x16xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
  %lr = stablehlo.constant dense<1.000000e-02> : tensor<16x8xf32>
  %upd = stablehlo.multiply %lr, %g_w : tensor<16x8xf32>
  %w_new = stablehlo.subtract %w, %upd : tensor<16x8xf32>
  return %loss, %w_new : tensor<f32>, tensor<16x8xf32>
}

func.func private @entry(%a: tensor<1024xf32> {jax.buffer_donor = true}, %b: tensor<256xf32>) -> tensor<256xf32> {
  %r = stablehlo.slice %a [0:256] : (tensor<1024xf32>) -> tensor<256xf32>
  %s = stablehlo.add %r, %b : tensor<256xf32>
  return %s : tensor<256xf32>
}

func.func private @broadcast(%s: tensor<16xf32>, %x: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %v = stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<16xf32>) -> tensor<64x16xf32>
  %e = stablehlo.exponential %x : tensor<64x16xf32>
  %a = stablehlo.add %e, %v : tensor<64x16xf32>
  %m = stablehlo.multiply %a, %e : tensor<64x16xf32>
  %r = stablehlo.add %m, %v : tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}
