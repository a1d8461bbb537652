// Lowering localizes a loop's or conditional's tied class level by level
// (localizeTiedValues): when every use of its targets (the op's results, the
// regions' block arguments) is a slice, the class is carried at that slice,
// beyond the tiling the loop model plans for it.
// `loop`: a class tiled M whose block argument the body does not read and
// whose result is read on M then B: lowering carries it on M and B (the
// body slices the value it yields). The loop model carried it on M: priced
// 11% fast and 27% below the peak (the review of session 25's g2/q072). Now
// such states go to the reference path.
// `cond`: a conditional's result tiled M read on M then B: lowering slices
// each branch's yield on B; the plan gathered nothing and sliced after it
// (priced 2.6x slow). The reference path too.
// `bodyreads`: the same loop whose body reads the carry at its tiling:
// lowering stops at the class's tiling, and the plan stays exact.
// `dead`: a class tiled M that nothing reads (its block argument unused,
// its result dead): lowering finds no slice and keeps it global, gathering
// what the body yields; the plan carried it on M, without those gathers
// (the review of session 26: 18 of its 27 mismatches). The reference path.
//
// RUN: split-file %s %t
// RUN: env TOAST_UNMODELED_WHY=1 not toast-opt %t/loop.mlir --toast-emit-planned -o /dev/null 2>&1 | FileCheck %s --check-prefix=REF
// RUN: toast-opt %t/loop.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives -o - | FileCheck %s --check-prefix=LOOP
// RUN: env TOAST_UNMODELED_WHY=1 not toast-opt %t/cond.mlir --toast-emit-planned -o /dev/null 2>&1 | FileCheck %s --check-prefix=REF
// RUN: toast-opt %t/cond.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives -o - | FileCheck %s --check-prefix=COND
// RUN: env TOAST_UNMODELED_WHY=1 not toast-opt %t/dead.mlir --toast-emit-planned -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEAD
// RUN: toast-opt %t/dead.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives -o - | FileCheck %s --check-prefix=GLOBAL
// RUN: toast-opt %t/bodyreads.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="device=a100 summary" -o %t/bodyreads.core.mlir 2> %t/bodyreads.core.txt
// RUN: toast-opt %t/bodyreads.mlir --toast-emit-planned --partir-simulate="device=a100 summary" -o %t/bodyreads.planned.mlir 2> %t/bodyreads.planned.txt
// RUN: cat %t/bodyreads.core.txt %t/bodyreads.planned.txt | FileCheck %s --check-prefix=PEAK
// RUN: toast-run --compare %t/bodyreads.mlir %t/bodyreads.planned.mlir | FileCheck %s --check-prefix=SAME

// REF: loop model: a tied class every reader slices further
// REF: error: planned program: a state priced by the reference path

// LOOP: stablehlo.while({{.*}}) : tensor<i32>, tensor<8x16xf32>, tensor<8x4xf32>
// LOOP: do {
// LOOP: partir_hlo.all_slice [{}, {"B"}] %iterArg

// DEAD: loop model: a tied class nothing reads
// DEAD: error: planned program: a state priced by the reference path

// GLOBAL: stablehlo.while({{.*}}) : tensor<i32>, tensor<8x16xf32>, tensor<16x16xf32>

// COND: stablehlo.if
// COND: partir_hlo.all_slice [{}, {"B"}]
// COND: stablehlo.return {{.*}} : tensor<8x4xf32>

// PEAK: step time : [[TIME:.*]]
// PEAK: peak memory : [[PEAK:.*]] of
// PEAK: step time : [[TIME]]
// PEAK: peak memory : [[PEAK]] of

// SAME: results agree

