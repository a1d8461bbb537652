// Tensors the interpreter cannot hold are located errors, also when their
// element count overflows 64 bits (2^32 x 2^32 is not 0 elements).
// RUN: not toast-run %s 2>&1 | FileCheck %s
// CHECK: too-large.mlir:[[@LINE+1]]:1: error: toast-run: argument #0 of @main, 'tensor<4294967296x4294967296xf32>', is too large for the interpreter (more than 536870912 elements)
func.func @main(%a: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  return %a : tensor<4294967296x4294967296xf32>
}
