// PartIR appendix B.1.1: loop nests over several axes. Axis sizes need not
// be powers of two. Tiling %x's rows on "a" and its columns on "b" gives the
// negate a two-level nest, and the matmul a tiling loop over "a" around a
// #sum loop over "b" that slices %y by inference; fusion puts both ops in
// one nest.
//
// RUN: toast-opt %s --partir-manual-partition="name=rows axis=a inputs=x=0" --partir-manual-partition="name=cols axis=b inputs=x=1" --partir-materialize-core | FileCheck %s

module attributes {partir.mesh = #partir.mesh<["a"=3, "b"=2]>} {
  func.func @main(%x: tensor<12x6xf32> {partir.name = "x"}, %y: tensor<6x5xf32> {partir.name = "y"}) -> tensor<12x5xf32> {
    %n = stablehlo.negate %x : tensor<12x6xf32>
    %m = stablehlo.dot_general %n, %y, contracting_dims = [1] x [0] : (tensor<12x6xf32>, tensor<6x5xf32>) -> tensor<12x5xf32>
    return %m : tensor<12x5xf32>
  }
}

// CHECK: %[[R:.*]] = partir.loop "a" [#partir.tile<0>] (%[[RA:.*]]: !partir.range<3>) {
// CHECK-NEXT: %[[S:.*]] = partir.loop "b" [#partir.sum] (%[[RB:.*]]: !partir.range<2>) {
// CHECK-NEXT: %[[XA:.*]] = partir.slice 0 %arg0[%[[RA]]] : tensor<12x6xf32> -> tensor<4x6xf32>
// CHECK-NEXT: %[[XB:.*]] = partir.slice 1 %[[XA]][%[[RB]]] : tensor<4x6xf32> -> tensor<4x3xf32>
// CHECK-NEXT: %[[N:.*]] = stablehlo.negate %[[XB]] : tensor<4x3xf32>
// CHECK-NEXT: %[[YB:.*]] = partir.slice 0 %arg1[%[[RB]]] : tensor<6x5xf32> -> tensor<3x5xf32>
// CHECK-NEXT: %[[M:.*]] = stablehlo.dot_general %[[N]], %[[YB]], {{.*}} : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
// CHECK-NEXT: partir.yield %[[M]] : tensor<4x5xf32>
// CHECK-NEXT: } : tensor<4x5xf32>
// CHECK-NEXT: partir.yield %[[S]] : tensor<4x5xf32>
// CHECK-NEXT: } : tensor<12x5xf32>
