//===- ShardingState.cpp - Tiling actions and propagation ----------------===//

#include "toast/Partition/ShardingState.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace toast::partition {

static constexpr StringLiteral kTilingAttr = "partir.tiling";
static constexpr StringLiteral kAtomicAttr = "partir.atomic";
static constexpr StringLiteral kLoopsAttr = "partir.loops";
static constexpr StringLiteral kResultTilingsAttr = "partir.result_tilings";
static constexpr StringLiteral kResultAtomicAttr = "partir.result_atomic";

/// Whether an op's regions are scalar computations (reduce bodies,
/// comparators) that stay valid when the op runs on tiles. Ops whose regions
/// see tensors (while, case, if) are opaque.
static bool hasOnlyScalarRegions(Operation *op) {
  for (Region &region : op->getRegions()) {
    if (region.empty() || region.front().getNumArguments() == 0)
      return false;
    for (BlockArgument arg : region.front().getArguments()) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type || type.getRank() != 0)
        return false;
    }
  }
  return true;
}

ShardingState::ShardingState(func::FuncOp func, partir::MeshAttr mesh)
    : func(func), mesh(mesh) {
  unsigned order = 0;
  if (func.isExternal())
    return;
  for (Operation &op : func.getBody().front()) {
    ++order;
    // Zero-operand ops (constants, iota) stay whole; consumers slice them.
    if (op.getNumOperands() == 0 || !hasOnlyScalarRegions(&op))
      continue;
    std::optional<ShardingRule> rule = getShardingRule(&op);
    if (!rule)
      continue;
    OpInfo &info = ops[&op];
    info.rule = std::move(*rule);
    info.order = order;
  }
}

void ShardingState::enqueue(Operation *op) {
  if (OpInfo *info = getInfo(op))
    worklist.insert({info->order, op});
}

ShardingState::OpInfo *ShardingState::getInfo(Operation *op) {
  auto it = ops.find(op);
  return it == ops.end() ? nullptr : &it->second;
}

const ShardingRule *ShardingState::getRule(Operation *op) {
  OpInfo *info = getInfo(op);
  return info ? &info->rule : nullptr;
}

ArrayRef<AxisFactor> ShardingState::getLoopNest(Operation *op) {
  OpInfo *info = getInfo(op);
  return info ? ArrayRef<AxisFactor>(info->nest) : ArrayRef<AxisFactor>();
}

int64_t ShardingState::axisSize(StringRef axis) const {
  return mesh.getAxisSize(axis).value_or(1);
}

ArrayRef<AxisDim> ShardingState::getExplicitTiling(Value value) {
  auto it = values.find(value);
  return it == values.end() ? ArrayRef<AxisDim>() : it->second.tiling;
}

ArrayRef<std::string> ShardingState::getAtomicAxes(Value value) {
  auto it = values.find(value);
  return it == values.end() ? ArrayRef<std::string>() : it->second.atomic;
}

SmallVector<AxisDim> ShardingState::getTiling(Value value) {
  SmallVector<AxisDim> tiling;
  if (auto result = dyn_cast<OpResult>(value))
    if (OpInfo *info = getInfo(result.getOwner()))
      for (const AxisFactor &level : info->nest) {
        int64_t dim = info->rule.getResultDim(result.getResultNumber(),
                                              level.factor);
        if (dim != kNoFactor)
          tiling.push_back({level.axis, dim});
      }
  // Explicit tilings the defining nest already provides are satisfied.
  for (const AxisDim &level : getExplicitTiling(value))
    if (!llvm::any_of(tiling, [&](auto &l) { return l.axis == level.axis; }))
      tiling.push_back(level);
  return tiling;
}

/// Product of the sizes of the axes tiling `dim`.
static int64_t tiledBy(ArrayRef<AxisDim> tiling, int64_t dim,
                       const ShardingState &state) {
  int64_t product = 1;
  for (const AxisDim &level : tiling)
    if (level.dim == dim)
      product *= state.axisSize(level.axis);
  return product;
}

//===----------------------------------------------------------------------===//
// Actions
//===----------------------------------------------------------------------===//

SmallVector<AxisDim> ShardingState::commonConsumerSlicing(Value value) {
  SmallVector<AxisDim> common;
  bool first = true;
  for (OpOperand &use : value.getUses()) {
    OpInfo *info = getInfo(use.getOwner());
    if (!info)
      return {};
    SmallVector<AxisDim> levels;
    for (const AxisFactor &level : info->nest) {
      int64_t dim = info->rule.getOperandDim(use.getOperandNumber(),
                                             level.factor);
      if (dim != kNoFactor)
        levels.push_back({level.axis, dim});
    }
    if (first) {
      common = levels;
      first = false;
      continue;
    }
    llvm::erase_if(common, [&](const AxisDim &level) {
      return !llvm::is_contained(levels, level);
    });
  }
  return common;
}

