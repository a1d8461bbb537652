// One loop carrying one value twice, each init with its own tiling, while
// the producer's tiling is a third: both inits are slices of the gathered
// value. The collective optimizer copies a gather once per reading op, and
// a loop's boundary slices (localizeTiedValues) count as the loop: one
// gather, two slices. Before session 25 each boundary slice got a gather
// copy of its own, so lowering gathered twice where the plan gathered once
// (review14's "loops carrying a value twice": 23 of its 35 states off).
// `twotilings`: the loop is the value's only reader, gathered at the
// producer (UsePlan::gatherAtDef).
// `returnedtoo`: the value is returned as well, so its gathers are per use;
// the inits share the first one's (analytic::loopGatherLeaders).
// `slicechain`: one init sliced twice in a row (rows on B, then columns
// on M, which do not merge): the chain of slices counts as the loop too.
// `samegather`: both inits carried alike, gathered by the boundary each on
// its own (localizeTiedValues): two equal gathers read by one loop become
// one (OneGatherPerReader), which both inits read.
// `cancelled`: one init's boundary slice cancels into the gather (rows
// on M and S, carried on M: a gather of S), the other's does not: that
// gather stays where the slice was, before the other init's slice
// (inputOrder), not after it as a copy the loop reads directly would.
// The planned program of each is the lowered one: same step time and peak,
// one all_gather, and it runs as the original.
//
// RUN: split-file %s %t
// RUN: toast-opt %t/twotilings.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="device=a100 summary" -o %t/twotilings.core.mlir 2> %t/twotilings.core.txt
// RUN: toast-opt %t/twotilings.mlir --toast-emit-planned --partir-simulate="device=a100 summary" -o %t/twotilings.planned.mlir 2> %t/twotilings.planned.txt
// RUN: cat %t/twotilings.core.txt %t/twotilings.planned.txt | FileCheck %s --check-prefix=PEAK
// RUN: toast-run --compare %t/twotilings.mlir %t/twotilings.planned.mlir | FileCheck %s --check-prefix=SAME
// RUN: FileCheck %s --check-prefix=TWO < %t/twotilings.core.mlir
// RUN: FileCheck %s --check-prefix=TWO < %t/twotilings.planned.mlir
// RUN: toast-opt %t/returnedtoo.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="device=a100 summary" -o %t/returnedtoo.core.mlir 2> %t/returnedtoo.core.txt
// RUN: toast-opt %t/returnedtoo.mlir --toast-emit-planned --partir-simulate="device=a100 summary" -o %t/returnedtoo.planned.mlir 2> %t/returnedtoo.planned.txt
// RUN: cat %t/returnedtoo.core.txt %t/returnedtoo.planned.txt | FileCheck %s --check-prefix=PEAK
// RUN: toast-run --compare %t/returnedtoo.mlir %t/returnedtoo.planned.mlir | FileCheck %s --check-prefix=SAME
// RUN: FileCheck %s --check-prefix=RET < %t/returnedtoo.core.mlir
// RUN: FileCheck %s --check-prefix=RET < %t/returnedtoo.planned.mlir
// RUN: toast-opt %t/slicechain.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="device=a100 summary" -o %t/slicechain.core.mlir 2> %t/slicechain.core.txt
// RUN: toast-opt %t/slicechain.mlir --toast-emit-planned --partir-simulate="device=a100 summary" -o %t/slicechain.planned.mlir 2> %t/slicechain.planned.txt
// RUN: cat %t/slicechain.core.txt %t/slicechain.planned.txt | FileCheck %s --check-prefix=PEAK
// RUN: toast-run --compare %t/slicechain.mlir %t/slicechain.planned.mlir | FileCheck %s --check-prefix=SAME
// RUN: toast-opt %t/samegather.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="device=a100 summary" -o %t/samegather.core.mlir 2> %t/samegather.core.txt
// RUN: toast-opt %t/samegather.mlir --toast-emit-planned --partir-simulate="device=a100 summary" -o %t/samegather.planned.mlir 2> %t/samegather.planned.txt
// RUN: cat %t/samegather.core.txt %t/samegather.planned.txt | FileCheck %s --check-prefix=PEAK
// RUN: toast-run --compare %t/samegather.mlir %t/samegather.planned.mlir | FileCheck %s --check-prefix=SAME
// RUN: FileCheck %s --check-prefix=CHAIN < %t/slicechain.core.mlir
// RUN: FileCheck %s --check-prefix=CHAIN < %t/slicechain.planned.mlir
// RUN: FileCheck %s --check-prefix=SAMEG < %t/samegather.core.mlir
// RUN: FileCheck %s --check-prefix=SAMEG < %t/samegather.planned.mlir

