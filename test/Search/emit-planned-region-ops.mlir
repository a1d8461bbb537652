// --toast-emit-planned on programs whose region ops hold values the model
// merges or reads as extra inputs: both compute what the original does.
//
// (1) Two equal constants, the second read only inside a loop body: the
// model merges it with the first, and the emitted body reads the entry's
// constant (it used to keep a use of the original module's constant, a
// crash). The loop is left whole; the state shards %x on B.
// RUN: split-file %s %t
// RUN: toast-opt %t/dup.mlir --partir-manual-partition="name=BP axis=B inputs=arg0=0 mesh=B=4" --toast-emit-planned -o %t/dup.planned.mlir 2>&1 | FileCheck %s --check-prefix=TRIP --allow-empty
// RUN: FileCheck %s --check-prefix=DUP < %t/dup.planned.mlir
// RUN: toast-run --compare %t/dup.mlir %t/dup.planned.mlir | FileCheck %s --check-prefix=SAME
//
// (2) A reduce with a constant in its reducer, inside a loop body the
// state partitions: the reducer's constant is an input of the body's
// program, not an operand of the reduce (it used to be appended as a third
// operand, which no parser accepts), and it stays in the reducer.
// RUN: toast-opt %t/reducer.mlir --partir-manual-partition="name=BP axis=B inputs=arg0=0 mesh=B=4" --toast-emit-planned -o %t/reducer.planned.mlir
// RUN: FileCheck %s --check-prefix=REDUCER < %t/reducer.planned.mlir
// RUN: toast-run --compare %t/reducer.mlir %t/reducer.planned.mlir | FileCheck %s --check-prefix=SAME
//
// (3) Errors: a state the planner leaves to the reference path (the carried
// batch on B and its width on M, so the captured weight is read sliced on M
// inside the body), and no saved state.
// RUN: not toast-opt %t/padded.mlir --partir-manual-partition="name=BP axis=B inputs=arg0=0 mesh=B=4,M=2" --partir-manual-partition="name=MP axis=M inputs=arg0=1" --toast-emit-planned -o /dev/null 2>&1 | FileCheck %s --check-prefix=BYREF
// RUN: not toast-opt %t/padded.mlir --toast-emit-planned -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOMESH

// TRIP-NOT: error
// DUP: %[[ONE:.*]] = stablehlo.constant dense<1.000000e+00>
// DUP: stablehlo.while
// DUP: do {
// DUP-NEXT: stablehlo.add %{{.*}}, %[[ONE]]
// REDUCER: stablehlo.while
// REDUCER: stablehlo.reduce(%{{[^ ]*}} init: %{{[^ ]*}}) across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
// REDUCER: stablehlo.constant dense<2.000000e+00>
// SAME: results agree
// BYREF: padded.mlir:1:1: error: planned program: a state priced by the reference path
// NOMESH: error: --toast-emit-planned: no mesh (run a tactic pass that saves a sharding state first)

//--- dup.mlir
func.func @main(%x: tensor<8x4xf32>, %s: tensor<f32>) -> (tensor<8x4xf32>, tensor<f32>) {
  %c0 = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = stablehlo.tanh %x : tensor<8x4xf32>
  %a = stablehlo.add %s, %c0 : tensor<f32>
  %c1 = stablehlo.constant dense<1.0> : tensor<f32>
  %lim = stablehlo.constant dense<10.0> : tensor<f32>
  %w = stablehlo.while(%i = %a) : tensor<f32>
    cond {
      %p = stablehlo.compare LT, %i, %lim : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %n = stablehlo.add %i, %c1 : tensor<f32>
      stablehlo.return %n : tensor<f32>
    }
  return %0, %w : tensor<8x4xf32>, tensor<f32>
}

//--- reducer.mlir
func.func @main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, tensor<8x4xf32>
    cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %zero = stablehlo.constant dense<0.0> : tensor<f32>
      %s = stablehlo.reduce(%h init: %zero) across dimensions = [1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32>
       reducer(%a: tensor<f32>, %b: tensor<f32>) {
        %two = stablehlo.constant dense<2.0> : tensor<f32>
        %t = stablehlo.multiply %b, %two : tensor<f32>
        %u = stablehlo.add %a, %t : tensor<f32>
        stablehlo.return %u : tensor<f32>
       }
      %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<8xf32>) -> tensor<8x4xf32>
      %y = stablehlo.tanh %sb : tensor<8x4xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next, %y : tensor<i32>, tensor<8x4xf32>
    }
  return %r#1 : tensor<8x4xf32>
}

//--- padded.mlir
func.func @main(%x: tensor<6x16xf32>, %w: tensor<16x16xf32>) -> tensor<6x16xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, tensor<6x16xf32>
    cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %y = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] : (tensor<6x16xf32>, tensor<16x16xf32>) -> tensor<6x16xf32>
      %t = stablehlo.tanh %y : tensor<6x16xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next, %t : tensor<i32>, tensor<6x16xf32>
    }
  return %r#1 : tensor<6x16xf32>
}
