// Imported shardings of heads that one reshape splits 8x2 and another
// names as one part of a merged 16x16 (a torch-xla MoE decode export:
// q's 32 heads come from 16x2, v's from a 4096 = 32x128 projection, and
// GSPMD shards the heads). The head factor of the second reshape maps dims
// split into different numbers of parts; the NDA blocked it, so the
// imported loop over it had no node and the search refused to start:
//   error: automatic partitioning cannot start from this state: op loops
//   over a factor the search cannot express
// Now the factor's major parts are one node (test/Analysis/
// mixed-split-factor.mlir): the import is a search state, the search
// finishes the strategy, every state is priced as lowering and simulating
// it prices it, and the results agree with the original.
// RUN: split-file %s %t
//
// One axis, GSPMD shardings (as the export has them).
// RUN: toast-opt %t/gspmd.mlir --partir-import-shardings --toast-auto-partition="device=a100 rollouts=40 budget-s=0 seed=2 threads=1" -o %t/gspmd-core.mlir 2>&1 | FileCheck %s --check-prefix=GSPMD --implicit-check-not=error
// RUN: toast-opt %t/gspmd-core.mlir --partir-lower-to-hlo -o %t/gspmd-hlo.mlir
// RUN: toast-run --compare %t/gspmd.mlir %t/gspmd-hlo.mlir --seed 1 | FileCheck %s --check-prefix=AGREE
// RUN: env TOAST_CHECK_ANALYTIC=1e-9 toast-opt %t/gspmd.mlir --partir-import-shardings --toast-auto-partition="algorithm=exhaustive device=a100 materialize=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXACT --implicit-check-not=check-analytic
// GSPMD: start cost 0.3077
// GSPMD: mcts chose 0 actions
// The imported loop over the heads stays (4 heads of 16 per device).
// GSPMD-CORE: partir.loop "d1" [#partir.tile<1>]
// RUN: FileCheck %s --check-prefix=GSPMD-CORE --input-file=%t/gspmd-core.mlir
//
// Two axes, open Shardy shardings: the search adds the batch on "b".
// RUN: env TOAST_CHECK_ANALYTIC=1e-9 toast-opt %t/sdy.mlir --partir-import-shardings --toast-auto-partition="algorithm=exhaustive device=a100" -o %t/sdy-core.mlir 2>&1 | FileCheck %s --check-prefix=SDY --implicit-check-not=check-analytic --implicit-check-not=error
// RUN: toast-opt %t/sdy-core.mlir --partir-lower-to-hlo -o %t/sdy-hlo.mlir
// RUN: toast-run --compare %t/sdy.mlir %t/sdy-hlo.mlir --seed 3 | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/sdy.mlir --partir-import-shardings --toast-auto-partition="algorithm=exhaustive device=a100 emit=planned progress=false" -o %t/sdy-planned.mlir
// RUN: toast-run --compare %t/sdy.mlir %t/sdy-planned.mlir --seed 3 | FileCheck %s --check-prefix=AGREE
// SDY: exhaustive chose 1 actions {{.*}} 242 states priced
// SDY-NEXT: shard color 0 (arg0[0]: 11 dims) on axis b
// EXACT: exhaustive chose
// AGREE: results agree
//
// A pad whose padded dim the import tiles before it (the export's pads of
// its 494 positions to 512) never kept a search from starting: its padded
// dims identify nothing, so the tanh's 494 node stays shardable (here the
// search loops the pad over its rows, which it reads re-sliced).
// PAD-CORE: stablehlo.tanh %{{.*}} : tensor<4x247xf32>
// PAD-CORE: stablehlo.pad %{{.*}} : (tensor<2x494xf32>, tensor<f32>) -> tensor<2x512xf32>
// RUN: env TOAST_CHECK_ANALYTIC=1e-9 toast-opt %t/pad.mlir --partir-import-shardings --toast-auto-partition="algorithm=exhaustive device=a100" -o %t/pad-core.mlir 2>&1 | FileCheck %s --check-prefix=EXACT --implicit-check-not=check-analytic --implicit-check-not=error
// RUN: FileCheck %s --check-prefix=PAD-CORE --input-file=%t/pad-core.mlir
// RUN: toast-opt %t/pad-core.mlir --partir-lower-to-hlo -o %t/pad-hlo.mlir
// RUN: toast-run --compare %t/pad.mlir %t/pad-hlo.mlir | FileCheck %s --check-prefix=AGREE
//
// What a state still cannot express stays a located error, with the
// reason: the layer index of stacked weights a loop reads by its counter,
// tiled as an argument or looped over by an op.
// RUN: not toast-opt %t/stacked.mlir --partir-import-shardings --toast-auto-partition="device=a100 rollouts=10 budget-s=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STACKED-ARG
// RUN: not toast-opt %t/stacked-op.mlir --partir-import-shardings --toast-auto-partition="device=a100 rollouts=10 budget-s=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STACKED-OP
// STACKED-ARG: stacked.mlir:1:39: error: automatic partitioning cannot start from this state: argument tiled on a dimension the search cannot express
// STACKED-ARG: note: dimension arg1[0] is stacked: the layer index of values a loop reads by its counter, which the search never shards
// STACKED-ARG: note: a search state gives every dimension-graph node
// STACKED-OP: stacked-op.mlir:2:9: error: automatic partitioning cannot start from this state: op loops over a factor the search cannot express
// STACKED-OP: note: dimension use #0 stablehlo.multiply(0)[0] is stacked

