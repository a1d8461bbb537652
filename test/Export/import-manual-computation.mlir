// A shard_map region (sdy.manual_computation) is honoured, not undone:
// --partir-import-shardings takes its in/out shardings as user shardings
// (the producers of its operands are partitioned as the region wants them),
// and --partir-lower-to-hlo inlines the body on its local shards, with no
// all_gather/all_slice pair where the layouts already match. Nothing of
// sdy survives in the device-local program or its StableHLO export, and
// toast-run --compare proves them equal to the original (whose region
// toast-run runs as shard_map means it).
// RUN: split-file %s %t
// RUN: toast-opt %t/megatron.mlir --partir-import-shardings | FileCheck %s --check-prefix=IMPORT
// RUN: toast-opt %t/megatron.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo -o %t/megatron-hlo.mlir
// RUN: FileCheck %s --check-prefix=HLO --input-file=%t/megatron-hlo.mlir
// RUN: not grep -E "partir_hlo|sdy.manual_computation" %t/megatron-hlo.mlir
// RUN: toast-run --compare %t/megatron.mlir %t/megatron-hlo.mlir --seed 5 | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/megatron-hlo.mlir --partir-export-stablehlo -o %t/megatron-shlo.mlir
// RUN: FileCheck %s --check-prefix=SHLO --input-file=%t/megatron-shlo.mlir
// RUN: not grep -E "sdy\.|custom_call" %t/megatron-shlo.mlir
// RUN: toast-run --compare %t/megatron.mlir %t/megatron-shlo.mlir --seed 5 | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/free-axis.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo -o %t/free-axis-hlo.mlir
// RUN: FileCheck %s --check-prefix=FREE --input-file=%t/free-axis-hlo.mlir
// RUN: toast-run --compare %t/free-axis.mlir %t/free-axis-hlo.mlir --seed 5 | FileCheck %s --check-prefix=AGREE

// AGREE: results agree

// The boundary's layout propagates into the producer of the operands.
// IMPORT: func.func @main(%arg0: tensor<8x4xf32>, %arg1: tensor<4x6xf32> {partir.atomic = ["a"], partir.tiling = ["b:0"]})
// (The region's operand edge reads %x2 on "a" and "b": the multiply loops so,
// and the boundary's sharding then needs no explicit tiling.)
// IMPORT: stablehlo.multiply %arg0, %arg0 {partir.loops = ["a:0", "b:1"]} : tensor<8x4xf32>
// IMPORT: sdy.manual_computation
// The result's "a" tiling is the region's own (its manual axes), not an
// explicit tiling; "b" stays atomic as the closed out_sharding says.
// IMPORT: {partir.result_atomic = {{\[\["b"\]\]}}}
// IMPORT-NEXT: stablehlo.exponential %{{.*}} {partir.loops = ["a:0"]}

// HLO-LABEL: func.func @main(%arg0: tensor<4x2xf32> {partir.sharding = {{\[\["a"\], \["b"\]\]}}}, %arg1: tensor<2x6xf32> {partir.sharding = {{\[\["b"\], \[\]\]}}}) -> (tensor<4x6xf32> {partir.sharding = {{\[\["a"\], \[\]\]}}})
// HLO-NOT: partir_hlo.all_gather
// HLO-NOT: partir_hlo.all_slice
// HLO-NOT: sdy.manual_computation
// HLO: %[[M:.*]] = stablehlo.multiply %arg0, %arg0 : tensor<4x2xf32>
// HLO-NEXT: %[[D:.*]] = stablehlo.dot_general %[[M]], %arg1, contracting_dims = [1] x [0] : (tensor<4x2xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
// HLO-NEXT: %[[S:.*]] = "stablehlo.all_reduce"(%[[D]])
// HLO: stablehlo.exponential %[[S]] : tensor<4x6xf32>

// SHLO-NOT: sdy.
// SHLO-NOT: custom_call
// SHLO: func.func @main(%arg0: tensor<4x2xf32> {toast.global_sharding = "{devices=[2,2]<=[4]}"}

// Only "a" is manual, and the operand's in_sharding puts the free axis "b"
// on its columns: the body is partitioned on "b" too (the transpose runs on
// the 4x2 shard). The closed out_sharding keeps the result whole on "b"
// (partir.keep_whole): the boundary gathers "b" and returns the caller's
// layout. (Until 2026-11-27 the result was returned split on "b",
// [["a", "b"], []], with nothing communicated.)
// FREE-LABEL: func.func @main(%arg0: tensor<4x2xf32> {partir.sharding = {{\[\["a"\], \["b"\]\]}}}) -> (tensor<4x4xf32> {partir.sharding = {{\[\["a"\], \[\]\]}}})
// FREE-NEXT: %[[T:.*]] = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<4x2xf32>) -> tensor<2x4xf32>
// FREE-NEXT: %[[G:.*]] = partir_hlo.all_gather [{"b"}, {}] %[[T]] : tensor<2x4xf32> -> tensor<4x4xf32>
// FREE-NEXT: return %[[G]]
//
// A schedule's per-tactic simulation lowers its copy as --partir-lower-to-hlo
// does (partir_hlo::lowerToDeviceLocal): the region is inlined, so it reports
// the pass's one all_reduce and 272 B peak, not a gather around the region.
// RUN: toast-opt %t/megatron.mlir --partir-import-shardings --partir-schedule="file=%t/report.json report=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: toast-opt %t/megatron.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo --partir-simulate=device=a100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=PASS
// REPORT: tactic none: {{.*}} peak 272 B, 0 all_gather, 1 all_reduce,
// PASS: peak memory {{ *}}: 272 B
// PASS: collectives {{ *}}: all_gather=0 all_reduce=1

//--- megatron.mlir
module attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @main(%x: tensor<8x4xf32>, %w: tensor<4x6xf32>) -> tensor<8x6xf32> {
    %x2 = stablehlo.multiply %x, %x : tensor<8x4xf32>
    %0 = sdy.manual_computation(%x2, %w) in_shardings=[<@mesh, [{"a"}, {"b"}]>, <@mesh, [{"b"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a", "b"} (%lx: tensor<4x2xf32>, %lw: tensor<2x6xf32>) {
      %p = stablehlo.dot_general %lx, %lw, contracting_dims = [1] x [0] : (tensor<4x2xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
      %s = "stablehlo.all_reduce"(%p) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
      ^bb0(%u: tensor<f32>, %v: tensor<f32>):
        %w2 = stablehlo.add %u, %v : tensor<f32>
        stablehlo.return %w2 : tensor<f32>
      }) : (tensor<4x6xf32>) -> tensor<4x6xf32>
      sdy.return %s : tensor<4x6xf32>
    } : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
    %1 = stablehlo.exponential %0 : tensor<8x6xf32>
    return %1 : tensor<8x6xf32>
  }
}

//--- free-axis.mlir
module attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @main(%x: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}) -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {}]>}) {
    %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {"b"}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%l: tensor<4x4xf32>) {
      %t = stablehlo.transpose %l, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
      sdy.return %t : tensor<4x4xf32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}

//--- report.json
{"device": "a100",
 "tactics": [{"name": "none", "kind": "manual", "axis": "a", "inputs": {}}]}
