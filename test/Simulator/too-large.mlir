// A tensor of 2^62 bytes or more would wrap the 64-bit byte counts the
// simulator and the search sum (this one priced as 0 bytes and 0 s): a
// located error instead.
// RUN: not toast-opt %s --partir-simulate=device=a100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIM
// RUN: not toast-opt %s --toast-auto-partition="mesh=B=2 rollouts=5 budget-s=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO

// SIM: too-large.mlir:[[@LINE+3]]:8: error: type 'tensor<16x4611686018427387904xf32>' has 2^62 bytes or more, past what 64-bit byte counts can sum
// AUTO: too-large.mlir:[[@LINE+2]]:8: error: automatic partition: type 'tensor<16x4611686018427387904xf32>' has 2^62 bytes or more
func.func @main(%a: tensor<16x4611686018427387904xf32>) -> tensor<16x4611686018427387904xf32> {
  %b = stablehlo.tanh %a : tensor<16x4611686018427387904xf32>
  return %b : tensor<16x4611686018427387904xf32>
}
