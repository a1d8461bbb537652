// Whole-strategy round trip (see whole-roundtrip-schedules.mlir) for
// automatic strategies of the tiny zoo (a slow device makes the search
// partition these small models).
//
// RUN: toast-models mlp --batch 4 --d-model 8 --hidden 16 --quiet -o %t.mlp.mlir
// RUN: toast-opt %t.mlp.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/../Search/Inputs/slow.json seed=1 rollouts=500 budget-s=0 min-dims=2 progress=false materialize=false" -o %t.mlp.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.mlp.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-models t32 --layers 1 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet -o %t.t32.mlir
// RUN: toast-opt %t.t32.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/../Search/Inputs/slow.json seed=1 rollouts=500 budget-s=0 min-dims=2 progress=false materialize=false" -o %t.t32.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.t32.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-models itx --layers 1 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --decode-steps 2 --quiet -o %t.itx.mlir
// RUN: toast-opt %t.itx.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/../Search/Inputs/slow.json seed=1 rollouts=500 budget-s=0 min-dims=2 progress=false materialize=false" -o %t.itx.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.itx.state.mlir sdy mhlo both | FileCheck %s
// RUN: toast-models gns --nodes 6 --edges 10 --mp-steps 2 --latent 8 --hidden 12 --mlp-layers 1 --quiet -o %t.gns.mlir
// RUN: toast-opt %t.gns.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/../Search/Inputs/slow.json seed=1 rollouts=500 budget-s=0 min-dims=2 progress=false materialize=false" -o %t.gns.state.mlir
// RUN: %python %S/Inputs/whole_roundtrip.py toast-opt %t.gns.state.mlir sdy mhlo both | FileCheck %s

// CHECK-NOT: MISMATCH
// CHECK: ok sdy
// CHECK-NEXT: ok mhlo
// CHECK-NEXT: ok both
