// A shard_map region that is manual on "B" only (JAX's shard_map with
// axis_names={"B"}: the free axis "M" left to the partitioner, in/out
// shardings open). Its body is per device on "B" but may be partitioned
// further on "M": a tactic outside (here the weight tiled on "M") propagates
// into the body through the operand's edge and out of it through the
// result's, like through a while body; the manual axis never enters the
// body's loop nests. After lowering the body works on values local on both
// axes, with no collective at the boundary, and computes what the region
// means (toast-run --compare).
// RUN: split-file %s %t
// RUN: toast-opt %t/mlp.mlir --partir-import-shardings --partir-schedule="file=%t/mp.json materialize=false" | FileCheck %s --check-prefix=STATE
// RUN: toast-opt %t/mlp.mlir --partir-import-shardings --partir-schedule="file=%t/mp.json" --partir-lower-to-hlo -o %t/mp-hlo.mlir
// RUN: FileCheck %s --check-prefix=HLO --input-file=%t/mp-hlo.mlir
// RUN: toast-run --compare %t/mlp.mlir %t/mp-hlo.mlir --seed 3 | FileCheck %s --check-prefix=AGREE
// The whole strategy exported (the body's ops annotated on the free axis)
// and imported again lowers to the same device-local program.
// RUN: toast-opt %t/mlp.mlir --partir-import-shardings --partir-schedule="file=%t/mp.json materialize=false" --partir-export-shardings -o %t/whole.mlir
// RUN: FileCheck %s --check-prefix=WHOLE --input-file=%t/whole.mlir
// RUN: toast-opt %t/whole.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo -o %t/whole-hlo.mlir
// RUN: diff %t/whole-hlo.mlir %t/mp-hlo.mlir
// RUN: toast-opt %t/mlp.mlir --partir-import-shardings --partir-schedule="file=%t/bias.json" --partir-lower-to-hlo -o %t/bias-hlo.mlir
// RUN: FileCheck %s --check-prefix=BIAS --input-file=%t/bias-hlo.mlir
// RUN: toast-run --compare %t/mlp.mlir %t/bias-hlo.mlir --seed 4 | FileCheck %s --check-prefix=AGREE
// RUN: not toast-opt %t/tagged.mlir --partir-import-shardings --partir-schedule="file=%t/manual-axis.json" 2>&1 | FileCheck %s --check-prefix=MANUAL
// RUN: toast-opt %t/tagged.mlir --partir-import-shardings --partir-schedule="file=%t/inner.json" --partir-lower-to-hlo -o %t/inner-hlo.mlir
// RUN: FileCheck %s --check-prefix=INNER --input-file=%t/inner-hlo.mlir
// RUN: toast-run --compare %t/tagged.mlir %t/inner-hlo.mlir --seed 5 | FileCheck %s --check-prefix=AGREE

// AGREE: results agree

// The body's ops loop over "M" only; the edges (operands, then results)
// carry "M" across the boundary; the consumer outside loops over both.
// STATE: func.func public @main(%arg0: tensor<8x16xf32> {partir.tiling = ["B:0"]}, %arg1: tensor<16x32xf32> {partir.tiling = ["M:1"]}, %arg2: tensor<32xf32>)
// STATE: stablehlo.dot_general %{{.*}} {partir.loops = ["M:1"]} : (tensor<4x16xf32>, tensor<16x32xf32>) -> tensor<4x32xf32>
// STATE-NEXT: stablehlo.tanh %{{.*}} {partir.loops = ["M:1"]} : tensor<4x32xf32>
// STATE: {partir.edge_loops = {{\[}}[], ["M:1"], ["M:1"]]}
// STATE: stablehlo.add %{{.*}} {partir.loops = ["B:0", "M:1"]} : tensor<8x32xf32>

