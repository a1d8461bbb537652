// SPMD differential tests of the matmul chain (PartIR Listing 2) under the
// Listing 6 schedules BP (Listings 3 and 8), BP+MP (Listing 4) and
// BP+MP+Z3 (Listing 5) on the mesh {B:4, M:2}: the device-local programs
// run on 8 simulated devices, each on its shard of the same random
// arguments, and their reassembled results must match the original's.
// Each schedule is checked as PartIR:HLO without and with collective
// optimization, without the device-local boundary (global arguments sliced
// inside), and as exported StableHLO with collectives.
//
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule=file=%S/../Partition/Inputs/bp.json -o %t.bp.core.mlir
// RUN: toast-opt %t.bp.core.mlir --partir-lower-to-hlo=optimize=false -o %t.bp.hlo.mlir
// RUN: toast-run --compare %S/../Partition/Inputs/matmul-chain.mlir %t.bp.hlo.mlir | FileCheck %s --check-prefixes=CHECK,HLO
// RUN: toast-opt %t.bp.core.mlir --partir-lower-to-hlo --partir-optimize-collectives -o %t.bp.opt.mlir
// RUN: toast-run --compare %S/../Partition/Inputs/matmul-chain.mlir %t.bp.opt.mlir | FileCheck %s --check-prefixes=CHECK,HLO
// RUN: toast-opt %t.bp.opt.mlir --partir-export-stablehlo -o %t.bp.exp.mlir
// RUN: toast-run --compare %S/../Partition/Inputs/matmul-chain.mlir %t.bp.exp.mlir | FileCheck %s --check-prefixes=CHECK,EXP
//
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule=file=%S/../Partition/Inputs/bp-mp.json -o %t.mp.core.mlir
// RUN: toast-opt %t.mp.core.mlir --partir-lower-to-hlo=optimize=false -o %t.mp.hlo.mlir
// RUN: toast-run --compare %S/../Partition/Inputs/matmul-chain.mlir %t.mp.hlo.mlir | FileCheck %s --check-prefixes=CHECK,HLO
// RUN: toast-opt %t.mp.core.mlir --partir-lower-to-hlo --partir-optimize-collectives -o %t.mp.opt.mlir
// RUN: toast-run --compare %S/../Partition/Inputs/matmul-chain.mlir %t.mp.opt.mlir | FileCheck %s --check-prefixes=CHECK,HLO
// RUN: toast-opt %t.mp.opt.mlir --partir-export-stablehlo -o %t.mp.exp.mlir
// RUN: toast-run --compare %S/../Partition/Inputs/matmul-chain.mlir %t.mp.exp.mlir | FileCheck %s --check-prefixes=CHECK,EXP
//
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule=file=%S/../Partition/Inputs/bp-mp-z3.json -o %t.z3.core.mlir
// RUN: toast-opt %t.z3.core.mlir --partir-lower-to-hlo=optimize=false -o %t.z3.hlo.mlir
// RUN: toast-run --compare %S/../Partition/Inputs/matmul-chain.mlir %t.z3.hlo.mlir | FileCheck %s --check-prefixes=CHECK,HLO
// RUN: toast-opt %t.z3.core.mlir --partir-lower-to-hlo --partir-optimize-collectives -o %t.z3.opt.mlir
// RUN: toast-run --compare %S/../Partition/Inputs/matmul-chain.mlir %t.z3.opt.mlir --seed 5 | FileCheck %s --check-prefixes=CHECK,HLO
// RUN: toast-opt %t.z3.core.mlir --partir-lower-to-hlo="optimize=false boundary=false" -o %t.z3.global.mlir
// RUN: toast-run --compare %S/../Partition/Inputs/matmul-chain.mlir %t.z3.global.mlir | FileCheck %s --check-prefixes=CHECK,HLO
// RUN: toast-opt %t.z3.opt.mlir --partir-export-stablehlo -o %t.z3.exp.mlir
// RUN: toast-run --compare %S/../Partition/Inputs/matmul-chain.mlir %t.z3.exp.mlir --seed 5 | FileCheck %s --check-prefixes=CHECK,EXP

// HLO: @main runs SPMD on 8 devices (PartIR:HLO)
// EXP: @main runs SPMD on 8 devices (exported StableHLO)
// CHECK: result #0 tensor<256x8xf32>: max abs error {{.*}}: ok
// CHECK-NEXT: results agree

// A device-local program also runs alone, on random global arguments; its
// result is the reassembled global value.
// RUN: toast-run %t.z3.exp.mlir --seed 1 | FileCheck %s --check-prefix=ALONE
// ALONE: @main runs SPMD on 8 devices (exported StableHLO)
// ALONE-NEXT: @main ran on random arguments (seed 1)
// ALONE-NEXT: result #0: tensor<256x8xf32>
// ALONE-NEXT: @main: 0 checks passed, 0 failed
