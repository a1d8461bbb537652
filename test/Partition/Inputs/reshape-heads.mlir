// Attention-style head split and merge: (B, S, D) projected to (B, S, H*K),
// split into heads (B, S, H, K), a per-head op, merged back and projected
// to (B, S, D). Tiling the projection's H*K columns (forward) or the output
// projection's heads (backward) gives the head dimension.
module attributes {partir.mesh = #partir.mesh<["m"=2]>} {
  func.func @main(%x: tensor<2x4x6xf32> {partir.name = "x"}, %wq: tensor<6x8xf32> {partir.name = "wq"}, %wo: tensor<4x2x6xf32> {partir.name = "wo"}) -> tensor<2x4x6xf32> {
    %q = stablehlo.dot_general %x, %wq, contracting_dims = [2] x [0] : (tensor<2x4x6xf32>, tensor<6x8xf32>) -> tensor<2x4x8xf32>
    %h = stablehlo.reshape %q : (tensor<2x4x8xf32>) -> tensor<2x4x4x2xf32>
    %e = stablehlo.exponential %h : tensor<2x4x4x2xf32>
    %o = stablehlo.dot_general %e, %wo, contracting_dims = [2, 3] x [0, 1] : (tensor<2x4x4x2xf32>, tensor<4x2x6xf32>) -> tensor<2x4x6xf32>
    return %o : tensor<2x4x6xf32>
  }
}
