// A loop's init read with another tiling than its producer's: lowering
// slices a loop's inits after the collective optimizer ran (optimize,
// localizeTiedValues, optimize again), when the producer's gathers have
// merged into one, and the boundary's slice meets that merged gather
// (Evaluation::replanLoopInit). Until session 24 the loop model sent every
// state whose init plan read an all_to_all to the reference path (376 of
// 1,402 states of a full-size t2b search with its layers in a scan).
//
// `merged`: rows on B and columns on M, carried with the rows on B then M.
// Level by level B would cancel and M move by an all_to_all; the merged
// gather and the slice do not rewrite, so both stay.
// `single`: columns on B, carried with the rows on B: one gather and one
// slice of single dims, which the second optimizer run makes an
// all_to_all.
// `twoloops`: the `merged` value carried by two loops (a scanned
// transformer's causal mask is carried by its forward and backward scans):
// each gets a gather copy of its own.
// The planned program of each is the lowered one: same step time and peak,
// and it runs as the original.
// `twoinits`: one loop carrying the same value twice with two tilings. Both
// boundary slices read one gather copy (since session 25), but replanning
// each init's chain orders the two inits' ops unlike lowering (review14's
// d002: a peak 7% high), so such inits, read through an all_to_all, stay
// on the reference path.
//
// RUN: split-file %s %t
// RUN: toast-opt %t/merged.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="device=a100 summary" -o %t/merged.core.mlir 2> %t/merged.core.txt
// RUN: toast-opt %t/merged.mlir --toast-emit-planned --partir-simulate="device=a100 summary" -o %t/merged.planned.mlir 2> %t/merged.planned.txt
// RUN: cat %t/merged.core.txt %t/merged.planned.txt | FileCheck %s --check-prefix=PEAK
// RUN: toast-run --compare %t/merged.mlir %t/merged.planned.mlir | FileCheck %s --check-prefix=SAME
// RUN: toast-opt %t/single.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="device=a100 summary" -o %t/single.core.mlir 2> %t/single.core.txt
// RUN: toast-opt %t/single.mlir --toast-emit-planned --partir-simulate="device=a100 summary" -o %t/single.planned.mlir 2> %t/single.planned.txt
// RUN: cat %t/single.core.txt %t/single.planned.txt | FileCheck %s --check-prefix=PEAK
// RUN: toast-run --compare %t/single.mlir %t/single.planned.mlir | FileCheck %s --check-prefix=SAME
// RUN: toast-opt %t/twoloops.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="device=a100 summary" -o /dev/null 2> %t/twoloops.core.txt
// RUN: toast-opt %t/twoloops.mlir --toast-emit-planned --partir-simulate="device=a100 summary" -o %t/twoloops.planned.mlir 2> %t/twoloops.planned.txt
// RUN: cat %t/twoloops.core.txt %t/twoloops.planned.txt | FileCheck %s --check-prefix=PEAK
// RUN: toast-run --compare %t/twoloops.mlir %t/twoloops.planned.mlir | FileCheck %s --check-prefix=SAME
// RUN: not toast-opt %t/twoinits.mlir --toast-emit-planned -o /dev/null 2>&1 | FileCheck %s --check-prefix=REF
// RUN: FileCheck %s --check-prefix=MERGED < %t/merged.planned.mlir
// RUN: FileCheck %s --check-prefix=MERGED < %t/merged.core.mlir
// RUN: FileCheck %s --check-prefix=SINGLE < %t/single.planned.mlir
// RUN: FileCheck %s --check-prefix=SINGLE < %t/single.core.mlir

// PEAK: step time : [[TIME:.*]]
// PEAK: peak memory : [[PEAK:.*]] of
// PEAK: step time : [[TIME]]
// PEAK: peak memory : [[PEAK]] of

// SAME: results agree

// REF: error: planned program: a state priced by the reference path

// MERGED: %[[G:.*]] = partir_hlo.all_gather [{"B"}, {"M"}]
// MERGED-NEXT: %[[S:.*]] = partir_hlo.all_slice [{"B", "M"}, {}] %[[G]]
// MERGED-NEXT: stablehlo.while({{.*}}%[[S]])

// SINGLE: %[[A:.*]] = partir_hlo.all_to_all 1 -> 0 ["B"]
// SINGLE-NEXT: stablehlo.while({{.*}}%[[A]])

