// Two programs from the review of session 25's loop-boundary changes.
// `onereader`: one body op (a dot) reads two carried values whole; both
// are gathered right before it. Lowering failed here while the sinking of
// carried values' gathers was a rewrite pattern (the two gathers swapped
// places until the driver gave up).
// `captured`: a loop carries one value twice and its body also reads the
// value from outside (a captured read, an operand of the loop's program
// model past its own operands); the input order of the loop's operands
// read the captured operand's dims out of bounds (a crash or an
// out-of-memory abort in the pricer and the emitter).
// Both: the planned program is the lowered one and runs as the original.
// `globalcarry`: a carry left global (no edge tiling) that its body reads
// sliced on M, while the loop's result is read sliced otherwise: lowering
// keeps the carry global and slices it in the body, but the loop model
// took the body's block argument as local on M (every use in the body
// slices it alike), priced it so and emitted invalid IR. It now goes to
// the reference path.
//
// RUN: split-file %s %t
// RUN: toast-opt %t/onereader.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="device=a100 summary" -o %t/onereader.core.mlir 2> %t/onereader.core.txt
// RUN: toast-opt %t/onereader.mlir --toast-emit-planned --partir-simulate="device=a100 summary" -o %t/onereader.planned.mlir 2> %t/onereader.planned.txt
// RUN: cat %t/onereader.core.txt %t/onereader.planned.txt | FileCheck %s --check-prefix=PEAK
// RUN: toast-run --compare %t/onereader.mlir %t/onereader.planned.mlir | FileCheck %s --check-prefix=SAME
// RUN: toast-opt %t/captured.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="device=a100 summary" -o %t/captured.core.mlir 2> %t/captured.core.txt
// RUN: toast-opt %t/captured.mlir --toast-emit-planned --partir-simulate="device=a100 summary" -o %t/captured.planned.mlir 2> %t/captured.planned.txt
// RUN: cat %t/captured.core.txt %t/captured.planned.txt | FileCheck %s --check-prefix=PEAK
// RUN: toast-run --compare %t/captured.mlir %t/captured.planned.mlir | FileCheck %s --check-prefix=SAME
// RUN: not toast-opt %t/globalcarry.mlir --toast-emit-planned -o /dev/null 2>&1 | FileCheck %s --check-prefix=REF
// RUN: toast-opt %t/globalcarry.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives -o - | FileCheck %s --check-prefix=GLOBAL

// REF: error: planned program: a state priced by the reference path
// GLOBAL: stablehlo.while({{.*}}) : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32>
// GLOBAL: do {
// GLOBAL: partir_hlo.all_slice [{"M"}, {}] %iterArg

// PEAK: step time : [[TIME:.*]]
// PEAK: peak memory : [[PEAK:.*]] of
// PEAK: step time : [[TIME]]
// PEAK: peak memory : [[PEAK]] of

// SAME: results agree

//--- onereader.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%x: tensor<16x16xf32>, %y: tensor<16x16xf32>) -> (tensor<16x16xf32>) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %n = stablehlo.negate %x {partir.loops = ["B:0"]} : tensor<16x16xf32>
    %m = stablehlo.negate %y {partir.loops = ["B:0"]} : tensor<16x16xf32>
    %r:3 = stablehlo.while(%i0 = %c0, %h0 = %n, %h1 = %m) : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32> attributes {partir.edge_loops = [[], ["B:0"], ["B:0"]]}
      cond {
        %k0 = stablehlo.constant dense<3> : tensor<i32>
        %q0 = stablehlo.compare LT, %i0, %k0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q0 : tensor<i1>
      } do {
        %d = stablehlo.dot_general %h0, %h1, contracting_dims = [1] x [0] : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
        %e0 = stablehlo.exponential %d {partir.loops = ["B:0"]} : tensor<16x16xf32>
        %e1 = stablehlo.tanh %h1 {partir.loops = ["B:0"]} : tensor<16x16xf32>
        %one = stablehlo.constant dense<1> : tensor<i32>
        %next = stablehlo.add %i0, %one : tensor<i32>
        stablehlo.return %next, %e0, %e1 : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32>
      }
    %z0 = stablehlo.add %r#1, %r#2 {partir.loops = ["B:0"]} : tensor<16x16xf32>
    return %z0 : tensor<16x16xf32>
  }
}

//--- captured.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%x: tensor<16x16xf32>) -> (tensor<16x16xf32>) {
    %n = stablehlo.negate %x {partir.loops = ["B:0"]} : tensor<16x16xf32>
    %c6 = stablehlo.constant dense<0> : tensor<i32>
    %r1:3 = stablehlo.while(%i2 = %c6, %h3 = %n, %h5 = %n) : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32> attributes {partir.edge_loops = [[], [], ["B:0"]]}
      cond {
        %k7 = stablehlo.constant dense<2> : tensor<i32>
        %q8 = stablehlo.compare LT, %i2, %k7 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q8 : tensor<i1>
      } do {
        %e9 = stablehlo.abs %h3 : tensor<16x16xf32>
        %e12 = stablehlo.add %h5, %n : tensor<16x16xf32>
        %e11 = stablehlo.cosine %e12 {partir.loops = ["B:0"]} : tensor<16x16xf32>
        %one13 = stablehlo.constant dense<1> : tensor<i32>
        %nx14 = stablehlo.add %i2, %one13 : tensor<i32>
        stablehlo.return %nx14, %e9, %e11 : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32>
      }
    %a16 = stablehlo.add %r1#1, %r1#2 {partir.loops = ["B:0"]} : tensor<16x16xf32>
    %a17 = stablehlo.multiply %a16, %n {partir.loops = ["B:1", "M:1"]} : tensor<16x16xf32>
    return %a17 : tensor<16x16xf32>
  }
}

//--- globalcarry.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%x: tensor<16x16xf32>) -> (tensor<16x16xf32>) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %n = stablehlo.negate %x : tensor<16x16xf32>
    %r:3 = stablehlo.while(%i0 = %c0, %h0 = %n, %h1 = %n) : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32> attributes {partir.edge_loops = [[], [], []]}
      cond {
        %k0 = stablehlo.constant dense<3> : tensor<i32>
        %q0 = stablehlo.compare LT, %i0, %k0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q0 : tensor<i1>
      } do {
        %e0 = stablehlo.exponential %h0 {partir.loops = ["M:0"]} : tensor<16x16xf32>
        %m = stablehlo.add %e0, %h1 : tensor<16x16xf32>
        %one = stablehlo.constant dense<1> : tensor<i32>
        %next = stablehlo.add %i0, %one : tensor<i32>
        stablehlo.return %next, %m, %h1 : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32>
      }
    %a2 = stablehlo.add %r#1, %r#2 {partir.loops = ["B:1"]} : tensor<16x16xf32>
    return %a2 : tensor<16x16xf32>
  }
}
