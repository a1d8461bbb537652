// spmd-global.mlir written by hand as device-local PartIR:HLO on the mesh
// {x:2, y:2}, using every PartIR:HLO collective (PartIR Listing 9).
module attributes {partir.mesh = #partir.mesh<["x"=2, "y"=2]>} {
  func.func @main(%a: tensor<4x4xf32> {partir.sharding = [["x"], []]},
                  %b: tensor<4x4xf32> {partir.sharding = [["x"], []]},
                  %c: tensor<8x4xf32>)
      -> (tensor<4x4xf32> {partir.sharding = [["x"], []]}, tensor<4xf32>,
          tensor<8x2xf32> {partir.sharding = [[], ["x"]]},
          tensor<4x2xf32> {partir.sharding = [["x"], ["y"]]}, tensor<8x4xf32>,
          tensor<4xf32>, tensor<8x4xf32>,
          tensor<4x2xf32> {partir.sharding = [["x"], ["y"]]}) {
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %three = stablehlo.constant dense<3.0> : tensor<2x4xf32>
    // Elementwise on shards: no communication.
    %sum = stablehlo.add %a, %b : tensor<4x4xf32>
    // A contraction over the sharded dimension: partial sums, then all_reduce.
    %partial = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
    %rows = partir_hlo.all_reduce "sum" ["x"] %partial : tensor<4xf32>
    // Resharding from rows to columns.
    %cols = partir_hlo.all_to_all 0 -> 1 ["x"] %a : tensor<4x4xf32> -> tensor<8x2xf32>
    // %a is replicated over y: the sum over y is 2a, scattered over columns.
    %twice = partir_hlo.reduce_scatter "sum" [{}, {"y"}] %a : tensor<4x4xf32> -> tensor<4x2xf32>
    // Slice over two axes in non-mesh order, compute, gather back.
    %cs = partir_hlo.all_slice [{"y", "x"}, {}] %c : tensor<8x4xf32> -> tensor<2x4xf32>
    %cs3 = stablehlo.multiply %cs, %three : tensor<2x4xf32>
    %c3 = partir_hlo.all_gather [{"y", "x"}, {}] %cs3 : tensor<2x4xf32> -> tensor<8x4xf32>
    %localmax = stablehlo.reduce(%b init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
    %max = partir_hlo.all_reduce "max" ["x"] %localmax : tensor<4xf32>
    // Two dimensions at once: slice and gather back; sum the copies of all
    // 4 devices and scatter them over both dimensions.
    %cxy = partir_hlo.all_slice [{"x"}, {"y"}] %c : tensor<8x4xf32> -> tensor<4x2xf32>
    %cback = partir_hlo.all_gather [{"x"}, {"y"}] %cxy : tensor<4x2xf32> -> tensor<8x4xf32>
    %c4 = partir_hlo.reduce_scatter "sum" [{"x"}, {"y"}] %c : tensor<8x4xf32> -> tensor<4x2xf32>
    return %sum, %rows, %cols, %twice, %c3, %max, %cback, %c4 : tensor<4x4xf32>, tensor<4xf32>, tensor<8x2xf32>, tensor<4x2xf32>, tensor<8x4xf32>, tensor<4xf32>, tensor<8x4xf32>, tensor<4x2xf32>
  }
}
