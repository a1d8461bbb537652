//===- Compare.h - Comparing tensors with tolerances ------------*- C++ -*-===//
//
// The comparisons behind `check.expect_*` and `toast-run --compare`.
//
// Tolerances of the checks (an element passes when |actual - expected| <=
// atol + rtol * |expected|, NaN matches NaN, infinities match exactly):
//
//   check             f64/f32/complex   f16        bf16     integers, i1
//   expect_eq         exact             exact      exact    exact
//   expect_almost_eq  1e-4 / 1e-4       1e-3       1e-2     exact
//   expect_close      1e-4 / 1e-4       2e-3       2e-2     exact
//
// `expect_almost_eq` follows StableHLO's reference checker (1e-4); it scales
// with the machine epsilon of the narrow types (about 8 ulp for f16 and
// 2.5 ulp for bf16). `expect_close` is what the StableHLO test data uses
// for results JAX computed on CPU with its own approximations of the
// special functions (lgamma, erf_inv, ...) and its own summation order, so
// it allows a few ulp more for the narrow types; docs/interpreter.md
// records how these were chosen from the corpus.
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

} // namespace toast::interp

#endif // TOAST_INTERPRETER_COMPARE_H
