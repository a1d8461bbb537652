//===- PartIRCoreOps.cpp - Sequential execution of PartIR:Core ------------===//
//
// The Temporal (sequential) reading of PartIR:Core, which is its reference
// semantics: `partir.loop` runs its body once per index of the axis, in
// order, and combines the yielded values per action (concatenation along d
// for #partir.tile<d>, addition in the element type for #partir.sum, the
// value of iteration 0 for #partir.any, checking that all iterations agree);
// `partir.slice` takes the chunk the index selects (padded chunks hold zeros
// past the end, and #tile drops them); `partir.tag` is the
// identity. The loop index is bound as a rank-0 i64 tensor.
//
//===----------------------------------------------------------------------===//

#include "OpImpl.h"

#include "toast/Dialect/PartIR/Core/IR/PartIRCore.h"

using namespace mlir;
using namespace toast::interp;
using namespace toast::interp::detail;
namespace partir = toast::partir;

namespace {

/// Combines the value `tile` of iteration `r` into `acc` per `action`.
LogicalResult combineTile(Interpreter &interp, Operation *op, Attribute action,
                          int64_t r, const Tensor &tile, Tensor &acc,
                          unsigned resultNumber) {
  if (auto tileAttr = dyn_cast<partir::TileAttr>(action)) {
    int64_t d = tileAttr.getDim();
    SmallVector<int64_t> offsets(acc.getRank(), 0);
    offsets[d] = r * tile.getDim(d);
    // A padded tile's padding lies past the result's end.
    insertBlock(acc, clipBlock(tile, offsets, acc.getShape()), offsets);
    return success();
  }
  if (r == 0) {
    acc = tile;
    return success();
  }
  if (isa<partir::SumAttr>(action)) {
    for (int64_t i = 0, n = acc.getNumElements(); i < n; ++i)
      applyCombiner(Combiner::Add, acc, i, tile, i);
    return success();
  }
  if (isa<partir::AnyAttr>(action)) {
    if (!interp.getOptions().verifyAnyLoops)
      return success();
    for (int64_t i = 0, n = acc.getNumElements(); i < n; ++i)
      if (!acc.elementEquals(i, tile, i))
        return op->emitError("toast-run: #partir.any loop result #")
               << resultNumber << ": iteration " << r << " yields "
               << tile.formatElement(i) << " at index " << acc.formatIndex(i)
               << " but iteration 0 yields " << acc.formatElement(i);
    return success();
  }
  return op->emitError("toast-run: unsupported loop action ") << action;
}

LogicalResult evalLoop(Interpreter &interp, Operation *op, ArrayRef<Tensor>,
                       SmallVectorImpl<Tensor> &results) {
  auto loop = cast<partir::LoopOp>(op);
  auto rangeType = dyn_cast<partir::RangeType>(loop.getRange().getType());
  if (!rangeType)
    return op->emitError("toast-run: loop index must be a !partir.range");
  ArrayAttr actions = loop.getActions();
  if (actions.size() != op->getNumResults())
    return op->emitError("toast-run: loop has ")
           << actions.size() << " actions for " << op->getNumResults()
           << " results";
  SmallVector<Tensor> accs;
  for (unsigned i = 0; i < op->getNumResults(); ++i)
    accs.push_back(makeResult(op, i));
  auto indexType = *ElementType::get(IntegerType::get(op->getContext(), 64));
  for (int64_t r = 0; r < rangeType.getSize(); ++r) {
    Tensor index = Tensor::scalarInt(indexType, r);
    SmallVector<Tensor> tiles;
    if (failed(interp.runRegion(loop.getBody(), {index}, tiles)))
      return failure();
    if (tiles.size() != accs.size())
      return op->emitError("toast-run: loop body yields ")
             << tiles.size() << " values for " << accs.size() << " results";
    for (unsigned i = 0; i < accs.size(); ++i)
      if (failed(combineTile(interp, op, actions[i], r, tiles[i], accs[i], i)))
        return failure();
  }
  results.append(accs.begin(), accs.end());
  return success();
}

LogicalResult evalSlice(Interpreter &, Operation *op, ArrayRef<Tensor> operands,
                        SmallVectorImpl<Tensor> &results) {
  auto slice = cast<partir::SliceOp>(op);
  const Tensor &x = operands[0];
  int64_t r = operands[1].getInt(0);
  int64_t d = slice.getDim();
  Tensor result = makeResult(op);
  int64_t chunk = result.getDim(d);
  int64_t n = cast<partir::RangeType>(slice.getRange().getType()).getSize();
  if (r < 0 || r >= n)
    return op->emitError("toast-run: slice index ")
           << r << " out of range for dimension " << d << " of size "
           << x.getDim(d);
  // The padding of a padded chunk is unspecified; zeros here.
  SmallVector<int64_t> offsets(x.getRank(), 0);
  offsets[d] = r * chunk;
  results.push_back(extractPaddedBlock(x, offsets, result.getShape()));
  return success();
}

LogicalResult evalTag(Interpreter &, Operation *, ArrayRef<Tensor> operands,
                      SmallVectorImpl<Tensor> &results) {
  results.push_back(operands[0]);
  return success();
}
} // namespace

void toast::interp::detail::registerPartIRCoreOps(OpRegistry &r) {
  r.add("partir.loop", evalLoop);
  r.add("partir.slice", evalSlice);
  r.add("partir.tag", evalTag);
}
