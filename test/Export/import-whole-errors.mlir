// --partir-import-shardings on the whole-strategy form (ops carry
// shardings): annotations it cannot follow are located errors.
// RUN: toast-opt %s -split-input-file --partir-import-shardings -verify-diagnostics

// A sort cannot be split along its sort dimension.
module {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
    // expected-error @+1 {{setLoopNest: factor 0 cannot be looped over}}
    %0 = "stablehlo.sort"(%a) <{dimension = 0 : i64}> ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %c = stablehlo.compare LT, %l, %r : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

// -----

// Several results need a tuple of HloShardings.
module {
  func.func @main(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    // expected-error @+1 {{malformed mhlo.sharding "{devices=[2]<=[2]}": expected a tuple sharding}}
    %0:2 = "stablehlo.sort"(%a, %b) <{dimension = 0 : i64}> ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>, %l2: tensor<f32>, %r2: tensor<f32>):
      %c = stablehlo.compare LT, %l, %r : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    }) {mhlo.sharding = "{devices=[2]<=[2]}"} : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
  }
}

// -----

module {
  func.func @main(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    // expected-error @+1 {{has 3 shardings for 2 results}}
    %0:2 = "stablehlo.sort"(%a, %b) <{dimension = 0 : i64}> ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>, %l2: tensor<f32>, %r2: tensor<f32>):
      %c = stablehlo.compare LT, %l, %r : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    }) {mhlo.sharding = "{{devices=[2]<=[2]}, {replicated}, {replicated}}"} : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    return %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
  }
}
