//===- ElementwiseOps.cpp - Elementwise StableHLO ops ---------------------===//
//
// Unary and binary arithmetic, bitwise ops, select and clamp, with the
// StableHLO specification's semantics:
//   * floats are computed in double and rounded once to the element type;
//     maximum/minimum propagate NaN; remainder is fmod;
//   * integers wrap to their bit width; x / 0 is -1 (all ones), x % 0 is x,
//     INT_MIN / -1 is INT_MIN and INT_MIN % -1 is 0; shifts by at least the
//     bit width give 0 (or the sign for arithmetic right shifts);
//   * booleans: add/max are OR, multiply/min are AND.
// Comparisons and conversions are in ConvertOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "OpImpl.h"

#include "llvm/ADT/bit.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace toast::interp;
using namespace toast::interp::detail;

namespace {
using FloatUnaryFn = double (*)(double);
using IntUnaryFn = int64_t (*)(int64_t, const ElementType &);
using ComplexUnaryFn = std::complex<double> (*)(std::complex<double>);
using FloatBinaryFn = double (*)(double, double);
using IntBinaryFn = int64_t (*)(int64_t, int64_t, const ElementType &);
using ComplexBinaryFn = std::complex<double> (*)(std::complex<double>,
                                                 std::complex<double>);

LogicalResult unsupportedElementType(Operation *op, const Tensor &t) {
  return op->emitError("toast-run: unsupported element type ")
         << t.getElementType().getType() << " for '" << op->getName() << "'";
}

/// The signed minimum of a bit width, sign-extended.
int64_t signedMin(unsigned width) {
  return static_cast<int64_t>(~uint64_t(0) << (width - 1));
}

/// The value of an integer element as unsigned bits of its width.
uint64_t unsignedBits(int64_t v, const ElementType &type) {
  unsigned width = type.getBitWidth();
  uint64_t bits = static_cast<uint64_t>(v);
  return width >= 64 ? bits : bits & ((uint64_t(1) << width) - 1);
}

bool intLess(int64_t a, int64_t b, const ElementType &type) {
  if (type.isSignedInt())
    return a < b;
  return static_cast<uint64_t>(a) < static_cast<uint64_t>(b);
}

//===--- Float functions -------------------------------------------------===//

double fAbs(double x) { return std::fabs(x); }
double fCbrt(double x) { return std::cbrt(x); }
double fCeil(double x) { return std::ceil(x); }
double fCos(double x) { return std::cos(x); }
double fExp(double x) { return std::exp(x); }
double fExpm1(double x) { return std::expm1(x); }
double fFloor(double x) { return std::floor(x); }
double fLog(double x) { return std::log(x); }
double fLog1p(double x) { return std::log1p(x); }
double fLogistic(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double fNeg(double x) { return -x; }
double fRoundAfz(double x) { return std::round(x); }
double fRoundEven(double x) { return std::nearbyint(x); }
double fRsqrt(double x) { return 1.0 / std::sqrt(x); }
double fSign(double x) {
  if (std::isnan(x) || x == 0.0)
    return x;
  return x < 0 ? -1.0 : 1.0;
}
double fSin(double x) { return std::sin(x); }
double fSqrt(double x) { return std::sqrt(x); }
double fTan(double x) { return std::tan(x); }
double fTanh(double x) { return std::tanh(x); }

double fAdd(double a, double b) { return a + b; }
double fSub(double a, double b) { return a - b; }
double fMul(double a, double b) { return a * b; }
double fDiv(double a, double b) { return a / b; }
double fRem(double a, double b) { return std::fmod(a, b); }
double fPow(double a, double b) { return std::pow(a, b); }
double fAtan2(double a, double b) { return std::atan2(a, b); }

//===--- Integer functions -----------------------------------------------===//
// Results are wrapped to the bit width by the caller.

int64_t iAbs(int64_t x, const ElementType &t) {
  if (!t.isSignedInt())
    return x;
  return x < 0 ? static_cast<int64_t>(0 - static_cast<uint64_t>(x)) : x;
}
int64_t iNeg(int64_t x, const ElementType &) {
  return static_cast<int64_t>(0 - static_cast<uint64_t>(x));
}
int64_t iSign(int64_t x, const ElementType &t) {
  if (t.isSignedInt())
    return x < 0 ? -1 : (x > 0 ? 1 : 0);
  return x != 0;
}
int64_t iNot(int64_t x, const ElementType &t) {
  if (t.isBool())
    return x == 0;
  return ~x;
}
int64_t iPopcnt(int64_t x, const ElementType &t) {
  return llvm::popcount(unsignedBits(x, t));
}
int64_t iClz(int64_t x, const ElementType &t) {
  uint64_t bits = unsignedBits(x, t);
  if (bits == 0)
    return t.getBitWidth();
  return llvm::countl_zero(bits) - (64 - t.getBitWidth());
}

int64_t iAdd(int64_t a, int64_t b, const ElementType &) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) +
                              static_cast<uint64_t>(b));
}
int64_t iSub(int64_t a, int64_t b, const ElementType &) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) -
                              static_cast<uint64_t>(b));
}
int64_t iMul(int64_t a, int64_t b, const ElementType &) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) *
                              static_cast<uint64_t>(b));
}
int64_t iDiv(int64_t a, int64_t b, const ElementType &t) {
  if (b == 0)
    return -1;
  if (t.isSignedInt()) {
    if (b == -1 && a == signedMin(t.getBitWidth()))
      return a;
    return a / b;
  }
  return static_cast<int64_t>(static_cast<uint64_t>(a) /
                              static_cast<uint64_t>(b));
}
int64_t iRem(int64_t a, int64_t b, const ElementType &t) {
  if (b == 0)
    return a;
  if (t.isSignedInt()) {
    if (b == -1)
      return 0;
    return a % b;
  }
  return static_cast<int64_t>(static_cast<uint64_t>(a) %
                              static_cast<uint64_t>(b));
}
int64_t iMax(int64_t a, int64_t b, const ElementType &t) {
  return intLess(a, b, t) ? b : a;
}
int64_t iMin(int64_t a, int64_t b, const ElementType &t) {
  return intLess(b, a, t) ? b : a;
}
int64_t iAnd(int64_t a, int64_t b, const ElementType &) { return a & b; }
int64_t iOr(int64_t a, int64_t b, const ElementType &) { return a | b; }
int64_t iXor(int64_t a, int64_t b, const ElementType &) { return a ^ b; }
int64_t iPow(int64_t a, int64_t b, const ElementType &t) {
  if (t.isSignedInt() && b < 0) {
    if (a == 1)
      return 1;
    if (a == -1)
      return (b & 1) ? -1 : 1;
    return 0;
  }
  uint64_t base = static_cast<uint64_t>(a), result = 1;
  uint64_t exponent = unsignedBits(b, t);
  while (exponent) {
    if (exponent & 1)
      result *= base;
    base *= base;
    exponent >>= 1;
  }
  return static_cast<int64_t>(result);
}
int64_t iShl(int64_t a, int64_t b, const ElementType &t) {
  uint64_t amount = unsignedBits(b, t);
  if (amount >= t.getBitWidth())
    return 0;
  return static_cast<int64_t>(static_cast<uint64_t>(a) << amount);
}
int64_t iShrLogical(int64_t a, int64_t b, const ElementType &t) {
  uint64_t amount = unsignedBits(b, t);
  if (amount >= t.getBitWidth())
    return 0;
  return static_cast<int64_t>(unsignedBits(a, t) >> amount);
}
int64_t iShrArith(int64_t a, int64_t b, const ElementType &t) {
  uint64_t amount = unsignedBits(b, t);
  // Stored values of signed types are sign-extended; unsigned types shift
  // their top bit in as well.
  int64_t value = wrapInteger(a, t.getBitWidth(), /*isSigned=*/true);
  if (amount >= t.getBitWidth())
    return value < 0 ? -1 : 0;
  return value >> amount;
}

