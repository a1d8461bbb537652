// Loops and conditionals (control-flow-design.md §2): a loop-carried value
// is one value for partitioning. Its while operand, block arguments, yielded
// value and result share one tiling (the `partir.edge_loops` entry of the
// result), known from any of them, in both directions and through nested
// loops; the ops in bodies get loop nests like top-level ops.
//
// RUN: toast-opt %s -split-input-file --partir-propagate | FileCheck %s
// RUN: toast-opt %s -split-input-file --partir-propagate=report=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// Forward: x tiled on its rows flows into the body and out of the loop.
// CHECK-LABEL: func.func @forward(
// CHECK: stablehlo.while{{.*}}partir.edge_loops = {{\[}}[], ["B:0"]]
// CHECK: stablehlo.exponential {{.*}}partir.loops = ["B:0"]
// CHECK: stablehlo.negate {{.*}}partir.loops = ["B:0"]
// STATS: partir-propagate: {{[0-9]+}} visits, 3 loops added, 0 conflicts
module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @forward(%x: tensor<8x4xf32> {partir.tiling = ["B:0"]}) -> tensor<8x4xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, tensor<8x4xf32>
     cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      %e = stablehlo.exponential %h : tensor<8x4xf32>
      stablehlo.return %next, %e : tensor<i32>, tensor<8x4xf32>
    }
    %y = stablehlo.negate %r#1 : tensor<8x4xf32>
    return %y : tensor<8x4xf32>
  }
}

// -----

// Backward: a tiling of a value computed after the loop reaches the body
// and the loop's operand.
// CHECK-LABEL: func.func @backward(
// CHECK: stablehlo.negate {{.*}}partir.loops = ["B:1"]
// CHECK: stablehlo.while{{.*}}partir.edge_loops = {{\[}}[], ["B:1"]]
// CHECK: stablehlo.exponential {{.*}}partir.loops = ["B:1"]
// CHECK: partir.tag "y"{{.*}}partir.loops = ["B:1"]
// STATS: partir-propagate: {{[0-9]+}} visits, 4 loops added, 0 conflicts
module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @backward(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %x2 = stablehlo.negate %x : tensor<8x4xf32>
    %r:2 = stablehlo.while(%i = %c0, %h = %x2) : tensor<i32>, tensor<8x4xf32>
     cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      %e = stablehlo.exponential %h : tensor<8x4xf32>
      stablehlo.return %next, %e : tensor<i32>, tensor<8x4xf32>
    }
    %y = partir.tag "y" %r#1 {partir.result_tilings = [["B:1"]]} : tensor<8x4xf32>
    return %y : tensor<8x4xf32>
  }
}

// -----

// Nested loops: the inner loop's carried value is the outer body's block
// argument; both edges and the innermost op get the tiling.
// CHECK-LABEL: func.func @nested(
// CHECK: stablehlo.while{{.*}}partir.edge_loops = {{\[}}[], ["B:0"]]
// CHECK: stablehlo.while{{.*}}partir.edge_loops = {{\[}}[], ["B:0"]]
// CHECK: stablehlo.exponential {{.*}}partir.loops = ["B:0"]
module attributes {partir.mesh = #partir.mesh<["B"=2]>} {
  func.func @nested(%x: tensor<8x4xf32> {partir.tiling = ["B:0"]}) -> tensor<8x4xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, tensor<8x4xf32>
     cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %s:2 = stablehlo.while(%j = %z, %g = %h) : tensor<i32>, tensor<8x4xf32>
       cond {
        %n = stablehlo.constant dense<2> : tensor<i32>
        %p = stablehlo.compare LT, %j, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %p : tensor<i1>
      } do {
        %one = stablehlo.constant dense<1> : tensor<i32>
        %next = stablehlo.add %j, %one : tensor<i32>
        %e = stablehlo.exponential %g : tensor<8x4xf32>
        stablehlo.return %next, %e : tensor<i32>, tensor<8x4xf32>
      }
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next, %s#1 : tensor<i32>, tensor<8x4xf32>
    }
    return %r#1 : tensor<8x4xf32>
  }
}

// -----

// A carried value required tiled two ways (the operand on its rows, the
// loop's result on its columns, both over B) is a conflict: the edge stays
// unpartitioned, nothing crashes.
// CHECK-LABEL: func.func @conflict(
// CHECK: stablehlo.while
// CHECK-NOT: partir.edge_loops
// CHECK: stablehlo.exponential
// CHECK-NOT: partir.loops
// CHECK: return
// STATS: partir-propagate: {{[0-9]+}} visits, 0 loops added, {{[1-9][0-9]*}} conflicts
module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @conflict(%x: tensor<8x4xf32> {partir.tiling = ["B:0"]}) -> tensor<8x4xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, tensor<8x4xf32>
     attributes {partir.result_tilings = [[], ["B:1"]]}
     cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      %e = stablehlo.exponential %h : tensor<8x4xf32>
      stablehlo.return %next, %e : tensor<i32>, tensor<8x4xf32>
    }
    return %r#1 : tensor<8x4xf32>
  }
}

// -----

// case/if: every branch's returned value ties to the result. A value
// captured from above is an ordinary use: the branch op reading it gets the
// tiling of x, and the result carries it out.
// CHECK-LABEL: func.func @conditional(
// CHECK: stablehlo.if
// CHECK: stablehlo.exponential {{.*}}partir.loops = ["B:0"]
// CHECK: stablehlo.negate {{.*}}partir.loops = ["B:0"]
// CHECK: partir.edge_loops = {{\[}}["B:0"]]
// CHECK: stablehlo.abs {{.*}}partir.loops = ["B:0"]
module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @conditional(%p: tensor<i1>, %x: tensor<8x4xf32> {partir.tiling = ["B:0"]}) -> tensor<8x4xf32> {
    %r = "stablehlo.if"(%p) ({
      %e = stablehlo.exponential %x : tensor<8x4xf32>
      stablehlo.return %e : tensor<8x4xf32>
    }, {
      %n = stablehlo.negate %x : tensor<8x4xf32>
      stablehlo.return %n : tensor<8x4xf32>
    }) : (tensor<i1>) -> tensor<8x4xf32>
    %a = stablehlo.abs %r : tensor<8x4xf32>
    return %a : tensor<8x4xf32>
  }
}
