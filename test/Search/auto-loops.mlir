// The automatic partitioner shards inside loop bodies (issue 14): states
// that shard values of a loop body or a loop-carried value are priced
// through the reference path (materialize, lower, simulate a copy), and the
// stacked layer dimension that a scan's body only indexes is never an
// action.
//
// The 4-layer MLP written as a scan: batch parallelism inside the loop, the
// loop carrying the device-local batch (4x, as its unrolled twin). Not a
// quarter of the step: under the roofline each device still reads every
// layer's weights whole (the body's dynamic_slices are views, read by the
// dots), which this tiny MLP's step is mostly made of.
// RUN: toast-opt %S/../Partition/Inputs/scan-mlp.mlir --toast-auto-partition="mesh=B=4 device=a100 seed=1" --partir-lower-to-hlo -o %t.bp.mlir 2>&1 | FileCheck %s --check-prefix=BP-SEARCH
// RUN: FileCheck %s --check-prefix=BP < %t.bp.mlir
// RUN: toast-run --compare %S/../Partition/Inputs/scan-mlp.mlir %t.bp.mlir | FileCheck %s
// BP-SEARCH: mcts chose 1 actions
// BP-SEARCH-SAME: cost 0.3867
// BP-SEARCH: shard color {{[0-9]+}} (batch.x[0]: 48 dims) on axis B
// BP: stablehlo.while({{.*}}) : tensor<i32>, tensor<8x16xf32>, tensor<4x16x64xf32>, tensor<4x64x16xf32>
// BP-NOT: partir_hlo.all_gather
//
// A decode loop (itx with four decode steps in a stablehlo.while): the
// search shards the prompt's batch, which the loop carries in its KV cache.
// RUN: toast-models itx --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 --kv-heads 1 --key-size 4 --vocab 32 --hidden 32 --decode-steps 4 --quiet -o %t.itx.mlir
// RUN: toast-opt %t.itx.mlir --toast-auto-partition="mesh=B=2,M=2 device=a100 seed=1 rollouts=64 restart-patience=2" --partir-lower-to-hlo -o %t.itx.auto.mlir 2>&1 | FileCheck %s --check-prefix=DECODE
// RUN: toast-run --compare %t.itx.mlir %t.itx.auto.mlir | FileCheck %s
// DECODE: shard color {{[0-9]+}} (batch.prompt[0]: {{[0-9]+}} dims) on axis
//
// CHECK: results agree
