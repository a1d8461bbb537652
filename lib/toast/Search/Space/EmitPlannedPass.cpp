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
