// PyTorch's unflatten: rows (B*S, D) back to (B, S, D). The rows' tiling
// splits between B (major) and S (minor).
module attributes {partir.mesh = #partir.mesh<["a"=4, "b"=2]>} {
  func.func @main(%x: tensor<32x3xf32> {partir.name = "x"}) -> tensor<4x8x3xf32> {
    %t = stablehlo.tanh %x : tensor<32x3xf32>
    %out = stablehlo.reshape %t : (tensor<32x3xf32>) -> tensor<4x8x3xf32>
    %e = stablehlo.exponential %out : tensor<4x8x3xf32>
    return %e : tensor<4x8x3xf32>
  }
}
