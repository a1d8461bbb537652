//===- ExportShardings.cpp - Annotate the global program -----------------===//
//
// --partir-export-shardings: the user keeps their global program and hands
// the shardings Toast found to their own partitioner (XLA GSPMD through
// `mhlo.sharding`, Shardy through `sdy.sharding`).
//
// Which sharding does an argument have? Exactly the one Toast's own SPMD
// lowering gives it: the pass materializes and lowers a *clone* of the
// module (PartIR:Core, then device-local PartIR:HLO with collectives
// optimized) and reads the per-dimension axes the lowering records on the
// device-local boundary (`partir.sharding`). An argument that only some
// consumers slice therefore stays replicated, as it does in Toast's SPMD
// program, and the exported shardings and --partir-export-stablehlo agree.
//
//===----------------------------------------------------------------------===//

#include "WholeStrategy.h"

#include "toast/Export/Passes.h"
#include "toast/Export/ReplicaGroups.h"

#include "toast/Dialect/PartIR/HLO/IR/PartIRHLO.h"
#include "toast/Dialect/PartIR/HLO/Transforms/Passes.h"
#include "toast/Partition/Schedule.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;

namespace toast::xla {
#define GEN_PASS_DEF_PARTIREXPORTSHARDINGSPASS
#include "toast/Export/Passes.h.inc"

namespace {
/// Per-dimension axes of every argument and result of the entry function.
struct BoundaryShardings {
  SmallVector<DimAxisNames> args, results;
};
} // namespace

static DimAxisNames replicatedDims(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return DimAxisNames(tensor ? tensor.getRank() : 0);
}

static DimAxisNames readDimAxes(Attribute attr, Type type) {
  auto dims = dyn_cast_or_null<ArrayAttr>(attr);
  if (!dims || !partir_hlo::isDimAxes(dims))
    return replicatedDims(type);
  DimAxisNames result;
  for (const auto &axes : partir_hlo::getDimAxes(dims))
    result.emplace_back(axes.begin(), axes.end());
  return result;
}

/// Lowers a clone of `module` to device-local PartIR:HLO and reads the
/// shardings of the entry function's boundary.
static FailureOr<BoundaryShardings>
computeBoundaryShardings(ModuleOp module, func::FuncOp entry,
                         partir::MeshAttr mesh) {
  OwningOpRef<ModuleOp> clone(module.clone());
  auto func = clone->lookupSymbol<func::FuncOp>(entry.getSymName());
  partition::ShardingState state(func, mesh);
  if (failed(state.load()) || failed(state.materializeCore()) ||
      failed(partir_hlo::lowerToDeviceLocal(*clone, func, mesh)))
    return failure();
  BoundaryShardings shardings;
  for (unsigned i = 0; i < entry.getNumArguments(); ++i)
    shardings.args.push_back(readDimAxes(func.getArgAttr(i, "partir.sharding"),
                                         entry.getArgumentTypes()[i]));
  for (unsigned i = 0; i < entry.getNumResults(); ++i)
    shardings.results.push_back(readDimAxes(
        func.getResultAttr(i, "partir.sharding"), entry.getResultTypes()[i]));
  return shardings;
}

LogicalResult exportShardings(ModuleOp module,
                              const ShardingExportOptions &options) {
  MLIRContext *ctx = module.getContext();
  WalkResult lowered = module.walk<WalkOrder::PreOrder>([](Operation *op) {
    if (isa<partir::LoopOp, partir::SliceOp>(op) ||
        isa<partir_hlo::PartIRHLODialect>(op->getDialect())) {
      op->emitOpError("--partir-export-shardings needs the global program "
                      "with its partitioning state: run the tactics without "
                      "materializing (e.g. --partir-schedule=\"file=... "
                      "materialize=false\")");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (lowered.wasInterrupted())
    return failure();
  partir::MeshAttr mesh = partir::getMesh(module);
  if (!mesh)
    return module.emitError("--partir-export-shardings: the module has no "
                            "partir.mesh; run a tactic pass first");
  FailureOr<func::FuncOp> entry = partition::getEntryFunction(module);
  if (failed(entry))
    return failure();
  func::FuncOp func = *entry;
  FailureOr<BoundaryShardings> shardings =
      computeBoundaryShardings(module, func, mesh);
  if (failed(shardings))
    return failure();

  ShardingWriter writer(module, mesh, options);
  if (options.wholeProgram) {
    partition::ShardingState state(func, mesh);
    if (failed(state.load()) ||
        failed(annotateWholeProgram(func, state, shardings->args, writer)))
      return failure();
  }

  // Back to the user's program: no Toast state, tags or mesh.
  partition::ShardingState::clearSavedState(func);
  func.walk([](partir::TagOp tag) {
    tag.getResult().replaceAllUsesWith(tag.getOperand());
    tag.erase();
  });
  module->removeAttr(partir::PartIRDialect::kMeshAttrName);
  writer.joinRegions(module);

  for (auto [i, dims] : llvm::enumerate(shardings->args))
    if (failed(
            writer.annotate(dims, func, [&](StringRef name, Attribute value) {
              func.setArgAttr(i, name, value);
            })))
      return failure();
  for (auto [i, dims] : llvm::enumerate(shardings->results))
    if (failed(
            writer.annotate(dims, func, [&](StringRef name, Attribute value) {
              func.setResultAttr(i, name, value);
            })))
      return failure();
  auto i32 = IntegerType::get(ctx, 32);
  module->setAttr("mhlo.num_partitions",
                  IntegerAttr::get(i32, mesh.getNumDevices()));
  module->setAttr("mhlo.num_replicas", IntegerAttr::get(i32, 1));
  return success();
}

namespace {
struct PartirExportShardingsPass
    : impl::PartirExportShardingsPassBase<PartirExportShardingsPass> {
  using PartirExportShardingsPassBase::PartirExportShardingsPassBase;
  void runOnOperation() override {
    ShardingExportOptions options;
    options.meshName = meshName;
    if (scope == "boundary") {
      options.wholeProgram = false;
    } else if (scope != "all") {
      getOperation().emitError("--partir-export-shardings: scope must be "
                               "all or boundary, got '")
          << scope << "'";
      return signalPassFailure();
    }
    if (format == "mhlo") {
      options.sdy = false;
    } else if (format == "sdy") {
      options.mhlo = false;
    } else if (format != "both") {
      getOperation().emitError("--partir-export-shardings: format must be "
                               "both, mhlo or sdy, got '")
          << format << "'";
      return signalPassFailure();
    }
    if (failed(exportShardings(getOperation(), options)))
      signalPassFailure();
  }
};
} // namespace

} // namespace toast::xla
