// Bad input is reported with a located error and exit status 1.
// RUN: split-file %s %t

// RUN: not toast-run %t/unsupported-op.mlir 2>&1 | FileCheck %s --check-prefix=OP
// OP: unsupported-op.mlir:3:8: error: toast-run: unsupported op 'func.constant'

// RUN: not toast-run %t/unsupported-target.mlir 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: unsupported-target.mlir:3:8: error: toast-run: unsupported custom_call target @my.kernel

// RUN: not toast-run %t/unsupported-type.mlir 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: unsupported-type.mlir:3:8: error: toast-run: unsupported element type 'f8E4M3FN' in result of 'stablehlo.convert'

// RUN: not toast-run %t/unsupported-arg.mlir 2>&1 | FileCheck %s --check-prefix=ARG
// ARG: unsupported-arg.mlir:1:1: error: toast-run: unsupported type 'tensor<?xf32>' of argument #0 of @main

// RUN: not toast-run %t/elided.mlir 2>&1 | FileCheck %s --check-prefix=ELIDED
// ELIDED: elided.mlir:2:8: error: toast-run: elided constant (dense_resource '__elided__' has no data); cannot evaluate

// RUN: not toast-run %t/missing-blob.mlir --fill-elided 2>&1 | FileCheck %s --check-prefix=BLOB
// BLOB: missing-blob.mlir:2:8: error: toast-run: dense_resource 'blob1' has no data in the file (--fill-elided fills only '__elided__' constants)

// RUN: not toast-run %t/declaration.mlir --entry decl 2>&1 | FileCheck %s --check-prefix=DECL
// DECL: declaration.mlir:1:1: error: toast-run: @decl is a declaration without a body

// RUN: not toast-run --compare - - < %t/elided.mlir 2>&1 | FileCheck %s --check-prefix=STDIN
// STDIN: toast-run: --compare cannot read both programs from standard input ('-')

// RUN: not toast-run %t/declaration.mlir --print-results > /dev/full 2> %t/full.err
// RUN: FileCheck %s --check-prefix=FULL < %t/full.err
// FULL: toast-run: cannot write the results: No space left on device

// RUN: not toast-run %t/malformed-check.mlir 2>&1 | FileCheck %s --check-prefix=MALFORMED
// MALFORMED: malformed-check.mlir:3:3: error: toast-run: malformed check: @check.expect_eq takes two tensors (actual, expected) and has no results, got 1 operands and 0 results

// RUN: not toast-run %t/check-types.mlir 2>&1 | FileCheck %s --check-prefix=CHECKTYPES
// CHECKTYPES: check-types.mlir:4:3: error: toast-run: malformed check: @check.expect_close compares 'tensor<2xf32>' with 'tensor<2xf64>' (the types must be equal)

// RUN: not toast-run %t/philox.mlir 2>&1 | FileCheck %s --check-prefix=PHILOX
// PHILOX: philox.mlir:3:12: error: toast-run: PHILOX needs a 2- or 3-element 64-bit state

// RUN: not toast-run %t/rng-bounds.mlir 2>&1 | FileCheck %s --check-prefix=RNGBOUNDS
// RNGBOUNDS: rng-bounds.mlir:5:8: error: toast-run: rng UNIFORM needs a < b, got a = 3, b = 3

// RUN: not toast-run %t/rng-bounds.mlir --entry normal 2>&1 | FileCheck %s --check-prefix=RNGNORMAL
// RNGNORMAL: rng-bounds.mlir:12:8: error: toast-run: rng NORMAL needs a finite mean a and a finite standard deviation b >= 0, got a = 0, b = -1

// RUN: not toast-run %t/unsupported-op.mlir --entry nope 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: error: toast-run: no function named @nope to run

// RUN: not toast-run %t/no-such-file.mlir 2>&1 | FileCheck %s --check-prefix=FILE
// FILE: error: toast-run: cannot open '{{.*}}no-such-file.mlir'

// RUN: not toast-run %S/Inputs/syntax-error.mlir 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: syntax-error.mlir:2:38: error: expected ']'

// RUN: not toast-run --compare %t/elided.mlir 2>&1 | FileCheck %s --check-prefix=USAGE1
// USAGE1: toast-run: --compare needs two files (ORIGINAL PARTITIONED), got 1

// RUN: not toast-run %t/elided.mlir %t/elided.mlir 2>&1 | FileCheck %s --check-prefix=USAGE2
// USAGE2: toast-run: expected one input file, got 2 (use --compare for two)

// RUN: toast-run --help | FileCheck %s --check-prefix=HELP
// HELP: toast-run FILE [--entry NAME] [--seed N] [--print-results]
// HELP: toast-run --compare ORIGINAL PARTITIONED [--seed N] [--rtol X] [--atol X]

//--- unsupported-op.mlir
func.func @main() -> tensor<2xf32> {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  %f = func.constant @id : (tensor<2xf32>) -> tensor<2xf32>
  %b = func.call_indirect %f(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %b : tensor<2xf32>
}
func.func private @id(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
//--- unsupported-target.mlir
func.func @main() -> tensor<2xf32> {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  %b = stablehlo.custom_call @my.kernel(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %b : tensor<2xf32>
}
//--- unsupported-type.mlir
func.func @main() -> tensor<2xf8E4M3FN> {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  %b = stablehlo.convert %a : (tensor<2xf32>) -> tensor<2xf8E4M3FN>
  return %b : tensor<2xf8E4M3FN>
}
//--- unsupported-arg.mlir
func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
}
//--- elided.mlir
func.func @main() -> tensor<2xf32> {
  %a = stablehlo.constant dense_resource<__elided__> : tensor<2xf32>
  return %a : tensor<2xf32>
}
//--- missing-blob.mlir
func.func @main() -> tensor<2xf32> {
  %a = stablehlo.constant dense_resource<blob1> : tensor<2xf32>
  return %a : tensor<2xf32>
}
//--- declaration.mlir
func.func private @decl(tensor<2xf32>) -> tensor<2xf32>
func.func @main() -> tensor<2xf32> {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  return %a : tensor<2xf32>
}
//--- malformed-check.mlir
func.func @main() {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  stablehlo.custom_call @check.expect_eq(%a) {has_side_effect = true} : (tensor<2xf32>) -> ()
  return
}
//--- check-types.mlir
func.func @main() {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  %b = stablehlo.constant dense<1.0> : tensor<2xf64>
  stablehlo.custom_call @check.expect_close(%a, %b) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf64>) -> ()
  return
}
//--- philox.mlir
func.func @main() -> tensor<4xui32> {
  %s = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xui64>
  %n, %b = stablehlo.rng_bit_generator %s, algorithm = PHILOX : (tensor<4xui64>) -> (tensor<4xui64>, tensor<4xui32>)
  return %b : tensor<4xui32>
}
//--- rng-bounds.mlir
func.func @main() -> tensor<4xi32> {
  %a = stablehlo.constant dense<3> : tensor<i32>
  %n = stablehlo.constant dense<[4]> : tensor<1xi64>
  // The specification leaves a >= b undefined; the interpreter refuses it.
  %r = stablehlo.rng %a, %a, %n, distribution = UNIFORM : (tensor<i32>, tensor<i32>, tensor<1xi64>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}
func.func @normal() -> tensor<4xf32> {
  %a = stablehlo.constant dense<0.0> : tensor<f32>
  %b = stablehlo.constant dense<-1.0> : tensor<f32>
  %n = stablehlo.constant dense<[4]> : tensor<1xi64>
  %r = stablehlo.rng %a, %b, %n, distribution = NORMAL : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
