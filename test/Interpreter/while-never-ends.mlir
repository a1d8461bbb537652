// A while that never ends is a located error, not a hang: toast-run stops a
// loop after a million iterations by default; --max-while-iterations sets
// the limit (0: none) and must not be negative.
// RUN: not toast-run %s 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: not toast-run %s --max-while-iterations=10 2>&1 | FileCheck %s --check-prefix=TEN
// RUN: not toast-run %s --max-while-iterations=-1 2>&1 | FileCheck %s --check-prefix=NEG

// DEFAULT: while-never-ends.mlir:[[@LINE+5]]:8: error: toast-run: while loop exceeded 1000000 iterations (--max-while-iterations; 0: no limit)
// TEN: error: toast-run: while loop exceeded 10 iterations
// NEG: toast-run: --max-while-iterations must be >= 0 (0: no limit), got -1
func.func @main() -> tensor<i32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.while(%i = %c0) : tensor<i32>
    cond {
      %t = stablehlo.constant dense<true> : tensor<i1>
      stablehlo.return %t : tensor<i1>
    } do {
      stablehlo.return %i : tensor<i32>
    }
  return %r : tensor<i32>
}
