// The running example of the PartIR and TOAST papers: a two-layer MLP (batch 4 here),
// y = relu(x @ w1) @ w2, written by hand in the StableHLO that JAX exports.
// Try: toast-opt examples/mlp.mlir --toast-op-summary
module @mlp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<4x1024xf32> {jax.arg_info = "batch.x"},
                         %w1: tensor<1024x4096xf32> {jax.arg_info = "params.w1"},
                         %w2: tensor<4096x1024xf32> {jax.arg_info = "params.w2"})
      -> (tensor<4x1024xf32> {jax.result_info = "result"}) {
    %h = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x1024xf32>, tensor<1024x4096xf32>) -> tensor<4x4096xf32>
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<4x4096xf32>
    %relu = stablehlo.maximum %h, %zeros : tensor<4x4096xf32>
    %y = stablehlo.dot_general %relu, %w2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x4096xf32>, tensor<4096x1024xf32>) -> tensor<4x1024xf32>
    return %y : tensor<4x1024xf32>
  }
}
