//===- ShapeOps.cpp - Constants and data movement ops ---------------------===//
//
// constant, iota, broadcast_in_dim, broadcast, transpose, reshape,
// concatenate, slice, dynamic_slice, dynamic_update_slice (start indices
// clamped into bounds), pad (negative edges and interior padding), reverse,
// torch_index_select (indices clamped into bounds) and get_dimension_size.
// Data movement goes through copyStrided, except in torch_index_select.
//
//===----------------------------------------------------------------------===//

#include "OpImpl.h"

#include "toast/Interpreter/Runner.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/Support/xxhash.h"

#include <cstring>
#include <random>

using namespace mlir;
using namespace toast::interp;
using namespace toast::interp::detail;
namespace hlo = toast::stablehlo;

namespace {

//===--- constant --------------------------------------------------------===//

void setFromAPFloat(Tensor &t, int64_t i, const APFloat &value) {
  t.setBits(i, value.bitcastToAPInt().getZExtValue());
}

/// Fills `t` from a dense attribute (splat or not).
void fillFromDense(Tensor &t, DenseElementsAttr attr) {
  const ElementType &type = t.getElementType();
  int64_t n = t.getNumElements();
  if (attr.isSplat()) {
    // Fill element 0, then copy it.
    if (n == 0)
      return;
    Tensor one(type, {});
    if (type.isIntegerLike())
      one.setInt(0, type.isBool() ? attr.getSplatValue<APInt>().getBoolValue()
                                  : attr.getSplatValue<APInt>().getSExtValue());
    else if (type.isFloat())
      setFromAPFloat(one, 0, attr.getSplatValue<APFloat>());
    else {
      auto c = attr.getSplatValue<std::complex<APFloat>>();
      Tensor re(
          *ElementType::get(cast<ComplexType>(type.getType()).getElementType()),
          {2});
      setFromAPFloat(re, 0, c.real());
      setFromAPFloat(re, 1, c.imag());
      one.setComplex(0, {re.getFloat(0), re.getFloat(1)});
    }
    for (int64_t i = 0; i < n; ++i)
      t.copyElement(i, one, 0);
    return;
  }
  int64_t i = 0;
  if (type.isIntegerLike()) {
    for (const APInt &v : attr.getValues<APInt>())
      t.setInt(i++, type.isBool() ? v.getBoolValue() : v.getSExtValue());
  } else if (type.isFloat()) {
    for (const APFloat &v : attr.getValues<APFloat>())
      setFromAPFloat(t, i++, v);
  } else {
    Tensor parts(
        *ElementType::get(cast<ComplexType>(type.getType()).getElementType()),
        {2});
    for (const std::complex<APFloat> &v :
         attr.getValues<std::complex<APFloat>>()) {
      setFromAPFloat(parts, 0, v.real());
      setFromAPFloat(parts, 1, v.imag());
      t.setComplex(i++, {parts.getFloat(0), parts.getFloat(1)});
    }
  }
}

/// Fills `t` from raw little-endian element bytes.
LogicalResult fillFromBytes(Operation *op, Tensor &t, ArrayRef<char> bytes) {
  const ElementType &type = t.getElementType();
  unsigned width = type.getBitWidth();
  if (type.isComplex() || type.isBool() || width % 8 != 0)
    return op->emitError("toast-run: unsupported resource constant of type ")
           << type.getType();
  size_t elementBytes = width / 8;
  int64_t n = t.getNumElements();
  if (bytes.size() != elementBytes * n)
    return op->emitError("toast-run: resource constant has ")
           << bytes.size() << " bytes, expected " << elementBytes * n;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t bits = 0;
    std::memcpy(&bits, bytes.data() + i * elementBytes, elementBytes);
    t.setBits(i, bits);
  }
  return success();
}

/// Random values for an elided constant, drawn from a hash of its type and
/// the seed: the same for every constant of that type, in any program.
Tensor makeElidedTensor(const Tensor &shape, Type type, uint64_t seed) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  // xxh3, not llvm::hash_combine: its seed varies per process in LLVM
  // builds with ABI-breaking checks.
  std::mt19937_64 rng(llvm::xxh3_64bits(text) ^ seed);
  return makeRandomTensor(shape.getElementType(), shape.getShape(), rng);
}

