// PartIR figure 4: the three loops equivalent to %t = matmul(%x, %y) with
// x: 32x16, y: 16x8 and an axis "B" of size 4, each reached by tiling one
// input and propagating (the third by inference from a partial match).
//
// RUN: toast-opt %s --partir-tile="value=x dim=0 axis=B" --partir-propagate --partir-materialize-core | FileCheck %s --check-prefix=ROWS
// RUN: toast-opt %s --partir-tile="value=y dim=1 axis=B" --partir-propagate --partir-materialize-core | FileCheck %s --check-prefix=COLS
// RUN: toast-opt %s --partir-tile="value=x dim=1 axis=B" --partir-propagate --partir-materialize-core | FileCheck %s --check-prefix=SUM

module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @main(%x: tensor<32x16xf32> {partir.name = "x"},
                  %y: tensor<16x8xf32> {partir.name = "y"}) -> tensor<32x8xf32> {
    %t = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x8xf32>) -> tensor<32x8xf32>
    return %t : tensor<32x8xf32>
  }
}

// ROWS: %[[T:.*]] = partir.loop "B" [#partir.tile<0>] (%[[R:.*]]: !partir.range<4>) {
// ROWS-NEXT: %[[XS:.*]] = partir.slice 0 %arg0[%[[R]]] : tensor<32x16xf32> -> tensor<8x16xf32>
// ROWS-NEXT: %[[Z:.*]] = stablehlo.dot_general %[[XS]], %arg1, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
// ROWS-NEXT: partir.yield %[[Z]] : tensor<8x8xf32>
// ROWS-NEXT: } : tensor<32x8xf32>
// ROWS-NEXT: return %[[T]]

// COLS: %[[T:.*]] = partir.loop "B" [#partir.tile<1>] (%[[R:.*]]: !partir.range<4>) {
// COLS-NEXT: %[[YS:.*]] = partir.slice 1 %arg1[%[[R]]] : tensor<16x8xf32> -> tensor<16x2xf32>
// COLS-NEXT: %[[Z:.*]] = stablehlo.dot_general %arg0, %[[YS]], contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x2xf32>) -> tensor<32x2xf32>
// COLS-NEXT: partir.yield %[[Z]] : tensor<32x2xf32>
// COLS-NEXT: } : tensor<32x8xf32>

// SUM: %[[T:.*]] = partir.loop "B" [#partir.sum] (%[[R:.*]]: !partir.range<4>) {
// SUM-NEXT: %[[XS:.*]] = partir.slice 1 %arg0[%[[R]]] : tensor<32x16xf32> -> tensor<32x4xf32>
// SUM-NEXT: %[[YS:.*]] = partir.slice 0 %arg1[%[[R]]] : tensor<16x8xf32> -> tensor<4x8xf32>
// SUM-NEXT: %[[Z:.*]] = stablehlo.dot_general %[[XS]], %[[YS]], contracting_dims = [1] x [0] : (tensor<32x4xf32>, tensor<4x8xf32>) -> tensor<32x8xf32>
// SUM-NEXT: partir.yield %[[Z]] : tensor<32x8xf32>
// SUM-NEXT: } : tensor<32x8xf32>
