//===- Tensor.h - Runtime tensor values of the interpreter ------*- C++ -*-===//
//
// The value class of Toast's reference interpreter: a shape, an element type
// and flat row-major storage.
//
// Storage follows the element kind:
//   * floats are computed as `double`s, and every write rounds to the
//     element type (round to nearest even, overflow to infinity), once,
//     so a stored value is always exactly representable: f16, bf16 and f32
//     are then stored as `float` (half the memory of a double; every value
//     of theirs is a float), f64 as `double`;
//   * integers (signed i8..i64 and unsigned ui8..ui64) are stored as
//     `int64_t` bit patterns and every write wraps to the bit width (signed
//     values are sign-extended, unsigned ones zero-extended);
//   * i1 is a boolean, stored as 0/1 in the integer storage;
//   * complex<f32>/complex<f64> are stored as (re, im) pairs of doubles.
//
// Storage is shared between copies (copy-on-write), so passing a tensor
// around, reshaping it or returning it from a function does not copy data.
//
// The same class carries the two non-tensor values of StableHLO: tuples
// (their elements, shared) and tokens (no data). They have no element type
// or storage (isValid() is false); getValueType() gives their MLIR type.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_INTERPRETER_TENSOR_H
#define TOAST_INTERPRETER_TENSOR_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <complex>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace toast::interp {

/// The arithmetic family of an element type.
enum class ElementKind { Bool, Signed, Unsigned, Float, Complex };

/// The floating-point formats the interpreter rounds to.
enum class FloatFormat { F16, BF16, F32, F64 };

/// The most elements a tensor of the interpreter may have: larger ones are
/// refused rather than risking an allocation failure (storage is 4 bytes
/// per element of f16, bf16 and f32, 8 for the others, 16 for complex).
constexpr int64_t kMaxTensorElements = int64_t(1) << 29;

/// Whether a tensor of `shape` has more than kMaxTensorElements elements
/// (without overflowing: 2^32 x 2^32 is not 0 elements here).
bool exceedsMaxElements(llvm::ArrayRef<int64_t> shape);

namespace detail {
/// roundToFormat for every value (zeros, infinities, NaNs, values outside
/// the format's normal range).
double roundToFormatAny(double x, FloatFormat format);
/// narrow for NaNs.
float narrowNaN(double x);
} // namespace detail

/// A float as a double, and a double (a float's value, or a NaN) as a
/// float, bit for bit for NaNs: a conversion would set a signaling NaN's
/// quiet bit, which element reads and writes (getFloat, setFloat, getBits,
/// setBits: bitcasts, total-order comparisons, copies) must keep (the
/// payload sits in the top bits of the mantissa, as bitsToFloat puts it).
inline double widen(float x) {
  uint32_t single;
  std::memcpy(&single, &x, sizeof(single));
  uint64_t nanBits = uint64_t(single >> 31) << 63 | uint64_t(0x7FF) << 52 |
                     uint64_t(single & 0x7FFFFF) << 29;
  double nan;
  std::memcpy(&nan, &nanBits, sizeof(nan));
  return x == x ? static_cast<double>(x) : nan;
}
inline float narrow(double x) {
  if (LLVM_LIKELY(x == x))
    return static_cast<float>(x);
  return detail::narrowNaN(x);
}

/// Rounds `x` to the nearest value of `format` (ties to even; values beyond
/// the largest finite value become infinities). NaNs are returned unchanged.
/// Inline for f32 and for values in the normal range of f16 and bf16 (f16
/// and bf16 programs round every element they write).
inline double roundToFormat(double x, FloatFormat format) {
  if (format == FloatFormat::F64)
    return x;
  if (format == FloatFormat::F32)
    return x == x ? static_cast<double>(static_cast<float>(x)) : x;
  // Normal in the format: round the double's significand at the format's
  // last bit, ties to even, in place (a carry moves into the exponent).
  bool bf16 = format == FloatFormat::BF16;
  int drop = bf16 ? 52 - 7 : 52 - 10;
  int minBiased = bf16 ? 1023 - 126 : 1023 - 14;
  int maxBiased = bf16 ? 1023 + 127 : 1023 + 15;
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  int biased = static_cast<int>(bits >> 52 & 0x7ff);
  if (biased < minBiased || biased > maxBiased)
    return detail::roundToFormatAny(x, format);
  uint64_t lsb = bits >> drop & 1;
  uint64_t rounded = (bits + ((uint64_t(1) << (drop - 1)) - 1) + lsb) &
                     ~((uint64_t(1) << drop) - 1);
  // Rounded up out of the largest binade: past the largest finite value
  // (its significand is all ones), an infinity.
  if (static_cast<int>(rounded >> 52 & 0x7ff) > maxBiased)
    return detail::roundToFormatAny(x, format);
  double out;
  std::memcpy(&out, &rounded, sizeof(out));
  return out;
}

