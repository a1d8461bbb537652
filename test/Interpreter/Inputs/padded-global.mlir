// What Inputs/padded-hlo.mlir computes, on global values.
module {
  func.func public @main(%x: tensor<10x3xf32>, %y: tensor<10x3xf32>) -> (tensor<10x3xf32>, tensor<10x3xf32>, tensor<10x3xf32>, tensor<3xf32>) {
    %t = stablehlo.tanh %x : tensor<10x3xf32>
    %m = stablehlo.multiply %x, %y : tensor<10x3xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %c = stablehlo.cosine %x : tensor<10x3xf32>
    %s = stablehlo.reduce(%c init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<10x3xf32>, tensor<f32>) -> tensor<3xf32>
    return %t, %m, %y, %s : tensor<10x3xf32>, tensor<10x3xf32>, tensor<10x3xf32>, tensor<3xf32>
  }
}
