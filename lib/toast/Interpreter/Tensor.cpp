//===- Tensor.cpp - Runtime tensor values of the interpreter -------------===//
//
// Element types, float rounding and bit patterns, integer wrapping, and the
// Tensor value class. See Tensor.h for the storage invariants.
//
//===----------------------------------------------------------------------===//

#include "toast/Interpreter/Tensor.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace toast::interp;

//===----------------------------------------------------------------------===//
// Float formats
//===----------------------------------------------------------------------===//

namespace {
/// Parameters of an IEEE-style binary format.
struct FormatInfo {
  int mantissaBits;
  int exponentBits;
  int bias;
  double maxFinite;
};

FormatInfo infoOf(FloatFormat format) {
  switch (format) {
  case FloatFormat::F16:
    return {10, 5, 15, 65504.0};
  case FloatFormat::BF16:
    return {7, 8, 127, 0x1.fep127}; // (2 - 2^-7) * 2^127 = 255 * 2^120
  case FloatFormat::F32:
    return {23, 8, 127, std::numeric_limits<float>::max()};
  case FloatFormat::F64:
    return {52, 11, 1023, std::numeric_limits<double>::max()};
  }
  return {52, 11, 1023, std::numeric_limits<double>::max()};
}

uint64_t doubleBits(double x) {
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  return bits;
}

double doubleFromBits(uint64_t bits) {
  double x;
  std::memcpy(&x, &bits, sizeof(x));
  return x;
}
} // namespace

bool toast::interp::exceedsMaxElements(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t size : shape) {
    if (size == 0)
      return false;
    if (size < 0 || size > kMaxTensorElements / count)
      return true;
    count *= size;
  }
  return false;
}

float toast::interp::detail::narrowNaN(double x) {
  uint64_t bits = doubleBits(x);
  uint32_t mantissa = static_cast<uint32_t>(bits >> 29 & 0x7FFFFF);
  // A payload only in the low bits a float drops: a quiet NaN.
  uint32_t single = static_cast<uint32_t>(bits >> 63) << 31 | 0x7F800000u |
                    (mantissa ? mantissa : 0x400000u);
  float out;
  std::memcpy(&out, &single, sizeof(out));
  return out;
}

double toast::interp::detail::roundToFormatAny(double x, FloatFormat format) {
  if (format == FloatFormat::F64 || std::isnan(x))
    return x;
  if (format == FloatFormat::F32)
    return static_cast<double>(static_cast<float>(x));
  if (x == 0.0 || std::isinf(x))
    return x;
  // Round to a multiple of the target format's last mantissa bit at x's
  // exponent (its quantum), ties to even.
  FormatInfo info = infoOf(format);
  int minExponent = 1 - info.bias;
  uint64_t bits = doubleBits(x);
  int biased = static_cast<int>(bits >> 52 & 0x7ff);
  double rounded;
  if (biased == 0) {
    // A subnormal double: scale so that the quantum is the units place,
    // round to an integer (ties to even under the default rounding mode)
    // and scale back; powers of two scale exactly.
    int quantum = std::max(std::ilogb(x), minExponent) - info.mantissaBits;
    rounded = std::ldexp(std::nearbyint(std::ldexp(x, -quantum)), quantum);
  } else {
    // The same on the 53-bit significand as an integer, without the libm
    // calls (f16 and bf16 programs round every element of every op).
    int exponent = biased - 1023;
    int quantum = std::max(exponent, minExponent) - info.mantissaBits;
    int drop = quantum - (exponent - 52); // low significand bits below it
    if (drop <= 0) {
      rounded = x;
    } else {
      uint64_t significand =
          (bits & ((uint64_t(1) << 52) - 1)) | (uint64_t(1) << 52);
      uint64_t kept = 0;
      if (drop < 64) {
        kept = significand >> drop;
        uint64_t rest = significand & ((uint64_t(1) << drop) - 1);
        uint64_t half = uint64_t(1) << (drop - 1);
        kept += rest > half || (rest == half && (kept & 1));
      }
      // kept <= 2^53 and 2^quantum are exact; their product may overflow
      // to infinity, as the scaling above would.
      double scale =
          doubleFromBits(static_cast<uint64_t>(quantum + 1023) << 52);
      rounded = std::copysign(static_cast<double>(kept) * scale, x);
    }
  }
  if (std::fabs(rounded) > info.maxFinite)
    return std::copysign(std::numeric_limits<double>::infinity(), x);
  return rounded;
}

