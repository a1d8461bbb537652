// Whole-strategy export (issue 15, item 3): for every test schedule on its
// models, --partir-export-shardings (scope=all) -> --partir-import-shardings
// -> lowering gives the device-local program of the direct lowering: same
// signature, same ops with the same local types, same collectives, same
// simulated step time (Inputs/whole_roundtrip.py compares, in the sdy, mhlo
// and both forms; no numbers are hard-coded here).
//
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule="file=%S/../Partition/Inputs/bp.json materialize=false" -o %t.chain-bp.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.chain-bp.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule="file=%S/../Partition/Inputs/bp-mp.json materialize=false" -o %t.chain-bp-mp.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.chain-bp-mp.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule="file=%S/../Partition/Inputs/bp-mp-z3.json materialize=false" -o %t.chain-bp-mp-z3.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.chain-bp-mp-z3.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule="file=%S/../Partition/Inputs/bp-mp-z3-a100.json materialize=false" -o %t.chain-bp-mp-z3-a100.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.chain-bp-mp-z3-a100.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-models t32 --layers 1 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet -o %t.t32.mlir
// RUN: toast-opt %t.t32.mlir --partir-schedule="file=%S/../Interpreter/Inputs/tiny-bp.json materialize=false" -o %t.t32-tiny-bp.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.t32-tiny-bp.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %t.t32.mlir --partir-schedule="file=%S/../Interpreter/Inputs/tiny-t32-mp.json materialize=false" -o %t.t32-tiny-t32-mp.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.t32-tiny-t32-mp.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %t.t32.mlir --partir-schedule="file=%S/../Interpreter/Inputs/tiny-t32-bp-mp-z3.json materialize=false" -o %t.t32-tiny-t32-bp-mp-z3.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.t32-tiny-t32-bp-mp-z3.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-models mlp --batch 4 --d-model 8 --hidden 16 --quiet -o %t.mlp.mlir
// RUN: toast-opt %t.mlp.mlir --partir-schedule="file=%S/../Interpreter/Inputs/tiny-bp.json materialize=false" -o %t.mlp-tiny-bp.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.mlp-tiny-bp.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %t.mlp.mlir --partir-schedule="file=%S/../Interpreter/Inputs/tiny-mlp-mp.json materialize=false" -o %t.mlp-tiny-mlp-mp.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.mlp-tiny-mlp-mp.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %t.mlp.mlir --partir-schedule="file=%S/../Interpreter/Inputs/tiny-mlp-bp-mp-z3.json materialize=false" -o %t.mlp-tiny-mlp-bp-mp-z3.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.mlp-tiny-mlp-bp-mp-z3.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-models itx --layers 1 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --decode-steps 2 --quiet -o %t.itx.mlir
// RUN: toast-opt %t.itx.mlir --partir-schedule="file=%S/../Interpreter/Inputs/tiny-bp.json materialize=false" -o %t.itx-tiny-bp.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.itx-tiny-bp.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %t.itx.mlir --partir-schedule="file=%S/../Interpreter/Inputs/tiny-itx-bp-z3.json materialize=false" -o %t.itx-tiny-itx-bp-z3.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.itx-tiny-itx-bp-z3.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-models gns --nodes 6 --edges 10 --mp-steps 2 --latent 8 --hidden 12 --mlp-layers 1 --quiet -o %t.gns.mlir
// RUN: toast-opt %t.gns.mlir --partir-schedule="file=%S/../Interpreter/Inputs/tiny-gns-bp.json materialize=false" -o %t.gns-tiny-gns-bp.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.gns-tiny-gns-bp.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %t.gns.mlir --partir-schedule="file=%S/../Interpreter/Inputs/tiny-gns-bp-z3.json materialize=false" -o %t.gns-tiny-gns-bp-z3.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.gns-tiny-gns-bp-z3.state.mlir sdy mhlo both | FileCheck %s
// The PartIR table 2 schedules (Models/Inputs), on a small T32.
// RUN: toast-models t32 --layers 1 --batch 8 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 32 --quiet -o %t.t32b.mlir
// RUN: toast-opt %t.t32b.mlir --partir-schedule="file=%S/../Models/Inputs/t32-mp.json materialize=false" -o %t.t32b-t32-mp.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.t32b-t32-mp.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %t.t32b.mlir --partir-schedule="file=%S/../Models/Inputs/t32-bp.json materialize=false" -o %t.t32b-t32-bp.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.t32b-t32-bp.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %t.t32b.mlir --partir-schedule="file=%S/../Models/Inputs/t32-bp-mp.json materialize=false" -o %t.t32b-t32-bp-mp.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.t32b-t32-bp-mp.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %t.t32b.mlir --partir-schedule="file=%S/../Models/Inputs/t32-bp-mp-z2.json materialize=false" -o %t.t32b-t32-bp-mp-z2.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.t32b-t32-bp-mp-z2.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %t.t32b.mlir --partir-schedule="file=%S/../Models/Inputs/t32-bp-mp-z3.json materialize=false" -o %t.t32b-t32-bp-mp-z3.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.t32b-t32-bp-mp-z3.state.mlir sdy mhlo both | FileCheck %s
// Loops and conditionals: tied classes and body ops.
// RUN: toast-models transformer --scan --layers 2 --batch 4 --seq 8 --d-model 16 --heads 2 --kv-heads 2 --key-size 8 --vocab 32 --hidden 32 --quiet -o %t.scan.mlir
// RUN: toast-opt %t.scan.mlir --partir-schedule="file=%S/../Partition/Inputs/scan-bp-mp-z3.json materialize=false" -o %t.scan-z3.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.scan-z3.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %S/../Partition/Inputs/branches.mlir --partir-manual-partition="axis=B inputs=arg2=0 mesh=B=4" -o %t.branches.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.branches.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %S/../Partition/Inputs/scan-mlp.mlir --partir-manual-partition="axis=B inputs=arg0=0 mesh=B=4" -o %t.scan-mlp.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.scan-mlp.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-opt %S/../Partition/Inputs/nested-loops.mlir --partir-manual-partition="axis=B inputs=arg0=0 mesh=B=4" -o %t.nested.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.nested.state.mlir sdy mhlo both | FileCheck %s

// CHECK-NOT: MISMATCH
// CHECK: ok sdy
// CHECK-NEXT: ok mhlo
// CHECK-NEXT: ok both
