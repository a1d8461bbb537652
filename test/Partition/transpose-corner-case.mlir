// PartIR §8: a matrix times its transpose. Tiling %x on dim 0 tiles the
// transpose on dim 1, and the matmul sees both: a conflict, it stays whole.
// Keeping the tagged transpose atomic first lets the matmul be tiled; the
// transpose result is made whole by a #any loop (an all_gather in SPMD).
//
// RUN: toast-opt %s --partir-manual-partition="axis=M inputs=x=0" --partir-materialize-core | FileCheck %s --check-prefix=CONFLICT
// RUN: toast-opt %s --partir-atomic="value=transposed axis=M" --partir-manual-partition="axis=M inputs=x=0" --partir-materialize-core | FileCheck %s --check-prefix=ATOMIC

module attributes {partir.mesh = #partir.mesh<["M"=2]>} {
  func.func @main(%x: tensor<256x256xf32> {partir.name = "x"}) -> tensor<256x256xf32> {
    %tx = stablehlo.transpose %x, dims = [1, 0] : (tensor<256x256xf32>) -> tensor<256x256xf32>
    %tag = partir.tag "transposed" %tx : tensor<256x256xf32>
    %y = stablehlo.dot_general %x, %tag, contracting_dims = [1] x [0] : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
    return %y : tensor<256x256xf32>
  }
}

// CONFLICT: %[[TX:.*]] = partir.loop "M" [#partir.tile<1>]
// CONFLICT: stablehlo.transpose {{.*}} : (tensor<128x256xf32>) -> tensor<256x128xf32>
// CONFLICT: partir.tag "transposed" {{.*}} : tensor<256x128xf32>
// CONFLICT: stablehlo.dot_general %{{.*}}, %[[TX]], {{.*}} : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>

// ATOMIC: %[[TAG:.*]] = partir.tag "transposed" %{{.*}} : tensor<256x256xf32>
// ATOMIC-NEXT: %[[WHOLE:.*]] = partir.loop "M" [#partir.any] (%{{.*}}: !partir.range<2>) {
// ATOMIC-NEXT: partir.yield %[[TAG]] : tensor<256x256xf32>
// ATOMIC-NEXT: } : tensor<256x256xf32>
// ATOMIC-NEXT: partir.loop "M" [#partir.tile<0>]
// ATOMIC-NEXT: %[[XS:.*]] = partir.slice 0
// ATOMIC-NEXT: stablehlo.dot_general %[[XS]], %[[WHOLE]], {{.*}} : (tensor<128x256xf32>, tensor<256x256xf32>) -> tensor<128x256xf32>
