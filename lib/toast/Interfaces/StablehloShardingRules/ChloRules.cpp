//===- ChloRules.cpp - Rules of CHLO ops ----------------------------------===//
//
// CHLO's special functions are elementwise (pointwise rule); top_k keeps
// its leading dimensions and selects along the last one.
//
//===----------------------------------------------------------------------===//

#include "RuleModels.h"

#include "toast/Dialect/CHLO/IR/ChloOps.h"

using namespace mlir;

namespace toast::rules {
namespace {

/// top_k(x[..., n]) -> (values[..., k], indices[..., k]): the leading
/// dimensions are parallel across the operand and both results; the last
/// one is not tileable (every candidate must be seen to pick the top k).
struct TopKModel : RuleModel<TopKModel, chlo::TopKOp> {
  static std::optional<ShardingRule> build(chlo::TopKOp op) {
    ShardingRuleBuilder builder(op);
    ArrayRef<int64_t> out = shapeOf(op.getValues());
    int64_t rank = out.size();
    addDimwiseFactors(
        builder, op, {0}, {0, 1}, rank,
        [&](int64_t d) -> std::optional<FactorKind> {
          return d == rank - 1 ? FactorKind::NotTileable : FactorKind::Parallel;
        },
        [&](int64_t d) { return out[d]; });
    return builder.build();
  }
};

} // namespace

void attachChloRules(MLIRContext &ctx) {
  using namespace chlo;
  attachToAll<PointwiseModel, AcosOp, AcoshOp, AsinOp, AsinhOp, AtanOp, AtanhOp,
              BesselI1eOp, ConjOp, CoshOp, DigammaOp, ErfOp, ErfInvOp, ErfcOp,
              IsInfOp, IsNegInfOp, IsPosInfOp, LgammaOp, SinhOp, SquareOp,
              TanOp, NextAfterOp, PolygammaOp, ZetaOp>(ctx);
  TopKOp::attachInterface<TopKModel>(ctx);
}

} // namespace toast::rules
