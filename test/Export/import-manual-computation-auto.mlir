// Automatic partitioning of a program with a shard_map region: the region's
// boundary shardings are imported first, so the search starts from them and
// cannot undo them; the region's boundary stays as the user wrote it (its
// operand arrives sharded on "a", no gather in front of the body) and the
// program computes what the original computes.
// RUN: toast-opt %s --partir-import-shardings "--toast-auto-partition=device=a100 rollouts=100 budget-s=0 threads=1 seed=1" --partir-lower-to-hlo -o %t.mlir 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: toast-run --compare %s %t.mlir | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t.mlir --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIM

// The region is manual on "a" only: the search may also partition on the
// free axis "b". Every state is priced by the reference path (the region
// passes per-device values in and out), so the start is priced at what its
// lowered program simulates to (5.499 us). The best strategy
// (algorithm=exhaustive agrees) shards the last matmul's columns on "b"
// and communicates nothing: 4.639 us. Before, the analytic cost priced the
// start at 8.879 us (it gathered the region's operand) and chose to shard
// the exponential on "b", 5.187 us when lowered.
// AUTO: start cost {{.*}} (5.499 us step
// AUTO: mcts chose 1 actions {{.*}} (4.639 us step
// AUTO-NEXT: shard color 3 (arg2[1]: 3 dims) on axis b
// CHECK-LABEL: func.func @main
// CHECK-SAME: %arg0: tensor<128x{{[0-9]+}}xf32> {partir.sharding = {{\[\["a"}}
// CHECK-NOT: partir_hlo.all_gather
// CHECK-NOT: sdy.manual_computation
// CHECK: stablehlo.exponential %{{.*}} : tensor<128x512xf32>
// SIM: step time      : 4.639 us (compute 4.639 us, communication 0 s)
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
