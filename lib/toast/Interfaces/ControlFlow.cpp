//===- ControlFlow.cpp - ProgramWalk and TiedValues -----------------------===//

#include "toast/Interfaces/ControlFlow.h"

using namespace mlir;

#include "toast/Interfaces/DataFlowEdgeOpInterface.cpp.inc"

namespace toast {

SmallVector<Scope> getRegionScopes(Operation *op, const Scope &outer) {
  SmallVector<Scope> scopes;
  auto iface = dyn_cast<DataFlowEdgeOpInterface>(op);
  for (Region &region : op->getRegions()) {
    Scope scope = outer;
    scope.regionOp = op;
    scope.depth = outer.depth + 1;
    std::optional<int64_t> runs =
        iface ? iface.getRegionRunCount(region.getRegionNumber())
              : std::optional<int64_t>(1);
    if (runs)
      scope.repeat = outer.repeat * static_cast<double>(*runs);
    else
      scope.uncounted = true;
    if (iface)
      if (std::optional<LoopFacts> facts = iface.getLoopFacts())
        scope.atMost |= facts->earlyExit;
    scopes.push_back(scope);
  }
  return scopes;
}

static void walkBlock(Block &block, const Scope &scope,
                      function_ref<void(Operation *, const Scope &)> fn,
                      WalkOrder order) {
  for (Operation &op : block) {
    if (order == WalkOrder::PreOrder)
      fn(&op, scope);
    if (isDataFlowRegionOp(&op))
      for (auto [region, inner] :
           llvm::zip_equal(op.getRegions(), getRegionScopes(&op, scope)))
        for (Block &nested : region)
          walkBlock(nested, inner, fn, order);
    if (order == WalkOrder::PostOrder)
      fn(&op, scope);
  }
}

void walkProgram(Block &entry,
                 function_ref<void(Operation *, const Scope &)> fn,
                 WalkOrder order) {
  walkBlock(entry, Scope(), fn, order);
}

std::optional<int64_t> getTripCount(Operation *op) {
  if (auto iface = dyn_cast<DataFlowEdgeOpInterface>(op))
    if (std::optional<LoopFacts> facts = iface.getLoopFacts())
      return facts->tripCount;
  return std::nullopt;
}

Location getLoopConditionLoc(Operation *op) {
  if (op->getNumRegions() == 0 || op->getRegion(0).empty())
    return op->getLoc();
  Operation *terminator = op->getRegion(0).front().getTerminator();
  if (!terminator || terminator->getNumOperands() == 0)
    return op->getLoc();
  Operation *decider = terminator->getOperand(0).getDefiningOp();
  return decider && decider->getParentRegion() == &op->getRegion(0)
             ? decider->getLoc()
             : terminator->getLoc();
}

TiedValues::TiedValues(Block &entry) {
  walkProgram(entry, [&](Operation *op, const Scope &) {
    auto iface = dyn_cast<DataFlowEdgeOpInterface>(op);
    if (!iface)
      return;
    for (unsigned i = 0, e = iface.getNumEdges(); i < e; ++i) {
      Edge edge{op, i, {}, {}};
      iface.getEdgeSources(i, edge.sources);
      iface.getEdgeTargets(i, edge.targets);
      unsigned id = edges.size();
      for (Value target : edge.targets)
        targetEdge[target] = id;
      for (auto [k, source] : llvm::enumerate(edge.sources))
        sourceEdge[source] = {id, static_cast<unsigned>(k)};
      edges.push_back(std::move(edge));
    }
  });
}

const TiedValues::Edge *TiedValues::getEdgeOfTarget(Value value) const {
  auto it = targetEdge.find(value);
  return it == targetEdge.end() ? nullptr : &edges[it->second];
}

const TiedValues::Edge *TiedValues::getEdgeOfSource(OpOperand &use,
                                                    unsigned *index) const {
  auto it = sourceEdge.find(&use);
  if (it == sourceEdge.end())
    return nullptr;
  if (index)
    *index = it->second.second;
  return &edges[it->second.first];
}

} // namespace toast
