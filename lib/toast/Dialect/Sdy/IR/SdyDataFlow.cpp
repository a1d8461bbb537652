//===- SdyDataFlow.cpp - shard_map regions as data-flow edge ops ----------===//
//
// An sdy.manual_computation is partitioned like a loop body that runs once
// (control-flow-design.md §2): its body's ops get loop nests of their own,
// and each operand/body-argument pair and each body-result/result pair is a
// tied class. Unlike a loop's, the two sides of such an edge differ on the
// manual axes: the global side is split on them as the boundary sharding
// says, the body's side is already per device on them. Only the free axes
// flow across (Shardy propagates the same way through its edges).
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/Sdy/IR/Sdy.h"

using namespace mlir;
using namespace toast::sdy;

unsigned ManualComputationOp::getNumEdges() {
  return getNumOperands() + getNumResults();
}

void ManualComputationOp::getEdgeSources(
    unsigned edge, SmallVectorImpl<OpOperand *> &sources) {
  if (edge < getNumOperands()) {
    sources.push_back(&getOperation()->getOpOperand(edge));
    return;
  }
  Operation *ret = getBody().front().getTerminator();
  unsigned index = edge - getNumOperands();
  if (index < ret->getNumOperands())
    sources.push_back(&ret->getOpOperand(index));
}

void ManualComputationOp::getEdgeTargets(unsigned edge,
                                         SmallVectorImpl<Value> &targets) {
  if (edge < getNumOperands())
    targets.push_back(getBody().getArgument(edge));
  else
    targets.push_back(getResult(edge - getNumOperands()));
}

SmallVector<StringRef> ManualComputationOp::getRegionManualAxes() {
  return SmallVector<StringRef>(getManualAxes().getAsValueRange<StringAttr>());
}

toast::ManualLevels ManualComputationOp::getEdgeManualLevels(unsigned edge) {
  toast::ManualLevels manual;
  manual.onSources = edge < getNumOperands();
  TensorShardingAttr sharding =
      manual.onSources
          ? getInShardings().getShardings()[edge]
          : getOutShardings().getShardings()[edge - getNumOperands()];
  for (auto [d, dim] : llvm::enumerate(sharding.getDimShardings()))
    for (AxisRefAttr ref : dim.getAxes())
      if (isManualAxis(ref.getAxisName()))
        manual.levels.push_back(
            {ref.getAxisName().str(), static_cast<int64_t>(d)});
  return manual;
}
