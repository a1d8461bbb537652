//===- OptimizeCollectives.cpp - Fuse and cancel PartIR:HLO collectives --===//
//
// Patterns of --partir-optimize-collectives (PartIR §6): merging chains of
// slices and gathers, cancelling a slice of a gather, and forming
// reduce_scatter and all_to_all.
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/PartIR/HLO/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

#include <optional>

using namespace mlir;

namespace toast::partir_hlo {
#define GEN_PASS_DEF_PARTIROPTIMIZECOLLECTIVESPASS
#include "toast/Dialect/PartIR/HLO/Transforms/Passes.h.inc"

bool isPadded(Operation *op, ArrayAttr dims, partir::MeshAttr mesh) {
  auto in = cast<RankedTensorType>(op->getOperand(0).getType());
  auto out = cast<RankedTensorType>(op->getResult(0).getType());
  for (auto [d, axes] : llvm::enumerate(getDimAxes(dims))) {
    if (axes.empty())
      continue;
    int64_t small = std::min(in.getDimSize(d), out.getDimSize(d));
    int64_t large = std::max(in.getDimSize(d), out.getDimSize(d));
    int64_t k = 1;
    for (const std::string &axis : axes)
      k *= mesh ? mesh.getAxisSize(axis).value_or(1) : 1;
    if (mesh ? small * k != large : large % small != 0)
      return true;
  }
  return false;
}

namespace {

/// Per dimension, `first` then `second`.
DimAxes concatAxes(const DimAxes &first, const DimAxes &second) {
  DimAxes result = first;
  for (auto [d, axes] : llvm::enumerate(second))
    llvm::append_range(result[d], axes);
  return result;
}

/// isPadded on the mesh the module holds. Without a mesh attribute (a
/// module lowered for pricing), sizes that do not divide still show the
/// padding.
static bool isPadded(Operation *op, ArrayAttr dims) {
  return partir_hlo::isPadded(op, dims, partir::getMesh(op));
}
template <typename OpTy> static bool isPadded(OpTy op) {
  return isPadded(op.getOperation(), op.getDims());
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
    if (!inner || (!innerIsMajor && !inner->hasOneUse()) || isPadded(op) ||
        isPadded(inner))
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

/// The op a use of a gather in `block` belongs to: the reading op, or for
/// all_slices read only by a loop or conditional (the boundary slices
/// localizeTiedValues puts on an init or branch operand), that op. The
/// inits of one loop then share a gather, as its direct operands do: a
/// loop carrying one value twice, with two tilings, slices one gather
/// twice, as the search's plan reads it (analytic::loopGatherLeaders).
static Operation *gatherReader(Block *block, OpOperand &use) {
  Operation *reader = block->findAncestorOpInBlock(*use.getOwner());
  // Through a chain of slices (one per level where they do not merge).
  Operation *user = reader;
  while (isa_and_nonnull<AllSliceOp>(user) && user->hasOneUse())
    user = block->findAncestorOpInBlock(**user->user_begin());
  return user != reader && user && user->getNumRegions() ? user : reader;
}

/// An all_gather read by several ops gets one copy per reading op, placed
/// right before it (PartIR gathers per use, as FSDP does): a parameter
/// sharded by Z3 is gathered where the forward pass reads it and again
/// where the backward pass does, so no full copy stays alive in between,
/// and each copy can cancel or fuse with what its reader does to it. Uses
/// by one op (or inside one op's regions, or through its boundary slices)
/// share a copy, placed before the first of them.
struct GatherPerUser : OpRewritePattern<AllGatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AllGatherOp op,
                                PatternRewriter &rewriter) const override {
    Block *block = op->getBlock();
    // Per reader (gatherReader), the first op in the block that reads
    // through it: its copy goes there.
    llvm::MapVector<Operation *, Operation *> firstOf;
    llvm::DenseMap<OpOperand *, Operation *> readerOf;
    for (OpOperand &use : op->getUses()) {
      Operation *reader = gatherReader(block, use);
      if (!reader)
        return failure();
      readerOf[&use] = reader;
      Operation *at = block->findAncestorOpInBlock(*use.getOwner());
      Operation *&first = firstOf.try_emplace(reader, reader).first->second;
      if (at->isBeforeInBlock(first))
        first = at;
    }
    if (firstOf.size() < 2)
      return failure();
    for (auto [reader, first] : firstOf) {
      rewriter.setInsertionPoint(first);
      Value copy = rewriter.clone(*op)->getResult(0);
      rewriter.replaceUsesWithIf(op.getResult(), copy, [&](OpOperand &use) {
        return readerOf.lookup(&use) == reader;
      });
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// The one op that reads `gather` (gatherReader), or null.
static Operation *onlyGatherReader(AllGatherOp gather) {
  Block *block = gather->getBlock();
  Operation *reader = nullptr;
  for (OpOperand &use : gather->getUses()) {
    Operation *r = gatherReader(block, use);
    if (!r || (reader && r != reader))
      return nullptr;
    reader = r;
  }
  return reader;
}

/// Two equal all_gathers of one value read by one loop or conditional
/// become one: a loop whose inits gather one value alike
/// (localizeTiedValues gathers each init on its own) reads one copy.
struct OneGatherPerReader : OpRewritePattern<AllGatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AllGatherOp op,
                                PatternRewriter &rewriter) const override {
    // Loops and conditionals only: the plan prices equal gathers that
    // other ops read (a concatenate of copies of one value, each gathered)
    // one by one.
    Operation *reader = onlyGatherReader(op);
    if (!reader || !reader->getNumRegions())
      return failure();
    for (Operation *user : op.getOperand().getUsers()) {
      auto other = dyn_cast<AllGatherOp>(user);
      if (!other || other == op || other->getBlock() != op->getBlock() ||
          !other->isBeforeInBlock(op) || other.getType() != op.getType() ||
          other.getDims() != op.getDims() ||
          other->getAttrDictionary() != op->getAttrDictionary() ||
          onlyGatherReader(other) != reader)
        continue;
      rewriter.replaceOp(op, other.getResult());
      return success();
    }
    return failure();
  }
};

bool isEmpty(const DimAxes &dims) {
  return llvm::all_of(dims, [](const auto &axes) { return axes.empty(); });
}

/// all_slice(all_gather(x)) where one is a per-dimension prefix of the
/// other. The slice axes a prefix of the gather axes: the result is the
/// gather of the rest. The gather axes a prefix of the slice axes (a value
/// gathered on "M" and read by a loop nest over "M" then "B"): slicing the
/// gathered value by the gather's axes gives back x, so the result is x
/// sliced by the rest and the gather's traffic disappears.
struct CancelSliceOfGather : OpRewritePattern<AllSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AllSliceOp op,
                                PatternRewriter &rewriter) const override {
    auto gather = op.getOperand().getDefiningOp<AllGatherOp>();
    if (!gather)
      return failure();
    DimAxes sliced = getDimAxes(op.getDims());
    DimAxes gathered = getDimAxes(gather.getDims());
    Value x = gather.getOperand();
    bool padded = isPadded(op) || isPadded(gather);
    if (std::optional<DimAxes> rest = suffixAfterPrefix(sliced, gathered)) {
      if (!isEmpty(*rest)) {
        if (padded)
          return failure();
        rewriter.replaceOpWithNewOp<AllGatherOp>(
            op, op.getType(), x, buildDimAxes(op.getContext(), *rest));
        return success();
      }
      if (x.getType() != op.getType())
        return failure();
      rewriter.replaceOp(op, x);
      return success();
    }
    std::optional<DimAxes> rest = suffixAfterPrefix(gathered, sliced);
    if (!rest || padded)
      return failure();
    rewriter.replaceOpWithNewOp<AllSliceOp>(
        op, op.getType(), x, buildDimAxes(op.getContext(), *rest));
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
    if (!gather || isPadded(op) || isPadded(gather))
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
    if (!reduce || isPadded(op) ||
        !llvm::all_of(reduce->getUsers(), [&](Operation *user) {
          auto slice = dyn_cast<AllSliceOp>(user);
          return slice && slice.getDims() == op.getDims();
        }))
      return failure();
    llvm::SmallVector<std::string> sliceAxes;
    for (const auto &axes : getDimAxes(op.getDims()))
      llvm::append_range(sliceAxes, axes);
    llvm::SmallVector<std::string> reduceAxes = getAxisNames(reduce.getAxes());
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

/// A copy of the one-operand layout op `op` (transpose, reshape) that reads
/// `input` instead and yields `type`: `op` moved before a collective.
static Value cloneOnto(PatternRewriter &rewriter, Operation *op, Value input,
                       Type type) {
  Operation *moved = rewriter.clone(*op);
  moved->setOperand(0, input);
  moved->getResult(0).setType(type);
  return moved->getResult(0);
}

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
    Type type = op->getResult(0).getType();
    Value moved = cloneOnto(rewriter, op, reduce.getOperand(), type);
    rewriter.replaceOpWithNewOp<AllReduceOp>(
        op, type, moved, reduce.getReductionAttr(), reduce.getAxes());
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

/// transpose(reduce_scatter(x)) -> reduce_scatter(transpose(x)) with the
/// scattered dimensions permuted alike: once the partial sums have been
/// sliced (a sharded optimizer update reading a transposed gradient), the
/// reduction still meets the other contribution it can merge with.
struct SinkReduceScatterThroughTranspose : RewritePattern {
  SinkReduceScatterThroughTranspose(MLIRContext *ctx)
      : RewritePattern("stablehlo.transpose", /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    auto perm = op->getAttrOfType<DenseI64ArrayAttr>("permutation");
    auto scatter = op->getOperand(0).getDefiningOp<ReduceScatterOp>();
    if (!perm || !scatter || !scatter->hasOneUse())
      return failure();
    auto fullType = cast<RankedTensorType>(scatter.getOperand().getType());
    DimAxes dims = getDimAxes(scatter.getDims());
    SmallVector<int64_t> shape;
    DimAxes permuted;
    for (int64_t d : perm.asArrayRef()) {
      shape.push_back(fullType.getDimSize(d));
      permuted.push_back(dims[d]);
    }
    Value moved =
        cloneOnto(rewriter, op, scatter.getOperand(),
                  RankedTensorType::get(shape, fullType.getElementType()));
    rewriter.replaceOpWithNewOp<ReduceScatterOp>(
        op, op->getResult(0).getType(), moved, scatter.getReductionAttr(),
        buildDimAxes(op->getContext(), permuted));
    rewriter.eraseOp(scatter);
    return success();
  }
};

/// add(C(a), C(b)) -> C(add(a, b)) for two sum collectives C of one kind
/// with identical attributes (all_reduce over the same axes, reduce_scatter
/// scattered alike): one collective instead of two, e.g. for the two
/// gradient contributions of a tied embedding, replicated or sharded for
/// the optimizer.
template <typename CollectiveOp> struct AddOfSums : RewritePattern {
  AddOfSums(MLIRContext *ctx)
      : RewritePattern("stablehlo.add", /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (op->getNumOperands() != 2 || op->getNumResults() != 1)
      return failure();
    auto lhs = op->getOperand(0).getDefiningOp<CollectiveOp>();
    auto rhs = op->getOperand(1).getDefiningOp<CollectiveOp>();
    if (!lhs || !rhs || lhs == rhs || !lhs->hasOneUse() || !rhs->hasOneUse() ||
        lhs.getReduction() != "sum" ||
        lhs->getAttrDictionary() != rhs->getAttrDictionary() ||
        lhs.getOperand().getType() != rhs.getOperand().getType())
      return failure();
    OperationState state(op->getLoc(), op->getName());
    state.addOperands({lhs.getOperand(), rhs.getOperand()});
    state.addTypes(lhs.getOperand().getType());
    state.addAttributes(op->getAttrs());
    Operation *sum = rewriter.create(state);
    Operation *combined = rewriter.clone(*lhs);
    combined->setOperand(0, sum->getResult(0));
    rewriter.replaceOp(op, combined->getResults());
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

std::optional<DimAxes> suffixAfterPrefix(const DimAxes &prefix,
                                         const DimAxes &longer) {
  DimAxes rest;
  for (auto [p, l] : llvm::zip_equal(prefix, longer)) {
    if (p.size() > l.size() || !std::equal(p.begin(), p.end(), l.begin()))
      return std::nullopt;
    rest.emplace_back(l.begin() + p.size(), l.end());
  }
  return rest;
}

void populateCollectiveOptimizationPatterns(RewritePatternSet &patterns) {
  patterns.add<GatherPerUser, OneGatherPerReader, MergeSlices, MergeGathers,
               CancelSliceOfGather, SliceOfGatherToAllToAll,
               SliceOfReduceToReduceScatter, ReduceBeforeGather,
               AddOfSums<AllReduceOp>, AddOfSums<ReduceScatterOp>,
               SinkReduceScatterThroughTranspose>(patterns.getContext());
  for (StringRef name : {"stablehlo.transpose", "stablehlo.reshape"})
    patterns.add<SinkReduceThroughLayoutOp>(patterns.getContext(), name);
}

/// Each all_gather of a loop body's (or branch's) block argument moves
/// right before the first op that reads it, in block order (so gathers
/// that one op reads keep their order): the boundary's tiling loops of the
/// carried values sit at the body's start, so lowering gathers every
/// carried value there, and a value read late in the body would stay
/// gathered from the start (the search's loop model gathers it before its
/// reader; review14's bodies that read a carried value with another
/// tiling: peaks 12-23% above it). A walk after the patterns, not a
/// pattern: two gathers one op reads would swap places forever.
static void sinkGathersOfCarries(Operation *root) {
  root->walk([](Block *block) {
    if (isa<func::FuncOp>(block->getParentOp()))
      return;
    SmallVector<AllGatherOp> gathers;
    for (Operation &op : *block)
      if (auto gather = dyn_cast<AllGatherOp>(op))
        if (auto arg = dyn_cast<BlockArgument>(gather.getOperand()))
          if (arg.getOwner() == block && !gather->use_empty())
            gathers.push_back(gather);
    for (AllGatherOp gather : gathers) {
      Operation *first = nullptr;
      for (Operation *user : gather->getUsers()) {
        Operation *at = block->findAncestorOpInBlock(*user);
        if (!first || at->isBeforeInBlock(first))
          first = at;
      }
      gather->moveBefore(first);
    }
  });
}

LogicalResult optimizeCollectives(Operation *op) {
  RewritePatternSet patterns(op->getContext());
  populateCollectiveOptimizationPatterns(patterns);
  if (failed(applyPatternsGreedily(op, std::move(patterns))))
    return op->emitError("partir-optimize-collectives: the collective "
                         "rewrites did not reach a fixed point");
  sinkGathersOfCarries(op);
  return success();
}

} // namespace toast::partir_hlo
