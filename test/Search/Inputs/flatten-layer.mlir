module {
  func.func @layer(%x: tensor<2x4x8xf32>, %w: tensor<8x16xf32>) -> tensor<2x4x4x4xf32> {
    %f = stablehlo.reshape %x : (tensor<2x4x8xf32>) -> tensor<8x8xf32>
    %y = stablehlo.dot_general %f, %w, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %r = stablehlo.tanh %y : tensor<8x16xf32>
    %u = stablehlo.reshape %r : (tensor<8x16xf32>) -> tensor<2x4x16xf32>
    %h = stablehlo.reshape %u : (tensor<2x4x16xf32>) -> tensor<2x4x4x4xf32>
    return %h : tensor<2x4x4x4xf32>
  }
}
