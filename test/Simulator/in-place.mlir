// In-place updates: a dynamic_update_slice or scatter writes into its
// operand's buffer when the update is that buffer's last use (XLA's
// in-place updates). The result then takes no memory of its own, and in
// memory-bound mode the op moves only the slice it updates: it reads the
// update (and the indices) and writes the slice, not the whole buffer.
// Otherwise the result is a new buffer (XLA copies the operand first).
// Unit device: HBM 1e9 B/s.
//
// @dus: x 256xf32 (1024 B), u 16xf32 (64 B), i (4 B): arguments 1092 B
// live throughout. a = exp(x) (1024 B); r = dus(a, u, i) is a's last use,
// so r is a, updated in place: peak 1092 + 1024 = 2116 B (a copy would make
// it 3140 B). Memory-bound: exp moves 1024 + 1024 B; the update reads u
// (64 B) and i (4 B) and writes 64 B: 2048 + 132 = 2180 B, 2.18e-06 s.
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=dus memory-bound=true json=%t.dus.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=DUS < %t.dus.json
// DUS:      "step_time_s": 2.18e-06,
// DUS:      "peak_memory_bytes": 2116,
// DUS:      "memory_traffic_bytes": 2180,
//
// @dus_keep: a is returned too, so the update cannot overwrite it: r is a
// copy, 3140 B, and the update moves a (1024 B), u, i and r (1024 B):
// 2048 + 2116 = 4164 B.
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=dus_keep memory-bound=true json=%t.keep.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=KEEP < %t.keep.json
// KEEP:     "step_time_s": 4.164e-06,
// KEEP:     "peak_memory_bytes": 3140,
// KEEP:     "memory_traffic_bytes": 4164,
//
// @dus_arg: the operand is an argument of the entry function, which the
// caller keeps (no donation): r is a new buffer, 1092 + 1024 = 2116 B.
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=dus_arg memory-bound=true json=%t.arg.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=ARG < %t.arg.json
// ARG:      "peak_memory_bytes": 2116,
// ARG:      "memory_traffic_bytes": 2116,
//
// @scatter: x 256xf32 (1024 B), indices 4x1xi32 (16 B), updates 4xf32
// (16 B): arguments 1056 B; a = exp(x) (1024 B) updated in place: peak
// 2080 B (a copy: 3104 B). Memory-bound: 2048 + indices 16 + updates 16 +
// written slice 16 = 2096 B.
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=scatter memory-bound=true json=%t.scatter.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=SCATTER < %t.scatter.json
// SCATTER:  "step_time_s": 2.096e-06,
// SCATTER:  "peak_memory_bytes": 2080,
// SCATTER:  "memory_traffic_bytes": 2096,
//
// @scan_stack: a scan that saves each step's activation into a carried
// [4, 8, 64] stack (8192 B), as a scanned training step saves residuals.
// The loop is the last reader of the stack's init (a broadcast), so the
// carry shares it; in the body, the update is the carry's last use, so it
// writes the stack in place. Ops: c0 (4 B), z (4 B), st0 = broadcast z
// (8192 B), h0 = exp(x) (2048 B); cond: 4, compare; body: zz (4 B),
// e = exp(h) (2048 B), v = reshape e (a view), s2 = dus(s, v, i, zz, zz),
// one (4 B), i2 = add(i, one) (4 B). Peak at the add: x 2048 + counter 4 +
// stack 8192 + h 2048 + e 2048 + one 4 + i2 4 = 14348 B. (With s2 a new
// buffer the stack was held twice: 22540 B.)
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=scan_stack json=%t.scan.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=SCAN < %t.scan.json
// SCAN:     "peak_memory_bytes": 14348,
// SCAN:     "peak_memory_op": "stablehlo.add",

func.func @dus(%x: tensor<256xf32>, %u: tensor<16xf32>, %i: tensor<i32>) -> tensor<256xf32> {
  %a = stablehlo.exponential %x : tensor<256xf32>
  %r = stablehlo.dynamic_update_slice %a, %u, %i : (tensor<256xf32>, tensor<16xf32>, tensor<i32>) -> tensor<256xf32>
  return %r : tensor<256xf32>
}
func.func @dus_keep(%x: tensor<256xf32>, %u: tensor<16xf32>, %i: tensor<i32>) -> (tensor<256xf32>, tensor<256xf32>) {
  %a = stablehlo.exponential %x : tensor<256xf32>
  %r = stablehlo.dynamic_update_slice %a, %u, %i : (tensor<256xf32>, tensor<16xf32>, tensor<i32>) -> tensor<256xf32>
  return %r, %a : tensor<256xf32>, tensor<256xf32>
}
func.func @dus_arg(%x: tensor<256xf32>, %u: tensor<16xf32>, %i: tensor<i32>) -> tensor<256xf32> {
  %r = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<256xf32>, tensor<16xf32>, tensor<i32>) -> tensor<256xf32>
  return %r : tensor<256xf32>
}
func.func @scatter(%x: tensor<256xf32>, %idx: tensor<4x1xi32>, %upd: tensor<4xf32>) -> tensor<256xf32> {
  %a = stablehlo.exponential %x : tensor<256xf32>
  %r = "stablehlo.scatter"(%a, %idx, %upd) ({
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = stablehlo.add %p, %q : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<256xf32>, tensor<4x1xi32>, tensor<4xf32>) -> tensor<256xf32>
  return %r : tensor<256xf32>
}

func.func @scan_stack(%x: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<4x8x64xf32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %st0 = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<4x8x64xf32>
  %h0 = stablehlo.exponential %x : tensor<8x64xf32>
  %r:3 = stablehlo.while(%i = %c0, %h = %h0, %s = %st0) : tensor<i32>, tensor<8x64xf32>, tensor<4x8x64xf32>
   cond {
    %n = stablehlo.constant dense<4> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %zz = stablehlo.constant dense<0> : tensor<i32>
    %e = stablehlo.exponential %h : tensor<8x64xf32>
    %v = stablehlo.reshape %e : (tensor<8x64xf32>) -> tensor<1x8x64xf32>
    %s2 = stablehlo.dynamic_update_slice %s, %v, %i, %zz, %zz : (tensor<4x8x64xf32>, tensor<1x8x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x8x64xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i2, %e, %s2 : tensor<i32>, tensor<8x64xf32>, tensor<4x8x64xf32>
  }
  return %r#1, %r#2 : tensor<8x64xf32>, tensor<4x8x64xf32>
}
