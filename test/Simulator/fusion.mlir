// The default fusion model and the roofline (docs/simulator.md, "Fusion"),
// by hand on the unit device (HBM 1e9 B/s: a byte is a nanosecond) and on
// a100. Every 1024xf32 and 64x16xf32 tensor is 4096 B, 64xf32 256 B.
//
// @chain: a = exp(x) and b = -a have one reader each and are fused; the
// fusion of c = b + x reads x once and writes c: 8192 B, 8.192 us, and the
// peak is x + c = 8192 B at #2. With fusion=false every op reads and
// writes: 8192 + 8192 + 12288 = 28672 B, and x, a, b are live at #1
// (12288 B): fusion drops the peak by a buffer.
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=chain json=%t.chain.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=CHAIN < %t.chain.json
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=chain fusion=false json=%t.chain-unfused.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=CHAIN-UNFUSED < %t.chain-unfused.json
// CHAIN:      "step_time_s": 8.192e-06,
// CHAIN:      "peak_memory_bytes": 8192,
// CHAIN:      "memory_traffic_bytes": 8192,
// CHAIN:      "peak_memory_op_index": 2,
// CHAIN-UNFUSED:      "step_time_s": 2.8672e-05,
// CHAIN-UNFUSED:      "peak_memory_bytes": 12288,
// CHAIN-UNFUSED:      "memory_traffic_bytes": 28672,
// CHAIN-UNFUSED:      "peak_memory_op_index": 1,
//
// @epilogue: exp fuses into the reduce (input fusion) and the reduce into
// its single elementwise reader of its shape (the epilogue): one fusion
// reads x and the init (4 B) and writes n: 4356 B; the peak is x, the init
// and n at #3.
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=epilogue json=%t.epilogue.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=EPILOGUE < %t.epilogue.json
// EPILOGUE:      "step_time_s": 4.356e-06,
// EPILOGUE:      "peak_memory_bytes": 4356,
// EPILOGUE:      "memory_traffic_bytes": 4356,
//
// @no_epilogue: a reduce read through a broadcast is no epilogue (the
// reader does not have its shape): r is written (4096 + 4 + 256 B), and
// the subtract's fusion (the broadcast inside) reads x and r and writes d
// (4096 + 256 + 4096 B): 12804 B.
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=no_epilogue json=%t.no-epilogue.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=NO-EPILOGUE < %t.no-epilogue.json
// NO-EPILOGUE:      "step_time_s": 1.2804e-05,
// NO-EPILOGUE:      "peak_memory_bytes": 8448,
// NO-EPILOGUE:      "memory_traffic_bytes": 12804,
//
// A value read by two ops: a cheap producer (negate) is duplicated into
// both fusions, each reading x and writing its result (2 x 8192 B; peak x,
// p, q = 12288 B); an expensive one (exp) is written once and read by both
// (8192 + 12288 + 8192 = 28672 B; peak x, c, p, q = 16384 B).
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=duplicated json=%t.dup.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=DUP < %t.dup.json
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=not_duplicated json=%t.nodup.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=NODUP < %t.nodup.json
// DUP:      "peak_memory_bytes": 12288,
// DUP:      "memory_traffic_bytes": 16384,
// NODUP:      "peak_memory_bytes": 16384,
// NODUP:      "memory_traffic_bytes": 28672,
//
// Duplication moves no more bytes than storing ((n - 1) x inputs <=
// (n + 1) x result for n readers). @wide_duplicated: s = x + y, read by two
// ops: duplicated (8192 <= 12288), each fusion reads x and y and writes
// its result: 2 x 12288 = 24576 B. @wide_stored: s = (x + y) + z read by
// three ops (2 x 12288 > 4 x 4096): s is written once (12288 + 4096) and
// read by each (3 x 8192): 40960 B, where duplicating would move 49152 B.
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=wide_duplicated json=%t.wdup.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=WIDE-DUP < %t.wdup.json
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=wide_stored json=%t.wstored.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=WIDE-STORED < %t.wstored.json
// WIDE-DUP:      "peak_memory_bytes": 16384,
// WIDE-DUP:      "memory_traffic_bytes": 24576,
// WIDE-STORED:      "peak_memory_bytes": 28672,
// WIDE-STORED:      "memory_traffic_bytes": 40960,
//
// The scan pattern. @slice_view: a dynamic_slice of one [64, 16] layer of
// a [4, 64, 16] stack is contiguous, a view: the dot reads it (4096 B)
// and w (1024 B) and writes 4096 B: 9216 B; the peak is the arguments and
// the result (21508 B). With fusion=false the slice is a copy (+8196 B
// moved, +4096 B live). @update_written: the update (a view of the dot's
// result) is read by the dynamic_update_slice only, so the dot writes it
// into the donated stack's slot and the update op moves only its indices
// (8 B): 9224 B, against 17416 B when it copies the update in.
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=slice_view json=%t.view.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=VIEW < %t.view.json
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=slice_view fusion=false json=%t.view-copy.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=VIEW-COPY < %t.view-copy.json
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json function=update_written json=%t.written.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=WRITTEN < %t.written.json
// VIEW:      "step_time_s": 9.216e-06,
// VIEW:      "peak_memory_bytes": 21508,
// VIEW:      "memory_traffic_bytes": 9216,
// VIEW-COPY:      "peak_memory_bytes": 25604,
// VIEW-COPY:      "memory_traffic_bytes": 17416,
// WRITTEN:      "memory_traffic_bytes": 9224,
//
// The roofline per element type on a100: a 1024x128 by 128x1024 dot is
// 268435456 FLOPs. In f32 it is compute-bound: 268435456 / 19.5e12 =
// 13.766 us (its 5242880 B take 3.37 us). In bf16 the FLOPs take 0.86 us
// at 312 TF, and its 2621440 B take 2621440 / 1.555e12 = 1.686 us: it is
// memory-bound.
// RUN: toast-opt %s --partir-simulate="device=a100 function=dot_f32 json=%t.f32.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=F32 < %t.f32.json
// RUN: toast-opt %s --partir-simulate="device=a100 function=dot_bf16 json=%t.bf16.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=BF16 < %t.bf16.json
// F32:      "step_time_s": 1.37659208205e-05,
// F32:      "memory_traffic_bytes": 5242880,
// BF16:      "step_time_s": 1.68581350482e-06,
// BF16:      "memory_traffic_bytes": 2621440,

