// The transformer written the PyTorch way (--flatten-linear: flatten to
// (B*S, D) around every linear layer, heads split by reshapes) under batch
// and sequence sharding. No reshape ever reads an all_gather: with B fully
// sharded (4 of 4) the sequence shards are blocks of the flattened rows, no
// collective at the flattens at all; with B half sharded (2 of 4) sequence
// sharding moves to the rows at each flatten by an all_to_all. Both
// partitioned training steps compute what the original computes.
//
// RUN: toast-models t2b --flatten-linear --layers 1 --batch 4 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet -o %t.mlir
// RUN: toast-opt %t.mlir --partir-schedule=file=%S/Inputs/flatten-b4-sp.json --partir-lower-to-hlo -o %t.b4.mlir
// RUN: %python %S/Inputs/gathers_at_reshapes.py < %t.b4.mlir | FileCheck %s --check-prefix=BLOCK
// RUN: toast-run --compare %t.mlir %t.b4.mlir | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t.mlir --partir-schedule=file=%S/Inputs/flatten-b2-sp.json --partir-lower-to-hlo -o %t.b2.mlir
// RUN: %python %S/Inputs/gathers_at_reshapes.py < %t.b2.mlir | FileCheck %s --check-prefix=MOVE
// RUN: toast-run --compare %t.mlir %t.b2.mlir | FileCheck %s --check-prefix=AGREE
//
// The twin's reshapes: flatten, unflatten, head split and merge.
// RUN: FileCheck %s --check-prefix=SHAPES < %t.mlir

// BLOCK: gathers-at-reshapes=0 all_to_all=0
// MOVE: gathers-at-reshapes=0 all_to_all={{[1-9][0-9]*}}
// AGREE: results agree
// SHAPES: stablehlo.reshape {{.*}} : (tensor<4x8x16xf32>) -> tensor<32x16xf32>
// SHAPES: stablehlo.reshape {{.*}} : (tensor<32x16xf32>) -> tensor<4x8x16xf32>
// SHAPES: stablehlo.reshape {{.*}} : (tensor<4x8x16xf32>) -> tensor<4x8x4x4xf32>
// SHAPES: stablehlo.reshape {{.*}} : (tensor<4x8x4x4xf32>) -> tensor<4x8x16xf32>
