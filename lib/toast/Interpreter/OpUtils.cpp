//===- OpUtils.cpp - Shared helpers of the op handlers --------------------===//

#include "OpImpl.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace toast::interp;
using namespace toast::interp::detail;
namespace hlo = toast::stablehlo;

Tensor toast::interp::detail::makeResult(Operation *op, unsigned i) {
  return Tensor(cast<RankedTensorType>(op->getResult(i).getType()));
}

ElementType toast::interp::detail::elementTypeOf(Type tensorType) {
  return *ElementType::get(cast<ShapedType>(tensorType).getElementType());
}

/// Whether `type` is a tuple whose leaves are tensors and tokens, or a
/// token: values the interpreter carries but does not compute on.
static bool isTupleOrToken(Type type) {
  if (isa<hlo::TokenType>(type))
    return true;
  auto tuple = dyn_cast<TupleType>(type);
  return tuple && llvm::all_of(tuple.getTypes(), [](Type element) {
           return isa<RankedTensorType>(element) || isTupleOrToken(element);
         });
}

LogicalResult toast::interp::detail::checkSupportedTypes(Operation *op) {
  SmallVector<Type> types(op->getResultTypes());
  for (unsigned i = 0; i < types.size(); ++i) {
    Type type = types[i];
    // Check the tensors inside tuples like results.
    if (auto tuple = dyn_cast<TupleType>(type); tuple && isTupleOrToken(tuple))
      llvm::append_range(types, tuple.getTypes());
    if (isTupleOrToken(type))
      continue;
    auto tensorType = dyn_cast<RankedTensorType>(type);
    if (!tensorType)
      return op->emitError("toast-run: unsupported type ")
             << type << " in result of '" << op->getName()
             << "' (only ranked tensors, tuples and tokens are supported)";
    if (!ElementType::get(tensorType.getElementType()))
      return op->emitError("toast-run: unsupported element type ")
             << tensorType.getElementType() << " in result of '"
             << op->getName() << "'";
    if (!tensorType.hasStaticShape())
      return op->emitError("toast-run: unsupported dynamic shape ")
             << type << " in result of '" << op->getName() << "'";
    if (exceedsMaxElements(tensorType.getShape()))
      return op->emitError("toast-run: result type ")
             << type << " of '" << op->getName()
             << "' is too large for the interpreter";
  }
  return success();
}

Combiner toast::interp::detail::detectCombiner(Region &region) {
  if (!region.hasOneBlock())
    return Combiner::None;
  Block &block = region.front();
  if (block.getNumArguments() != 2 || block.getOperations().size() != 2)
    return Combiner::None;
  Operation &op = block.front();
  Operation *terminator = block.getTerminator();
  if (op.getNumOperands() != 2 || op.getNumResults() != 1 ||
      terminator->getNumOperands() != 1 ||
      terminator->getOperand(0) != op.getResult(0))
    return Combiner::None;
  // Both orders of the arguments are fine: all combiners are commutative.
  Value a = op.getOperand(0), b = op.getOperand(1);
  bool args = (a == block.getArgument(0) && b == block.getArgument(1)) ||
              (a == block.getArgument(1) && b == block.getArgument(0));
  if (!args || op.getResult(0).getType() != block.getArgument(0).getType())
    return Combiner::None;
  return llvm::TypeSwitch<Operation *, Combiner>(&op)
      .Case<hlo::AddOp>([](auto) { return Combiner::Add; })
      .Case<hlo::MulOp>([](auto) { return Combiner::Mul; })
      .Case<hlo::MaxOp>([](auto) { return Combiner::Max; })
      .Case<hlo::MinOp>([](auto) { return Combiner::Min; })
      .Case<hlo::AndOp>([](auto) { return Combiner::And; })
      .Case<hlo::OrOp>([](auto) { return Combiner::Or; })
      .Case<hlo::XorOp>([](auto) { return Combiner::Xor; })
      .Default([](auto) { return Combiner::None; });
}

void toast::interp::detail::applyCombiner(Combiner combiner, Tensor &acc,
                                          int64_t accIndex, const Tensor &x,
                                          int64_t xIndex) {
  const ElementType &type = acc.getElementType();
  if (type.isFloat()) {
    double a = acc.getFloat(accIndex), b = x.getFloat(xIndex), r = a;
    switch (combiner) {
    case Combiner::Add:
      r = a + b;
      break;
    case Combiner::Mul:
      r = a * b;
      break;
    case Combiner::Max:
      r = floatMax(a, b);
      break;
    case Combiner::Min:
      r = floatMin(a, b);
      break;
    default:
      break;
    }
    acc.setFloat(accIndex, r);
    return;
  }
  if (type.isComplex()) {
    std::complex<double> a = acc.getComplex(accIndex), b = x.getComplex(xIndex);
    acc.setComplex(accIndex, combiner == Combiner::Mul ? a * b : a + b);
    return;
  }
  int64_t a = acc.getInt(accIndex), b = x.getInt(xIndex), r = a;
  bool isSigned = type.isSignedInt();
  auto less = [&](int64_t p, int64_t q) {
    return isSigned ? p < q : uint64_t(p) < uint64_t(q);
  };
  switch (combiner) {
  case Combiner::Add:
    r = int64_t(uint64_t(a) + uint64_t(b));
    break;
  case Combiner::Mul:
    r = int64_t(uint64_t(a) * uint64_t(b));
    break;
  case Combiner::Max:
    r = less(a, b) ? b : a;
    break;
  case Combiner::Min:
    r = less(b, a) ? b : a;
    break;
  case Combiner::And:
    r = a & b;
    break;
  case Combiner::Or:
    r = a | b;
    break;
  case Combiner::Xor:
    r = a ^ b;
    break;
  case Combiner::None:
    break;
  }
  acc.setInt(accIndex, r);
}

