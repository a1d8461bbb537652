// The lowered boundary keeps arguments and results whole on the axes
// `partir.keep_whole` names (materializeCore writes it for values atomic in
// the sharding state: an imported closed sharding, a schedule's
// "replicated"). Every reader of %x slices it on {B, M} here: without the
// attribute the argument is passed sliced on both (@plain); kept whole on M,
// the boundary takes the B part and the reader slices M inside (an
// all_slice needs no communication); kept whole on B, it is passed sliced
// on M only (per dimension the boundary takes the axes before the first
// kept one; slices of different dimensions commute). A result kept whole
// on M is gathered on M only.
// The attribute is consumed.
//
// RUN: toast-opt %s --partir-lower-to-hlo | FileCheck %s
// RUN: toast-opt %s --partir-lower-to-hlo -o %t.mlir
// RUN: toast-run --compare %s %t.mlir --entry keep_m | FileCheck %s --check-prefix=AGREE
// RUN: toast-run --compare %s %t.mlir --entry keep_b | FileCheck %s --check-prefix=AGREE
// RUN: toast-run --compare %s %t.mlir --entry result | FileCheck %s --check-prefix=AGREE
// RUN: toast-run --compare %s %t.mlir --entry same_dim | FileCheck %s --check-prefix=AGREE
// AGREE: results agree

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @plain(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %0 = partir.loop "B" [#partir.tile<0>] (%r: !partir.range<4>) {
      %1 = partir.loop "M" [#partir.tile<1>] (%s: !partir.range<2>) {
        %a = partir.slice 0 %x[%r] : tensor<16x8xf32> -> tensor<4x8xf32>
        %b = partir.slice 1 %a[%s] : tensor<4x8xf32> -> tensor<4x4xf32>
        %t = stablehlo.tanh %b : tensor<4x4xf32>
        partir.yield %t : tensor<4x4xf32>
      } : tensor<4x8xf32>
      partir.yield %1 : tensor<4x8xf32>
    } : tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
  func.func @keep_m(%x: tensor<16x8xf32> {partir.keep_whole = ["M"]}) -> tensor<16x8xf32> {
    %0 = partir.loop "B" [#partir.tile<0>] (%r: !partir.range<4>) {
      %1 = partir.loop "M" [#partir.tile<1>] (%s: !partir.range<2>) {
        %a = partir.slice 0 %x[%r] : tensor<16x8xf32> -> tensor<4x8xf32>
        %b = partir.slice 1 %a[%s] : tensor<4x8xf32> -> tensor<4x4xf32>
        %t = stablehlo.tanh %b : tensor<4x4xf32>
        partir.yield %t : tensor<4x4xf32>
      } : tensor<4x8xf32>
      partir.yield %1 : tensor<4x8xf32>
    } : tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
  func.func @keep_b(%x: tensor<16x8xf32> {partir.keep_whole = ["B"]}) -> tensor<16x8xf32> {
    %0 = partir.loop "B" [#partir.tile<0>] (%r: !partir.range<4>) {
      %1 = partir.loop "M" [#partir.tile<1>] (%s: !partir.range<2>) {
        %a = partir.slice 0 %x[%r] : tensor<16x8xf32> -> tensor<4x8xf32>
        %b = partir.slice 1 %a[%s] : tensor<4x8xf32> -> tensor<4x4xf32>
        %t = stablehlo.tanh %b : tensor<4x4xf32>
        partir.yield %t : tensor<4x4xf32>
      } : tensor<4x8xf32>
      partir.yield %1 : tensor<4x8xf32>
    } : tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
  func.func @same_dim(%x: tensor<16x8xf32> {partir.keep_whole = ["M"]}) -> (tensor<16x8xf32> {partir.keep_whole = ["M"]}) {
    %0 = partir.loop "B" [#partir.tile<0>] (%r: !partir.range<4>) {
      %1 = partir.loop "M" [#partir.tile<0>] (%s: !partir.range<2>) {
        %a = partir.slice 0 %x[%r] : tensor<16x8xf32> -> tensor<4x8xf32>
        %b = partir.slice 0 %a[%s] : tensor<4x8xf32> -> tensor<2x8xf32>
        %t = stablehlo.tanh %b : tensor<2x8xf32>
        partir.yield %t : tensor<2x8xf32>
      } : tensor<4x8xf32>
      partir.yield %1 : tensor<4x8xf32>
    } : tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
  func.func @result(%x: tensor<16x8xf32>) -> (tensor<16x8xf32> {partir.keep_whole = ["M"]}) {
    %0 = partir.loop "B" [#partir.tile<0>] (%r: !partir.range<4>) {
      %1 = partir.loop "M" [#partir.tile<1>] (%s: !partir.range<2>) {
        %a = partir.slice 0 %x[%r] : tensor<16x8xf32> -> tensor<4x8xf32>
        %b = partir.slice 1 %a[%s] : tensor<4x8xf32> -> tensor<4x4xf32>
        %t = stablehlo.tanh %b : tensor<4x4xf32>
        partir.yield %t : tensor<4x4xf32>
      } : tensor<4x8xf32>
      partir.yield %1 : tensor<4x8xf32>
    } : tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// CHECK-LABEL: func.func @plain
// CHECK-SAME: %arg0: tensor<4x4xf32> {partir.sharding = {{\[}}["B"], ["M"]]}
// CHECK-SAME: -> (tensor<4x4xf32> {partir.sharding = {{\[}}["B"], ["M"]]})
// CHECK-NOT: all_slice

// CHECK-LABEL: func.func @keep_m
// CHECK-SAME: %arg0: tensor<4x8xf32> {partir.sharding = {{\[}}["B"], []]}
// CHECK-SAME: -> (tensor<4x4xf32> {partir.sharding = {{\[}}["B"], ["M"]]})
// CHECK-NEXT: %[[S:.*]] = partir_hlo.all_slice [{}, {"M"}] %arg0 : tensor<4x8xf32> -> tensor<4x4xf32>
// CHECK-NEXT: stablehlo.tanh %[[S]]

// CHECK-LABEL: func.func @keep_b
// CHECK-SAME: %arg0: tensor<16x4xf32> {partir.sharding = {{\[}}[], ["M"]]}
// CHECK-NEXT: partir_hlo.all_slice [{"B"}, {}] %arg0 : tensor<16x4xf32> -> tensor<4x4xf32>

// Rows tiled on B then M (M the inner blocks): B at the boundary, M inside.
// CHECK-LABEL: func.func @same_dim
// CHECK-SAME: %arg0: tensor<4x8xf32> {partir.sharding = {{\[}}["B"], []]}
// CHECK-SAME: -> (tensor<4x8xf32> {partir.sharding = {{\[}}["B"], []]})
// CHECK-NEXT: %[[S:.*]] = partir_hlo.all_slice [{"M"}, {}] %arg0 : tensor<4x8xf32> -> tensor<2x8xf32>
// CHECK-NEXT: %[[T:.*]] = stablehlo.tanh %[[S]]
// CHECK-NEXT: %[[G:.*]] = partir_hlo.all_gather [{"M"}, {}] %[[T]] : tensor<2x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT: return %[[G]]

// CHECK-LABEL: func.func @result
// CHECK-SAME: -> (tensor<4x8xf32> {partir.sharding = {{\[}}["B"], []]})
// CHECK: %[[T:.*]] = stablehlo.tanh
// CHECK-NEXT: %[[G:.*]] = partir_hlo.all_gather [{}, {"M"}] %[[T]] : tensor<4x4xf32> -> tensor<4x8xf32>
// CHECK-NEXT: return %[[G]]
// CHECK-NOT: keep_whole
