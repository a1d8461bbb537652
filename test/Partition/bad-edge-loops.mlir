// A saved loop nest of a loop's tied values (`partir.edge_loops`, one list
// per result) that does not fit the loop is a located error.
//
// RUN: toast-opt %s -split-input-file -verify-diagnostics --partir-propagate

module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @wrong_count(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    // expected-error @+1 {{malformed or unexpected partir.edge_loops}}
    %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, tensor<8x4xf32>
     attributes {partir.edge_loops = [["B:0"]]}
     cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      stablehlo.return %i, %h : tensor<i32>, tensor<8x4xf32>
    }
    return %r#1 : tensor<8x4xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @bad_factor(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    // expected-error @+1 {{partir.edge_loops: factor 2 cannot be looped over}}
    %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, tensor<8x4xf32>
     attributes {partir.edge_loops = [[], ["B:2"]]}
     cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      stablehlo.return %i, %h : tensor<i32>, tensor<8x4xf32>
    }
    return %r#1 : tensor<8x4xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @unknown_axis(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    // expected-error @+1 {{partir.edge_loops: unknown axis "Q"}}
    %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, tensor<8x4xf32>
     attributes {partir.edge_loops = [[], ["Q:0"]]}
     cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      stablehlo.return %i, %h : tensor<i32>, tensor<8x4xf32>
    }
    return %r#1 : tensor<8x4xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @malformed_entry(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    // expected-error @+1 {{invalid partir.edge_loops entry ["B"] (expected a list of "axis:factor" strings)}}
    %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, tensor<8x4xf32>
     attributes {partir.edge_loops = [[], ["B"]]}
     cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      stablehlo.return %i, %h : tensor<i32>, tensor<8x4xf32>
    }
    return %r#1 : tensor<8x4xf32>
  }
}

// -----

// On an op that is not a loop or conditional.
module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @not_a_loop(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
    // expected-error @+1 {{malformed or unexpected partir.edge_loops}}
    %y = stablehlo.exponential %x {partir.edge_loops = [["B:0"]]} : tensor<8x4xf32>
    return %y : tensor<8x4xf32>
  }
}
