//===- AutoPartitionPass.cpp - --toast-auto-partition --------------------===//

#include "toast/Partition/Schedule.h"
#include "toast/Search/AutoPartition.h"
#include "toast/Search/Passes.h"

namespace toast::search {
#define GEN_PASS_DEF_TOASTAUTOPARTITIONPASS
#include "toast/Search/Passes.h.inc"

namespace {
struct ToastAutoPartitionPass
    : impl::ToastAutoPartitionPassBase<ToastAutoPartitionPass> {
  using ToastAutoPartitionPassBase::ToastAutoPartitionPassBase;

  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    // A one-tactic schedule: partition() resolves the mesh, loads the
    // state earlier tactic passes saved, and materializes or saves.
    auto mesh = partition::parseMeshOption(module, this->mesh);
    if (failed(mesh))
      return signalPassFailure();
    if (!parseAlgorithm(algorithm)) {
      module.emitError("--toast-auto-partition: unknown algorithm '")
          << algorithm << "' (expected " << kAlgorithmNames << ")";
      return signalPassFailure();
    }
    partition::AutomaticTactic tactic;
    tactic.name = "auto";
    tactic.axes.assign(axes.begin(), axes.end());
    tactic.device = device;
    tactic.algorithm = algorithm;
    tactic.seed = seed;
    tactic.budgetSeconds = budgetSeconds;
    tactic.threads = threads;
    tactic.rollouts = rollouts;
    tactic.restartPatience = restartPatience;
    tactic.maxStates = maxStates;
    tactic.minDims = minDims;
    tactic.ilpTimeLimitSeconds = ilpTimeLimitSeconds;
    tactic.iopddlOut = iopddlOut;
    tactic.donate = donate;
    tactic.tf32 = tf32;
    tactic.pad = pad;
    tactic.progress = progress;
    partition::Schedule schedule;
    schedule.mesh = *mesh;
    schedule.automatic.push_back(tactic);
    auto reports = partition::partition(module, schedule, materialize);
    if (failed(reports))
      return signalPassFailure();
    if (!report)
      return;
    mlir::InFlightDiagnostic remark = mlir::emitRemark(module.getLoc())
                                      << "auto-partition chose "
                                      << reports->front().notes.size()
                                      << " actions";
    for (const std::string &note : reports->front().notes)
      remark << "; " << note;
  }
};
} // namespace

} // namespace toast::search
