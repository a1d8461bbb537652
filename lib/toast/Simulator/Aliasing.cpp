//===- Aliasing.cpp - Which values share a buffer -------------------------===//

#include "toast/Simulator/Aliasing.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"
#include "toast/Interfaces/ControlFlow.h"
#include "toast/Simulator/CostModel.h"

using namespace mlir;
namespace hlo = toast::stablehlo;

bool toast::sim::mayAliasOperand(Operation *op) {
  return isa<hlo::ReshapeOp, hlo::BitcastConvertOp>(op) &&
         op->getNumOperands() == 1 && op->getNumResults() == 1;
}

bool toast::sim::isAliasingOp(Operation *op) {
  return mayAliasOperand(op) && getTypeBytes(op->getOperand(0).getType()) ==
                                    getTypeBytes(op->getResult(0).getType());
}

SmallVector<toast::sim::TiedResult> toast::sim::getTiedResults(Operation *op) {
  SmallVector<TiedResult> tied;
  auto iface = dyn_cast<DataFlowEdgeOpInterface>(op);
  if (!iface)
    return tied;
  for (unsigned edge = 0, e = iface.getNumEdges(); edge < e; ++edge) {
    SmallVector<OpOperand *, 2> sources;
    SmallVector<Value, 3> targets;
    iface.getEdgeSources(edge, sources);
    iface.getEdgeTargets(edge, targets);
    // Sources are the op's own operand (the init) and what the regions
    // yield; yielding one of the class's own block arguments writes
    // nothing.
    TiedResult result;
    bool written = false;
    for (OpOperand *source : sources) {
      if (source->getOwner() == op)
        result.init = static_cast<int>(source->getOperandNumber());
      else if (!llvm::is_contained(targets, source->get()))
        written = true;
    }
    result.passThrough = result.init >= 0 && !written;
    tied.push_back(result);
  }
  return tied;
}
