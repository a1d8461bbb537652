// Each device's chunk of a splat constant is a smaller splat: the export
// writes that constant instead of a dynamic_slice of the global one, which
// would keep the whole constant alive on every device (XLA folds it so;
// relu's zeros in the DETR export were 12 such slices, 205.9 MiB exported
// against 108.9 MiB in PartIR:HLO).
// RUN: toast-opt %s --partir-manual-partition="name=BP axis=B inputs=x=0 mesh=B=4" --partir-materialize-core --partir-lower-to-hlo --partir-export-stablehlo -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: toast-run --compare %s %t.mlir | FileCheck %s --check-prefix=AGREE

// CHECK-NOT: tensor<1024x1024xf32>
// CHECK: stablehlo.constant dense<0.000000e+00> : tensor<256x1024xf32>
// CHECK-NOT: dynamic_slice
// AGREE: results agree
func.func @main(%x: tensor<1024x1024xf32> {partir.name = "x"}) -> tensor<1024x1024xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<1024x1024xf32>
  %e = stablehlo.exponential %x : tensor<1024x1024xf32>
  %r = stablehlo.maximum %e, %z : tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
