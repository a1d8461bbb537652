//===- Aliasing.cpp - Which values share a buffer -------------------------===//

#include "toast/Simulator/Aliasing.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"
#include "toast/Interfaces/ControlFlow.h"
#include "toast/Simulator/CostModel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
namespace hlo = toast::stablehlo;

bool toast::sim::mayAliasOperand(Operation *op) {
  // A marker custom call is gone once a backend compiles the program.
  if (auto call = dyn_cast<hlo::CustomCallOp>(op))
    return call.isMarker();
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
  tied.resize(op->getNumResults());
  for (unsigned edge = 0, e = iface.getNumEdges(); edge < e; ++edge) {
    SmallVector<OpOperand *, 2> sources;
    SmallVector<Value, 3> targets;
    iface.getEdgeSources(edge, sources);
    iface.getEdgeTargets(edge, targets);
    // Only edges owned by a result describe a result's buffer (a shard_map
    // region's operand edges end at its body's arguments).
    auto owner = dyn_cast<OpResult>(targets.front());
    if (!owner || owner.getOwner() != op)
      continue;
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
    tied[owner.getResultNumber()] = result;
  }
  return tied;
}

int toast::sim::getInPlaceOperand(Operation *op, unsigned result) {
  if (isa<hlo::DynamicUpdateSliceOp>(op))
    return result == 0 ? 0 : -1;
  if (auto scatter = dyn_cast<hlo::ScatterOp>(op))
    return result < scatter.getInputs().size() ? static_cast<int>(result) : -1;
  return -1;
}

int toast::sim::getUpdateOperand(Operation *op, unsigned result) {
  if (isa<hlo::DynamicUpdateSliceOp>(op))
    return result == 0 ? 1 : -1;
  if (auto scatter = dyn_cast<hlo::ScatterOp>(op)) {
    unsigned inputs = scatter.getInputs().size();
    // inputs..., scatter_indices, updates...
    return result < inputs ? static_cast<int>(inputs + 1 + result) : -1;
  }
  return -1;
}

SmallVector<toast::sim::Donation> toast::sim::getDonations(
    func::FuncOp func, bool donateAll,
    llvm::function_ref<bool(unsigned, unsigned)> compatible) {
  SmallVector<Donation> donations;
  unsigned numArgs = func.getNumArguments();
  unsigned numResults = func.getNumResults();
  SmallVector<bool> taken(numResults, false);
  SmallVector<int> named(numArgs, -1);
  // Named results first: a donor never takes a result another argument
  // names.
  for (unsigned a = 0; a < numArgs; ++a)
    if (auto index =
            func.getArgAttrOfType<IntegerAttr>(a, "tf.aliasing_output")) {
      int64_t r = index.getInt();
      if (r >= 0 && r < numResults && !taken[r]) {
        taken[r] = true;
        named[a] = static_cast<int>(r);
      }
    }
  for (unsigned a = 0; a < numArgs; ++a) {
    if (func.getArgAttr(a, "tf.aliasing_output")) {
      int r = named[a];
      if (r >= 0 && !compatible(a, r))
        r = -1;
      donations.push_back({a, r});
      continue;
    }
    // `jax.buffer_donor = true`, or the unit form.
    Attribute donor = func.getArgAttr(a, "jax.buffer_donor");
    auto flag = dyn_cast_or_null<BoolAttr>(donor);
    bool isDonor = donor && (!flag || flag.getValue());
    if (!isDonor && !donateAll)
      continue;
    int match = -1;
    for (unsigned r = 0; r < numResults && match < 0; ++r)
      if (!taken[r] && compatible(a, r))
        match = static_cast<int>(r);
    if (match >= 0)
      taken[match] = true;
    if (match >= 0 || isDonor)
      donations.push_back({a, match});
  }
  return donations;
}
