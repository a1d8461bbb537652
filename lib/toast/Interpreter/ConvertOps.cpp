//===- ConvertOps.cpp - Comparisons and element type conversions ----------===//
//
// stablehlo.compare (FLOAT, TOTALORDER, SIGNED, UNSIGNED), convert,
// bitcast_convert (including width changes, little-endian element order)
// and reduce_precision.
//
//===----------------------------------------------------------------------===//

#include "OpImpl.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

#include "llvm/ADT/bit.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace toast::interp;
using namespace toast::interp::detail;
namespace hlo = toast::stablehlo;

namespace {

//===--- compare ---------------------------------------------------------===//

/// A key whose signed order is the IEEE total order of doubles (-NaN < -inf
/// < ... < -0 < +0 < ... < inf < NaN).
int64_t totalOrderKey(double x) {
  int64_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  return bits < 0 ? bits ^ INT64_MAX : bits;
}

template <typename T>
bool compareValues(hlo::ComparisonDirection dir, T a, T b) {
  switch (dir) {
  case hlo::ComparisonDirection::EQ:
    return a == b;
  case hlo::ComparisonDirection::NE:
    return a != b;
  case hlo::ComparisonDirection::GE:
    return a >= b;
  case hlo::ComparisonDirection::GT:
    return a > b;
  case hlo::ComparisonDirection::LE:
    return a <= b;
  case hlo::ComparisonDirection::LT:
    return a < b;
  }
  return false;
}

LogicalResult evalCompare(Interpreter &, Operation *op,
                          ArrayRef<Tensor> operands,
                          SmallVectorImpl<Tensor> &results) {
  auto cmp = cast<hlo::CompareOp>(op);
  hlo::ComparisonDirection dir = cmp.getComparisonDirection();
  const Tensor &a = operands[0], &b = operands[1];
  const ElementType &type = a.getElementType();
  hlo::ComparisonType kind;
  if (auto attr = cmp.getCompareType())
    kind = *attr;
  else
    kind = hlo::ComparisonType::NOTYPE;
  if (kind == hlo::ComparisonType::NOTYPE)
    kind = type.isFloatLike()   ? hlo::ComparisonType::FLOAT
           : type.isSignedInt() ? hlo::ComparisonType::SIGNED
                                : hlo::ComparisonType::UNSIGNED;
  Tensor result = makeResult(op);
  MutableArrayRef<int64_t> out = result.mutableInts();
  int64_t n = a.getNumElements();
  if (type.isComplex()) {
    if (dir != hlo::ComparisonDirection::EQ &&
        dir != hlo::ComparisonDirection::NE)
      return op->emitError("toast-run: complex numbers compare only for "
                           "EQ and NE");
    for (int64_t i = 0; i < n; ++i)
      out[i] = (a.getComplex(i) == b.getComplex(i)) ==
               (dir == hlo::ComparisonDirection::EQ);
  } else if (type.isFloat()) {
    bool total = kind == hlo::ComparisonType::TOTALORDER;
    for (int64_t i = 0; i < n; ++i) {
      double x = a.getFloat(i), y = b.getFloat(i);
      out[i] = total ? compareValues(dir, totalOrderKey(x), totalOrderKey(y))
                     : compareValues(dir, x, y);
    }
  } else if (kind == hlo::ComparisonType::SIGNED) {
    // Values of unsigned types compared as SIGNED use their top bit as sign.
    unsigned width = type.getBitWidth();
    for (int64_t i = 0; i < n; ++i)
      out[i] = compareValues(dir, wrapInteger(a.getInt(i), width, true),
                             wrapInteger(b.getInt(i), width, true));
  } else {
    for (int64_t i = 0; i < n; ++i)
      out[i] = compareValues(dir, a.getBits(i), b.getBits(i));
  }
  results.push_back(std::move(result));
  return success();
}

//===--- convert ---------------------------------------------------------===//

/// An integer magnitude as a double that rounds correctly to any format
/// narrower than f64: exact below 2^53, else truncated to 53 bits with the
/// dropped bits ORed into the last one ("round to odd"), which keeps ties
/// and directions intact for a second rounding to at most 51 bits.
double integerForRounding(uint64_t magnitude) {
  if (magnitude < (uint64_t(1) << 53))
    return static_cast<double>(magnitude);
  int shift = 64 - llvm::countl_zero(magnitude) - 53;
  uint64_t kept = magnitude >> shift;
  if (magnitude & ((uint64_t(1) << shift) - 1))
    kept |= 1;
  return std::ldexp(static_cast<double>(kept), shift);
}

/// Element `i` of the integer tensor `x` as the nearest value of `format`.
double integerToFloat(const Tensor &x, int64_t i, FloatFormat format) {
  const ElementType &type = x.getElementType();
  bool negative = type.isSignedInt() && x.getInt(i) < 0;
  uint64_t magnitude = negative ? 0 - x.getUInt(i) : x.getUInt(i);
  double value = format == FloatFormat::F64
                     ? static_cast<double>(magnitude)
                     : roundToFormat(integerForRounding(magnitude), format);
  return negative ? -value : value;
}

LogicalResult evalConvert(Interpreter &, Operation *op,
                          ArrayRef<Tensor> operands,
                          SmallVectorImpl<Tensor> &results) {
  const Tensor &x = operands[0];
  const ElementType &from = x.getElementType();
  Tensor result = makeResult(op);
  const ElementType &to = result.getElementType();
  int64_t n = x.getNumElements();
  if (from.isFloat() && to.isFloat()) {
    // What setFromDouble does per element, without looking up the kind
    // and the storage each time (a decode loop converts its weights every
    // step).
    x.visitFloats([&](auto in) {
      result.generateFloats([&](int64_t i) { return in[i]; });
    });
    results.push_back(std::move(result));
    return success();
  }
  for (int64_t i = 0; i < n; ++i) {
    if (from.isIntegerLike()) {
      if (to.isIntegerLike())
        result.setInt(i, x.getInt(i));
      else if (to.isFloat())
        result.setFloat(i, integerToFloat(x, i, to.getFloatFormat()));
      else
        result.setComplex(i, {integerToFloat(x, i, to.getFloatFormat()), 0.0});
    } else if (from.isFloat()) {
      if (to.isComplex())
        result.setComplex(i, {x.getFloat(i), 0.0});
      else
        result.setFromDouble(i, x.getFloat(i));
    } else { // complex
      if (to.isComplex())
        result.setComplex(i, x.getComplex(i));
      else if (to.isBool())
        result.setInt(i, x.getComplex(i) != std::complex<double>(0.0, 0.0));
      else
        result.setFromDouble(i, x.getComplex(i).real());
    }
  }
  results.push_back(std::move(result));
  return success();
}

//===--- bitcast_convert -------------------------------------------------===//

LogicalResult evalBitcastConvert(Interpreter &, Operation *op,
                                 ArrayRef<Tensor> operands,
                                 SmallVectorImpl<Tensor> &results) {
  const Tensor &x = operands[0];
  Tensor result = makeResult(op);
  if (x.getElementType().isComplex() || result.getElementType().isComplex())
    return op->emitError("toast-run: bitcast_convert of complex numbers is "
                         "not supported");
  unsigned fromBits = x.getElementType().getBitWidth();
  unsigned toBits = result.getElementType().getBitWidth();
  if (fromBits == toBits) {
    for (int64_t i = 0, n = x.getNumElements(); i < n; ++i)
      result.setBits(i, x.getBits(i));
  } else if (fromBits > toBits) {
    // Each operand element becomes `ratio` result elements, least
    // significant part first.
    unsigned ratio = fromBits / toBits;
    uint64_t mask = (uint64_t(1) << toBits) - 1;
    for (int64_t i = 0, n = x.getNumElements(); i < n; ++i) {
      uint64_t bits = x.getBits(i);
      for (unsigned j = 0; j < ratio; ++j)
        result.setBits(i * ratio + j, (bits >> (j * toBits)) & mask);
    }
  } else {
    unsigned ratio = toBits / fromBits;
    for (int64_t i = 0, n = result.getNumElements(); i < n; ++i) {
      uint64_t bits = 0;
      for (unsigned j = 0; j < ratio; ++j)
        bits |= x.getBits(i * ratio + j) << (j * fromBits);
      result.setBits(i, bits);
    }
  }
  results.push_back(std::move(result));
  return success();
}

//===--- reduce_precision ------------------------------------------------===//

/// Rounds `x` to a format with `exponentBits` and `mantissaBits` (ties to
/// even); overflow gives infinity and values below the smallest normal
/// number flush to zero, as XLA does.
double reducePrecision(double x, int exponentBits, int mantissaBits) {
  if (std::isnan(x) || std::isinf(x) || x == 0.0)
    return x;
  if (mantissaBits < 52) {
    int exponent = std::ilogb(x);
    int quantum = exponent - mantissaBits;
    x = std::ldexp(std::nearbyint(std::ldexp(x, -quantum)), quantum);
  }
  if (exponentBits < 11) {
    int bias = (1 << (exponentBits - 1)) - 1;
    double maxFinite =
        std::ldexp(2.0 - std::ldexp(1.0, -std::min(mantissaBits, 52)), bias);
    double minNormal = std::ldexp(1.0, 1 - bias);
    if (std::fabs(x) > maxFinite)
      return std::copysign(std::numeric_limits<double>::infinity(), x);
    if (std::fabs(x) < minNormal)
      return std::copysign(0.0, x);
  }
  return x;
}

LogicalResult evalReducePrecision(Interpreter &, Operation *op,
                                  ArrayRef<Tensor> operands,
                                  SmallVectorImpl<Tensor> &results) {
  auto rp = cast<hlo::ReducePrecisionOp>(op);
  const Tensor &x = operands[0];
  if (!x.getElementType().isFloat())
    return op->emitError("toast-run: reduce_precision needs floats");
  int exponentBits = rp.getExponentBits(), mantissaBits = rp.getMantissaBits();
  Tensor result = makeResult(op);
  for (int64_t i = 0, n = x.getNumElements(); i < n; ++i)
    result.setFloat(i,
                    reducePrecision(x.getFloat(i), exponentBits, mantissaBits));
  results.push_back(std::move(result));
  return success();
}
} // namespace

void toast::interp::detail::registerConvertOps(OpRegistry &r) {
  r.add("stablehlo.compare", evalCompare);
  r.add("stablehlo.convert", evalConvert);
  r.add("stablehlo.bitcast_convert", evalBitcastConvert);
  r.add("stablehlo.reduce_precision", evalReducePrecision);
}
