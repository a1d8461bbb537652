//===- MaterializeCore.cpp - Sharding state to PartIR:Core loops ---------===//
//
// Rewrites a function whose ShardingState says how every op and value is
// tiled into PartIR:Core:
//
//  1. arguments with explicit tilings get a value-tiling loop nest that
//     slices them (`loop a [#tile<d>] { slice d %x[%r] }`), atomic values a
//     `loop a [#any] { yield %x }`;
//  2. every op with a loop nest becomes that nest: operands are sliced by
//     the factors they map, the op runs on tiles, and results are combined
//     by `#tile<d>`, `#sum` or `#any`;
//  3. results with explicit tilings beyond their nest get a value-tiling
//     nest over their full tiling (deep tiling, appendix B.1.2);
//  4. fusion: a single-result loop whose only use is a slice, over the same
//     axis and dimension, by a later loop (possibly nested in a later loop
//     of the producer's block, never in a `while`/`case`/`if` body, where
//     it would run per iteration) is moved into that loop: the slice of the
//     tiled result at the loop's own index is the tile. This yields the
//     fused nests of the paper's Listing 8.
//
// Ops inside loop and conditional bodies are rewritten the same way; the
// region op itself stays global, and its tied values (block arguments and
// results) get value-tiling nests like arguments. Lowering to PartIR:HLO
// then makes the carried values device-local (localizeTiedValues).
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/PartIR/HLO/Transforms/Passes.h"
#include "toast/Partition/ShardingState.h"

#include "PaddingMask.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;