//===--- Complex functions -----------------------------------------------===//

std::complex<double> cNeg(std::complex<double> x) { return -x; }
std::complex<double> cExp(std::complex<double> x) { return std::exp(x); }
std::complex<double> cLog(std::complex<double> x) { return std::log(x); }
std::complex<double> cSqrt(std::complex<double> x) { return std::sqrt(x); }
std::complex<double> cSin(std::complex<double> x) { return std::sin(x); }
std::complex<double> cCos(std::complex<double> x) { return std::cos(x); }
std::complex<double> cTanh(std::complex<double> x) { return std::tanh(x); }
std::complex<double> cAdd(std::complex<double> a, std::complex<double> b) {
  return a + b;
}
std::complex<double> cSub(std::complex<double> a, std::complex<double> b) {
  return a - b;
}
std::complex<double> cMul(std::complex<double> a, std::complex<double> b) {
  return a * b;
}
std::complex<double> cDiv(std::complex<double> a, std::complex<double> b) {
  return a / b;
}
std::complex<double> cPow(std::complex<double> a, std::complex<double> b) {
  return std::pow(a, b);
}

//===--- Generic drivers -------------------------------------------------===//

template <FloatUnaryFn F, IntUnaryFn I, ComplexUnaryFn C = nullptr>
LogicalResult evalUnary(Interpreter &, Operation *op, ArrayRef<Tensor> operands,
                        SmallVectorImpl<Tensor> &results) {
  const Tensor &x = operands[0];
  const ElementType &type = x.getElementType();
  Tensor result = makeResult(op);
  int64_t n = x.getNumElements();
  bool done = false;
  if constexpr (F != nullptr) {
    if constexpr (F == fNeg || F == fAbs) {
      // Sign-bit operations, also on a signaling NaN (reading a float as
      // a double would quiet it); a region's operand typed otherwise than
      // its result (a body typed f64 or bf16 over f32 values) is converted
      // below instead.
      if (type.storesSingle() && type == result.getElementType()) {
        ArrayRef<float> in = x.floatsAs<float>();
        MutableArrayRef<float> out = result.mutableFloatsAs<float>();
        for (int64_t i = 0; i < n; ++i)
          out[i] = F == fNeg ? -in[i] : std::fabs(in[i]);
        done = true;
      }
    }
    if (type.isFloat() && !done) {
      x.visitFloats([&](auto in) {
        result.generateFloats([&](int64_t i) { return F(in[i]); });
      });
      done = true;
    }
  }
  if constexpr (I != nullptr) {
    if (type.isIntegerLike()) {
      ArrayRef<int64_t> in = x.ints();
      MutableArrayRef<int64_t> out = result.mutableInts();
      for (int64_t i = 0; i < n; ++i)
        out[i] = I(in[i], type);
      done = true;
    }
  }
  if constexpr (C != nullptr) {
    if (type.isComplex()) {
      for (int64_t i = 0; i < n; ++i)
        result.setComplex(i, C(x.getComplex(i)));
      done = true;
    }
  }
  if (!done)
    return unsupportedElementType(op, x);
  // Floats were rounded as they were written.
  if (type.isIntegerLike())
    result.normalize();
  results.push_back(std::move(result));
  return success();
}

