// Every PartIR:HLO collective (PartIR Listing 9: all_slice, all_gather,
// all_reduce sum/max, reduce_scatter, all_to_all; axes in and out of mesh
// order, several dimensions at once) on 4 simulated devices, and the same
// program exported to StableHLO collectives, compared with a global program
// computing the same values (Inputs/spmd-global.mlir).
//
// RUN: toast-run --compare %S/Inputs/spmd-global.mlir %S/Inputs/spmd-hlo.mlir --seed 3 | FileCheck %s --check-prefixes=CHECK,HLO
// RUN: toast-opt %S/Inputs/spmd-hlo.mlir --partir-export-stablehlo -o %t.exp.mlir
// RUN: toast-run --compare %S/Inputs/spmd-global.mlir %t.exp.mlir --seed 3 | FileCheck %s --check-prefixes=CHECK,EXP
// RUN: toast-opt %S/Inputs/spmd-hlo.mlir --partir-optimize-collectives --partir-export-stablehlo -o %t.opt.mlir
// RUN: toast-run --compare %S/Inputs/spmd-global.mlir %t.opt.mlir --seed 4 | FileCheck %s --check-prefixes=CHECK,EXP

// HLO: @main runs SPMD on 4 devices (PartIR:HLO)
// EXP: @main runs SPMD on 4 devices (exported StableHLO)
// CHECK-NEXT: result #0 tensor<8x4xf32>: {{.*}}: ok
// CHECK-NEXT: result #1 tensor<4xf32>: {{.*}}: ok
// CHECK-NEXT: result #2 tensor<8x4xf32>: {{.*}}: ok
// CHECK-NEXT: result #3 tensor<8x4xf32>: {{.*}}: ok
// CHECK-NEXT: result #4 tensor<8x4xf32>: {{.*}}: ok
// CHECK-NEXT: result #5 tensor<4xf32>: {{.*}}: ok
// CHECK-NEXT: result #6 tensor<8x4xf32>: {{.*}}: ok
// CHECK-NEXT: result #7 tensor<8x4xf32>: {{.*}}: ok
// CHECK-NEXT: results agree

// The tests prove something: the same program with a deliberate mistake
// fails the comparison. Without the all_reduce, each device returns its own
// partial sum as the (replicated) result #1; the devices disagree.
// RUN: sed 's/partir_hlo.all_reduce "sum" \["x"\]/stablehlo.optimization_barrier/' %S/Inputs/spmd-hlo.mlir > %t.no-all-reduce.mlir
// RUN: not toast-run --compare %S/Inputs/spmd-global.mlir %t.no-all-reduce.mlir 2>&1 | FileCheck %s --check-prefix=NOREDUCE
// NOREDUCE: error: toast-run: result #1 of @main: devices 0 and 2 hold the same part of the result but differ at [0] ({{.*}} vs {{.*}}); is a collective missing, or the result's sharding wrong?
// The same mistake after export.
// RUN: toast-opt %t.no-all-reduce.mlir --partir-export-stablehlo -o %t.no-all-reduce.exp.mlir
// RUN: not toast-run --compare %S/Inputs/spmd-global.mlir %t.no-all-reduce.exp.mlir 2>&1 | FileCheck %s --check-prefix=NOREDUCE
//
// Gathering over the axes in the wrong order gives every device the same,
// permuted, value: the devices agree but the comparison fails.
// RUN: sed 's/all_gather \[{"y", "x"}/all_gather [{"x", "y"}/' %S/Inputs/spmd-hlo.mlir > %t.order.mlir
// RUN: not toast-run --compare %S/Inputs/spmd-global.mlir %t.order.mlir | FileCheck %s --check-prefix=ORDER
// ORDER: result #4 tensor<8x4xf32>: {{.*}}: MISMATCH
// ORDER-NEXT: 16 of 32 elements outside the tolerance; first at [2, 0]
// ORDER: results differ
