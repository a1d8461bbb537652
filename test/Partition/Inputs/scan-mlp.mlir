// A 4-layer MLP written the way jax.lax.scan exports it: the layers'
// weights stacked on a leading layer dimension, one stablehlo.while whose
// body slices layer i's weights with dynamic_slice at the loop counter.
module @scan_mlp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<32x16xf32> {jax.arg_info = "batch.x"},
                         %w1: tensor<4x16x64xf32> {jax.arg_info = "params.layers.w1"},
                         %w2: tensor<4x64x16xf32> {jax.arg_info = "params.layers.w2"})
      -> (tensor<32x16xf32> {jax.result_info = "result"}) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:4 = stablehlo.while(%i = %c0, %h = %x, %a = %w1, %b = %w2) : tensor<i32>, tensor<32x16xf32>, tensor<4x16x64xf32>, tensor<4x64x16xf32>
     cond {
      %n = stablehlo.constant dense<4> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %s1 = stablehlo.dynamic_slice %a, %i, %z, %z, sizes = [1, 16, 64] : (tensor<4x16x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x64xf32>
      %m1 = stablehlo.reshape %s1 : (tensor<1x16x64xf32>) -> tensor<16x64xf32>
      %u = stablehlo.dot_general %h, %m1, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
      %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %zeros = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
      %relu = stablehlo.maximum %u, %zeros : tensor<32x64xf32>
      %s2 = stablehlo.dynamic_slice %b, %i, %z, %z, sizes = [1, 64, 16] : (tensor<4x64x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x16xf32>
      %m2 = stablehlo.reshape %s2 : (tensor<1x64x16xf32>) -> tensor<64x16xf32>
      %y = stablehlo.dot_general %relu, %m2, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x16xf32>) -> tensor<32x16xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next, %y, %a, %b : tensor<i32>, tensor<32x16xf32>, tensor<4x16x64xf32>, tensor<4x64x16xf32>
    }
    return %r#1 : tensor<32x16xf32>
  }
}
