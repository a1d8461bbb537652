// Bad options of the automatic tactic are located errors.
// RUN: not toast-opt %s --toast-auto-partition="axes=X mesh=B=4" 2>&1 | FileCheck %s --check-prefix=AXIS
// RUN: not toast-opt %s --toast-auto-partition="axes=B mesh=B=4 device=z80" 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: not toast-opt %s --toast-auto-partition="axes=B mesh=B=4 algorithm=greedy" 2>&1 | FileCheck %s --check-prefix=ALGO
// RUN: not toast-opt %s --toast-auto-partition="axes=B mesh=B=4 budget-s=-1" 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not toast-opt %s --toast-auto-partition="axes=B mesh=B=4 threads=0" 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not toast-opt %s --toast-auto-partition="axes=B mesh=B=4 threads=100000" 2>&1 | FileCheck %s --check-prefix=MANY
// RUN: not toast-opt %s --partir-schedule=file=%S/Inputs/bad-algorithm.json 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: not toast-opt %s --partir-schedule=file=%S/Inputs/bad-axis.json 2>&1 | FileCheck %s --check-prefix=JSONAXIS
// RUN: not toast-opt %s --partir-schedule=file=%S/Inputs/bad-list-actions.json 2>&1 | FileCheck %s --check-prefix=JSONLIST

// AXIS: bad-options.mlir:[[@LINE+6]]:3: error: automatic partition: axis "X" is not in the mesh #partir.mesh<["B"=4]>
// DEVICE: bad-options.mlir:[[@LINE+5]]:3: error: automatic partition: unknown device 'z80'
// BUDGET: bad-options.mlir:[[@LINE+4]]:3: error: automatic partition: the time budget must be >= 0 seconds, got -1
// THREADS: bad-options.mlir:[[@LINE+3]]:3: error: automatic partition: threads must be between 1 and 256, got 0
// MANY: bad-options.mlir:[[@LINE+2]]:3: error: automatic partition: threads must be between 1 and 256, got 100000
// JSONAXIS: bad-options.mlir:[[@LINE+1]]:3: error: automatic partition: axis "model" is not in the mesh
  func.func @main(%x: tensor<256x8xf32> {partir.name = "x"},
                  %w1: tensor<8x16xf32> {partir.name = "w1"},
                  %w2: tensor<16x8xf32> {partir.name = "w2"}) -> tensor<256x8xf32> {
    %x1 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<256x8xf32>, tensor<8x16xf32>) -> tensor<256x16xf32>
    %x2 = stablehlo.dot_general %x1, %w2, contracting_dims = [1] x [0] : (tensor<256x16xf32>, tensor<16x8xf32>) -> tensor<256x8xf32>
    return %x2 : tensor<256x8xf32>
  }

// ALGO: error: --toast-auto-partition: unknown algorithm 'greedy' (expected mcts, random, automap, exhaustive or ilp)
// JSON: error: in schedule '{{.*}}bad-algorithm.json': schedule.tactics[1].algorithm: unknown algorithm 'greedy'
// JSONLIST: error: in schedule '{{.*}}bad-list-actions.json': schedule.tactics[0].list_actions: expected true or false