namespace toast::partition {

namespace {
/// One loop of a nest: its axis, and per result the action and the type the
/// loop returns.
struct Level {
  std::string axis;
  SmallVector<Attribute> actions;
  SmallVector<Type> resultTypes;
};
} // namespace

/// `type` with dimension `dim` cut into `n` chunks (padded if n does not
/// divide it).
static RankedTensorType divideDim(RankedTensorType type, int64_t dim,
                                  int64_t n) {
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = partir::chunkSize(shape[dim], n);
  return type.clone(shape);
}

/// Builds the nest `levels` at the builder's insertion point. `inner` fills
/// the innermost body given the loop ranges (outermost first) and returns
/// the values to yield. Returns the outermost loop's results.
static SmallVector<Value>
buildNest(OpBuilder &b, Location loc, ArrayRef<Level> levels,
          SmallVectorImpl<Value> &ranges,
          function_ref<SmallVector<Value>(OpBuilder &, ArrayRef<Value>)> inner,
          partir::MeshAttr mesh) {
  if (levels.empty())
    return inner(b, ranges);
  const Level &level = levels.front();
  int64_t size = *mesh.getAxisSize(level.axis);
  auto loop = partir::LoopOp::create(b, loc, level.resultTypes,
                                     b.getStringAttr(level.axis),
                                     b.getArrayAttr(level.actions));
  OpBuilder::InsertionGuard guard(b);
  Block *body =
      b.createBlock(&loop.getBody(), {},
                    {partir::RangeType::get(b.getContext(), size)}, {loc});
  ranges.push_back(body->getArgument(0));
  SmallVector<Value> yielded =
      buildNest(b, loc, levels.drop_front(), ranges, inner, mesh);
  ranges.pop_back();
  partir::YieldOp::create(b, loc, yielded);
  return SmallVector<Value>(loop.getResults());
}

/// Slices `value` by the (range, dim) pairs in order.
static Value sliceChain(OpBuilder &b, Location loc, Value value,
                        ArrayRef<std::pair<Value, int64_t>> slices) {
  for (auto [range, dim] : slices) {
    int64_t n = cast<partir::RangeType>(range.getType()).getSize();
    auto type = divideDim(cast<RankedTensorType>(value.getType()), dim, n);
    value = partir::SliceOp::create(b, loc, type, b.getI64IntegerAttr(dim),
                                    value, range);
  }
  return value;
}

/// A value-tiling nest over `tiling` for `value`, placed at the builder's
/// insertion point; returns the (global) loop result.
static Value tileValue(OpBuilder &b, Location loc, Value value,
                       ArrayRef<AxisDim> tiling, partir::MeshAttr mesh) {
  auto type = cast<RankedTensorType>(value.getType());
  // Each level returns the type its enclosing levels leave.
  SmallVector<Level> levels;
  RankedTensorType levelType = type;
  for (const AxisDim &level : tiling) {
    levels.push_back({level.axis,
                      {partir::TileAttr::get(b.getContext(), level.dim)},
                      {levelType}});
    levelType = divideDim(levelType, level.dim, *mesh.getAxisSize(level.axis));
  }
  SmallVector<Value> ranges;
  return buildNest(
      b, loc, levels, ranges,
      [&](OpBuilder &nb, ArrayRef<Value> rs) -> SmallVector<Value> {
        SmallVector<std::pair<Value, int64_t>> slices;
        for (auto [range, level] : llvm::zip_equal(rs, tiling))
          slices.push_back({range, level.dim});
        return {sliceChain(nb, loc, value, slices)};
      },
      mesh)[0];
}

/// Routes every use of `value` outside `loop` to `replacement`.
static void replaceUsesOutside(Value value, Value replacement,
                               Operation *loop) {
  value.replaceUsesWithIf(replacement, [&](OpOperand &use) {
    return !loop->isAncestor(use.getOwner());
  });
}

static StringRef toRef(const std::string &s) { return s; }

/// Wraps `value` in its value-tiling and atomic loops, inserted at the
/// builder's insertion point.
static void wrapValue(OpBuilder &b, Value value, ArrayRef<AxisDim> tiling,
                      ArrayRef<std::string> atomicAxes, partir::MeshAttr mesh) {
  Location loc = value.getLoc();
  Value current = value;
  if (!tiling.empty()) {
    Value tiled = tileValue(b, loc, current, tiling, mesh);
    replaceUsesOutside(current, tiled, tiled.getDefiningOp());
    current = tiled;
  }
  for (const std::string &axis : atomicAxes) {
    SmallVector<Value> ranges;
    Level level{
        axis, {partir::AnyAttr::get(b.getContext())}, {current.getType()}};
    Value whole = buildNest(
        b, loc, level, ranges,
        [&](OpBuilder &, ArrayRef<Value>) -> SmallVector<Value> {
          return {current};
        },
        mesh)[0];
    replaceUsesOutside(current, whole, whole.getDefiningOp());
    current = whole;
  }
}

/// Done by attribute name so that this library needs no StableHLO classes.
void adjustLocalAttributes(Operation *clone, Operation *original) {
  StringRef name = clone->getName().getStringRef();
  auto rewrite = [&](StringRef attrName, auto fn) {
    auto attr = dyn_cast_or_null<DenseI64ArrayAttr>(
        clone->getInherentAttr(attrName).value_or(Attribute()));
    if (!attr)
      return;
    SmallVector<int64_t> values(attr.asArrayRef());
    fn(values);
    clone->setInherentAttr(StringAttr::get(clone->getContext(), attrName),
                           DenseI64ArrayAttr::get(clone->getContext(), values));
  };
  auto globalIn = cast<RankedTensorType>(original->getOperand(0).getType());
  auto localIn = cast<RankedTensorType>(clone->getOperand(0).getType());
  auto localOut = cast<RankedTensorType>(clone->getResult(0).getType());
  if (name == "stablehlo.slice") {
    rewrite("limit_indices", [&](SmallVector<int64_t> &limits) {
      for (auto [d, limit] : llvm::enumerate(limits))
        if (limit == globalIn.getDimSize(d))
          limit = localIn.getDimSize(d);
    });
  } else if (name == "stablehlo.dynamic_slice") {
    rewrite("slice_sizes", [&](SmallVector<int64_t> &sizes) {
      for (auto [d, size] : llvm::enumerate(sizes))
        size = localOut.getDimSize(d);
    });
  } else if (name == "stablehlo.gather") {
    rewrite("slice_sizes", [&](SmallVector<int64_t> &sizes) {
      for (auto [d, size] : llvm::enumerate(sizes))
        if (size == globalIn.getDimSize(d))
          size = localIn.getDimSize(d);
    });
  }
}

/// Replaces padding by zeros in `tile`, operand `k` of `op`, on the
/// reduction factors of `nest` that the mesh pads: partial sums over a
/// padded tile must not add the padding. (Only sum-combined reductions are
/// looped over, and zero is their identity.)
static FailureOr<Value> maskReductions(OpBuilder &b, Operation *op, unsigned k,
                                       Value tile, const ShardingRule &rule,
                                       ArrayRef<AxisFactor> nest,
                                       ArrayRef<Value> ranges) {
  for (auto [l, level] : llvm::enumerate(nest)) {
    const Factor &factor = rule.factors[level.factor];
    int64_t dim = rule.getOperandDim(k, level.factor);
    int64_t n = cast<partir::RangeType>(ranges[l].getType()).getSize();
    if (factor.kind != FactorKind::Reduction || dim == kNoFactor ||
        !partir::isPadded(factor.size, n))
      continue;
    FailureOr<Value> masked =
        zeroPadding(b, op->getLoc(), tile, dim, ranges[l], factor.size);
    if (failed(masked))
      return failure();
    tile = *masked;
  }
  return tile;
}

/// Replaces `op` by its loop nest; returns the nest's results.
static FailureOr<SmallVector<Value>> buildOpNest(OpBuilder &b, Operation *op,
                                                 const ShardingRule &rule,
                                                 ArrayRef<AxisFactor> nest,
                                                 partir::MeshAttr mesh) {
  MLIRContext *ctx = op->getContext();
  Location loc = op->getLoc();
  // Per result: its type outside each level, and the action of each level.
  SmallVector<Level> levels;
  for (const AxisFactor &level : nest)
    levels.push_back({level.axis, {}, {}});
  SmallVector<Type> innerTypes;
  for (OpResult result : op->getResults()) {
    unsigned j = result.getResultNumber();
    auto type = dyn_cast<RankedTensorType>(result.getType());
    for (auto [l, level] : llvm::enumerate(nest)) {
      int64_t dim = rule.getResultDim(j, level.factor);
      Attribute action =
          dim != kNoFactor ? Attribute(partir::TileAttr::get(ctx, dim))
          : rule.factors[level.factor].kind == FactorKind::Reduction
              ? Attribute(partir::SumAttr::get(ctx))
              : Attribute(partir::AnyAttr::get(ctx));
      levels[l].actions.push_back(action);
      levels[l].resultTypes.push_back(type);
      if (dim != kNoFactor)
        type = divideDim(type, dim, *mesh.getAxisSize(level.axis));
    }
    innerTypes.push_back(type);
  }
  SmallVector<Value> ranges;
  bool masked = true;
  SmallVector<Value> results = buildNest(
      b, loc, levels, ranges,
      [&](OpBuilder &nb, ArrayRef<Value> rs) -> SmallVector<Value> {
        Operation *clone = nb.clone(*op);
        for (auto [k, operand] : llvm::enumerate(op->getOperands())) {
          if (!isa<RankedTensorType>(operand.getType()))
            continue;
          SmallVector<std::pair<Value, int64_t>> slices;
          for (auto [l, level] : llvm::enumerate(nest)) {
            int64_t dim = rule.getOperandDim(k, level.factor);
            if (dim != kNoFactor)
              slices.push_back({rs[l], dim});
          }
          Value sliced = sliceChain(nb, loc, operand, slices);
          // One error per op is enough.
          FailureOr<Value> tile =
              masked ? maskReductions(nb, op, k, sliced, rule, nest, rs)
                     : FailureOr<Value>(sliced);
          masked &= succeeded(tile);
          clone->setOperand(k, succeeded(tile) ? *tile : sliced);
        }
        // The slices were created after the clone; keep def-before-use.
        clone->moveBefore(nb.getInsertionBlock(), nb.getInsertionPoint());
        for (auto [result, type] :
             llvm::zip_equal(clone->getResults(), innerTypes))
          result.setType(type);
        if (clone->getNumOperands() && clone->getNumResults() &&
            isa<RankedTensorType>(clone->getOperand(0).getType()) &&
            isa<RankedTensorType>(clone->getResult(0).getType()))
          adjustLocalAttributes(clone, op);
        clone->removeAttr("partir.loops");
        return SmallVector<Value>(clone->getResults());
      },
      mesh);
  if (!masked)
    return failure();
  return results;
}

namespace {
/// Fuses loops into the loops that slice them. Remembers, per loop, the axes
/// of the loops nested in it, so that the no-nesting check does not walk
/// bodies that grow with every fusion (which would be quadratic on chains).
class LoopFuser {
public:
  /// One fusion step at `slice` (see the file comment); true if it fused.
  bool fuseIntoSlice(partir::SliceOp slice);

private:
  llvm::SmallSet<StringRef, 4> &nestedAxes(partir::LoopOp loop);
  llvm::DenseMap<Operation *, llvm::SmallSet<StringRef, 4>> nested;
};
} // namespace

llvm::SmallSet<StringRef, 4> &LoopFuser::nestedAxes(partir::LoopOp loop) {
  auto it = nested.find(loop);
  if (it != nested.end())
    return it->second;
  llvm::SmallSet<StringRef, 4> axes;
  loop.getBody().walk(
      [&](partir::LoopOp inner) { axes.insert(inner.getAxis()); });
  return nested[loop] = axes;
}

bool LoopFuser::fuseIntoSlice(partir::SliceOp slice) {
  auto range = dyn_cast<BlockArgument>(slice.getRange());
  auto producer = slice.getOperand().getDefiningOp<partir::LoopOp>();
  if (!range || !producer || producer->getNumResults() != 1 ||
      !slice.getOperand().hasOneUse())
    return false;
  auto consumer = dyn_cast<partir::LoopOp>(range.getOwner()->getParentOp());
  if (!consumer || consumer.getAxis() != producer.getAxis())
    return false;
  // The consumer must sit in the producer's block (possibly nested in a
  // later op of it). It then comes after the producer, whose result it uses,
  // so the producer's operands dominate the consumer's body. (No order query:
  // it would be O(n) after every fusion changed the block.)
  Operation *anchor = producer->getBlock()->findAncestorOpInBlock(*consumer);
  if (!anchor || anchor == producer.getOperation())
    return false;
  // Never into a loop or conditional body: the producer's work would run
  // once per iteration (or only on one branch).
  for (Operation *cur = consumer; cur != anchor; cur = cur->getParentOp())
    if (isDataFlowRegionOp(cur))
      return false;
  if (isDataFlowRegionOp(anchor))
    return false;
  auto tile = dyn_cast<partir::TileAttr>(producer.getActions()[0]);
  if (!tile || tile.getDim() != slice.getDim())
    return false;
  // Moving the producer's body under the consumer must not nest two loops
  // over one axis.
  SmallVector<partir::LoopOp> enclosing;
  for (Operation *cur = consumer; cur; cur = cur->getParentOp())
    if (auto loop = dyn_cast<partir::LoopOp>(cur))
      enclosing.push_back(loop);
  llvm::SmallSet<StringRef, 4> moved = nestedAxes(producer);
  for (partir::LoopOp loop : enclosing)
    if (moved.contains(loop.getAxis()))
      return false;
  for (partir::LoopOp loop : enclosing)
    if (nested.count(loop))
      for (StringRef axis : moved)
        nested[loop].insert(axis);
  nested.erase(producer);

  // The consumer's ops go after the producer's body ops and the producer's
  // block becomes the consumer's body. Moving the (usually short) consumer
  // block keeps chains of fusions linear: splicing ops costs per op moved.
  Block &from = producer.getBody().front();
  Block &to = consumer.getBody().front();
  Value tileValue = producer.getYield().getValues()[0];
  to.getArgument(0).replaceAllUsesWith(from.getArgument(0));
  slice.getResult().replaceAllUsesWith(tileValue);
  slice.erase();
  producer.getYield().erase();
  from.getOperations().splice(from.end(), to.getOperations());
  consumer.getBody().getBlocks().splice(consumer.getBody().end(),
                                        producer.getBody().getBlocks());
  to.erase();
  producer.erase();
  return true;
}

static void fuseLoops(func::FuncOp func) {
  LoopFuser fuser;
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<partir::SliceOp> slices;
    func.walk([&](partir::SliceOp slice) { slices.push_back(slice); });
    for (partir::SliceOp slice : slices)
      changed |= fuser.fuseIntoSlice(slice);
  }
}

