//===- ControlRules.cpp - Rules of control flow, calls, collectives -------===//
//
// optimization_barrier, custom_call, composite, partition_id, replica_id,
// the collectives, tokens and transfers, and the region terminator.
//
// while, case and if have no rule: their region data flow is not one op's
// factors. They are DataFlowEdgeOpInterface ops (DataFlowModels.cpp), whose
// tied values every layer treats as one value, and the ops in their regions
// get rules of their own.
//
//===----------------------------------------------------------------------===//

#include "RuleModels.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

using namespace mlir;

namespace toast::rules {
namespace {

using namespace stablehlo;

/// Result i is operand i: every dimension of every (operand i, result i)
/// pair gets its own parallel factor (optimization_barrier).
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

/// custom_call: only identity targets (CustomCallOp::isIdentity: JAX's
/// `Sharding`, markers such as `tt.mark_argument`, the host-offloading
/// calls, targets the module declares) have a rule: pointwise. Any other
/// target (including the `check.*` test helpers, which have no results) is
/// opaque.
struct CustomCallModel : RuleModel<CustomCallModel, CustomCallOp> {
  static std::optional<ShardingRule> build(CustomCallOp op) {
    if (!op.isIdentity())
      return std::nullopt;
    ShardingRuleBuilder builder(op);
    builder.addPointwise();
    return builder.build();
  }
};

} // namespace

void attachControlRules(MLIRContext &ctx) {
  OptimizationBarrierOp::attachInterface<IdentityModel<OptimizationBarrierOp>>(
      ctx);
  attachDataFlowModels(ctx);
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
  //  * tokens (after_all, create_token) and the transfers they order
  //    (infeed, outfeed, send, recv): a transfer moves whole values to or
  //    from the host or another device once, in token order, so its values
  //    stay whole on every device.
  attachToAll<OpaqueModel, AfterAllOp, CreateTokenOp, InfeedOp, OutfeedOp,
              SendOp, RecvOp>(ctx);
}

} // namespace toast::rules
