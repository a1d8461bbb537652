// Hand-written verifier edge cases for mutate_corpus.py (not a lit test:
// lit excludes Inputs/). Each `// -----` chunk runs through toast-opt on
// its own and must be accepted or rejected with an error, never crash.
// Malformed attributes, duplicate or out-of-range dimensions, unranked
// and dynamic types, empty regions, wrong operand counts.

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = stablehlo.transpose %arg0, dims = [0, 0] : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.add across dimensions = [1, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = stablehlo.dot_general %arg0, %arg0, batching_dims = [0, 0] x [0, 0], contracting_dims = [1] x [1] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = stablehlo.dot_general %arg0, %arg0, contracting_dims = [1, 1] x [1, 1] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = stablehlo.reshape %arg0 : (tensor<2x3xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = stablehlo.slice %arg0 [0:5, 3:1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = stablehlo.slice %arg0 [0:2:0, 0:3] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = stablehlo.slice %arg0 [0:2:-1, 0:3] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = stablehlo.concatenate %arg0, %arg0, dim = 9 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = stablehlo.concatenate dim = 0 : () -> tensor<4x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = stablehlo.iota dim = 5 : tensor<2x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = stablehlo.dynamic_slice %arg0, %arg1, sizes = [1, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<1x1xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.add across dimensions = [] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.add across dimensions = [7] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = stablehlo.convolution(%arg0, %arg0) dim_numbers = [b, f]x[o, i]->[b, f], window = {} {batch_group_count = 0 : i64, feature_group_count = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = stablehlo.convolution(%arg0, %arg0) dim_numbers = [b, f]x[o, i]->[b, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = stablehlo.convolution(%arg0, %arg0) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [0], pad = [[-5, -5]], lhs_dilate = [0], rhs_dilate = [-1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = stablehlo.constant dense<1.0> : tensor<0x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32> loc(unknown)
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.reduce"(%arg0, %arg1) <{dimensions = array<i64: 1>}> ({}) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.reduce"(%arg0, %arg1) <{dimensions = array<i64: 1>}> ({ ^bb0: "stablehlo.return"() : () -> () }) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.reduce"(%arg0, %arg1) <{dimensions = array<i64: 1>}> ({ ^bb0(%a: tensor<f32>, %b: tensor<f32>): "stablehlo.return"() : () -> () }) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.reduce"(%arg0) <{dimensions = array<i64: 1>}> ({ ^bb0(%a: tensor<f32>, %b: tensor<f32>): "stablehlo.return"(%a) : (tensor<f32>) -> () }) : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.reduce"() <{dimensions = array<i64: 1>}> ({ ^bb0: "stablehlo.return"() : () -> () }) : () -> ()
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) <{window_dimensions = array<i64: 0, 0>}> ({ ^bb0(%a: tensor<f32>, %b: tensor<f32>): "stablehlo.return"(%a) : (tensor<f32>) -> () }) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) <{window_dimensions = array<i64: 1, 1>, padding = dense<1> : tensor<3xi64>}> ({ ^bb0(%a: tensor<f32>, %b: tensor<f32>): "stablehlo.return"(%a) : (tensor<f32>) -> () }) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.gather"(%arg0, %arg0) <{dimension_numbers = #stablehlo.gather<offset_dims = [5], collapsed_slice_dims = [9], start_index_map = [-1], index_vector_dim = 100>, slice_sizes = array<i64: 1, 1>}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.gather"(%arg0, %arg0) <{dimension_numbers = #stablehlo.gather<offset_dims = [], collapsed_slice_dims = [], start_index_map = [], index_vector_dim = 0>, slice_sizes = array<i64>}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.select"(%arg0, %arg0, %arg0) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.compare"(%arg0, %arg0) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.add"() : () -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.add"(%arg0, %arg0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.convert"(%arg0) : (tensor<2x3xf32>) -> tensor<3x2xi1>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.constant"() : () -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.constant"() <{value = 1 : i64}> : () -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.iota"() <{iota_dimension = -1 : i64}> : () -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<*xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.dynamic_slice"(%arg0) <{slice_sizes = array<i64: 1, 1>}> : (tensor<2x3xf32>) -> tensor<1x1xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.dot_general"(%arg0, %arg0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [99], rhs_contracting_dimensions = [-3]>}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.dot_general"(%arg0, %arg0) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = []>}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<2x3xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.transpose"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<*xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.reshape"(%arg0) : (tensor<2x3xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.slice"(%arg0) <{start_indices = array<i64: 0>, limit_indices = array<i64: 1, 2>, strides = array<i64>}> : (tensor<2x3xf32>) -> tensor<1x2xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.concatenate"(%arg0) <{dimension = -1 : i64}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.convolution"(%arg0, %arg0) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) {
  %0 = "stablehlo.convolution"(%arg0, %arg0) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 9, input_feature_dimension = 9, input_spatial_dimensions = [], kernel_input_feature_dimension = 9, kernel_output_feature_dimension = 9, kernel_spatial_dimensions = [], output_batch_dimension = 9, output_feature_dimension = 9, output_spatial_dimensions = []>, feature_group_count = 1 : i64}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}