LogicalResult ShardingState::materializeCore() {
  if (func.isExternal())
    return success();
  Block &entry = func.getBody().front();
  OpBuilder b(func.getContext());
  // The caller's layout: atomic arguments and results stay whole on their
  // axes at the lowered boundary (makeBoundaryDeviceLocal).
  SmallVector<ArrayAttr> wholeArgs, wholeResults;
  for (BlockArgument arg : func.getArguments())
    wholeArgs.push_back(b.getStrArrayAttr(
        SmallVector<StringRef>(llvm::map_range(getAtomicAxes(arg), toRef))));
  for (Value result : entry.getTerminator()->getOperands())
    wholeResults.push_back(b.getStrArrayAttr(
        SmallVector<StringRef>(llvm::map_range(getAtomicAxes(result), toRef))));
  b.setInsertionPointToStart(&entry);
  for (BlockArgument arg : func.getArguments())
    wrapValue(b, arg, getExplicitTiling(arg), getAtomicAxes(arg), mesh);

  // Ops of every partitionable block, a region op before its bodies.
  SmallVector<Operation *> original;
  walkProgram(entry, [&](Operation *op, const Scope &) {
    if (!op->hasTrait<OpTrait::IsTerminator>())
      original.push_back(op);
  });
  for (Operation *op : original) {
    SmallVector<Value> results(op->getResults());
    // Full tilings are computed before the op is replaced.
    SmallVector<SmallVector<AxisDim>> tilings;
    SmallVector<SmallVector<std::string>> atomics;
    NodeInfo *info = getInfo(op);
    for (OpResult result : op->getResults()) {
      // A value-tiling nest is needed only for tilings beyond the op's nest.
      SmallVector<AxisDim> tiling = getTiling(result);
      size_t fromNest = 0;
      if (info)
        for (const AxisFactor &level : info->nest)
          fromNest += info->rule.getResultDim(result.getResultNumber(),
                                              level.factor) != kNoFactor;
      tilings.push_back(tiling.size() > fromNest ? tiling
                                                 : SmallVector<AxisDim>());
      atomics.push_back(SmallVector<std::string>(getAtomicAxes(result)));
    }
    // A loop's or conditional's block arguments are tied values: tiled
    // like function arguments, at the start of their block, in argument
    // order (the builder moves past each nest).
    if (isDataFlowRegionOp(op))
      for (Region &region : op->getRegions())
        for (Block &block : region) {
          b.setInsertionPointToStart(&block);
          for (BlockArgument arg : block.getArguments())
            if (!arg.use_empty())
              wrapValue(b, arg, getTiling(arg), getAtomicAxes(arg), mesh);
        }
    if (info && !info->nest.empty()) {
      b.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> nest =
          buildOpNest(b, op, info->rule, info->nest, mesh);
      if (failed(nest))
        return failure();
      results = *nest;
      op->replaceAllUsesWith(results);
      opNodes.erase(op);
      op->erase();
    }
    // In result order: each nest after the previous one of the same op
    // (inserting each right after the op reversed them, so lowering
    // gathered a loop's last result first, where the search's plan
    // gathers the first one first).
    Operation *wrapped = nullptr;
    for (auto [i, result] : llvm::enumerate(results)) {
      if (tilings[i].empty() && atomics[i].empty())
        continue;
      if (result.getDefiningOp() != wrapped)
        b.setInsertionPointAfterValue(result);
      wrapped = result.getDefiningOp();
      wrapValue(b, result, tilings[i], atomics[i], mesh);
    }
  }
  values.clear();
  clearSavedState(func);
  for (auto [i, axes] : llvm::enumerate(wholeArgs))
    if (!axes.empty())
      func.setArgAttr(i, partir_hlo::kKeepWholeAttr, axes);
  if (wholeResults.size() == func.getNumResults())
    for (auto [i, axes] : llvm::enumerate(wholeResults))
      if (!axes.empty())
        func.setResultAttr(i, partir_hlo::kKeepWholeAttr, axes);
  fuseLoops(func);
  return success();
}

} // namespace toast::partition
