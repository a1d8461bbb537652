// The search names the dimensions of its actions in the user's terms: a
// JAX export's `jax.arg_info` (no partir.name), or a PyTorch-style
// `loc("name")` on the argument.
//
// RUN: toast-opt %s --toast-auto-partition="mesh=B=4,M=2 device=a100 seed=1 rollouts=500 budget-s=0 min-dims=1" -o /dev/null 2>&1 | FileCheck %s
//
// CHECK: auto-partition: {{.*}} chose {{[1-9][0-9]*}} actions
// CHECK-DAG: auto-partition:   shard color {{[0-9]+}} ({{inputs\['x'\]|params\['w1'\]|fc2.weight}}[{{[01]}}]: {{[0-9]+}} dims) on axis {{B|M}}
// CHECK-NOT: (arg{{[0-9]}}[
//
// `list-actions` prints the whole space before searching, in the same terms.
// RUN: toast-opt %s --toast-auto-partition="mesh=B=4,M=2 device=a100 seed=1 rollouts=1 budget-s=0 min-dims=1 list-actions" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIST
// LIST: auto-partition: mcts, 8 NDA actions
// LIST-NEXT: auto-partition: action 0: shard color 0 (inputs['x'][0]: 5 dims) on axis B
// LIST-NEXT: auto-partition: action 1: shard color 0 (inputs['x'][0]: 5 dims) on axis M
// LIST: auto-partition: action 7: shard color 3 (fc2.weight[1]: 3 dims) on axis M
// LIST-NEXT: auto-partition: round 1
//
// The named dimension analysis reports them by the same names: its
// argument groups and its dimension listing.
// RUN: toast-opt %s --toast-nda=json=%t.json -o /dev/null
// RUN: %python -c "import json, sys; r = json.load(open(sys.argv[1])); print(sorted(n for g in r['argument_groups'] for n in g['names']))" %t.json | FileCheck %s --check-prefix=GROUPS
// GROUPS: ['fc2.weight', "inputs['x']", "params['w1']"]
// RUN: %python %S/../Analysis/Inputs/nda_dims.py %t.json | FileCheck %s --check-prefix=DIMS
// DIMS: inputs['x'][0]
// DIMS: fc2.weight[1]
module @user_names {
  func.func public @main(%x: tensor<256x1024xf32> {jax.arg_info = "inputs['x']"},
                         %w1: tensor<1024x4096xf32> {jax.arg_info = "params['w1']"},
                         %w2: tensor<4096x1024xf32> loc("fc2.weight"))
      -> (tensor<256x1024xf32> {jax.result_info = "result"}) {
    %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<256x1024xf32>, tensor<1024x4096xf32>) -> tensor<256x4096xf32>
    %y = stablehlo.dot_general %h, %w2, contracting_dims = [1] x [0] : (tensor<256x4096xf32>, tensor<4096x1024xf32>) -> tensor<256x1024xf32>
    return %y : tensor<256x1024xf32>
  }
}
