// A build without CBC (-DTOAST_ENABLE_CBC=OFF, or coinor-libcbc-dev missing
// at configure time) says so when algorithm=ilp is asked for.
// UNSUPPORTED: cbc
// RUN: not toast-opt %s --toast-auto-partition="mesh=B=4 algorithm=ilp" 2>&1 | FileCheck %s

// CHECK: ilp-without-cbc.mlir:[[@LINE+1]]:1: error: algorithm=ilp: Toast was built without CBC (install coinor-libcbc-dev and reconfigure)
func.func @main(%x: tensor<256x8xf32>, %w1: tensor<8x16xf32>) -> tensor<256x16xf32> {
  %x1 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<256x8xf32>, tensor<8x16xf32>) -> tensor<256x16xf32>
  return %x1 : tensor<256x16xf32>
}
