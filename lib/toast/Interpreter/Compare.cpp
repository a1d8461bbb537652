//===- Compare.cpp - Comparing tensors with tolerances --------------------===//

#include "toast/Interpreter/Compare.h"

#include <algorithm>
#include <cmath>

using namespace toast::interp;

Tolerance toast::interp::getCheckTolerance(CheckKind kind,
                                           const ElementType &type) {
  if (kind == CheckKind::Eq || type.isIntegerLike())
    return {0.0, 0.0};
  double tol = 0.0;
  FloatFormat format = type.getFloatFormat();
  if (kind == CheckKind::AlmostEq) {
    tol = format == FloatFormat::BF16  ? 1e-2
          : format == FloatFormat::F16 ? 1e-3
                                       : 1e-4;
  } else {
    tol = format == FloatFormat::F64   ? 1e-12
          : format == FloatFormat::F32 ? 1e-5
                                       : 2 * epsilonOf(format);
  }
  return {tol, tol};
}

bool toast::interp::withinTolerance(double actual, double expected,
                                    Tolerance tol) {
  if (std::isnan(actual) || std::isnan(expected))
    return std::isnan(actual) && std::isnan(expected);
  if (std::isinf(actual) || std::isinf(expected))
    return actual == expected;
  return std::fabs(actual - expected) <=
         tol.atol + tol.rtol * std::fabs(expected);
}

static bool elementMatches(const Tensor &a, const Tensor &e, int64_t i,
                           Tolerance tol, bool exact) {
  const ElementType &type = a.getElementType();
  if (exact || type.isIntegerLike())
    return a.elementEquals(i, e, i);
  if (type.isComplex())
    return withinTolerance(a.getComplex(i).real(), e.getComplex(i).real(),
                           tol) &&
           withinTolerance(a.getComplex(i).imag(), e.getComplex(i).imag(), tol);
  return withinTolerance(a.getFloat(i), e.getFloat(i), tol);
}

Mismatch toast::interp::compareTensors(const Tensor &actual,
                                       const Tensor &expected, Tolerance tol,
                                       bool exact) {
  Mismatch result;
  for (int64_t i = 0, n = actual.getNumElements(); i < n; ++i) {
    if (elementMatches(actual, expected, i, tol, exact))
      continue;
    if (result.firstIndex < 0)
      result.firstIndex = i;
    ++result.count;
  }
  return result;
}

ErrorStats toast::interp::computeErrorStats(const Tensor &actual,
                                            const Tensor &reference,
                                            Tolerance tol) {
  ErrorStats stats;
  bool complex = actual.getElementType().isComplex();
  int64_t n = actual.getNumElements();
  for (int64_t i = 0; i < n; ++i) {
    int parts = complex ? 2 : 1;
    bool outside = false;
    for (int part = 0; part < parts; ++part) {
      double a = complex ? (part ? actual.getComplex(i).imag()
                                 : actual.getComplex(i).real())
                         : actual.getAsDouble(i);
      double r = complex ? (part ? reference.getComplex(i).imag()
                                 : reference.getComplex(i).real())
                         : reference.getAsDouble(i);
      if (std::isnan(a) != std::isnan(r))
        ++stats.nanMismatches;
      if (!withinTolerance(a, r, tol))
        outside = true;
      if (std::isnan(a) || std::isnan(r) || std::isinf(a) || std::isinf(r))
        continue;
      double absError = std::fabs(a - r);
      stats.maxAbsError = std::max(stats.maxAbsError, absError);
      if (r != 0.0)
        stats.maxRelError =
            std::max(stats.maxRelError, absError / std::fabs(r));
    }
    if (outside) {
      if (stats.firstOutside < 0)
        stats.firstOutside = i;
      ++stats.numOutside;
    }
  }
  return stats;
}

double toast::interp::getMaxMagnitude(const Tensor &tensor) {
  const ElementType &type = tensor.getElementType();
  if (type.isIntegerLike())
    return 0.0;
  double result = 0.0;
  auto take = [&](double v) {
    if (std::isfinite(v))
      result = std::max(result, std::fabs(v));
  };
  for (int64_t i = 0, n = tensor.getNumElements(); i < n; ++i) {
    if (type.isComplex()) {
      take(tensor.getComplex(i).real());
      take(tensor.getComplex(i).imag());
    } else {
      take(tensor.getAsDouble(i));
    }
  }
  return result;
}

Tolerance toast::interp::getNormwiseTolerance(const Tensor &reference,
                                              Tolerance tol) {
  return {tol.atol + tol.rtol * getMaxMagnitude(reference), 0.0};
}
