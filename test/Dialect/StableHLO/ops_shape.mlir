// RUN: toast-opt %s | toast-opt | FileCheck %s
// RUN: toast-opt %s --mlir-print-op-generic | toast-opt | FileCheck %s

// Round trip of constants, iota and the data-movement ops.

// CHECK-LABEL: func.func @constant
func.func @constant() {
  // CHECK: %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: %c = stablehlo.constant dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>
  %1 = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  // CHECK: %cst_0 = stablehlo.constant dense<[1.765630e+00, 6.875000e-01]> : tensor<2xbf16>
  %2 = stablehlo.constant dense<[1.765630e+00, 6.875000e-01]> : tensor<2xbf16>
  // CHECK: %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
  // CHECK: %cst_2 = stablehlo.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %4 = stablehlo.constant dense<"0x0000803F00000040"> : tensor<2xf32>
  // CHECK: %cst_3 = stablehlo.constant dense_resource<__elided__> : tensor<4x4xf32>
  %5 = stablehlo.constant dense_resource<__elided__> : tensor<4x4xf32>
  // CHECK: %cst_4 = stablehlo.constant dense<(1.000000e+00,2.000000e+00)> : tensor<complex<f32>>
  %6 = stablehlo.constant dense<(1.0, 2.0)> : tensor<complex<f32>>
  // CHECK: %c_5 = stablehlo.constant dense<true> : tensor<2xi1>
  %7 = stablehlo.constant dense<true> : tensor<2xi1>
  // CHECK: %c_6 = stablehlo.constant dense<7> : tensor<ui32>
  %8 = "stablehlo.constant"() <{value = dense<7> : tensor<ui32>}> : () -> tensor<ui32>
  // CHECK: %c_7 = stablehlo.constant {mhlo.sharding = "{replicated}"} dense<1> : tensor<i64>
  %9 = stablehlo.constant {mhlo.sharding = "{replicated}"} dense<1> : tensor<i64>
  // CHECK: %c_8 = stablehlo.constant dense<> : tensor<0xi32>
  %10 = stablehlo.constant dense<> : tensor<0xi32>
  return
}

// CHECK-LABEL: func.func @iota
func.func @iota() {
  // CHECK: stablehlo.iota dim = 0 : tensor<15xi32>
  %0 = stablehlo.iota dim = 0 : tensor<15xi32>
  // CHECK: stablehlo.iota dim = 1 : tensor<4x5xf32>
  %1 = stablehlo.iota dim = 1 : tensor<4x5xf32>
  return
}

// CHECK-LABEL: func.func @broadcast_in_dim
// CHECK-SAME: (%[[V:[^:]+]]: tensor<128xf32>, %[[S:[^:]+]]: tensor<f32>, %[[O:[^:]+]]: tensor<1x3xf32>)
func.func @broadcast_in_dim(%v: tensor<128xf32>, %s: tensor<f32>, %o: tensor<1x3xf32>) {
  // CHECK: stablehlo.broadcast_in_dim %[[V]], dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
  %0 = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<128xf32>) -> tensor<1x128xf32>
  // CHECK: stablehlo.broadcast_in_dim %[[S]], dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  %1 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  // Size-1 dimensions expand; dimensions may be permuted.
  // CHECK: stablehlo.broadcast_in_dim %[[O]], dims = [2, 0] : (tensor<1x3xf32>) -> tensor<3x4x5xf32>
  %2 = stablehlo.broadcast_in_dim %o, dims = [2, 0] : (tensor<1x3xf32>) -> tensor<3x4x5xf32>
  return
}

// CHECK-LABEL: func.func @transpose_reshape
// CHECK-SAME: (%[[X:[^:]+]]: tensor<?x3x4x5xf32>, %[[Y:[^:]+]]: tensor<1x28x28x1xf32>)
func.func @transpose_reshape(%x: tensor<?x3x4x5xf32>, %y: tensor<1x28x28x1xf32>) {
  // CHECK: stablehlo.transpose %[[X]], dims = [0, 3, 1, 2] : (tensor<?x3x4x5xf32>) -> tensor<?x5x3x4xf32>
  %0 = stablehlo.transpose %x, dims = [0, 3, 1, 2] : (tensor<?x3x4x5xf32>) -> tensor<?x5x3x4xf32>
  // CHECK: stablehlo.reshape %[[Y]] : (tensor<1x28x28x1xf32>) -> tensor<1x784xf32>
  %1 = stablehlo.reshape %y : (tensor<1x28x28x1xf32>) -> tensor<1x784xf32>
  // CHECK: stablehlo.reshape %{{.+}} : (tensor<1x784xf32>) -> tensor<784xf32>
  %2 = stablehlo.reshape %1 : (tensor<1x784xf32>) -> tensor<784xf32>
  return
}

