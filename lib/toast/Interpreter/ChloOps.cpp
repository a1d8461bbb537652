//===- ChloOps.cpp - CHLO special functions and top_k ---------------------===//
//
// CHLO's elementwise special functions computed in double and rounded once
// to the element type, next_after on the bit patterns of the element type,
// and top_k (stable: equal values keep their index order; NaN sorts above
// +inf as in a total order).
//
//===----------------------------------------------------------------------===//

#include "OpImpl.h"
#include "SpecialFunctions.h"

#include "toast/Dialect/CHLO/IR/ChloOps.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

using namespace mlir;
using namespace toast::interp;
using namespace toast::interp::detail;

namespace {
using FloatFn = double (*)(double);
using FloatFn2 = double (*)(double, double);

LogicalResult badType(Operation *op, const Tensor &t) {
  return op->emitError("toast-run: unsupported element type ")
         << t.getElementType().getType() << " for '" << op->getName() << "'";
}

template <FloatFn F>
LogicalResult evalFloatUnary(Interpreter &, Operation *op,
                             ArrayRef<Tensor> operands,
                             SmallVectorImpl<Tensor> &results) {
  const Tensor &x = operands[0];
  if (!x.getElementType().isFloat())
    return badType(op, x);
  Tensor result = makeResult(op);
  x.visitFloats([&](auto in) {
    result.generateFloats([&](int64_t i) { return F(in[i]); });
  });
  results.push_back(std::move(result));
  return success();
}

template <FloatFn2 F>
LogicalResult evalFloatBinary(Interpreter &, Operation *op,
                              ArrayRef<Tensor> operands,
                              SmallVectorImpl<Tensor> &results) {
  const Tensor &a = operands[0], &b = operands[1];
  if (!a.getElementType().isFloat())
    return badType(op, a);
  Tensor result = makeResult(op);
  result.generateFloats(
      [&](int64_t i) { return F(a.getFloat(i), b.getFloat(i)); });
  results.push_back(std::move(result));
  return success();
}

double fAcos(double x) { return std::acos(x); }
double fAcosh(double x) { return std::acosh(x); }
double fAsin(double x) { return std::asin(x); }
double fAsinh(double x) { return std::asinh(x); }
double fAtan(double x) { return std::atan(x); }
double fAtanh(double x) { return std::atanh(x); }
double fCosh(double x) { return std::cosh(x); }
double fSinh(double x) { return std::sinh(x); }
double fTan(double x) { return std::tan(x); }
double fErf(double x) { return std::erf(x); }
double fErfc(double x) { return std::erfc(x); }
double fLgamma(double x) { return std::lgamma(x); }
double fPolygamma(double n, double x) { return special::polygamma(n, x); }
double fZeta(double s, double q) { return special::zeta(s, q); }

/// is_inf / is_neg_inf / is_pos_inf: `Sign` 0 for both infinities.
template <int Sign>
LogicalResult evalIsInf(Interpreter &, Operation *op, ArrayRef<Tensor> operands,
                        SmallVectorImpl<Tensor> &results) {
  const Tensor &x = operands[0];
  if (!x.getElementType().isFloat())
    return badType(op, x);
  Tensor result = makeResult(op);
  for (int64_t i = 0, n = x.getNumElements(); i < n; ++i) {
    double v = x.getFloat(i);
    bool inf = std::isinf(v) && (Sign == 0 || (Sign < 0) == (v < 0));
    result.setInt(i, inf);
  }
  results.push_back(std::move(result));
  return success();
}

LogicalResult evalSquare(Interpreter &, Operation *op,
                         ArrayRef<Tensor> operands,
                         SmallVectorImpl<Tensor> &results) {
  const Tensor &x = operands[0];
  Tensor result = makeResult(op);
  for (int64_t i = 0, n = x.getNumElements(); i < n; ++i) {
    if (x.getElementType().isFloat())
      result.setFloat(i, x.getFloat(i) * x.getFloat(i));
    else if (x.getElementType().isComplex())
      result.setComplex(i, x.getComplex(i) * x.getComplex(i));
    else
      result.setInt(i, int64_t(uint64_t(x.getInt(i)) * uint64_t(x.getInt(i))));
  }
  results.push_back(std::move(result));
  return success();
}

LogicalResult evalConj(Interpreter &, Operation *op, ArrayRef<Tensor> operands,
                       SmallVectorImpl<Tensor> &results) {
  const Tensor &x = operands[0];
  if (!x.getElementType().isComplex()) {
    results.push_back(x);
    return success();
  }
  Tensor result = makeResult(op);
  for (int64_t i = 0, n = x.getNumElements(); i < n; ++i)
    result.setComplex(i, std::conj(x.getComplex(i)));
  results.push_back(std::move(result));
  return success();
}

/// The next representable value after `x` towards `y`, on the bit
/// patterns of `format`.
double nextAfter(double x, double y, FloatFormat format, unsigned width) {
  if (std::isnan(x) || std::isnan(y))
    return std::numeric_limits<double>::quiet_NaN();
  if (x == y)
    return y;
  if (x == 0.0) // The smallest subnormal with the sign of y.
    return bitsToFloat((uint64_t(std::signbit(y)) << (width - 1)) | 1, format);
  uint64_t bits = floatToBits(x, format);
  bool awayFromZero = (x < y) == (x > 0);
  bits = awayFromZero ? bits + 1 : bits - 1;
  return bitsToFloat(bits, format);
}

LogicalResult evalNextAfter(Interpreter &, Operation *op,
                            ArrayRef<Tensor> operands,
                            SmallVectorImpl<Tensor> &results) {
  const Tensor &a = operands[0], &b = operands[1];
  const ElementType &type = a.getElementType();
  if (!type.isFloat())
    return badType(op, a);
  Tensor result = makeResult(op);
  // Exact values of the type: the rounding keeps them.
  result.generateFloats([&](int64_t i) {
    return nextAfter(a.getFloat(i), b.getFloat(i), type.getFloatFormat(),
                     type.getBitWidth());
  });
  results.push_back(std::move(result));
  return success();
}

int64_t totalOrderKey(double x) {
  int64_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  return bits < 0 ? bits ^ INT64_MAX : bits;
}

LogicalResult evalTopK(Interpreter &, Operation *op, ArrayRef<Tensor> operands,
                       SmallVectorImpl<Tensor> &results) {
  const Tensor &x = operands[0];
  const ElementType &type = x.getElementType();
  if (type.isComplex())
    return badType(op, x);
  Tensor values = makeResult(op, 0), indices = makeResult(op, 1);
  int64_t n = x.getRank() ? x.getDim(x.getRank() - 1) : 1;
  int64_t k = values.getRank() ? values.getDim(values.getRank() - 1) : 1;
  int64_t rows = n ? x.getNumElements() / n : 0;
  SmallVector<int64_t> order(n);
  for (int64_t row = 0; row < rows; ++row) {
    int64_t base = row * n;
    std::iota(order.begin(), order.end(), 0);
    auto greater = [&](int64_t a, int64_t b) {
      if (type.isFloat())
        return totalOrderKey(x.getFloat(base + a)) >
               totalOrderKey(x.getFloat(base + b));
      if (type.isSignedInt())
        return x.getInt(base + a) > x.getInt(base + b);
      return x.getUInt(base + a) > x.getUInt(base + b);
    };
    std::stable_sort(order.begin(), order.end(), greater);
    for (int64_t j = 0; j < k; ++j) {
      values.copyElement(row * k + j, x, base + order[j]);
      indices.setInt(row * k + j, order[j]);
    }
  }
  results.push_back(std::move(values));
  results.push_back(std::move(indices));
  return success();
}
} // namespace