/// The bit pattern of `x` (exactly representable in `format`) in `format`,
/// in the low bits of the result. NaN payloads are kept as far as they fit.
uint64_t floatToBits(double x, FloatFormat format);

/// The value of the bit pattern `bits` of `format`.
double bitsToFloat(uint64_t bits, FloatFormat format);

/// Machine epsilon (distance from 1 to the next value) of `format`.
double epsilonOf(FloatFormat format);

/// Wraps `value` to `bitWidth` bits: sign-extends when `isSigned`, else
/// zero-extends (the result is then the uint64 bit pattern).
int64_t wrapInteger(int64_t value, unsigned bitWidth, bool isSigned);

/// Describes a supported element type.
class ElementType {
public:
  /// The element type for `type`, or std::nullopt when the interpreter does
  /// not support it (f8 types, index, tf32, ...).
  static std::optional<ElementType> get(mlir::Type type);

  ElementKind getKind() const { return kind; }
  /// Bits of one element (for complex: of one component).
  unsigned getBitWidth() const { return bitWidth; }
  /// The float format (of the components, for complex).
  FloatFormat getFloatFormat() const { return format; }
  mlir::Type getType() const { return type; }

  bool isFloat() const { return kind == ElementKind::Float; }
  bool isComplex() const { return kind == ElementKind::Complex; }
  bool isBool() const { return kind == ElementKind::Bool; }
  bool isSignedInt() const { return kind == ElementKind::Signed; }
  bool isUnsignedInt() const { return kind == ElementKind::Unsigned; }
  /// Integers including i1: stored in the integer storage.
  bool isIntegerLike() const {
    return kind == ElementKind::Bool || kind == ElementKind::Signed ||
           kind == ElementKind::Unsigned;
  }
  /// Floats and complex numbers.
  bool isFloatLike() const { return isFloat() || isComplex(); }
  /// Floats stored as `float` (f16, bf16, f32), not as `double`.
  bool storesSingle() const { return single; }

  bool operator==(const ElementType &other) const { return type == other.type; }
  bool operator!=(const ElementType &other) const { return !(*this == other); }

private:
  ElementKind kind = ElementKind::Float;
  unsigned bitWidth = 0;
  FloatFormat format = FloatFormat::F64;
  bool single = false;
  mlir::Type type;
};

/// A tensor value: shape, element type and shared row-major storage.
class Tensor {
public:
  /// An empty placeholder (no element type); only assignable.
  Tensor() = default;
  /// A zero-filled tensor.
  Tensor(ElementType elementType, llvm::ArrayRef<int64_t> shape);
  /// A zero-filled tensor of a ranked tensor type whose element type must be
  /// supported (asserted).
  explicit Tensor(mlir::RankedTensorType type);

  /// A rank-0 tensor holding `value` (rounded/wrapped to the type).
  static Tensor scalarFloat(ElementType elementType, double value);
  static Tensor scalarInt(ElementType elementType, int64_t value);

  /// A tuple of type `type` holding `elements` (tensors, tokens or tuples
  /// of the element types of `type`).
  static Tensor makeTuple(mlir::TupleType type,
                          llvm::ArrayRef<Tensor> elements);
  /// A token of type `type` (`!stablehlo.token`).
  static Tensor makeToken(mlir::Type type);

