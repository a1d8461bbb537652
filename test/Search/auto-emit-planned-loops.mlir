// The search's winner built straight from its plan on a program whose
// layers are scanned: a tiny t2b training step with its forward and
// backward layers in `stablehlo.while` loops over stacked parameters.
// --toast-emit-planned emits each loop the loop model prices
// (AnalyticLoops.cpp) with its regions built from their own plans on the
// carried values' local types, and the loops the state leaves alone whole.
// The planned program computes what the original computes and simulates to
// the step time of the PartIR:Core path's program for the same state.
// RUN: toast-models t2b --scan --layers 2 --batch 8 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 32 --quiet -o %t.mlir
// RUN: toast-opt %t.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/Inputs/slow.json seed=1 rollouts=300 budget-s=0 materialize=false progress=false" -o %t.auto.mlir
// RUN: toast-opt %t.auto.mlir --toast-emit-planned="device=file:%S/Inputs/slow.json" --partir-simulate="device=file:%S/Inputs/slow.json json=%t.planned.json summary=false" -o %t.planned.mlir
// RUN: toast-run --compare %t.mlir %t.planned.mlir --seed 5 | FileCheck %s --check-prefix=SAME
// RUN: toast-opt %t.auto.mlir --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=file:%S/Inputs/slow.json json=%t.core.json summary=false" -o /dev/null
// RUN: %python %S/Inputs/step_time_at_most.py %t.planned.json %t.core.json | FileCheck %s --check-prefix=EQUAL
// RUN: %python %S/Inputs/step_time_at_most.py %t.core.json %t.planned.json | FileCheck %s --check-prefix=EQUAL
// RUN: FileCheck %s --check-prefix=LOOPS < %t.planned.mlir

// SAME: runs SPMD on 8 devices
// SAME: results agree
// EQUAL: : ok
// Both scans stay loops, on device-local carried values.
// LOOPS: stablehlo.while
// LOOPS: partir_hlo.
// LOOPS: stablehlo.while
