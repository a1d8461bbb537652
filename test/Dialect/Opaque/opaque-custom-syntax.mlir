// Ops of unknown dialects in their custom syntax become opaque ops under
// --allow-unregistered-dialect and print in generic form.
// RUN: toast-opt %s -split-input-file --allow-unregistered-dialect | FileCheck %s
// RUN: not toast-opt %s -split-input-file 2>&1 | FileCheck %s --check-prefix=REJECT

// CHECK-LABEL: func.func @symbol_operands_attrs
// CHECK: %[[R:.*]]:2 = "mydialect.batch"(%arg0) {size = 3 : i64, toast.opaque_symbol = @callee} : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
// CHECK: "otherdialect.use"(%[[R]]#0) {kind = #otherdialect<thing 1>} : (tensor<2xf32>) -> ()
// REJECT: error: Dialect `mydialect' not found for custom op 'mydialect.batch'
func.func @symbol_operands_attrs(%arg0: tensor<2xf32>) {
  %0:2 = mydialect.batch @callee(%arg0) {size = 3 : i64} : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  otherdialect.use(%0#0) {kind = #otherdialect<thing 1>} : (tensor<2xf32>) -> ()
  return
}

// -----

// CHECK-LABEL: func.func @no_operands
// CHECK: "mydialect.make"() : () -> tensor<f32>
func.func @no_operands() -> tensor<f32> {
  %0 = mydialect.make : () -> tensor<f32>
  return %0 : tensor<f32>
}
