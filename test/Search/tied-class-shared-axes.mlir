// A tied class whose readers all slice it, but no reader's slice is a prefix
// of every other's: lowering (localizeTiedValues, tiedSlice) carries the
// class at the axes every slice starts with, per dimension, and each reader
// slices the rest. Before, it kept the class global: the regions gathered
// what they yield and the readers sliced it again (the review of session
// 26: cond/c001, copies/c119, c165; 51 of its programs lower 5-67% faster).
// `apart`: a conditional's result tiled B on dim 1, read on B then M and on
// M (dim 0) and B: the slices share B, the class's own tiling, so lowering
// carries it there, as the loop model plans it: the same step time and peak
// both ways (was 40.0 us lowered, 28.0 us planned).
// `shared`: the same class read on M (dim 0) then S (dim 1) and on M then S
// (both dim 0): they share M beyond the class's tiling, which lowering now
// takes and the loop model does not: the reference path.
// `whole`: a conditional priced whole (nothing of the state in its
// branches) read on M and on M then B: lowering slices each branch's result
// on M; the whole price does not follow that: the reference path.
// `wholeloop`: the same with a loop's carry that its body does not read
// (it yields another value in its place): lowering slices the yield on M
// in the body.
//
// RUN: split-file %s %t
// RUN: toast-opt %t/apart.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="device=a100 summary" -o %t/apart.core.mlir 2> %t/apart.core.txt
// RUN: toast-opt %t/apart.mlir --toast-emit-planned --partir-simulate="device=a100 summary" -o %t/apart.planned.mlir 2> %t/apart.planned.txt
// RUN: cat %t/apart.core.txt %t/apart.planned.txt | FileCheck %s --check-prefix=SAME-COST
// RUN: FileCheck %s --check-prefix=APART < %t/apart.core.mlir
// RUN: toast-run --compare %t/apart.mlir %t/apart.core.mlir | FileCheck %s --check-prefix=AGREE
// RUN: toast-run --compare %t/apart.mlir %t/apart.planned.mlir | FileCheck %s --check-prefix=AGREE
// RUN: env TOAST_UNMODELED_WHY=1 not toast-opt %t/shared.mlir --toast-emit-planned -o /dev/null 2>&1 | FileCheck %s --check-prefix=FURTHER
// RUN: toast-opt %t/shared.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives -o %t/shared.core.mlir
// RUN: FileCheck %s --check-prefix=SHARED < %t/shared.core.mlir
// RUN: toast-run --compare %t/shared.mlir %t/shared.core.mlir | FileCheck %s --check-prefix=AGREE
// RUN: env TOAST_UNMODELED_WHY=1 not toast-opt %t/whole.mlir --toast-emit-planned -o /dev/null 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: toast-opt %t/whole.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives -o %t/whole.core.mlir
// RUN: FileCheck %s --check-prefix=BRANCHES < %t/whole.core.mlir
// RUN: toast-run --compare %t/whole.mlir %t/whole.core.mlir | FileCheck %s --check-prefix=AGREE
// RUN: env TOAST_UNMODELED_WHY=1 not toast-opt %t/wholeloop.mlir --toast-emit-planned -o /dev/null 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: toast-opt %t/wholeloop.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives -o %t/wholeloop.core.mlir
// RUN: FileCheck %s --check-prefix=BODY < %t/wholeloop.core.mlir
// RUN: toast-run --compare %t/wholeloop.mlir %t/wholeloop.core.mlir | FileCheck %s --check-prefix=AGREE

// SAME-COST: step time : [[TIME:.*]]
// SAME-COST: peak memory : [[PEAK:.*]] of
// SAME-COST: step time : [[TIME]]
// SAME-COST: peak memory : [[PEAK]] of

// APART: "stablehlo.if"
// APART-NOT: all_gather
// APART: stablehlo.return {{.*}} : tensor<16x4xf32>
// APART: }) : (tensor<i1>) -> tensor<16x4xf32>
// APART-DAG: partir_hlo.all_slice [{}, {"M"}] %0 : tensor<16x4xf32> -> tensor<16x2xf32>
// APART-DAG: partir_hlo.all_slice [{"M"}, {}] %0 : tensor<16x4xf32> -> tensor<8x4xf32>

// AGREE: results agree

// FURTHER: loop model: a tied class every reader slices further
// FURTHER: error: planned program: a state priced by the reference path

// SHARED: }) : (tensor<i1>) -> tensor<8x8xf32>
// SHARED-DAG: partir_hlo.all_slice [{}, {"S"}] %0 : tensor<8x8xf32> -> tensor<8x4xf32>
// SHARED-DAG: partir_hlo.all_slice [{"S"}, {}] %0 : tensor<8x8xf32> -> tensor<4x8xf32>

// WHOLE: loop model: a region op priced whole every reader slices
// WHOLE: unmodeled state: priced by the reference path (loop body)
// WHOLE: error: planned program: a state priced by the reference path

// BRANCHES: "stablehlo.if"
// BRANCHES: partir_hlo.all_slice [{"M"}, {}] %{{.*}} : tensor<16x16xf32> -> tensor<8x16xf32>
// BRANCHES: stablehlo.return {{.*}} : tensor<8x16xf32>
// BRANCHES: }) : (tensor<i1>) -> tensor<8x16xf32>

