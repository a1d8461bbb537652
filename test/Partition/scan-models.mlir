// Scanned tiny models (toast-models --scan: the layers in one
// stablehlo.while over stacked [L, ...] parameters, forward and backward)
// partitioned by expert schedules and by the automatic partitioner, then
// run SPMD against the original. The layer loops carry device-local
// shards; collectives sit inside the loop bodies.
//
// RUN: toast-models transformer --scan --layers 2 --batch 4 --seq 8 --d-model 16 --heads 2 --kv-heads 2 --key-size 8 --vocab 32 --hidden 32 --quiet -o %t.scan.mlir
//
// Batch parallelism:
// RUN: toast-opt %t.scan.mlir --partir-manual-partition="axis=B inputs=re:batch\..*=0 mesh=B=4" --partir-materialize-core --partir-lower-to-hlo -o %t.bp.mlir
// RUN: FileCheck %s --check-prefix=BP < %t.bp.mlir
// RUN: toast-run --compare %t.scan.mlir %t.bp.mlir | FileCheck %s
// BP: stablehlo.while({{.*}}) : tensor<i32>, tensor<1x8x16xf32>
//
// Batch + Megatron + ZeRO-3 (stacked dimensions named explicitly):
// RUN: toast-opt %t.scan.mlir --partir-schedule=file=%S/Inputs/scan-bp-mp-z3.json --partir-lower-to-hlo -o %t.z3.mlir
// RUN: FileCheck %s --check-prefix=Z3 < %t.z3.mlir
// RUN: toast-run --compare %t.scan.mlir %t.z3.mlir | FileCheck %s
// Z3: stablehlo.while
// Z3: } do {
// Z3: partir_hlo.all_gather
// Z3: partir_hlo.all_reduce "sum" ["M"]
//
// Automatic (the search may shard inside the loop bodies):
// RUN: toast-opt %t.scan.mlir --toast-auto-partition="mesh=B=2,M=2 device=a100 rollouts=200 seed=1" --partir-lower-to-hlo -o %t.auto.mlir
// RUN: toast-run --compare %t.scan.mlir %t.auto.mlir | FileCheck %s
//
// CHECK: results agree
