// The collective optimizer leaves padded (uneven) collectives alone where
// a fusion would change their layout: reduce_scatter and all_to_all do not
// pad, and merging or regrouping axes would move the padding. The program
// still computes tanh(4 x) (the sum of x over the 4 devices of B).
//
// RUN: toast-opt %s --partir-optimize-collectives -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: toast-run --compare %S/Inputs/padded-global.mlir %t.mlir | FileCheck %s --check-prefix=AGREE
// CHECK-NOT: reduce_scatter
// CHECK-NOT: all_to_all
// CHECK: partir_hlo.all_reduce "sum" ["B"] %{{.*}} : tensor<10x3xf32>
// CHECK: partir_hlo.all_slice [{"B"}, {}] %{{.*}} : tensor<10x3xf32> -> tensor<3x3xf32>
// CHECK-NOT: reduce_scatter
// CHECK-NOT: all_to_all
// AGREE: results agree
module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func public @main(%x: tensor<10x3xf32>) -> tensor<10x3xf32> {
    %r = partir_hlo.all_reduce "sum" ["B"] %x : tensor<10x3xf32>
    %s = partir_hlo.all_slice [{"B"}, {}] %r : tensor<10x3xf32> -> tensor<3x3xf32>
    %t = stablehlo.tanh %s : tensor<3x3xf32>
    %g = partir_hlo.all_gather [{"B"}, {}] %t : tensor<3x3xf32> -> tensor<10x3xf32>
    %s2 = partir_hlo.all_slice [{}, {"B"}] %g : tensor<10x3xf32> -> tensor<10x1xf32>
    %g2 = partir_hlo.all_gather [{}, {"B"}] %s2 : tensor<10x1xf32> -> tensor<10x3xf32>
    return %g2 : tensor<10x3xf32>
  }
}