template <FloatBinaryFn F, IntBinaryFn I, ComplexBinaryFn C = nullptr>
LogicalResult evalBinary(Interpreter &, Operation *op,
                         ArrayRef<Tensor> operands,
                         SmallVectorImpl<Tensor> &results) {
  const Tensor &a = operands[0], &b = operands[1];
  const ElementType &type = a.getElementType();
  Tensor result = makeResult(op);
  int64_t n = a.getNumElements();
  bool done = false;
  if constexpr (F != nullptr) {
    if (type.isFloat()) {
      a.visitFloats([&](auto x) {
        b.visitFloats([&](auto y) {
          result.generateFloats([&](int64_t i) { return F(x[i], y[i]); });
        });
      });
      done = true;
    }
  }
  if constexpr (I != nullptr) {
    if (type.isIntegerLike()) {
      ArrayRef<int64_t> x = a.ints(), y = b.ints();
      MutableArrayRef<int64_t> out = result.mutableInts();
      for (int64_t i = 0; i < n; ++i)
        out[i] = I(x[i], y[i], type);
      done = true;
    }
  }
  if constexpr (C != nullptr) {
    if (type.isComplex()) {
      for (int64_t i = 0; i < n; ++i)
        result.setComplex(i, C(a.getComplex(i), b.getComplex(i)));
      done = true;
    }
  }
  if (!done)
    return unsupportedElementType(op, a);
  // Floats were rounded as they were written.
  if (type.isIntegerLike())
    result.normalize();
  results.push_back(std::move(result));
  return success();
}

