//===- EmitPlannedPass.cpp - --toast-emit-planned -------------------------===//
//
// Replaces the entry by the planned device-local program of the sharding
// state saved on it (NdaEnvironment::emitPlanned): a check of the planner
// against the interpreter and the simulator from the command line.
//
//===----------------------------------------------------------------------===//

#include "toast/Partition/Schedule.h"
#include "toast/Partition/ShardingState.h"
#include "toast/Search/Passes.h"
#include "toast/Search/ShardingSpace.h"
#include "toast/Simulator/Device.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"

namespace toast::search {

#define GEN_PASS_DEF_TOASTEMITPLANNEDPASS
#include "toast/Search/Passes.h.inc"

namespace {

/// Whether `levels` (outermost first) list their axes in mesh order.
template <typename Levels>
static bool inMeshOrder(partir::MeshAttr mesh, const Levels &levels) {
  int last = -1;
  for (const auto &level : levels) {
    auto *it = llvm::find(mesh.getNames(), level.axis);
    int axis = static_cast<int>(it - mesh.getNames().begin());
    if (axis <= last)
      return false;
    last = axis;
  }
  return true;
}

/// Warns at the first tiling or loop nest the saved state does not list
/// in mesh-axis order. A search state records which axes a dimension
/// carries, not their order (docs/search.md, "From a state to Core, and
/// back"): the planned program nests such loops in mesh-axis order, where
/// --partir-materialize-core nests them as written and may lower them to
/// other collectives (a gather of [M][S] and an all_slice instead of a
/// gather of M and an all_to_all).
static void warnIfNotInMeshOrder(mlir::func::FuncOp entry,
                                 partir::MeshAttr mesh) {
  partition::ShardingState saved(entry, mesh);
  {
    // A state that does not load is reported once, by the emitter's load.
    mlir::ScopedDiagnosticHandler quiet(
        entry.getContext(), [](mlir::Diagnostic &) { return mlir::success(); });
    if (failed(saved.load()))
      return;
  }
  auto warn = [&](mlir::Location loc, llvm::StringRef what) {
    mlir::emitWarning(loc)
        << "planned program: " << what
        << " not in mesh-axis order: the planned program nests its loops in "
           "mesh-axis order (a search state has no order), "
           "--partir-materialize-core as written";
  };
  for (mlir::BlockArgument arg : entry.getArguments())
    if (!inMeshOrder(mesh, saved.getExplicitTiling(arg)))
      return warn(arg.getLoc(), "this argument's tiling is");
  entry.walk([&](mlir::Operation *op) {
    if (inMeshOrder(mesh, saved.getLoopNest(op)))
      return mlir::WalkResult::advance();
    warn(op->getLoc(), "this op's loops are");
    return mlir::WalkResult::interrupt();
  });
}

struct ToastEmitPlannedPass
    : impl::ToastEmitPlannedPassBase<ToastEmitPlannedPass> {
  using ToastEmitPlannedPassBase::ToastEmitPlannedPassBase;

  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    auto entry = partition::getEntryFunction(module);
    partir::MeshAttr mesh = partir::getMesh(module);
    if (failed(entry))
      return signalPassFailure();
    if (!mesh) {
      module.emitError("--toast-emit-planned: no mesh (run a tactic pass "
                       "that saves a sharding state first)");
      return signalPassFailure();
    }
    llvm::Expected<sim::DeviceSpec> spec = sim::lookupDevice(device);
    if (!spec) {
      module.emitError("--toast-emit-planned: ")
          << llvm::toString(spec.takeError());
      return signalPassFailure();
    }
    warnIfNotInMeshOrder(*entry, mesh);
    AnalyticCost cost;
    auto replaced = replaceByPlannedEntry(module, *spec, &cost);
    if (failed(replaced))
      return signalPassFailure();
    if (*replaced == PlannedEntry::NotCovered) {
      entry->emitError("planned program: the emitter does not build "
                       "shard_map regions (sdy.manual_computation); lower "
                       "with --partir-materialize-core --partir-lower-to-hlo");
      return signalPassFailure();
    }
    if (*replaced == PlannedEntry::ByReference) {
      entry->emitError("planned program: a state priced by the reference "
                       "path");
      return signalPassFailure();
    }
    if (report) {
      mlir::InFlightDiagnostic remark = mlir::emitRemark(module.getLoc())
                                        << "planned: analytic step time "
                                        << cost.runtime * 1e3 << " ms";
      for (unsigned k = 0; k < sim::kNumCollectiveKinds; ++k)
        remark << ", " << cost.collectiveCounts[k] << " "
               << sim::getCollectiveKindName(
                      static_cast<sim::CollectiveKind>(k));
    }
  }
};

} // namespace

} // namespace toast::search
