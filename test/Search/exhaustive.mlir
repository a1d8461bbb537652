// algorithm=exhaustive prices every state reachable from the start,
// breadth first: "optimal" when it priced them all, "best of N states"
// when the state limit (max-states) or the budget stopped it first.

// The matmul chain (PartIR Listing 2) on {B:4, M:2}: 24 x 24 states
// (unittests/Search/ExhaustiveTest.cpp counts them).
// RUN: toast-opt %s --toast-auto-partition="mesh=B=4,M=2 algorithm=exhaustive" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=OPTIMAL
// RUN: FileCheck %s --check-prefix=LOOPS < %t.mlir
// RUN: toast-opt %s --toast-auto-partition="mesh=B=4,M=2 algorithm=exhaustive max-states=9" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMIT
// As a JSON schedule, with the limit:
// RUN: toast-opt %s --partir-schedule=file=%S/Inputs/exhaustive.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMIT

func.func @main(%x: tensor<256x8xf32> {partir.name = "x"},
                %w1: tensor<8x16xf32> {partir.name = "w1"},
                %w2: tensor<16x8xf32> {partir.name = "w2"}) -> tensor<256x8xf32> {
  %x1 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<256x8xf32>, tensor<8x16xf32>) -> tensor<256x16xf32>
  %x2 = stablehlo.dot_general %x1, %w2, contracting_dims = [1] x [0] : (tensor<256x16xf32>, tensor<16x8xf32>) -> tensor<256x8xf32>
  return %x2 : tensor<256x8xf32>
}

// OPTIMAL: auto-partition: exhaustive, 8 NDA actions on a100
// OPTIMAL: auto-partition: round 1: 9 rollouts
// OPTIMAL: auto-partition: exhaustive chose 2 actions in {{[0-9.]+}} s (7 rounds, 576 rollouts, 576 states priced; best after {{[0-9.]+}} s; stopped: optimal over the actions: every state priced): cost 0.1429
// OPTIMAL-NEXT: auto-partition:   shard color 0 (x[0]: {{.*}}) on axis B
// OPTIMAL-NEXT: auto-partition:   shard color 0 (x[0]: {{.*}}) on axis M

// Batch parallelism on all 8 devices: 1/7 of the step, not 1/8, since the
// dots are memory-bound and every device reads both weights whole
// (unittests/Search/ExhaustiveTest.cpp has the bytes).
// LOOPS: partir.loop "B"
// LOOPS: partir.loop "M"

// LIMIT: auto-partition: exhaustive chose 1 actions in {{.*}} 9 states priced; best after {{[0-9.]+}} s; stopped: best of 9 states: state limit): cost 0.2653
