//===- GatherScatterOps.cpp - gather, scatter and sort --------------------===//
//
// gather and scatter follow the index arithmetic of the StableHLO
// specification, including batching dimensions. Gather clamps start indices
// so that the slice fits; scatter skips an update window that does not fit
// entirely in the operand (XLA's behaviour for out-of-bounds indices) and
// applies the update computation in row-major order of the updates.
// sort is a stable merge sort driven by the comparator region.
//
//===----------------------------------------------------------------------===//

#include "OpImpl.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace toast::interp;
using namespace toast::interp::detail;
namespace hlo = toast::stablehlo;

namespace {

/// The start index vector of batch position `batch` (the index with the
/// index vector dimension removed) from `indices`.
SmallVector<int64_t> startIndexVector(const Tensor &indices,
                                      ArrayRef<int64_t> batch,
                                      int64_t indexVectorDim) {
  SmallVector<int64_t> result;
  SmallVector<int64_t> strides = indices.getStrides();
  if (indexVectorDim >= indices.getRank()) {
    result.push_back(indices.getInt(indices.getFlatIndex(batch)));
    return result;
  }
  int64_t base = 0;
  for (int64_t d = 0, b = 0; d < indices.getRank(); ++d)
    if (d != indexVectorDim)
      base += batch[b++] * strides[d];
  for (int64_t k = 0; k < indices.getDim(indexVectorDim); ++k) {
    int64_t flat = base + k * strides[indexVectorDim];
    int64_t v = indices.getInt(flat);
    if (indices.getElementType().isUnsignedInt() && v < 0)
      v = INT64_MAX;
    result.push_back(v);
  }
  return result;
}

/// The batch-dimension value for batching dim `dStart` of the indices.
int64_t batchValue(ArrayRef<int64_t> batch, int64_t dStart,
                   int64_t indexVectorDim) {
  return batch[dStart < indexVectorDim ? dStart : dStart - 1];
}

LogicalResult evalGather(Interpreter &, Operation *op,
                         ArrayRef<Tensor> operands,
                         SmallVectorImpl<Tensor> &results) {
  auto gather = cast<hlo::GatherOp>(op);
  hlo::GatherDimensionNumbersAttr dn = gather.getDimensionNumbers();
  ArrayRef<int64_t> sliceSizes = gather.getSliceSizes();
  const Tensor &operand = operands[0], &indices = operands[1];
  Tensor result = makeResult(op);
  ArrayRef<int64_t> offsetDims = dn.getOffsetDims();
  SmallVector<int64_t> batchDims;
  for (int64_t d = 0; d < result.getRank(); ++d)
    if (!llvm::is_contained(offsetDims, d))
      batchDims.push_back(d);
  // Operand dimensions that offsets index (not collapsed, not batching).
  SmallVector<int64_t> offsetOperandDims;
  for (int64_t d = 0; d < operand.getRank(); ++d)
    if (!llvm::is_contained(dn.getCollapsedSliceDims(), d) &&
        !llvm::is_contained(dn.getOperandBatchingDims(), d))
      offsetOperandDims.push_back(d);

  SmallVector<int64_t> batch(batchDims.size());
  SmallVector<int64_t> operandIndex(operand.getRank());
  for (IndexIterator it(result.getShape()); !it.done(); it.next()) {
    ArrayRef<int64_t> ri = it.index();
    for (auto [i, d] : llvm::enumerate(batchDims))
      batch[i] = ri[d];
    SmallVector<int64_t> start =
        startIndexVector(indices, batch, dn.getIndexVectorDim());
    std::fill(operandIndex.begin(), operandIndex.end(), 0);
    for (auto [k, dOperand] : llvm::enumerate(dn.getStartIndexMap()))
      operandIndex[dOperand] = std::clamp<int64_t>(
          start[k], 0, operand.getDim(dOperand) - sliceSizes[dOperand]);
    for (auto [dOperand, dStart] : llvm::zip_equal(
             dn.getOperandBatchingDims(), dn.getStartIndicesBatchingDims()))
      operandIndex[dOperand] =
          batchValue(batch, dStart, dn.getIndexVectorDim());
    for (auto [k, dResult] : llvm::enumerate(offsetDims))
      operandIndex[offsetOperandDims[k]] += ri[dResult];
    for (int64_t d = 0; d < operand.getRank(); ++d)
      if (operandIndex[d] < 0 || operandIndex[d] >= operand.getDim(d))
        return op->emitError("toast-run: gather reads out of bounds at "
                             "operand dimension ")
               << d << " (inconsistent dimension numbers)";
    result.copyElement(it.flat(), operand, operand.getFlatIndex(operandIndex));
  }
  results.push_back(std::move(result));
  return success();
}

LogicalResult evalScatter(Interpreter &interp, Operation *op,
                          ArrayRef<Tensor> operands,
                          SmallVectorImpl<Tensor> &results) {
  auto scatter = cast<hlo::ScatterOp>(op);
  hlo::ScatterDimensionNumbersAttr dn = scatter.getScatterDimensionNumbers();
  size_t n = scatter.getInputs().size();
  SmallVector<Tensor> outs(operands.begin(), operands.begin() + n);
  const Tensor &indices = operands[n];
  ArrayRef<Tensor> updates = operands.drop_front(n + 1);
  const Tensor &update0 = updates[0];
  const Tensor &input0 = outs[0];
  ArrayRef<int64_t> windowDims = dn.getUpdateWindowDims();
  SmallVector<int64_t> scatterDims;
  for (int64_t d = 0; d < update0.getRank(); ++d)
    if (!llvm::is_contained(windowDims, d))
      scatterDims.push_back(d);
  SmallVector<int64_t> windowOperandDims;
  for (int64_t d = 0; d < input0.getRank(); ++d)
    if (!llvm::is_contained(dn.getInsertedWindowDims(), d) &&
        !llvm::is_contained(dn.getInputBatchingDims(), d))
      windowOperandDims.push_back(d);
  // The extent of the update window in each operand dimension.
  SmallVector<int64_t> windowSize(input0.getRank(), 1);
  for (auto [k, dUpdate] : llvm::enumerate(windowDims))
    windowSize[windowOperandDims[k]] = update0.getDim(dUpdate);

  Combiner combiner =
      n == 1 ? detectCombiner(scatter.getUpdateComputation()) : Combiner::None;
  SmallVector<int64_t> batch(scatterDims.size());
  SmallVector<int64_t> start(input0.getRank()), resultIndex(input0.getRank());
  SmallVector<int64_t> lastBatch;
  bool windowFits = false;
  SmallVector<const Tensor *, 4> xs;
  for (const Tensor &u : updates)
    xs.push_back(&u);
  SmallVector<int64_t, 4> xIndices(n);
  for (IndexIterator it(update0.getShape()); !it.done(); it.next()) {
    ArrayRef<int64_t> ui = it.index();
    for (auto [i, d] : llvm::enumerate(scatterDims))
      batch[i] = ui[d];
    if (batch != lastBatch || lastBatch.empty()) {
      // A new update window: compute its start and whether it fits.
      lastBatch = batch;
      SmallVector<int64_t> vec =
          startIndexVector(indices, batch, dn.getIndexVectorDim());
      std::fill(start.begin(), start.end(), 0);
      for (auto [k, dInput] : llvm::enumerate(dn.getScatterDimsToOperandDims()))
        start[dInput] = vec[k];
      for (auto [dInput, dStart] : llvm::zip_equal(
               dn.getInputBatchingDims(), dn.getScatterIndicesBatchingDims()))
        start[dInput] = batchValue(batch, dStart, dn.getIndexVectorDim());
      windowFits = true;
      for (int64_t d = 0; d < input0.getRank(); ++d)
        if (start[d] < 0 || start[d] + windowSize[d] > input0.getDim(d))
          windowFits = false;
    }
    if (!windowFits)
      continue;
    resultIndex = start;
    for (auto [k, dUpdate] : llvm::enumerate(windowDims))
      resultIndex[windowOperandDims[k]] += ui[dUpdate];
    int64_t r = input0.getFlatIndex(resultIndex);
    if (combiner != Combiner::None) {
      applyCombiner(combiner, outs[0], r, update0, it.flat());
      continue;
    }
    // Region arguments: the current values, then the updates.
    SmallVector<Tensor, 4> args;
    for (const Tensor &o : outs)
      args.push_back(extractScalar(o, r));
    for (const Tensor &u : updates)
      args.push_back(extractScalar(u, it.flat()));
    SmallVector<Tensor, 4> out;
    if (failed(interp.runRegion(scatter.getUpdateComputation(), args, out)))
      return failure();
    if (out.size() != n)
      return op->emitError("toast-run: update computation returned ")
             << out.size() << " values, expected " << n;
    for (size_t k = 0; k < n; ++k) {
      if (!out[k].isValid() ||
          out[k].getElementType() != outs[k].getElementType())
        return op->emitError("toast-run: update computation returned a "
                             "value of the wrong type");
      outs[k].copyElement(r, out[k], 0);
    }
  }
  results.append(outs.begin(), outs.end());
  return success();
}

LogicalResult evalSort(Interpreter &interp, Operation *op,
                       ArrayRef<Tensor> operands,
                       SmallVectorImpl<Tensor> &results) {
  auto sort = cast<hlo::SortOp>(op);
  const Tensor &first = operands[0];
  int64_t rank = first.getRank();
  int64_t dim = sort.getDimension();
  if (dim < 0)
    dim += rank;
  SmallVector<Tensor> outs;
  for (size_t k = 0; k < operands.size(); ++k)
    outs.push_back(makeResult(op, k));
  if (first.getNumElements() == 0) {
    results.append(outs.begin(), outs.end());
    return success();
  }
  int64_t length = first.getDim(dim);
  int64_t stride = first.getStrides()[dim];
  // Iterate over all positions with index 0 along `dim`.
  SmallVector<int64_t> outer(first.getShape().begin(), first.getShape().end());
  outer[dim] = 1;
  SmallVector<const Tensor *, 8> xs;
  for (const Tensor &t : operands)
    xs.push_back(&t);
  bool failedRegion = false;
  SmallVector<int64_t> perm(length);
  SmallVector<int64_t, 8> idx(2 * operands.size());
  // The comparator takes lhs/rhs scalars of input 0, then of input 1, ...
  SmallVector<const Tensor *, 8> compArgs;
  for (const Tensor *x : xs) {
    compArgs.push_back(x);
    compArgs.push_back(x);
  }
  for (IndexIterator it(outer); !it.done(); it.next()) {
    int64_t base = first.getFlatIndex(it.index());
    std::iota(perm.begin(), perm.end(), 0);
    auto less = [&](int64_t a, int64_t b) {
      if (failedRegion)
        return false;
      for (size_t k = 0; k < xs.size(); ++k) {
        idx[2 * k] = base + a * stride;
        idx[2 * k + 1] = base + b * stride;
      }
      SmallVector<Tensor, 1> out;
      if (failed(runScalarRegion(interp, sort.getComparator(), compArgs, idx,
                                 out)) ||
          out.size() != 1 || !out[0].isValid() ||
          !out[0].getElementType().isBool()) {
        failedRegion = true;
        return false;
      }
      return out[0].getBool(0);
    };
    // A stable sort is also a valid unstable sort.
    std::stable_sort(perm.begin(), perm.end(), less);
    if (failedRegion)
      return op->emitError("toast-run: sort comparator failed or did not "
                           "return a tensor<i1>");
    for (size_t k = 0; k < xs.size(); ++k)
      for (int64_t i = 0; i < length; ++i)
        outs[k].copyElement(base + i * stride, *xs[k], base + perm[i] * stride);
  }
  results.append(outs.begin(), outs.end());
  return success();
}
} // namespace

void toast::interp::detail::registerGatherScatterOps(OpRegistry &r) {
  r.add("stablehlo.gather", evalGather);
  r.add("stablehlo.scatter", evalScatter);
  r.add("stablehlo.sort", evalSort);
}
