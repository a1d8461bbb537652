//===- ShapeRules.cpp - Rules of data-movement StableHLO ops --------------===//
//
// constant, iota, broadcast_in_dim, broadcast, transpose, concatenate,
// slice, dynamic_slice, dynamic_update_slice, pad, reverse, sort,
// get_dimension_size, tuple and get_tuple_element (reshape's rule is in
// ReshapeRule.cpp). Most are
// "pointwise except on some dimensions": a dimension the op moves data
// along (sliced, padded, reversed, concatenated, sorted) gets a not-tileable
// factor mapped on every tensor that has it; the others are parallel.
//
//===----------------------------------------------------------------------===//

#include "RuleModels.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

using namespace mlir;

namespace toast::rules {
namespace {

using stablehlo::BroadcastInDimOp;
using stablehlo::BroadcastOp;
using stablehlo::ConcatenateOp;
using stablehlo::ConstantOp;
using stablehlo::DynamicSliceOp;
using stablehlo::DynamicUpdateSliceOp;
using stablehlo::GetDimensionSizeOp;
using stablehlo::GetTupleElementOp;
using stablehlo::IotaOp;
using stablehlo::PadOp;
using stablehlo::ReverseOp;
using stablehlo::SliceOp;
using stablehlo::SortOp;
using stablehlo::TransposeOp;
using stablehlo::TupleOp;

/// A kind chooser for addDimwiseFactors: not tileable where `moved(d)`.
template <typename Pred> auto notTileableWhere(Pred moved) {
  return [moved](int64_t d) -> std::optional<FactorKind> {
    return moved(d) ? FactorKind::NotTileable : FactorKind::Parallel;
  };
}

/// Factor sizes are the result's dimension sizes.
auto resultSizes(Operation *op, unsigned result = 0) {
  ArrayRef<int64_t> shape = shapeOf(op->getResult(result));
  return [shape](int64_t d) { return shape[d]; };
}

/// constant: no operands; every result dimension is parallel.
struct ConstantModel : RuleModel<ConstantModel, ConstantOp> {
  static std::optional<ShardingRule> build(ConstantOp op) {
    ShardingRuleBuilder builder(op);
    builder.addPointwise();
    return builder.build();
  }
};

/// iota: the iota dimension is not tileable (its values are positions), the
/// others are parallel.
struct IotaModel : RuleModel<IotaModel, IotaOp> {
  static std::optional<ShardingRule> build(IotaOp op) {
    ShardingRuleBuilder builder(op);
    int64_t iotaDim = op.getIotaDimension();
    addDimwiseFactors(builder, op, {}, {0}, shapeOf(op.getResult()).size(),
                      notTileableWhere([&](int64_t d) { return d == iotaDim; }),
                      resultSizes(op));
    return builder.build();
  }
};

/// broadcast_in_dim: operand dimension i is result dimension dims[i]. When
/// their sizes agree they share a parallel factor; a size-1 operand
/// dimension that is expanded stays unmapped and its result dimension gets a
/// factor of its own, like every result dimension that no operand dimension
/// maps. Factors are created in result-dimension order.
struct BroadcastInDimModel : RuleModel<BroadcastInDimModel, BroadcastInDimOp> {
  static std::optional<ShardingRule> build(BroadcastInDimOp op) {
    ShardingRuleBuilder builder(op);
    ArrayRef<int64_t> in = shapeOf(op.getOperand());
    ArrayRef<int64_t> out = shapeOf(op.getResult());
    SmallVector<int64_t> operandOf(out.size(), kNoFactor);
    for (auto [i, d] : llvm::enumerate(op.getBroadcastDimensions()))
      if (d >= 0 && d < static_cast<int64_t>(out.size()) && in[i] == out[d])
        operandOf[d] = i;
    for (auto [d, size] : llvm::enumerate(out))
      builder.addFactor({operandOf[d]}, {static_cast<int64_t>(d)}, size,
                        FactorKind::Parallel);
    return builder.build();
  }
};

/// broadcast: the leading result dimensions (broadcast_sizes) get parallel
/// factors of their own; operand dimension i and result dimension
/// len(broadcast_sizes) + i share a parallel factor.
struct BroadcastModel : RuleModel<BroadcastModel, BroadcastOp> {
  static std::optional<ShardingRule> build(BroadcastOp op) {
    ShardingRuleBuilder builder(op);
    ArrayRef<int64_t> out = shapeOf(op.getResult());
    int64_t added = op.getBroadcastSizes().size();
    for (auto [d, size] : llvm::enumerate(out)) {
      int64_t r = d;
      builder.addFactor({r < added ? kNoFactor : r - added}, {r}, size,
                        FactorKind::Parallel);
    }
    return builder.build();
  }
};

/// get_dimension_size: the result (a scalar) is the size of the whole
/// operand's dimension, which a tile of it would not have: every operand
/// dimension is not tileable.
struct GetDimensionSizeModel
    : RuleModel<GetDimensionSizeModel, GetDimensionSizeOp> {
  static std::optional<ShardingRule> build(GetDimensionSizeOp op) {
    ShardingRuleBuilder builder(op);
    ArrayRef<int64_t> in = shapeOf(op.getOperand());
    addDimwiseFactors(
        builder, op, {0}, {}, in.size(),
        [](int64_t) { return FactorKind::NotTileable; },
        [&](int64_t d) { return in[d]; });
    return builder.build();
  }
};

/// transpose: result dimension d is operand dimension permutation[d].
struct TransposeModel : RuleModel<TransposeModel, TransposeOp> {
  static std::optional<ShardingRule> build(TransposeOp op) {
    ShardingRuleBuilder builder(op);
    ArrayRef<int64_t> out = shapeOf(op.getResult());
    for (auto [d, from] : llvm::enumerate(op.getPermutation()))
      builder.addFactor({from}, {static_cast<int64_t>(d)}, out[d],
                        FactorKind::Parallel);
    return builder.build();
  }
};

/// concatenate: the concatenated dimension is not tileable on every input
/// and the result; the others are parallel across all of them.
struct ConcatenateModel : RuleModel<ConcatenateModel, ConcatenateOp> {
  static std::optional<ShardingRule> build(ConcatenateOp op) {
    ShardingRuleBuilder builder(op);
    int64_t concatDim = op.getDimension();
    SmallVector<unsigned> inputs =
        llvm::to_vector(llvm::seq<unsigned>(0, op->getNumOperands()));
    addDimwiseFactors(
        builder, op, inputs, {0}, shapeOf(op.getResult()).size(),
        notTileableWhere([&](int64_t d) { return d == concatDim; }),
        resultSizes(op));
    return builder.build();
  }
};

/// slice: a dimension that is actually sliced (start != 0, limit != size or
/// stride != 1) is not tileable; the others are parallel.
struct SliceModel : RuleModel<SliceModel, SliceOp> {
  static std::optional<ShardingRule> build(SliceOp op) {
    ShardingRuleBuilder builder(op);
    ArrayRef<int64_t> in = shapeOf(op.getOperand());
    ArrayRef<int64_t> start = op.getStartIndices(),
                      limit = op.getLimitIndices(), stride = op.getStrides();
    addDimwiseFactors(
        builder, op, {0}, {0}, in.size(), notTileableWhere([&](int64_t d) {
          return start[d] != 0 || limit[d] != in[d] || stride[d] != 1;
        }),
        resultSizes(op));
    return builder.build();
  }
};

/// dynamic_slice: a dimension whose slice size differs from the operand's
/// size is not tileable; the others are parallel. The start indices are
/// scalars and stay unmapped.
struct DynamicSliceModel : RuleModel<DynamicSliceModel, DynamicSliceOp> {
  static std::optional<ShardingRule> build(DynamicSliceOp op) {
    ShardingRuleBuilder builder(op);
    ArrayRef<int64_t> in = shapeOf(op.getOperand());
    ArrayRef<int64_t> sizes = op.getSliceSizes();
    addDimwiseFactors(
        builder, op, {0}, {0}, in.size(),
        notTileableWhere([&](int64_t d) { return sizes[d] != in[d]; }),
        resultSizes(op));
    return builder.build();
  }
};

/// dynamic_update_slice: like dynamic_slice, comparing the update's size
/// with the operand's; factors map the operand, the update and the result.
struct DynamicUpdateSliceModel
    : RuleModel<DynamicUpdateSliceModel, DynamicUpdateSliceOp> {
  static std::optional<ShardingRule> build(DynamicUpdateSliceOp op) {
    ShardingRuleBuilder builder(op);
    ArrayRef<int64_t> in = shapeOf(op.getOperand());
    ArrayRef<int64_t> update = shapeOf(op.getUpdate());
    addDimwiseFactors(
        builder, op, {0, 1}, {0}, in.size(),
        notTileableWhere([&](int64_t d) { return update[d] != in[d]; }),
        resultSizes(op));
    return builder.build();
  }
};

/// pad: a padded dimension (any non-zero low, high or interior padding) is
/// not tileable; the padding value is a scalar and stays unmapped.
struct PadModel : RuleModel<PadModel, PadOp> {
  static std::optional<ShardingRule> build(PadOp op) {
    ShardingRuleBuilder builder(op);
    ArrayRef<int64_t> low = op.getEdgePaddingLow(),
                      high = op.getEdgePaddingHigh(),
                      interior = op.getInteriorPadding();
    addDimwiseFactors(builder, op, {0}, {0}, shapeOf(op.getOperand()).size(),
                      notTileableWhere([&](int64_t d) {
                        return low[d] != 0 || high[d] != 0 || interior[d] != 0;
                      }),
                      resultSizes(op));
    return builder.build();
  }
};

/// reverse: reversed dimensions are not tileable, the others parallel.
struct ReverseModel : RuleModel<ReverseModel, ReverseOp> {
  static std::optional<ShardingRule> build(ReverseOp op) {
    ShardingRuleBuilder builder(op);
    ArrayRef<int64_t> reversed = op.getDimensions();
    addDimwiseFactors(builder, op, {0}, {0}, shapeOf(op.getOperand()).size(),
                      notTileableWhere([&](int64_t d) {
                        return llvm::is_contained(reversed, d);
                      }),
                      resultSizes(op));
    return builder.build();
  }
};

/// sort: the sort dimension (a negative one counts from the back) is not
/// tileable; every dimension maps all inputs and results together, since
/// they are permuted together.
struct SortModel : RuleModel<SortModel, SortOp> {
  static std::optional<ShardingRule> build(SortOp op) {
    ShardingRuleBuilder builder(op);
    if (op->getNumResults() == 0)
      return builder.build();
    int64_t rank = shapeOf(op->getResult(0)).size();
    int64_t sortDim = static_cast<int64_t>(op.getDimension());
    if (sortDim < 0)
      sortDim += rank;
    SmallVector<unsigned> inputs =
        llvm::to_vector(llvm::seq<unsigned>(0, op->getNumOperands()));
    SmallVector<unsigned> results =
        llvm::to_vector(llvm::seq<unsigned>(0, op->getNumResults()));
    addDimwiseFactors(builder, op, inputs, results, rank,
                      notTileableWhere([&](int64_t d) { return d == sortDim; }),
                      resultSizes(op));
    return builder.build();
  }
};

} // namespace

void attachShapeRules(MLIRContext &ctx) {
  ConstantOp::attachInterface<ConstantModel>(ctx);
  IotaOp::attachInterface<IotaModel>(ctx);
  BroadcastInDimOp::attachInterface<BroadcastInDimModel>(ctx);
  BroadcastOp::attachInterface<BroadcastModel>(ctx);
  TransposeOp::attachInterface<TransposeModel>(ctx);
  attachReshapeRule(ctx); // ReshapeRule.cpp
  ConcatenateOp::attachInterface<ConcatenateModel>(ctx);
  SliceOp::attachInterface<SliceModel>(ctx);
  DynamicSliceOp::attachInterface<DynamicSliceModel>(ctx);
  DynamicUpdateSliceOp::attachInterface<DynamicUpdateSliceModel>(ctx);
  PadOp::attachInterface<PadModel>(ctx);
  ReverseOp::attachInterface<ReverseModel>(ctx);
  SortOp::attachInterface<SortModel>(ctx);
  GetDimensionSizeOp::attachInterface<GetDimensionSizeModel>(ctx);
  // Rules map tensor dimensions; a tuple has none. tuple and
  // get_tuple_element are opaque (so are the values that pass through them:
  // they stay whole).
  attachToAll<OpaqueModel, TupleOp, GetTupleElementOp>(ctx);
}

} // namespace toast::rules
