//===- ReductionOps.cpp - Reductions with regions -------------------------===//
//
// reduce, reduce_window, select_and_scatter and map. Elements are combined
// in row-major order of the reduced positions, starting from the init
// values. When the region is a single commutative binary op (add, max, ...)
// the op is applied directly instead of running the region per element.
//
//===----------------------------------------------------------------------===//

#include "OpImpl.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

using namespace mlir;
using namespace toast::interp;
using namespace toast::interp::detail;
namespace hlo = toast::stablehlo;

namespace {

/// Results of the region on element `accIndex` of `accs` and `xIndex` of
/// `xs` are written back to `accs` at `accIndex`.
LogicalResult combineWithRegion(Interpreter &interp, Region &body,
                                MutableArrayRef<Tensor> accs, int64_t accIndex,
                                ArrayRef<const Tensor *> xs,
                                ArrayRef<int64_t> xIndices) {
  SmallVector<Tensor, 4> args;
  for (Tensor &acc : accs)
    args.push_back(extractScalar(acc, accIndex));
  for (auto [x, i] : llvm::zip_equal(xs, xIndices))
    args.push_back(extractScalar(*x, i));
  SmallVector<Tensor, 4> out;
  if (failed(interp.runRegion(body, args, out)))
    return failure();
  if (out.size() != accs.size())
    return emitError(body.getLoc())
           << "toast-run: reduction body returned " << out.size()
           << " values, expected " << accs.size();
  for (auto [acc, value] : llvm::zip_equal(accs, out)) {
    if (!value.isValid() || value.getElementType() != acc.getElementType() ||
        value.getNumElements() != 1)
      return emitError(body.getLoc())
             << "toast-run: reduction body must return scalars of the "
             << "accumulator types";
    acc.copyElement(accIndex, value, 0);
  }
  return success();
}

/// Fills every element of `t` with the single element of `scalar`.
void fill(Tensor &t, const Tensor &scalar) {
  for (int64_t i = 0, n = t.getNumElements(); i < n; ++i)
    t.copyElement(i, scalar, 0);
}

LogicalResult evalReduce(Interpreter &interp, Operation *op,
                         ArrayRef<Tensor> operands,
                         SmallVectorImpl<Tensor> &results) {
  auto reduce = cast<hlo::ReduceOp>(op);
  size_t n = reduce.getInputs().size();
  ArrayRef<Tensor> inputs = operands.take_front(n);
  ArrayRef<Tensor> inits = operands.drop_front(n);
  SmallVector<Tensor> accs;
  for (size_t k = 0; k < n; ++k) {
    accs.push_back(makeResult(op, k));
    fill(accs.back(), inits[k]);
  }
  // Result stride of each input dimension (0 for reduced dimensions).
  const Tensor &first = inputs[0];
  if (accs[0].getRank() + static_cast<int64_t>(reduce.getDimensions().size()) !=
      first.getRank())
    return op->emitError("toast-run: inconsistent reduce shapes");
  SmallVector<int64_t> resultStrides(first.getRank(), 0);
  {
    SmallVector<int64_t> strides = accs[0].getStrides();
    int64_t r = 0;
    for (int64_t d = 0; d < first.getRank(); ++d)
      if (!llvm::is_contained(reduce.getDimensions(), d))
        resultStrides[d] = strides[r++];
  }
  Combiner combiner =
      n == 1 ? detectCombiner(reduce.getBody()) : Combiner::None;
  SmallVector<const Tensor *, 4> xs;
  for (const Tensor &t : inputs)
    xs.push_back(&t);
  SmallVector<int64_t, 4> xIndices(n);
  for (IndexIterator it(first.getShape()); !it.done(); it.next()) {
    int64_t r = 0;
    for (int64_t d = 0; d < first.getRank(); ++d)
      r += it.index()[d] * resultStrides[d];
    if (combiner != Combiner::None) {
      applyCombiner(combiner, accs[0], r, first, it.flat());
      continue;
    }
    std::fill(xIndices.begin(), xIndices.end(), it.flat());
    if (failed(
            combineWithRegion(interp, reduce.getBody(), accs, r, xs, xIndices)))
      return failure();
  }
  results.append(accs.begin(), accs.end());
  return success();
}

/// Reads an optional i64 array attribute, defaulting to `fill`.
SmallVector<int64_t> orDefault(std::optional<ArrayRef<int64_t>> values,
                               size_t rank, int64_t fill) {
  if (values)
    return SmallVector<int64_t>(values->begin(), values->end());
  return SmallVector<int64_t>(rank, fill);
}

/// (low, high) padding pairs, defaulting to zeros.
SmallVector<int64_t> paddingLows(std::optional<DenseIntElementsAttr> padding,
                                 size_t rank) {
  SmallVector<int64_t> lows(rank, 0);
  if (padding) {
    SmallVector<int64_t> flat(padding->getValues<int64_t>());
    for (size_t d = 0; d < rank && 2 * d < flat.size(); ++d)
      lows[d] = flat[2 * d];
  }
  return lows;
}

LogicalResult evalReduceWindow(Interpreter &interp, Operation *op,
                               ArrayRef<Tensor> operands,
                               SmallVectorImpl<Tensor> &results) {
  auto rw = cast<hlo::ReduceWindowOp>(op);
  size_t n = rw.getInputs().size();
  ArrayRef<Tensor> inputs = operands.take_front(n);
  ArrayRef<Tensor> inits = operands.drop_front(n);
  const Tensor &first = inputs[0];
  size_t rank = first.getRank();
  ArrayRef<int64_t> window = rw.getWindowDimensions();
  SmallVector<int64_t> strides = orDefault(rw.getWindowStrides(), rank, 1);
  SmallVector<int64_t> baseDil = orDefault(rw.getBaseDilations(), rank, 1);
  SmallVector<int64_t> winDil = orDefault(rw.getWindowDilations(), rank, 1);
  SmallVector<int64_t> lows = paddingLows(rw.getPadding(), rank);
  if (window.size() != rank || strides.size() != rank ||
      baseDil.size() != rank || winDil.size() != rank)
    return op->emitError("toast-run: window attributes must have one entry "
                         "per dimension");
  for (size_t d = 0; d < rank; ++d)
    if (strides[d] < 1 || baseDil[d] < 1 || winDil[d] < 1)
      return op->emitError("toast-run: window strides and dilations must be "
                           "positive");

  SmallVector<Tensor> accs;
  for (size_t k = 0; k < n; ++k) {
    accs.push_back(makeResult(op, k));
    fill(accs.back(), inits[k]);
  }
  Combiner combiner = n == 1 ? detectCombiner(rw.getBody()) : Combiner::None;
  SmallVector<const Tensor *, 4> xs, initPtrs;
  for (size_t k = 0; k < n; ++k) {
    xs.push_back(&inputs[k]);
    initPtrs.push_back(&inits[k]);
  }
  SmallVector<int64_t> inStrides = first.getStrides();
  SmallVector<int64_t, 4> xIndices(n), zeros(n, 0);
  for (IndexIterator out(accs[0].getShape()); !out.done(); out.next()) {
    for (IndexIterator w(window); !w.done(); w.next()) {
      // Position in the padded, base-dilated input; holes and padding hold
      // the init value.
      int64_t flat = 0;
      bool isInput = true;
      for (size_t d = 0; d < rank && isInput; ++d) {
        int64_t q =
            out.index()[d] * strides[d] + w.index()[d] * winDil[d] - lows[d];
        if (q < 0 || q % baseDil[d] != 0 || q / baseDil[d] >= first.getDim(d))
          isInput = false;
        else
          flat += (q / baseDil[d]) * inStrides[d];
      }
      if (combiner != Combiner::None) {
        if (isInput)
          applyCombiner(combiner, accs[0], out.flat(), first, flat);
        else
          applyCombiner(combiner, accs[0], out.flat(), inits[0], 0);
        continue;
      }
      std::fill(xIndices.begin(), xIndices.end(), flat);
      if (failed(combineWithRegion(interp, rw.getBody(), accs, out.flat(),
                                   isInput ? xs : initPtrs,
                                   isInput ? xIndices : zeros)))
        return failure();
    }
  }
  results.append(accs.begin(), accs.end());
  return success();
}

LogicalResult evalSelectAndScatter(Interpreter &interp, Operation *op,
                                   ArrayRef<Tensor> operands,
                                   SmallVectorImpl<Tensor> &results) {
  auto sas = cast<hlo::SelectAndScatterOp>(op);
  const Tensor &operand = operands[0], &source = operands[1],
               &init = operands[2];
  size_t rank = operand.getRank();
  SmallVector<int64_t> window = orDefault(sas.getWindowDimensions(), rank, 1);
  SmallVector<int64_t> strides = orDefault(sas.getWindowStrides(), rank, 1);
  SmallVector<int64_t> lows = paddingLows(sas.getPadding(), rank);
  if (window.size() != rank || strides.size() != rank)
    return op->emitError("toast-run: window attributes must have one entry "
                         "per dimension");
  Tensor result = makeResult(op);
  fill(result, init);
  Combiner scatter = detectCombiner(sas.getScatter());
  SmallVector<int64_t> opStrides = operand.getStrides();
  for (IndexIterator s(source.getShape()); !s.done(); s.next()) {
    int64_t selected = -1;
    for (IndexIterator w(window); !w.done(); w.next()) {
      int64_t flat = 0;
      bool inside = true;
      for (size_t d = 0; d < rank && inside; ++d) {
        int64_t p = s.index()[d] * strides[d] + w.index()[d] - lows[d];
        if (p < 0 || p >= operand.getDim(d))
          inside = false;
        else
          flat += p * opStrides[d];
      }
      if (!inside)
        continue; // Padding is never selected.
      if (selected < 0) {
        selected = flat;
        continue;
      }
      SmallVector<Tensor, 1> keep;
      const Tensor *args[] = {&operand, &operand};
      int64_t idx[] = {selected, flat};
      if (failed(runScalarRegion(interp, sas.getSelect(), args, idx, keep)))
        return failure();
      if (keep.size() != 1 || !keep[0].isValid() ||
          !keep[0].getElementType().isBool())
        return op->emitError("toast-run: select region must return a "
                             "tensor<i1>");
      if (!keep[0].getBool(0))
        selected = flat;
    }
    if (selected < 0)
      continue;
    if (scatter != Combiner::None) {
      applyCombiner(scatter, result, selected, source, s.flat());
      continue;
    }
    Tensor *acc = &result;
    const Tensor *x = &source;
    if (failed(combineWithRegion(interp, sas.getScatter(),
                                 MutableArrayRef<Tensor>(acc, 1), selected,
                                 ArrayRef<const Tensor *>(x), {s.flat()})))
      return failure();
  }
  results.push_back(std::move(result));
  return success();
}

LogicalResult evalMap(Interpreter &interp, Operation *op,
                      ArrayRef<Tensor> operands,
                      SmallVectorImpl<Tensor> &results) {
  auto map = cast<hlo::MapOp>(op);
  Tensor result = makeResult(op);
  SmallVector<const Tensor *, 4> xs;
  for (const Tensor &t : operands)
    xs.push_back(&t);
  SmallVector<int64_t, 4> indices(operands.size());
  for (int64_t i = 0, n = result.getNumElements(); i < n; ++i) {
    std::fill(indices.begin(), indices.end(), i);
    SmallVector<Tensor, 1> out;
    if (failed(runScalarRegion(interp, map.getComputation(), xs, indices, out)))
      return failure();
    if (out.size() != 1 || !out[0].isValid() ||
        out[0].getElementType() != result.getElementType())
      return op->emitError("toast-run: map computation must return one "
                           "scalar of the result element type");
    result.copyElement(i, out[0], 0);
  }
  results.push_back(std::move(result));
  return success();
}
} // namespace

void toast::interp::detail::registerReductionOps(OpRegistry &r) {
  r.add("stablehlo.reduce", evalReduce);
  r.add("stablehlo.reduce_window", evalReduceWindow);
  r.add("stablehlo.select_and_scatter", evalSelectAndScatter);
  r.add("stablehlo.map", evalMap);
}
