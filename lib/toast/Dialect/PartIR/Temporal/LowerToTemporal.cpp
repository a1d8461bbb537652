//===- LowerToTemporal.cpp - PartIR:Core loops as sequential scf.for -----===//

#include "toast/Dialect/PartIR/Temporal/Passes.h"

#include "toast/Dialect/PartIR/Core/IR/PartIRCore.h"
#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace toast::partir_temporal {
#define GEN_PASS_DEF_PARTIRLOWERTOTEMPORALPASS
#include "toast/Dialect/PartIR/Temporal/Passes.h.inc"

/// Offsets (i * chunk on `dim`, 0 elsewhere), sizes and unit strides of the
/// chunk of type `chunkType`.
static void chunkPosition(OpBuilder &b, Location loc, Value index,
                          RankedTensorType chunkType, int64_t dim,
                          SmallVectorImpl<OpFoldResult> &offsets,
                          SmallVectorImpl<OpFoldResult> &sizes,
                          SmallVectorImpl<OpFoldResult> &strides) {
  Value chunk =
      arith::ConstantIndexOp::create(b, loc, chunkType.getDimSize(dim));
  Value offset = arith::MulIOp::create(b, loc, index, chunk);
  for (int64_t d = 0; d < chunkType.getRank(); ++d) {
    offsets.push_back(d == dim ? OpFoldResult(offset) : b.getIndexAttr(0));
    sizes.push_back(b.getIndexAttr(chunkType.getDimSize(d)));
    strides.push_back(b.getIndexAttr(1));
  }
}

/// The additive identity of `type`.
static FailureOr<Value> zeros(OpBuilder &b, Location loc, Type type) {
  auto tensor = cast<RankedTensorType>(type);
  Type elem = tensor.getElementType();
  TypedAttr zero;
  if (isa<FloatType>(elem))
    zero = b.getFloatAttr(elem, 0.0);
  else if (isa<IntegerType>(elem))
    zero = b.getIntegerAttr(elem, 0);
  else
    return failure();
  return Value(stablehlo::ConstantOp::create(
      b, loc, tensor, DenseElementsAttr::get(tensor, zero)));
}

/// Padded (uneven) chunks would read and write past the tensors' ends as
/// tensor slices: not supported here yet (docs/dialects.md).
static LogicalResult checkNotPadded(partir::LoopOp loop, int64_t n) {
  for (Operation *user : loop.getRange().getUsers())
    if (auto slice = dyn_cast<partir::SliceOp>(user))
      if (partir::isPadded(
              slice.getOperand().getType().getDimSize(slice.getDim()), n))
        return slice.emitOpError("is padded (uneven); --partir-lower-to-"
                                 "temporal does not support padded tiling");
  for (auto [result, action] :
       llvm::zip_equal(loop.getResults(), loop.getActions()))
    if (auto tile = dyn_cast<partir::TileAttr>(action))
      if (partir::isPadded(
              cast<RankedTensorType>(result.getType()).getDimSize(
                  tile.getDim()),
              n))
        return loop.emitOpError("has a padded (uneven) tile result; "
                                "--partir-lower-to-temporal does not support "
                                "padded tiling");
  return success();
}

static LogicalResult lowerLoop(partir::LoopOp loop) {
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  int64_t n = cast<partir::RangeType>(loop.getRange().getType()).getSize();
  if (failed(checkNotPadded(loop, n)))
    return failure();
  SmallVector<Value> inits;
  for (auto [result, action] :
       llvm::zip_equal(loop.getResults(), loop.getActions())) {
    auto type = cast<RankedTensorType>(result.getType());
    if (isa<partir::SumAttr>(action)) {
      FailureOr<Value> init = zeros(b, loc, type);
      if (failed(init))
        return loop.emitOpError("cannot sum tiles of element type ")
               << type.getElementType();
      inits.push_back(*init);
    } else {
      inits.push_back(tensor::EmptyOp::create(b, loc, type.getShape(),
                                              type.getElementType()));
    }
  }
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
  Value cn = arith::ConstantIndexOp::create(b, loc, n);
  Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
  Block &body = loop.getBody().front();
  partir::YieldOp yield = loop.getYield();
  auto forOp = scf::ForOp::create(
      b, loc, c0, cn, c1, inits,
      [&](OpBuilder &fb, Location, Value index, ValueRange accs) {
        // The body runs as is; slices of this loop's range read chunk
        // `index`.
        Block *forBody = fb.getInsertionBlock();
        forBody->getOperations().splice(forBody->end(), body.getOperations(),
                                        body.begin(), std::prev(body.end()));
        for (OpOperand &use :
             llvm::make_early_inc_range(loop.getRange().getUses())) {
          auto slice = cast<partir::SliceOp>(use.getOwner());
          OpBuilder sb(slice);
          SmallVector<OpFoldResult> offsets, sizes, strides;
          chunkPosition(sb, slice.getLoc(), index,
                        cast<RankedTensorType>(slice.getType()),
                        slice.getDim(), offsets, sizes, strides);
          Value chunk = tensor::ExtractSliceOp::create(
              sb, slice.getLoc(), cast<RankedTensorType>(slice.getType()),
              slice.getOperand(), offsets, sizes, strides);
          slice.replaceAllUsesWith(chunk);
          slice.erase();
        }
        fb.setInsertionPointToEnd(forBody);
        SmallVector<Value> next;
        for (auto [tile, acc, action] :
             llvm::zip_equal(yield.getValues(), accs, loop.getActions())) {
          if (auto t = dyn_cast<partir::TileAttr>(action)) {
            SmallVector<OpFoldResult> offsets, sizes, strides;
            chunkPosition(fb, loc, index, cast<RankedTensorType>(tile.getType()),
                          t.getDim(), offsets, sizes, strides);
            next.push_back(tensor::InsertSliceOp::create(
                fb, loc, tile, acc, offsets, sizes, strides));
          } else if (isa<partir::SumAttr>(action)) {
            next.push_back(
                stablehlo::AddOp::create(fb, loc, acc.getType(), acc, tile));
          } else {
            next.push_back(tile);
          }
        }
        scf::YieldOp::create(fb, loc, next);
      });
  loop.replaceAllUsesWith(forOp.getResults());
  loop.erase();
  return success();
}

namespace {
struct PartirLowerToTemporalPass
    : impl::PartirLowerToTemporalPassBase<PartirLowerToTemporalPass> {
  void runOnOperation() override {
    SmallVector<partir::LoopOp> loops;
    getOperation().walk<WalkOrder::PostOrder>(
        [&](partir::LoopOp loop) { loops.push_back(loop); });
    for (partir::LoopOp loop : loops)
      if (failed(lowerLoop(loop)))
        return signalPassFailure();
    getOperation().walk([](partir::TagOp tag) {
      tag.getResult().replaceAllUsesWith(tag.getOperand());
      tag.erase();
    });
  }
};
} // namespace

} // namespace toast::partir_temporal
