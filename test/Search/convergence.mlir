// MCTS stops by itself: the time budget (30 s by default) is only an upper
// bound, and the report says why the search stopped and when it found its
// best state.

// The MLP of examples/mlp.mlir: rounds, a climb, then perturbations until
// 30 in a row fail (restart-patience) and have priced 8M ops (patience-work,
// states times the program's ops), or 120 in a row fail: a tiny program
// prices a few hundred states. Milliseconds, not the budget.
// RUN: toast-opt %s --toast-auto-partition="mesh=B=4,M=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONVERGED
// RUN: toast-opt %s --toast-auto-partition="mesh=B=4,M=2 patience-work=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PATIENCE
// 800 ops are about 90 states of this program: 50 failures price them.
// RUN: toast-opt %s --toast-auto-partition="mesh=B=4,M=2 patience-work=800" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WORK
// RUN: toast-opt %s --toast-auto-partition="mesh=B=4,M=2 patience-work=18446744073709551615" -o /dev/null 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not toast-opt %s --toast-auto-partition="mesh=B=4,M=2 patience-work=-5" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADWORK
// RUN: toast-opt %s --toast-auto-partition="mesh=B=4,M=2 restart-patience=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLIMB
// On one axis the space has 26 states (algorithm=exhaustive counts them):
// the rounds price them all, and the search stops at once.
// RUN: toast-opt %s --toast-auto-partition="mesh=B=4" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PRICED
// RUN: toast-opt %s --toast-auto-partition="mesh=B=4 algorithm=exhaustive" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COUNT
// A tolerance (min-gain): gains below it are kept but are not progress.
// On this MLP the first round finds the optimum, a gain of 87.5%.
// RUN: toast-opt %s --toast-auto-partition="mesh=B=4,M=2 min-gain=0.01" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TOLERANT
// The same options in a JSON schedule (with the climb's memory off, which
// orders a climb's neighbours afresh at every step).
// RUN: toast-opt %s --partir-schedule=file=%S/Inputs/patience.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: toast-opt %s --toast-auto-partition="mesh=B=4,M=2 climb-memory=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONVERGED
// RUN: not toast-opt %s --toast-auto-partition="mesh=B=4,M=2 climb-memory=perhaps" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADBOOL
// Climbs from perturbations stop after a quarter of their neighbours, at
// most restart-neighbours (0: no such bound); both converge here.
// RUN: toast-opt %s --toast-auto-partition="mesh=B=4,M=2 restart-neighbours=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONVERGED
// RUN: toast-opt %s --toast-auto-partition="mesh=B=4,M=2 restart-neighbours=4" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONVERGED
// RUN: not toast-opt %s --toast-auto-partition="mesh=B=4,M=2 restart-neighbours=-3" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADCOUNT

func.func public @main(%x: tensor<256x1024xf32> {partir.name = "batch.x"},
                       %w1: tensor<1024x4096xf32> {partir.name = "params.w1"},
                       %w2: tensor<4096x1024xf32> {partir.name = "params.w2"})
    -> tensor<256x1024xf32> {
  %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<256x1024xf32>, tensor<1024x4096xf32>) -> tensor<256x4096xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %zeros = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<256x4096xf32>
  %relu = stablehlo.maximum %h, %zeros : tensor<256x4096xf32>
  %y = stablehlo.dot_general %relu, %w2, contracting_dims = [1] x [0] : (tensor<256x4096xf32>, tensor<4096x1024xf32>) -> tensor<256x1024xf32>
  return %y : tensor<256x1024xf32>
}

// CONVERGED: auto-partition: rounds stopped: a round did not improve (after {{[0-9.]+}} s, {{[0-9]+}} states); first climb stuck after {{[0-9.]+}} s, {{[0-9]+}} states; {{[0-9]+}} restarts
// CONVERGED-NEXT: auto-partition: improvements (s, states, cost): {{[0-9.]+}} {{[0-9]+}} 0.125 round;{{$}}
// CONVERGED-NEXT: auto-partition: mcts chose 2 actions in {{[0-9.]+}} s ({{[0-9]+}} rounds, {{[0-9]+}} rollouts, {{[0-9]+}} states priced; best after {{[0-9.]+}} s; stopped: 120 perturbations in a row did not improve): cost 0.125
// PATIENCE: stopped: 30 perturbations in a row did not improve): cost 0.125
// WORK: stopped: {{3[0-9]|[4-9][0-9]|1[01][0-9]}} perturbations in a row did not improve): cost 0.125
// HUGE: stopped: 120 perturbations in a row did not improve): cost 0.125
// BADWORK: patience-work{{.*}}-5

// TOLERANT: auto-partition: improvements (s, states, cost): {{[0-9.]+}} {{[0-9]+}} 0.125 round;{{$}}
// TOLERANT: stopped: 120 perturbations in a row did not improve): cost 0.125

// CLIMB: stopped: no neighbour improves): cost 0.125

// PRICED: auto-partition: mcts chose 1 actions in {{.*}} 26 states priced; best after {{[0-9.]+}} s; stopped: every state priced): cost 0.25
// COUNT: auto-partition: exhaustive chose 1 actions in {{.*}} 26 states priced; best after {{[0-9.]+}} s; stopped: optimal over the actions: every state priced): cost 0.25

// JSON: auto-partition: mcts chose 2 actions in {{.*}}; stopped: 3 perturbations in a row did not improve): cost 0.125
// BADBOOL: climb-memory{{.*}}perhaps
// BADCOUNT: restart-neighbours{{.*}}-3
