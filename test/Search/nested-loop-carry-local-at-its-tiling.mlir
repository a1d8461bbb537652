// A loop inside a loop body carrying a value with fewer axes than the
// enclosing body reads it with: the inner loop's carry is read by its own
// body on B and, as the inner loop's result, by the outer body on B then
// M. Localizing a tied class takes the slice whose axes are a prefix of
// every other use's (evenly tiled): the carry is local on B, the outer
// reader slices M locally, as the search's loop model plans it (the class
// local at its own tiling). Before session 25 the class needed one slice
// for every use, so the inner loop carried the global value: lowering
// gathered it on both axes before the inner loop and on B at every inner
// iteration, 4.6x (`rows`) and 13x (`columns`) the collective time the
// plan priced (review14's nested-loop programs g060 and h001).
// The planned program is the lowered one (same step time and peak), the
// inner loop carries the local value, and it runs as the original.
//
// RUN: split-file %s %t
// RUN: toast-opt %t/rows.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="device=a100 summary" -o %t/rows.core.mlir 2> %t/rows.core.txt
// RUN: toast-opt %t/rows.mlir --toast-emit-planned --partir-simulate="device=a100 summary" -o %t/rows.planned.mlir 2> %t/rows.planned.txt
// RUN: cat %t/rows.core.txt %t/rows.planned.txt | FileCheck %s --check-prefix=PEAK
// RUN: toast-run --compare %t/rows.mlir %t/rows.planned.mlir | FileCheck %s --check-prefix=SAME
// RUN: toast-opt %t/columns.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate="device=a100 summary" -o %t/columns.core.mlir 2> %t/columns.core.txt
// RUN: toast-opt %t/columns.mlir --toast-emit-planned --partir-simulate="device=a100 summary" -o %t/columns.planned.mlir 2> %t/columns.planned.txt
// RUN: cat %t/columns.core.txt %t/columns.planned.txt | FileCheck %s --check-prefix=PEAK
// RUN: toast-run --compare %t/columns.mlir %t/columns.planned.mlir | FileCheck %s --check-prefix=SAME
// RUN: FileCheck %s --check-prefix=ROWS < %t/rows.core.mlir
// RUN: FileCheck %s --check-prefix=ROWS < %t/rows.planned.mlir
// RUN: FileCheck %s --check-prefix=COLS < %t/columns.core.mlir
// RUN: FileCheck %s --check-prefix=COLS < %t/columns.planned.mlir

// PEAK: step time : [[TIME:.*]]
// PEAK: peak memory : [[PEAK:.*]] of
// PEAK: step time : [[TIME]]
// PEAK: peak memory : [[PEAK]] of

// SAME: results agree

// ROWS: stablehlo.while({{.*}}) : tensor<i32>, tensor<2x12xf32>
// ROWS: %[[G:.*]] = partir_hlo.all_gather [{"M"}, {}] {{.*}} -> tensor<4x12xf32>
// ROWS-NEXT: stablehlo.while({{.*}}%[[G]]) : tensor<i32>, tensor<4x12xf32>
// ROWS-NOT: partir_hlo.all_gather [{"B"}, {}]
// ROWS: all_slice [{"M"}, {}] {{.*}} : tensor<4x12xf32> -> tensor<2x12xf32>

// COLS: stablehlo.while({{.*}}) : tensor<i32>, tensor<4x8xf32>
// COLS: %[[G:.*]] = partir_hlo.all_gather [{}, {"M"}] {{.*}} -> tensor<4x16xf32>
// COLS-NEXT: stablehlo.while({{.*}}%[[G]]) : tensor<i32>, tensor<4x16xf32>
// COLS-NOT: partir_hlo.all_gather [{"B"}, {}]
// COLS: all_slice [{}, {"M"}] {{.*}} : tensor<4x16xf32> -> tensor<4x8xf32>

