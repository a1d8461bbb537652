// A scan body that calls a private function per layer, as JAX exports it:
// the call is inlined into the body, so batch tiling reaches the layer's
// ops and the loop carries device-local shards.
// RUN: toast-opt %s --partir-manual-partition="axis=B inputs=arg0=0 mesh=B=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: toast-opt %s --partir-manual-partition="axis=B inputs=arg0=0 mesh=B=2" --partir-materialize-core --partir-lower-to-hlo -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: toast-run --compare %s %t.mlir | FileCheck %s --check-prefix=SAME

// REMARK: remark: inlined 1 call into @main so that tilings propagate through them
// CHECK-LABEL: func.func @main(%arg0: tensor<4x8xf32>
// CHECK: stablehlo.while({{.*}}) : tensor<i32>, tensor<4x8xf32>
// CHECK-NOT: call @
// CHECK-NOT: partir_hlo.
// CHECK: stablehlo.tanh {{.*}} : tensor<4x8xf32>
// CHECK-NOT: partir_hlo.
// CHECK: return {{.*}} : tensor<4x8xf32>
// SAME: results agree
func.func @main(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, tensor<8x8xf32>
   cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    %y = func.call @layer(%h) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    stablehlo.return %next, %y : tensor<i32>, tensor<8x8xf32>
  }
  return %r#1 : tensor<8x8xf32>
}
func.func private @layer(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = stablehlo.tanh %x : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
