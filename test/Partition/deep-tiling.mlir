// PartIR appendix B.1.2: tiling an already tiled value again nests the new
// axis inside the old one instead of undoing it (deep tiling); propagation
// then gives the consumer the full two-level nest.
//
// RUN: toast-opt %s --partir-tile="value=x dim=1 axis=a" --partir-propagate --partir-tile="value=x dim=1 axis=b" --partir-propagate --partir-materialize-core | FileCheck %s
// RUN: not toast-opt %s --partir-tile="value=x dim=1 axis=a" --partir-tile="value=x dim=1 axis=a" 2>&1 | FileCheck %s --check-prefix=TWICE

module attributes {partir.mesh = #partir.mesh<["a"=4, "b"=2]>} {
  func.func @main(%x: tensor<16x8xf32> {partir.name = "x"}) -> tensor<16x8xf32> {
    %e = stablehlo.exponential %x : tensor<16x8xf32>
    return %e : tensor<16x8xf32>
  }
}

// CHECK: %[[R:.*]] = partir.loop "a" [#partir.tile<1>] (%[[RA:.*]]: !partir.range<4>) {
// CHECK-NEXT: %[[IN:.*]] = partir.loop "b" [#partir.tile<1>] (%[[RB:.*]]: !partir.range<2>) {
// CHECK-NEXT: %[[SA:.*]] = partir.slice 1 %arg0[%[[RA]]] : tensor<16x8xf32> -> tensor<16x2xf32>
// CHECK-NEXT: %[[SB:.*]] = partir.slice 1 %[[SA]][%[[RB]]] : tensor<16x2xf32> -> tensor<16x1xf32>
// CHECK-NEXT: %[[E:.*]] = stablehlo.exponential %[[SB]] : tensor<16x1xf32>
// CHECK-NEXT: partir.yield %[[E]] : tensor<16x1xf32>
// CHECK-NEXT: } : tensor<16x2xf32>
// CHECK-NEXT: partir.yield %[[IN]] : tensor<16x2xf32>
// CHECK-NEXT: } : tensor<16x8xf32>

// TWICE: error: tile: value is already tiled on axis "a"