//--- gspmd.mlir
func.func @main(%q: tensor<4x8x2x16xf32>, %kv: tensor<4x256xf32> {mhlo.sharding = "{devices=[1,4]<=[4]}"}, %w: tensor<16x32xf32>) -> tensor<4x16x32xf32> {
  %a = stablehlo.reshape %q : (tensor<4x8x2x16xf32>) -> tensor<4x16x16xf32>
  %b = stablehlo.reshape %kv : (tensor<4x256xf32>) -> tensor<4x16x16xf32>
  %c = stablehlo.multiply %a, %b : tensor<4x16x16xf32>
  %d = stablehlo.dot_general %c, %w, contracting_dims = [2] x [0] : (tensor<4x16x16xf32>, tensor<16x32xf32>) -> tensor<4x16x32xf32>
  return %d : tensor<4x16x32xf32>
}

//--- sdy.mlir
module @heads attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["h"=4, "b"=2]>
  func.func public @main(%q: tensor<4x8x2x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}, {?}, {?}]>},
                         %kv: tensor<4x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"h", ?}]>},
                         %w: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}) -> tensor<4x16x32xf32> {
    %a = stablehlo.reshape %q : (tensor<4x8x2x16xf32>) -> tensor<4x16x16xf32>
    %b = stablehlo.reshape %kv : (tensor<4x256xf32>) -> tensor<4x16x16xf32>
    %c = stablehlo.multiply %a, %b : tensor<4x16x16xf32>
    %d = stablehlo.dot_general %c, %w, contracting_dims = [2] x [0] : (tensor<4x16x16xf32>, tensor<16x32xf32>) -> tensor<4x16x32xf32>
    return %d : tensor<4x16x32xf32>
  }
}

//--- stacked.mlir
func.func @main(%x: tensor<8x16xf32>, %w: tensor<4x16x16xf32> {mhlo.sharding = "{devices=[4,1,1]<=[4]}"}) -> tensor<8x16xf32> {
  %w2 = stablehlo.multiply %w, %w : tensor<4x16x16xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %h = %x, %a = %w2) : tensor<i32>, tensor<8x16xf32>, tensor<4x16x16xf32>
   cond {
    %n = stablehlo.constant dense<4> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %s = stablehlo.dynamic_slice %a, %i, %z, %z, sizes = [1, 16, 16] : (tensor<4x16x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x16xf32>
    %m = stablehlo.reshape %s : (tensor<1x16x16xf32>) -> tensor<16x16xf32>
    %y = stablehlo.dot_general %h, %m, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %next, %y, %a : tensor<i32>, tensor<8x16xf32>, tensor<4x16x16xf32>
  }
  return %r#1 : tensor<8x16xf32>
}

//--- stacked-op.mlir
func.func @main(%x: tensor<8x16xf32>, %w: tensor<4x16x16xf32>) -> tensor<8x16xf32> {
  %w1 = stablehlo.multiply %w, %w : tensor<4x16x16xf32>
  %w2 = stablehlo.custom_call @Sharding(%w1) {mhlo.sharding = "{devices=[4,1,1]<=[4]}"} : (tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %h = %x, %a = %w2) : tensor<i32>, tensor<8x16xf32>, tensor<4x16x16xf32>
   cond {
    %n = stablehlo.constant dense<4> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %s = stablehlo.dynamic_slice %a, %i, %z, %z, sizes = [1, 16, 16] : (tensor<4x16x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x16xf32>
    %m = stablehlo.reshape %s : (tensor<1x16x16xf32>) -> tensor<16x16xf32>
    %y = stablehlo.dot_general %h, %m, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %next, %y, %a : tensor<i32>, tensor<8x16xf32>, tensor<4x16x16xf32>
  }
  return %r#1 : tensor<8x16xf32>
}

//--- pad.mlir
func.func @main(%x: tensor<4x494xf32> {mhlo.sharding = "{devices=[1,2]<=[2]}"}, %y: tensor<4x512xf32>) -> tensor<4x512xf32> {
  %t = stablehlo.tanh %x : tensor<4x494xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %p = stablehlo.pad %t, %z, low = [0, 0], high = [0, 18], interior = [0, 0] : (tensor<4x494xf32>, tensor<f32>) -> tensor<4x512xf32>
  %m = stablehlo.multiply %p, %y : tensor<4x512xf32>
  return %m : tensor<4x512xf32>
}