// CHECK-LABEL: func.func @concatenate
// CHECK-SAME: (%[[A:[^:]+]]: tensor<2x3xbf16>, %[[B:[^:]+]]: tensor<1x3xbf16>)
func.func @concatenate(%a: tensor<2x3xbf16>, %b: tensor<1x3xbf16>) {
  // CHECK: stablehlo.concatenate %[[A]], %[[B]], %[[A]], dim = 0 : (tensor<2x3xbf16>, tensor<1x3xbf16>, tensor<2x3xbf16>) -> tensor<5x3xbf16>
  %0 = stablehlo.concatenate %a, %b, %a, dim = 0 : (tensor<2x3xbf16>, tensor<1x3xbf16>, tensor<2x3xbf16>) -> tensor<5x3xbf16>
  // CHECK: stablehlo.concatenate %[[A]], dim = 1 : (tensor<2x3xbf16>) -> tensor<2x3xbf16>
  %1 = stablehlo.concatenate %a, dim = 1 : (tensor<2x3xbf16>) -> tensor<2x3xbf16>
  return
}

// CHECK-LABEL: func.func @slice
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x4x6xbf16>, %[[S:[^:]+]]: tensor<f32>)
func.func @slice(%x: tensor<2x4x6xbf16>, %s: tensor<f32>) {
  // CHECK: stablehlo.slice %[[X]] [0:2, 0:4, 0:6] : (tensor<2x4x6xbf16>) -> tensor<2x4x6xbf16>
  %0 = stablehlo.slice %x [0:2, 0:4, 0:6] : (tensor<2x4x6xbf16>) -> tensor<2x4x6xbf16>
  // A stride of 1 is not printed.
  // CHECK: stablehlo.slice %[[X]] [1:2, 0:4:2, 1:6:3] : (tensor<2x4x6xbf16>) -> tensor<1x2x2xbf16>
  %1 = stablehlo.slice %x [1:2:1, 0:4:2, 1:6:3] : (tensor<2x4x6xbf16>) -> tensor<1x2x2xbf16>
  // CHECK: stablehlo.slice %[[X]] [0:0, 2:2, 5:6] : (tensor<2x4x6xbf16>) -> tensor<0x0x1xbf16>
  %2 = stablehlo.slice %x [0:0, 2:2, 5:6] : (tensor<2x4x6xbf16>) -> tensor<0x0x1xbf16>
  // CHECK: stablehlo.slice %[[X]] [0:1, 1:3, 0:6:4] : (tensor<2x4x6xbf16>) -> tensor<1x2x2xbf16>
  %3 = "stablehlo.slice"(%x) <{start_indices = array<i64: 0, 1, 0>, limit_indices = array<i64: 1, 3, 6>, strides = array<i64: 1, 1, 4>}> : (tensor<2x4x6xbf16>) -> tensor<1x2x2xbf16>
  // CHECK: stablehlo.slice %[[S]] [] : (tensor<f32>) -> tensor<f32>
  %4 = stablehlo.slice %s [] : (tensor<f32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @dynamic_slices
// CHECK-SAME: (%[[X:[^:]+]]: tensor<3x4xbf16>, %[[U:[^:]+]]: tensor<1x2xbf16>, %[[I:[^:]+]]: tensor<i64>, %[[J:[^:]+]]: tensor<i32>)
func.func @dynamic_slices(%x: tensor<3x4xbf16>, %u: tensor<1x2xbf16>, %i: tensor<i64>, %j: tensor<i32>) {
  // CHECK: stablehlo.dynamic_slice %[[X]], %[[I]], %[[I]], sizes = [1, 2] : (tensor<3x4xbf16>, tensor<i64>, tensor<i64>) -> tensor<1x2xbf16>
  %0 = stablehlo.dynamic_slice %x, %i, %i, sizes = [1, 2] : (tensor<3x4xbf16>, tensor<i64>, tensor<i64>) -> tensor<1x2xbf16>
  // CHECK: stablehlo.dynamic_update_slice %[[X]], %[[U]], %[[J]], %[[J]] : (tensor<3x4xbf16>, tensor<1x2xbf16>, tensor<i32>, tensor<i32>) -> tensor<3x4xbf16>
  %1 = stablehlo.dynamic_update_slice %x, %u, %j, %j : (tensor<3x4xbf16>, tensor<1x2xbf16>, tensor<i32>, tensor<i32>) -> tensor<3x4xbf16>
  return
}

// CHECK-LABEL: func.func @dynamic_slice_scalar
// CHECK-SAME: (%[[S:[^:]+]]: tensor<f32>)
func.func @dynamic_slice_scalar(%s: tensor<f32>) {
  // CHECK: stablehlo.dynamic_slice %[[S]], sizes = [] : (tensor<f32>) -> tensor<f32>
  %0 = stablehlo.dynamic_slice %s, sizes = [] : (tensor<f32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @pad_reverse
// CHECK-SAME: (%[[X:[^:]+]]: tensor<2x3xf32>, %[[Z:[^:]+]]: tensor<f32>)
func.func @pad_reverse(%x: tensor<2x3xf32>, %z: tensor<f32>) {
  // CHECK: stablehlo.pad %[[X]], %[[Z]], low = [0, 1], high = [2, 0], interior = [1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x4xf32>
  %0 = stablehlo.pad %x, %z, low = [0, 1], high = [2, 0], interior = [1, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x4xf32>
  // Negative edge padding removes elements.
  // CHECK: stablehlo.pad %[[X]], %[[Z]], low = [-1, 0], high = [0, -1], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<1x2xf32>
  %1 = stablehlo.pad %x, %z, low = [-1, 0], high = [0, -1], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<1x2xf32>
  // CHECK: stablehlo.reverse %[[X]], dims = [0, 1] : tensor<2x3xf32>
  %2 = stablehlo.reverse %x, dims = [0, 1] : tensor<2x3xf32>
  // CHECK: stablehlo.reverse %[[X]], dims = [] : tensor<2x3xf32>
  %3 = stablehlo.reverse %x, dims = [] : tensor<2x3xf32>
  return
}

// gather and scatter print in generic form, like StableHLO.
// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[X:[^:]+]]: tensor<8x4xf32>, %[[I:[^:]+]]: tensor<3x1xi32>, %[[T:[^:]+]]: tensor<10x10x10x10xf32>, %[[J:[^:]+]]: tensor<1x1x4x3xi64>)
func.func @gather(%x: tensor<8x4xf32>, %i: tensor<3x1xi32>, %t: tensor<10x10x10x10xf32>, %j: tensor<1x1x4x3xi64>) {
  // CHECK: "stablehlo.gather"(%[[X]], %[[I]]) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 1, 4>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>, indices_are_sorted = true}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  // CHECK: "stablehlo.gather"(%[[T]], %[[J]]) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2, 3, 4], start_index_map = [1, 2, 3], index_vector_dim = 3>, slice_sizes = array<i64: 10, 2, 2, 2>}> : (tensor<10x10x10x10xf32>, tensor<1x1x4x3xi64>) -> tensor<1x10x2x2x2x1x4xf32>
  %1 = "stablehlo.gather"(%t, %j) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2, 3, 4], start_index_map = [1, 2, 3], index_vector_dim = 3>, slice_sizes = array<i64: 10, 2, 2, 2>}> : (tensor<10x10x10x10xf32>, tensor<1x1x4x3xi64>) -> tensor<1x10x2x2x2x1x4xf32>
  return
}

// CHECK-LABEL: func.func @gather_batching
func.func @gather_batching(%x: tensor<2x8x4xf32>, %i: tensor<2x3x1xi32>) {
  // CHECK: "stablehlo.gather"(%{{.+}}, %{{.+}}) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 4>}> : (tensor<2x8x4xf32>, tensor<2x3x1xi32>) -> tensor<2x3x4xf32>
  %0 = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<index_vector_dim = 2, start_index_map = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], collapsed_slice_dims = [1], offset_dims = [2]>, slice_sizes = array<i64: 1, 1, 4>} : (tensor<2x8x4xf32>, tensor<2x3x1xi32>) -> tensor<2x3x4xf32>
  return
}

// CHECK-LABEL: func.func @scatter
// CHECK-SAME: (%[[X:[^:]+]]: tensor<1x125xbf16>, %[[I:[^:]+]]: tensor<1xi64>, %[[U:[^:]+]]: tensor<1xbf16>)
func.func @scatter(%x: tensor<1x125xbf16>, %i: tensor<1xi64>, %u: tensor<1xbf16>) -> tensor<1x125xbf16> {
  // CHECK: "stablehlo.scatter"(%[[X]], %[[I]], %[[U]]) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1]>, unique_indices = true}> ({
  // CHECK-NEXT: ^bb0(%[[L:.+]]: tensor<bf16>, %[[R:.+]]: tensor<bf16>):
  // CHECK-NEXT: %[[S:.+]] = stablehlo.add %[[L]], %[[R]] : tensor<bf16>
  // CHECK-NEXT: stablehlo.return %[[S]] : tensor<bf16>
  // CHECK-NEXT: }) : (tensor<1x125xbf16>, tensor<1xi64>, tensor<1xbf16>) -> tensor<1x125xbf16>
  %0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1]>, unique_indices = true}> ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %1 = stablehlo.add %a, %b : tensor<bf16>
    stablehlo.return %1 : tensor<bf16>
  }) : (tensor<1x125xbf16>, tensor<1xi64>, tensor<1xbf16>) -> tensor<1x125xbf16>
  return %0 : tensor<1x125xbf16>
}

