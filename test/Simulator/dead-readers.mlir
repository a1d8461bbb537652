// A reader that never runs (its result is unused) fuses nothing and
// stores nothing: the multiply fuses into the add as if the dead dot were
// not there (before: 16.184 us and 16 MiB, the product stored for the dot).
// RUN: toast-opt %s --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s
// RUN: sed '/DEAD/d' %s | toast-opt --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s
// CHECK: step time      : 8.092 us
// CHECK: peak memory    : 12.00 MiB (12582912 B)
func.func @main(%x: tensor<1024x1024xf32>, %y: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %b = stablehlo.multiply %x, %y : tensor<1024x1024xf32>
  %c = stablehlo.add %b, %y : tensor<1024x1024xf32>
  %d = stablehlo.dot_general %b, %y, contracting_dims = [1] x [0] : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32> // DEAD
  return %c : tensor<1024x1024xf32>
}
