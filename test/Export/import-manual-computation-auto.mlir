// Automatic partitioning of a program with a shard_map region: the region's
// boundary shardings are imported first, so the search starts from them and
// cannot undo them; the region's boundary stays as the user wrote it (its
// operand arrives sharded on "a", no gather in front of the body) and the
// program computes what the original computes.
// RUN: toast-opt %s --partir-import-shardings "--toast-auto-partition=device=a100 budget-s=5 seed=1" --partir-lower-to-hlo -o %t.mlir 2>/dev/null
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: toast-run --compare %s %t.mlir | FileCheck %s --check-prefix=AGREE

// The region is manual on "a" only: the search may also partition its body
// on the free axis "b", and does: the exponential runs on a quarter of the
// value ("a" from the region, and "b" on rows or columns: both strategies
// are optimal, algorithm=exhaustive prices them equal).
// CHECK-LABEL: func.func @main
// CHECK-SAME: %arg0: tensor<128x{{[0-9]+}}xf32> {partir.sharding = {{\[\["a"}}
// CHECK-NOT: partir_hlo.all_gather
// CHECK-NOT: sdy.manual_computation
// CHECK: stablehlo.exponential %{{.*}} : tensor<{{64x512|128x256}}xf32>
// AGREE: results agree

module {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @main(%x: tensor<256x512xf32>, %w: tensor<512x512xf32>, %v: tensor<512x256xf32>) -> tensor<256x256xf32> {
    %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<256x512xf32>, tensor<512x512xf32>) -> tensor<256x512xf32>
    %0 = sdy.manual_computation(%h) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%l: tensor<128x512xf32>) {
      %e = stablehlo.exponential %l : tensor<128x512xf32>
      sdy.return %e : tensor<128x512xf32>
    } : (tensor<256x512xf32>) -> tensor<256x512xf32>
    %1 = stablehlo.dot_general %0, %v, contracting_dims = [1] x [0] : (tensor<256x512xf32>, tensor<512x256xf32>) -> tensor<256x256xf32>
    return %1 : tensor<256x256xf32>
  }
}