LogicalResult ShardingState::tile(Value value, int64_t dim, StringRef axis) {
  Location loc = value.getLoc();
  std::optional<int64_t> size = mesh.getAxisSize(axis);
  if (!size)
    return emitError(loc) << "tile: axis \"" << axis << "\" is not in the mesh "
                          << mesh;
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return emitError(loc) << "tile: value of type " << value.getType()
                          << " is not a ranked tensor";
  if (dim < 0 || dim >= type.getRank())
    return emitError(loc) << "tile: dimension " << dim
                          << " is out of range for " << type;
  SmallVector<AxisDim> tiling = getTiling(value);
  if (llvm::any_of(tiling, [&](const AxisDim &l) { return l.axis == axis; }))
    return emitError(loc) << "tile: value is already tiled on axis \"" << axis
                          << "\"";
  if (llvm::is_contained(getAtomicAxes(value), axis))
    return emitError(loc) << "tile: value is atomic on axis \"" << axis
                          << "\"";
  int64_t tiles = tiledBy(tiling, dim, *this) * *size;
  if (type.getDimSize(dim) % tiles != 0)
    return emitError(loc) << "tile: dimension " << dim << " of size "
                          << type.getDimSize(dim) << " is not divisible into "
                          << tiles << " tiles (axis \"" << axis
                          << "\" has size " << *size << ")";
  // Deep tiling (appendix B.1.2): slicings every consumer already applies
  // become part of the value's tiling first, so the new tiling nests inside
  // them instead of undoing them. If together they would not divide the
  // dimensions, the tiling stays flat (consumers then slice the tiled value).
  SmallVector<AxisDim> deep = tiling;
  SmallVector<AxisDim> added;
  for (const AxisDim &level : commonConsumerSlicing(value))
    if (level.axis != axis &&
        !llvm::any_of(deep, [&](auto &l) { return l.axis == level.axis; })) {
      deep.push_back(level);
      added.push_back(level);
    }
  deep.push_back({axis.str(), dim});
  bool divides = llvm::all_of(llvm::seq<int64_t>(0, type.getRank()),
                              [&](int64_t d) {
                                return type.getDimSize(d) %
                                           tiledBy(deep, d, *this) ==
                                       0;
                              });
  auto &explicitTiling = values[value].tiling;
  if (divides)
    llvm::append_range(explicitTiling, added);
  explicitTiling.push_back({axis.str(), dim});
  if (Operation *def = value.getDefiningOp())
    enqueue(def);
  for (Operation *user : value.getUsers())
    enqueue(user);
  return success();
}

LogicalResult ShardingState::atomic(Value value, StringRef axis) {
  if (!mesh.getAxisSize(axis))
    return emitError(value.getLoc())
           << "atomic: axis \"" << axis << "\" is not in the mesh " << mesh;
  SmallVector<AxisDim> tiling = getTiling(value);
  if (llvm::any_of(tiling, [&](const AxisDim &l) { return l.axis == axis; }))
    return emitError(value.getLoc())
           << "atomic: value is already tiled on axis \"" << axis << "\"";
  auto &atomicAxes = values[value].atomic;
  if (!llvm::is_contained(atomicAxes, axis))
    atomicAxes.push_back(axis.str());
  return success();
}

//===----------------------------------------------------------------------===//
// Propagation
//===----------------------------------------------------------------------===//

/// Whether partial results of `op` along a reduction factor can be combined
/// with `#sum`: contractions always; `reduce` when its body adds and its init
/// values are zero constants.
static bool combinesBySum(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (name == "stablehlo.dot_general" || name == "stablehlo.dot" ||
      name == "stablehlo.convolution")
    return true;
  if (name != "stablehlo.reduce" || op->getNumRegions() != 1)
    return false;
  Block &body = op->getRegion(0).front();
  for (Operation &inner : body.without_terminator())
    if (inner.getName().getStringRef() != "stablehlo.add")
      return false;
  // Init values: the second half of the operands.
  unsigned n = op->getNumOperands() / 2;
  for (Value init : op->getOperands().drop_front(n)) {
    Operation *def = init.getDefiningOp();
    auto value = def ? def->getAttrOfType<DenseElementsAttr>("value")
                     : DenseElementsAttr();
    if (!value || !value.isSplat())
      return false;
    Attribute splat = value.getSplatValue<Attribute>();
    if (auto f = dyn_cast<FloatAttr>(splat); f && !f.getValue().isZero())
      return false;
    if (auto i = dyn_cast<IntegerAttr>(splat); i && !i.getValue().isZero())
      return false;
    if (!isa<FloatAttr, IntegerAttr>(splat))
      return false;
  }
  return true;
}