// RUN: toast-opt %t/cancelled.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="device=a100 summary" -o %t/cancelled.core.mlir 2> %t/cancelled.core.txt
// RUN: toast-opt %t/cancelled.mlir --toast-emit-planned --partir-simulate="device=a100 summary" -o %t/cancelled.planned.mlir 2> %t/cancelled.planned.txt
// RUN: cat %t/cancelled.core.txt %t/cancelled.planned.txt | FileCheck %s --check-prefix=PEAK
// RUN: toast-run --compare %t/cancelled.mlir %t/cancelled.planned.mlir | FileCheck %s --check-prefix=SAME
// RUN: FileCheck %s --check-prefix=CANCEL < %t/cancelled.core.mlir
// RUN: FileCheck %s --check-prefix=CANCEL < %t/cancelled.planned.mlir
// PEAK: step time : [[TIME:.*]]
// PEAK: peak memory : [[PEAK:.*]] of
// PEAK: step time : [[TIME]]
// PEAK: peak memory : [[PEAK]] of

// SAME: results agree

// TWO: %[[G:.*]] = partir_hlo.all_gather [{"M"}, {"B"}]
// TWO-NEXT: %[[S0:.*]] = partir_hlo.all_slice [{}, {"M"}] %[[G]]
// TWO-NEXT: %[[S1:.*]] = partir_hlo.all_slice [{"B"}, {"M"}] %[[G]]
// TWO-NEXT: stablehlo.while({{.*}}%[[S0]], {{.*}}%[[S1]])
// TWO-NOT: partir_hlo.all_gather [{"M"}, {"B"}]

// RET: %[[G:.*]] = partir_hlo.all_gather [{"B"}, {"M"}]
// RET-NEXT: %[[S0:.*]] = partir_hlo.all_slice [{"M"}, {}] %[[G]]
// RET-NEXT: %[[S1:.*]] = partir_hlo.all_slice [{}, {"B", "M"}] %[[G]]
// RET-NEXT: stablehlo.while({{.*}}%[[S0]], {{.*}}%[[S1]])
// RET-NOT: partir_hlo.all_gather [{"B"}, {"M"}]

// CHAIN: %[[G:.*]] = partir_hlo.all_gather [{}, {"M"}]
// CHAIN-NOT: partir_hlo.all_gather
// CHAIN: stablehlo.while

// SAMEG: %[[G:.*]] = partir_hlo.all_gather [{"M"}, {}]
// SAMEG-NEXT: stablehlo.while({{.*}}%[[G]], {{.*}}%[[G]])

// CANCEL: %[[G:.*]] = partir_hlo.all_gather [{"M", "S"}, {}]
// CANCEL-NEXT: %[[R:.*]] = partir_hlo.all_gather [{"S"}, {}]
// CANCEL-NEXT: %[[S:.*]] = partir_hlo.all_slice [{"S"}, {"B"}] %[[G]]
// CANCEL-NEXT: stablehlo.while({{.*}}%[[R]], {{.*}}%[[S]])

//--- twotilings.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%x: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %n = stablehlo.negate %x {partir.loops = ["B:1", "M:0"]} : tensor<16x16xf32>
    %r:3 = stablehlo.while(%i0 = %c0, %h0 = %n, %h1 = %n) : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32> attributes {partir.edge_loops = [[], ["M:1"], ["B:0", "M:1"]]}
      cond {
        %k = stablehlo.constant dense<3> : tensor<i32>
        %q = stablehlo.compare LT, %i0, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q : tensor<i1>
      } do {
        %e0 = stablehlo.exponential %h0 {partir.loops = ["M:1"]} : tensor<16x16xf32>
        %e1 = stablehlo.exponential %h1 {partir.loops = ["B:0", "M:1"]} : tensor<16x16xf32>
        %one = stablehlo.constant dense<1> : tensor<i32>
        %next = stablehlo.add %i0, %one : tensor<i32>
        stablehlo.return %next, %e0, %e1 : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32>
      }
    %z0 = stablehlo.tanh %r#1 {partir.loops = ["M:1"]} : tensor<16x16xf32>
    %z1 = stablehlo.tanh %r#2 {partir.loops = ["B:0", "M:1"]} : tensor<16x16xf32>
    return %z0, %z1 : tensor<16x16xf32>, tensor<16x16xf32>
  }
}

//--- returnedtoo.mlir
module attributes {partir.mesh = #partir.mesh<["B"=3, "M"=2]>} {
  func.func @main(%x: tensor<24x12xf32>) -> (tensor<24x12xf32>, tensor<24x12xf32>, tensor<24x12xf32>) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %n = stablehlo.tanh %x {partir.loops = ["B:0", "M:1"]} : tensor<24x12xf32>
    %r:3 = stablehlo.while(%i0 = %c0, %h0 = %n, %h1 = %n) : tensor<i32>, tensor<24x12xf32>, tensor<24x12xf32> attributes {partir.edge_loops = [[], ["M:0"], ["B:1", "M:1"]]}
      cond {
        %k = stablehlo.constant dense<3> : tensor<i32>
        %q = stablehlo.compare LT, %i0, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q : tensor<i1>
      } do {
        %e0 = stablehlo.exponential %h0 {partir.loops = ["M:0"]} : tensor<24x12xf32>
        %e1 = stablehlo.sine %h1 {partir.loops = ["B:1", "M:1"]} : tensor<24x12xf32>
        %one = stablehlo.constant dense<1> : tensor<i32>
        %next = stablehlo.add %i0, %one : tensor<i32>
        stablehlo.return %next, %e0, %e1 : tensor<i32>, tensor<24x12xf32>, tensor<24x12xf32>
      }
    %z0 = stablehlo.tanh %r#1 : tensor<24x12xf32>
    %z1 = stablehlo.tanh %r#2 : tensor<24x12xf32>
    return %n, %z0, %z1 : tensor<24x12xf32>, tensor<24x12xf32>, tensor<24x12xf32>
  }
}

