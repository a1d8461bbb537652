// A padded dimension whose padding would change a result that no mask can
// fix is a located error: a contraction over a padded dimension masks the
// padding with zeros, and complex numbers have none here.
//
// RUN: not toast-opt %s --partir-manual-partition="axis=B inputs=x=1 mesh=B=4" --partir-materialize-core 2>&1 | FileCheck %s
// CHECK: padded-errors.mlir:[[@LINE+4]]:10: error: padded reduction over dimension 1 of 'tensor<4x2xcomplex<f32>>': no zero to mask the padding with
// CHECK-NOT: error
module @complex {
  func.func public @main(%x: tensor<4x6xcomplex<f32>> {partir.name = "x"}, %w: tensor<6x2xcomplex<f32>>) -> tensor<4x2xcomplex<f32>> {
    %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x6xcomplex<f32>>, tensor<6x2xcomplex<f32>>) -> tensor<4x2xcomplex<f32>>
    return %d : tensor<4x2xcomplex<f32>>
  }
}
