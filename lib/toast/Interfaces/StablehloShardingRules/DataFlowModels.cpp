//===- DataFlowModels.cpp - Region data flow of while, case and if -------===//
//
// DataFlowEdgeOpInterface models (control-flow-design.md §2.3 A). A
// `while` ties operand i, its condition's and body's block argument i, the
// body's return operand i and result i; `case`/`if` tie every branch's
// return operand i to result i. The counted-loop matcher recognizes the
// counter pattern JAX emits for `fori_loop` and `scan`:
// `compare <dir> %counter, constant` in the condition and
// `add/subtract %counter, constant` in the body, with a constant init.
//
//===----------------------------------------------------------------------===//

#include "RuleModels.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"
#include "toast/Interfaces/ControlFlow.h"

using namespace mlir;

namespace toast::rules {
namespace {

using namespace stablehlo;

/// The value of a scalar (or splat) integer constant.
std::optional<int64_t> getConstantInt(Value value) {
  auto constant = value.getDefiningOp<ConstantOp>();
  if (!constant)
    return std::nullopt;
  auto elements = dyn_cast<DenseIntElementsAttr>(constant.getValue());
  if (!elements || !elements.isSplat())
    return std::nullopt;
  return elements.getSplatValue<APInt>().getSExtValue();
}

/// The counter's step: the body's next counter is `counter +/- constant`.
std::optional<int64_t> getStep(Block &body, unsigned index) {
  Value next = body.getTerminator()->getOperand(index);
  Operation *update = next.getDefiningOp();
  if (!update || update->getNumOperands() != 2)
    return std::nullopt;
  Value counter = body.getArgument(index);
  if (isa<AddOp>(update)) {
    if (update->getOperand(0) == counter)
      return getConstantInt(update->getOperand(1));
    if (update->getOperand(1) == counter)
      return getConstantInt(update->getOperand(0));
  } else if (isa<SubtractOp>(update) && update->getOperand(0) == counter) {
    if (std::optional<int64_t> sub = getConstantInt(update->getOperand(1)))
      return -*sub;
  }
  return std::nullopt;
}

/// Iterations of `counter <dir> limit` from `distance` = limit - init.
std::optional<int64_t> countIterations(ComparisonDirection dir,
                                       int64_t distance, int64_t s) {
  using Dir = ComparisonDirection;
  auto ceilDiv = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
  switch (dir) {
  case Dir::LT:
    if (s > 0)
      return distance > 0 ? ceilDiv(distance, s) : 0;
    return std::nullopt;
  case Dir::LE:
    if (s > 0)
      return distance >= 0 ? distance / s + 1 : 0;
    return std::nullopt;
  case Dir::GT:
    if (s < 0)
      return distance < 0 ? ceilDiv(-distance, -s) : 0;
    return std::nullopt;
  case Dir::GE:
    if (s < 0)
      return distance <= 0 ? -distance / -s + 1 : 0;
    return std::nullopt;
  case Dir::NE:
    if (distance % s != 0 || distance / s < 0)
      return std::nullopt;
    return distance / s;
  default:
    return std::nullopt;
  }
}

ComparisonDirection swapDirection(ComparisonDirection dir) {
  using Dir = ComparisonDirection;
  switch (dir) {
  case Dir::LT:
    return Dir::GT;
  case Dir::LE:
    return Dir::GE;
  case Dir::GT:
    return Dir::LT;
  case Dir::GE:
    return Dir::LE;
  default:
    return dir;
  }
}

std::optional<LoopFacts> matchCountedLoop(WhileOp loop) {
  if (loop.getCond().empty() || loop.getBody().empty())
    return std::nullopt;
  Block &cond = loop.getCond().front();
  Block &body = loop.getBody().front();
  Operation *condReturn = cond.getTerminator();
  if (condReturn->getNumOperands() != 1)
    return std::nullopt;
  auto compare = condReturn->getOperand(0).getDefiningOp<CompareOp>();
  if (!compare)
    return std::nullopt;
  // counter <dir> limit, or limit <dir> counter (swap the direction).
  ComparisonDirection dir = compare.getComparisonDirection();
  Value counter = compare.getLhs();
  std::optional<int64_t> limit = getConstantInt(compare.getRhs());
  if (!limit) {
    counter = compare.getRhs();
    limit = getConstantInt(compare.getLhs());
    dir = swapDirection(dir);
  }
  auto arg = dyn_cast<BlockArgument>(counter);
  if (!limit || !arg || arg.getOwner() != &cond ||
      arg.getArgNumber() >= body.getNumArguments() ||
      arg.getArgNumber() >= loop->getNumOperands())
    return std::nullopt;
  unsigned index = arg.getArgNumber();
  std::optional<int64_t> init = getConstantInt(loop->getOperand(index));
  std::optional<int64_t> step = getStep(body, index);
  if (!init || !step || *step == 0)
    return std::nullopt;
  std::optional<int64_t> trips = countIterations(dir, *limit - *init, *step);
  if (!trips)
    return std::nullopt;
  return LoopFacts{index, *init, *step, *trips};
}

struct WhileModel
    : DataFlowEdgeOpInterface::ExternalModel<WhileModel, WhileOp> {
  void getEdgeSources(Operation *op, unsigned edge,
                      SmallVectorImpl<OpOperand *> &sources) const {
    sources.push_back(&op->getOpOperand(edge));
    Region &body = cast<WhileOp>(op).getBody();
    if (!body.empty() && edge < body.front().getTerminator()->getNumOperands())
      sources.push_back(&body.front().getTerminator()->getOpOperand(edge));
  }
  void getEdgeTargets(Operation *op, unsigned edge,
                      SmallVectorImpl<Value> &targets) const {
    targets.push_back(op->getResult(edge));
    for (Region &region : op->getRegions())
      if (!region.empty() && edge < region.front().getNumArguments())
        targets.push_back(region.front().getArgument(edge));
  }
  std::optional<int64_t> getRegionRunCount(Operation *op,
                                           unsigned region) const {
    std::optional<LoopFacts> facts = getLoopFacts(op);
    if (!facts)
      return std::nullopt;
    // The condition runs once more than the body.
    return region == 0 ? facts->tripCount + 1 : facts->tripCount;
  }
  std::optional<LoopFacts> getLoopFacts(Operation *op) const {
    return matchCountedLoop(cast<WhileOp>(op));
  }
};

/// case and if: result i is whichever branch's return operand i ran.
template <typename OpT>
struct BranchModel
    : DataFlowEdgeOpInterface::ExternalModel<BranchModel<OpT>, OpT> {
  void getEdgeSources(Operation *op, unsigned edge,
                      SmallVectorImpl<OpOperand *> &sources) const {
    for (Region &branch : op->getRegions()) {
      if (branch.empty())
        continue;
      Operation *ret = branch.front().getTerminator();
      if (edge < ret->getNumOperands())
        sources.push_back(&ret->getOpOperand(edge));
    }
  }
  void getEdgeTargets(Operation *op, unsigned edge,
                      SmallVectorImpl<Value> &targets) const {
    targets.push_back(op->getResult(edge));
  }
};

} // namespace

void attachDataFlowModels(MLIRContext &ctx) {
  WhileOp::attachInterface<WhileModel>(ctx);
  CaseOp::attachInterface<BranchModel<CaseOp>>(ctx);
  IfOp::attachInterface<BranchModel<IfOp>>(ctx);
}

} // namespace toast::rules
