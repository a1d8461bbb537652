// What optimize-padded.mlir computes, globally.
module {
  func.func public @main(%x: tensor<10x3xf32>) -> tensor<10x3xf32> {
    %four = stablehlo.constant dense<4.0> : tensor<10x3xf32>
    %s = stablehlo.multiply %x, %four : tensor<10x3xf32>
    %t = stablehlo.tanh %s : tensor<10x3xf32>
    return %t : tensor<10x3xf32>
  }
}
