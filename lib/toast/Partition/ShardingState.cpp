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
static constexpr StringLiteral kEdgeLoopsAttr = "partir.edge_loops";
static constexpr StringLiteral kOpTilesAttr = "partir.op_tiles";
static constexpr StringLiteral kOpAtomicAttr = "partir.op_atomic";
/// Why a dimension cannot be cut into that many tiles (canTileDim).
static constexpr StringLiteral kPaddingRule =
    "padding takes one axis per dimension and at least one row per tile";

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
  if (func.isExternal()) {
    tied = std::make_shared<TiedValues>();
    return;
  }
  Block &entry = func.getBody().front();
  tied = std::make_shared<TiedValues>(entry);
  unsigned order = 0;
  DenseMap<Operation *, unsigned> regionOrder;
  // Per region op, the manual axes its body runs per device on (its own
  // and those of the shard_map regions around it).
  DenseMap<Operation *, SmallVector<std::string>> fixed;
  walkProgram(entry, [&](Operation *op, const Scope &scope) {
    ++order;
    SmallVector<std::string> scopeAxes = fixed.lookup(scope.regionOp);
    // A tied class is visited where its loop or conditional is.
    if (auto region = dyn_cast<DataFlowEdgeOpInterface>(op)) {
      regionOrder[op] = order;
      SmallVector<std::string> axes = scopeAxes;
      for (StringRef axis : region.getRegionManualAxes())
        axes.push_back(axis.str());
      fixed[op] = std::move(axes);
    }
    // Constants stay whole (consumers slice them, the collective optimizer
    // hoists and merges them). Other zero-operand ops with a rule (iota)
    // loop like any op, so each device builds only its part: a
    // [batch, seq, vocab] iota of a loss is never built whole.
    if ((op->getNumOperands() == 0 && op->hasTrait<OpTrait::ConstantLike>()) ||
        !hasOnlyScalarRegions(op))
      return;
    std::optional<ShardingRule> rule = getShardingRule(op);
    if (!rule)
      return;
    opNodes[op] = nodes.size();
    nodes.push_back({std::move(*rule), {}, order, op, 0, scopeAxes, {}, false});
  });
  addEdges(regionOrder, fixed);
}

/// The identity rule of a tied class: one parallel factor per dimension of
/// the owning result, mapped to the same dimension of every source and
/// target of that type. An edge into or out of a shard_map body (`manual`)
/// ties a global value to a local one of the same rank: its factors have
/// the local sizes (the free axes split what is left per device).
static ShardingRule edgeRule(const TiedValues::Edge &edge,
                             const ManualLevels *manual) {
  ShardingRule rule;
  Type type = edge.targets.front().getType();
  if (manual && !manual->onSources && !edge.sources.empty())
    type = edge.sources.front()->get().getType();
  auto tensor = dyn_cast<RankedTensorType>(type);
  SmallVector<int64_t> dims;
  if (tensor && tensor.hasStaticShape())
    for (auto [d, size] : llvm::enumerate(tensor.getShape())) {
      rule.factors.push_back({size, FactorKind::Parallel});
      dims.push_back(d);
    }
  auto dimsOf = [&](Type t) {
    auto other = dyn_cast<RankedTensorType>(t);
    bool same = t == type || (manual && tensor && other &&
                              other.getRank() == tensor.getRank());
    return same ? dims : SmallVector<int64_t>();
  };
  for (OpOperand *source : edge.sources)
    rule.operandDims.push_back(dimsOf(source->get().getType()));
  for (Value target : edge.targets)
    rule.resultDims.push_back(dimsOf(target.getType()));
  return rule;
}

void ShardingState::addEdges(
    const DenseMap<Operation *, unsigned> &regionOrder,
    const DenseMap<Operation *, SmallVector<std::string>> &fixed) {
  for (auto [i, edge] : llvm::enumerate(tied->getEdges())) {
    auto owner = cast<DataFlowEdgeOpInterface>(edge.owner);
    ManualLevels manual = owner.getEdgeManualLevels(edge.index);
    bool crossesManual = !owner.getRegionManualAxes().empty();
    edgeNodes.push_back(nodes.size());
    NodeInfo &node = nodes.emplace_back();
    node.rule = edgeRule(edge, crossesManual ? &manual : nullptr);
    node.order = regionOrder.lookup(edge.owner);
    node.edge = i;
    node.fixedAxes = fixed.lookup(edge.owner);
    for (auto &[axis, dim] : manual.levels)
      node.manualLevels.push_back({axis, dim});
    node.manualOnInputs = manual.onSources;
  }
}

/// Whether `node` may never loop over `axis` (a manual axis around it).
static bool isFixed(ArrayRef<std::string> fixedAxes, StringRef axis) {
  return llvm::is_contained(fixedAxes, axis);
}

SmallVector<std::string> ShardingState::getManualAxes(Block *block) {
  SmallVector<std::string> axes;
  for (Operation *op = block->getParentOp(); op; op = op->getParentOp())
    if (auto region = dyn_cast<DataFlowEdgeOpInterface>(op))
      for (StringRef axis : region.getRegionManualAxes())
        axes.push_back(axis.str());
  return axes;
}

void ShardingState::enqueue(NodePort port) {
  if (port.node)
    worklist.insert(
        {port.node->order, static_cast<unsigned>(port.node - nodes.data())});
}

void ShardingState::enqueue(Operation *op) {
  if (NodeInfo *info = getInfo(op))
    enqueue(NodePort{info, 0});
}

void ShardingState::enqueueNeighbours(Value value) {
  enqueue(getProducer(value));
  for (OpOperand &use : value.getUses())
    enqueue(getConsumer(use));
}

