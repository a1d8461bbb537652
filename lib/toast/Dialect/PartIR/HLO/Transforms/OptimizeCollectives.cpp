//===- OptimizeCollectives.cpp - Fuse and cancel PartIR:HLO collectives --===//
//
// Patterns of --partir-optimize-collectives (PartIR §6): merging chains of slices
// and gathers, cancelling a slice of a gather, and forming reduce_scatter
// and all_to_all.
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/PartIR/HLO/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace toast::partir_hlo {
#define GEN_PASS_DEF_PARTIROPTIMIZECOLLECTIVESPASS
#include "toast/Dialect/PartIR/HLO/Transforms/Passes.h.inc"

namespace {

/// Per dimension, `first` then `second`.
DimAxes concatAxes(const DimAxes &first, const DimAxes &second) {
  DimAxes result = first;
  for (auto [d, axes] : llvm::enumerate(second))
    llvm::append_range(result[d], axes);
  return result;
}

/// Two chained collectives of one kind become one: all_slice(all_slice(x))
/// with the first slice's axes major, all_gather(all_gather(x)) with the
/// outer gather's axes major (it splits the gathered dimension first).
template <typename OpTy, bool innerIsMajor>
struct MergeChain : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getOperand().template getDefiningOp<OpTy>();
    // A gather feeding other users stays; merging would duplicate traffic.
    if (!inner || (!innerIsMajor && !inner->hasOneUse()))
      return failure();
    DimAxes innerAxes = getDimAxes(inner.getDims());
    DimAxes outerAxes = getDimAxes(op.getDims());
    DimAxes dims = innerIsMajor ? concatAxes(innerAxes, outerAxes)
                                : concatAxes(outerAxes, innerAxes);
    rewriter.replaceOpWithNewOp<OpTy>(op, op.getType(), inner.getOperand(),
                                      buildDimAxes(op.getContext(), dims));
    return success();
  }
};
using MergeSlices = MergeChain<AllSliceOp, /*innerIsMajor=*/true>;
using MergeGathers = MergeChain<AllGatherOp, /*innerIsMajor=*/false>;

/// all_slice(all_gather(x)): where the slice axes are a prefix of the
/// gather axes in every dimension, the result is the gather of the rest.
struct CancelSliceOfGather : OpRewritePattern<AllSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AllSliceOp op,
                                PatternRewriter &rewriter) const override {
    auto gather = op.getOperand().getDefiningOp<AllGatherOp>();
    if (!gather)
      return failure();
    DimAxes sliced = getDimAxes(op.getDims());
    DimAxes gathered = getDimAxes(gather.getDims());
    DimAxes rest;
    for (auto [s, g] : llvm::zip_equal(sliced, gathered)) {
      if (s.size() > g.size() || !std::equal(s.begin(), s.end(), g.begin()))
        return failure();
      rest.emplace_back(g.begin() + s.size(), g.end());
    }
    Value x = gather.getOperand();
    if (llvm::all_of(rest, [](const auto &axes) { return axes.empty(); })) {
      if (x.getType() != op.getType())
        return failure();
      rewriter.replaceOp(op, x);
      return success();
    }
    rewriter.replaceOpWithNewOp<AllGatherOp>(
        op, op.getType(), x, buildDimAxes(op.getContext(), rest));
    return success();
  }
};

/// The single dimension with axes, or -1.
int64_t onlyNonEmptyDim(const DimAxes &dims) {
  int64_t found = -1;
  for (auto [d, axes] : llvm::enumerate(dims)) {
    if (axes.empty())
      continue;
    if (found != -1)
      return -1;
    found = d;
  }
  return found;
}

/// all_slice(all_gather(x)) moving one axis list between dimensions ->
/// all_to_all.
struct SliceOfGatherToAllToAll : OpRewritePattern<AllSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AllSliceOp op,
                                PatternRewriter &rewriter) const override {
    auto gather = op.getOperand().getDefiningOp<AllGatherOp>();
    if (!gather)
      return failure();
    DimAxes sliced = getDimAxes(op.getDims());
    DimAxes gathered = getDimAxes(gather.getDims());
    int64_t s = onlyNonEmptyDim(sliced), g = onlyNonEmptyDim(gathered);
    if (s < 0 || g < 0 || s == g || sliced[s] != gathered[g])
      return failure();
    SmallVector<Attribute> axes;
    for (const std::string &axis : sliced[s])
      axes.push_back(rewriter.getStringAttr(axis));
    rewriter.replaceOpWithNewOp<AllToAllOp>(
        op, op.getType(), gather.getOperand(), rewriter.getI64IntegerAttr(g),
        rewriter.getI64IntegerAttr(s), rewriter.getArrayAttr(axes));
    return success();
  }
};

