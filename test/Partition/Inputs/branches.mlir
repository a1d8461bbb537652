// lax.cond as JAX exports it (stablehlo.case on an i32 index) and an if,
// each branch reading the batch x from above; the result feeds a matmul.
module @branches attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%k: tensor<i32>, %p: tensor<i1>, %x: tensor<16x8xf32>, %w: tensor<8x4xf32>) -> tensor<16x4xf32> {
    %r = "stablehlo.case"(%k) ({
      %e = stablehlo.exponential %x : tensor<16x8xf32>
      stablehlo.return %e : tensor<16x8xf32>
    }, {
      %n = stablehlo.negate %x : tensor<16x8xf32>
      stablehlo.return %n : tensor<16x8xf32>
    }, {
      stablehlo.return %x : tensor<16x8xf32>
    }) : (tensor<i32>) -> tensor<16x8xf32>
    %s = "stablehlo.if"(%p) ({
      %t = stablehlo.tanh %r : tensor<16x8xf32>
      stablehlo.return %t : tensor<16x8xf32>
    }, {
      stablehlo.return %r : tensor<16x8xf32>
    }) : (tensor<i1>) -> tensor<16x8xf32>
    %y = stablehlo.dot_general %s, %w, contracting_dims = [1] x [0] : (tensor<16x8xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
    return %y : tensor<16x4xf32>
  }
}