//--- rows.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%x: tensor<16x12xf32>) -> (tensor<16x12xf32>, tensor<16x12xf32>) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %n = stablehlo.abs %x {partir.loops = ["B:0", "M:0"]} : tensor<16x12xf32>
    %r:2 = stablehlo.while(%i0 = %c0, %h0 = %n) : tensor<i32>, tensor<16x12xf32> attributes {partir.edge_loops = [[], ["B:0", "M:0"]]}
      cond {
        %k0 = stablehlo.constant dense<3> : tensor<i32>
        %q0 = stablehlo.compare LT, %i0, %k0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q0 : tensor<i1>
      }
      do {
        %m = stablehlo.exponential %h0 {partir.loops = ["B:0", "M:0"]} : tensor<16x12xf32>
        %c1 = stablehlo.constant dense<0> : tensor<i32>
        %ri:2 = stablehlo.while(%i1 = %c1, %g = %m) : tensor<i32>, tensor<16x12xf32> attributes {partir.edge_loops = [[], ["B:0"]]}
          cond {
            %k1 = stablehlo.constant dense<2> : tensor<i32>
            %q1 = stablehlo.compare LT, %i1, %k1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
            stablehlo.return %q1 : tensor<i1>
          }
          do {
            %ge = stablehlo.negate %g {partir.loops = ["B:0"]} : tensor<16x12xf32>
            %one1 = stablehlo.constant dense<1> : tensor<i32>
            %nx1 = stablehlo.add %i1, %one1 : tensor<i32>
            stablehlo.return %nx1, %ge : tensor<i32>, tensor<16x12xf32>
          }
        %e0 = stablehlo.add %ri#1, %h0 {partir.loops = ["B:0", "M:0"]} : tensor<16x12xf32>
        %one = stablehlo.constant dense<1> : tensor<i32>
        %next = stablehlo.add %i0, %one : tensor<i32>
        stablehlo.return %next, %e0 : tensor<i32>, tensor<16x12xf32>
      }
    %z0 = stablehlo.tanh %r#1 {partir.loops = ["M:0"]} : tensor<16x12xf32>
    return %n, %z0 : tensor<16x12xf32>, tensor<16x12xf32>
  }
}

//--- columns.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%x: tensor<16x16xf32>) -> (tensor<16x16xf32>) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %n = stablehlo.negate %x {partir.loops = ["M:1"]} : tensor<16x16xf32>
    %r:2 = stablehlo.while(%i0 = %c0, %h0 = %n) : tensor<i32>, tensor<16x16xf32> attributes {partir.edge_loops = [[], ["B:0", "M:1"]]}
      cond {
        %k0 = stablehlo.constant dense<3> : tensor<i32>
        %q0 = stablehlo.compare LT, %i0, %k0 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q0 : tensor<i1>
      } do {
        %m = stablehlo.cosine %h0 {partir.loops = ["B:0", "M:1"]} : tensor<16x16xf32>
        %c1 = stablehlo.constant dense<0> : tensor<i32>
        %ri:2 = stablehlo.while(%i1 = %c1, %g = %m) : tensor<i32>, tensor<16x16xf32> attributes {partir.edge_loops = [[], ["B:0"]]}
          cond {
            %k1 = stablehlo.constant dense<2> : tensor<i32>
            %q1 = stablehlo.compare LT, %i1, %k1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
            stablehlo.return %q1 : tensor<i1>
          } do {
            %ge = stablehlo.exponential %g {partir.loops = ["B:0"]} : tensor<16x16xf32>
            %one1 = stablehlo.constant dense<1> : tensor<i32>
            %nx1 = stablehlo.add %i1, %one1 : tensor<i32>
            stablehlo.return %nx1, %ge : tensor<i32>, tensor<16x16xf32>
          }
        %e0 = stablehlo.add %ri#1, %h0 {partir.loops = ["B:0", "M:1"]} : tensor<16x16xf32>
        %one = stablehlo.constant dense<1> : tensor<i32>
        %next = stablehlo.add %i0, %one : tensor<i32>
        stablehlo.return %next, %e0 : tensor<i32>, tensor<16x16xf32>
      }
    %z0 = stablehlo.tanh %r#1 {partir.loops = ["B:0", "M:1"]} : tensor<16x16xf32>
    return %z0 : tensor<16x16xf32>
  }
}
