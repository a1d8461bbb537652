// An entry function without a body is a located error for every pass that
// partitions it (before, a crash).
// RUN: not toast-opt %s --toast-auto-partition=mesh=B=2 2>&1 | FileCheck %s
// RUN: not toast-opt %s --partir-import-shardings 2>&1 | FileCheck %s
// RUN: not toast-opt %s "--partir-tile=value=#0 dim=0 axis=B mesh=B=2" 2>&1 | FileCheck %s
// CHECK: entry-declaration.mlir:[[@LINE+2]]:3: error: @main is a declaration without a body: nothing to partition
module {
  func.func private @main(tensor<4xf32>) -> tensor<4xf32>
}
