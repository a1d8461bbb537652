// Every corpus model: ManualPartition(arg0 -> first divisible dim, axis of
// size 2) then propagation succeeds and the PartIR:Core result verifies
// (the loop verifier rejects nested loops over one axis).
// REQUIRES: corpus
//
// RUN: toast-opt %corpus/models/pt_bert.mlir --partir-schedule=file=%S/Inputs/first-divisible-x2.json | FileCheck %s
// RUN: toast-opt %corpus/models/searchless_chess_9m.mlir --partir-schedule=file=%S/Inputs/first-divisible-x2.json | FileCheck %s
// RUN: toast-opt %corpus/models/jax_resnet_50.mlir --partir-schedule=file=%S/Inputs/first-divisible-x2.json | FileCheck %s
// RUN: toast-opt %corpus/models/kan1.mlir --partir-schedule=file=%S/Inputs/first-divisible-x2.json | FileCheck %s
// RUN: toast-opt %corpus/models/kan2.mlir --partir-schedule=file=%S/Inputs/first-divisible-x2.json | FileCheck %s
// RUN: toast-opt %corpus/models/kan1.mlir --partir-schedule="file=%S/Inputs/first-divisible-x2.json report=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=KAN1

// CHECK: partir.mesh = #partir.mesh<["X"=2]>
// CHECK: partir.loop "X" [#partir.tile<{{[0-9]}}>]
// KAN1: remark: inlined 24 calls into @main so that tilings propagate through them
// The 33 ops whose results nothing reads (transposes the export keeps) are
// erased before partitioning, as lowering would erase them after.
// KAN1: remark: erased 33 ops of @main whose results nothing reads
// KAN1: tactic {{P}}: 1 actions, 159 ops partitioned on its axis
