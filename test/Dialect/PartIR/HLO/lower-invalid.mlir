// Lowering needs a mesh when the module has loops.
// RUN: not toast-opt %s --partir-lower-to-hlo 2>&1 | FileCheck %s
// CHECK: error: {{.*}}needs a mesh
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = partir.loop "B" [#partir.any] (%rB: !partir.range<4>) {
    partir.yield %x : tensor<8xf32>
  } : tensor<8xf32>
  return %r : tensor<8xf32>
}
