// PartIR §5.2.2: tiling the intermediate %x1 of the matmul chain propagates
// backward into the first matmul and forward into the second; after fusion
// one loop holds both (Listing 8). The tag names %x1 for the action.
//
// RUN: toast-opt %s --partir-tile="value=x1 dim=0 axis=B" --partir-propagate --partir-materialize-core | FileCheck %s

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%x: tensor<256x8xf32>, %w1: tensor<8x16xf32>, %w2: tensor<16x8xf32>) -> tensor<256x8xf32> {
    %x1 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<256x8xf32>, tensor<8x16xf32>) -> tensor<256x16xf32>
    %x1t = partir.tag "x1" %x1 : tensor<256x16xf32>
    %x2 = stablehlo.dot_general %x1t, %w2, contracting_dims = [1] x [0] : (tensor<256x16xf32>, tensor<16x8xf32>) -> tensor<256x8xf32>
    return %x2 : tensor<256x8xf32>
  }
}

// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[R:.*]] = partir.loop "B" [#partir.tile<0>] (%[[RB:.*]]: !partir.range<4>) {
// CHECK-NEXT: %[[XS:.*]] = partir.slice 0 %arg0[%[[RB]]] : tensor<256x8xf32> -> tensor<64x8xf32>
// CHECK-NEXT: %[[X1:.*]] = stablehlo.dot_general %[[XS]], %arg1, {{.*}} -> tensor<64x16xf32>
// CHECK-NEXT: %[[T:.*]] = partir.tag "x1" %[[X1]] : tensor<64x16xf32>
// CHECK-NEXT: %[[X2:.*]] = stablehlo.dot_general %[[T]], %arg2, {{.*}} -> tensor<64x8xf32>
// CHECK-NEXT: partir.yield %[[X2]] : tensor<64x8xf32>
// CHECK-NEXT: } : tensor<256x8xf32>
// CHECK-NEXT: return %[[R]]
