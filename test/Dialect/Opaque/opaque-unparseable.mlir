// Custom syntax the opaque stand-in does not understand is a located error.
// RUN: not toast-opt %s --allow-unregistered-dialect 2>&1 | FileCheck %s
// CHECK: opaque-unparseable.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: custom op 'mydialect.weird' has a custom syntax toast cannot read (dialect 'mydialect' is unknown); write the op in generic form
func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = mydialect.weird %arg0 by 3 -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