uint64_t toast::interp::floatToBits(double x, FloatFormat format) {
  if (format == FloatFormat::F64)
    return doubleBits(x);
  FormatInfo info = infoOf(format);
  uint64_t sign = std::signbit(x) ? 1 : 0;
  uint64_t expMask = (uint64_t(1) << info.exponentBits) - 1;
  uint64_t exponent = 0, mantissa = 0;
  if (std::isnan(x)) {
    exponent = expMask;
    mantissa =
        (doubleBits(x) & ((uint64_t(1) << 52) - 1)) >> (52 - info.mantissaBits);
    if (mantissa == 0)
      mantissa = uint64_t(1) << (info.mantissaBits - 1);
  } else if (std::isinf(x)) {
    exponent = expMask;
  } else if (x != 0.0) {
    double a = std::fabs(x);
    int e = std::ilogb(a);
    int minExponent = 1 - info.bias;
    if (e >= minExponent) {
      exponent = static_cast<uint64_t>(e + info.bias);
      mantissa = static_cast<uint64_t>(std::ldexp(a, info.mantissaBits - e)) -
                 (uint64_t(1) << info.mantissaBits);
    } else {
      mantissa =
          static_cast<uint64_t>(std::ldexp(a, info.mantissaBits - minExponent));
    }
  }
  return (sign << (info.exponentBits + info.mantissaBits)) |
         (exponent << info.mantissaBits) | mantissa;
}

double toast::interp::bitsToFloat(uint64_t bits, FloatFormat format) {
  if (format == FloatFormat::F64)
    return doubleFromBits(bits);
  FormatInfo info = infoOf(format);
  uint64_t mantissa = bits & ((uint64_t(1) << info.mantissaBits) - 1);
  uint64_t expMask = (uint64_t(1) << info.exponentBits) - 1;
  uint64_t exponent = (bits >> info.mantissaBits) & expMask;
  bool negative = (bits >> (info.mantissaBits + info.exponentBits)) & 1;
  double value;
  if (exponent == expMask) {
    if (mantissa == 0)
      value = std::numeric_limits<double>::infinity();
    else // Keep the payload (and the quiet bit) in the top mantissa bits.
      return doubleFromBits((uint64_t(negative) << 63) |
                            (uint64_t(0x7FF) << 52) |
                            (mantissa << (52 - info.mantissaBits)));
  } else if (exponent == 0) {
    value = std::ldexp(static_cast<double>(mantissa),
                       1 - info.bias - info.mantissaBits);
  } else {
    value = std::ldexp(
        static_cast<double>(mantissa | (uint64_t(1) << info.mantissaBits)),
        static_cast<int>(exponent) - info.bias - info.mantissaBits);
  }
  return negative ? -value : value;
}

double toast::interp::epsilonOf(FloatFormat format) {
  return std::ldexp(1.0, -infoOf(format).mantissaBits);
}

int64_t toast::interp::wrapInteger(int64_t value, unsigned bitWidth,
                                   bool isSigned) {
  if (bitWidth >= 64)
    return value;
  uint64_t mask = (uint64_t(1) << bitWidth) - 1;
  uint64_t bits = static_cast<uint64_t>(value) & mask;
  if (isSigned && ((bits >> (bitWidth - 1)) & 1))
    bits |= ~mask;
  return static_cast<int64_t>(bits);
}

//===----------------------------------------------------------------------===//
// ElementType
//===----------------------------------------------------------------------===//

static std::optional<FloatFormat> formatOf(Type type) {
  if (type.isF16())
    return FloatFormat::F16;
  if (type.isBF16())
    return FloatFormat::BF16;
  if (type.isF32())
    return FloatFormat::F32;
  if (type.isF64())
    return FloatFormat::F64;
  return std::nullopt;
}