//--- slicechain.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%x: tensor<6x6xf32>) -> (tensor<6x6xf32>, tensor<6x6xf32>, tensor<6x6xf32>) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %n = stablehlo.negate %x {partir.loops = ["M:1"]} : tensor<6x6xf32>
    %o0 = stablehlo.sine %n {partir.loops = ["M:1"]} : tensor<6x6xf32>
    %r:3 = stablehlo.while(%i0 = %c0, %h0 = %n, %h1 = %n) : tensor<i32>, tensor<6x6xf32>, tensor<6x6xf32> attributes {partir.edge_loops = [[], ["B:1"], ["B:0", "M:1"]]}
      cond {
        %k0 = stablehlo.constant dense<3> : tensor<i32>
        %q0 = stablehlo.compare LT, %i0, %k0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q0 : tensor<i1>
      } do {
        %e0 = stablehlo.exponential %h0 {partir.loops = ["B:1"]} : tensor<6x6xf32>
        %e1 = stablehlo.exponential %h1 {partir.loops = ["B:0", "M:1"]} : tensor<6x6xf32>
        %one = stablehlo.constant dense<1> : tensor<i32>
        %next = stablehlo.add %i0, %one : tensor<i32>
        stablehlo.return %next, %e0, %e1 : tensor<i32>, tensor<6x6xf32>, tensor<6x6xf32>
      }
    %z0 = stablehlo.tanh %r#1 {partir.loops = ["B:1"]} : tensor<6x6xf32>
    %z1 = stablehlo.tanh %r#2 {partir.loops = ["B:0", "M:1"]} : tensor<6x6xf32>
    return %o0, %z0, %z1 : tensor<6x6xf32>, tensor<6x6xf32>, tensor<6x6xf32>
  }
}

//--- samegather.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%x: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %n = stablehlo.negate %x {partir.loops = ["B:1", "M:0"]} : tensor<16x16xf32>
    %r:3 = stablehlo.while(%i0 = %c0, %h0 = %n, %h1 = %n) : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32> attributes {partir.edge_loops = [[], ["B:1"], ["B:1"]]}
      cond {
        %k0 = stablehlo.constant dense<3> : tensor<i32>
        %q0 = stablehlo.compare LT, %i0, %k0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q0 : tensor<i1>
      } do {
        %e0 = stablehlo.exponential %h0 {partir.loops = ["B:1"]} : tensor<16x16xf32>
        %e1 = stablehlo.exponential %h1 {partir.loops = ["B:1"]} : tensor<16x16xf32>
        %one = stablehlo.constant dense<1> : tensor<i32>
        %next = stablehlo.add %i0, %one : tensor<i32>
        stablehlo.return %next, %e0, %e1 : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32>
      }
    %z0 = stablehlo.tanh %r#1 {partir.loops = ["B:1"]} : tensor<16x16xf32>
    %z1 = stablehlo.tanh %r#2 {partir.loops = ["B:1"]} : tensor<16x16xf32>
    return %z0, %z1 : tensor<16x16xf32>, tensor<16x16xf32>
  }
}

//--- cancelled.mlir
module attributes {partir.mesh = #partir.mesh<["B"=2, "M"=2, "S"=2]>} {
  func.func @main(%x: tensor<12x10xf32>) -> (tensor<12x10xf32>, tensor<12x10xf32>) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %n = stablehlo.negate %x {partir.loops = ["M:0", "S:0"]} : tensor<12x10xf32>
    %r:3 = stablehlo.while(%i0 = %c0, %h0 = %n, %h1 = %n) : tensor<i32>, tensor<12x10xf32>, tensor<12x10xf32> attributes {partir.edge_loops = [[], ["M:0"], ["B:1", "S:0"]]}
      cond {
        %k0 = stablehlo.constant dense<3> : tensor<i32>
        %q0 = stablehlo.compare LT, %i0, %k0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q0 : tensor<i1>
      } do {
        %e0 = stablehlo.exponential %h0 {partir.loops = ["M:0"]} : tensor<12x10xf32>
        %e1 = stablehlo.exponential %h1 {partir.loops = ["B:1", "S:0"]} : tensor<12x10xf32>
        %one = stablehlo.constant dense<1> : tensor<i32>
        %next = stablehlo.add %i0, %one : tensor<i32>
        stablehlo.return %next, %e0, %e1 : tensor<i32>, tensor<12x10xf32>, tensor<12x10xf32>
      }
    %z0 = stablehlo.tanh %r#1 {partir.loops = ["M:0"]} : tensor<12x10xf32>
    %z1 = stablehlo.tanh %r#2 {partir.loops = ["B:1", "S:0"]} : tensor<12x10xf32>
    return %z0, %z1 : tensor<12x10xf32>, tensor<12x10xf32>
  }
}
