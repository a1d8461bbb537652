// Contractions are priced at the device's peak for their element type: the
// operands' when they agree (a bf16 x bf16 -> f32 dot, as JAX emits with
// preferred_element_type=f32, runs on the bf16 units), else the result's.
//
// Every dot is [256x8] x [8x16]: 2 * 256*16 * 8 = 65536 FLOPs. On a100:
//   f32  (19.5e12): 65536 / 19.5e12 = 3.36082051282e-09 s
//   tf32 (156e12, tf32=true): 65536 / 156e12 = 4.20102564103e-10 s
//   bf16, f16 (312e12): 65536 / 312e12 = 2.10051282051e-10 s (16x less
//   than f32)
//   f64  (19.5e12): as f32.
// Bytes follow the element size: the bf16 arguments are 256*8*2 + 8*16*2 =
// 4352 B, and the bf16 result 256*16*2 = 8192 B: peak 12544 B (f32: 25088).
//
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false function=f32 json=%t.f32.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=F32 < %t.f32.json
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false function=f32 tf32=true json=%t.tf32.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=TF32 < %t.tf32.json
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false function=bf16 json=%t.bf16.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=BF16 < %t.bf16.json
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false function=f16 json=%t.f16.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=F16 < %t.f16.json
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false function=f64 json=%t.f64.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=F64 < %t.f64.json
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false function=accumulate_f32 json=%t.acc.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=ACC < %t.acc.json
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false function=mixed_operands json=%t.mixed.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=MIXED < %t.mixed.json
//
// TPUv3 (bf16 and f32 both 123e12: XLA's default precision runs f32 on the
// bf16 MXUs): 65536 / 123e12 = 5.3281300813e-10 s for both.
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=tpuv3 function=f32 json=%t.tpu32.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=TPU < %t.tpu32.json
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=tpuv3 function=bf16 json=%t.tpu16.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=TPU < %t.tpu16.json

// F32:       "step_time_s": 3.36082051282e-09,
// F32:       "peak_memory_bytes": 25088,
// TF32:      "step_time_s": 4.20102564103e-10,
// BF16:      "step_time_s": 2.10051282051e-10,
// BF16:      "peak_memory_bytes": 12544,
// F16:       "step_time_s": 2.10051282051e-10,
// F16:       "peak_memory_bytes": 12544,
// F64:       "step_time_s": 3.36082051282e-09,
// F64:       "peak_memory_bytes": 50176,
// TPU:       "step_time_s": 5.3281300813e-10,

// bf16 operands, f32 result: bf16 peak; arguments 4352 B + f32 result
// 16384 B = 20736 B.
// ACC:       "step_time_s": 2.10051282051e-10,
// ACC:       "peak_memory_bytes": 20736,

// bf16 x f32 operands: the result's type, f32.
// MIXED:     "step_time_s": 3.36082051282e-09,

func.func @f32(%a: tensor<256x8xf32>, %b: tensor<8x16xf32>) -> tensor<256x16xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<256x8xf32>, tensor<8x16xf32>) -> tensor<256x16xf32>
  return %0 : tensor<256x16xf32>
}

func.func @bf16(%a: tensor<256x8xbf16>, %b: tensor<8x16xbf16>) -> tensor<256x16xbf16> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<256x8xbf16>, tensor<8x16xbf16>) -> tensor<256x16xbf16>
  return %0 : tensor<256x16xbf16>
}

func.func @f16(%a: tensor<256x8xf16>, %b: tensor<8x16xf16>) -> tensor<256x16xf16> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<256x8xf16>, tensor<8x16xf16>) -> tensor<256x16xf16>
  return %0 : tensor<256x16xf16>
}

func.func @f64(%a: tensor<256x8xf64>, %b: tensor<8x16xf64>) -> tensor<256x16xf64> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<256x8xf64>, tensor<8x16xf64>) -> tensor<256x16xf64>
  return %0 : tensor<256x16xf64>
}

func.func @accumulate_f32(%a: tensor<256x8xbf16>, %b: tensor<8x16xbf16>) -> tensor<256x16xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<256x8xbf16>, tensor<8x16xbf16>) -> tensor<256x16xf32>
  return %0 : tensor<256x16xf32>
}

func.func @mixed_operands(%a: tensor<256x8xbf16>, %b: tensor<8x16xf32>) -> tensor<256x16xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<256x8xbf16>, tensor<8x16xf32>) -> tensor<256x16xf32>
  return %0 : tensor<256x16xf32>
}
