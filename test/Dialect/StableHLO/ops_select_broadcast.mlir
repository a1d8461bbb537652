// RUN: toast-opt %s | toast-opt | FileCheck %s
// RUN: toast-opt %s --mlir-print-op-generic | toast-opt | FileCheck %s

// Round trip of broadcast, get_dimension_size and torch_index_select (the
// last prints in generic form, as StableHLO does).

// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: (%[[X:[^:]+]]: tensor<3xi32>, %[[S:[^:]+]]: tensor<f32>)
func.func @broadcast(%x: tensor<3xi32>, %s: tensor<f32>) {
  // CHECK: stablehlo.broadcast %[[X]], sizes = [1, 2] : (tensor<3xi32>) -> tensor<1x2x3xi32>
  %0 = stablehlo.broadcast %x, sizes = [1, 2] : (tensor<3xi32>) -> tensor<1x2x3xi32>
  // CHECK: stablehlo.broadcast %[[S]], sizes = [4] : (tensor<f32>) -> tensor<4xf32>
  %1 = "stablehlo.broadcast"(%s) <{broadcast_sizes = array<i64: 4>}> : (tensor<f32>) -> tensor<4xf32>
  // CHECK: stablehlo.broadcast %[[X]], sizes = [] : (tensor<3xi32>) -> tensor<3xi32>
  %2 = "stablehlo.broadcast"(%x) {broadcast_sizes = array<i64>} : (tensor<3xi32>) -> tensor<3xi32>
  return
}

// CHECK-LABEL: func.func @get_dimension_size
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x3xi64>)
func.func @get_dimension_size(%x: tensor<2x3xi64>) -> tensor<i32> {
  // CHECK: %[[N:.+]] = stablehlo.get_dimension_size %[[X]], dim = 1 : (tensor<2x3xi64>) -> tensor<i32>
  %0 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<2x3xi64>) -> tensor<i32>
  // CHECK: stablehlo.get_dimension_size %[[X]], dim = 0 : (tensor<2x3xi64>) -> tensor<i32>
  %1 = "stablehlo.get_dimension_size"(%x) {dimension = 0 : i64} : (tensor<2x3xi64>) -> tensor<i32>
  return %0 : tensor<i32>
}

// CHECK-LABEL: func.func @torch_index_select
// CHECK-SAME: (%[[X:[^:]+]]: tensor<5x1x5xi32>, %[[I:[^:]+]]: tensor<2xi32>, %[[B:[^:]+]]: tensor<8x128x3072x64xf32>, %[[J:[^:]+]]: tensor<8x16x1024xi32>)
func.func @torch_index_select(%x: tensor<5x1x5xi32>, %i: tensor<2xi32>, %b: tensor<8x128x3072x64xf32>, %j: tensor<8x16x1024xi32>) {
  // CHECK: "stablehlo.torch_index_select"(%[[X]], %[[I]]) <{batch_dims = 0 : i64, dim = 0 : i64}> : (tensor<5x1x5xi32>, tensor<2xi32>) -> tensor<2x1x5xi32>
  %0 = "stablehlo.torch_index_select"(%x, %i) {batch_dims = 0 : i64, dim = 0 : i64} : (tensor<5x1x5xi32>, tensor<2xi32>) -> tensor<2x1x5xi32>
  // With a batch dimension: the result is operand[:2] ++ index[1:] ++ operand[3:].
  // CHECK: "stablehlo.torch_index_select"(%[[B]], %[[J]]) <{batch_dims = 1 : i64, dim = 2 : i64}> : (tensor<8x128x3072x64xf32>, tensor<8x16x1024xi32>) -> tensor<8x128x16x1024x64xf32>
  %1 = "stablehlo.torch_index_select"(%b, %j) <{batch_dims = 1 : i64, dim = 2 : i64}> : (tensor<8x128x3072x64xf32>, tensor<8x16x1024xi32>) -> tensor<8x128x16x1024x64xf32>
  return
}