//--- merged.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %n = stablehlo.negate %x {partir.loops = ["B:0", "M:1"]} : tensor<16x16xf32>
    %r:2 = stablehlo.while(%i = %c0, %h = %n) : tensor<i32>, tensor<16x16xf32> attributes {partir.edge_loops = [[], ["B:0", "M:0"]]}
      cond {
        %k = stablehlo.constant dense<3> : tensor<i32>
        %q = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q : tensor<i1>
      } do {
        %e = stablehlo.exponential %h {partir.loops = ["B:0", "M:0"]} : tensor<16x16xf32>
        %one = stablehlo.constant dense<1> : tensor<i32>
        %next = stablehlo.add %i, %one : tensor<i32>
        stablehlo.return %next, %e : tensor<i32>, tensor<16x16xf32>
      }
    %o = stablehlo.tanh %r#1 : tensor<16x16xf32>
    return %o : tensor<16x16xf32>
  }
}

//--- single.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %n = stablehlo.negate %x {partir.loops = ["B:1"]} : tensor<16x16xf32>
    %r:2 = stablehlo.while(%i = %c0, %h = %n) : tensor<i32>, tensor<16x16xf32> attributes {partir.edge_loops = [[], ["B:0"]]}
      cond {
        %k = stablehlo.constant dense<3> : tensor<i32>
        %q = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q : tensor<i1>
      } do {
        %e = stablehlo.exponential %h {partir.loops = ["B:0"]} : tensor<16x16xf32>
        %one = stablehlo.constant dense<1> : tensor<i32>
        %next = stablehlo.add %i, %one : tensor<i32>
        stablehlo.return %next, %e : tensor<i32>, tensor<16x16xf32>
      }
    %o = stablehlo.tanh %r#1 : tensor<16x16xf32>
    return %o : tensor<16x16xf32>
  }
}

//--- twoloops.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%x: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %n = stablehlo.negate %x {partir.loops = ["B:0", "M:1"]} : tensor<16x16xf32>
    %r:2 = stablehlo.while(%i = %c0, %h = %n) : tensor<i32>, tensor<16x16xf32> attributes {partir.edge_loops = [[], ["B:0", "M:0"]]}
      cond {
        %k = stablehlo.constant dense<3> : tensor<i32>
        %q = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q : tensor<i1>
      } do {
        %e = stablehlo.exponential %h {partir.loops = ["B:0", "M:0"]} : tensor<16x16xf32>
        %one = stablehlo.constant dense<1> : tensor<i32>
        %next = stablehlo.add %i, %one : tensor<i32>
        stablehlo.return %next, %e : tensor<i32>, tensor<16x16xf32>
      }
    %s:2 = stablehlo.while(%i = %c0, %h = %n) : tensor<i32>, tensor<16x16xf32> attributes {partir.edge_loops = [[], ["B:0", "M:0"]]}
      cond {
        %k = stablehlo.constant dense<2> : tensor<i32>
        %q = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q : tensor<i1>
      } do {
        %e = stablehlo.tanh %h {partir.loops = ["B:0", "M:0"]} : tensor<16x16xf32>
        %one = stablehlo.constant dense<1> : tensor<i32>
        %next = stablehlo.add %i, %one : tensor<i32>
        stablehlo.return %next, %e : tensor<i32>, tensor<16x16xf32>
      }
    return %r#1, %s#1 : tensor<16x16xf32>, tensor<16x16xf32>
  }
}

//--- twoinits.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%x: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %n = stablehlo.negate %x {partir.loops = ["B:1", "M:1"]} : tensor<16x16xf32>
    %r:3 = stablehlo.while(%i0 = %c0, %h0 = %n, %h1 = %n) : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32> attributes {partir.edge_loops = [[], ["B:0", "M:1"], ["B:1", "M:0"]]}
      cond {
        %k0 = stablehlo.constant dense<3> : tensor<i32>
        %q0 = stablehlo.compare LT, %i0, %k0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q0 : tensor<i1>
      } do {
        %e0 = stablehlo.exponential %h0 {partir.loops = ["B:0", "M:1"]} : tensor<16x16xf32>
        %e1 = stablehlo.exponential %h1 {partir.loops = ["B:1", "M:0"]} : tensor<16x16xf32>
        %one = stablehlo.constant dense<1> : tensor<i32>
        %next = stablehlo.add %i0, %one : tensor<i32>
        stablehlo.return %next, %e0, %e1 : tensor<i32>, tensor<16x16xf32>, tensor<16x16xf32>
      }
    %z0 = stablehlo.tanh %r#1 {partir.loops = ["B:0", "M:1"]} : tensor<16x16xf32>
    %z1 = stablehlo.tanh %r#2 {partir.loops = ["B:1", "M:0"]} : tensor<16x16xf32>
    return %z0, %z1 : tensor<16x16xf32>, tensor<16x16xf32>
  }
}
