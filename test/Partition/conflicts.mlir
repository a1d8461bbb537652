// PartIR §5.2.3: tiling %x on dim 0 and %w1 on dim 1 over the same axis
// matches two rule entries of the matmul: a conflict, so nothing propagates
// and both stay value-tiled. Done incrementally (tile %x, propagate, then
// tile %w1), the matmul gets the batch loop and %w1's tiling stays outside
// it: no loop over "B" may nest in another.
//
// RUN: toast-opt %s --partir-tile="value=x dim=0 axis=B" --partir-tile="value=w1 dim=1 axis=B" --partir-propagate --partir-materialize-core | FileCheck %s --check-prefix=CONFLICT
// RUN: toast-opt %s --partir-tile="value=x dim=0 axis=B" --partir-tile="value=w1 dim=1 axis=B" --partir-propagate=report=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: toast-opt %s --partir-tile="value=x dim=0 axis=B" --partir-propagate --partir-tile="value=w1 dim=1 axis=B" --partir-propagate --partir-materialize-core | FileCheck %s --check-prefix=INCR

module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @main(%x: tensor<256x8xf32> {partir.name = "x"},
                  %w1: tensor<8x16xf32> {partir.name = "w1"}) -> tensor<256x16xf32> {
    %x1 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<256x8xf32>, tensor<8x16xf32>) -> tensor<256x16xf32>
    return %x1 : tensor<256x16xf32>
  }
}

// CONFLICT: %[[XT:.*]] = partir.loop "B" [#partir.tile<0>]
// CONFLICT: %[[WT:.*]] = partir.loop "B" [#partir.tile<1>]
// CONFLICT: %[[M:.*]] = stablehlo.dot_general %[[XT]], %[[WT]], {{.*}} : (tensor<256x8xf32>, tensor<8x16xf32>) -> tensor<256x16xf32>
// CONFLICT-NEXT: return %[[M]]

// STATS: partir-propagate: {{[0-9]+}} visits, 0 loops added, 1 conflicts

// INCR: %[[WT:.*]] = partir.loop "B" [#partir.tile<1>] (%[[R:.*]]: !partir.range<4>) {
// INCR-NEXT: partir.slice 1 %arg1[%[[R]]] : tensor<8x16xf32> -> tensor<8x4xf32>
// INCR: %[[L:.*]] = partir.loop "B" [#partir.tile<0>] (%[[R2:.*]]: !partir.range<4>) {
// INCR-NEXT: %[[XS:.*]] = partir.slice 0 %arg0[%[[R2]]] : tensor<256x8xf32> -> tensor<64x8xf32>
// INCR-NEXT: stablehlo.dot_general %[[XS]], %[[WT]], {{.*}} : (tensor<64x8xf32>, tensor<8x16xf32>) -> tensor<64x16xf32>
