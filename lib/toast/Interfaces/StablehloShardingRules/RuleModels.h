//===- RuleModels.h - Shared pieces of the rule models ----------*- C++ -*-===//
//
// Private to ToastStablehloShardingRules. Each op family's .cpp file defines
// small ExternalModel classes derived from RuleModel and attaches them in an
// attach*Rules function that registerStablehloShardingRules calls when the
// StableHLO (or CHLO) dialect is loaded.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_LIB_INTERFACES_STABLEHLOSHARDINGRULES_RULEMODELS_H
#define TOAST_LIB_INTERFACES_STABLEHLOSHARDINGRULES_RULEMODELS_H

#include "toast/Interfaces/ShardingRule.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

namespace toast::rules {

/// True when every ranked tensor operand and result has a static shape.
/// Non-tensor values (tokens, tuples) do not count.
bool hasStaticTensorShapes(mlir::Operation *op);

/// Base of every model: checks static shapes once, then calls
/// `Model::build(OpT)`, which returns the rule or std::nullopt.
template <typename Model, typename OpT>
struct RuleModel : ShardingRuleOpInterface::ExternalModel<Model, OpT> {
  std::optional<ShardingRule> getShardingRule(mlir::Operation *op) const {
    if (!hasStaticTensorShapes(op))
      return std::nullopt;
    return Model::build(mlir::cast<OpT>(op));
  }
};

/// Ops toast deliberately treats as opaque: the model exists so that the
/// registry is complete, and always answers "no rule".
template <typename OpT>
struct OpaqueModel
    : ShardingRuleOpInterface::ExternalModel<OpaqueModel<OpT>, OpT> {
  std::optional<ShardingRule> getShardingRule(mlir::Operation *) const {
    return std::nullopt;
  }
};

/// Elementwise ops: ShardingRuleBuilder::addPointwise (one parallel factor
/// per result dimension; operands of another rank, i.e. scalars, unmapped).
template <typename OpT>
struct PointwiseModel : RuleModel<PointwiseModel<OpT>, OpT> {
  static std::optional<ShardingRule> build(OpT op) {
    ShardingRuleBuilder builder(op);
    builder.addPointwise();
    return builder.build();
  }
};

/// Attaches Model<Op> to each op of the pack.
template <template <typename> class Model, typename... Ops>
void attachToAll(mlir::MLIRContext &ctx) {
  (Ops::template attachInterface<Model<Ops>>(ctx), ...);
}

/// A dimension list for ShardingRuleBuilder::addFactor covering `n`
/// tensors, none of them mapped yet.
inline llvm::SmallVector<int64_t> noDims(unsigned n) {
  return llvm::SmallVector<int64_t>(n, kNoFactor);
}

/// The shape of a value known to be a ranked tensor.
inline llvm::ArrayRef<int64_t> shapeOf(mlir::Value value) {
  return mlir::cast<mlir::RankedTensorType>(value.getType()).getShape();
}

/// Adds one factor per dimension `d` of `rank` that maps dimension `d` of
/// every listed operand and result. `kindOf(d)` gives the factor kind
/// (std::nullopt: no factor, the dimension stays unmapped) and `sizeOf(d)`
/// its size. Used by the many rules that are "pointwise except on some
/// dimensions" (slice, pad, reverse, sort, concatenate...).
void addDimwiseFactors(
    ShardingRuleBuilder &builder, mlir::Operation *op,
    llvm::ArrayRef<unsigned> operands, llvm::ArrayRef<unsigned> results,
    int64_t rank, llvm::function_ref<std::optional<FactorKind>(int64_t)> kindOf,
    llvm::function_ref<int64_t(int64_t)> sizeOf);

// Per-family registration, called from StablehloShardingRules.cpp.
void attachElementwiseRules(mlir::MLIRContext &ctx);
void attachChloRules(mlir::MLIRContext &ctx);
void attachShapeRules(mlir::MLIRContext &ctx);
/// reshape's rule, attached by attachShapeRules.
void attachReshapeRule(mlir::MLIRContext &ctx);
void attachGatherScatterRules(mlir::MLIRContext &ctx);
void attachComputeRules(mlir::MLIRContext &ctx);
void attachControlRules(mlir::MLIRContext &ctx);
/// DataFlowEdgeOpInterface models of while, case and if.
void attachDataFlowModels(mlir::MLIRContext &ctx);

} // namespace toast::rules

#endif // TOAST_LIB_INTERFACES_STABLEHLOSHARDINGRULES_RULEMODELS_H
