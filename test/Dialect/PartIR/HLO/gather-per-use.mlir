// A tiled value read whole by several ops is gathered once per reading op,
// right before it (PartIR gathers per use, as FSDP does): the Z3-sharded
// parameter %w is gathered for the "forward" dot and again for the
// "backward" dot, so no full copy is alive between them. Two operands of
// one op share a gather.
//
// RUN: toast-opt %s --partir-lower-to-hlo | FileCheck %s

module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @main(%w: tensor<8x8xf32>, %x: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %ws = partir.loop "B" [#partir.tile<0>] (%r: !partir.range<4>) {
      %s = partir.slice 0 %w[%r] : tensor<8x8xf32> -> tensor<2x8xf32>
      partir.yield %s : tensor<2x8xf32>
    } : tensor<8x8xf32>
    %fwd = stablehlo.dot_general %x, %ws, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %act = stablehlo.tanh %fwd : tensor<8x8xf32>
    %bwd = stablehlo.dot_general %act, %ws, contracting_dims = [1] x [1] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %sq = stablehlo.multiply %ws, %ws : tensor<8x8xf32>
    %out = stablehlo.add %bwd, %sq : tensor<8x8xf32>
    return %out : tensor<8x8xf32>
  }
}

// CHECK-LABEL: func.func @main
// CHECK-SAME: %arg0: tensor<2x8xf32> {partir.sharding = {{\[}}["B"], []]}
// CHECK-NEXT: %[[G1:.*]] = partir_hlo.all_gather [{"B"}, {}] %arg0
// CHECK-NEXT: %[[F:.*]] = stablehlo.dot_general %arg1, %[[G1]]
// CHECK-NEXT: %[[A:.*]] = stablehlo.tanh %[[F]]
// CHECK-NEXT: %[[G2:.*]] = partir_hlo.all_gather [{"B"}, {}] %arg0
// CHECK-NEXT: %[[B:.*]] = stablehlo.dot_general %[[A]], %[[G2]]
// CHECK-NEXT: %[[G3:.*]] = partir_hlo.all_gather [{"B"}, {}] %arg0
// CHECK-NEXT: stablehlo.multiply %[[G3]], %[[G3]]
// CHECK-NOT: all_gather