Tensor toast::interp::detail::extractScalar(const Tensor &t, int64_t i) {
  Tensor scalar(t.getElementType(), {});
  scalar.copyElement(0, t, i);
  return scalar;
}

LogicalResult toast::interp::detail::runScalarRegion(
    Interpreter &interp, Region &region, ArrayRef<const Tensor *> inputs,
    ArrayRef<int64_t> indices, SmallVectorImpl<Tensor> &results) {
  SmallVector<Tensor, 8> args;
  for (auto [t, i] : llvm::zip_equal(inputs, indices))
    args.push_back(extractScalar(*t, i));
  return interp.runRegion(region, args, results);
}

namespace {
/// Steps `index` (over `shape`) to the next multi-index in row-major order,
/// moving the two flat offsets with it; false after the last one.
bool nextIndex(MutableArrayRef<int64_t> index, ArrayRef<int64_t> shape,
               ArrayRef<int64_t> srcStrides, ArrayRef<int64_t> dstStrides,
               int64_t &s, int64_t &t) {
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    s += srcStrides[d];
    t += dstStrides[d];
    if (++index[d] < shape[d])
      return true;
    s -= srcStrides[d] * shape[d];
    t -= dstStrides[d] * shape[d];
    index[d] = 0;
  }
  return false;
}

/// copyStridedImpl for a transpose: the destination's last dimension is
/// contiguous, the source's contiguous dimension is `k`. Copying a row of
/// the destination at a time reads one cache line of the source per
/// element; square tiles of dimensions `k` and the last reuse each line
/// (the GPT-2 export transposes its 50257x768 embedding every decode step).
template <typename T>
void copyTransposed(const T *src, int64_t srcBase, ArrayRef<int64_t> srcStrides,
                    T *dst, int64_t dstBase, ArrayRef<int64_t> dstStrides,
                    ArrayRef<int64_t> shape, size_t k) {
  constexpr int64_t kTile = 32;
  size_t last = shape.size() - 1;
  SmallVector<int64_t, 6> outerShape, outerSrc, outerDst;
  for (size_t d = 0; d < last; ++d)
    if (d != k) {
      outerShape.push_back(shape[d]);
      outerSrc.push_back(srcStrides[d]);
      outerDst.push_back(dstStrides[d]);
    }
  int64_t rows = shape[k], cols = shape[last];
  int64_t rowDst = dstStrides[k], colSrc = srcStrides[last];
  SmallVector<int64_t, 6> index(outerShape.size(), 0);
  int64_t s = srcBase, t = dstBase;
  do {
    for (int64_t r0 = 0; r0 < rows; r0 += kTile)
      for (int64_t c0 = 0; c0 < cols; c0 += kTile) {
        int64_t r1 = std::min(rows, r0 + kTile),
                c1 = std::min(cols, c0 + kTile);
        for (int64_t r = r0; r < r1; ++r)
          for (int64_t c = c0; c < c1; ++c)
            dst[t + r * rowDst + c] = src[s + r + c * colSrc];
      }
  } while (nextIndex(index, outerShape, outerSrc, outerDst, s, t));
}

template <typename T>
void copyStridedImpl(const T *src, int64_t srcBase,
                     ArrayRef<int64_t> srcStrides, T *dst, int64_t dstBase,
                     ArrayRef<int64_t> dstStrides, ArrayRef<int64_t> shape,
                     int64_t width) {
  int64_t rank = shape.size();
  for (int64_t d : shape)
    if (d == 0)
      return;
  if (rank == 0) {
    for (int64_t w = 0; w < width; ++w)
      dst[dstBase * width + w] = src[srcBase * width + w];
    return;
  }
  int64_t inner = shape[rank - 1];
  int64_t sInner = srcStrides[rank - 1], dInner = dstStrides[rank - 1];
  if (width == 1 && dInner == 1 && sInner != 1)
    for (int64_t k = 0; k + 1 < rank; ++k)
      if (srcStrides[k] == 1 && shape[k] > 1)
        return copyTransposed(src, srcBase, srcStrides, dst, dstBase,
                              dstStrides, shape, k);
  // Odometer over the outer dimensions; a tight loop over the last one.
  SmallVector<int64_t, 6> index(rank - 1, 0);
  int64_t s = srcBase, t = dstBase;
  do {
    if (width == 1 && sInner == 1 && dInner == 1) {
      std::copy(src + s, src + s + inner, dst + t);
    } else if (width == 1) {
      for (int64_t i = 0; i < inner; ++i)
        dst[t + i * dInner] = src[s + i * sInner];
    } else {
      for (int64_t i = 0; i < inner; ++i)
        for (int64_t w = 0; w < width; ++w)
          dst[(t + i * dInner) * width + w] = src[(s + i * sInner) * width + w];
    }
  } while (nextIndex(index, shape.drop_back(), srcStrides.drop_back(),
                     dstStrides.drop_back(), s, t));
}
} // namespace

