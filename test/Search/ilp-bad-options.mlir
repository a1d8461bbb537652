// Bad options of algorithm=ilp are located errors.
// RUN: not toast-opt %s --toast-auto-partition="mesh=B=4 algorithm=ilp ilp-time-limit-s=0" 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: not toast-opt %s --toast-auto-partition="mesh=B=4 algorithm=ilp iopddl-out=%t.missing/problem.json" 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: not toast-opt %s --partir-schedule=file=%S/Inputs/bad-ilp-limit.json 2>&1 | FileCheck %s --check-prefix=JSON
// A write that fails (a full device) is a located error, not an abort.
// RUN: not toast-opt %s --toast-auto-partition="mesh=B=4 algorithm=ilp iopddl-out=/dev/full" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: not toast-opt %s --partir-schedule=file=%S/Inputs/ilp-iopddl-full.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=FULL
// Only the ILP writes a problem: iopddl-out with another algorithm is an error.
// RUN: not toast-opt %s --toast-auto-partition="mesh=B=4 rollouts=10 budget-s=0 progress=false iopddl-out=%t.never.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOT-ILP
// RUN: not toast-opt %s --partir-schedule=file=%S/Inputs/mcts-iopddl.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOT-ILP-JSON
// RUN: not test -e %t.never.json
// The ILP starts from the unpartitioned program:
// RUN: not toast-opt %s --partir-schedule=file=%S/Inputs/bp-then-ilp.json 2>&1 | FileCheck %s --check-prefix=AFTER

// LIMIT: ilp-bad-options.mlir:[[@LINE+3]]:1: error: automatic partition: the ILP time limit must be > 0 seconds, got 0
// OUT: ilp-bad-options.mlir:[[@LINE+2]]:1: error: automatic partition: cannot write the IOPDDL problem to '{{.*}}problem.json'
// AFTER: ilp-bad-options.mlir:[[@LINE+1]]:1: error: algorithm=ilp starts from the unpartitioned program; an earlier tactic tiled an argument
func.func @main(%x: tensor<256x8xf32> {partir.name = "x"},
                %w1: tensor<8x16xf32> {partir.name = "w1"}) -> tensor<256x16xf32> {
  %x1 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<256x8xf32>, tensor<8x16xf32>) -> tensor<256x16xf32>
  return %x1 : tensor<256x16xf32>
}

// JSON: error: in schedule '{{.*}}bad-ilp-limit.json': schedule.tactics[0].ilp_time_limit_s: expected a number of seconds > 0
// FULL: ilp-bad-options.mlir:{{[0-9]+}}:1: error: automatic partition: cannot write the IOPDDL problem to '/dev/full': {{.+}}
// FULL-NOT: LLVM ERROR
// NOT-ILP: ilp-bad-options.mlir:{{[0-9]+}}:1: error: automatic partition: iopddl-out needs algorithm=ilp, got algorithm=mcts
// NOT-ILP-JSON: error: in schedule '{{.*}}mcts-iopddl.json': schedule.tactics[0].iopddl_out: needs "algorithm": "ilp", got "mcts"
