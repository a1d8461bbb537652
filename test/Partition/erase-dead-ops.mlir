// Partitioning passes erase the ops whose results nothing that runs reads
// (side-effect free, at any depth of regions), as lowering's canonicalizer
// would after the collective optimizer, and say so in a remark. A
// partir.tag stays with what it reads, read or not: its name is how a
// tactic selects a value (here the dead tag "u" tiles %u's producer
// backward).
//
// RUN: rm -rf %t && split-file %s %t
// RUN: toast-opt %t/main.mlir --partir-tile="value=u dim=0 axis=B" --partir-propagate 2>&1 | FileCheck %s --implicit-check-not=stablehlo.negate --implicit-check-not=stablehlo.sine --implicit-check-not=stablehlo.cosine
// CHECK: remark: erased 4 ops of @main whose results nothing reads (`#N` selectors number the ops left)
// CHECK: func.func @main(%arg0: tensor<8x4xf32>)
// CHECK: stablehlo.exponential %arg0 {partir.loops = ["B:0"]}
// CHECK: partir.tag "u" {{.*}}partir.loops = ["B:0"]
// CHECK: stablehlo.while
// CHECK: stablehlo.tanh
// CHECK-NOT: stablehlo.constant dense<2.0
// CHECK: return
//
// The partitioned program computes what the input computes.
// RUN: toast-opt %t/main.mlir --partir-tile="value=u dim=0 axis=B" --partir-propagate --partir-materialize-core --partir-lower-to-hlo -o %t/lowered.mlir
// RUN: toast-run --compare %t/main.mlir %t/lowered.mlir | FileCheck %s --check-prefix=AGREE
// AGREE: results agree
//
// A tag in a loop nothing reads keeps the loop (found by review: the loop
// went with the tag inside, and the tactic naming it failed).
// RUN: toast-opt %t/tagloop.mlir --partir-tile="value=inloop dim=0 axis=B" --partir-propagate 2>&1 | FileCheck %s --check-prefix=LOOP --implicit-check-not=remark
// LOOP: stablehlo.while
// LOOP: stablehlo.tanh {{.*}}partir.loops = ["B:0"]
// LOOP: partir.tag "inloop" {{.*}}partir.loops = ["B:0"]

//--- main.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %e = stablehlo.exponential %x : tensor<8x4xf32>
    %u = partir.tag "u" %e : tensor<8x4xf32>
    %n = stablehlo.negate %x : tensor<8x4xf32>
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, tensor<8x4xf32>
     cond {
      %k = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %s = stablehlo.sine %n : tensor<8x4xf32>
      %two = stablehlo.constant dense<2.0> : tensor<8x4xf32>
      %t = stablehlo.tanh %h : tensor<8x4xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %j, %t : tensor<i32>, tensor<8x4xf32>
    }
    %d = stablehlo.cosine %r#1 : tensor<8x4xf32>
    return %r#1 : tensor<8x4xf32>
  }
}
//--- tagloop.mlir
module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, tensor<8x4xf32>
     cond {
      %k = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %k : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %t = stablehlo.tanh %h : tensor<8x4xf32>
      %u = partir.tag "inloop" %t : tensor<8x4xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %j, %u : tensor<i32>, tensor<8x4xf32>
    }
    %e = stablehlo.exponential %x : tensor<8x4xf32>
    return %e : tensor<8x4xf32>
  }
}
