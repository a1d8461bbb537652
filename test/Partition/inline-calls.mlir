// Calls in the entry function are inlined before partitioning (with a
// remark), so tilings propagate through helpers as JAX exports them; the
// private helpers nothing calls any more are erased.
// RUN: toast-opt %s --partir-manual-partition="axis=B inputs=arg0=0 mesh=B=2" --partir-materialize-core | FileCheck %s
// RUN: toast-opt %s --partir-manual-partition="axis=B inputs=arg0=0 mesh=B=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// REMARK: remark: inlined 2 calls into @main so that tilings propagate through them
// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[Z:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT: partir.loop "B" [#partir.tile<0>]
// CHECK-NEXT: partir.slice 0 %arg0
// CHECK-NEXT: partir.slice 0 %[[Z]]
// CHECK-NEXT: stablehlo.maximum {{.*}} : tensor<4x8xf32>
// CHECK-NEXT: stablehlo.exponential {{.*}} : tensor<4x8xf32>
// CHECK-NEXT: partir.yield
// CHECK-NOT: call @
// CHECK-NOT: func.func private
func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = call @act(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
func.func private @relu(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<8x8xf32>
  %0 = stablehlo.maximum %x, %z : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
func.func private @act(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = call @relu(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.exponential %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