  /// Whether this is a tensor (not a tuple, token or placeholder).
  bool isValid() const { return storage != nullptr; }
  bool isTuple() const { return tupleElements != nullptr; }
  bool isToken() const { return nonTensorType && !tupleElements; }
  /// The elements of a tuple.
  llvm::ArrayRef<Tensor> getTupleElements() const;
  /// The MLIR type of any value: getType() for a tensor, the tuple or token
  /// type otherwise, null for the placeholder.
  mlir::Type getValueType() const;
  const ElementType &getElementType() const { return elementType; }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getRank() const { return static_cast<int64_t>(shape.size()); }
  int64_t getDim(int64_t d) const { return shape[d]; }
  int64_t getNumElements() const { return numElements; }
  /// The MLIR type of this tensor.
  mlir::RankedTensorType getType() const;
  /// Row-major strides (in elements).
  llvm::SmallVector<int64_t> getStrides() const;
  /// Flat index of a multi-dimensional index.
  int64_t getFlatIndex(llvm::ArrayRef<int64_t> index) const;

  /// A tensor sharing this one's data with another shape of equal size.
  Tensor reshaped(llvm::ArrayRef<int64_t> newShape) const;

  //===--- Element access ---------------------------------------------===//
  // Index arguments are flat row-major indices.

  /// Float element (Float kind).
  double getFloat(int64_t i) const {
    return elementType.storesSingle() ? widen(storage->s[i]) : storage->f[i];
  }
  /// Writes a float element, rounding it to the element type.
  void setFloat(int64_t i, double v) {
    double rounded = roundToFormat(v, elementType.getFloatFormat());
    if (elementType.storesSingle())
      mutableFloatsAs<float>()[i] = narrow(rounded);
    else
      mutableFloatsAs<double>()[i] = rounded;
  }
  /// Integer element, sign- or zero-extended to 64 bits (integer kinds).
  int64_t getInt(int64_t i) const { return storage->i[i]; }
  uint64_t getUInt(int64_t i) const {
    return static_cast<uint64_t>(storage->i[i]);
  }
  /// Writes an integer element, wrapping it to the bit width (for i1: any
  /// nonzero value is true).
  void setInt(int64_t i, int64_t v);
  bool getBool(int64_t i) const { return storage->i[i] != 0; }
  /// Complex element (Complex kind).
  std::complex<double> getComplex(int64_t i) const {
    return {storage->f[2 * i], storage->f[2 * i + 1]};
  }
  void setComplex(int64_t i, std::complex<double> v);

  /// Any real element as a double (integers are converted, i1 is 0/1,
  /// complex gives the real part).
  double getAsDouble(int64_t i) const;
  /// Writes `v` converted to the element type (floats round, integers
  /// truncate toward zero and saturate, i1 is v != 0).
  void setFromDouble(int64_t i, double v);

  /// The bit pattern of an element, in the low getBitWidth() bits (for
  /// complex: of the real part; see getComplexBits).
  uint64_t getBits(int64_t i) const;
  /// Sets an element from its bit pattern (real kinds).
  void setBits(int64_t i, uint64_t bits);

  /// Copies element `srcIndex` of `src` (same element type) to `dstIndex`.
  void copyElement(int64_t dstIndex, const Tensor &src, int64_t srcIndex);
  /// Whether element `i` equals element `j` of `other` exactly (NaN equals
  /// NaN; +0 equals -0).
  bool elementEquals(int64_t i, const Tensor &other, int64_t j) const;

  //===--- Bulk storage -------------------------------------------------===//