bool ShardingState::canAssign(Operation *op, OpInfo &info, StringRef axis,
                              int64_t factor) {
  const Factor &f = info.rule.factors[factor];
  if (f.kind == FactorKind::NotTileable)
    return false;
  if (f.kind == FactorKind::Reduction && !combinesBySum(op))
    return false;
  int64_t tiles = axisSize(axis);
  for (const AxisFactor &level : info.nest)
    if (level.factor == factor)
      tiles *= axisSize(level.axis);
  if (f.size <= 0 || f.size % tiles != 0)
    return false;
  auto atomicOn = [&](Value v) {
    return llvm::is_contained(getAtomicAxes(v), axis);
  };
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    if (info.rule.getOperandDim(i, factor) != kNoFactor && atomicOn(operand))
      return false;
  for (OpResult result : op->getResults())
    if (info.rule.getResultDim(result.getResultNumber(), factor) !=
            kNoFactor &&
        atomicOn(result))
      return false;
  return true;
}

std::optional<int64_t>
ShardingState::candidateFactor(Operation *op, OpInfo &info, StringRef axis,
                               PropagationStats &stats) {
  SmallVector<int64_t, 2> candidates;
  auto add = [&](int64_t factor) {
    if (factor != kNoFactor && !llvm::is_contained(candidates, factor))
      candidates.push_back(factor);
  };
  // Forward: operands tiled on the axis.
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    for (const AxisDim &level : getTiling(operand))
      if (level.axis == axis && i < info.rule.operandDims.size() &&
          level.dim < static_cast<int64_t>(info.rule.operandDims[i].size()))
        add(info.rule.operandDims[i][level.dim]);
  // Backward: results tiled explicitly, or sliced by their consumers' nests.
  for (OpResult result : op->getResults()) {
    ArrayRef<int64_t> dims = info.rule.resultDims[result.getResultNumber()];
    for (const AxisDim &level : getExplicitTiling(result))
      if (level.axis == axis)
        add(dims[level.dim]);
    for (OpOperand &use : result.getUses()) {
      OpInfo *userInfo = getInfo(use.getOwner());
      if (!userInfo)
        continue;
      for (const AxisFactor &level : userInfo->nest) {
        if (level.axis != axis)
          continue;
        int64_t dim = userInfo->rule.getOperandDim(use.getOperandNumber(),
                                                   level.factor);
        if (dim != kNoFactor)
          add(dims[dim]);
      }
    }
  }
  if (candidates.size() > 1)
    ++stats.conflicts;
  if (candidates.size() != 1)
    return std::nullopt;
  return candidates.front();
}

bool ShardingState::visit(Operation *op, PropagationStats &stats) {
  OpInfo &info = *getInfo(op);
  bool changed = false;
  for (StringAttr axisAttr : mesh.getNames()) {
    StringRef axis = axisAttr.getValue();
    if (llvm::any_of(info.nest,
                     [&](const AxisFactor &l) { return l.axis == axis; }))
      continue;
    std::optional<int64_t> factor = candidateFactor(op, info, axis, stats);
    if (!factor || !canAssign(op, info, axis, *factor))
      continue;
    info.nest.push_back({axis.str(), *factor});
    ++stats.assignments;
    changed = true;
  }
  return changed;
}

PropagationStats ShardingState::propagate() {
  PropagationStats stats;
  // Everything is a candidate once: tilings may predate this state.
  if (worklist.empty())
    for (Operation &op : func.getBody().front())
      enqueue(&op);
  while (!worklist.empty()) {
    Operation *op = worklist.begin()->second;
    worklist.erase(worklist.begin());
    ++stats.visits;
    if (!visit(op, stats))
      continue;
    // Neighbours see new evidence: consumers of the results (forward) and
    // producers of the operands (backward).
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers())
        enqueue(user);
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        enqueue(def);
  }
  return stats;
}

//===----------------------------------------------------------------------===//
// Whole-state setters
//===----------------------------------------------------------------------===//

bool ShardingState::isLoopableFactor(Operation *op, int64_t factor) {
  OpInfo *info = getInfo(op);
  if (!info || factor < 0 ||
      factor >= static_cast<int64_t>(info->rule.getNumFactors()))
    return false;
  FactorKind kind = info->rule.factors[factor].kind;
  return kind == FactorKind::Parallel ||
         (kind == FactorKind::Reduction && combinesBySum(op));
}

