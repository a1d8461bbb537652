// Gradient accumulation written as nested loops: an outer loop over 3
// steps, an inner loop over 2 micro-steps reading the batch; the carried
// activations are batch-shaped.
module @nested attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%x: tensor<16x8xf32>, %w: tensor<8x8xf32>) -> tensor<16x8xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, tensor<16x8xf32>
     cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %s:2 = stablehlo.while(%j = %z, %g = %h) : tensor<i32>, tensor<16x8xf32>
       cond {
        %n = stablehlo.constant dense<2> : tensor<i32>
        %p = stablehlo.compare LT, %j, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %p : tensor<i1>
      } do {
        %one = stablehlo.constant dense<1> : tensor<i32>
        %next = stablehlo.add %j, %one : tensor<i32>
        %m = stablehlo.dot_general %g, %w, contracting_dims = [1] x [0] : (tensor<16x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
        %t = stablehlo.tanh %m : tensor<16x8xf32>
        stablehlo.return %next, %t : tensor<i32>, tensor<16x8xf32>
      }
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next, %s#1 : tensor<i32>, tensor<16x8xf32>
    }
    return %r#1 : tensor<16x8xf32>
  }
}
