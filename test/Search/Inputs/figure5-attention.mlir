// TOAST figure 5a: simplified attention with the mock softmax (averaging),
// as in test/Analysis/figure5-attention.mlir, plus a pointwise reader of
// the output so that the output's rows are sharded like the sequence.
module {
  func.func @attn(%x: tensor<8x4xf32>, %wq: tensor<4x6xf32>, %wk: tensor<4x6xf32>, %wv: tensor<4x5xf32>) -> tensor<8x5xf32> {
    %k = stablehlo.dot_general %x, %wk, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
    %v = stablehlo.dot_general %x, %wv, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x5xf32>) -> tensor<8x5xf32>
    %q = stablehlo.dot_general %x, %wq, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
    %qt = stablehlo.transpose %q, dims = [1, 0] : (tensor<8x6xf32>) -> tensor<6x8xf32>
    %a = stablehlo.dot_general %k, %qt, contracting_dims = [1] x [0] : (tensor<8x6xf32>, tensor<6x8xf32>) -> tensor<8x8xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %b = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
    %c = stablehlo.broadcast_in_dim %b, dims = [0] : (tensor<8xf32>) -> tensor<8x8xf32>
    %d = stablehlo.divide %a, %c : tensor<8x8xf32>
    %z = stablehlo.dot_general %d, %v, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x5xf32>) -> tensor<8x5xf32>
    %out = stablehlo.tanh %z : tensor<8x5xf32>
    return %out : tensor<8x5xf32>
  }
}