LogicalResult ShardingState::setLoopNest(Operation *op,
                                         ArrayRef<AxisFactor> nest) {
  OpInfo *info = getInfo(op);
  if (!info)
    return op->emitError("setLoopNest: op has no sharding rule");
  llvm::SmallDenseMap<int64_t, int64_t> tiles;
  for (auto [i, level] : llvm::enumerate(nest)) {
    if (!mesh.getAxisSize(level.axis))
      return op->emitError("setLoopNest: unknown axis \"")
             << level.axis << "\"";
    if (llvm::any_of(nest.take_front(i),
                     [&](const AxisFactor &l) { return l.axis == level.axis; }))
      return op->emitError("setLoopNest: axis \"")
             << level.axis << "\" used twice";
    if (!isLoopableFactor(op, level.factor))
      return op->emitError("setLoopNest: factor ")
             << level.factor << " cannot be looped over";
    int64_t &n = tiles.try_emplace(level.factor, 1).first->second;
    n *= axisSize(level.axis);
    if (info->rule.factors[level.factor].size % n != 0)
      return op->emitError("setLoopNest: factor ")
             << level.factor << " of size "
             << info->rule.factors[level.factor].size
             << " is not divisible into " << n << " tiles";
  }
  info->nest.assign(nest.begin(), nest.end());
  return success();
}

LogicalResult ShardingState::setExplicitTiling(Value value,
                                               ArrayRef<AxisDim> tiling) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type && !tiling.empty())
    return emitError(value.getLoc(), "setExplicitTiling: not a ranked tensor");
  for (auto [i, level] : llvm::enumerate(tiling)) {
    if (!mesh.getAxisSize(level.axis) || level.dim < 0 ||
        level.dim >= type.getRank())
      return emitError(value.getLoc(), "setExplicitTiling: invalid level ")
             << level.axis << ":" << level.dim;
    if (llvm::any_of(tiling.take_front(i),
                     [&](const AxisDim &l) { return l.axis == level.axis; }) ||
        llvm::is_contained(getAtomicAxes(value), level.axis))
      return emitError(value.getLoc(), "setExplicitTiling: axis \"")
             << level.axis << "\" used twice or atomic";
    if (type.getDimSize(level.dim) %
            tiledBy(tiling.take_front(i + 1), level.dim, *this) !=
        0)
      return emitError(value.getLoc(), "setExplicitTiling: dimension ")
             << level.dim << " is not divisible";
  }
  values[value].tiling.assign(tiling.begin(), tiling.end());
  return success();
}

//===----------------------------------------------------------------------===//
// Persistence
//===----------------------------------------------------------------------===//

static Attribute tilingAttr(Builder &b, ArrayRef<AxisDim> tiling) {
  SmallVector<Attribute> entries;
  for (const AxisDim &level : tiling)
    entries.push_back(b.getStringAttr(level.axis + ":" +
                                      std::to_string(level.dim)));
  return b.getArrayAttr(entries);
}

static Attribute stringsAttr(Builder &b, ArrayRef<std::string> strings) {
  SmallVector<Attribute> entries;
  for (const std::string &s : strings)
    entries.push_back(b.getStringAttr(s));
  return b.getArrayAttr(entries);
}

void ShardingState::clearSavedState(func::FuncOp func) {
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    func.removeArgAttr(i, kTilingAttr);
    func.removeArgAttr(i, kAtomicAttr);
  }
  func.walk([](Operation *op) {
    for (StringRef name : {kLoopsAttr, kResultTilingsAttr, kResultAtomicAttr})
      op->removeAttr(name);
  });
}

void ShardingState::save() {
  clearSavedState(func);
  Builder b(func.getContext());
  for (BlockArgument arg : func.getArguments()) {
    if (!getExplicitTiling(arg).empty())
      func.setArgAttr(arg.getArgNumber(), kTilingAttr,
                      tilingAttr(b, getExplicitTiling(arg)));
    if (!getAtomicAxes(arg).empty())
      func.setArgAttr(arg.getArgNumber(), kAtomicAttr,
                      stringsAttr(b, getAtomicAxes(arg)));
  }
  for (Operation &op : func.getBody().front()) {
    if (OpInfo *info = getInfo(&op); info && !info->nest.empty()) {
      SmallVector<std::string> loops;
      for (const AxisFactor &level : info->nest)
        loops.push_back(level.axis + ":" + std::to_string(level.factor));
      op.setAttr(kLoopsAttr, stringsAttr(b, loops));
    }
    bool anyTiling = false, anyAtomic = false;
    SmallVector<Attribute> tilings, atomics;
    for (Value result : op.getResults()) {
      anyTiling |= !getExplicitTiling(result).empty();
      anyAtomic |= !getAtomicAxes(result).empty();
      tilings.push_back(tilingAttr(b, getExplicitTiling(result)));
      atomics.push_back(stringsAttr(b, getAtomicAxes(result)));
    }
    if (anyTiling)
      op.setAttr(kResultTilingsAttr, b.getArrayAttr(tilings));
    if (anyAtomic)
      op.setAttr(kResultAtomicAttr, b.getArrayAttr(atomics));
  }
}

