// A device-local program for more devices than the interpreter simulates
// (one thread each) is refused with a located error, not a crash.
//
// RUN: not toast-run %s 2>&1 | FileCheck %s
// CHECK: error: toast-run: 1048576 devices is more than the 4096 the interpreter simulates (one thread each)

module attributes {partir.mesh = #partir.mesh<["B"=1024, "M"=1024]>} {
  func.func @main(%x: tensor<1xf32> {partir.sharding = [["B"]]}) -> tensor<1xf32> attributes {partir.mesh = #partir.mesh<["B"=1024, "M"=1024]>} {
    return %x : tensor<1xf32>
  }
}
