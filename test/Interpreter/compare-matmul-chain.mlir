// Differential test of the schedules of PartIR listing 2: the matmul chain
// partitioned by toast-opt computes what the original computes.
// RUN: toast-opt --partir-schedule=file=%S/../Partition/Inputs/bp.json %S/../Partition/Inputs/matmul-chain.mlir -o %t.bp.mlir
// RUN: toast-run --compare %S/../Partition/Inputs/matmul-chain.mlir %t.bp.mlir --seed 7 | FileCheck %s
// RUN: toast-opt --partir-schedule=file=%S/../Partition/Inputs/bp-mp.json %S/../Partition/Inputs/matmul-chain.mlir -o %t.bp-mp.mlir
// RUN: toast-run --compare %S/../Partition/Inputs/matmul-chain.mlir %t.bp-mp.mlir --seed 7 | FileCheck %s
// RUN: toast-opt --partir-schedule=file=%S/../Partition/Inputs/bp-mp-z3.json %S/../Partition/Inputs/matmul-chain.mlir -o %t.bp-mp-z3.mlir
// RUN: toast-run --compare %S/../Partition/Inputs/matmul-chain.mlir %t.bp-mp-z3.mlir --seed 7 | FileCheck %s
// RUN: toast-run --compare %S/../Partition/Inputs/matmul-chain.mlir %t.bp-mp-z3.mlir --seed 123 --rtol 1e-5 --atol 1e-6 | FileCheck %s

// CHECK: comparing @main on random arguments
// CHECK-NEXT: result #0 tensor<256x8xf32>: max abs error {{.*}}, max rel error {{.*}}: ok
// CHECK-NEXT: results agree

// The #sum over "M" adds partial products in another order than the
// original contraction, so the results are not bitwise equal: a zero
// tolerance reports the mismatch.
// RUN: not toast-run --compare %S/../Partition/Inputs/matmul-chain.mlir %t.bp-mp-z3.mlir --seed 7 --rtol 0 --atol 0 | FileCheck %s --check-prefix=EXACT
// EXACT: result #0 tensor<256x8xf32>: {{.*}}: MISMATCH
// EXACT: results differ

// A tolerance that no comparison can meet is refused.
// RUN: not toast-run --compare %S/../Partition/Inputs/matmul-chain.mlir %t.bp-mp-z3.mlir --atol=-1 2>&1 | FileCheck %s --check-prefix=ATOL
// RUN: not toast-run --compare %S/../Partition/Inputs/matmul-chain.mlir %t.bp-mp-z3.mlir --rtol=nan 2>&1 | FileCheck %s --check-prefix=RTOL
// ATOL: toast-run: --atol must be a finite number >= 0, got -1
// RTOL: toast-run: --rtol must be a finite number >= 0, got nan

// A program with arguments runs on seeded random inputs.
// RUN: toast-run %S/../Partition/Inputs/matmul-chain.mlir --seed 1 | FileCheck %s --check-prefix=RANDOM
// RANDOM: @main ran on random arguments (seed 1)
// RANDOM-NEXT: result #0: tensor<256x8xf32> [{{.*}}, ... (2048 elements)]
// RANDOM-NEXT: @main: 0 checks passed, 0 failed