ShardingState::NodeInfo *ShardingState::getInfo(Operation *op) {
  auto it = opNodes.find(op);
  return it == opNodes.end() ? nullptr : &nodes[it->second];
}

ShardingState::NodePort ShardingState::getConsumer(OpOperand &use) {
  if (NodeInfo *info = getInfo(use.getOwner()))
    return {info, use.getOperandNumber()};
  unsigned index;
  if (const TiedValues::Edge *edge = tied->getEdgeOfSource(use, &index))
    return {&nodes[edgeNodes[tied->getIndex(*edge)]], index};
  return {};
}

ShardingState::NodePort ShardingState::getProducer(Value value) {
  if (auto result = dyn_cast<OpResult>(value))
    if (NodeInfo *info = getInfo(result.getOwner()))
      return {info, result.getResultNumber()};
  if (const TiedValues::Edge *edge = tied->getEdgeOfTarget(value)) {
    unsigned index = llvm::find(edge->targets, value) - edge->targets.begin();
    return {&nodes[edgeNodes[tied->getIndex(*edge)]], index};
  }
  return {};
}

SmallVector<Value> ShardingState::getInputs(const NodeInfo &node) {
  if (node.op)
    return SmallVector<Value>(node.op->getOperands());
  SmallVector<Value> inputs;
  for (OpOperand *source : tied->getEdges()[node.edge].sources)
    inputs.push_back(source->get());
  return inputs;
}

SmallVector<Value> ShardingState::getOutputs(const NodeInfo &node) {
  if (node.op)
    return SmallVector<Value>(node.op->getResults());
  const auto &targets = tied->getEdges()[node.edge].targets;
  return SmallVector<Value>(targets.begin(), targets.end());
}

SmallVector<AxisDim> ShardingState::inputSlicing(const NodeInfo &node,
                                                 unsigned index) {
  SmallVector<AxisDim> levels;
  if (node.manualOnInputs)
    levels.append(node.manualLevels);
  for (const AxisFactor &level : node.nest) {
    int64_t dim = node.rule.getOperandDim(index, level.factor);
    if (dim != kNoFactor)
      levels.push_back({level.axis, dim});
  }
  return levels;
}

const ShardingRule *ShardingState::getRule(Operation *op) {
  NodeInfo *info = getInfo(op);
  return info ? &info->rule : nullptr;
}

ArrayRef<AxisFactor> ShardingState::getLoopNest(Operation *op) {
  NodeInfo *info = getInfo(op);
  return info ? ArrayRef<AxisFactor>(info->nest) : ArrayRef<AxisFactor>();
}

ArrayRef<AxisFactor> ShardingState::getEdgeNest(const TiedValues::Edge &edge) {
  return nodes[edgeNodes[tied->getIndex(edge)]].nest;
}

bool ShardingState::isIndexedByBody(BlockArgument arg, int64_t dim) {
  bool indexed = false;
  for (OpOperand &use : arg.getUses()) {
    if (tied->getEdgeOfSource(use))
      continue; // Carried on as it is.
    const ShardingRule *rule = getRule(use.getOwner());
    if (!rule)
      return false;
    ArrayRef<int64_t> dims = rule->operandDims[use.getOperandNumber()];
    int64_t f = dim < static_cast<int64_t>(dims.size()) ? dims[dim] : kNoFactor;
    if (f != kNoFactor && rule->factors[f].kind != FactorKind::NotTileable)
      return false;
    indexed = true;
  }
  return indexed;
}

