// PartIR Listing 2: the matmul chain (x @ w1) @ w2.
module {
  func.func @main(%x: tensor<256x8xf32> {partir.name = "x"},
                  %w1: tensor<8x16xf32> {partir.name = "w1"},
                  %w2: tensor<16x8xf32> {partir.name = "w2"}) -> tensor<256x8xf32> {
    %x1 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<256x8xf32>, tensor<8x16xf32>) -> tensor<256x16xf32>
    %x2 = stablehlo.dot_general %x1, %w2, contracting_dims = [1] x [0] : (tensor<256x16xf32>, tensor<16x8xf32>) -> tensor<256x8xf32>
    return %x2 : tensor<256x8xf32>
  }
}
