// A loop whose second init is read through a gather copy of its own (its
// value has another reader after the loop) and a slice, and whose first
// init through the gather at its producer and a slice: localizeTiedValues
// inserts the boundary slices right before the loop, in operand order,
// after the copy the optimizer already put there. The plan emitted each
// init's copy and slice together (copy n after slice m): its peak was 19%
// below the lowered one (the review of session 25's g2mix/q147). Now the
// copies come before every slice (loopCopiesAhead), in the pricer and the
// emitter alike.
//
// RUN: toast-opt %s --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="device=a100 summary" -o %t.core.mlir 2> %t.core.txt
// RUN: toast-opt %s --toast-emit-planned --partir-simulate="device=a100 summary" -o %t.planned.mlir 2> %t.planned.txt
// RUN: cat %t.core.txt %t.planned.txt | FileCheck %s --check-prefix=PEAK
// RUN: toast-run --compare %s %t.planned.mlir | FileCheck %s --check-prefix=SAME
// RUN: FileCheck %s --check-prefix=ORDER < %t.core.mlir
// RUN: FileCheck %s --check-prefix=ORDER < %t.planned.mlir

// PEAK: step time : [[TIME:.*]]
// PEAK: peak memory : [[PEAK:.*]] of
// PEAK: step time : [[TIME]]
// PEAK: peak memory : [[PEAK]] of

// SAME: results agree

// ORDER: %[[M:.*]] = stablehlo.negate %arg1
// ORDER-NEXT: %[[GM:.*]] = partir_hlo.all_gather [{"B"}, {"M"}] %[[M]]
// ORDER-NEXT: %[[GN:.*]] = partir_hlo.all_gather [{"M"}, {}]
// ORDER-NEXT: partir_hlo.all_slice [{}, {"B"}] %[[GM]]
// ORDER-NEXT: partir_hlo.all_slice [{"B"}, {"M"}] %[[GN]]
// ORDER-NEXT: stablehlo.while

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%x: tensor<16x16xf32>, %y: tensor<16x16xf32>) -> (tensor<16x16xf32>) {
    %n = stablehlo.negate %x {partir.loops = ["M:0"]} : tensor<16x16xf32>
    %m = stablehlo.negate %y {partir.loops = ["B:0", "M:1"]} : tensor<16x16xf32>
    %c5 = stablehlo.constant dense<0> : tensor<i32>
    %r1:3 = stablehlo.while(%i2 = %c5, %h3 = %m, %h4 = %n) : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32> attributes {partir.edge_loops = [[], ["B:1"], ["B:0", "M:1"]]}
      cond {
        %k6 = stablehlo.constant dense<2> : tensor<i32>
        %q7 = stablehlo.compare LT, %i2, %k6 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q7 : tensor<i1>
      } do {
        %e8 = stablehlo.cosine %h3 {partir.loops = ["B:1"]} : tensor<16x16xf32>
        %e9 = stablehlo.negate %h4 {partir.loops = ["B:0", "M:1"]} : tensor<16x16xf32>
        %one10 = stablehlo.constant dense<1> : tensor<i32>
        %nx11 = stablehlo.add %i2, %one10 : tensor<i32>
        stablehlo.return %nx11, %e8, %e9 : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32>
      }
    %a12 = stablehlo.add %r1#1, %r1#2 {partir.loops = ["M:1"]} : tensor<16x16xf32>
    %a13 = stablehlo.multiply %a12, %n {partir.loops = ["B:1", "M:1"]} : tensor<16x16xf32>
    return %a13 : tensor<16x16xf32>
  }
}