void toast::interp::detail::copyStrided(const Tensor &src, int64_t srcBase,
                                        ArrayRef<int64_t> srcStrides,
                                        Tensor &dst, int64_t dstBase,
                                        ArrayRef<int64_t> dstStrides,
                                        ArrayRef<int64_t> shape) {
  const ElementType &type = dst.getElementType();
  if (type.isFloat() && src.getElementType() != type) {
    // A region's values typed otherwise than what it was given (a reduce
    // of f32 values with an f64 or bf16 body): converted element by
    // element.
    if (llvm::is_contained(shape, 0))
      return;
    SmallVector<int64_t, 6> index(shape.size(), 0);
    int64_t s = srcBase, t = dstBase;
    do
      dst.setFloat(t, src.getFloat(s));
    while (nextIndex(index, shape, srcStrides, dstStrides, s, t));
  } else if (type.storesSingle()) {
    const float *in = src.floatsAs<float>().data();
    float *out = dst.mutableFloatsAs<float>().data();
    copyStridedImpl(in, srcBase, srcStrides, out, dstBase, dstStrides, shape,
                    1);
  } else if (type.isFloatLike()) {
    const double *in = src.floatsAs<double>().data();
    double *out = dst.mutableFloatsAs<double>().data();
    copyStridedImpl(in, srcBase, srcStrides, out, dstBase, dstStrides, shape,
                    type.isComplex() ? 2 : 1);
  } else {
    const int64_t *in = src.ints().data();
    int64_t *out = dst.mutableInts().data();
    copyStridedImpl(in, srcBase, srcStrides, out, dstBase, dstStrides, shape,
                    1);
  }
}

/// The flat offset of `offsets` under `strides`.
static int64_t flatOffset(ArrayRef<int64_t> offsets,
                          ArrayRef<int64_t> strides) {
  int64_t base = 0;
  for (auto [o, s] : llvm::zip_equal(offsets, strides))
    base += o * s;
  return base;
}

Tensor toast::interp::detail::extractBlock(const Tensor &x,
                                           ArrayRef<int64_t> offsets,
                                           ArrayRef<int64_t> shape) {
  Tensor block(x.getElementType(), shape);
  SmallVector<int64_t> strides = x.getStrides();
  copyStrided(x, flatOffset(offsets, strides), strides, block, 0,
              block.getStrides(), shape);
  return block;
}

/// Per dimension, how much of a `shape` block at `offsets` lies in `bounds`.
static SmallVector<int64_t> clippedShape(ArrayRef<int64_t> offsets,
                                         ArrayRef<int64_t> shape,
                                         ArrayRef<int64_t> bounds) {
  SmallVector<int64_t> clipped;
  for (auto [offset, size, bound] : llvm::zip_equal(offsets, shape, bounds))
    clipped.push_back(std::clamp<int64_t>(bound - offset, 0, size));
  return clipped;
}

Tensor toast::interp::detail::extractPaddedBlock(const Tensor &x,
                                                 ArrayRef<int64_t> offsets,
                                                 ArrayRef<int64_t> shape) {
  Tensor block(x.getElementType(), shape);
  SmallVector<int64_t> inside = clippedShape(offsets, shape, x.getShape());
  if (llvm::is_contained(inside, 0))
    return block;
  SmallVector<int64_t> strides = x.getStrides();
  copyStrided(x, flatOffset(offsets, strides), strides, block, 0,
              block.getStrides(), inside);
  return block;
}

Tensor toast::interp::detail::clipBlock(const Tensor &block,
                                        ArrayRef<int64_t> offsets,
                                        ArrayRef<int64_t> bounds) {
  SmallVector<int64_t> inside = clippedShape(offsets, block.getShape(), bounds);
  if (inside == block.getShape())
    return block;
  return extractPaddedBlock(block, SmallVector<int64_t>(offsets.size(), 0),
                            inside);
}

void toast::interp::detail::insertBlock(Tensor &dst, const Tensor &block,
                                        ArrayRef<int64_t> offsets) {
  SmallVector<int64_t> strides = dst.getStrides();
  copyStrided(block, 0, block.getStrides(), dst, flatOffset(offsets, strides),
              strides, block.getShape());
}
