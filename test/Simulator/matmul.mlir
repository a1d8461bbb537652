// A single matmul, priced by hand.
//
// f32 [256x8] x [8x16]: 2 * 256*16 (result) * 8 (contracted) = 65536 FLOPs.
//   a100 (f32 19.5e12 FLOP/s): 65536 / 19.5e12 = 3.36082051282e-09 s
//   unit (f32 1e12):           65536 / 1e12    = 6.5536e-08 s
// Memory: arguments 256*8*4 + 8*16*4 = 8704 B live throughout, plus the
// 256*16*4 = 16384 B result at the dot: peak 25088 B at the dot (op #0).
// The floor is the same: after the dot, the arguments and the returned
// result (an op's operands and results count between ops too when they are
// read later or returned).
// Memory-bound (roofline) on unit: the dot moves 8192 + 512 + 16384 = 25088
// B through HBM at 1e9 B/s = 2.5088e-05 s > 6.5536e-08 s of compute.
//
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=a100 json=%t.a100.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=A100 < %t.a100.json
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=file:%S/Inputs/unit-device.json json=%t.unit.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=UNIT < %t.unit.json
// RUN: toast-opt %s --partir-simulate="fusion=false device=file:%S/Inputs/unit-device.json memory-bound=true json=%t.mb.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=MB < %t.mb.json
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=a100 function=bf16 json=%t.bf16.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=BF16 < %t.bf16.json
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=a100" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SUMMARY

// A100:      "step_time_s": 3.36082051282e-09,
// A100-NEXT: "compute_time_s": 3.36082051282e-09,
// A100-NEXT: "comm_time_s": 0,
// A100-NEXT: "flops": 65536,
// A100-NEXT: "comm_bytes": 0,
// A100-NEXT: "peak_memory_bytes": 25088,
// A100-NEXT: "memory_floor_bytes": 25088,
// A100-NEXT: "collectives": {
// A100-NEXT:   "all_gather": 0,
// A100-NEXT:   "all_reduce": 0,
// A100-NEXT:   "reduce_scatter": 0,
// A100-NEXT:   "all_to_all": 0,
// A100:      "device": "a100",
// A100:      "argument_bytes": 8704,
// A100-NEXT: "peak_memory_op": "stablehlo.dot_general",
// A100:      "peak_memory_op_index": 0,
// A100-NEXT: "device_memory_bytes": 42949672960,
// A100-NEXT: "fits_in_memory": true,

// UNIT:      "step_time_s": 6.5536e-08,
// UNIT-NEXT: "compute_time_s": 6.5536e-08,
// UNIT:      "device": "unit",

// MB:        "step_time_s": 2.5088e-05,
// MB-NEXT:   "compute_time_s": 2.5088e-05,
// MB:        "memory_traffic_bytes": 25088,

// bf16: the same shapes at a100's 312e12 bf16 FLOP/s, half the bytes.
// BF16:      "step_time_s": 2.10051282051e-10,
// BF16:      "flops": 65536,
// BF16:      "peak_memory_bytes": 12544,
// BF16:      "function": "bf16",

// SUMMARY: === partir-simulate: @main on a100 (1 ops) ===
// SUMMARY: step time      : 3.361 ns (compute 3.361 ns, communication 0 s)
// SUMMARY: peak memory    : 24.50 KiB (25088 B) of 40.00 GiB (42949672960 B) (0.0%) at op #0 stablehlo.dot_general
// SUMMARY: memory floor   : 24.50 KiB (25088 B) (peak / floor = 1.00), arguments 8.50 KiB (8704 B), after op #0 stablehlo.dot_general
// SUMMARY: collectives    : all_gather=0 all_reduce=0 reduce_scatter=0 all_to_all=0

module {
  func.func @main(%x: tensor<256x8xf32>, %w: tensor<8x16xf32>) -> tensor<256x16xf32> {
    %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<256x8xf32>, tensor<8x16xf32>) -> tensor<256x16xf32>
    return %y : tensor<256x16xf32>
  }
  func.func private @bf16(%x: tensor<256x8xbf16>, %w: tensor<8x16xbf16>) -> tensor<256x16xbf16> {
    %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<256x8xbf16>, tensor<8x16xbf16>) -> tensor<256x16xbf16>
    return %y : tensor<256x16xbf16>
  }
}
