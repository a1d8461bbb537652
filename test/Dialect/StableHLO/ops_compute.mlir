// RUN: toast-opt %s | toast-opt | FileCheck %s
// RUN: toast-opt %s --mlir-print-op-generic | toast-opt | FileCheck %s

// Round trip of contractions, convolutions, reductions, linear algebra, fft
// and random bits.

// CHECK-LABEL: func.func @dot
// CHECK-SAME: (%[[A:[^:]+]]: tensor<1x784xf32>, %[[B:[^:]+]]: tensor<784x128xf32>, %[[V:[^:]+]]: tensor<784xf32>)
func.func @dot(%a: tensor<1x784xf32>, %b: tensor<784x128xf32>, %v: tensor<784xf32>) {
  // CHECK: stablehlo.dot %[[A]], %[[B]] : (tensor<1x784xf32>, tensor<784x128xf32>) -> tensor<1x128xf32>
  %0 = stablehlo.dot %a, %b : (tensor<1x784xf32>, tensor<784x128xf32>) -> tensor<1x128xf32>
  // CHECK: stablehlo.dot %[[V]], %[[V]], precision = [HIGH, HIGHEST] : (tensor<784xf32>, tensor<784xf32>) -> tensor<f32>
  %1 = stablehlo.dot %v, %v, precision = [HIGH, HIGHEST] : (tensor<784xf32>, tensor<784xf32>) -> tensor<f32>
  // CHECK: stablehlo.dot %[[V]], %[[B]] : (tensor<784xf32>, tensor<784x128xf32>) -> tensor<128xf32>
  %2 = "stablehlo.dot"(%v, %b) : (tensor<784xf32>, tensor<784x128xf32>) -> tensor<128xf32>
  return
}

// CHECK-LABEL: func.func @dot_general
// CHECK-SAME: (%[[A:[^:]+]]: tensor<1x4x384x32xf32>, %[[B:[^:]+]]: tensor<2x2x2xi8>, %[[C:[^:]+]]: tensor<2x2x3xi8>)
func.func @dot_general(%a: tensor<1x4x384x32xf32>, %b: tensor<2x2x2xi8>, %c: tensor<2x2x3xi8>) {
  // CHECK: stablehlo.dot_general %[[A]], %[[A]], batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3] : (tensor<1x4x384x32xf32>, tensor<1x4x384x32xf32>) -> tensor<1x4x384x384xf32>
  %0 = stablehlo.dot_general %a, %a, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3] : (tensor<1x4x384x32xf32>, tensor<1x4x384x32xf32>) -> tensor<1x4x384x384xf32>
  // CHECK: stablehlo.dot_general %[[B]], %[[C]], batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x2x2xi8>, tensor<2x2x3xi8>) -> tensor<2x2x3xi32>
  %1 = stablehlo.dot_general %b, %c, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x2x2xi8>, tensor<2x2x3xi8>) -> tensor<2x2x3xi32>
  // No batching dimensions; an outer product has no contracting ones either.
  // CHECK: stablehlo.dot_general %[[B]], %[[C]], contracting_dims = [] x [] : (tensor<2x2x2xi8>, tensor<2x2x3xi8>) -> tensor<2x2x2x2x2x3xi8>
  %2 = stablehlo.dot_general %b, %c, contracting_dims = [] x [] : (tensor<2x2x2xi8>, tensor<2x2x3xi8>) -> tensor<2x2x2x2x2x3xi8>
  return
}

