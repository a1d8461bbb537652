// The search's winner built straight from its plan (design.md §6): the
// automatic partitioner leaves its state unmaterialized and
// --toast-emit-planned builds the device-local program from the planner's
// CollectivePlan, without materializeCore, lowering or the collective
// optimizer. It computes what the original computes, and simulates to the
// step time of the PartIR:Core path's program for the same state (each at
// most the other's). Tiny t2b and itx on {B:4, M:2}, priced on the slow
// device file where the search partitions them.
// RUN: toast-models t2b --layers 2 --batch 8 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 32 --quiet -o %t.t2b.mlir
// RUN: toast-opt %t.t2b.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/Inputs/slow.json seed=1 rollouts=300 budget-s=0 materialize=false progress=false" -o %t.t2b.auto.mlir
// RUN: toast-opt %t.t2b.auto.mlir --toast-emit-planned="device=file:%S/Inputs/slow.json" --partir-simulate="device=file:%S/Inputs/slow.json json=%t.t2b.planned.json summary=false" -o %t.t2b.planned.mlir
// RUN: toast-run --compare %t.t2b.mlir %t.t2b.planned.mlir --seed 5 | FileCheck %s --check-prefix=SAME
// RUN: toast-opt %t.t2b.auto.mlir --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=file:%S/Inputs/slow.json json=%t.t2b.core.json summary=false" -o /dev/null
// RUN: %python %S/Inputs/step_time_at_most.py %t.t2b.planned.json %t.t2b.core.json | FileCheck %s --check-prefix=EQUAL
// RUN: %python %S/Inputs/step_time_at_most.py %t.t2b.core.json %t.t2b.planned.json | FileCheck %s --check-prefix=EQUAL
// RUN: FileCheck %s --check-prefix=PARTITIONED < %t.t2b.planned.json

// RUN: toast-models itx --layers 1 --batch 4 --seq 8 --d-model 16 --heads 4 --kv-heads 1 --key-size 4 --vocab 32 --hidden 24 --quiet -o %t.itx.mlir
// RUN: toast-opt %t.itx.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/Inputs/slow.json seed=1 rollouts=300 budget-s=0 materialize=false progress=false" -o %t.itx.auto.mlir
// RUN: toast-opt %t.itx.auto.mlir --toast-emit-planned="device=file:%S/Inputs/slow.json" --partir-simulate="device=file:%S/Inputs/slow.json json=%t.itx.planned.json summary=false" -o %t.itx.planned.mlir
// RUN: toast-run --compare %t.itx.mlir %t.itx.planned.mlir --seed 5 | FileCheck %s --check-prefix=SAME
// RUN: toast-opt %t.itx.auto.mlir --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=file:%S/Inputs/slow.json json=%t.itx.core.json summary=false" -o /dev/null
// RUN: %python %S/Inputs/step_time_at_most.py %t.itx.planned.json %t.itx.core.json | FileCheck %s --check-prefix=EQUAL
// RUN: %python %S/Inputs/step_time_at_most.py %t.itx.core.json %t.itx.planned.json | FileCheck %s --check-prefix=EQUAL

// SAME: results agree
// EQUAL: : ok
// PARTITIONED: "all_reduce": {{[1-9][0-9]*}}
