// A training step returns its parameters and optimizer state updated; a
// training loop feeds them back, so the ILP keeps each update in its
// argument's layout (results paired by `tf.aliasing_output` or by name,
// toast::getUpdatedArguments), as XLA constrains aliased buffers and as the
// NDA actions shard an argument and its update together. Before, on this
// MLP's training step the ILP took the parameters replicated and returned
// them sharded (3.482 us, cost 0.2982): a step no loop repeats without
// gathering them again. Now it reaches the exhaustive optimum over the
// actions (10.163 us, cost 0.8703), and every update keeps its layout.
// REQUIRES: cbc
// RUN: toast-models mlp --batch=64 --hidden=512 --d-model=256 --quiet -o %t.mlp.mlir
// RUN: toast-opt %t.mlp.mlir --toast-auto-partition="mesh=B=4,M=2 device=a100 algorithm=ilp" --partir-lower-to-hlo -o %t.ilp.mlir 2>&1 | FileCheck %s --check-prefix=ILP
// RUN: toast-opt %t.mlp.mlir --toast-auto-partition="mesh=B=4,M=2 device=a100 algorithm=exhaustive" -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: FileCheck %s --check-prefix=LAYOUTS --input-file=%t.ilp.mlir
// AutoMap's states are held to the same rule (AutoMapEnvironment::
// keepsUpdatedLayouts; an argument's tiling also tiles its update). Its
// answer here was 0.6859 (8.009 us): the first moment of layer 0 sharded
// on B and M, whose propagation took params.layer_0.w replicated and
// returned it sharded. Its single-argument actions reach no steady state
// cheaper than the start here: a parameter's update needs its two moments
// sharded alike, and every trajectory on the way returns one of them in
// another layout.
// RUN: toast-opt %t.mlp.mlir --toast-auto-partition="mesh=B=4,M=2 device=a100 algorithm=automap seed=1 rollouts=300 budget-s=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTOMAP
// AUTOMAP: automap chose 0 actions {{.*}}: cost 1 (
// RUN: toast-run --compare %t.mlp.mlir %t.ilp.mlir | FileCheck %s --check-prefix=SAME
// ILP: ilp chose {{.*}}: cost 0.8703 (10.163 us step
// OPT: exhaustive chose {{.*}}: cost 0.8703 (10.163 us step
// The layer-0 weight, its moments and their updates: one layout each.
// LAYOUTS: func.func @main(%arg0: tensor<256x256xf32> {jax.arg_info = "params.layer_0.w", partir.name = "params.layer_0.w", partir.sharding = {{\[\[\], \["M"\]\]}}}
// LAYOUTS-SAME: {jax.result_info = "params.layer_0.w", partir.sharding = {{\[\[\], \["M"\]\]}}}
// SAME: results agree
