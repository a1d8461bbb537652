// Semantics are sacred: every partitioned program computes what the
// original computed. toast-run runs both (PartIR:Core loops sequentially)
// on the same seeded random inputs and compares every result.
//
// The matmul chain under the PartIR Listing 6 schedules:
// RUN: toast-opt %S/Inputs/matmul-chain.mlir --partir-schedule=file=%S/Inputs/bp.json -o %t.bp.mlir
// RUN: toast-run --compare %S/Inputs/matmul-chain.mlir %t.bp.mlir | FileCheck %s
// RUN: toast-opt %S/Inputs/matmul-chain.mlir --partir-schedule=file=%S/Inputs/bp-mp.json -o %t.mp.mlir
// RUN: toast-run --compare %S/Inputs/matmul-chain.mlir %t.mp.mlir | FileCheck %s
// RUN: toast-opt %S/Inputs/matmul-chain.mlir --partir-schedule=file=%S/Inputs/bp-mp-z3.json -o %t.z3.mlir
// RUN: toast-run --compare %S/Inputs/matmul-chain.mlir %t.z3.mlir | FileCheck %s
//
// Figure 4's three equivalences, the conflict and transpose cases, deep
// tiling and the multi-axis nest:
// RUN: toast-opt %S/figure4-equivalences.mlir --partir-tile="value=x dim=1 axis=B" --partir-propagate --partir-materialize-core -o %t.sum.mlir
// RUN: toast-run --compare %S/figure4-equivalences.mlir %t.sum.mlir | FileCheck %s
// RUN: toast-opt %S/conflicts.mlir --partir-tile="value=x dim=0 axis=B" --partir-propagate --partir-tile="value=w1 dim=1 axis=B" --partir-propagate --partir-materialize-core -o %t.incr.mlir
// RUN: toast-run --compare %S/conflicts.mlir %t.incr.mlir | FileCheck %s
// RUN: toast-opt %S/transpose-corner-case.mlir --partir-atomic="value=transposed axis=M" --partir-manual-partition="axis=M inputs=x=0" --partir-materialize-core -o %t.tr.mlir
// RUN: toast-run --compare %S/transpose-corner-case.mlir %t.tr.mlir | FileCheck %s
// RUN: toast-opt %S/deep-tiling.mlir --partir-tile="value=x dim=1 axis=a" --partir-propagate --partir-tile="value=x dim=1 axis=b" --partir-propagate --partir-materialize-core -o %t.deep.mlir
// RUN: toast-run --compare %S/deep-tiling.mlir %t.deep.mlir | FileCheck %s
// RUN: toast-opt %S/multi-axis.mlir --partir-manual-partition="name=rows axis=a inputs=x=0" --partir-manual-partition="name=cols axis=b inputs=x=1" --partir-materialize-core -o %t.multi.mlir
// RUN: toast-run --compare %S/multi-axis.mlir %t.multi.mlir | FileCheck %s
// RUN: toast-opt %S/inline-calls.mlir --partir-manual-partition="axis=B inputs=arg0=0 mesh=B=2" --partir-materialize-core -o %t.inl.mlir
// RUN: toast-run --compare %S/inline-calls.mlir %t.inl.mlir | FileCheck %s

// CHECK: results agree