// HLO-LABEL: func.func public @main(%arg0: tensor<4x16xf32> {partir.sharding = {{\[\["B"\], \[\]\]}}}, %arg1: tensor<16x16xf32> {partir.sharding = {{\[\[\], \["M"\]\]}}}, %arg2: tensor<16xf32> {partir.sharding = {{\[\["M"\]\]}}})
// HLO-NOT: partir_hlo
// HLO-NOT: sdy.
// HLO: stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]{{.*}} : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
// HLO-NEXT: stablehlo.tanh %{{.*}} : tensor<4x16xf32>
// HLO: return %{{.*}} : tensor<4x16xf32>

// WHOLE: stablehlo.dot_general {{.*}}sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}, {"M"}]>]>} : (tensor<4x16xf32>, tensor<16x32xf32>) -> tensor<4x32xf32>

// A tiling of a value after the region flows backward into the body (and
// on to the weight).
// BIAS-LABEL: func.func public @main(%arg0: tensor<4x16xf32> {partir.sharding = {{\[\["B"\], \[\]\]}}}, %arg1: tensor<16x16xf32> {partir.sharding = {{\[\[\], \["M"\]\]}}}, %arg2: tensor<16xf32> {partir.sharding = {{\[\["M"\]\]}}})
// BIAS-NOT: partir_hlo
// BIAS: stablehlo.dot_general %arg0, %arg1{{.*}} -> tensor<4x16xf32>

// A tactic on the manual axis cannot tile a body value: located error.
// MANUAL: tagged.mlir:6:12: error: tile: the value is in a shard_map body that is manual on axis "B"; only its free axes can tile it

// A tactic on a body value (tagged) over the free axis: the body's
// intermediate is tiled on "M"; the dot before it loops on "M" too.
// INNER-LABEL: func.func public @main
// INNER: stablehlo.dot_general {{.*}} -> tensor<4x16xf32>
// INNER: stablehlo.tanh %{{.*}} : tensor<4x16xf32>

//--- mlp.mlir
module @jit_mlp attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["B"=2, "M"=2]>
  func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<32xf32>) -> (tensor<8x32xf32> {jax.result_info = ""}) {
    %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"B", ?}, {?}]>, <@mesh, [{?}, {?}]>] out_shardings=[<@mesh, [{"B", ?}, {?}]>] manual_axes={"B"} (%arg3: tensor<4x16xf32>, %arg4: tensor<16x32xf32>) {
      %3 = stablehlo.dot_general %arg3, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16xf32>, tensor<16x32xf32>) -> tensor<4x32xf32>
      %4 = stablehlo.tanh %3 : tensor<4x32xf32>
      sdy.return %4 : tensor<4x32xf32>
    } : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<32xf32>) -> tensor<8x32xf32>
    %2 = stablehlo.add %0, %1 : tensor<8x32xf32>
    return %2 : tensor<8x32xf32>
  }
}

//--- tagged.mlir
module @jit_mlp attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["B"=2, "M"=2]>
  func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>) -> (tensor<8x32xf32> {jax.result_info = ""}) {
    %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"B", ?}, {?}]>, <@mesh, [{?}, {?}]>] out_shardings=[<@mesh, [{"B", ?}, {?}]>] manual_axes={"B"} (%arg3: tensor<4x16xf32>, %arg4: tensor<16x32xf32>) {
      %3 = stablehlo.dot_general %arg3, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16xf32>, tensor<16x32xf32>) -> tensor<4x32xf32>
      %4 = partir.tag "h" %3 : tensor<4x32xf32>
      %5 = stablehlo.tanh %4 : tensor<4x32xf32>
      sdy.return %5 : tensor<4x32xf32>
    } : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    return %0 : tensor<8x32xf32>
  }
}

//--- mp.json
{"tactics": [{"name": "MP", "kind": "manual", "axis": "M", "inputs": {"arg1": 1}}]}

//--- bias.json
{"tactics": [{"name": "MP", "kind": "manual", "axis": "M", "inputs": {"arg2": 0}}]}

//--- manual-axis.json
{"tactics": [{"name": "BP", "kind": "manual", "axis": "B", "inputs": {"h": 0}}]}

//--- inner.json
{"tactics": [{"name": "MP", "kind": "manual", "axis": "M", "inputs": {"h": 1}}]}