/// Parses "axis:number" entries.
static FailureOr<SmallVector<std::pair<std::string, int64_t>>>
parsePairs(Attribute attr) {
  SmallVector<std::pair<std::string, int64_t>> pairs;
  auto array = dyn_cast_or_null<ArrayAttr>(attr);
  if (!array)
    return failure();
  for (Attribute entry : array) {
    auto str = dyn_cast<StringAttr>(entry);
    if (!str)
      return failure();
    auto [axis, number] = str.getValue().rsplit(':');
    int64_t value;
    if (axis.empty() || number.getAsInteger(10, value))
      return failure();
    pairs.push_back({axis.str(), value});
  }
  return pairs;
}

static FailureOr<SmallVector<std::string>> parseStrings(Attribute attr) {
  SmallVector<std::string> strings;
  auto array = dyn_cast_or_null<ArrayAttr>(attr);
  if (!array)
    return failure();
  for (Attribute entry : array) {
    auto str = dyn_cast<StringAttr>(entry);
    if (!str)
      return failure();
    strings.push_back(str.str());
  }
  return strings;
}

LogicalResult ShardingState::load() {
  auto loadValue = [&](Value value, Attribute tiling, Attribute atomicAxes,
                       Location loc) -> LogicalResult {
    if (tiling) {
      auto pairs = parsePairs(tiling);
      if (failed(pairs))
        return emitError(loc) << "malformed " << kTilingAttr << " " << tiling;
      // Saved tilings were checked when applied; only validate the shape of
      // the entries (a nest may already cover an explicit tiling's axis).
      auto type = dyn_cast<RankedTensorType>(value.getType());
      for (auto &[axis, dim] : *pairs) {
        if (!type || !mesh.getAxisSize(axis) || dim < 0 ||
            dim >= type.getRank())
          return emitError(loc) << "invalid " << kTilingAttr << " entry "
                                << axis << ":" << dim;
        values[value].tiling.push_back({axis, dim});
      }
    }
    if (atomicAxes) {
      auto axes = parseStrings(atomicAxes);
      if (failed(axes))
        return emitError(loc) << "malformed " << kAtomicAttr << " "
                              << atomicAxes;
      for (const std::string &axis : *axes)
        if (failed(this->atomic(value, axis)))
          return failure();
    }
    return success();
  };
  for (BlockArgument arg : func.getArguments())
    if (failed(loadValue(arg, func.getArgAttr(arg.getArgNumber(), kTilingAttr),
                         func.getArgAttr(arg.getArgNumber(), kAtomicAttr),
                         func.getLoc())))
      return failure();
  for (Operation &op : func.getBody().front()) {
    if (Attribute loops = op.getAttr(kLoopsAttr)) {
      auto pairs = parsePairs(loops);
      OpInfo *info = getInfo(&op);
      if (failed(pairs) || !info)
        return op.emitError() << "malformed or unexpected " << kLoopsAttr;
      for (auto &[axis, factor] : *pairs) {
        if (!mesh.getAxisSize(axis) || factor < 0 ||
            factor >= static_cast<int64_t>(info->rule.getNumFactors()))
          return op.emitError() << "invalid " << kLoopsAttr << " entry "
                                << axis << ":" << factor;
        info->nest.push_back({axis, factor});
      }
    }
    auto tilings = op.getAttrOfType<ArrayAttr>(kResultTilingsAttr);
    auto atomics = op.getAttrOfType<ArrayAttr>(kResultAtomicAttr);
    for (OpResult result : op.getResults()) {
      unsigned i = result.getResultNumber();
      Attribute t = tilings && i < tilings.size() ? tilings[i] : Attribute();
      Attribute a = atomics && i < atomics.size() ? atomics[i] : Attribute();
      if (failed(loadValue(result, t, a, op.getLoc())))
        return failure();
    }
  }
  worklist.clear();
  return success();
}

} // namespace toast::partition
