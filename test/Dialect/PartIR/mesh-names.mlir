// Mesh axis names print as MLIR strings (escaped), so any name parses back:
// a quote in a name printed `"B"x"` before, which did not.
// RUN: toast-opt %s | toast-opt | FileCheck %s
// CHECK: partir.mesh = #partir.mesh<["B\22x"=2, "M"=2]>
module attributes {partir.mesh = #partir.mesh<["B\"x"=2, "M"=2]>} {
  func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}
