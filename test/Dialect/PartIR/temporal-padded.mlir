// --partir-lower-to-temporal does not support padded (uneven) tiling yet:
// a located error, never slices past the end of a tensor.
//
// RUN: not toast-opt %s --partir-lower-to-temporal 2>&1 | FileCheck %s
// CHECK: temporal-padded.mlir:[[@LINE+4]]:12: error: 'partir.slice' op is padded (uneven); --partir-lower-to-temporal does not support padded tiling
module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @main(%x: tensor<10xf32>) -> tensor<10xf32> {
    %r = partir.loop "B" [#partir.tile<0>] (%rb: !partir.range<4>) {
      %s = partir.slice 0 %x[%rb : !partir.range<4>] : tensor<10xf32> -> tensor<3xf32>
      %t = stablehlo.tanh %s : tensor<3xf32>
      partir.yield %t : tensor<3xf32>
    } : tensor<10xf32>
    return %r : tensor<10xf32>
  }
}
