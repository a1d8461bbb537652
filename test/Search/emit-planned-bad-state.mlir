// A state --toast-emit-planned cannot load is reported once, at the op or
// argument, and the pass fails. (The check that the state is written in
// mesh-axis order loads it first; that load used to report every error a
// second time.) A tiling that repeats an axis does not load (it used to
// load, warn that it is out of mesh-axis order, and only then fail).
// RUN: toast-opt %s --toast-emit-planned=device=a100 -split-input-file -verify-diagnostics -o /dev/null
// RUN: not toast-opt %s --toast-emit-planned=device=a100 -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONCE
// ONCE-COUNT-1: error: partir.loops: unknown axis "X"
// ONCE-NOT: error: partir.loops: unknown axis "X"

module attributes {partir.mesh = #partir.mesh<["B"=2, "M"=2]>} {
  func.func @main(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>) -> tensor<8x8xf32> {
    // expected-error @+1 {{partir.loops: unknown axis "X"}}
    %s = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] {partir.loops = ["X:0"]} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    return %s : tensor<8x8xf32>
  }
}

// -----

module attributes {partir.mesh = #partir.mesh<["B"=2, "M"=2]>} {
  // expected-error @+1 {{partir.tiling entry B:0: axis "B" used twice}}
  func.func @main(%a: tensor<8x16xf32> {partir.tiling = ["B:0", "B:0"]}, %b: tensor<16x8xf32>) -> tensor<8x8xf32> {
    %s = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
    return %s : tensor<8x8xf32>
  }
}
