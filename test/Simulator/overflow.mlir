// A program that does not fit the device, and its batch-parallel version
// that does (unit device: 1000000 B of memory, 1e9 B/s HBM; memory-bound
// pricing so that the elementwise op takes time).
//
// Unpartitioned: x (256x1024xf32, 1048576 B) and exp(x) (1048576 B) are both
// live at the exp: peak 2097152 B > 1000000 B: flagged, overflow 1097152 B.
// Time: (1048576 read + 1048576 written) / 1e9 = 0.002097152 s.
// As its own baseline, MP = C * (peak - DM) / peak = 10 * 1097152 / 2097152
// = 5.23162841797 and C(s) = 1 + MP = 6.23162841797; with penalty=1,
// MP = 0.523162841797.
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json memory-bound=true json=%t.s0.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=S0 < %t.s0.json
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json memory-bound=true penalty=1 json=%t.c1.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=C1 < %t.c1.json
//
// BP over B=4 (x -> 64x1024): peak 2 * 262144 = 524288 B fits; time
// 524288 / 1e9 = 0.000524288 s. Against s0: RT = 1/4, MP = 0.
// RUN: toast-opt %s --partir-schedule=file=%S/Inputs/bp-arg0-x4.json --partir-lower-to-hlo --partir-simulate="device=file:%S/Inputs/unit-device.json memory-bound=true baseline=%t.s0.json json=%t.bp.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=BP < %t.bp.json

// WARN: peak memory    : 2.00 MiB (2097152 B) of 976.56 KiB (1000000 B) (209.7%) at op #0 stablehlo.exponential
// WARN: WARNING        : peak memory exceeds device memory by 1.05 MiB (1097152 B)
// WARN: relative cost  : C = RT + MP = 1.0000 + 5.2316 = 6.2316

// S0:      "step_time_s": 0.002097152,
// S0:      "peak_memory_bytes": 2097152,
// S0:      "device_memory_bytes": 1000000,
// S0-NEXT: "fits_in_memory": false,
// S0-NEXT: "memory_overflow_bytes": 1097152,
// S0:      "relative_cost": {
// S0-NEXT:   "rt": 1,
// S0-NEXT:   "mp": 5.23162841797,
// S0-NEXT:   "cost": 6.23162841797,
// S0-NEXT:   "penalty": 10

// C1:      "mp": 0.523162841797,
// C1-NEXT: "cost": 1.5231628418,
// C1-NEXT: "penalty": 1

// BP:      "step_time_s": 0.000524288,
// BP:      "peak_memory_bytes": 524288,
// BP:      "fits_in_memory": true,
// BP-NEXT: "memory_overflow_bytes": 0,
// BP:      "relative_cost": {
// BP-NEXT:   "rt": 0.25,
// BP-NEXT:   "mp": 0,
// BP-NEXT:   "cost": 0.25,

func.func @main(%x: tensor<256x1024xf32>) -> tensor<256x1024xf32> {
  %e = stablehlo.exponential %x : tensor<256x1024xf32>
  return %e : tensor<256x1024xf32>
}