LogicalResult evalConstant(Interpreter &interp, Operation *op, ArrayRef<Tensor>,
                           SmallVectorImpl<Tensor> &results) {
  // stablehlo.constant, sdy.constant and arith.constant (torch-mlir
  // exports write some tensor constants with arith). runOp has checked the
  // result type, before every handler.
  ConstantCache &cache = *interp.getOptions().constants;
  if (std::optional<Tensor> known = cache.lookup(op)) {
    results.push_back(std::move(*known));
    return success();
  }
  Tensor result = makeResult(op);
  auto value = op->getAttrOfType<ElementsAttr>("value");
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    fillFromDense(result, dense);
  } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    // Exporters elide as `__elided__` (printed again, `__elided___1` and
    // so on); another key without data names a blob the file lacks, which
    // random values would hide.
    bool elided = resource.getRawHandle().getKey().starts_with("__elided__");
    if (!blob && !elided)
      return op->emitError("toast-run: dense_resource '")
             << resource.getRawHandle().getKey()
             << "' has no data in the file (--fill-elided fills only "
                "'__elided__' constants)";
    if (!blob && interp.getOptions().fillElided)
      result = makeElidedTensor(result, op->getResult(0).getType(),
                                interp.getOptions().rngSeed);
    else if (!blob)
      return op->emitError("toast-run: elided constant (dense_resource '")
             << resource.getRawHandle().getKey()
             << "' has no data); cannot evaluate (--fill-elided draws "
                "random values)";
    else if (failed(fillFromBytes(op, result, blob->getData())))
      return failure();
  } else {
    return op->emitError("toast-run: unsupported constant attribute ") << value;
  }
  cache.insert(op, result);
  results.push_back(std::move(result));
  return success();
}

//===--- iota and data movement ------------------------------------------===//

LogicalResult evalIota(Interpreter &, Operation *op, ArrayRef<Tensor>,
                       SmallVectorImpl<Tensor> &results) {
  if (failed(checkSupportedTypes(op)))
    return failure();
  int64_t dim = cast<hlo::IotaOp>(op).getIotaDimension();
  Tensor result = makeResult(op);
  for (IndexIterator it(result.getShape()); !it.done(); it.next()) {
    int64_t v = it.index()[dim];
    if (result.getElementType().isIntegerLike())
      result.setInt(it.flat(), v);
    else
      result.setFromDouble(it.flat(), static_cast<double>(v));
  }
  results.push_back(std::move(result));
  return success();
}

/// `x` broadcast into the result of `op`: operand dimension i is result
/// dimension dims[i] (size-1 operand dimensions repeat).
LogicalResult broadcastInto(Operation *op, const Tensor &x,
                            ArrayRef<int64_t> dims,
                            SmallVectorImpl<Tensor> &results) {
  Tensor result = makeResult(op);
  SmallVector<int64_t> xStrides = x.getStrides();
  SmallVector<int64_t> srcStrides(result.getRank(), 0);
  for (auto [i, d] : llvm::enumerate(dims))
    if (x.getDim(i) != 1)
      srcStrides[d] = xStrides[i];
  copyStrided(x, 0, srcStrides, result, 0, result.getStrides(),
              result.getShape());
  results.push_back(std::move(result));
  return success();
}

LogicalResult evalBroadcastInDim(Interpreter &, Operation *op,
                                 ArrayRef<Tensor> operands,
                                 SmallVectorImpl<Tensor> &results) {
  return broadcastInto(op, operands[0],
                       cast<hlo::BroadcastInDimOp>(op).getBroadcastDimensions(),
                       results);
}

/// broadcast: the operand's dimensions are the result's minor ones.
LogicalResult evalBroadcast(Interpreter &, Operation *op,
                            ArrayRef<Tensor> operands,
                            SmallVectorImpl<Tensor> &results) {
  int64_t added = cast<hlo::BroadcastOp>(op).getBroadcastSizes().size();
  SmallVector<int64_t> dims =
      llvm::to_vector(llvm::seq<int64_t>(added, added + operands[0].getRank()));
  return broadcastInto(op, operands[0], dims, results);
}

LogicalResult evalGetDimensionSize(Interpreter &, Operation *op,
                                   ArrayRef<Tensor> operands,
                                   SmallVectorImpl<Tensor> &results) {
  int64_t dim = cast<hlo::GetDimensionSizeOp>(op).getDimensionAttr().getInt();
  Tensor result = makeResult(op);
  result.setInt(0, operands[0].getDim(dim));
  results.push_back(std::move(result));
  return success();
}

