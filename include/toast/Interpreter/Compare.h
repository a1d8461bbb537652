//===- Compare.h - Comparing tensors with tolerances ------------*- C++ -*-===//
//
// The comparisons behind `check.expect_*` and `toast-run --compare`.
//
// Tolerances of the checks: an element passes when |actual - expected| <=
// tol + tol * |expected| (tol is both the absolute and the relative
// tolerance); NaN matches NaN, infinities must match exactly, integers and
// i1 always compare exactly.
//
//   check             f64     f32     f16              bf16
//   expect_eq         exact   exact   exact            exact
//   expect_close      1e-12   1e-5    2 eps = 1.95e-3  2 eps = 1.56e-2
//   expect_almost_eq  1e-4    1e-4    1e-3             1e-2
//
// How they were chosen: the StableHLO test data compares our results with
// what JAX computed on CPU. `expect_close` is its default check; measured
// over the corpus, the largest error in units of eps * (1 + |expected|) is
// 1.6 for f64, 23 for f32 (triangular_solve; 4.4 otherwise), 0.94 for f16
// and 0.66 for bf16, so "close" means 2 ulp for the narrow types, about
// 4x the worst case for f32, and 1e-12 for f64 (the worst case is 4e-16;
// the margin absorbs other math libraries).
// `expect_almost_eq` marks results of approximate algorithms (XLA's
// digamma, lgamma, convolutions with reassociated sums): the worst cases
// are 2857 eps for f64 digamma and 137 eps for f32 convolutions, so it uses
// StableHLO's 1e-4, scaled to about 8 ulp for f16 and 1.3 ulp for bf16.
// Run `toast-run --report-check-errors` to see the errors of every check.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_INTERPRETER_COMPARE_H
#define TOAST_INTERPRETER_COMPARE_H

#include "toast/Interpreter/Interpreter.h"
#include "toast/Interpreter/Tensor.h"

namespace toast::interp {

/// Absolute and relative tolerance.
struct Tolerance {
  double atol = 0.0;
  double rtol = 0.0;
};

/// The tolerance of a check kind for an element type.
Tolerance getCheckTolerance(CheckKind kind, const ElementType &type);

/// Whether `actual` is within `tol` of `expected` (NaN matches NaN,
/// infinities must match exactly).
bool withinTolerance(double actual, double expected, Tolerance tol);

/// Where two tensors of one type differ.
struct Mismatch {
  /// Flat index of the first differing element, or -1 when none differs.
  int64_t firstIndex = -1;
  /// Number of differing elements.
  int64_t count = 0;
};

/// Compares `actual` with `expected` (same type) elementwise: exactly for
/// integers and exact checks, else within `tol`.
Mismatch compareTensors(const Tensor &actual, const Tensor &expected,
                        Tolerance tol, bool exact);

/// Error statistics of `actual` against `reference` (same type).
struct ErrorStats {
  double maxAbsError = 0.0;
  /// max |a - r| / |r| over elements with r != 0.
  double maxRelError = 0.0;
  /// Elements outside atol + rtol * |r|.
  int64_t numOutside = 0;
  /// Flat index of the first element outside the tolerance, or -1.
  int64_t firstOutside = -1;
  /// Elements that are NaN in exactly one of the two.
  int64_t nanMismatches = 0;
};

ErrorStats computeErrorStats(const Tensor &actual, const Tensor &reference,
                             Tolerance tol);

/// The largest finite |element| of a float tensor (real and imaginary parts
/// of complex ones), 0 for integer tensors and empty ones.
double getMaxMagnitude(const Tensor &tensor);

/// The tolerance of a differential comparison: every element within
/// atol + rtol * max|reference| (norm-wise). A partitioned program adds
/// partial sums in another order, so an element that cancels to nearly
/// zero may differ from the original by much more than rtol of itself
/// while the result as a whole agrees to rtol.
Tolerance getNormwiseTolerance(const Tensor &reference, Tolerance tol);

} // namespace toast::interp

#endif // TOAST_INTERPRETER_COMPARE_H
