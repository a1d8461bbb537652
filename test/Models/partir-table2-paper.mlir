// PartIR Table 2, T32 rows, with the paper's numbers. MP, BP and BP+MP
// match (partir-table2.mlir checks them); the ZeRO rows do not yet, so this
// file is expected to fail. Measured today (AG/AR/RS):
//   BP 0/290/0, BP+MP 0/418/0, BP+MP+Z2 417/257/162, BP+MP+Z3 545/257/162
// against the paper's 129/289/129 and 259/289/129: the updated parameters
// are all-gathered per use rather than once, and some gradients are
// reduce-scattered that the paper all-reduces.
// XFAIL: *
//
// RUN: toast-models t32 --quiet -o %t.mlir
// RUN: toast-opt %t.mlir --partir-schedule="file=%S/Inputs/t32-bp.json" --partir-lower-to-hlo --partir-optimize-collectives | %python %S/Inputs/count_collectives.py | FileCheck %s --check-prefix=BP
// RUN: toast-opt %t.mlir --partir-schedule="file=%S/Inputs/t32-bp-mp.json" --partir-lower-to-hlo --partir-optimize-collectives | %python %S/Inputs/count_collectives.py | FileCheck %s --check-prefix=BPMP
// RUN: toast-opt %t.mlir --partir-schedule="file=%S/Inputs/t32-bp-mp-z2.json" --partir-lower-to-hlo --partir-optimize-collectives | %python %S/Inputs/count_collectives.py | FileCheck %s --check-prefix=Z2
// RUN: toast-opt %t.mlir --partir-schedule="file=%S/Inputs/t32-bp-mp-z3.json" --partir-lower-to-hlo --partir-optimize-collectives | %python %S/Inputs/count_collectives.py | FileCheck %s --check-prefix=Z3

// BP: AG=0 AR=290 RS=0 A2A=0
// BPMP: AG=0 AR=418 RS=0 A2A=0
// Z2: AG=129 AR=289 RS=129 A2A=0
// Z3: AG=259 AR=289 RS=129 A2A=0
