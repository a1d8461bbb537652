// RUN: toast-opt %s | toast-opt | FileCheck %s
// RUN: toast-opt %s --mlir-print-op-generic | toast-opt | FileCheck %s

// Round trip of the batch norms (generic form only, as StableHLO prints
// them; attributes as properties or in the attribute dictionary) and rng.

// CHECK-LABEL: func.func @batch_norm_inference
// CHECK-SAME: (%[[X:[^:]+]]: tensor<8x3x4xf32>, %[[S:[^:]+]]: tensor<3xf32>)
func.func @batch_norm_inference(%x: tensor<8x3x4xf32>, %s: tensor<3xf32>) -> tensor<8x3x4xf32> {
  // CHECK: "stablehlo.batch_norm_inference"(%[[X]], %[[S]], %[[S]], %[[S]], %[[S]]) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<8x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<8x3x4xf32>
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<8x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<8x3x4xf32>
  // CHECK: "stablehlo.batch_norm_inference"(%{{.+}}, %[[S]], %[[S]], %[[S]], %[[S]]) <{epsilon = 0.000000e+00 : f32, feature_index = 1 : i64}> {mhlo.frontend_attributes = {a = "b"}}
  %1 = "stablehlo.batch_norm_inference"(%0, %s, %s, %s, %s) <{epsilon = 0.0 : f32, feature_index = 1 : i64}> {mhlo.frontend_attributes = {a = "b"}} : (tensor<8x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<8x3x4xf32>
  return %1 : tensor<8x3x4xf32>
}

// CHECK-LABEL: func.func @batch_norm_training
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x2x2xf64>, %[[S:[^:]+]]: tensor<2xf64>, %[[O:[^:]+]]: tensor<2xf64>)
func.func @batch_norm_training(%x: tensor<2x2x2xf64>, %s: tensor<2xf64>, %o: tensor<2xf64>) -> tensor<2xf64> {
  // CHECK: %[[OUT:[^,]+]], %[[MEAN:[^,]+]], %[[VAR:[^ ]+]] = "stablehlo.batch_norm_training"(%[[X]], %[[S]], %[[O]]) <{epsilon = 0.000000e+00 : f32, feature_index = 2 : i64}> : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>) -> (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>)
  %out, %mean, %var = "stablehlo.batch_norm_training"(%x, %s, %o) {epsilon = 0.0 : f32, feature_index = 2 : i64} : (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>) -> (tensor<2x2x2xf64>, tensor<2xf64>, tensor<2xf64>)
  // CHECK: return %[[VAR]] : tensor<2xf64>
  return %var : tensor<2xf64>
}

// CHECK-LABEL: func.func @batch_norm_grad
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x2x2xbf16>, %[[S:[^:]+]]: tensor<2xbf16>, %[[DY:[^:]+]]: tensor<2x2x2xbf16>)
func.func @batch_norm_grad(%x: tensor<2x2x2xbf16>, %s: tensor<2xbf16>, %dy: tensor<2x2x2xbf16>) -> tensor<2xbf16> {
  // CHECK: %{{.+}}, %{{.+}}, %[[GO:[^ ]+]] = "stablehlo.batch_norm_grad"(%[[X]], %[[S]], %[[S]], %[[S]], %[[DY]]) <{epsilon = 1.000000e-03 : f32, feature_index = 0 : i64}> : (tensor<2x2x2xbf16>, tensor<2xbf16>, tensor<2xbf16>, tensor<2xbf16>, tensor<2x2x2xbf16>) -> (tensor<2x2x2xbf16>, tensor<2xbf16>, tensor<2xbf16>)
  %0:3 = "stablehlo.batch_norm_grad"(%x, %s, %s, %s, %dy) {epsilon = 1.000000e-03 : f32, feature_index = 0 : i64} : (tensor<2x2x2xbf16>, tensor<2xbf16>, tensor<2xbf16>, tensor<2xbf16>, tensor<2x2x2xbf16>) -> (tensor<2x2x2xbf16>, tensor<2xbf16>, tensor<2xbf16>)
  // CHECK: return %[[GO]] : tensor<2xbf16>
  return %0#2 : tensor<2xbf16>
}

// CHECK-LABEL: func.func @rng
// CHECK-SAME: (%[[A:[^:]+]]: tensor<f32>, %[[B:[^:]+]]: tensor<f32>, %[[I:[^:]+]]: tensor<i32>)
func.func @rng(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>) {
  // CHECK: %[[SHAPE:.+]] = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  %shape = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  // CHECK: stablehlo.rng %[[A]], %[[B]], %[[SHAPE]], distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  %0 = stablehlo.rng %a, %b, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  // CHECK: stablehlo.rng %[[A]], %[[B]], %[[SHAPE]], distribution = NORMAL : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  %1 = "stablehlo.rng"(%a, %b, %shape) {rng_distribution = #stablehlo<rng_distribution NORMAL>} : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  // CHECK: stablehlo.rng %[[I]], %[[I]], %{{.+}}, distribution = UNIFORM : (tensor<i32>, tensor<i32>, tensor<1xi32>) -> tensor<5xi32>
  %s1 = stablehlo.constant dense<5> : tensor<1xi32>
  %2 = "stablehlo.rng"(%i, %i, %s1) <{rng_distribution = #stablehlo<rng_distribution UNIFORM>}> : (tensor<i32>, tensor<i32>, tensor<1xi32>) -> tensor<5xi32>
  // A scalar result from an empty shape.
  // CHECK: stablehlo.rng %[[A]], %[[B]], %{{.+}}, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<0xi64>) -> tensor<f32>
  %s0 = stablehlo.constant dense<> : tensor<0xi64>
  %3 = stablehlo.rng %a, %b, %s0, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<0xi64>) -> tensor<f32>
  return
}
