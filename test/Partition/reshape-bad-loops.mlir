// A saved loop nest that tiles the minor factor of a merged dimension
// while its major factor is whole (a strided layout, not a block) is
// rejected with a located error.
// RUN: not toast-opt %s --partir-materialize-core 2>&1 | FileCheck %s

module attributes {partir.mesh = #partir.mesh<["b"=2]>} {
  func.func @main(%x: tensor<4x8x3xf32>) -> tensor<32x3xf32> {
    // CHECK: reshape-bad-loops.mlir:[[@LINE+1]]:13: error: partir.loops: factor 1 would tile a compound (reshaped) dimension that is not a block: a minor factor before its major factors are fully tiled
    %flat = stablehlo.reshape %x {partir.loops = ["b:1"]} : (tensor<4x8x3xf32>) -> tensor<32x3xf32>
    return %flat : tensor<32x3xf32>
  }
}
