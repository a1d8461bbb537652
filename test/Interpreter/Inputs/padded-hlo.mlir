// Padded PartIR:HLO collectives: 10 rows on 4 devices are 3 rows each, the
// last device holding 1 row and 2 of padding (docs/dialects.md).
module attributes {partir.mesh = #partir.mesh<["x"=2, "y"=2]>} {
  func.func public @main(%x: tensor<10x3xf32>,
                         %y: tensor<3x3xf32> {partir.sharding = [["x", "y"], []], toast.global_shape = array<i64: 10, 3>})
      -> (tensor<10x3xf32>,
          tensor<3x3xf32> {partir.sharding = [["y", "x"], []], toast.global_shape = array<i64: 10, 3>},
          tensor<5x3xf32> {partir.sharding = [["x"], []], toast.global_shape = array<i64: 10, 3>},
          tensor<3xf32>) {
    // all_slice pads the last device's chunk; all_gather drops the padding.
    %s = partir_hlo.all_slice [{"x", "y"}, {}] %x : tensor<10x3xf32> -> tensor<3x3xf32>
    %t = stablehlo.tanh %s : tensor<3x3xf32>
    %g = partir_hlo.all_gather [{"x", "y"}, {}] %t : tensor<3x3xf32> -> tensor<10x3xf32>
    // Axes in the other order: another device order, the same padding rule.
    %yg = partir_hlo.all_gather [{"x", "y"}, {}] %y : tensor<3x3xf32> -> tensor<10x3xf32>
    %yt = partir_hlo.all_slice [{"y", "x"}, {}] %yg : tensor<10x3xf32> -> tensor<3x3xf32>
    %xt = partir_hlo.all_slice [{"y", "x"}, {}] %x : tensor<10x3xf32> -> tensor<3x3xf32>
    %m = stablehlo.multiply %xt, %yt : tensor<3x3xf32>
    // Evenly divisible over one axis: the global shape is recorded anyway.
    %h = partir_hlo.all_slice [{"x"}, {}] %yg : tensor<10x3xf32> -> tensor<5x3xf32>
    // A sum over the padded rows: the padding must be masked first (the
    // padding of an all_slice is unspecified; the interpreter fills zeros,
    // whose cosine is not).
    %valid = stablehlo.constant dense<[true, true, true, true, true, true, true, true, true, true, false, false]> : tensor<12xi1>
    %mine = partir_hlo.all_slice [{"x", "y"}] %valid : tensor<12xi1> -> tensor<3xi1>
    %pred = stablehlo.broadcast_in_dim %mine, dims = [0] : (tensor<3xi1>) -> tensor<3x3xi1>
    %zeros = stablehlo.constant dense<0.0> : tensor<3x3xf32>
    %c = stablehlo.cosine %s : tensor<3x3xf32>
    %masked = stablehlo.select %pred, %c, %zeros : tensor<3x3xi1>, tensor<3x3xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %part = stablehlo.reduce(%masked init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<3x3xf32>, tensor<f32>) -> tensor<3xf32>
    %sum = partir_hlo.all_reduce "sum" ["x", "y"] %part : tensor<3xf32>
    return %g, %m, %h, %sum : tensor<10x3xf32>, tensor<3x3xf32>, tensor<5x3xf32>, tensor<3xf32>
  }
}
