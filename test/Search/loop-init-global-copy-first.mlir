// Two loops over the same values; the second carries %w left global (its
// init read through a gather copy of its own, as it is) and %m tiled B, M
// (its init read through a gather copy and a slice). Lowering puts both
// copies before the loop, later-defined value first, and the boundary
// slice after them; the plan emitted the global init's copy last (12 B of
// peak apart; the review of session 26's copies/c013). Both copies now
// come first (loopCopiesAhead), in the pricer and the emitter alike.
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

// ORDER: partir_hlo.all_gather [{"M"}, {}]
// ORDER-NEXT: %[[GW:.*]] = partir_hlo.all_gather [{"B", "M"}, {}]
// ORDER-NEXT: %[[GM:.*]] = partir_hlo.all_gather [{}, {"B"}]
// ORDER-NEXT: %[[SM:.*]] = partir_hlo.all_slice [{"B"}, {"M"}] %[[GM]]
// ORDER-NEXT: stablehlo.while({{.*}} = %[[GW]], {{.*}} = %[[SM]])

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%p: tensor<i1>, %x: tensor<16x16xf32>, %y: tensor<16x16xf32>) -> (tensor<16x16xf32>) {
    %m = stablehlo.tanh %y {partir.loops = ["B:1"]} : tensor<16x16xf32>
    %n = stablehlo.abs %x {partir.loops = ["B:1"]} : tensor<16x16xf32>
    %w = stablehlo.abs %n {partir.loops = ["B:0", "M:0"]} : tensor<16x16xf32>
    %c5 = stablehlo.constant dense<0> : tensor<i32>
    %r1:3 = stablehlo.while(%i2 = %c5, %h3 = %m, %h4 = %w) : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32> attributes {partir.edge_loops = [[], ["B:0", "M:1"], ["B:0", "M:0"]]}
      cond {
        %k6 = stablehlo.constant dense<2> : tensor<i32>
        %q7 = stablehlo.compare LT, %i2, %k6 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q7 : tensor<i1>
      } do {
        %e8 = stablehlo.sine %h4 {partir.loops = ["B:0", "M:0"]} : tensor<16x16xf32>
        %one9 = stablehlo.constant dense<1> : tensor<i32>
        %nx10 = stablehlo.add %i2, %one9 : tensor<i32>
        stablehlo.return %nx10, %h3, %e8 : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32>
      }
    %u11 = stablehlo.sine %r1#2 {partir.loops = ["B:0", "M:0"]} : tensor<16x16xf32>
    %o12 = stablehlo.negate %m {partir.loops = ["M:1"]} : tensor<16x16xf32>
    %o13 = stablehlo.negate %w {partir.loops = ["M:0"]} : tensor<16x16xf32>
    %c18 = stablehlo.constant dense<0> : tensor<i32>
    %r14:3 = stablehlo.while(%i15 = %c18, %h16 = %w, %h17 = %m) : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32> attributes {partir.edge_loops = [[], [], ["B:0", "M:1"]]}
      cond {
        %k19 = stablehlo.constant dense<2> : tensor<i32>
        %q20 = stablehlo.compare LT, %i15, %k19 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q20 : tensor<i1>
      } do {
        %e21 = stablehlo.cosine %h16 : tensor<16x16xf32>
        %one22 = stablehlo.constant dense<1> : tensor<i32>
        %nx23 = stablehlo.add %i15, %one22 : tensor<i32>
        stablehlo.return %nx23, %e21, %h17 : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32>
      }
    %u24 = stablehlo.abs %r14#1 {partir.loops = ["B:1"]} : tensor<16x16xf32>
    %u25 = stablehlo.exponential %r14#2 {partir.loops = ["B:0", "M:1"]} : tensor<16x16xf32>
    %u26 = stablehlo.exponential %r14#2 {partir.loops = ["B:0", "M:1"]} : tensor<16x16xf32>
    %a27 = stablehlo.add %u11, %o12 : tensor<16x16xf32>
    %a28 = stablehlo.add %a27, %o13 : tensor<16x16xf32>
    %a29 = stablehlo.add %a28, %u24 : tensor<16x16xf32>
    %a30 = stablehlo.add %a29, %u25 {partir.loops = ["B:1", "M:1"]} : tensor<16x16xf32>
    %a31 = stablehlo.add %a30, %u26 {partir.loops = ["B:0", "M:1"]} : tensor<16x16xf32>
    return %a31 : tensor<16x16xf32>
  }
}
