// The temporal reading of PartIR:Core: loops become sequential scf.for
// loops carrying the result (the §6.1 example: a #sum loop over M nested in
// a tiling loop over B). The output parses back.
// RUN: toast-opt %s --partir-lower-to-temporal | toast-opt | FileCheck %s

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%x: tensor<256x8xf32>, %w1: tensor<8x16xf32>, %w2: tensor<16x8xf32>) -> tensor<256x8xf32> {
    %r = partir.loop "B" [#partir.tile<0>] (%rB: !partir.range<4>) {
      %x2s = partir.loop "M" [#partir.sum] (%rM: !partir.range<2>) {
        %xs = partir.slice 0 %x[%rB] : tensor<256x8xf32> -> tensor<64x8xf32>
        %w1s = partir.slice 1 %w1[%rM] : tensor<8x16xf32> -> tensor<8x8xf32>
        %t = partir.tag "x1" %xs : tensor<64x8xf32>
        %x1ss = stablehlo.dot_general %t, %w1s, contracting_dims = [1] x [0] : (tensor<64x8xf32>, tensor<8x8xf32>) -> tensor<64x8xf32>
        %w2s = partir.slice 0 %w2[%rM] : tensor<16x8xf32> -> tensor<8x8xf32>
        %x2ss = stablehlo.dot_general %x1ss, %w2s, contracting_dims = [1] x [0] : (tensor<64x8xf32>, tensor<8x8xf32>) -> tensor<64x8xf32>
        partir.yield %x2ss : tensor<64x8xf32>
      } : tensor<64x8xf32>
      partir.yield %x2s : tensor<64x8xf32>
    } : tensor<256x8xf32>
    %a = partir.loop "M" [#partir.any] (%rM: !partir.range<2>) {
      partir.yield %r : tensor<256x8xf32>
    } : tensor<256x8xf32>
    return %a : tensor<256x8xf32>
  }
}

// CHECK-LABEL: func.func @main
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<256x8xf32>
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[OUT:.*]] = scf.for %[[I:.*]] = %{{.*}} to %[[C4]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[EMPTY]]) -> (tensor<256x8xf32>) {
// CHECK: %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<64x8xf32>
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[SUM:.*]] = scf.for %[[J:.*]] = %{{.*}} to %[[C2]] step %{{.*}} iter_args(%[[PART:.*]] = %[[ZERO]]) -> (tensor<64x8xf32>) {
// CHECK: %[[OFF:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK: %[[XS:.*]] = tensor.extract_slice %arg0[%[[OFF]], 0] [64, 8] [1, 1] : tensor<256x8xf32> to tensor<64x8xf32>
// CHECK: tensor.extract_slice %arg1[0, %{{.*}}] [8, 8] [1, 1] : tensor<8x16xf32> to tensor<8x8xf32>
// CHECK-NOT: partir.tag
// CHECK: stablehlo.dot_general %[[XS]]
// CHECK: %[[ADD:.*]] = stablehlo.add %[[PART]], %{{.*}} : tensor<64x8xf32>
// CHECK: scf.yield %[[ADD]] : tensor<64x8xf32>
// CHECK: tensor.insert_slice %[[SUM]] into %[[ACC]][%{{.*}}, 0] [64, 8] [1, 1] : tensor<64x8xf32> into tensor<256x8xf32>
// CHECK: %[[ANY:.*]] = scf.for
// CHECK-NEXT: scf.yield %[[OUT]] : tensor<256x8xf32>
// CHECK: return %[[ANY]]