LogicalResult evalTorchIndexSelect(Interpreter &, Operation *op,
                                   ArrayRef<Tensor> operands,
                                   SmallVectorImpl<Tensor> &results) {
  auto select = cast<hlo::TorchIndexSelectOp>(op);
  int64_t dim = select.getDimAttr().getInt();
  int64_t batchDims = select.getBatchDimsAttr().getInt();
  const Tensor &x = operands[0], &index = operands[1];
  int64_t selected = index.getRank() - batchDims;
  int64_t limit = x.getDim(dim) - 1;
  Tensor result = makeResult(op);
  if (limit < 0 && result.getNumElements() > 0)
    return op->emitError("toast-run: torch_index_select selects from the "
                         "empty dimension ")
           << dim;
  SmallVector<int64_t> at(index.getRank()), from(x.getRank());
  for (IndexIterator it(result.getShape()); !it.done(); it.next()) {
    ArrayRef<int64_t> r = it.index();
    // The index position: the batch dimensions, then the selected ones.
    llvm::copy(r.take_front(batchDims), at.begin());
    llvm::copy(r.slice(dim, selected), at.begin() + batchDims);
    int64_t i = index.getInt(index.getFlatIndex(at));
    if (index.getElementType().isUnsignedInt() && i < 0)
      i = limit; // Huge unsigned values clamp to the top.
    llvm::copy(r.take_front(dim), from.begin());
    from[dim] = std::clamp<int64_t>(i, 0, limit);
    llvm::copy(r.drop_front(dim + selected), from.begin() + dim + 1);
    result.copyElement(it.flat(), x, x.getFlatIndex(from));
  }
  results.push_back(std::move(result));
  return success();
}

LogicalResult evalTranspose(Interpreter &, Operation *op,
                            ArrayRef<Tensor> operands,
                            SmallVectorImpl<Tensor> &results) {
  ArrayRef<int64_t> perm = cast<hlo::TransposeOp>(op).getPermutation();
  const Tensor &x = operands[0];
  Tensor result = makeResult(op);
  SmallVector<int64_t> xStrides = x.getStrides();
  SmallVector<int64_t> srcStrides;
  for (int64_t p : perm)
    srcStrides.push_back(xStrides[p]);
  copyStrided(x, 0, srcStrides, result, 0, result.getStrides(),
              result.getShape());
  results.push_back(std::move(result));
  return success();
}

LogicalResult evalReshape(Interpreter &, Operation *op,
                          ArrayRef<Tensor> operands,
                          SmallVectorImpl<Tensor> &results) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  results.push_back(operands[0].reshaped(type.getShape()));
  return success();
}

LogicalResult evalConcatenate(Interpreter &, Operation *op,
                              ArrayRef<Tensor> operands,
                              SmallVectorImpl<Tensor> &results) {
  int64_t dim = cast<hlo::ConcatenateOp>(op).getDimension();
  Tensor result = makeResult(op);
  SmallVector<int64_t> strides = result.getStrides();
  int64_t offset = 0;
  for (const Tensor &x : operands) {
    copyStrided(x, 0, x.getStrides(), result, offset * strides[dim], strides,
                x.getShape());
    offset += x.getDim(dim);
  }
  results.push_back(std::move(result));
  return success();
}

LogicalResult evalSlice(Interpreter &, Operation *op, ArrayRef<Tensor> operands,
                        SmallVectorImpl<Tensor> &results) {
  auto slice = cast<hlo::SliceOp>(op);
  const Tensor &x = operands[0];
  Tensor result = makeResult(op);
  SmallVector<int64_t> xStrides = x.getStrides();
  SmallVector<int64_t> srcStrides;
  int64_t base = 0;
  for (int64_t d = 0; d < x.getRank(); ++d) {
    base += slice.getStartIndices()[d] * xStrides[d];
    srcStrides.push_back(slice.getStrides()[d] * xStrides[d]);
  }
  copyStrided(x, base, srcStrides, result, 0, result.getStrides(),
              result.getShape());
  results.push_back(std::move(result));
  return success();
}

/// Start indices clamped so that a window of `sizes` fits in `shape`.
SmallVector<int64_t> clampedStarts(ArrayRef<Tensor> indices,
                                   ArrayRef<int64_t> shape,
                                   ArrayRef<int64_t> sizes) {
  SmallVector<int64_t> starts;
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t start = indices[d].getInt(0);
    if (indices[d].getElementType().isUnsignedInt() && start < 0)
      start = INT64_MAX; // Huge unsigned values clamp to the top.
    starts.push_back(std::clamp<int64_t>(start, 0, shape[d] - sizes[d]));
  }
  return starts;
}

