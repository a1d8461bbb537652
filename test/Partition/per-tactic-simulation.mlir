// A schedule that names a device reports, after every tactic, the simulated
// device-local program partitioned so far (PartIR's per-tactic metadata):
// BP needs no collective, MP adds one all_reduce over M, Z3 two all_gathers
// over B (the simulator's hand-checked numbers for the matmul chain). The
// dots are memory-bound on a100: BP over 4 reads and writes 2 x (2048 +
// 512 + 4096) B = 13312 B / 1.555 TB/s = 8.56077 ns; with MP each dot moves
// 4352 B (5.597 ns for both) beside the all_reduce (4.006827 us); Z3 adds
// the two gathers.
// RUN: toast-opt %S/Inputs/matmul-chain.mlir --partir-schedule="file=%S/Inputs/bp-mp-z3-a100.json report=true" -o /dev/null 2>&1 | FileCheck %s
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-schedule=file=%S/Inputs/bad-device.json 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: tactic {{BP}}: 1 actions, 2 ops partitioned on its axis, 2 loops added, 0 conflicts; simulated on a100: step 8.561 ns, peak 9.00 KiB (9216 B), 0 all_gather, 0 all_reduce, 0 reduce_scatter, 0 all_to_all
// CHECK-NEXT: tactic {{MP}}: {{.*}}; simulated on a100: step 4.012 us, peak 6.50 KiB (6656 B), 0 all_gather, 1 all_reduce, 0 reduce_scatter, 0 all_to_all
// CHECK-NEXT: tactic {{Z3}}: {{.*}}; simulated on a100: step 16.014 us, peak 6.38 KiB (6528 B), 2 all_gather, 1 all_reduce, 0 reduce_scatter, 0 all_to_all
// BAD: error: schedule device: {{.*}}tpu-v99
