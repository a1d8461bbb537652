// Donated arguments: a result that updates a parameter reuses its buffer
// when the program says so (`tf.aliasing_output = N` on the argument names
// result N; `jax.buffer_donor = true` takes the first result of the same
// type) or `donate=true` donates every argument whose type matches a
// result. A donated argument dies after its last use instead of living to
// the end, and the result is written into it. Unit device.
//
// @step: p, g 256xf32 (1024 B each); d = exp(g) (1024 B); n = p - d is
// returned. Without donation the arguments live throughout: at the
// subtract p + g + d + n = 4096 B. With p donated to n, the subtract is
// p's last use and writes n into p's buffer: p + g + d = 3072 B. The peak
// drops by the parameter's 1024 B.
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=file:%S/Inputs/unit-device.json function=step json=%t.step.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=KEPT < %t.step.json
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=file:%S/Inputs/unit-device.json function=step donate=true json=%t.donate.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=DONATED < %t.donate.json
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=file:%S/Inputs/unit-device.json function=aliased json=%t.aliased.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=DONATED < %t.aliased.json
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=file:%S/Inputs/unit-device.json function=donor json=%t.donor.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=DONATED < %t.donor.json
// KEPT:     "peak_memory_bytes": 4096,
// DONATED:  "peak_memory_bytes": 3072,
//
// @late: p is donated to n but read after n is written (m = n * p): the
// result cannot take p's buffer there, so p stays to the end (XLA copies n
// into it) and nothing is saved: p + g + d + n = 4096 B at the subtract,
// p + g + n + m = 4096 B at the multiply.
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=file:%S/Inputs/unit-device.json function=late json=%t.late.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=KEPT < %t.late.json
//
// @in_place: a donated parameter updated by a dynamic_update_slice: the
// update is p's last use, so it writes p in place and the result is p's
// buffer. Arguments p 1024 B, u 64 B, i 4 B: 1092 B (kept, the result
// would be a copy: 2116 B).
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=file:%S/Inputs/unit-device.json function=in_place json=%t.inplace.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=INPLACE < %t.inplace.json
// INPLACE:  "peak_memory_bytes": 1092,

func.func @step(%p: tensor<256xf32>, %g: tensor<256xf32>) -> tensor<256xf32> {
  %d = stablehlo.exponential %g : tensor<256xf32>
  %n = stablehlo.subtract %p, %d : tensor<256xf32>
  return %n : tensor<256xf32>
}

func.func @aliased(%p: tensor<256xf32> {tf.aliasing_output = 0 : i32}, %g: tensor<256xf32>) -> tensor<256xf32> {
  %d = stablehlo.exponential %g : tensor<256xf32>
  %n = stablehlo.subtract %p, %d : tensor<256xf32>
  return %n : tensor<256xf32>
}

func.func @donor(%p: tensor<256xf32> {jax.buffer_donor = true}, %g: tensor<256xf32>) -> tensor<256xf32> {
  %d = stablehlo.exponential %g : tensor<256xf32>
  %n = stablehlo.subtract %p, %d : tensor<256xf32>
  return %n : tensor<256xf32>
}

func.func @late(%p: tensor<256xf32> {tf.aliasing_output = 0 : i32}, %g: tensor<256xf32>) -> (tensor<256xf32>, tensor<256xf32>) {
  %d = stablehlo.exponential %g : tensor<256xf32>
  %n = stablehlo.subtract %p, %d : tensor<256xf32>
  %m = stablehlo.multiply %n, %p : tensor<256xf32>
  return %n, %m : tensor<256xf32>, tensor<256xf32>
}

func.func @in_place(%p: tensor<256xf32> {jax.buffer_donor = true}, %u: tensor<16xf32>, %i: tensor<i32>) -> tensor<256xf32> {
  %r = stablehlo.dynamic_update_slice %p, %u, %i : (tensor<256xf32>, tensor<16xf32>, tensor<i32>) -> tensor<256xf32>
  return %r : tensor<256xf32>
}
