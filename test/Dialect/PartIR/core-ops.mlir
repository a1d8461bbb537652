// RUN: toast-opt %s | toast-opt | FileCheck %s
// RUN: toast-opt %s --mlir-print-op-generic | toast-opt | FileCheck %s

// The tiling loop of PartIR §5.1 and the three matmul equivalences of
// figure 4 (x: 32x16, y: 16x8, axis "B" of size 4).
module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  // CHECK: module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>}
  // CHECK-LABEL: func.func @value_tiling
  func.func @value_tiling(%x: tensor<256x8xf32>) -> tensor<256x8xf32> {
    // CHECK: partir.loop "B" [#partir.tile<0>] (%[[R:.*]]: !partir.range<4>) {
    // CHECK-NEXT: %[[S:.*]] = partir.slice 0 %{{.*}}[%[[R]]] : tensor<256x8xf32> -> tensor<64x8xf32>
    // CHECK-NEXT: partir.yield %[[S]] : tensor<64x8xf32>
    // CHECK-NEXT: } : tensor<256x8xf32>
    %xt = partir.loop "B" [#partir.tile<0>] (%rB: !partir.range<4>) {
      %s = partir.slice 0 %x[%rB] : tensor<256x8xf32> -> tensor<64x8xf32>
      partir.yield %s : tensor<64x8xf32>
    } : tensor<256x8xf32>
    return %xt : tensor<256x8xf32>
  }

  // CHECK-LABEL: func.func @figure4
  func.func @figure4(%x: tensor<32x16xf32>, %y: tensor<16x8xf32>) -> (tensor<32x8xf32>, tensor<32x8xf32>, tensor<32x8xf32>) {
    // CHECK: partir.loop "B" [#partir.tile<0>]
    %t0 = partir.loop "B" [#partir.tile<0>] (%rB: !partir.range<4>) {
      %xs = partir.slice 0 %x[%rB] : tensor<32x16xf32> -> tensor<8x16xf32>
      %z = stablehlo.dot_general %xs, %y, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
      partir.yield %z : tensor<8x8xf32>
    } : tensor<32x8xf32>
    // CHECK: partir.loop "B" [#partir.tile<1>]
    %t1 = partir.loop "B" [#partir.tile<1>] (%rB: !partir.range<4>) {
      %ys = partir.slice 1 %y[%rB] : tensor<16x8xf32> -> tensor<16x2xf32>
      %z = stablehlo.dot_general %x, %ys, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x2xf32>) -> tensor<32x2xf32>
      partir.yield %z : tensor<32x2xf32>
    } : tensor<32x8xf32>
    // CHECK: partir.loop "B" [#partir.sum]
    // CHECK: partir.slice 1 %{{.*}}[%{{.*}}] : tensor<32x16xf32> -> tensor<32x4xf32>
    // CHECK: partir.slice 0 %{{.*}}[%{{.*}}] : tensor<16x8xf32> -> tensor<4x8xf32>
    %t2 = partir.loop "B" [#partir.sum] (%rB: !partir.range<4>) {
      %xs = partir.slice 1 %x[%rB] : tensor<32x16xf32> -> tensor<32x4xf32>
      %ys = partir.slice 0 %y[%rB] : tensor<16x8xf32> -> tensor<4x8xf32>
      %z = stablehlo.dot_general %xs, %ys, contracting_dims = [1] x [0] : (tensor<32x4xf32>, tensor<4x8xf32>) -> tensor<32x8xf32>
      partir.yield %z : tensor<32x8xf32>
    } : tensor<32x8xf32>
    return %t0, %t1, %t2 : tensor<32x8xf32>, tensor<32x8xf32>, tensor<32x8xf32>
  }

  // Multi-axis nest, axis sizes need not be powers of two; #any and tag.
  // CHECK-LABEL: func.func @nest_any_tag
  func.func @nest_any_tag(%x: tensor<12x6xf32>) -> (tensor<12x6xf32>, tensor<12x6xf32>) {
    // CHECK: partir.tag "input" %{{.*}} : tensor<12x6xf32>
    %t = partir.tag "input" %x : tensor<12x6xf32>
    // CHECK: partir.loop "B" [#partir.tile<0>]
    // CHECK: partir.loop "M" [#partir.tile<1>]
    %n = partir.loop "B" [#partir.tile<0>] (%rB: !partir.range<4>) {
      %i = partir.loop "M" [#partir.tile<1>] (%rM: !partir.range<2>) {
        %a = partir.slice 0 %t[%rB] : tensor<12x6xf32> -> tensor<3x6xf32>
        %b = partir.slice 1 %a[%rM] : tensor<3x6xf32> -> tensor<3x3xf32>
        partir.yield %b : tensor<3x3xf32>
      } : tensor<3x6xf32>
      partir.yield %i : tensor<3x6xf32>
    } : tensor<12x6xf32>
    // CHECK: partir.loop "M" [#partir.any]
    %r = partir.loop "M" [#partir.any] (%rM: !partir.range<2>) {
      partir.yield %x : tensor<12x6xf32>
    } : tensor<12x6xf32>
    return %n, %r : tensor<12x6xf32>, tensor<12x6xf32>
  }
}