void toast::interp::detail::registerChloOps(OpRegistry &r) {
  r.add("chlo.acos", evalFloatUnary<fAcos>);
  r.add("chlo.acosh", evalFloatUnary<fAcosh>);
  r.add("chlo.asin", evalFloatUnary<fAsin>);
  r.add("chlo.asinh", evalFloatUnary<fAsinh>);
  r.add("chlo.atan", evalFloatUnary<fAtan>);
  r.add("chlo.atanh", evalFloatUnary<fAtanh>);
  r.add("chlo.bessel_i1e", evalFloatUnary<special::besselI1e>);
  r.add("chlo.conj", evalConj);
  r.add("chlo.cosh", evalFloatUnary<fCosh>);
  r.add("chlo.digamma", evalFloatUnary<special::digamma>);
  r.add("chlo.erf", evalFloatUnary<fErf>);
  r.add("chlo.erf_inv", evalFloatUnary<special::erfInv>);
  r.add("chlo.erfc", evalFloatUnary<fErfc>);
  r.add("chlo.is_inf", evalIsInf<0>);
  r.add("chlo.is_neg_inf", evalIsInf<-1>);
  r.add("chlo.is_pos_inf", evalIsInf<1>);
  r.add("chlo.lgamma", evalFloatUnary<fLgamma>);
  r.add("chlo.sinh", evalFloatUnary<fSinh>);
  r.add("chlo.square", evalSquare);
  r.add("chlo.tan", evalFloatUnary<fTan>);
  r.add("chlo.next_after", evalNextAfter);
  r.add("chlo.polygamma", evalFloatBinary<fPolygamma>);
  r.add("chlo.zeta", evalFloatBinary<fZeta>);
  r.add("chlo.top_k", evalTopK);
}
