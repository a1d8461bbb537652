// Automatic partitioning after a manual tactic: batch parallelism on B,
// then AutomaticPartition on M only. The search starts from the state BP
// left, so the batch stays sharded on B, and the result is still correct.

// RUN: toast-models t2b --layers 2 --batch 8 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 32 --quiet -o %t.mlir
// RUN: toast-opt %t.mlir --partir-schedule="file=%S/Inputs/bp-then-auto.json report=true" -o %t.json.mlir 2> %t.json.log
// RUN: FileCheck %s --check-prefix=JSON < %t.json.log
// RUN: toast-run --compare %t.mlir %t.json.mlir --seed 2 | FileCheck %s --check-prefix=SAME

// As a pipeline of passes (the state travels in partir.* attributes):
// RUN: toast-opt %t.mlir --partir-manual-partition="name=BP axis=B inputs=re:batch\..*=0 mesh=B=4,M=2" --toast-auto-partition="axes=M device=file:%S/Inputs/slow.json rollouts=1500 budget-s=0 threads=2 min-dims=2 report=true progress=false" -o %t.pipe.mlir 2>&1 | FileCheck %s --check-prefix=PIPE
// RUN: FileCheck %s --check-prefix=LOOPS < %t.pipe.mlir
// RUN: toast-run --compare %t.mlir %t.pipe.mlir --seed 2 | FileCheck %s --check-prefix=SAME

// The search runs (progress first), then each tactic's report line. On an
// A100 this tiny model gains nothing from M: the search may choose nothing.
// JSON: auto-partition: mcts, {{[0-9]+}} NDA actions on a100
// JSON: auto-partition: mcts chose {{[0-9]+}} actions
// JSON: partir-schedule: tactic BP: 2 actions, {{.*}}; simulated on a100: step
// JSON: partir-schedule: tactic AutoMP: {{[0-9]+}} actions, {{.*}}; simulated on a100: step

// PIPE: remark: auto-partition chose {{[1-9][0-9]*}} actions; shard color {{[0-9]+}} ({{.*}}) on axis M

// Both axes appear: B from BP, M from the search.
// LOOPS-DAG: partir.loop "B"
// LOOPS-DAG: partir.loop "M"

// SAME: results agree
