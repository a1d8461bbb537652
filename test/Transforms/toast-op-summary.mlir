// RUN: toast-opt %s --toast-op-summary 2>&1 >/dev/null | FileCheck %s
// RUN: toast-opt %s --toast-op-summary=top=1 2>&1 >/dev/null | FileCheck %s --check-prefix=TOP1
// RUN: toast-opt %s --toast-op-summary | FileCheck %s --check-prefix=IR
// RUN: not toast-opt %s --toast-op-summary=top=x 2>&1 | FileCheck %s --check-prefix=BADOPT

// CHECK: toast-op-summary: 6 ops in 1 function: 3 stablehlo.add, 1 func.func, 1 func.return, 1 stablehlo.multiply{{$}}
// TOP1: toast-op-summary: 6 ops in 1 function: 3 stablehlo.add, ... (3 more kinds)
// The pass leaves the IR unchanged.
// IR: stablehlo.multiply
// BADOPT: for the --top option: 'x' value invalid for uint argument

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.add %a, %a : tensor<4xf32>
  %1 = stablehlo.add %0, %a : tensor<4xf32>
  %2 = stablehlo.multiply %1, %1 : tensor<4xf32>
  %3 = stablehlo.add %2, %a : tensor<4xf32>
  return %3 : tensor<4xf32>
}
