//===- ElementwiseRules.cpp - Rules of elementwise StableHLO ops ----------===//
//
// Elementwise ops are pointwise: one parallel factor per result dimension,
// mapped to the same dimension of every operand of the result's rank.
// Scalar operands of a non-scalar op (the predicate of select, the bounds of
// clamp) have rank 0 and stay unmapped: every tile reads them whole.
//
//===----------------------------------------------------------------------===//

#include "RuleModels.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

using namespace mlir;

namespace toast::rules {
namespace {

/// bitcast_convert: pointwise between equal bit widths. Between different
/// widths the wider side's shape is the narrower side's shape minus its
/// minor dimension; the leading dimensions stay pointwise and the extra
/// minor dimension (the bytes of one element) is not tileable.
struct BitcastConvertModel
    : RuleModel<BitcastConvertModel, stablehlo::BitcastConvertOp> {
  static std::optional<ShardingRule> build(stablehlo::BitcastConvertOp op) {
    ShardingRuleBuilder builder(op);
    ArrayRef<int64_t> in = shapeOf(op.getOperand());
    ArrayRef<int64_t> out = shapeOf(op.getResult());
    int64_t common = std::min(in.size(), out.size());
    addDimwiseFactors(
        builder, op, {0}, {0}, common,
        [](int64_t) { return FactorKind::Parallel; },
        [&](int64_t d) { return out[d]; });
    if (in.size() > out.size())
      builder.addFactor({common}, {kNoFactor}, in.back(),
                        FactorKind::NotTileable);
    else if (out.size() > in.size())
      builder.addFactor({kNoFactor}, {common}, out.back(),
                        FactorKind::NotTileable);
    return builder.build();
  }
};

} // namespace

void attachElementwiseRules(MLIRContext &ctx) {
  using namespace stablehlo;
  // Unary, binary and ternary elementwise ops, compare, select, clamp,
  // convert, reduce_precision, complex and map are pointwise.
  // Unary.
  attachToAll<PointwiseModel, AbsOp, CbrtOp, CeilOp, ConvertOp, CosineOp, ClzOp,
              ExpOp, Expm1Op, FloorOp, ImagOp, IsFiniteOp, LogOp, Log1pOp,
              LogisticOp, NotOp, NegOp, PopcntOp, RealOp, RoundOp,
              RoundNearestEvenOp, RsqrtOp, SignOp, SineOp, SqrtOp, TanOp,
              TanhOp, ReducePrecisionOp>(ctx);
  // Binary.
  attachToAll<PointwiseModel, AddOp, AndOp, Atan2Op, DivOp, MaxOp, MinOp, MulOp,
              OrOp, PowOp, RemOp, ShiftLeftOp, ShiftRightArithmeticOp,
              ShiftRightLogicalOp, SubtractOp, XorOp, ComplexOp, CompareOp>(
      ctx);
  // Ternary and n-ary.
  attachToAll<PointwiseModel, ClampOp, SelectOp, MapOp>(ctx);
  BitcastConvertOp::attachInterface<BitcastConvertModel>(ctx);
}

} // namespace toast::rules
