// Context actions (docs/search.md, "Context actions"): a family action
// restricted to the nodes whose ops meet one of the largest unmirrored
// colors. The GNS pattern in small: one weight `w` is read by an "edge"
// part and a "node" part; sharding its output dimension pays in the edge
// part (the matmul is split, its result stays sharded) and costs an
// all_gather in the node part (a flatten needs the rows whole before the
// columns can be split). The family action shards both parts; only the
// context action shards the edge part alone. On {M:2}, with pad=false (63
// rows: no batch parallelism), every state of the family actions is priced
// and none beats the replicated program; with context actions the optimum
// is cheaper. The result computes what the original computes, through the
// PartIR:Core path and through emit=planned, and context-actions=false is
// the default.

// RUN: toast-opt %s --toast-auto-partition="mesh=M=2 algorithm=exhaustive pad=false min-dims=1 list-actions=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAMILY
// RUN: toast-opt %s --toast-auto-partition="mesh=M=2 algorithm=exhaustive pad=false min-dims=1 list-actions=true context-actions=true" -o %t.core.mlir 2>&1 | FileCheck %s --check-prefix=CONTEXT
// RUN: toast-run --compare %s %t.core.mlir | FileCheck %s --check-prefix=SAME
// RUN: toast-opt %s --toast-auto-partition="mesh=M=2 algorithm=exhaustive pad=false min-dims=1 context-actions=true progress=false emit=planned" -o %t.planned.mlir
// RUN: toast-run --compare %s %t.planned.mlir | FileCheck %s --check-prefix=SAME
// RUN: not toast-opt %s --toast-auto-partition="mesh=M=2 context-actions=maybe" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

func.func @main(%xe: tensor<63x3xf32> {partir.name = "edges"},
                %xn: tensor<63x3xf32> {partir.name = "nodes"},
                %w: tensor<3x32xf32> {partir.name = "w"})
    -> (tensor<63x32xf32>, tensor<2016xf32>) {
  %ye = stablehlo.dot_general %xe, %w, contracting_dims = [1] x [0] : (tensor<63x3xf32>, tensor<3x32xf32>) -> tensor<63x32xf32>
  %yn = stablehlo.dot_general %xn, %w, contracting_dims = [1] x [0] : (tensor<63x3xf32>, tensor<3x32xf32>) -> tensor<63x32xf32>
  %e1 = stablehlo.exponential %ye : tensor<63x32xf32>
  %e2 = stablehlo.tanh %e1 : tensor<63x32xf32>
  %e3 = stablehlo.negate %e2 : tensor<63x32xf32>
  %fn = stablehlo.reshape %yn : (tensor<63x32xf32>) -> tensor<2016xf32>
  return %e3, %fn : tensor<63x32xf32>, tensor<2016xf32>
}

// FAMILY: auto-partition: exhaustive, 1 NDA actions
// FAMILY-NEXT: auto-partition: action 0: shard color [[W:[0-9]+]] (w[1]: {{[0-9]+}} dims) on axis M
// FAMILY-NOT: where it meets
// FAMILY: auto-partition: exhaustive chose 0 actions in {{.*}} (2 rounds, 2 rollouts, 2 states priced; {{.*}}; stopped: optimal over the actions: every state priced): cost 1 (

// CONTEXT: auto-partition: exhaustive, 2 NDA actions
// CONTEXT-NEXT: auto-partition: action 0: shard color [[W:[0-9]+]] (w[1]: {{[0-9]+}} dims) on axis M
// CONTEXT-NEXT: auto-partition: action 1: shard color [[W]] ({{.*}}) where it meets color {{[0-9]+}} (edges[0]) on axis M
// CONTEXT: auto-partition: exhaustive chose 1 actions in {{.*}} (2 rounds, 3 rollouts, 3 states priced; {{.*}}; stopped: optimal over the actions: every state priced): cost 0.6{{[0-9]+}} (
// CONTEXT-NEXT: auto-partition:   shard color [[W]] ({{.*}}) where it meets color {{[0-9]+}} (edges[0]) on axis M

// SAME: results agree

// BAD: 'maybe' is invalid value for boolean argument