bool ShardingState::isStackedDim(Value value, int64_t dim) {
  for (OpOperand &use : value.getUses()) {
    const TiedValues::Edge *edge = tied->getEdgeOfSource(use);
    if (!edge)
      continue;
    for (Value target : edge->targets)
      if (auto arg = dyn_cast<BlockArgument>(target);
          arg && arg.getOwner()->getParentOp() == edge->owner &&
          isIndexedByBody(arg, dim))
        return true;
  }
  return false;
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

SmallVector<AxisDim> ShardingState::getNestTiling(Value value) {
  SmallVector<AxisDim> tiling;
  NodePort producer = getProducer(value);
  if (producer.node && !producer.node->manualOnInputs)
    tiling.append(producer.node->manualLevels);
  if (producer.node)
    for (const AxisFactor &level : producer.node->nest) {
      int64_t dim =
          producer.node->rule.getResultDim(producer.index, level.factor);
      if (dim != kNoFactor)
        tiling.push_back({level.axis, dim});
    }
  return tiling;
}

std::optional<SmallVector<AxisDim>>
ShardingState::getUseSlicing(OpOperand &use) {
  NodePort consumer = getConsumer(use);
  if (!consumer.node)
    return std::nullopt;
  return inputSlicing(*consumer.node, consumer.index);
}

SmallVector<AxisDim> ShardingState::getTiling(Value value) {
  SmallVector<AxisDim> tiling = getNestTiling(value);
  // Explicit tilings the defining nest already provides are satisfied.
  for (const AxisDim &level : getExplicitTiling(value))
    if (!llvm::any_of(tiling, [&](auto &l) { return l.axis == level.axis; }))
      tiling.push_back(level);
  return tiling;
}

/// Product of the sizes of the axes of the `levels` (AxisDim tilings or
/// AxisFactor nests) whose `key` member is `value`.
template <typename Level>
static int64_t axesProduct(ArrayRef<Level> levels, int64_t Level::*key,
                           int64_t value, const ShardingState &state) {
  int64_t product = 1;
  for (const Level &level : levels)
    if (level.*key == value)
      product *= state.axisSize(level.axis);
  return product;
}

/// Product of the sizes of the axes tiling `dim`.
static int64_t tiledBy(ArrayRef<AxisDim> tiling, int64_t dim,
                       const ShardingState &state) {
  return axesProduct(tiling, &AxisDim::dim, dim, state);
}

/// Whether `tiling` may cut dimension `dim` of `type` (canTileDim).
static bool canTile(RankedTensorType type, ArrayRef<AxisDim> tiling,
                    int64_t dim, const ShardingState &state) {
  if (llvm::none_of(tiling,
                    [&](const AxisDim &level) { return level.dim == dim; }))
    return true;
  // Axes of size 1 cut nothing, so they never count as the padding axis.
  auto axes = llvm::count_if(tiling, [&](const AxisDim &level) {
    return level.dim == dim && state.axisSize(level.axis) > 1;
  });
  return canTileDim(type.getDimSize(dim), tiledBy(tiling, dim, state), axes);
}

//===----------------------------------------------------------------------===//
// Actions
//===----------------------------------------------------------------------===//

SmallVector<AxisDim> ShardingState::commonConsumerSlicing(Value value) {
  SmallVector<AxisDim> common;
  bool first = true;
  for (OpOperand &use : value.getUses()) {
    NodePort consumer = getConsumer(use);
    if (!consumer.node)
      return {};
    SmallVector<AxisDim> levels = inputSlicing(*consumer.node, consumer.index);
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

/// Moves `level` of `tiling` to index `position` (or last).
static void placeLevel(SmallVector<AxisDim> &tiling, const AxisDim &level,
                       unsigned position) {
  llvm::erase(tiling, level);
  tiling.insert(tiling.begin() + std::min<size_t>(position, tiling.size()),
                level);
}

LogicalResult ShardingState::tile(Value value, int64_t dim, StringRef axis,
                                  std::optional<unsigned> position) {
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
  if (isFixed(getManualAxes(value.getParentBlock()), axis))
    return emitError(loc) << "tile: the value is in a shard_map body that is "
                             "manual on axis \""
                          << axis << "\"; only its free axes can tile it";
  if (position && *position >= mesh.getNames().size())
    return emitError(loc) << "tile: level position " << *position
                          << " is beyond the mesh's axes (a value has at "
                             "most "
                          << mesh.getNames().size()
                          << " tiling levels, one per mesh axis; positions "
                             "count from 0)";
  // The level is there already (deep tiling adopted it from the consumers
  // before the value's own tactic ran): only its place changes, which
  // decides which block of the dimension each device holds.
  AxisDim level{axis.str(), dim};
  if (position && llvm::is_contained(getExplicitTiling(value), level)) {
    placeLevel(values[value].tiling, level, *position);
    enqueueNeighbours(value);
    return success();
  }
  SmallVector<AxisDim> tiling = getTiling(value);
  if (llvm::any_of(tiling, [&](const AxisDim &l) { return l.axis == axis; }))
    return emitError(loc) << "tile: value is already tiled on axis \"" << axis
                          << "\"";
  if (llvm::is_contained(getAtomicAxes(value), axis))
    return emitError(loc) << "tile: value is atomic on axis \"" << axis << "\"";
  // Chunks of a run-time size are not expressible in PartIR's static types.
  if (type.isDynamicDim(dim))
    return emitError(loc) << "tile: dimension " << dim << " of " << type
                          << " is dynamic and cannot be tiled";
  int64_t tiles = tiledBy(tiling, dim, *this) * *size;
  SmallVector<AxisDim> withAxis = tiling;
  withAxis.push_back({axis.str(), dim});
  if (!canTile(type, withAxis, dim, *this))
    return emitError(loc) << "tile: dimension " << dim << " of size "
                          << type.getDimSize(dim) << " is not divisible into "
                          << tiles << " tiles (axis \"" << axis
                          << "\" has size " << *size << "; " << kPaddingRule
                          << ")";
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
  bool divides =
      llvm::all_of(llvm::seq<int64_t>(0, type.getRank()),
                   [&](int64_t d) { return canTile(type, deep, d, *this); });
  auto &explicitTiling = values[value].tiling;
  if (divides)
    llvm::append_range(explicitTiling, added);
  explicitTiling.push_back(level);
  if (position)
    placeLevel(explicitTiling, level, *position);
  enqueueNeighbours(value);
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

/// Product of the sizes of the axes a nest loops over `factor` with.
static int64_t tilesOf(ArrayRef<AxisFactor> nest, int64_t factor,
                       const ShardingState &state) {
  return axesProduct(nest, &AxisFactor::factor, factor, state);
}

bool ShardingState::canAssign(NodeInfo &node, StringRef axis, int64_t factor) {
  const Factor &f = node.rule.factors[factor];
  if (f.kind == FactorKind::NotTileable)
    return false;
  if (f.kind == FactorKind::Reduction && (!node.op || !combinesBySum(node.op)))
    return false;
  int64_t tiles = axisSize(axis) * tilesOf(node.nest, factor, *this);
  // Axes of size 1 cut nothing, so they never count as the padding axis.
  unsigned axes = axisSize(axis) > 1;
  for (const AxisFactor &level : node.nest)
    axes += level.factor == factor && axisSize(level.axis) > 1;
  if (!canTileDim(f.size, tiles, axes) ||
      (f.size % tiles != 0 && node.op && !node.rule.spansDims(node.op, factor)))
    return false;
  // A reshape's compound dimension stays a block tiling.
  if (!node.rule.canTileNext(
          factor, [&](int64_t g) { return tilesOf(node.nest, g, *this); }))
    return false;
  auto atomicOn = [&](Value v) {
    return llvm::is_contained(getAtomicAxes(v), axis);
  };
  for (auto [i, input] : llvm::enumerate(getInputs(node)))
    if (node.rule.getOperandDim(i, factor) != kNoFactor && atomicOn(input))
      return false;
  for (auto [i, output] : llvm::enumerate(getOutputs(node)))
    if (node.rule.getResultDim(i, factor) != kNoFactor && atomicOn(output))
      return false;
  return true;
}

int64_t ShardingState::factorOfLevel(const NodeInfo &node, bool isResult,
                                     unsigned index, ArrayRef<AxisDim> tiling,
                                     size_t l) const {
  SmallVector<int64_t, 2> list =
      node.rule.getDimFactors(isResult, index, tiling[l].dim);
  // Earlier levels on the same dimension fill its factors major first.
  size_t p = 0;
  int64_t tiles = 1;
  for (const AxisDim &level : tiling.take_front(l)) {
    // Manual levels of an edge's global side are outside its factors.
    if (level.dim != tiling[l].dim || isFixed(node.fixedAxes, level.axis))
      continue;
    tiles *= axisSize(level.axis);
    while (p < list.size() && tiles % node.rule.factors[list[p]].size == 0) {
      tiles /= node.rule.factors[list[p]].size;
      ++p;
    }
  }
  return p < list.size() ? list[p] : kNoFactor;
}

std::optional<int64_t> ShardingState::candidateFactor(NodeInfo &node,
                                                      StringRef axis,
                                                      PropagationStats &stats) {
  SmallVector<int64_t, 2> candidates;
  auto addLevels = [&](bool isResult, unsigned index,
                       ArrayRef<AxisDim> tiling) {
    for (auto [l, level] : llvm::enumerate(tiling)) {
      if (level.axis != axis)
        continue;
      int64_t factor = factorOfLevel(node, isResult, index, tiling, l);
      if (factor != kNoFactor && !llvm::is_contained(candidates, factor))
        candidates.push_back(factor);
    }
  };
  // A loop the op was asked for (tileOp) decides before anything else.
  for (const AxisFactor &request : node.requested)
    if (request.axis == axis)
      return request.factor;
  // An intermediate value tiled explicitly on the axis (a tile action on
  // an op's result, e.g. a schedule's `#N` selector), among the node's
  // results or operands, decides over what propagation derived: as with
  // PartIR's tile action, the op loops over it and its other operands are
  // sliced or gathered to suit. Arguments tiled explicitly another way
  // still make a conflict.
  auto isIntermediate = [](Value v) { return isa<OpResult>(v); };
  for (auto [j, output] : llvm::enumerate(getOutputs(node)))
    addLevels(true, j, getExplicitTiling(output));
  for (auto [i, input] : llvm::enumerate(getInputs(node)))
    if (isIntermediate(input))
      addLevels(false, i, getExplicitTiling(input));
  if (!candidates.empty()) {
    for (auto [i, input] : llvm::enumerate(getInputs(node)))
      if (!isIntermediate(input))
        addLevels(false, i, getExplicitTiling(input));
    if (candidates.size() == 1)
      return candidates.front();
    ++stats.conflicts;
    return std::nullopt;
  }
  // Forward: operands tiled on the axis.
  for (auto [i, input] : llvm::enumerate(getInputs(node)))
    addLevels(false, i, getTiling(input));
  // Backward: results tiled explicitly, or sliced by their consumers' nests.
  for (auto [j, output] : llvm::enumerate(getOutputs(node))) {
    addLevels(true, j, getTiling(output));
    for (OpOperand &use : output.getUses()) {
      NodePort consumer = getConsumer(use);
      if (!consumer.node || consumer.node == &node)
        continue;
      addLevels(true, j, inputSlicing(*consumer.node, consumer.index));
    }
  }
  if (candidates.size() > 1)
    ++stats.conflicts;
  if (candidates.size() != 1)
    return std::nullopt;
  return candidates.front();
}

std::optional<int64_t>
ShardingState::majorFactorFor(NodeInfo &node, StringRef axis, int64_t factor) {
  for (const MinorFactor &minor : node.rule.minorFactors) {
    if (minor.factor != factor)
      continue;
    for (int64_t major :
         node.rule.getDimFactors(minor.isResult, minor.tensor, minor.dim)) {
      if (major == factor)
        break;
      if (canAssign(node, axis, major))
        return major;
    }
  }
  return std::nullopt;
}

/// The nest position asked for `node`'s loop over `axis`, else none.
static std::optional<unsigned>
positionOf(ArrayRef<std::pair<std::string, unsigned>> positions,
           StringRef axis) {
  for (const auto &[a, position] : positions)
    if (a == axis)
      return position;
  return std::nullopt;
}

void ShardingState::insertLoop(NodeInfo &node, AxisFactor level) {
  // Loops without a position keep the order they came in, after those
  // with one; a loop with a position goes ahead of every loop with none
  // or a larger one.
  std::optional<unsigned> position = positionOf(node.positions, level.axis);
  auto *at = node.nest.end();
  if (position)
    at = llvm::find_if(node.nest, [&](const AxisFactor &l) {
      std::optional<unsigned> other = positionOf(node.positions, l.axis);
      return !other || *other > *position;
    });
  if (at == node.nest.end()) {
    node.nest.push_back(std::move(level));
    return;
  }
  SmallVector<AxisFactor> nest(node.nest.begin(), at);
  nest.push_back(level);
  nest.append(at, node.nest.end());
  // A reshape's compound dimension must stay a block tiling in the new
  // order (major factors first); if it would not, the loop goes last.
  SmallVector<AxisFactor> prefix;
  for (const AxisFactor &l : nest) {
    if (!node.rule.canTileNext(
            l.factor, [&](int64_t g) { return tilesOf(prefix, g, *this); })) {
      node.nest.push_back(std::move(level));
      return;
    }
    prefix.push_back(l);
  }
  node.nest = std::move(nest);
}

bool ShardingState::visit(NodeInfo &node, PropagationStats &stats) {
  bool changed = false;
  // Round 0 assigns the axes whose candidate can be tiled as it is; round 1
  // moves the others to a compound dimension's major factor, so that an
  // axis tiling the major factor is in the nest before one that would move
  // (a sequence axis tiles S once the batch axis has tiled all of B).
  for (int round = 0; round < 2; ++round) {
    for (StringAttr axisAttr : mesh.getNames()) {
      StringRef axis = axisAttr.getValue();
      if (isFixed(node.fixedAxes, axis) ||
          llvm::is_contained(node.atomicAxes, axis) ||
          llvm::any_of(node.nest,
                       [&](const AxisFactor &l) { return l.axis == axis; }))
        continue;
      PropagationStats ignored;
      std::optional<int64_t> factor =
          candidateFactor(node, axis, round ? ignored : stats);
      if (!factor)
        continue;
      // Round 1 first retries the candidate itself: round 0 may have tiled
      // its major factors fully since (an axis later in mesh order).
      bool moved = false;
      if (!canAssign(node, axis, *factor)) {
        if (round == 0)
          continue;
        factor = majorFactorFor(node, axis, *factor);
        if (!factor)
          continue;
        moved = true;
      }
      insertLoop(node, {axis.str(), *factor});
      ++stats.assignments;
      stats.reshapeMoves += moved;
      changed = true;
    }
    if (node.rule.minorFactors.empty())
      break;
  }
  return changed;
}

PropagationStats ShardingState::propagate() {
  PropagationStats stats;
  // Everything is a candidate once: tilings may predate this state.
  if (worklist.empty())
    for (NodeInfo &node : nodes)
      enqueue(NodePort{&node, 0});
  while (!worklist.empty()) {
    NodeInfo &node = nodes[worklist.begin()->second];
    worklist.erase(worklist.begin());
    ++stats.visits;
    if (!visit(node, stats))
      continue;
    // Neighbours see new evidence: consumers of the results (forward) and
    // producers of the operands (backward).
    for (Value output : getOutputs(node))
      for (OpOperand &use : output.getUses())
        enqueue(getConsumer(use));
    for (Value input : getInputs(node))
      enqueue(getProducer(input));
  }
  return stats;
}

//===----------------------------------------------------------------------===//
// Whole-state setters
//===----------------------------------------------------------------------===//

bool ShardingState::isLoopableFactor(Operation *op, int64_t factor) {
  NodeInfo *info = getInfo(op);
  if (!info || factor < 0 ||
      factor >= static_cast<int64_t>(info->rule.getNumFactors()))
    return false;
  FactorKind kind = info->rule.factors[factor].kind;
  return kind == FactorKind::Parallel ||
         (kind == FactorKind::Reduction && combinesBySum(op));
}

//===----------------------------------------------------------------------===//
// Actions on ops
//===----------------------------------------------------------------------===//

/// Whether `nest` (or a list of requests) has a level on `axis`.
static bool hasAxis(ArrayRef<AxisFactor> nest, StringRef axis) {
  return llvm::any_of(nest,
                      [&](const AxisFactor &l) { return l.axis == axis; });
}

LogicalResult ShardingState::tileOp(Operation *op, int64_t factor,
                                    StringRef axis,
                                    std::optional<unsigned> position) {
  NodeInfo *info = getInfo(op);
  auto fail = [&]() {
    return op->emitError() << "tile: op '" << op->getName() << "' ";
  };
  if (!info)
    return fail() << "has no sharding rule (it is opaque to partitioning)";
  std::optional<int64_t> size = mesh.getAxisSize(axis);
  if (!size)
    return fail() << "cannot loop over axis \"" << axis
                  << "\": it is not in the mesh " << mesh;
  if (isFixed(info->fixedAxes, axis))
    return fail() << "is in a shard_map body that is manual on axis \"" << axis
                  << "\"";
  int64_t numFactors = info->rule.getNumFactors();
  if (factor < 0 || factor >= numFactors)
    return fail() << "has no factor " << factor << " (its rule has "
                  << numFactors << ")";
  if (position && *position >= mesh.getNames().size())
    return fail() << "cannot loop over axis \"" << axis
                  << "\" at nest position " << *position
                  << ": a nest has at most " << mesh.getNames().size()
                  << " loops (one per mesh axis), positions count from 0";
  if (!isLoopableFactor(op, factor))
    return fail() << "cannot loop over factor " << factor
                  << (info->rule.factors[factor].kind == FactorKind::Reduction
                          ? ": its partial results cannot be added"
                          : ": the factor is not tileable");
  // A loop the op already has is satisfied.
  if (llvm::any_of(info->nest, [&](const AxisFactor &l) {
        return l.axis == axis && l.factor == factor;
      }))
    return success();
  if (hasAxis(info->nest, axis) || hasAxis(info->requested, axis))
    return fail() << "already loops over axis \"" << axis << "\"";
  if (llvm::is_contained(info->atomicAxes, axis))
    return fail() << "is atomic on axis \"" << axis << "\"";
  // Requests stay listed once propagation has satisfied them: count each
  // axis once, whether it is in the nest, requested, or both.
  SmallVector<AxisFactor> planned(info->nest);
  for (const AxisFactor &request : info->requested)
    if (!hasAxis(planned, request.axis))
      planned.push_back(request);
  int64_t tiles = *size * tilesOf(planned, factor, *this);
  int64_t factorSize = info->rule.factors[factor].size;
  if (factorSize % tiles != 0)
    return fail() << "cannot loop over factor " << factor << " of size "
                  << factorSize << " in " << tiles << " tiles (axis \"" << axis
                  << "\" has size " << *size << ")";
  info->requested.push_back({axis.str(), factor});
  if (position)
    info->positions.push_back({axis.str(), *position});
  enqueue(NodePort{info, 0});
  return success();
}

LogicalResult ShardingState::atomicOp(Operation *op, StringRef axis) {
  NodeInfo *info = getInfo(op);
  if (!info)
    return op->emitError() << "atomic: op '" << op->getName()
                           << "' has no sharding rule (it is opaque to "
                              "partitioning and never loops)";
  if (!mesh.getAxisSize(axis))
    return op->emitError() << "atomic: axis \"" << axis
                           << "\" is not in the mesh " << mesh;
  if (hasAxis(info->nest, axis) || hasAxis(info->requested, axis))
    return op->emitError() << "atomic: op '" << op->getName()
                           << "' already loops over axis \"" << axis << "\"";
  if (!llvm::is_contained(info->atomicAxes, axis))
    info->atomicAxes.push_back(axis.str());
  return success();
}

ArrayRef<AxisFactor> ShardingState::getRequestedLoops(Operation *op) {
  NodeInfo *info = getInfo(op);
  return info ? ArrayRef<AxisFactor>(info->requested) : ArrayRef<AxisFactor>();
}

std::optional<unsigned> ShardingState::getRequestedPosition(Operation *op,
                                                            StringRef axis) {
  NodeInfo *info = getInfo(op);
  return info ? positionOf(info->positions, axis) : std::nullopt;
}

ArrayRef<std::string> ShardingState::getAtomicOpAxes(Operation *op) {
  NodeInfo *info = getInfo(op);
  return info ? ArrayRef<std::string>(info->atomicAxes)
              : ArrayRef<std::string>();
}

/// Checks `nest` against `rule` for ShardingState::setLoopNest and
/// setEdgeNest, and a loaded `partir.loops`; `what` names the request in
/// errors. `loopable` says whether a factor may be looped over. `op` (null
/// for tied values) decides whether a factor may be padded.
static LogicalResult checkNest(StringRef what, Location loc,
                               const ShardingRule &rule,
                               ArrayRef<AxisFactor> nest, partir::MeshAttr mesh,
                               function_ref<bool(int64_t)> loopable,
                               Operation *op, ArrayRef<std::string> fixedAxes) {
  llvm::SmallDenseMap<int64_t, int64_t> tiles, axes;
  for (auto [i, level] : llvm::enumerate(nest)) {
    std::optional<int64_t> size = mesh.getAxisSize(level.axis);
    if (!size)
      return emitError(loc, what) << ": unknown axis \"" << level.axis << "\"";
    if (isFixed(fixedAxes, level.axis))
      return emitError(loc, what) << ": axis \"" << level.axis
                                  << "\" is manual in this shard_map region";
    if (llvm::any_of(nest.take_front(i),
                     [&](const AxisFactor &l) { return l.axis == level.axis; }))
      return emitError(loc, what)
             << ": axis \"" << level.axis << "\" used twice";
    if (level.factor < 0 ||
        level.factor >= static_cast<int64_t>(rule.factors.size()) ||
        !loopable(level.factor))
      return emitError(loc, what)
             << ": factor " << level.factor << " cannot be looped over";
    if (!rule.canTileNext(level.factor, [&](int64_t f) {
          return tiles.count(f) ? tiles.lookup(f) : 1;
        }))
      return emitError(loc, what)
             << ": factor " << level.factor
             << " would tile a compound (reshaped) dimension that is not a "
                "block: a minor factor before its major factors are fully "
                "tiled";
    int64_t &n = tiles.try_emplace(level.factor, 1).first->second;
    n *= *size;
    int64_t factorSize = rule.factors[level.factor].size;
    // Axes of size 1 cut nothing, so they never count as the padding axis.
    axes[level.factor] += *size > 1;
    if (!canTileDim(factorSize, n, axes[level.factor]) ||
        (factorSize % n != 0 && op && !rule.spansDims(op, level.factor)))
      return emitError(loc, what)
             << ": factor " << level.factor << " of size "
             << rule.factors[level.factor].size << " is not divisible into "
             << n << " tiles (" << kPaddingRule << ")";
  }
  return success();
}

LogicalResult ShardingState::setLoopNest(Operation *op,
                                         ArrayRef<AxisFactor> nest) {
  NodeInfo *info = getInfo(op);
  if (!info)
    return op->emitError("setLoopNest: op has no sharding rule");
  if (failed(checkNest(
          "setLoopNest", op->getLoc(), info->rule, nest, mesh,
          [&](int64_t f) { return isLoopableFactor(op, f); }, op,
          info->fixedAxes)))
    return failure();
  info->nest.assign(nest.begin(), nest.end());
  return success();
}

LogicalResult ShardingState::setEdgeNest(unsigned edge,
                                         ArrayRef<AxisFactor> nest) {
  if (edge >= edgeNodes.size())
    return func.emitError("setEdgeNest: no tied class ") << edge;
  NodeInfo &info = nodes[edgeNodes[edge]];
  Location loc = tied->getEdges()[edge].targets.front().getLoc();
  auto parallel = [&](int64_t f) {
    return info.rule.factors[f].kind == FactorKind::Parallel;
  };
  if (failed(checkNest("setEdgeNest", loc, info.rule, nest, mesh, parallel,
                       nullptr, info.fixedAxes)))
    return failure();
  info.nest.assign(nest.begin(), nest.end());
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
    if (!canTile(type, tiling.take_front(i + 1), level.dim, *this))
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
    entries.push_back(
        b.getStringAttr(level.axis + ":" + std::to_string(level.dim)));
  return b.getArrayAttr(entries);
}

static Attribute stringsAttr(Builder &b, ArrayRef<std::string> strings) {
  SmallVector<Attribute> entries;
  for (const std::string &s : strings)
    entries.push_back(b.getStringAttr(s));
  return b.getArrayAttr(entries);
}

/// A loop nest as "axis:factor" strings.
static Attribute nestAttr(Builder &b, ArrayRef<AxisFactor> nest) {
  SmallVector<std::string> loops;
  for (const AxisFactor &level : nest)
    loops.push_back(level.axis + ":" + std::to_string(level.factor));
  return stringsAttr(b, loops);
}

/// Requested loops as "axis:factor" strings, "axis:factor@position" for
/// those asked a nest position.
static Attribute requestsAttr(Builder &b, ArrayRef<AxisFactor> requested,
                              ArrayRef<std::pair<std::string, unsigned>> at) {
  SmallVector<std::string> loops;
  for (const AxisFactor &level : requested) {
    loops.push_back(level.axis + ":" + std::to_string(level.factor));
    if (std::optional<unsigned> position = positionOf(at, level.axis))
      loops.back() += "@" + std::to_string(*position);
  }
  return stringsAttr(b, loops);
}

void ShardingState::clearSavedState(func::FuncOp func) {
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    func.removeArgAttr(i, kTilingAttr);
    func.removeArgAttr(i, kAtomicAttr);
  }
  // The names are uniqued once and looked up before anything is removed:
  // removing by name uniqued each name and copied the op's attributes six
  // times per op, 9% of pricing a state by the reference path (issue 17).
  // They are discardable (dialect-prefixed), never inherent.
  MLIRContext *ctx = func.getContext();
  SmallVector<StringAttr, 6> names;
  for (StringRef name : {kLoopsAttr, kResultTilingsAttr, kResultAtomicAttr,
                         kEdgeLoopsAttr, kOpTilesAttr, kOpAtomicAttr})
    names.push_back(StringAttr::get(ctx, name));
  func.walk([&](Operation *op) {
    DictionaryAttr attrs = op->getDiscardableAttrDictionary();
    if (attrs.empty())
      return;
    for (StringAttr name : names)
      if (attrs.get(name))
        op->removeDiscardableAttr(name);
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
  SmallVector<Operation *> program;
  walkProgram(func.getBody().front(),
              [&](Operation *op, const Scope &) { program.push_back(op); });
  for (Operation *opPtr : program) {
    Operation &op = *opPtr;
    if (NodeInfo *info = getInfo(&op)) {
      if (!info->nest.empty())
        op.setAttr(kLoopsAttr, nestAttr(b, info->nest));
      if (!info->requested.empty())
        op.setAttr(kOpTilesAttr,
                   requestsAttr(b, info->requested, info->positions));
      if (!info->atomicAxes.empty())
        op.setAttr(kOpAtomicAttr, stringsAttr(b, info->atomicAxes));
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
  saveEdges(b);
}

void ShardingState::saveEdges(Builder &b) {
  DenseMap<Operation *, SmallVector<Attribute>> perOwner;
  bool any = false;
  for (const TiedValues::Edge &edge : tied->getEdges()) {
    SmallVector<Attribute> &lists = perOwner[edge.owner];
    lists.resize(cast<DataFlowEdgeOpInterface>(edge.owner).getNumEdges(),
                 b.getArrayAttr({}));
    lists[edge.index] = nestAttr(b, getEdgeNest(edge));
    any |= !getEdgeNest(edge).empty();
  }
  if (!any)
    return;
  for (auto &[owner, lists] : perOwner)
    owner->setAttr(kEdgeLoopsAttr, b.getArrayAttr(lists));
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

/// Reads a nest saved by nestAttr, checking axes and factors.
LogicalResult ShardingState::loadNest(Attribute attr, const ShardingRule &rule,
                                      SmallVectorImpl<AxisFactor> &nest) {
  auto pairs = parsePairs(attr);
  if (failed(pairs))
    return failure();
  for (auto &[axis, factor] : *pairs) {
    if (!mesh.getAxisSize(axis) || factor < 0 ||
        factor >= static_cast<int64_t>(rule.getNumFactors()) ||
        llvm::any_of(nest, [&](auto &l) { return l.axis == axis; }) ||
        !rule.canTileNext(factor,
                          [&](int64_t f) { return tilesOf(nest, f, *this); }))
      return failure();
    nest.push_back({axis, factor});
  }
  return success();
}

LogicalResult ShardingState::loadEdges(Operation *op) {
  Attribute attr = op->getAttr(kEdgeLoopsAttr);
  if (!attr)
    return success();
  auto lists = dyn_cast<ArrayAttr>(attr);
  auto region = dyn_cast<DataFlowEdgeOpInterface>(op);
  if (!region || !lists || lists.size() != region.getNumEdges())
    return op->emitError() << "malformed or unexpected " << kEdgeLoopsAttr
                           << " " << attr;
  for (const TiedValues::Edge &edge : tied->getEdges()) {
    if (edge.owner != op)
      continue;
    NodeInfo &node = nodes[edgeNodes[tied->getIndex(edge)]];
    auto pairs = parsePairs(lists[edge.index]);
    if (failed(pairs))
      return op->emitError()
             << "invalid " << kEdgeLoopsAttr << " entry " << lists[edge.index]
             << " (expected a list of \"axis:factor\" strings)";
    for (auto &[axis, factor] : *pairs)
      node.nest.push_back({axis, factor});
    // Checked as setEdgeNest checks a request (an unknown axis, a factor
    // out of range or not parallel, padding over two axes), with the
    // attribute's name and that check's messages.
    auto parallel = [&](int64_t f) {
      return node.rule.factors[f].kind == FactorKind::Parallel;
    };
    if (failed(checkNest(kEdgeLoopsAttr, op->getLoc(), node.rule, node.nest,
                         mesh, parallel, nullptr, node.fixedAxes)))
      return failure();
  }
  return success();
}

/// Splits "axis:factor@position" entries of `partir.op_tiles` into the
/// "axis:factor" list loadNest reads and the positions by axis.
static FailureOr<
    std::pair<ArrayAttr, SmallVector<std::pair<std::string, unsigned>>>>
splitPositions(Attribute attr) {
  auto array = dyn_cast<ArrayAttr>(attr);
  if (!array)
    return failure();
  SmallVector<Attribute> loops;
  SmallVector<std::pair<std::string, unsigned>> positions;
  for (Attribute entry : array) {
    auto str = dyn_cast<StringAttr>(entry);
    if (!str)
      return failure();
    auto [loop, position] = str.getValue().split('@');
    loops.push_back(StringAttr::get(attr.getContext(), loop));
    if (loop.size() == str.size())
      continue;
    unsigned at;
    if (position.getAsInteger(10, at))
      return failure();
    positions.push_back({loop.split(':').first.str(), at});
  }
  return std::make_pair(ArrayAttr::get(attr.getContext(), loops), positions);
}

LogicalResult ShardingState::loadOpActions(Operation *op) {
  Attribute tiles = op->getAttr(kOpTilesAttr);
  Attribute atomics = op->getAttr(kOpAtomicAttr);
  NodeInfo *info = getInfo(op);
  if ((tiles || atomics) && !info)
    return op->emitError() << "unexpected " << kOpTilesAttr << " or "
                           << kOpAtomicAttr << " on an op without a rule";
  if (tiles) {
    // Requests were checked when made; a satisfied one is in the nest.
    auto positions = splitPositions(tiles);
    if (failed(positions) ||
        failed(loadNest(positions->first, info->rule, info->requested)))
      return op->emitError() << "malformed " << kOpTilesAttr << " " << tiles;
    info->positions = std::move(positions->second);
  }
  if (atomics) {
    auto axes = parseStrings(atomics);
    if (failed(axes))
      return op->emitError() << "malformed " << kOpAtomicAttr << " " << atomics;
    for (const std::string &axis : *axes)
      if (failed(atomicOp(op, axis)))
        return failure();
  }
  return success();
}

LogicalResult ShardingState::load() {
  auto loadValue = [&](Value value, Attribute tiling, Attribute atomicAxes,
                       Location loc) -> LogicalResult {
    if (tiling) {
      auto pairs = parsePairs(tiling);
      if (failed(pairs))
        return emitError(loc) << "malformed " << kTilingAttr << " " << tiling;
      // Validate the entries and that they may cut their dimensions (a
      // hand-written tiling may pad over two axes); a nest may already
      // cover an explicit tiling's axis.
      auto type = dyn_cast<RankedTensorType>(value.getType());
      SmallVector<AxisDim> &loaded = values[value].tiling;
      for (auto &[axis, dim] : *pairs) {
        if (type && !mesh.getAxisSize(axis))
          // Most often an earlier tactic's mesh that a later mesh= replaced.
          return emitError(loc)
                 << kTilingAttr << " entry " << axis << ":" << dim
                 << ": axis \"" << axis << "\" is not in the mesh " << mesh
                 << " (did a later mesh= option replace the mesh an earlier "
                    "tactic used?)";
        if (!type || dim < 0 || dim >= type.getRank())
          return emitError(loc) << "invalid " << kTilingAttr << " entry "
                                << axis << ":" << dim;
        if (llvm::any_of(loaded,
                         [&, &axis = axis](auto &l) { return l.axis == axis; }))
          return emitError(loc)
                 << kTilingAttr << " entry " << axis << ":" << dim
                 << ": axis \"" << axis << "\" used twice";
        loaded.push_back({axis, dim});
        if (type.isDynamicDim(dim))
          return emitError(loc) << kTilingAttr << " entry " << axis << ":"
                                << dim << ": dimension " << dim << " of "
                                << type << " is dynamic and cannot be tiled";
        if (!canTile(type, loaded, dim, *this))
          return emitError(loc)
                 << kTilingAttr << " entry " << axis << ":" << dim
                 << ": dimension " << dim << " of size " << type.getDimSize(dim)
                 << " is not divisible into " << tiledBy(loaded, dim, *this)
                 << " tiles (" << kPaddingRule << ")";
      }
    }
    if (atomicAxes) {
      auto axes = parseStrings(atomicAxes);
      if (failed(axes))
        return emitError(loc)
               << "malformed " << kAtomicAttr << " " << atomicAxes;
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
  SmallVector<Operation *> program;
  walkProgram(func.getBody().front(),
              [&](Operation *op, const Scope &) { program.push_back(op); });
  for (Operation *opPtr : program) {
    Operation &op = *opPtr;
    if (Attribute loops = op.getAttr(kLoopsAttr)) {
      NodeInfo *info = getInfo(&op);
      FailureOr<SmallVector<std::pair<std::string, int64_t>>> pairs = failure();
      if (info)
        pairs = parsePairs(loops);
      if (failed(pairs))
        return op.emitError()
               << "malformed or unexpected " << kLoopsAttr << " " << loops;
      // Saved nests may be written by hand (lit tests, edited files):
      // checked as setLoopNest checks a request (with its messages), or
      // padding over two axes would lower into a layout no boundary
      // describes.
      for (auto &[axis, factor] : *pairs)
        info->nest.push_back({axis, factor});
      if (failed(checkNest(
              kLoopsAttr, op.getLoc(), info->rule, info->nest, mesh,
              [&](int64_t f) { return isLoopableFactor(&op, f); }, &op,
              info->fixedAxes)))
        return failure();
    }
    if (failed(loadOpActions(&op)))
      return failure();
    if (failed(loadEdges(&op)))
      return failure();
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