// CHECK-LABEL: func.func @dot_general_algorithm
func.func @dot_general_algorithm(%a: tensor<8x2x3xf32>, %b: tensor<8x3x4xf32>) {
  // CHECK: stablehlo.dot_general %{{.+}}, %{{.+}}, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 3, allow_imprecise_accumulation = false> : (tensor<8x2x3xf32>, tensor<8x3x4xf32>) -> tensor<8x2x4xf32>
  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST], algorithm = <lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 3, allow_imprecise_accumulation = false> : (tensor<8x2x3xf32>, tensor<8x3x4xf32>) -> tensor<8x2x4xf32>
  // Algorithm without precision, from the generic form.
  // CHECK: stablehlo.dot_general %{{.+}}, %{{.+}}, batching_dims = [0] x [0], contracting_dims = [2] x [1], algorithm = <lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = true> :
  %1 = "stablehlo.dot_general"(%a, %b) <{algorithm = #stablehlo.dot_algorithm<lhs_precision_type = bf16, rhs_precision_type = bf16, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, allow_imprecise_accumulation = true>, dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<8x2x3xf32>, tensor<8x3x4xf32>) -> tensor<8x2x4xf32>
  // Generic form with the attributes StableHLO's generic printer uses.
  // CHECK: stablehlo.dot_general %{{.+}}, %{{.+}}, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, HIGH] :
  %2 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGH>]}> : (tensor<8x2x3xf32>, tensor<8x3x4xf32>) -> tensor<8x2x4xf32>
  return
}

