// SPMD differential tests of the automatic partitioner (TOAST's search,
// --toast-auto-partition, and an "automatic" tactic after manual BP in a
// schedule; options as in test/Search): whatever the search chooses, the
// lowered and exported programs must compute what the original computes.
// On the tiny t2b the search shards parameters over both axes; its lowering
// uses all_gather, all_reduce, all_slice, all_to_all and reduce_scatter.
//
// RUN: toast-models mlp --batch 32 --d-model 16 --hidden 32 --quiet -o %t.mlp.mlir
// RUN: toast-opt %t.mlp.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/../Search/Inputs/slow.json seed=1 threads=2 rollouts=2000 budget-s=0 min-dims=2 progress=false" --partir-lower-to-hlo --partir-optimize-collectives -o %t.mlp.hlo.mlir
// RUN: toast-run --compare %t.mlp.mlir %t.mlp.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.mlp.hlo.mlir --partir-export-stablehlo -o %t.mlp.exp.mlir
// RUN: toast-run --compare %t.mlp.mlir %t.mlp.exp.mlir | FileCheck %s
//
// RUN: toast-models t2b --layers 2 --batch 8 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 32 --quiet -o %t.t2b.mlir
// RUN: toast-opt %t.t2b.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/../Search/Inputs/slow.json seed=3 threads=2 rollouts=3000 budget-s=0 min-dims=2 progress=false" --partir-lower-to-hlo --partir-optimize-collectives -o %t.t2b.hlo.mlir
// RUN: toast-run --compare %t.t2b.mlir %t.t2b.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.t2b.hlo.mlir --partir-export-stablehlo -o %t.t2b.exp.mlir
// RUN: toast-run --compare %t.t2b.mlir %t.t2b.exp.mlir | FileCheck %s
// RUN: toast-opt %t.t2b.mlir --partir-schedule=file=%S/../Search/Inputs/bp-then-auto.json --partir-lower-to-hlo --partir-optimize-collectives --partir-export-stablehlo -o %t.t2b.sched.mlir 2>/dev/null
// RUN: toast-run --compare %t.t2b.mlir %t.t2b.sched.mlir | FileCheck %s

// CHECK: @main runs SPMD on 8 devices
// CHECK-NOT: MISMATCH
// CHECK: results agree