//--- loop.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%y: tensor<16x16xf32>) -> (tensor<16x16xf32>) {
    %m = stablehlo.negate %y {partir.loops = ["M:0"]} : tensor<16x16xf32>
    %c5 = stablehlo.constant dense<0> : tensor<i32>
    %r1:3 = stablehlo.while(%i2 = %c5, %h3 = %m, %h4 = %m) : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32> attributes {partir.edge_loops = [[], ["M:0"], ["M:0"]]}
      cond {
        %k6 = stablehlo.constant dense<2> : tensor<i32>
        %q7 = stablehlo.compare LT, %i2, %k6 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q7 : tensor<i1>
      } do {
        %e28 = stablehlo.tanh %h3 {partir.loops = ["M:0"]} : tensor<16x16xf32>
        %one30 = stablehlo.constant dense<1> : tensor<i32>
        %nx31 = stablehlo.add %i2, %one30 : tensor<i32>
        stablehlo.return %nx31, %e28, %h3 : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32>
      }
    %a32 = stablehlo.add %r1#1, %r1#2 {partir.loops = ["B:1", "M:0"]} : tensor<16x16xf32>
    return %a32 : tensor<16x16xf32>
  }
}

//--- cond.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%p: tensor<i1>, %y: tensor<16x16xf32>) -> (tensor<16x16xf32>) {
    %r = "stablehlo.if"(%p) ({
      %z = stablehlo.constant dense<1.0> : tensor<f32>
      %a = stablehlo.broadcast_in_dim %z, dims = [] {partir.loops = ["M:0"]} : (tensor<f32>) -> tensor<16x16xf32>
      stablehlo.return %a : tensor<16x16xf32>
    }, {
      %z2 = stablehlo.constant dense<2.0> : tensor<f32>
      %b = stablehlo.broadcast_in_dim %z2, dims = [] {partir.loops = ["M:0"]} : (tensor<f32>) -> tensor<16x16xf32>
      stablehlo.return %b : tensor<16x16xf32>
    }) {partir.edge_loops = [["M:0"]]} : (tensor<i1>) -> tensor<16x16xf32>
    %s = stablehlo.add %r, %y {partir.loops = ["B:1", "M:0"]} : tensor<16x16xf32>
    return %s : tensor<16x16xf32>
  }
}

//--- bodyreads.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%y: tensor<16x16xf32>) -> (tensor<16x16xf32>) {
    %m = stablehlo.negate %y {partir.loops = ["M:0"]} : tensor<16x16xf32>
    %c5 = stablehlo.constant dense<0> : tensor<i32>
    %r1:3 = stablehlo.while(%i2 = %c5, %h3 = %m, %h4 = %m) : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32> attributes {partir.edge_loops = [[], ["M:0"], ["M:0"]]}
      cond {
        %k6 = stablehlo.constant dense<2> : tensor<i32>
        %q7 = stablehlo.compare LT, %i2, %k6 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q7 : tensor<i1>
      } do {
        %e28 = stablehlo.tanh %h3 {partir.loops = ["M:0"]} : tensor<16x16xf32>
        %e29 = stablehlo.negate %h4 {partir.loops = ["M:0"]} : tensor<16x16xf32>
        %one30 = stablehlo.constant dense<1> : tensor<i32>
        %nx31 = stablehlo.add %i2, %one30 : tensor<i32>
        stablehlo.return %nx31, %e28, %e29 : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32>
      }
    %a32 = stablehlo.add %r1#1, %r1#2 {partir.loops = ["B:1", "M:0"]} : tensor<16x16xf32>
    return %a32 : tensor<16x16xf32>
  }
}

//--- dead.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%y: tensor<16x16xf32>) -> (tensor<16x16xf32>) {
    %m = stablehlo.negate %y {partir.loops = ["M:0"]} : tensor<16x16xf32>
    %c5 = stablehlo.constant dense<0> : tensor<i32>
    %r1:3 = stablehlo.while(%i2 = %c5, %h3 = %m, %h4 = %y) : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32> attributes {partir.edge_loops = [[], ["M:0"], ["M:0"]]}
      cond {
        %k6 = stablehlo.constant dense<2> : tensor<i32>
        %q7 = stablehlo.compare LT, %i2, %k6 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q7 : tensor<i1>
      } do {
        %e28 = stablehlo.tanh %h3 {partir.loops = ["M:0"]} : tensor<16x16xf32>
        %one30 = stablehlo.constant dense<1> : tensor<i32>
        %nx31 = stablehlo.add %i2, %one30 : tensor<i32>
        stablehlo.return %nx31, %e28, %h3 : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32>
      }
    %a32 = stablehlo.negate %r1#1 {partir.loops = ["M:0"]} : tensor<16x16xf32>
    return %a32 : tensor<16x16xf32>
  }
}
