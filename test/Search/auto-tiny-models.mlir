// AutomaticPartition on tiny models, priced on a slow device
// (Inputs/slow.json) so that partitioning pays off at this size:
//  * the strategy it finds is at least as fast as batch parallelism (BP),
//  * the partitioned program computes what the original computes,
//  * the same seed and thread count give the same program.

// RUN: toast-models mlp --batch 32 --d-model 16 --hidden 32 --quiet -o %t.mlp.mlir
// RUN: toast-opt %t.mlp.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/Inputs/slow.json seed=1 threads=2 rollouts=2000 budget-s=0 min-dims=2" -o %t.mlp.auto.mlir 2> %t.mlp.log
// RUN: FileCheck %s --check-prefix=LOG < %t.mlp.log
// RUN: toast-run --compare %t.mlp.mlir %t.mlp.auto.mlir --seed 5 | FileCheck %s --check-prefix=SAME
// RUN: toast-opt %t.mlp.auto.mlir --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="device=file:%S/Inputs/slow.json json=%t.mlp.auto.json summary=false" -o /dev/null
// RUN: toast-opt %t.mlp.mlir --partir-manual-partition="name=BP axis=B inputs=re:batch\..*=0 mesh=B=4,M=2" --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="device=file:%S/Inputs/slow.json json=%t.mlp.bp.json summary=false" -o /dev/null
// RUN: %python %S/Inputs/step_time_at_most.py %t.mlp.auto.json %t.mlp.bp.json | FileCheck %s --check-prefix=FAST
// RUN: toast-opt %t.mlp.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/Inputs/slow.json seed=1 threads=2 rollouts=2000 budget-s=0 min-dims=2 progress=false" -o %t.mlp.auto2.mlir
// RUN: diff %t.mlp.auto.mlir %t.mlp.auto2.mlir

// RUN: toast-models t2b --layers 2 --batch 8 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 32 --quiet -o %t.t2b.mlir
// RUN: toast-opt %t.t2b.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/Inputs/slow.json seed=3 threads=2 rollouts=3000 budget-s=0 min-dims=2 progress=false" -o %t.t2b.auto.mlir
// RUN: toast-run --compare %t.t2b.mlir %t.t2b.auto.mlir --seed 5 | FileCheck %s --check-prefix=SAME
// RUN: toast-opt %t.t2b.auto.mlir --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="device=file:%S/Inputs/slow.json json=%t.t2b.auto.json summary=false" -o /dev/null
// RUN: toast-opt %t.t2b.mlir --partir-manual-partition="name=BP axis=B inputs=re:batch\..*=0 mesh=B=4,M=2" --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="device=file:%S/Inputs/slow.json json=%t.t2b.bp.json summary=false" -o /dev/null
// RUN: %python %S/Inputs/step_time_at_most.py %t.t2b.auto.json %t.t2b.bp.json | FileCheck %s --check-prefix=FAST
// RUN: toast-opt %t.t2b.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/Inputs/slow.json seed=3 threads=2 rollouts=3000 budget-s=0 min-dims=2 progress=false" -o %t.t2b.auto2.mlir
// RUN: diff %t.t2b.auto.mlir %t.t2b.auto2.mlir

// LOG: auto-partition: mcts, {{[0-9]+}} NDA actions on slow (setup {{.*}} s); start cost 1 ({{.*}} step, {{.*}} peak)
// LOG: auto-partition: round 1: {{[0-9]+}} rollouts, best cost {{.*}}, {{.*}} s
// LOG: auto-partition: mcts chose {{[1-9][0-9]*}} actions in {{.*}} s ({{[0-9]+}} rounds, {{[0-9]+}} rollouts, {{[0-9]+}} states priced; best after {{[0-9.]+}} s; stopped: {{.*}}): cost {{.*}}
// LOG: auto-partition:   shard color {{[0-9]+}} ({{.*}} dims) on axis {{B|M}}

// SAME: results agree
// FAST: : ok