/// abs of a complex tensor has a real result type.
LogicalResult evalAbs(Interpreter &interp, Operation *op,
                      ArrayRef<Tensor> operands,
                      SmallVectorImpl<Tensor> &results) {
  const Tensor &x = operands[0];
  if (!x.getElementType().isComplex())
    return evalUnary<fAbs, iAbs>(interp, op, operands, results);
  Tensor result = makeResult(op);
  for (int64_t i = 0, n = x.getNumElements(); i < n; ++i)
    result.setFloat(i, std::abs(x.getComplex(i)));
  results.push_back(std::move(result));
  return success();
}

LogicalResult evalIsFinite(Interpreter &, Operation *op,
                           ArrayRef<Tensor> operands,
                           SmallVectorImpl<Tensor> &results) {
  const Tensor &x = operands[0];
  if (!x.getElementType().isFloat())
    return unsupportedElementType(op, x);
  Tensor result = makeResult(op);
  for (int64_t i = 0, n = x.getNumElements(); i < n; ++i)
    result.setInt(i, std::isfinite(x.getFloat(i)));
  results.push_back(std::move(result));
  return success();
}

/// `pred` is a scalar or has the operands' shape.
LogicalResult evalSelect(Interpreter &, Operation *op,
                         ArrayRef<Tensor> operands,
                         SmallVectorImpl<Tensor> &results) {
  const Tensor &pred = operands[0], &onTrue = operands[1],
               &onFalse = operands[2];
  Tensor result = makeResult(op);
  bool scalar = pred.getRank() == 0;
  for (int64_t i = 0, n = result.getNumElements(); i < n; ++i) {
    bool p = pred.getBool(scalar ? 0 : i);
    result.copyElement(i, p ? onTrue : onFalse, i);
  }
  results.push_back(std::move(result));
  return success();
}

/// clamp(min, x, max) = min(max(x, min), max); bounds may be scalars.
LogicalResult evalClamp(Interpreter &, Operation *op, ArrayRef<Tensor> operands,
                        SmallVectorImpl<Tensor> &results) {
  const Tensor &lo = operands[0], &x = operands[1], &hi = operands[2];
  const ElementType &type = x.getElementType();
  Tensor result = makeResult(op);
  bool loScalar = lo.getRank() == 0, hiScalar = hi.getRank() == 0;
  for (int64_t i = 0, n = x.getNumElements(); i < n; ++i) {
    int64_t li = loScalar ? 0 : i, hiIdx = hiScalar ? 0 : i;
    if (type.isFloat()) {
      result.setFloat(i, floatMin(floatMax(x.getFloat(i), lo.getFloat(li)),
                                  hi.getFloat(hiIdx)));
    } else if (type.isIntegerLike()) {
      result.setInt(i, iMin(iMax(x.getInt(i), lo.getInt(li), type),
                            hi.getInt(hiIdx), type));
    } else {
      return unsupportedElementType(op, x);
    }
  }
  results.push_back(std::move(result));
  return success();
}

LogicalResult evalComplex(Interpreter &, Operation *op,
                          ArrayRef<Tensor> operands,
                          SmallVectorImpl<Tensor> &results) {
  Tensor result = makeResult(op);
  for (int64_t i = 0, n = result.getNumElements(); i < n; ++i)
    result.setComplex(i, {operands[0].getFloat(i), operands[1].getFloat(i)});
  results.push_back(std::move(result));
  return success();
}

template <bool Imag>
LogicalResult evalRealImag(Interpreter &, Operation *op,
                           ArrayRef<Tensor> operands,
                           SmallVectorImpl<Tensor> &results) {
  const Tensor &x = operands[0];
  Tensor result = makeResult(op);
  for (int64_t i = 0, n = result.getNumElements(); i < n; ++i) {
    if (x.getElementType().isComplex())
      result.setFloat(i,
                      Imag ? x.getComplex(i).imag() : x.getComplex(i).real());
    else
      result.setFloat(i, Imag ? 0.0 : x.getFloat(i));
  }
  results.push_back(std::move(result));
  return success();
}
} // namespace

