// With an unbounded patience and no budget, MCTS on a small space still ends
// by itself, once every state is priced (fuzz finding 8). The restarts stay
// near the best, and on the MLP on {B:2, M:2} they stopped finding new states
// at 665 of the 676 that algorithm=exhaustive counts; the search never ended.
// After 32 restarts in a row that price nothing new, one starts from the
// first unpriced state, so the coverage tracker completes.
// RUN: toast-opt %s --toast-auto-partition="mesh=B=2,M=2 budget-s=0 rollouts=0 restart-patience=4294967295" -o /dev/null 2>&1 | FileCheck %s
// RUN: toast-opt %s --toast-auto-partition="mesh=B=2,M=2 budget-s=0 rollouts=0 restart-patience=4294967295 threads=2 seed=7" -o /dev/null 2>&1 | FileCheck %s
// RUN: toast-opt %s --toast-auto-partition="mesh=B=2,M=2 algorithm=exhaustive" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COUNT

// CHECK: auto-partition: mcts chose {{.*}}, 676 states priced; {{.*}}stopped: every state priced): cost 0.25
// COUNT: auto-partition: exhaustive chose {{.*}} 676 states priced; {{.*}}stopped: optimal over the actions: every state priced): cost 0.25

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
