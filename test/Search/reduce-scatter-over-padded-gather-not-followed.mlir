// Readers of a partial sum with a padded tile inside it that the planner
// does not follow yet, kept out of the analytic cost (the reference path
// prices them): programs of review12 (session 23) on which relaxing the
// rules priced up to 2x low. The optimizer forms a reduce_scatter from the
// readers' first slices (the sum's axis), and a padded slice among several
// after it stays an op of its own. `w1`: two readers, exp slicing B, M
// (padded) and S; `loop`: the same in a while body; `dead`: a dead reader
// (its slices take part in the rewrites until canonicalization);
// `inside2`: two tiles inside the sum (S even, M padded). When the planner
// learns one, replace its REF line by the equality checks of
// reduce-scatter-over-padded-gather.mlir.
//
// RUN: split-file %s %t
// RUN: not toast-opt %t/w1.mlir --toast-emit-planned -o /dev/null 2>&1 | FileCheck %s --check-prefix=REF
// RUN: toast-opt %t/w1.mlir --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives -o - | FileCheck %s --check-prefix=W1
// RUN: not toast-opt %t/loop.mlir --toast-emit-planned -o /dev/null 2>&1 | FileCheck %s --check-prefix=REF
// RUN: not toast-opt %t/dead.mlir --toast-emit-planned -o /dev/null 2>&1 | FileCheck %s --check-prefix=REF
// RUN: not toast-opt %t/inside2.mlir --toast-emit-planned -o /dev/null 2>&1 | FileCheck %s --check-prefix=REF

// REF: error: planned program: a state priced by the reference path

// W1: partir_hlo.reduce_scatter "sum" [{}, {}, {"B"}]
// W1: %[[M:.*]] = partir_hlo.all_slice [{}, {"M"}, {}]
// W1-NEXT: partir_hlo.all_slice [{"S"}, {}, {}] %[[M]]

//--- w1.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2, "S"=3]>} {
  func.func @main(%a: tensor<6x5x8xf32>, %b: tensor<6x8x12xf32>) -> (tensor<6x5x12xf32>, tensor<6x5x12xf32>) {
    %n = stablehlo.negate %a : tensor<6x5x8xf32>
    %m = stablehlo.negate %b : tensor<6x8x12xf32>
    %p = stablehlo.dot_general %n, %m, batching_dims = [0] x [0], contracting_dims = [2] x [1] {partir.loops = ["B:3", "M:1"]} : (tensor<6x5x8xf32>, tensor<6x8x12xf32>) -> tensor<6x5x12xf32>
    %e = stablehlo.exponential %p {partir.loops = ["B:2", "M:1", "S:0"]} : tensor<6x5x12xf32>
    %t = stablehlo.tanh %p {partir.loops = ["B:2", "M:1"]} : tensor<6x5x12xf32>
    return %e, %t : tensor<6x5x12xf32>, tensor<6x5x12xf32>
  }
}

//--- loop.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2, "S"=3]>} {
  func.func @main(%a0: tensor<6x5x8xf32>, %b: tensor<6x8x12xf32>) -> (tensor<6x5x12xf32>) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %z = stablehlo.constant dense<0.0> : tensor<6x5x12xf32>
    %r:3 = stablehlo.while(%i = %c0, %h = %a0, %acc = %z) : tensor<i32>, tensor<6x5x8xf32>, tensor<6x5x12xf32>
      cond {
        %n = stablehlo.constant dense<3> : tensor<i32>
        %q = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %q : tensor<i1>
      } do {
        %n = stablehlo.negate %h : tensor<6x5x8xf32>
        %m = stablehlo.negate %b : tensor<6x8x12xf32>
        %p = stablehlo.dot_general %n, %m, batching_dims = [0] x [0], contracting_dims = [2] x [1] {partir.loops = ["B:3", "M:1"]} : (tensor<6x5x8xf32>, tensor<6x8x12xf32>) -> tensor<6x5x12xf32>
        %e = stablehlo.exponential %p {partir.loops = ["B:2", "M:1", "S:0"]} : tensor<6x5x12xf32>
        %s = stablehlo.sine %e : tensor<6x5x12xf32>
        %one = stablehlo.constant dense<1> : tensor<i32>
        %next = stablehlo.add %i, %one : tensor<i32>
        stablehlo.return %next, %h, %s : tensor<i32>, tensor<6x5x8xf32>, tensor<6x5x12xf32>
      }
    return %r#2 : tensor<6x5x12xf32>
  }
}

//--- dead.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2, "S"=3]>} {
  func.func @main(%a: tensor<5x8xf32>, %b: tensor<8x12xf32>) -> (tensor<5x12xf32>) {
    %n = stablehlo.negate %a : tensor<5x8xf32>
    %p = stablehlo.dot_general %n, %b, contracting_dims = [1] x [0] {partir.loops = ["B:2", "M:0"]} : (tensor<5x8xf32>, tensor<8x12xf32>) -> tensor<5x12xf32>
    %e = stablehlo.exponential %p {partir.loops = ["B:1", "M:0"]} : tensor<5x12xf32>
    %t = stablehlo.tanh %p {partir.loops = ["B:1", "M:0"]} : tensor<5x12xf32>
    return %e : tensor<5x12xf32>
  }
}

//--- inside2.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4, "S"=3, "M"=2]>} {
  func.func @main(%a: tensor<5x8xf32>, %b: tensor<8x12xf32>) -> (tensor<5x12xf32>, tensor<5x12xf32>) {
    %n = stablehlo.negate %a : tensor<5x8xf32>
    %p = stablehlo.dot_general %n, %b, contracting_dims = [1] x [0] {partir.loops = ["B:2", "S:1", "M:0"]} : (tensor<5x8xf32>, tensor<8x12xf32>) -> tensor<5x12xf32>
    %e = stablehlo.exponential %p {partir.loops = ["B:1", "M:0", "S:1"]} : tensor<5x12xf32>
    %t = stablehlo.tanh %p {partir.loops = ["B:1", "M:0"]} : tensor<5x12xf32>
    return %e, %t : tensor<5x12xf32>, tensor<5x12xf32>
  }
}