func.func @chain(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %a = stablehlo.exponential %x : tensor<1024xf32>
  %b = stablehlo.negate %a : tensor<1024xf32>
  %c = stablehlo.add %b, %x : tensor<1024xf32>
  return %c : tensor<1024xf32>
}

func.func private @epilogue(%x: tensor<64x16xf32>) -> tensor<64xf32> {
  %e = stablehlo.exponential %x : tensor<64x16xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %r = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<64x16xf32>, tensor<f32>) -> tensor<64xf32>
  %n = stablehlo.negate %r : tensor<64xf32>
  return %n : tensor<64xf32>
}

func.func private @no_epilogue(%x: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %r = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<64x16xf32>, tensor<f32>) -> tensor<64xf32>
  %b = stablehlo.broadcast_in_dim %r, dims = [0] : (tensor<64xf32>) -> tensor<64x16xf32>
  %d = stablehlo.subtract %x, %b : tensor<64x16xf32>
  return %d : tensor<64x16xf32>
}

func.func private @duplicated(%x: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<1024xf32>) {
  %c = stablehlo.negate %x : tensor<1024xf32>
  %p = stablehlo.add %c, %x : tensor<1024xf32>
  %q = stablehlo.multiply %c, %c : tensor<1024xf32>
  return %p, %q : tensor<1024xf32>, tensor<1024xf32>
}

func.func private @not_duplicated(%x: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<1024xf32>) {
  %c = stablehlo.exponential %x : tensor<1024xf32>
  %p = stablehlo.add %c, %x : tensor<1024xf32>
  %q = stablehlo.multiply %c, %c : tensor<1024xf32>
  return %p, %q : tensor<1024xf32>, tensor<1024xf32>
}

func.func private @dot_f32(%a: tensor<1024x128xf32>, %b: tensor<128x1024xf32>) -> tensor<1024x1024xf32> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1024x128xf32>, tensor<128x1024xf32>) -> tensor<1024x1024xf32>
  return %d : tensor<1024x1024xf32>
}

func.func private @dot_bf16(%a: tensor<1024x128xbf16>, %b: tensor<128x1024xbf16>) -> tensor<1024x1024xbf16> {
  %d = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1024x128xbf16>, tensor<128x1024xbf16>) -> tensor<1024x1024xbf16>
  return %d : tensor<1024x1024xbf16>
}

func.func private @wide_duplicated(%x: tensor<1024xf32>, %y: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<1024xf32>) {
  %s = stablehlo.add %x, %y : tensor<1024xf32>
  %p = stablehlo.negate %s : tensor<1024xf32>
  %q = stablehlo.abs %s : tensor<1024xf32>
  return %p, %q : tensor<1024xf32>, tensor<1024xf32>
}

func.func private @wide_stored(%x: tensor<1024xf32>, %y: tensor<1024xf32>, %z: tensor<1024xf32>) -> (tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>) {
  %t = stablehlo.add %x, %y : tensor<1024xf32>
  %s = stablehlo.add %t, %z : tensor<1024xf32>
  %p = stablehlo.negate %s : tensor<1024xf32>
  %q = stablehlo.abs %s : tensor<1024xf32>
  %r = stablehlo.multiply %s, %s : tensor<1024xf32>
  return %p, %q, %r : tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>
}

func.func private @slice_view(%stack: tensor<4x64x16xf32>, %w: tensor<16x16xf32>, %i: tensor<i32>) -> tensor<64x16xf32> {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %s = stablehlo.dynamic_slice %stack, %i, %z, %z, sizes = [1, 64, 16] : (tensor<4x64x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x16xf32>
  %m = stablehlo.reshape %s : (tensor<1x64x16xf32>) -> tensor<64x16xf32>
  %d = stablehlo.dot_general %m, %w, contracting_dims = [1] x [0] : (tensor<64x16xf32>, tensor<16x16xf32>) -> tensor<64x16xf32>
  return %d : tensor<64x16xf32>
}

func.func private @update_written(%stack: tensor<4x64x16xf32> {jax.buffer_donor = true}, %a: tensor<64x16xf32>, %w: tensor<16x16xf32>, %i: tensor<i32>) -> tensor<4x64x16xf32> {
  %z = stablehlo.constant dense<0> : tensor<i32>
  %d = stablehlo.dot_general %a, %w, contracting_dims = [1] x [0] : (tensor<64x16xf32>, tensor<16x16xf32>) -> tensor<64x16xf32>
  %u = stablehlo.reshape %d : (tensor<64x16xf32>) -> tensor<1x64x16xf32>
  %r = stablehlo.dynamic_update_slice %stack, %u, %i, %z, %z : (tensor<4x64x16xf32>, tensor<1x64x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x64x16xf32>
  return %r : tensor<4x64x16xf32>
}