/// all_slice(all_reduce(x)) over the same axes -> reduce_scatter. When
/// every user of the all_reduce slices it the same way (a gradient read by
/// several optimizer-state updates), one reduce_scatter serves them all.
struct SliceOfReduceToReduceScatter : OpRewritePattern<AllSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AllSliceOp op,
                                PatternRewriter &rewriter) const override {
    auto reduce = op.getOperand().getDefiningOp<AllReduceOp>();
    if (!reduce || !llvm::all_of(reduce->getUsers(), [&](Operation *user) {
          auto slice = dyn_cast<AllSliceOp>(user);
          return slice && slice.getDims() == op.getDims();
        }))
      return failure();
    llvm::SmallVector<std::string> sliceAxes, reduceAxes;
    for (const auto &axes : getDimAxes(op.getDims()))
      llvm::append_range(sliceAxes, axes);
    for (Attribute a : reduce.getAxes())
      reduceAxes.push_back(cast<StringAttr>(a).str());
    llvm::sort(sliceAxes);
    llvm::sort(reduceAxes);
    if (sliceAxes != reduceAxes)
      return failure();
    rewriter.setInsertionPoint(reduce);
    Value scattered = ReduceScatterOp::create(
        rewriter, op.getLoc(), op.getType(), reduce.getOperand(),
        reduce.getReductionAttr(), op.getDims());
    for (Operation *user : llvm::make_early_inc_range(reduce->getUsers()))
      rewriter.replaceOp(user, scattered);
    rewriter.eraseOp(reduce);
    return success();
  }
};

/// transpose/reshape(all_reduce(x)) -> all_reduce(transpose/reshape(x)): a
/// sum commutes with moving elements, and the reduction then meets what
/// consumes it (e.g. another partial sum it can merge with).
struct SinkReduceThroughLayoutOp : RewritePattern {
  SinkReduceThroughLayoutOp(MLIRContext *ctx, StringRef name)
      : RewritePattern(name, /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (op->getNumOperands() != 1 || op->getNumResults() != 1)
      return failure();
    auto reduce = op->getOperand(0).getDefiningOp<AllReduceOp>();
    if (!reduce || !reduce->hasOneUse() || reduce.getReduction() != "sum")
      return failure();
    Operation *moved = rewriter.clone(*op);
    moved->setOperand(0, reduce.getOperand());
    rewriter.replaceOpWithNewOp<AllReduceOp>(
        op, op->getResult(0).getType(), moved->getResult(0),
        reduce.getReductionAttr(), reduce.getAxes());
    rewriter.eraseOp(reduce);
    return success();
  }
};

/// all_reduce(all_gather(x)) over disjoint axes -> all_gather(all_reduce(x)):
/// the reduction is elementwise, so it commutes with gathering over other
/// axes, moves less data, and exposes the gather to a following slice.
struct ReduceBeforeGather : OpRewritePattern<AllReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AllReduceOp op,
                                PatternRewriter &rewriter) const override {
    auto gather = op.getOperand().getDefiningOp<AllGatherOp>();
    if (!gather || !gather->hasOneUse())
      return failure();
    for (const auto &axes : getDimAxes(gather.getDims()))
      for (const std::string &axis : axes)
        if (llvm::any_of(op.getAxes(), [&](Attribute a) {
              return cast<StringAttr>(a).getValue() == axis;
            }))
          return failure();
    Value x = gather.getOperand();
    Value reduced = AllReduceOp::create(rewriter, op.getLoc(), x.getType(), x,
                                        op.getReductionAttr(), op.getAxes());
    rewriter.replaceOpWithNewOp<AllGatherOp>(op, op.getType(), reduced,
                                             gather.getDims());
    return success();
  }
};

/// add(all_reduce(a), all_reduce(b)) over the same axes ->
/// all_reduce(add(a, b)): one collective instead of two (e.g. the two
/// gradient contributions of a tied embedding).
struct AddOfSumReductions : RewritePattern {
  AddOfSumReductions(MLIRContext *ctx)
      : RewritePattern("stablehlo.add", /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (op->getNumOperands() != 2 || op->getNumResults() != 1)
      return failure();
    auto lhs = op->getOperand(0).getDefiningOp<AllReduceOp>();
    auto rhs = op->getOperand(1).getDefiningOp<AllReduceOp>();
    if (!lhs || !rhs || lhs == rhs || !lhs->hasOneUse() || !rhs->hasOneUse() ||
        lhs.getReduction() != "sum" || rhs.getReduction() != "sum" ||
        lhs.getAxes() != rhs.getAxes() ||
        lhs.getOperand().getType() != op->getResult(0).getType())
      return failure();
    OperationState state(op->getLoc(), op->getName());
    state.addOperands({lhs.getOperand(), rhs.getOperand()});
    state.addTypes(op->getResultTypes());
    state.addAttributes(op->getAttrs());
    Operation *sum = rewriter.create(state);
    rewriter.replaceOpWithNewOp<AllReduceOp>(
        op, op->getResult(0).getType(), sum->getResult(0),
        lhs.getReductionAttr(), lhs.getAxes());
    return success();
  }
};

struct PartirOptimizeCollectivesPass
    : impl::PartirOptimizeCollectivesPassBase<PartirOptimizeCollectivesPass> {
  void runOnOperation() override {
    if (failed(optimizeCollectives(getOperation())))
      signalPassFailure();
  }
};
} // namespace

void populateCollectiveOptimizationPatterns(RewritePatternSet &patterns) {
  patterns.add<MergeSlices, MergeGathers, CancelSliceOfGather,
               SliceOfGatherToAllToAll, SliceOfReduceToReduceScatter,
               ReduceBeforeGather, AddOfSumReductions>(patterns.getContext());
  for (StringRef name : {"stablehlo.transpose", "stablehlo.reshape"})
    patterns.add<SinkReduceThroughLayoutOp>(patterns.getContext(), name);
}

LogicalResult optimizeCollectives(Operation *op) {
  RewritePatternSet patterns(op->getContext());
  populateCollectiveOptimizationPatterns(patterns);
  return applyPatternsGreedily(op, std::move(patterns));
}

} // namespace toast::partir_hlo
