// Bad limits of the search are located errors, like the other bad options
// (bad-options.mlir).
// RUN: not toast-opt %s --toast-auto-partition="mesh=B=4 algorithm=exhaustive max-states=0" 2>&1 | FileCheck %s --check-prefix=STATES
// RUN: not toast-opt %s --toast-auto-partition="mesh=B=4 algorithm=exhaustively" 2>&1 | FileCheck %s --check-prefix=ALGO
// RUN: not toast-opt %s --partir-schedule=file=%S/Inputs/bad-max-states.json 2>&1 | FileCheck %s --check-prefix=JSONSTATES
// RUN: not toast-opt %s --partir-schedule=file=%S/Inputs/bad-patience.json 2>&1 | FileCheck %s --check-prefix=JSONPATIENCE
// Integers too wide for their field are errors, not wrapped to 32 bits.
// RUN: not toast-opt %s --partir-schedule=file=%S/Inputs/wide-threads.json 2>&1 | FileCheck %s --check-prefix=WIDETHREADS
// RUN: not toast-opt %s --partir-schedule=file=%S/Inputs/wide-min-dims.json 2>&1 | FileCheck %s --check-prefix=WIDEDIMS
// RUN: not toast-opt %s --partir-schedule=file=%S/Inputs/wide-restart-patience.json 2>&1 | FileCheck %s --check-prefix=WIDEPATIENCE
// RUN: not toast-opt %s --toast-auto-partition="mesh=B=4 min-gain=1" 2>&1 | FileCheck %s --check-prefix=GAIN
// RUN: not toast-opt %s --toast-auto-partition="mesh=B=4 min-gain=-0.01" 2>&1 | FileCheck %s --check-prefix=NEGGAIN
// RUN: not toast-opt %s --toast-auto-partition="mesh=B=4 patience-ratio=-2" 2>&1 | FileCheck %s --check-prefix=RATIO
// RUN: not toast-opt %s --partir-schedule=file=%S/Inputs/bad-min-gain.json 2>&1 | FileCheck %s --check-prefix=JSONGAIN
// RUN: not toast-opt %s --partir-schedule=file=%S/Inputs/bad-pad.json 2>&1 | FileCheck %s --check-prefix=JSONPAD

// RATIO: bad-limits.mlir:[[@LINE+4]]:1: error: automatic partition: patience-ratio must be a finite number >= 0, got -2
// STATES: bad-limits.mlir:[[@LINE+3]]:1: error: automatic partition: the state limit must be >= 1 states, got 0
// GAIN: bad-limits.mlir:[[@LINE+2]]:1: error: automatic partition: min-gain must be in [0, 1), got 1
// NEGGAIN: bad-limits.mlir:[[@LINE+1]]:1: error: automatic partition: min-gain must be in [0, 1), got -0.01
func.func @main(%x: tensor<256x8xf32> {partir.name = "x"},
                %w1: tensor<8x16xf32> {partir.name = "w1"}) -> tensor<256x16xf32> {
  %x1 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<256x8xf32>, tensor<8x16xf32>) -> tensor<256x16xf32>
  return %x1 : tensor<256x16xf32>
}

// ALGO: error: --toast-auto-partition: unknown algorithm 'exhaustively' (expected mcts, random, automap, exhaustive or ilp)
// JSONSTATES: error: in schedule '{{.*}}bad-max-states.json': schedule.tactics[0].max_states: expected an integer >= 1
// JSONPATIENCE: error: in schedule '{{.*}}bad-patience.json': schedule.tactics[0].restart_patience: expected an integer between 0 and 4294967295
// JSONGAIN: error: in schedule '{{.*}}bad-min-gain.json': schedule.tactics[0].min_gain: expected a number in [0, 1)
// JSONPAD: error: in schedule '{{.*}}bad-pad.json': schedule.tactics[0].pad: expected true or false
// WIDETHREADS: error: in schedule '{{.*}}wide-threads.json': schedule.tactics[0].threads: expected an integer between 1 and 4294967295
// WIDEDIMS: error: in schedule '{{.*}}wide-min-dims.json': schedule.tactics[0].min_dims: expected an integer between 1 and 4294967295
// WIDEPATIENCE: error: in schedule '{{.*}}wide-restart-patience.json': schedule.tactics[0].restart_patience: expected an integer between 0 and 4294967295
