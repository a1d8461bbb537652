// A PyTorch-style linear layer: flatten (B, S, D) to (B*S, D), multiply by
// a 2-D weight, apply a row-wise op, unflatten to (B, S, F).
module attributes {partir.mesh = #partir.mesh<["a"=4, "b"=2]>} {
  func.func @main(%x: tensor<4x8x3xf32> {partir.name = "x"}, %w: tensor<3x5xf32> {partir.name = "w"}) -> tensor<4x8x5xf32> {
    %flat = stablehlo.reshape %x : (tensor<4x8x3xf32>) -> tensor<32x3xf32>
    %y = stablehlo.dot_general %flat, %w, contracting_dims = [1] x [0] : (tensor<32x3xf32>, tensor<3x5xf32>) -> tensor<32x5xf32>
    %t = stablehlo.tanh %y : tensor<32x5xf32>
    %out = stablehlo.reshape %t : (tensor<32x5xf32>) -> tensor<4x8x5xf32>
    %r = stablehlo.add %out, %out : tensor<4x8x5xf32>
    return %r : tensor<4x8x5xf32>
  }
}
