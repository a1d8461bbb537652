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

namespace toast::search {

#define GEN_PASS_DEF_TOASTEMITPLANNEDPASS
#include "toast/Search/Passes.h.inc"

namespace {

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
    partition::ShardingState saved(*entry, mesh);
    if (failed(saved.load()))
      return signalPassFailure();
    auto env = NdaEnvironment::create(*entry, mesh, {}, *spec, {}, &saved);
    if (failed(env))
      return signalPassFailure();
    SearchState state = (*env)->getInitialState();
    auto planned = (*env)->emitPlanned(state);
    if (failed(planned))
      return signalPassFailure();
    if (report) {
      AnalyticCost cost = (*env)->analyticCost(state);
      mlir::InFlightDiagnostic remark = mlir::emitRemark(entry->getLoc())
                                        << "planned: analytic step time "
                                        << cost.runtime * 1e3 << " ms";
      for (unsigned k = 0; k < sim::kNumCollectiveKinds; ++k)
        remark << ", " << cost.collectiveCounts[k] << " "
               << sim::getCollectiveKindName(
                      static_cast<sim::CollectiveKind>(k));
    }
    // The environment refers to the entry's ops: release it before the
    // entry is replaced.
    env->reset();
    auto plannedEntry =
        (*planned)->lookupSymbol<mlir::func::FuncOp>(entry->getSymName());
    auto replacement = mlir::cast<mlir::func::FuncOp>(plannedEntry->clone());
    // The tactics' saved state described the global program.
    partition::ShardingState::clearSavedState(replacement);
    module.getBody()->getOperations().insert(
        entry->getOperation()->getIterator(), replacement);
    entry->erase();
    module->setAttr("partir.mesh", mesh);
  }
};

} // namespace

} // namespace toast::search