// Two inputs share indices; `indices_are_sorted` and batching dims print.
// CHECK-LABEL: func.func @scatter_variadic
func.func @scatter_variadic(%x: tensor<2x8xf32>, %y: tensor<2x8xi32>, %i: tensor<2x3x1xi32>, %u: tensor<2x3xf32>, %v: tensor<2x3xi32>) {
  // CHECK: %{{.+}}:2 = "stablehlo.scatter"(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}>
  // CHECK: stablehlo.return %{{.+}}, %{{.+}} : tensor<f32>, tensor<i32>
  // CHECK: : (tensor<2x8xf32>, tensor<2x8xi32>, tensor<2x3x1xi32>, tensor<2x3xf32>, tensor<2x3xi32>) -> (tensor<2x8xf32>, tensor<2x8xi32>)
  %0:2 = "stablehlo.scatter"(%x, %y, %i, %u, %v) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    stablehlo.return %c, %d : tensor<f32>, tensor<i32>
  }) : (tensor<2x8xf32>, tensor<2x8xi32>, tensor<2x3x1xi32>, tensor<2x3xf32>, tensor<2x3xi32>) -> (tensor<2x8xf32>, tensor<2x8xi32>)
  return
}

// CHECK-LABEL: func.func @sort
// CHECK-SAME: (%[[K:[^:]+]]: tensor<5x7xbf16>, %[[V:[^:]+]]: tensor<5x7xi32>)
func.func @sort(%k: tensor<5x7xbf16>, %v: tensor<5x7xi32>) {
  // CHECK: "stablehlo.sort"(%[[K]], %[[V]]) <{dimension = 1 : i64, is_stable = true}> ({
  // CHECK-NEXT: ^bb0(%[[A:[^:]+]]: tensor<bf16>, %[[B:[^:]+]]: tensor<bf16>, %{{[^:]+}}: tensor<i32>, %{{[^:]+}}: tensor<i32>):
  // CHECK-NEXT: %[[P:.+]] = stablehlo.compare LT, %[[A]], %[[B]], TOTALORDER : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
  // CHECK-NEXT: stablehlo.return %[[P]] : tensor<i1>
  // CHECK-NEXT: }) : (tensor<5x7xbf16>, tensor<5x7xi32>) -> (tensor<5x7xbf16>, tensor<5x7xi32>)
  %0:2 = "stablehlo.sort"(%k, %v) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>, %c: tensor<i32>, %d: tensor<i32>):
    %p = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<5x7xbf16>, tensor<5x7xi32>) -> (tensor<5x7xbf16>, tensor<5x7xi32>)
  // CHECK: "stablehlo.sort"(%[[K]]) <{dimension = -1 : i64, is_stable = false}> ({
  %1 = "stablehlo.sort"(%k) <{dimension = -1 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %p = stablehlo.compare GT, %a, %b : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<5x7xbf16>) -> tensor<5x7xbf16>
  return
}
