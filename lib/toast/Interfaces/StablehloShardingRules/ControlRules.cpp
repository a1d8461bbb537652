//===- ControlRules.cpp - Rules of control flow, calls, collectives -------===//
//
// while, case, if, optimization_barrier, custom_call, composite,
// partition_id, replica_id, the collectives and the region terminator.
//
// Region data flow (while's operands to its block arguments and from the
// body's return back to the results, case/if branch returns to results) is
// not expressible as one op's factors; propagation follows those edges
// itself. The rules below only describe what flows through the op.
//
//===----------------------------------------------------------------------===//

#include "RuleModels.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

using namespace mlir;

namespace toast::rules {
namespace {

using namespace stablehlo;

/// Result i is operand i: every dimension of every (operand i, result i)
/// pair gets its own parallel factor. Used by while (the loop-carried
/// values) and optimization_barrier.
template <typename OpT>
struct IdentityModel : RuleModel<IdentityModel<OpT>, OpT> {
  static std::optional<ShardingRule> build(OpT op) {
    ShardingRuleBuilder builder(op);
    unsigned n = std::min(op->getNumOperands(), op->getNumResults());
    for (unsigned i = 0; i < n; ++i) {
      auto type = dyn_cast<RankedTensorType>(op->getResult(i).getType());
      if (!type || type != op->getOperand(i).getType())
        continue;
      for (auto [d, size] : llvm::enumerate(type.getShape())) {
        SmallVector<int64_t> operandDims = noDims(op->getNumOperands());
        SmallVector<int64_t> resultDims = noDims(op->getNumResults());
        operandDims[i] = d;
        resultDims[i] = d;
        builder.addFactor(operandDims, resultDims, size, FactorKind::Parallel);
      }
    }
    return builder.build();
  }
};

/// case and if: the results come from whichever branch runs, so they map no
/// operand (the index or predicate is a scalar). Every result dimension gets
/// a parallel factor of its own; the branches' returns are data-flow edges
/// that propagation handles.
template <typename OpT>
struct BranchResultsModel : RuleModel<BranchResultsModel<OpT>, OpT> {
  static std::optional<ShardingRule> build(OpT op) {
    ShardingRuleBuilder builder(op);
    for (auto [i, result] : llvm::enumerate(op->getResults())) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type)
        continue;
      for (auto [d, size] : llvm::enumerate(type.getShape())) {
        SmallVector<int64_t> resultDims = noDims(op->getNumResults());
        resultDims[i] = d;
        builder.addFactor(noDims(op->getNumOperands()), resultDims, size,
                          FactorKind::Parallel);
      }
    }
    return builder.build();
  }
};

/// custom_call: only targets toast knows have a rule. `Sharding` (JAX's
/// sharding annotation) and the host-offloading markers `MoveToHost` /
/// `MoveToDevice` return their single operand unchanged: pointwise. Any
/// other target (including the `check.*` test helpers, which have no
/// results) is opaque.
struct CustomCallModel : RuleModel<CustomCallModel, CustomCallOp> {
  static std::optional<ShardingRule> build(CustomCallOp op) {
    StringRef target = op.getCallTargetName();
    if (target != "Sharding" && target != "MoveToHost" &&
        target != "MoveToDevice")
      return std::nullopt;
    if (op->getNumOperands() != 1 || op->getNumResults() != 1 ||
        op->getOperand(0).getType() != op->getResult(0).getType() ||
        !isa<RankedTensorType>(op->getResult(0).getType()))
      return std::nullopt;
    ShardingRuleBuilder builder(op);
    builder.addPointwise();
    return builder.build();
  }
};

} // namespace

void attachControlRules(MLIRContext &ctx) {
  attachToAll<IdentityModel, WhileOp, OptimizationBarrierOp>(ctx);
  attachToAll<BranchResultsModel, CaseOp, IfOp>(ctx);
  CustomCallOp::attachInterface<CustomCallModel>(ctx);
  // Opaque by decision:
  //  * composite: a call of its decomposition; a rule would have to be
  //    derived from the callee (not done yet);
  //  * partition_id, replica_id: their value depends on the device;
  //  * collectives: they already describe device-local SPMD code;
  //  * return: a terminator; its operands are data-flow edges of the
  //    parent op.
  attachToAll<OpaqueModel, CompositeOp, PartitionIdOp, ReplicaIdOp, AllReduceOp,
              AllGatherOp, ReduceScatterOp, AllToAllOp, CollectivePermuteOp,
              CollectiveBroadcastOp, ReturnOp>(ctx);
}

} // namespace toast::rules
