// --toast-emit-planned: the device-local program the search's planner
// describes for a manual schedule's state, built without materializeCore,
// lowering or the collective optimizer, computes what the original
// computes and simulates to the step time of the PartIR:Core path's
// program (each at most the other's) and to the analytic price (remark).

// RUN: toast-models t2b --layers 2 --batch 8 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 32 --quiet -o %t.t2b.mlir
// RUN: toast-opt %t.t2b.mlir --partir-manual-partition="name=BP axis=B inputs=re:batch\..*=0 mesh=B=4,M=2" --toast-emit-planned="report=true" -o %t.t2b.planned.mlir 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: toast-run --compare %t.t2b.mlir %t.t2b.planned.mlir --seed 5 | FileCheck %s --check-prefix=SAME
// RUN: toast-opt %t.t2b.planned.mlir --partir-simulate="json=%t.t2b.planned.json summary=false" -o /dev/null
// RUN: toast-opt %t.t2b.mlir --partir-manual-partition="name=BP axis=B inputs=re:batch\..*=0 mesh=B=4,M=2" --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="json=%t.t2b.core.json summary=false" -o /dev/null
// RUN: %python %S/Inputs/step_time_at_most.py %t.t2b.planned.json %t.t2b.core.json | FileCheck %s --check-prefix=EQUAL
// RUN: %python %S/Inputs/step_time_at_most.py %t.t2b.core.json %t.t2b.planned.json | FileCheck %s --check-prefix=EQUAL

// Batch and the MLP's hidden layer (Megatron-style), with collectives
// between them.
// RUN: toast-models mlp --batch 8 --d-model 16 --hidden 32 --quiet -o %t.mlp.mlir
// RUN: toast-opt %t.mlp.mlir --partir-manual-partition="name=BP axis=B inputs=re:batch\..*=0 mesh=B=2,M=2" --partir-manual-partition="name=MP axis=M inputs=re:params.layer_0.w=1 mesh=B=2,M=2" --toast-emit-planned -o %t.mlp.planned.mlir
// RUN: FileCheck %s --check-prefix=HLO < %t.mlp.planned.mlir
// RUN: toast-run --compare %t.mlp.mlir %t.mlp.planned.mlir --seed 5 | FileCheck %s --check-prefix=SAME
// RUN: toast-opt %t.mlp.planned.mlir --partir-simulate="json=%t.mlp.planned.json summary=false" -o /dev/null
// RUN: toast-opt %t.mlp.mlir --partir-manual-partition="name=BP axis=B inputs=re:batch\..*=0 mesh=B=2,M=2" --partir-manual-partition="name=MP axis=M inputs=re:params.layer_0.w=1 mesh=B=2,M=2" --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="json=%t.mlp.core.json summary=false" -o /dev/null
// RUN: %python %S/Inputs/step_time_at_most.py %t.mlp.planned.json %t.mlp.core.json | FileCheck %s --check-prefix=EQUAL
// RUN: %python %S/Inputs/step_time_at_most.py %t.mlp.core.json %t.mlp.planned.json | FileCheck %s --check-prefix=EQUAL

// A padded state (6 rows on 4 devices, 2 each, the last holding padding
// only): the sum over the rows reads them through the mask lowering puts
// there, the boundary records the global shape, and the program computes
// what the original computes and simulates to the Core path's step time.
// RUN: toast-opt %s --partir-manual-partition="name=BP axis=B inputs=arg0=0 mesh=B=4" --toast-emit-planned -o %t.pad.mlir
// RUN: FileCheck %s --check-prefix=PADDED < %t.pad.mlir
// RUN: toast-run --compare %s %t.pad.mlir --seed 5 | FileCheck %s --check-prefix=SAME
// RUN: toast-opt %t.pad.mlir --partir-simulate="json=%t.pad.planned.json summary=false" -o /dev/null
// RUN: toast-opt %s --partir-manual-partition="name=BP axis=B inputs=arg0=0 mesh=B=4" --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="json=%t.pad.core.json summary=false" -o /dev/null
// RUN: %python %S/Inputs/step_time_at_most.py %t.pad.planned.json %t.pad.core.json | FileCheck %s --check-prefix=EQUAL
// RUN: %python %S/Inputs/step_time_at_most.py %t.pad.core.json %t.pad.planned.json | FileCheck %s --check-prefix=EQUAL

// REPORT: remark: planned: analytic step time {{.*}} ms, 2 all_gather, 17 all_reduce
// SAME: results agree
// EQUAL: : ok
// HLO: func.func @main
// HLO-SAME: partir.sharding
// HLO: partir_hlo.all_reduce
// HLO-NOT: partir.loop
// PADDED: func.func @main(%arg0: tensor<2x4xf32> {partir.sharding = {{\[}}["B"], []], toast.global_shape = array<i64: 6, 4>})
// PADDED-SAME: -> (tensor<2x4xf32> {partir.sharding = {{\[}}["B"], []], toast.global_shape = array<i64: 6, 4>}, tensor<4xf32>)
// PADDED: partir_hlo.all_slice [{"B"}] %{{.*}} : tensor<8xi1> -> tensor<2xi1>
// PADDED: stablehlo.select
// PADDED: stablehlo.reduce
// PADDED: partir_hlo.all_reduce "sum" ["B"]

func.func @main(%x: tensor<6x4xf32>) -> (tensor<6x4xf32>, tensor<4xf32>) {
  %0 = stablehlo.tanh %x : tensor<6x4xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<6x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0, %1 : tensor<6x4xf32>, tensor<4xf32>
}