LogicalResult evalDynamicSlice(Interpreter &, Operation *op,
                               ArrayRef<Tensor> operands,
                               SmallVectorImpl<Tensor> &results) {
  const Tensor &x = operands[0];
  Tensor result = makeResult(op);
  SmallVector<int64_t> starts =
      clampedStarts(operands.drop_front(), x.getShape(), result.getShape());
  SmallVector<int64_t> xStrides = x.getStrides();
  int64_t base = 0;
  for (int64_t d = 0; d < x.getRank(); ++d)
    base += starts[d] * xStrides[d];
  copyStrided(x, base, xStrides, result, 0, result.getStrides(),
              result.getShape());
  results.push_back(std::move(result));
  return success();
}

LogicalResult evalDynamicUpdateSlice(Interpreter &, Operation *op,
                                     ArrayRef<Tensor> operands,
                                     SmallVectorImpl<Tensor> &results) {
  Tensor result = operands[0];
  const Tensor &update = operands[1];
  SmallVector<int64_t> starts = clampedStarts(
      operands.drop_front(2), result.getShape(), update.getShape());
  SmallVector<int64_t> strides = result.getStrides();
  int64_t base = 0;
  for (int64_t d = 0; d < result.getRank(); ++d)
    base += starts[d] * strides[d];
  copyStrided(update, 0, update.getStrides(), result, base, strides,
              update.getShape());
  results.push_back(std::move(result));
  return success();
}

LogicalResult evalPad(Interpreter &, Operation *op, ArrayRef<Tensor> operands,
                      SmallVectorImpl<Tensor> &results) {
  auto pad = cast<hlo::PadOp>(op);
  const Tensor &x = operands[0], &value = operands[1];
  Tensor result = makeResult(op);
  for (int64_t i = 0, n = result.getNumElements(); i < n; ++i)
    result.copyElement(i, value, 0);
  // Operand element i of dimension d lands at low + i * (interior + 1); copy
  // the range of i that lands inside the result.
  SmallVector<int64_t> xStrides = x.getStrides(),
                       rStrides = result.getStrides();
  SmallVector<int64_t> srcStrides, dstStrides, shape;
  int64_t srcBase = 0, dstBase = 0;
  for (int64_t d = 0; d < x.getRank(); ++d) {
    int64_t low = pad.getEdgePaddingLow()[d];
    int64_t step = pad.getInteriorPadding()[d] + 1;
    int64_t first = 0;
    while (first < x.getDim(d) && low + first * step < 0)
      ++first;
    int64_t last = first; // exclusive
    while (last < x.getDim(d) && low + last * step < result.getDim(d))
      ++last;
    if (last <= first) {
      results.push_back(std::move(result));
      return success();
    }
    shape.push_back(last - first);
    srcBase += first * xStrides[d];
    srcStrides.push_back(xStrides[d]);
    dstBase += (low + first * step) * rStrides[d];
    dstStrides.push_back(step * rStrides[d]);
  }
  copyStrided(x, srcBase, srcStrides, result, dstBase, dstStrides, shape);
  results.push_back(std::move(result));
  return success();
}

LogicalResult evalReverse(Interpreter &, Operation *op,
                          ArrayRef<Tensor> operands,
                          SmallVectorImpl<Tensor> &results) {
  const Tensor &x = operands[0];
  Tensor result = makeResult(op);
  SmallVector<int64_t> srcStrides = x.getStrides();
  int64_t base = 0;
  for (int64_t d : cast<hlo::ReverseOp>(op).getDimensions()) {
    base += (x.getDim(d) - 1) * srcStrides[d];
    srcStrides[d] = -srcStrides[d];
  }
  if (x.getNumElements() == 0)
    base = 0;
  copyStrided(x, base, srcStrides, result, 0, result.getStrides(),
              result.getShape());
  results.push_back(std::move(result));
  return success();
}
} // namespace

void toast::interp::detail::registerShapeOps(OpRegistry &r) {
  r.add("stablehlo.constant", evalConstant);
  r.add("sdy.constant", evalConstant);
  r.add("arith.constant", evalConstant);
  r.add("stablehlo.iota", evalIota);
  r.add("stablehlo.broadcast_in_dim", evalBroadcastInDim);
  r.add("stablehlo.transpose", evalTranspose);
  r.add("stablehlo.reshape", evalReshape);
  r.add("stablehlo.concatenate", evalConcatenate);
  r.add("stablehlo.slice", evalSlice);
  r.add("stablehlo.dynamic_slice", evalDynamicSlice);
  r.add("stablehlo.dynamic_update_slice", evalDynamicUpdateSlice);
  r.add("stablehlo.pad", evalPad);
  r.add("stablehlo.reverse", evalReverse);
  r.add("stablehlo.broadcast", evalBroadcast);
  r.add("stablehlo.get_dimension_size", evalGetDimensionSize);
  r.add("stablehlo.torch_index_select", evalTorchIndexSelect);
}
