// A saved state (partir.loops, partir.tiling) may be written by hand, in a
// lit test or an edited file: it is checked when loaded as a tactic's
// request is checked (partir.loops, partir.tiling, partir.edge_loops). An axis used twice is refused, and so is padding over
// two axes of one dimension (B cuts 10 columns into 5, M would pad those
// into 3 + 2, and the argument boundary's flat layout over B and M puts
// different columns on each device: the program used to lower and compute
// something else).
//
// RUN: toast-opt %s --split-input-file --partir-materialize-core -verify-diagnostics -o /dev/null
// RUN: toast-opt %s --split-input-file --toast-emit-planned="device=a100" -verify-diagnostics -o /dev/null

module attributes {partir.mesh = #partir.mesh<["B"=2, "M"=2]>} {
  func.func @loops(%x: tensor<12x10xf32>, %b: tensor<12x10xf32>) -> tensor<12x10xf32> {
    // expected-error @+1 {{partir.loops: factor 1 of size 10 is not divisible into 4 tiles (padding takes one axis per dimension and at least one row per tile)}}
    %s = stablehlo.add %x, %b {partir.loops = ["B:1", "M:1"]} : tensor<12x10xf32>
    return %s : tensor<12x10xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=2, "M"=2]>} {
  // expected-error @+1 {{partir.tiling entry M:1: dimension 1 of size 10 is not divisible into 4 tiles (padding takes one axis per dimension and at least one row per tile)}}
  func.func @tiling(%x: tensor<12x10xf32> {partir.tiling = ["B:1", "M:1"]}) -> tensor<12x10xf32> {
    %n = stablehlo.negate %x : tensor<12x10xf32>
    return %n : tensor<12x10xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=2, "M"=2]>} {
  // expected-error @+1 {{partir.tiling entry B:1: axis "B" used twice}}
  func.func @twice(%x: tensor<12x8xf32> {partir.tiling = ["B:0", "B:1"]}) -> tensor<12x8xf32> {
    %n = stablehlo.negate %x : tensor<12x8xf32>
    return %n : tensor<12x8xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=2, "M"=2]>} {
  func.func @loop_twice(%x: tensor<12x8xf32>) -> tensor<12x8xf32> {
    // expected-error @+1 {{partir.loops: axis "M" used twice}}
    %n = stablehlo.negate %x {partir.loops = ["B:1", "M:0", "M:1"]} : tensor<12x8xf32>
    return %n : tensor<12x8xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=3]>} {
  func.func @edge(%x: tensor<10x4xf32>) -> tensor<10x4xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    // expected-error @+1 {{partir.edge_loops: factor 0 of size 10 is not divisible into 12 tiles}}
    %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, tensor<10x4xf32>
     attributes {partir.edge_loops = [[], ["B:0", "M:0"]]}
     cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %t = stablehlo.tanh %h : tensor<10x4xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %j, %t : tensor<i32>, tensor<10x4xf32>
    }
    return %r#1 : tensor<10x4xf32>
  }
}

// -----

// One axis pads (10 rows over B:4 is 3 per device): loaded and lowered.
module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @one_axis(%x: tensor<12x10xf32> {partir.tiling = ["B:1"]}) -> tensor<12x10xf32> {
    %n = stablehlo.negate %x {partir.loops = ["B:1"]} : tensor<12x10xf32>
    return %n : tensor<12x10xf32>
  }
}
