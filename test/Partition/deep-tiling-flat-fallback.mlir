// Deep tiling nests a new tiling inside the slicings consumers already
// apply; when together they would not divide the dimension, the new tiling
// stays flat instead of producing empty slices. Here the consumer slices
// x's dimension 1 (size 4) over M (2), and x is then tiled on that
// dimension over B (4): 2 x 4 does not divide 4.
// RUN: toast-opt %s --partir-tile="value=y dim=1 axis=M" --partir-propagate --partir-tile="value=x dim=1 axis=B" --partir-propagate --partir-materialize-core | FileCheck %s

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%x: tensor<8x4xf32> {partir.name = "x"}) -> tensor<8x4xf32> {
    %e = stablehlo.exponential %x : tensor<8x4xf32>
    %y = partir.tag "y" %e : tensor<8x4xf32>
    return %y : tensor<8x4xf32>
  }
}

// CHECK: %[[XT:.*]] = partir.loop "B" [#partir.tile<1>] (%[[RB:.*]]: !partir.range<4>) {
// CHECK-NEXT: partir.slice 1 %arg0[%[[RB]]] : tensor<8x4xf32> -> tensor<8x1xf32>
// CHECK: partir.loop "M" [#partir.tile<1>] (%[[RM:.*]]: !partir.range<2>) {
// CHECK-NEXT: partir.slice 1 %[[XT]][%[[RM]]] : tensor<8x4xf32> -> tensor<8x2xf32>
// CHECK-NEXT: stablehlo.exponential
