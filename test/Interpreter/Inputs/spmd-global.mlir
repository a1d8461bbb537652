// The global program of spmd-collectives.mlir and spmd-errors.mlir.
func.func @main(%a: tensor<8x4xf32>, %b: tensor<8x4xf32>, %c: tensor<8x4xf32>)
    -> (tensor<8x4xf32>, tensor<4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<4xf32>,
        tensor<8x4xf32>, tensor<8x4xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %three = stablehlo.constant dense<3.0> : tensor<8x4xf32>
  %sum = stablehlo.add %a, %b : tensor<8x4xf32>
  %rows = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
  %twice = stablehlo.add %a, %a : tensor<8x4xf32>
  %c3 = stablehlo.multiply %c, %three : tensor<8x4xf32>
  %max = stablehlo.reduce(%b init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>
  %four = stablehlo.constant dense<4.0> : tensor<8x4xf32>
  %c4 = stablehlo.multiply %c, %four : tensor<8x4xf32>
  return %sum, %rows, %a, %twice, %c3, %max, %c, %c4 : tensor<8x4xf32>, tensor<4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
}