// CHECK-LABEL: func.func @convolution
// CHECK-SAME: (%[[X:[^:]+]]: tensor<1x16x16x2xf32>, %[[K:[^:]+]]: tensor<2x3x2x2xf32>, %[[N:[^:]+]]: tensor<1x2x16x16xf32>, %[[KN:[^:]+]]: tensor<2x2x3x3xf32>)
func.func @convolution(%x: tensor<1x16x16x2xf32>, %k: tensor<2x3x2x2xf32>, %n: tensor<1x2x16x16xf32>, %kn: tensor<2x2x3x3xf32>) {
  // CHECK: stablehlo.convolution(%[[X]], %[[K]]) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = {{\[\[}}1, 1], [2, 2]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x16x16x2xf32>, tensor<2x3x2x2xf32>) -> tensor<1x32x33x2xf32>
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [2, 2]], lhs_dilate = [2, 2]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x16x16x2xf32>, tensor<2x3x2x2xf32>) -> tensor<1x32x33x2xf32>
  // NCHW layout and an empty window.
  // CHECK: stablehlo.convolution(%[[N]], %[[KN]]) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x16x16xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x14x14xf32>
  %1 = stablehlo.convolution(%n, %kn) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x16x16xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x14x14xf32>
  // Every window key, in a different order than printed, and a precision config.
  // CHECK: stablehlo.convolution(%[[N]], %[[KN]]) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 1], pad = {{\[\[}}1, 1], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [2, 1], reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]} : (tensor<1x2x16x16xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x7x14xf32>
  %2 = stablehlo.convolution(%n, %kn) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {reverse = [true, false], rhs_dilate = [2, 1], lhs_dilate = [1, 1], pad = [[1, 1], [0, 0]], stride = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]} : (tensor<1x2x16x16xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x7x14xf32>
  // Generic form with the raw dimension numbers and a splat padding.
  // CHECK: stablehlo.convolution(%[[X]], %[[K]]) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = {{\[\[}}1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x16x16x2xf32>, tensor<2x3x2x2xf32>) -> tensor<1x17x16x2xf32>
  %3 = "stablehlo.convolution"(%x, %k) {dimension_numbers = #stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>, window_strides = array<i64: 1, 1>, padding = dense<1> : tensor<2x2xi64>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x16x16x2xf32>, tensor<2x3x2x2xf32>) -> tensor<1x17x16x2xf32>
  return
}

// Older printers wrote the window reversal as integers; it parses like
// booleans and prints as booleans.
// CHECK-LABEL: func.func @convolution_reverse_integers
func.func @convolution_reverse_integers(%n: tensor<1x2x16x16xf32>, %kn: tensor<2x2x3x3xf32>, %y: tensor<2x10x3xf32>, %w: tensor<3x3x5xf32>) {
  // CHECK: stablehlo.convolution(%{{.+}}, %{{.+}}) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x16x16xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x14x14xf32>
  %0 = stablehlo.convolution(%n, %kn) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {reverse = [1, 0]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x2x16x16xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x14x14xf32>
  // CHECK: stablehlo.convolution(%{{.+}}, %{{.+}}) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = {{\[\[}}1, 1]], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x10x3xf32>, tensor<3x3x5xf32>) -> tensor<2x10x5xf32>
  %1 = stablehlo.convolution(%y, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]], reverse = [0]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x10x3xf32>, tensor<3x3x5xf32>) -> tensor<2x10x5xf32>
  // CHECK: stablehlo.convolution(%{{.+}}, %{{.+}}) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x10x3xf32>, tensor<3x3x5xf32>) -> tensor<2x8x5xf32>
  %2 = stablehlo.convolution(%y, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {reverse = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x10x3xf32>, tensor<3x3x5xf32>) -> tensor<2x8x5xf32>
  return
}

// Depthwise (feature groups) and 1-D convolutions.
// CHECK-LABEL: func.func @convolution_groups
func.func @convolution_groups(%x: tensor<1x8x8x4xf32>, %k: tensor<3x3x1x4xf32>, %y: tensor<2x10x3xf32>, %w: tensor<3x3x5xf32>) {
  // CHECK: stablehlo.convolution(%{{.+}}, %{{.+}}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x1x4xf32>) -> tensor<1x6x6x4xf32>
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 4 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x1x4xf32>) -> tensor<1x6x6x4xf32>
  // CHECK: stablehlo.convolution(%{{.+}}, %{{.+}}) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = {{\[\[}}1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x10x3xf32>, tensor<3x3x5xf32>) -> tensor<2x10x5xf32>
  %1 = stablehlo.convolution(%y, %w) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {pad = [[1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x10x3xf32>, tensor<3x3x5xf32>) -> tensor<2x10x5xf32>
  return
}

// CHECK-LABEL: func.func @reduce_compact
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4x8xf32>, %[[Z:[^:]+]]: tensor<f32>)
func.func @reduce_compact(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // CHECK: stablehlo.reduce(%[[X]] init: %[[Z]]) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  // A single-op body given as a region prints compactly; attributes are kept.
  // CHECK: stablehlo.reduce(%[[X]] init: %[[Z]]) applies stablehlo.maximum across dimensions = [0, 1] {mhlo.sharding = "{replicated}"} : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32>
  %1 = "stablehlo.reduce"(%x, %z) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {mhlo.sharding = "{replicated}"} : (tensor<4x8xf32>, tensor<f32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @reduce_region
// CHECK-SAME: (%[[B:[^:]+]]: tensor<15xbf16>, %[[I:[^:]+]]: tensor<15xi32>, %[[ZB:[^:]+]]: tensor<bf16>, %[[ZI:[^:]+]]: tensor<i32>)
func.func @reduce_region(%b: tensor<15xbf16>, %i: tensor<15xi32>, %zb: tensor<bf16>, %zi: tensor<i32>) {
  // CHECK: stablehlo.reduce(%[[B]] init: %[[ZB]]), (%[[I]] init: %[[ZI]]) across dimensions = [0] : (tensor<15xbf16>, tensor<15xi32>, tensor<bf16>, tensor<i32>) -> (tensor<bf16>, tensor<i32>)
  // CHECK-NEXT: reducer(%[[A1:[^:]+]]: tensor<bf16>, %[[A3:[^:]+]]: tensor<bf16>) (%[[A2:[^:]+]]: tensor<i32>, %[[A4:[^:]+]]: tensor<i32>) {
  // CHECK-NEXT: %[[C:.+]] = stablehlo.compare GT, %[[A1]], %[[A3]]
  // CHECK-NEXT: %[[M:.+]] = stablehlo.select %[[C]], %[[A1]], %[[A3]] : tensor<i1>, tensor<bf16>
  // CHECK-NEXT: %[[N:.+]] = stablehlo.select %[[C]], %[[A2]], %[[A4]] : tensor<i1>, tensor<i32>
  // CHECK-NEXT: stablehlo.return %[[M]], %[[N]] : tensor<bf16>, tensor<i32>
  // CHECK-NEXT: }
  %0:2 = stablehlo.reduce(%b init: %zb), (%i init: %zi) across dimensions = [0] : (tensor<15xbf16>, tensor<15xi32>, tensor<bf16>, tensor<i32>) -> (tensor<bf16>, tensor<i32>)
   reducer(%a1: tensor<bf16>, %a3: tensor<bf16>) (%a2: tensor<i32>, %a4: tensor<i32>) {
    %c = stablehlo.compare GT, %a1, %a3 : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    %m = stablehlo.select %c, %a1, %a3 : tensor<i1>, tensor<bf16>
    %n = stablehlo.select %c, %a2, %a4 : tensor<i1>, tensor<i32>
    stablehlo.return %m, %n : tensor<bf16>, tensor<i32>
  }
  return
}

// A one-op body that does not apply the op to (acc, x) in order, or an op
// with attributes, needs the region form.
// CHECK-LABEL: func.func @reduce_not_compact
func.func @reduce_not_compact(%x: tensor<4xf32>, %z: tensor<f32>, %p: tensor<4xi1>, %t: tensor<i1>) {
  // CHECK: stablehlo.reduce(%{{.+}} init: %{{.+}}) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  // CHECK-NEXT: reducer(%[[A:[^:]+]]: tensor<f32>, %[[B:[^:]+]]: tensor<f32>) {
  // CHECK-NEXT: stablehlo.subtract %[[B]], %[[A]] : tensor<f32>
  %0 = "stablehlo.reduce"(%x, %z) <{dimensions = array<i64: 0>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.subtract %b, %a : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  // CHECK: stablehlo.reduce(%{{.+}} init: %{{.+}}) across dimensions = [0] : (tensor<4xi1>, tensor<i1>) -> tensor<i1>
  // CHECK-NEXT: reducer(%[[A:[^:]+]]: tensor<i1>, %[[B:[^:]+]]: tensor<i1>) {
  // CHECK-NEXT: stablehlo.compare EQ, %[[A]], %[[B]] : (tensor<i1>, tensor<i1>) -> tensor<i1>
  %1 = stablehlo.reduce(%p init: %t) across dimensions = [0] : (tensor<4xi1>, tensor<i1>) -> tensor<i1>
   reducer(%a: tensor<i1>, %b: tensor<i1>) {
    %c = stablehlo.compare EQ, %a, %b : (tensor<i1>, tensor<i1>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }
  return
}

// CHECK-LABEL: func.func @reduce_window
func.func @reduce_window(%x: tensor<112x112xf32>, %z: tensor<f32>) {
  // CHECK: "stablehlo.reduce_window"(%{{.+}}, %{{.+}}) <{padding = dense<{{\[\[}}0, 1], [0, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 3>, window_strides = array<i64: 2, 2>}> ({
  // CHECK: stablehlo.add
  // CHECK: }) : (tensor<112x112xf32>, tensor<f32>) -> tensor<56x56xf32>
  %0 = "stablehlo.reduce_window"(%x, %z) <{padding = dense<[[0, 1], [0, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 3>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<112x112xf32>, tensor<f32>) -> tensor<56x56xf32>
  // CHECK: "stablehlo.reduce_window"(%{{.+}}, %{{.+}}) <{base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 1, 2>, window_dimensions = array<i64: 2, 2>}>
  // CHECK: }) : (tensor<112x112xf32>, tensor<f32>) -> tensor<222x110xf32>
  %1 = "stablehlo.reduce_window"(%x, %z) <{window_dimensions = array<i64: 2, 2>, base_dilations = array<i64: 2, 1>, window_dilations = array<i64: 1, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<112x112xf32>, tensor<f32>) -> tensor<222x110xf32>
  return
}

// CHECK-LABEL: func.func @select_and_scatter
func.func @select_and_scatter(%o: tensor<2x4x6xbf16>, %s: tensor<2x1x6xbf16>, %z: tensor<bf16>) {
  // CHECK: "stablehlo.select_and_scatter"(%{{.+}}, %{{.+}}, %{{.+}}) <{window_dimensions = array<i64: 1, 3, 1>, window_strides = array<i64: 1, 2, 1>}> ({
  // CHECK: stablehlo.compare GE
  // CHECK: }, {
  // CHECK: stablehlo.add
  // CHECK: }) : (tensor<2x4x6xbf16>, tensor<2x1x6xbf16>, tensor<bf16>) -> tensor<2x4x6xbf16>
  %0 = "stablehlo.select_and_scatter"(%o, %s, %z) <{window_dimensions = array<i64: 1, 3, 1>, window_strides = array<i64: 1, 2, 1>}> ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %c = stablehlo.compare GE, %a, %b : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %m = stablehlo.add %a, %b : tensor<bf16>
    stablehlo.return %m : tensor<bf16>
  }) : (tensor<2x4x6xbf16>, tensor<2x1x6xbf16>, tensor<bf16>) -> tensor<2x4x6xbf16>
  return
}

// CHECK-LABEL: func.func @map
func.func @map(%x: tensor<4x5xf32>, %y: tensor<4x5xf32>) {
  // CHECK: "stablehlo.map"(%{{.+}}, %{{.+}}) <{dimensions = array<i64: 0, 1>}> ({
  // CHECK: stablehlo.multiply
  // CHECK: }) : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  %0 = "stablehlo.map"(%x, %y) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.multiply %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// CHECK-LABEL: func.func @linalg
// CHECK-SAME: (%[[A:[^:]+]]: tensor<2x3x3xf32>, %[[B:[^:]+]]: tensor<2x3x4xf32>)
func.func @linalg(%a: tensor<2x3x3xf32>, %b: tensor<2x3x4xf32>) {
  // CHECK: "stablehlo.triangular_solve"(%[[A]], %[[B]]) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = false}> : (tensor<2x3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose ADJOINT>}> : (tensor<2x3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: stablehlo.cholesky %[[A]], lower = true : tensor<2x3x3xf32>
  %1 = stablehlo.cholesky %a, lower = true : tensor<2x3x3xf32>
  // The default `lower = false` is not printed.
  // CHECK: stablehlo.cholesky %[[A]] : tensor<2x3x3xf32>
  %2 = stablehlo.cholesky %a, lower = false : tensor<2x3x3xf32>
  // CHECK: stablehlo.cholesky %[[A]] : tensor<2x3x3xf32>
  %3 = stablehlo.cholesky %a : tensor<2x3x3xf32>
  return
}

// CHECK-LABEL: func.func @fft
// CHECK-SAME: (%[[X:[^:]+]]: tensor<16xf32>, %[[C:[^:]+]]: tensor<4x8xcomplex<f32>>)
func.func @fft(%x: tensor<16xf32>, %c: tensor<4x8xcomplex<f32>>) {
  // CHECK: %[[R:.+]] = stablehlo.fft %[[X]], type = RFFT, length = [16] : (tensor<16xf32>) -> tensor<9xcomplex<f32>>
  %0 = stablehlo.fft %x, type = RFFT, length = [16] : (tensor<16xf32>) -> tensor<9xcomplex<f32>>
  // CHECK: stablehlo.fft %[[R]], type = IRFFT, length = [16] : (tensor<9xcomplex<f32>>) -> tensor<16xf32>
  %1 = stablehlo.fft %0, type = IRFFT, length = [16] : (tensor<9xcomplex<f32>>) -> tensor<16xf32>
  // CHECK: stablehlo.fft %[[C]], type = FFT, length = [4, 8] : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
  %2 = stablehlo.fft %c, type = FFT, length = [4, 8] : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
  // CHECK: stablehlo.fft %[[C]], type = IFFT, length = [8] : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
  %3 = "stablehlo.fft"(%c) {fft_type = #stablehlo<fft_type IFFT>, fft_length = array<i64: 8>} : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
  return
}

// CHECK-LABEL: func.func @rng_bit_generator
// CHECK-SAME: (%[[S:[^:]+]]: tensor<2xui64>)
func.func @rng_bit_generator(%s: tensor<2xui64>) {
  // CHECK: %output_state, %output = stablehlo.rng_bit_generator %[[S]], algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<100x100xui64>)
  %0:2 = stablehlo.rng_bit_generator %s, algorithm =  THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<100x100xui64>)
  // CHECK: stablehlo.rng_bit_generator %[[S]], algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  %1:2 = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  // CHECK: stablehlo.rng_bit_generator %[[S]], algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  %2:2 = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm DEFAULT>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  return
}
