// PartIR Listing 2, the matmul chain (x @ w1) @ w2 with x: 256x8, w1: 8x16,
// w2: 16x8 (f32), on the mesh {B=4, M=2} under the BP, BP+MP and BP+MP+Z3
// schedules, priced on a100 (f32 19.5e12 FLOP/s, NVLink 300e9 B/s per
// direction, 2e-6 s per ring step). Every number is derived below.
//
// Under BP, x -> 64x8 on each device; no collective.
//   FLOPs 2*64*16*8 + 2*64*8*16 = 32768; time 32768/19.5e12 = 1.68041025641e-09
//   memory: args 2048 + 512 + 512 = 3072; at dot #1: args + x1 (64x16, 4096)
//   + x2 (64x8, 2048) = 9216 B. Floor (between ops): args + x1 = 7168 B
//   after dot #0 (after dot #1 only x2: 5120 B).
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule=file=%S/../Partition/Inputs/bp.json --partir-lower-to-hlo --partir-simulate="memory-bound=false fusion=false device=a100 json=%t.bp.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=BP < %t.bp.json
//
// Under BP+MP, w1 -> 8x8 (columns over M), w2 -> 8x8 (rows over M); one
// all_reduce "sum" ["M"] of the 64x8 result (2048 B, n = 2):
//   2(n-1) = 2 steps, 2(n-1)/n * 2048 = 2048 B; 2*2e-6 + 2048/300e9
//   = 4.00682666667e-06 s.
//   FLOPs 2 * (2*64*8*8) = 16384; 16384/19.5e12 = 8.40205128205e-10 s
//   step = 4.00766687179e-06 s.
//   memory: args 2048 + 256 + 256 = 2560; dot #0: + 2048; dot #1: x1 + x2 =
//   4096 -> 6656 (x1 dies at dot #1); all_reduce: x2 + result = 6656: first
//   reached at op #1. Floor: args + one 2048 B value (x1, then x2, then the
//   result) = 4608 B, first after op #0.
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule=file=%S/../Partition/Inputs/bp-mp.json --partir-lower-to-hlo --partir-simulate="memory-bound=false fusion=false device=a100 json=%t.mp.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=MP < %t.mp.json
//
// Under BP+MP+Z3, w1 -> 2x8 and w2 -> 8x2 (also split over B); two all_gathers
// over B (n = 4) rebuild the 8x8 weights (256 B each): 3 steps,
// 3/4 * 256 = 192 B, 3*2e-6 + 192/300e9 = 6.00064e-06 s each, plus the
// all_reduce above. comm bytes 2*192 + 2048 = 2432.
//   step = 2*6.00064e-06 + 4.00682666667e-06 + 8.40205128205e-10
//        = 1.60089468718e-05 s.
//   memory: args 2048 + 64 + 64 = 2176; peak at dot #1 (op #3): args +
//   gathered w2 (256) + x1 (2048) + x2 (2048) = 6528 B. Floor: after op #2
//   (dot #0) args + gathered w2 + x1 = 4480 B (before it: args + both
//   gathered weights = 2688; after op #3: args + x2 = 4224).
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule=file=%S/../Partition/Inputs/bp-mp-z3.json --partir-lower-to-hlo --partir-simulate="memory-bound=false fusion=false device=a100 json=%t.z3.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=Z3 < %t.z3.json
//
// With the unpartitioned chain as baseline (s0): 2 * 65536 = 131072 FLOPs,
// 6.72164102564e-09 s, so RT(BP) = 1/4 exactly.
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-simulate="memory-bound=false fusion=false device=a100 json=%t.s0.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=S0 < %t.s0.json
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule=file=%S/../Partition/Inputs/bp.json --partir-lower-to-hlo --partir-simulate="memory-bound=false fusion=false device=a100 baseline=%t.s0.json json=%t.rel.json summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=REL < %t.rel.json

// BP:      "step_time_s": 1.68041025641e-09,
// BP-NEXT: "compute_time_s": 1.68041025641e-09,
// BP-NEXT: "comm_time_s": 0,
// BP-NEXT: "flops": 32768,
// BP-NEXT: "comm_bytes": 0,
// BP-NEXT: "peak_memory_bytes": 9216,
// BP-NEXT: "memory_floor_bytes": 7168,
// BP-NEXT: "collectives": {
// BP-NEXT:   "all_gather": 0,
// BP-NEXT:   "all_reduce": 0,
// BP-NEXT:   "reduce_scatter": 0,
// BP-NEXT:   "all_to_all": 0,
// BP:      "argument_bytes": 3072,
// BP:      "peak_memory_op_index": 1,
// BP:      "memory_floor_argument_bytes": 3072,
// BP:      "memory_floor_op_index": 0,

// MP:      "step_time_s": 4.00766687179e-06,
// MP-NEXT: "compute_time_s": 8.40205128205e-10,
// MP-NEXT: "comm_time_s": 4.00682666667e-06,
// MP-NEXT: "flops": 16384,
// MP-NEXT: "comm_bytes": 2048,
// MP-NEXT: "peak_memory_bytes": 6656,
// MP-NEXT: "memory_floor_bytes": 4608,
// MP-NEXT: "collectives": {
// MP-NEXT:   "all_gather": 0,
// MP-NEXT:   "all_reduce": 1,
// MP-NEXT:   "reduce_scatter": 0,
// MP-NEXT:   "all_to_all": 0,
// MP:      "argument_bytes": 2560,
// MP:      "peak_memory_op_index": 1,
// MP:      "memory_floor_op_index": 0,

// Z3:      "step_time_s": 1.60089468718e-05,
// Z3-NEXT: "compute_time_s": 8.40205128205e-10,
// Z3-NEXT: "comm_time_s": 1.60081066667e-05,
// Z3-NEXT: "flops": 16384,
// Z3-NEXT: "comm_bytes": 2432,
// Z3-NEXT: "peak_memory_bytes": 6528,
// Z3-NEXT: "memory_floor_bytes": 4480,
// Z3-NEXT: "collectives": {
// Z3-NEXT:   "all_gather": 2,
// Z3-NEXT:   "all_reduce": 1,
// Z3-NEXT:   "reduce_scatter": 0,
// Z3-NEXT:   "all_to_all": 0,
// Z3:      "argument_bytes": 2176,
// Z3:      "peak_memory_op_index": 3,
// Z3:      "memory_floor_op_index": 2,
// Z3:      "collective_time_s": {
// Z3-NEXT:   "all_gather": 1.200128e-05,
// Z3-NEXT:   "all_reduce": 4.00682666667e-06,

// S0:      "step_time_s": 6.72164102564e-09,
// S0:      "flops": 131072,

// REL:      "relative_cost": {
// REL-NEXT:   "rt": 0.25,
// REL-NEXT:   "mp": 0,
// REL-NEXT:   "cost": 0.25,
// REL-NEXT:   "penalty": 10
