// Reshapes map every factor (ReshapeRule.cpp): the merged (B*S) dimension
// of a flatten is tiled by B's axes, then S's. Each case is propagated,
// materialized, lowered, and compared with the original by toast-run.
//
// Block: B fully tiled on "a" (4 of 4), S on "b": the flatten, the linear
// layer and the unflatten run on each device's rows, no collective at all.
// RUN: toast-opt %S/Inputs/reshape-flatten.mlir --partir-tile="value=x dim=0 axis=a" --partir-tile="value=x dim=1 axis=b" --partir-propagate --partir-materialize-core -o %t.block.mlir
// RUN: FileCheck %s --check-prefix=BLOCK < %t.block.mlir
// RUN: toast-opt %t.block.mlir --partir-lower-to-hlo | FileCheck %s --check-prefix=BLOCK-HLO
// RUN: toast-run --compare %S/Inputs/reshape-flatten.mlir %t.block.mlir | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t.block.mlir --partir-lower-to-hlo -o %t.block.hlo.mlir
// RUN: toast-run --compare %S/Inputs/reshape-flatten.mlir %t.block.hlo.mlir | FileCheck %s --check-prefix=AGREE
//
// BLOCK: partir.loop "a" [#partir.tile<0>] (%{{.*}}: !partir.range<4>) {
// BLOCK-NEXT: partir.loop "b" [#partir.tile<1>] (%{{.*}}: !partir.range<2>) {
// BLOCK: stablehlo.reshape %{{.*}} : (tensor<1x4x3xf32>) -> tensor<4x3xf32>
// BLOCK-NEXT: stablehlo.dot_general {{.*}} -> tensor<4x5xf32>
// BLOCK-NEXT: stablehlo.tanh
// BLOCK-NEXT: stablehlo.reshape %{{.*}} : (tensor<4x5xf32>) -> tensor<1x4x5xf32>
// BLOCK-HLO: func.func @main(%{{.*}}: tensor<1x4x3xf32> {{.*}}partir.sharding = {{\[}}["a"], ["b"], []]
// BLOCK-HLO-NOT: partir_hlo.
// BLOCK-HLO: return
// The same with the mesh axes in the other order ("b" before "a"): the S
// axis waits for B's to be in the reshape's nest (no move), so the flatten
// is still local. (Its consumers then loop over the rows' two axes in mesh
// order, "b" outside "a", and reshard: propagation orders the axes of one
// dimension by the mesh, not by the operand's tiling; docs/schedules.md.)
// RUN: sed -e 's/"a"=4, "b"=2/"b"=2, "a"=4/' %S/Inputs/reshape-flatten.mlir > %t.rev.mlir
// RUN: toast-opt %t.rev.mlir --partir-tile="value=x dim=0 axis=a" --partir-tile="value=x dim=1 axis=b" --partir-propagate=report=true --partir-materialize-core -o %t.rev.core.mlir 2>&1 | FileCheck %s --check-prefix=REV-REPORT
// RUN: FileCheck %s --check-prefix=REV < %t.rev.core.mlir
// RUN: toast-run --compare %t.rev.mlir %t.rev.core.mlir | FileCheck %s --check-prefix=AGREE
// REV-REPORT: partir-propagate: {{.*}} 0 conflicts{{$}}
// REV: partir.loop "a" [#partir.tile<0>] (%{{.*}}: !partir.range<4>) {
// REV-NEXT: partir.loop "b" [#partir.tile<0>] (%{{.*}}: !partir.range<2>) {
// REV: stablehlo.reshape %{{.*}} : (tensor<1x4x3xf32>) -> tensor<4x3xf32>
//
// Only B tiled, partly (2 of 4): the major factor, a plain slicing.
// RUN: toast-opt %S/Inputs/reshape-flatten.mlir --partir-tile="value=x dim=0 axis=b" --partir-propagate --partir-materialize-core -o %t.major.mlir
// RUN: toast-opt %t.major.mlir --partir-lower-to-hlo | FileCheck %s --check-prefix=MAJOR
// RUN: toast-run --compare %S/Inputs/reshape-flatten.mlir %t.major.mlir | FileCheck %s --check-prefix=AGREE
// MAJOR: stablehlo.reshape %{{.*}} : (tensor<2x8x3xf32>) -> tensor<16x3xf32>
// MAJOR-NOT: partir_hlo.
// MAJOR: return
//
// Only S tiled: B*S tiled by S alone is strided, not a block. Propagation
// moves "b" to B at the flatten, which costs one all_to_all (never an
// all_gather), and the rows stay tiled through the linear layer.
// RUN: toast-opt %S/Inputs/reshape-flatten.mlir --partir-tile="value=x dim=1 axis=b" --partir-propagate=report=true --partir-materialize-core -o %t.move.mlir 2>&1 | FileCheck %s --check-prefix=MOVED
// RUN: toast-opt %t.move.mlir --partir-lower-to-hlo | FileCheck %s --check-prefix=MOVE
// RUN: toast-run --compare %S/Inputs/reshape-flatten.mlir %t.move.mlir | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t.move.mlir --partir-lower-to-hlo -o %t.move.hlo.mlir
// RUN: toast-run --compare %S/Inputs/reshape-flatten.mlir %t.move.hlo.mlir | FileCheck %s --check-prefix=AGREE
// MOVED: partir-propagate: {{.*}}, 1 moved to a reshape's major factor
// MOVE-NOT: all_gather
// MOVE: partir_hlo.all_to_all 1 -> 0 ["b"] %arg0 : tensor<4x4x3xf32> -> tensor<2x8x3xf32>
// MOVE-NEXT: stablehlo.reshape %{{.*}} : (tensor<2x8x3xf32>) -> tensor<16x3xf32>
// MOVE-NOT: partir_hlo.
// MOVE: return
//
// B tiled 2 of 4 on "b", S on "a" (size 4): neither a block nor movable
// (B cannot take 8 tiles), so S is gathered on "a" at the flatten (the
// layout PartIR:Core cannot express; docs/dialects.md).
// RUN: toast-opt %S/Inputs/reshape-flatten.mlir --partir-tile="value=x dim=0 axis=b" --partir-tile="value=x dim=1 axis=a" --partir-propagate --partir-materialize-core -o %t.gather.mlir
// RUN: toast-opt %t.gather.mlir --partir-lower-to-hlo | FileCheck %s --check-prefix=GATHER
// RUN: toast-run --compare %S/Inputs/reshape-flatten.mlir %t.gather.mlir | FileCheck %s --check-prefix=AGREE
// GATHER: partir_hlo.all_gather [{}, {"a"}, {}] %arg0 : tensor<2x2x3xf32> -> tensor<2x8x3xf32>
// GATHER-NEXT: stablehlo.reshape %{{.*}} : (tensor<2x8x3xf32>) -> tensor<16x3xf32>
//
// Unflatten: rows tiled on "a" then "b" are B on "a" (all of it), then S
// on "b"; the result is tiled on both dimensions with no collective.
// RUN: toast-opt %S/Inputs/reshape-unflatten.mlir --partir-tile="value=x dim=0 axis=a" --partir-propagate --partir-tile="value=x dim=0 axis=b" --partir-propagate --partir-materialize-core -o %t.split.mlir
// RUN: toast-opt %t.split.mlir --partir-lower-to-hlo | FileCheck %s --check-prefix=SPLIT
// RUN: toast-run --compare %S/Inputs/reshape-unflatten.mlir %t.split.mlir | FileCheck %s --check-prefix=AGREE
// SPLIT: func.func @main(%{{.*}}: tensor<4x3xf32> {{.*}}partir.sharding = {{\[}}["a", "b"], []]}) -> (tensor<1x4x3xf32> {partir.sharding = {{\[}}["a"], ["b"], []]})
// SPLIT-NOT: partir_hlo.
// SPLIT: stablehlo.reshape %{{.*}} : (tensor<4x3xf32>) -> tensor<1x4x3xf32>
// SPLIT-NOT: partir_hlo.
// SPLIT: return
//
// Head split (B, S, H*K) -> (B, S, H, K), H the major factor: tiling the
// projection's columns (forward) or the output projection's heads
// (backward, through the head merge of the contraction) shards the heads;
// the only collective is the output projection's sum.
// RUN: toast-opt %S/Inputs/reshape-heads.mlir --partir-tile="value=wq dim=1 axis=m" --partir-propagate --partir-materialize-core -o %t.fwd.mlir
// RUN: toast-opt %t.fwd.mlir --partir-lower-to-hlo | FileCheck %s --check-prefix=HEADS
// RUN: toast-run --compare %S/Inputs/reshape-heads.mlir %t.fwd.mlir | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %S/Inputs/reshape-heads.mlir --partir-tile="value=wo dim=0 axis=m" --partir-propagate --partir-materialize-core -o %t.bwd.mlir
// RUN: toast-opt %t.bwd.mlir --partir-lower-to-hlo | FileCheck %s --check-prefix=HEADS
// RUN: toast-run --compare %S/Inputs/reshape-heads.mlir %t.bwd.mlir | FileCheck %s --check-prefix=AGREE
// HEADS: func.func @main(%{{.*}}: tensor<2x4x6xf32> {partir.name = "x"}, %{{.*}}: tensor<6x4xf32> {{.*}}, %{{.*}}: tensor<2x2x6xf32>
// HEADS-NOT: partir_hlo.
// HEADS: stablehlo.reshape %{{.*}} : (tensor<2x4x4xf32>) -> tensor<2x4x2x2xf32>
// HEADS-NOT: partir_hlo.
// HEADS: partir_hlo.all_reduce "sum" ["m"]
// HEADS-NOT: partir_hlo.
// HEADS: return

// AGREE: results agree