double toast::interp::detail::floatMax(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b) // +0 is larger than -0.
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

double toast::interp::detail::floatMin(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

static double fMax(double a, double b) { return floatMax(a, b); }
static double fMin(double a, double b) { return floatMin(a, b); }

void toast::interp::detail::registerElementwiseOps(OpRegistry &r) {
  r.add("stablehlo.abs", evalAbs);
  r.add("stablehlo.cbrt", evalUnary<fCbrt, nullptr>);
  r.add("stablehlo.ceil", evalUnary<fCeil, nullptr>);
  r.add("stablehlo.cosine", evalUnary<fCos, nullptr, cCos>);
  r.add("stablehlo.count_leading_zeros", evalUnary<nullptr, iClz>);
  r.add("stablehlo.exponential", evalUnary<fExp, nullptr, cExp>);
  r.add("stablehlo.exponential_minus_one", evalUnary<fExpm1, nullptr>);
  r.add("stablehlo.floor", evalUnary<fFloor, nullptr>);
  r.add("stablehlo.is_finite", evalIsFinite);
  r.add("stablehlo.log", evalUnary<fLog, nullptr, cLog>);
  r.add("stablehlo.log_plus_one", evalUnary<fLog1p, nullptr>);
  r.add("stablehlo.logistic", evalUnary<fLogistic, nullptr>);
  r.add("stablehlo.not", evalUnary<nullptr, iNot>);
  r.add("stablehlo.negate", evalUnary<fNeg, iNeg, cNeg>);
  r.add("stablehlo.popcnt", evalUnary<nullptr, iPopcnt>);
  r.add("stablehlo.round_nearest_afz", evalUnary<fRoundAfz, nullptr>);
  r.add("stablehlo.round_nearest_even", evalUnary<fRoundEven, nullptr>);
  r.add("stablehlo.rsqrt", evalUnary<fRsqrt, nullptr>);
  r.add("stablehlo.sign", evalUnary<fSign, iSign>);
  r.add("stablehlo.sine", evalUnary<fSin, nullptr, cSin>);
  r.add("stablehlo.sqrt", evalUnary<fSqrt, nullptr, cSqrt>);
  r.add("stablehlo.tan", evalUnary<fTan, nullptr>);
  r.add("stablehlo.tanh", evalUnary<fTanh, nullptr, cTanh>);

  r.add("stablehlo.add", evalBinary<fAdd, iAdd, cAdd>);
  r.add("stablehlo.subtract", evalBinary<fSub, iSub, cSub>);
  r.add("stablehlo.multiply", evalBinary<fMul, iMul, cMul>);
  r.add("stablehlo.divide", evalBinary<fDiv, iDiv, cDiv>);
  r.add("stablehlo.remainder", evalBinary<fRem, iRem>);
  r.add("stablehlo.power", evalBinary<fPow, iPow, cPow>);
  r.add("stablehlo.maximum", evalBinary<fMax, iMax>);
  r.add("stablehlo.minimum", evalBinary<fMin, iMin>);
  r.add("stablehlo.atan2", evalBinary<fAtan2, nullptr>);
  r.add("stablehlo.and", evalBinary<nullptr, iAnd>);
  r.add("stablehlo.or", evalBinary<nullptr, iOr>);
  r.add("stablehlo.xor", evalBinary<nullptr, iXor>);
  r.add("stablehlo.shift_left", evalBinary<nullptr, iShl>);
  r.add("stablehlo.shift_right_logical", evalBinary<nullptr, iShrLogical>);
  r.add("stablehlo.shift_right_arithmetic", evalBinary<nullptr, iShrArith>);

  r.add("stablehlo.select", evalSelect);
  r.add("stablehlo.clamp", evalClamp);
  r.add("stablehlo.complex", evalComplex);
  r.add("stablehlo.real", evalRealImag<false>);
  r.add("stablehlo.imag", evalRealImag<true>);
}
