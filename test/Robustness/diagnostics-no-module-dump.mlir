// Diagnostics are located and do not print the operation they are attached
// to (a schedule error on the module of a large model would print all of
// it), unless --mlir-print-op-on-diagnostic asks for it.
//
// RUN: echo '{"mesh": {"B": 2}, "tactics": [], "bogus": 1}' > %t.json
// RUN: not toast-opt %s --partir-schedule=file=%t.json 2>&1 | FileCheck %s
// RUN: not toast-opt %s --partir-schedule=file=%t.json --mlir-print-op-on-diagnostic 2>&1 | FileCheck %s --check-prefix=DUMP

// CHECK: error: in schedule '{{.*}}': schedule: unknown key 'bogus'
// CHECK-NOT: see current operation
// DUMP: see current operation

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