// BODY: stablehlo.while({{.*}}) : tensor<i32>, tensor<16x8xf32>, tensor<16x16xf32>
// BODY: do {
// BODY: partir_hlo.all_slice [{}, {"M"}] {{.*}} : tensor<16x16xf32> -> tensor<16x8xf32>
// BODY: stablehlo.return {{.*}} : tensor<i32>, tensor<16x8xf32>, tensor<16x16xf32>

//--- apart.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%p: tensor<i1>, %x: tensor<16x16xf32>) -> (tensor<16x16xf32>) {
    %f = "stablehlo.if"(%p) ({
      %one = stablehlo.constant dense<1.0> : tensor<f32>
      %b = stablehlo.broadcast_in_dim %one, dims = [] {partir.loops = ["B:1"]} : (tensor<f32>) -> tensor<16x16xf32>
      stablehlo.return %b : tensor<16x16xf32>
    }, {
      %half = stablehlo.constant dense<0.5> : tensor<f32>
      %e = stablehlo.broadcast_in_dim %half, dims = [] {partir.loops = ["B:1"]} : (tensor<f32>) -> tensor<16x16xf32>
      stablehlo.return %e : tensor<16x16xf32>
    }) {partir.edge_loops = [["B:1"]]} : (tensor<i1>) -> tensor<16x16xf32>
    %u = stablehlo.negate %f {partir.loops = ["B:1", "M:1"]} : tensor<16x16xf32>
    %v = stablehlo.sine %f {partir.loops = ["B:1", "M:0"]} : tensor<16x16xf32>
    %a = stablehlo.add %u, %v : tensor<16x16xf32>
    return %a : tensor<16x16xf32>
  }
}
//--- shared.mlir
module attributes {partir.mesh = #partir.mesh<["B"=2, "M"=2, "S"=2]>} {
  func.func @main(%p: tensor<i1>) -> (tensor<16x16xf32>) {
    %f = "stablehlo.if"(%p) ({
      %one = stablehlo.constant dense<1.0> : tensor<f32>
      %b = stablehlo.broadcast_in_dim %one, dims = [] {partir.loops = ["B:1"]} : (tensor<f32>) -> tensor<16x16xf32>
      stablehlo.return %b : tensor<16x16xf32>
    }, {
      %half = stablehlo.constant dense<0.5> : tensor<f32>
      %e = stablehlo.broadcast_in_dim %half, dims = [] {partir.loops = ["B:1"]} : (tensor<f32>) -> tensor<16x16xf32>
      stablehlo.return %e : tensor<16x16xf32>
    }) {partir.edge_loops = [["B:1"]]} : (tensor<i1>) -> tensor<16x16xf32>
    %u = stablehlo.negate %f {partir.loops = ["B:1", "M:0", "S:1"]} : tensor<16x16xf32>
    %v = stablehlo.sine %f {partir.loops = ["B:1", "M:0", "S:0"]} : tensor<16x16xf32>
    %a = stablehlo.add %u, %v : tensor<16x16xf32>
    return %a : tensor<16x16xf32>
  }
}
//--- whole.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%p: tensor<i1>, %x: tensor<16x16xf32>) -> (tensor<16x16xf32>) {
    %f = "stablehlo.if"(%p) ({
      %one = stablehlo.constant dense<1.0> : tensor<16x16xf32>
      stablehlo.return %one : tensor<16x16xf32>
    }, {
      %two = stablehlo.constant dense<2.0> : tensor<16x16xf32>
      stablehlo.return %two : tensor<16x16xf32>
    }) {partir.edge_loops = [[]]} : (tensor<i1>) -> tensor<16x16xf32>
    %u = stablehlo.abs %f {partir.loops = ["M:0"]} : tensor<16x16xf32>
    %v = stablehlo.sine %f {partir.loops = ["B:1", "M:0"]} : tensor<16x16xf32>
    %a = stablehlo.add %u, %v : tensor<16x16xf32>
    return %a : tensor<16x16xf32>
  }
}
//--- wholeloop.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%y: tensor<16x16xf32>) -> (tensor<16x16xf32>) {
    %m = stablehlo.exponential %y : tensor<16x16xf32>
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:3 = stablehlo.while(%i = %c0, %h = %m, %g = %m) : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32> attributes {partir.edge_loops = [[], [], []]}
      cond {
        %two = stablehlo.constant dense<2> : tensor<i32>
        %lt = stablehlo.compare LT, %i, %two : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %lt : tensor<i1>
      } do {
        %one = stablehlo.constant dense<1> : tensor<i32>
        %next = stablehlo.add %i, %one : tensor<i32>
        %e = stablehlo.sine %g : tensor<16x16xf32>
        stablehlo.return %next, %e, %g : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32>
      }
    %u = stablehlo.abs %r#1 {partir.loops = ["M:1"]} : tensor<16x16xf32>
    %v = stablehlo.negate %r#1 {partir.loops = ["B:0", "M:1"]} : tensor<16x16xf32>
    %a = stablehlo.add %u, %v : tensor<16x16xf32>
    %b = stablehlo.add %a, %r#2 : tensor<16x16xf32>
    return %b : tensor<16x16xf32>
  }
}
