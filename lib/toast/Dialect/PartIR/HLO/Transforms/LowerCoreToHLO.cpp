//===- LowerCoreToHLO.cpp - PartIR:Core loops to SPMD collectives --------===//
//
// PartIR §6.1: a loop's body is what every device runs; slices select the
// device's chunk (all_slice), and loop results combine the devices' tiles
// (all_gather for #tile, all_reduce for #sum, nothing for #any). Lowering
// innermost loops first makes every slice refer to the loop being lowered.
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/PartIR/HLO/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace toast::partir_hlo {
#define GEN_PASS_DEF_PARTIRLOWERTOHLOPASS
#include "toast/Dialect/PartIR/HLO/Transforms/Passes.h.inc"

/// Axes `axis` on dimension `dim` of a rank-`rank` tensor, none elsewhere.
static ArrayAttr singleDimAxes(MLIRContext *ctx, int64_t rank, int64_t dim,
                               StringRef axis) {
  DimAxes dims(rank);
  dims[dim].push_back(axis.str());
  return buildDimAxes(ctx, dims);
}

static LogicalResult lowerLoop(partir::LoopOp loop) {
  MLIRContext *ctx = loop.getContext();
  StringRef axis = loop.getAxis();
  BlockArgument range = loop.getRange();
  OpBuilder b(ctx);
  for (OpOperand &use : llvm::make_early_inc_range(range.getUses())) {
    auto slice = dyn_cast<partir::SliceOp>(use.getOwner());
    if (!slice)
      return use.getOwner()->emitOpError(
          "uses a loop range other than through partir.slice; cannot lower");
    b.setInsertionPoint(slice);
    auto type = cast<RankedTensorType>(slice.getOperand().getType());
    Value sliced = AllSliceOp::create(
        b, slice.getLoc(), slice.getType(), slice.getOperand(),
        singleDimAxes(ctx, type.getRank(), slice.getDim(), axis));
    slice.replaceAllUsesWith(sliced);
    slice.erase();
  }
  // The body runs on every device, in place of the loop.
  partir::YieldOp yield = loop.getYield();
  SmallVector<Value> tiles(yield.getValues());
  Block &body = loop.getBody().front();
  loop->getBlock()->getOperations().splice(Block::iterator(loop),
                                           body.getOperations(), body.begin(),
                                           std::prev(body.end()));
  b.setInsertionPoint(loop);
  for (auto [result, tile, action] :
       llvm::zip_equal(loop.getResults(), tiles, loop.getActions())) {
    Value combined = tile;
    if (auto t = dyn_cast<partir::TileAttr>(action)) {
      auto type = cast<RankedTensorType>(result.getType());
      combined = AllGatherOp::create(
          b, loop.getLoc(), type, tile,
          singleDimAxes(ctx, type.getRank(), t.getDim(), axis));
    } else if (isa<partir::SumAttr>(action)) {
      combined = AllReduceOp::create(b, loop.getLoc(), tile.getType(), tile,
                                     b.getStringAttr("sum"),
                                     b.getStrArrayAttr({axis}));
    }
    result.replaceAllUsesWith(combined);
  }
  loop.erase();
  return success();
}

LogicalResult lowerCoreLoops(func::FuncOp func) {
  SmallVector<partir::LoopOp> loops;
  func.walk<WalkOrder::PostOrder>(
      [&](partir::LoopOp loop) { loops.push_back(loop); });
  for (partir::LoopOp loop : loops)
    if (failed(lowerLoop(loop)))
      return failure();
  // Tags only name values for tactics.
  func.walk([](partir::TagOp tag) {
    tag.getResult().replaceAllUsesWith(tag.getOperand());
    tag.erase();
  });
  return success();
}

LogicalResult lowerToDeviceLocal(ModuleOp module, ArrayRef<func::FuncOp> funcs,
                                 partir::MeshAttr mesh,
                                 const LoweringOptions &options) {
  for (func::FuncOp func : funcs)
    if (failed(lowerCoreLoops(func)))
      return failure();
  // shard_map bodies are device-local code already; their collectives stay
  // as written, so they must name this mesh's devices.
  if (failed(checkCollectiveDevices(module, mesh, "cannot lower: ")) ||
      failed(inlineManualComputations(module, mesh)))
    return failure();
  if (options.optimize && failed(optimizeCollectives(module)))
    return failure();
  // Loop-carried and branch values become device-local where their uses
  // agree; the collectives this exposes are optimized again.
  bool localized = false;
  for (func::FuncOp func : funcs)
    localized |= localizeTiedValues(func, mesh);
  if (localized && options.optimize && failed(optimizeCollectives(module)))
    return failure();
  for (func::FuncOp func : funcs) {
    if (options.boundary && func.isPublic())
      makeBoundaryDeviceLocal(func, mesh);
    dropKeepWhole(func);
  }
  return success();
}

namespace {
struct PartirLowerToHloPass
    : impl::PartirLowerToHloPassBase<PartirLowerToHloPass> {
  using PartirLowerToHloPassBase::PartirLowerToHloPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(toast::partir::checkMaterialized(module, "partir-lower-to-hlo")))
      return signalPassFailure();
    partir::MeshAttr mesh = partir::getMesh(module);
    bool hasLoops = false;
    module.walk([&](partir::LoopOp) { hasLoops = true; });
    if (!mesh) {
      if (hasLoops) {
        module.emitError("partir-lower-to-hlo: the module has PartIR loops "
                         "but no partir.mesh attribute");
        return signalPassFailure();
      }
      return;
    }
    SmallVector<func::FuncOp> funcs;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal())
        funcs.push_back(func);
    if (failed(lowerToDeviceLocal(module, funcs, mesh, {optimize, boundary})))
      signalPassFailure();
  }
};
} // namespace

} // namespace toast::partir_hlo
