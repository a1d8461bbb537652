// A factor whose dims are split into different numbers of parts. The head
// dim of %a is merged from 8x2 (a split dim "8.2"), and the multiply gives
// %b's head dim the same extent, so it is split 8.2 too; %b's reshape maps
// its head factor as one part (16) of the merged 256 = 16x16 of %kv. The
// factor's major parts are identified (tiling the factor into n blocks, n
// dividing 8, tiles %kv's 16 and %b's 8 alike); the minor part 2 that only
// %b's result has is blocked. Before, the whole factor was blocked, and an
// imported sharding of the heads could not start a search
// (test/Search/import-split-heads.mlir).
//
// RUN: toast-opt %s --toast-nda=json=%t.json -o /dev/null
// RUN: %python %S/Inputs/nda_dims.py %t.json | FileCheck %s

// CHECK: use #1 stablehlo.reshape(0)[1] [[H:c[0-9]+]] [[N:n[0-9]+]]{{$}}
// CHECK: #1 stablehlo.reshape#0[1] [[H]] [[N]]{{$}}
// CHECK: #1 stablehlo.reshape#0[1.1] c{{[0-9]+}} n{{[0-9]+}} blocked
// CHECK-NOT: blocked
func.func @main(%q: tensor<4x8x2x16xf32>, %kv: tensor<4x256xf32>,
                %w: tensor<16x32xf32>) -> tensor<4x16x32xf32> {
  %a = stablehlo.reshape %q : (tensor<4x8x2x16xf32>) -> tensor<4x16x16xf32>
  %b = stablehlo.reshape %kv : (tensor<4x256xf32>) -> tensor<4x16x16xf32>
  %c = stablehlo.multiply %a, %b : tensor<4x16x16xf32>
  %d = stablehlo.dot_general %c, %w, contracting_dims = [2] x [0] : (tensor<4x16x16xf32>, tensor<16x32xf32>) -> tensor<4x16x32xf32>
  return %d : tensor<4x16x32xf32>
}