std::optional<ElementType> ElementType::get(Type type) {
  ElementType result;
  result.type = type;
  if (auto intType = dyn_cast<IntegerType>(type)) {
    unsigned width = intType.getWidth();
    if (width == 1) {
      result.kind = ElementKind::Bool;
      result.bitWidth = 1;
      return result;
    }
    if (width != 2 && width != 4 && width != 8 && width != 16 && width != 32 &&
        width != 64)
      return std::nullopt;
    result.kind =
        intType.isUnsigned() ? ElementKind::Unsigned : ElementKind::Signed;
    result.bitWidth = width;
    return result;
  }
  if (auto complexType = dyn_cast<ComplexType>(type)) {
    auto format = formatOf(complexType.getElementType());
    if (!format || (*format != FloatFormat::F32 && *format != FloatFormat::F64))
      return std::nullopt;
    result.kind = ElementKind::Complex;
    result.format = *format;
    result.bitWidth = *format == FloatFormat::F32 ? 32 : 64;
    return result;
  }
  if (auto format = formatOf(type)) {
    result.kind = ElementKind::Float;
    result.format = *format;
    result.single = *format != FloatFormat::F64;
    result.bitWidth = type.getIntOrFloatBitWidth();
    return result;
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

Tensor::Tensor(ElementType elementType, ArrayRef<int64_t> shape)
    : elementType(elementType), shape(shape.begin(), shape.end()) {
  numElements = 1;
  for (int64_t d : shape)
    numElements *= d;
  allocate();
}

Tensor::Tensor(RankedTensorType type)
    : Tensor(*ElementType::get(type.getElementType()), type.getShape()) {}

void Tensor::allocate() {
  storage = std::make_shared<Storage>();
  if (elementType.storesSingle())
    storage->s.assign(numElements, 0.0f);
  else if (elementType.isFloat())
    storage->f.assign(numElements, 0.0);
  else if (elementType.isComplex())
    storage->f.assign(2 * numElements, 0.0);
  else
    storage->i.assign(numElements, 0);
}

Tensor Tensor::scalarFloat(ElementType elementType, double value) {
  Tensor t(elementType, {});
  t.setFromDouble(0, value);
  return t;
}

Tensor Tensor::scalarInt(ElementType elementType, int64_t value) {
  Tensor t(elementType, {});
  if (elementType.isIntegerLike())
    t.setInt(0, value);
  else
    t.setFromDouble(0, static_cast<double>(value));
  return t;
}

Tensor Tensor::makeTuple(TupleType type, ArrayRef<Tensor> elements) {
  Tensor t;
  t.nonTensorType = type;
  t.tupleElements = std::make_shared<const std::vector<Tensor>>(
      elements.begin(), elements.end());
  return t;
}

Tensor Tensor::makeToken(Type type) {
  Tensor t;
  t.nonTensorType = type;
  return t;
}

ArrayRef<Tensor> Tensor::getTupleElements() const {
  return tupleElements ? ArrayRef<Tensor>(*tupleElements) : ArrayRef<Tensor>();
}

Type Tensor::getValueType() const {
  if (nonTensorType)
    return nonTensorType;
  return isValid() ? Type(getType()) : Type();
}

RankedTensorType Tensor::getType() const {
  return RankedTensorType::get(shape, elementType.getType());
}

SmallVector<int64_t> Tensor::getStrides() const {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = getRank() - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

int64_t Tensor::getFlatIndex(ArrayRef<int64_t> index) const {
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    flat = flat * shape[d] + index[d];
  return flat;
}

Tensor Tensor::reshaped(ArrayRef<int64_t> newShape) const {
  Tensor result = *this;
  result.shape.assign(newShape.begin(), newShape.end());
  return result;
}

void Tensor::setInt(int64_t i, int64_t v) {
  int64_t &slot = mutableInts()[i];
  if (elementType.isBool())
    slot = v != 0;
  else
    slot = wrapInteger(v, elementType.getBitWidth(), elementType.isSignedInt());
}

void Tensor::setComplex(int64_t i, std::complex<double> v) {
  MutableArrayRef<double> f = mutableFloatsAs<double>();
  f[2 * i] = roundToFormat(v.real(), elementType.getFloatFormat());
  f[2 * i + 1] = roundToFormat(v.imag(), elementType.getFloatFormat());
}

double Tensor::getAsDouble(int64_t i) const {
  switch (elementType.getKind()) {
  case ElementKind::Bool:
  case ElementKind::Signed:
    return static_cast<double>(storage->i[i]);
  case ElementKind::Unsigned:
    return static_cast<double>(static_cast<uint64_t>(storage->i[i]));
  case ElementKind::Float:
    return getFloat(i);
  case ElementKind::Complex:
    return storage->f[2 * i];
  }
  return 0.0;
}

void Tensor::setFromDouble(int64_t i, double v) {
  switch (elementType.getKind()) {
  case ElementKind::Float:
    setFloat(i, v);
    return;
  case ElementKind::Complex:
    setComplex(i, {v, 0.0});
    return;
  case ElementKind::Bool:
    mutableInts()[i] = v != 0.0;
    return;
  case ElementKind::Signed: {
    // Truncate toward zero and saturate; NaN converts to 0.
    unsigned width = elementType.getBitWidth();
    double hi = std::ldexp(1.0, width - 1); // exclusive
    int64_t value;
    if (std::isnan(v))
      value = 0;
    else if (v >= hi)
      value = static_cast<int64_t>((uint64_t(1) << (width - 1)) - 1);
    else if (v < -hi)
      value = static_cast<int64_t>(~uint64_t(0) << (width - 1));
    else
      value = static_cast<int64_t>(std::trunc(v));
    mutableInts()[i] = value;
    return;
  }
  case ElementKind::Unsigned: {
    unsigned width = elementType.getBitWidth();
    double hi = std::ldexp(1.0, width); // exclusive
    uint64_t value;
    if (std::isnan(v) || v <= 0.0)
      value = 0;
    else if (v >= hi)
      value = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
    else
      value = static_cast<uint64_t>(std::trunc(v));
    mutableInts()[i] = static_cast<int64_t>(value);
    return;
  }
  }
}

uint64_t Tensor::getBits(int64_t i) const {
  switch (elementType.getKind()) {
  case ElementKind::Float:
    return floatToBits(getFloat(i), elementType.getFloatFormat());
  case ElementKind::Complex:
    return floatToBits(storage->f[2 * i], elementType.getFloatFormat());
  default: {
    unsigned width = elementType.getBitWidth();
    uint64_t bits = static_cast<uint64_t>(storage->i[i]);
    return width >= 64 ? bits : bits & ((uint64_t(1) << width) - 1);
  }
  }
}

void Tensor::setBits(int64_t i, uint64_t bits) {
  if (elementType.isFloat()) {
    double value = bitsToFloat(bits, elementType.getFloatFormat());
    if (elementType.storesSingle())
      mutableFloatsAs<float>()[i] = narrow(value);
    else
      mutableFloatsAs<double>()[i] = value;
    return;
  }
  if (elementType.isComplex()) {
    mutableFloatsAs<double>()[2 * i] =
        bitsToFloat(bits, elementType.getFloatFormat());
    return;
  }
  setInt(i, static_cast<int64_t>(bits));
}

void Tensor::copyElement(int64_t dstIndex, const Tensor &src,
                         int64_t srcIndex) {
  if (elementType.isFloat() && src.elementType != elementType) {
    // Values of a region typed wider or narrower than what it was given
    // (a reduce of f32 values with an f64 or bf16 body): converted.
    setFloat(dstIndex, src.getFloat(srcIndex));
  } else if (elementType.storesSingle()) {
    mutableFloatsAs<float>()[dstIndex] = src.storage->s[srcIndex];
  } else if (elementType.isFloat()) {
    mutableFloatsAs<double>()[dstIndex] = src.storage->f[srcIndex];
  } else if (elementType.isComplex()) {
    MutableArrayRef<double> f = mutableFloatsAs<double>();
    f[2 * dstIndex] = src.storage->f[2 * srcIndex];
    f[2 * dstIndex + 1] = src.storage->f[2 * srcIndex + 1];
  } else {
    mutableInts()[dstIndex] = src.storage->i[srcIndex];
  }
}

static bool floatEquals(double a, double b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}

bool Tensor::elementEquals(int64_t i, const Tensor &other, int64_t j) const {
  if (elementType.isFloat())
    return floatEquals(getFloat(i), other.getFloat(j));
  if (elementType.isComplex())
    return floatEquals(storage->f[2 * i], other.storage->f[2 * j]) &&
           floatEquals(storage->f[2 * i + 1], other.storage->f[2 * j + 1]);
  return storage->i[i] == other.storage->i[j];
}

MutableArrayRef<int64_t> Tensor::mutableInts() {
  detach();
  return storage->i;
}

void Tensor::normalize() {
  if (elementType.isFloatLike()) {
    FloatFormat format = elementType.getFloatFormat();
    // A float holds every f32 value; f16 and bf16 values round further
    // (complex<f32> is stored as doubles).
    if (format == FloatFormat::F64 ||
        (format == FloatFormat::F32 && elementType.storesSingle()))
      return;
    if (elementType.storesSingle()) {
      for (float &v : mutableFloatsAs<float>())
        v = narrow(roundToFormat(widen(v), format));
      return;
    }
    for (double &v : mutableFloatsAs<double>())
      v = roundToFormat(v, format);
    return;
  }
  MutableArrayRef<int64_t> ints = mutableInts();
  if (elementType.isBool()) {
    for (int64_t &v : ints)
      v = v != 0;
    return;
  }
  unsigned width = elementType.getBitWidth();
  bool isSigned = elementType.isSignedInt();
  if (width < 64)
    for (int64_t &v : ints)
      v = wrapInteger(v, width, isSigned);
}

static std::string formatDouble(double v, FloatFormat format) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  int digits = format == FloatFormat::F64   ? 17
               : format == FloatFormat::F32 ? 9
                                            : 5;
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.*g", digits, v);
  return buffer;
}

std::string Tensor::formatElement(int64_t i) const {
  switch (elementType.getKind()) {
  case ElementKind::Bool:
    return storage->i[i] ? "true" : "false";
  case ElementKind::Signed:
    return std::to_string(storage->i[i]);
  case ElementKind::Unsigned:
    return std::to_string(static_cast<uint64_t>(storage->i[i]));
  case ElementKind::Float:
    return formatDouble(getFloat(i), elementType.getFloatFormat());
  case ElementKind::Complex:
    return "(" + formatDouble(storage->f[2 * i], elementType.getFloatFormat()) +
           ", " +
           formatDouble(storage->f[2 * i + 1], elementType.getFloatFormat()) +
           ")";
  }
  return "?";
}

std::string Tensor::formatIndex(int64_t flatIndex) const {
  SmallVector<int64_t> index(shape.size());
  for (int64_t d = getRank() - 1; d >= 0; --d) {
    index[d] = shape[d] ? flatIndex % shape[d] : 0;
    flatIndex = shape[d] ? flatIndex / shape[d] : 0;
  }
  std::string text = "[";
  for (size_t d = 0; d < index.size(); ++d)
    text += (d ? ", " : "") + std::to_string(index[d]);
  return text + "]";
}

void Tensor::print(llvm::raw_ostream &os, int64_t maxElements) const {
  if (isToken()) {
    os << nonTensorType;
    return;
  }
  if (isTuple()) {
    os << "tuple(";
    llvm::interleaveComma(*tupleElements, os, [&](const Tensor &element) {
      element.print(os, maxElements);
    });
    os << ")";
    return;
  }
  if (!isValid()) {
    os << "<invalid>";
    return;
  }
  os << getType() << " [";
  int64_t shown = std::min(numElements, maxElements);
  for (int64_t i = 0; i < shown; ++i)
    os << (i ? ", " : "") << formatElement(i);
  if (shown < numElements)
    os << ", ... (" << numElements << " elements)";
  os << "]";
}

//===----------------------------------------------------------------------===//
// IndexIterator
//===----------------------------------------------------------------------===//

IndexIterator::IndexIterator(ArrayRef<int64_t> shape)
    : shape(shape.begin(), shape.end()), current(shape.size(), 0) {
  for (int64_t d : shape)
    if (d == 0)
      finished = true;
}

void IndexIterator::next() {
  ++flatIndex;
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    if (++current[d] < shape[d])
      return;
    current[d] = 0;
  }
  finished = true;
}