  /// Float storage as T: `float` where the element type storesSingle(),
  /// else `double` (getNumElements() of them, 2x for complex).
  template <typename T> llvm::ArrayRef<T> floatsAs() const {
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);
    assert((std::is_same_v<T, float> == elementType.storesSingle()) &&
           "the other float storage");
    if constexpr (std::is_same_v<T, float>)
      return storage->s;
    else
      return storage->f;
  }
  /// Calls `fn` with the float storage, an ArrayRef<float> or <double>.
  /// Reading a float as a double quiets a signaling NaN, as arithmetic does
  /// (getFloat keeps its bits).
  template <typename Fn> decltype(auto) visitFloats(Fn &&fn) const {
    return elementType.storesSingle() ? fn(floatsAs<float>())
                                      : fn(floatsAs<double>());
  }
  /// The float elements as doubles (Float kind).
  std::vector<double> floatValues() const {
    return visitFloats([](auto in) {
      std::vector<double> values(in.size());
      for (size_t i = 0; i < values.size(); ++i)
        values[i] = in[i];
      return values;
    });
  }
  /// Sets every element i (Float kind) to `fn(i)` (a double) rounded to
  /// the element type.
  template <typename Fn> void generateFloats(Fn &&fn) {
    FloatFormat format = elementType.getFloatFormat();
    if (elementType.storesSingle()) {
      // Plain conversions keep the loop vectorized (a computed NaN is
      // quiet; negate and abs keep a signaling one's bits on their own).
      float *out = mutableFloatsAs<float>().data();
      if (format == FloatFormat::F32)
        for (int64_t i = 0; i < numElements; ++i)
          out[i] = static_cast<float>(fn(i));
      else
        for (int64_t i = 0; i < numElements; ++i)
          out[i] = static_cast<float>(roundToFormat(fn(i), format));
      return;
    }
    double *out = mutableFloatsAs<double>().data();
    for (int64_t i = 0; i < numElements; ++i)
      out[i] = roundToFormat(fn(i), format);
  }
  /// Integer storage: getNumElements() values.
  llvm::ArrayRef<int64_t> ints() const { return storage->i; }
  /// Mutable storage (detaches shared storage first). Only for values
  /// already exact in the element type: an f16 or bf16 value rounded to a
  /// float and then normalized would be rounded twice (generateFloats and
  /// setFloat round once).
  template <typename T> llvm::MutableArrayRef<T> mutableFloatsAs() {
    assert((std::is_same_v<T, float> == elementType.storesSingle()) &&
           "the other float storage");
    detach();
    if constexpr (std::is_same_v<T, float>)
      return storage->s;
    else
      return storage->f;
  }
  llvm::MutableArrayRef<int64_t> mutableInts();
  /// Rounds/wraps every element to the element type.
  void normalize();

  //===--- Printing -----------------------------------------------------===//

  /// Element `i` as text (`1.5`, `-3`, `true`, `(1, 2)`, `nan`).
  std::string formatElement(int64_t i) const;
  /// A multi-index as `[1, 2]`.
  std::string formatIndex(int64_t flatIndex) const;
  /// `tensor<2x3xf32>` then the elements (at most `maxElements`); a tuple
  /// prints its elements in parentheses, a token its type.
  void print(llvm::raw_ostream &os, int64_t maxElements = 64) const;

private:
  struct Storage {
    std::vector<double> f;
    std::vector<float> s;
    std::vector<int64_t> i;
  };
  void allocate();
  /// Gives this tensor storage of its own (copy-on-write).
  void detach() {
    if (storage.use_count() > 1)
      storage = std::make_shared<Storage>(*storage);
  }

  ElementType elementType;
  llvm::SmallVector<int64_t, 4> shape;
  int64_t numElements = 0;
  std::shared_ptr<Storage> storage;
  /// The type of a tuple or token (null for tensors).
  mlir::Type nonTensorType;
  std::shared_ptr<const std::vector<Tensor>> tupleElements;
};

/// Iterates over all multi-indices of a shape in row-major order.
/// Usage: `for (IndexIterator it(shape); !it.done(); it.next()) it.index()`.
class IndexIterator {
public:
  explicit IndexIterator(llvm::ArrayRef<int64_t> shape);
  bool done() const { return finished; }
  void next();
  llvm::ArrayRef<int64_t> index() const { return current; }
  /// The flat index of the current position.
  int64_t flat() const { return flatIndex; }

private:
  llvm::SmallVector<int64_t, 4> shape;
  llvm::SmallVector<int64_t, 4> current;
  int64_t flatIndex = 0;
  bool finished = false;
};

} // namespace toast::interp

#endif // TOAST_INTERPRETER_TENSOR_H
