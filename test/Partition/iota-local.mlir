// An iota loops like any op with a rule: each device builds only its part
// (the one-hot of a loss, [batch, vocab] here, is never built whole and
// sliced; constants stay whole, sliced by their readers). The iota
// dimension itself stays whole (its values are positions).
//
// RUN: toast-opt %s --partir-manual-partition="axis=B inputs=labels=0 mesh=B=4" --partir-materialize-core --partir-lower-to-hlo -o %t.bp.mlir
// RUN: FileCheck %s --check-prefix=BP < %t.bp.mlir
// RUN: toast-run --compare %s %t.bp.mlir | FileCheck %s
// BP-NOT: tensor<8x16xi32>
// BP: stablehlo.iota dim = 1 : tensor<2x16xi32>
// BP-NOT: tensor<8x16xi32>
// BP-NOT: partir_hlo.all_gather
// CHECK: results agree
module @onehot {
  func.func public @main(%labels: tensor<8xi32> {partir.name = "labels"}) -> tensor<8x16xf32> {
    %iota = stablehlo.iota dim = 1 : tensor<8x16xi32>
    %l = stablehlo.broadcast_in_dim %labels, dims = [0] : (tensor<8xi32>) -> tensor<8x16xi32>
    %eq = stablehlo.compare EQ, %iota, %l : (tensor<8x16xi32>, tensor<8x16xi32>) -> tensor<8x16xi1>
    %one = stablehlo.constant dense<1.000000e+00> : tensor<8x16xf32>
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<8x16xf32>
    %r = stablehlo.select %eq, %one, %zero : tensor<8x16xi1>, tensor<8x16xf32>
    return %r : tensor<8x16xf32>
  }
}
