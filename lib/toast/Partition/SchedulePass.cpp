//===- SchedulePass.cpp - --partir-schedule ------------------------------===//

#include "toast/Partition/Passes.h"
#include "toast/Partition/Schedule.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

namespace toast::partition {
#define GEN_PASS_DEF_PARTIRSCHEDULEPASS
#include "toast/Partition/Passes.h.inc"

namespace {
struct PartirSchedulePass
    : impl::PartirSchedulePassBase<PartirSchedulePass> {
  using PartirSchedulePassBase::PartirSchedulePassBase;

  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    if (file.empty()) {
      module.emitError("--partir-schedule needs file=PATH");
      return signalPassFailure();
    }
    std::string message;
    std::unique_ptr<llvm::MemoryBuffer> buffer =
        mlir::openInputFile(file, &message);
    if (!buffer) {
      module.emitError("cannot read schedule '") << file << "': " << message;
      return signalPassFailure();
    }
    mlir::FailureOr<Schedule> schedule = parseSchedule(buffer->getBuffer(), message);
    if (failed(schedule)) {
      module.emitError("in schedule '") << file << "': " << message;
      return signalPassFailure();
    }
    auto reports = partition(module, *schedule, materialize);
    if (failed(reports))
      return signalPassFailure();
    if (!report)
      return;
    for (const TacticReport &r : *reports) {
      llvm::errs() << "partir-schedule: tactic " << r.name << ": "
                   << r.actions << " actions, " << r.opsOnAxis
                   << " ops partitioned on its axis, " << r.stats.assignments
                   << " loops added, " << r.stats.conflicts << " conflicts";
      if (r.simulation) {
          using sim::CollectiveKind;
          const sim::SimulationResult &sr = *r.simulation;
          llvm::errs() << "; simulated on " << sr.device << ": step "
                       << sim::formatTime(sr.stepTime) << ", peak "
                       << sim::formatBytes(sr.peakMemoryBytes) << ", "
                       << sr.count(CollectiveKind::AllGather) << " all_gather, "
                       << sr.count(CollectiveKind::AllReduce) << " all_reduce, "
                       << sr.count(CollectiveKind::ReduceScatter)
                       << " reduce_scatter, "
                       << sr.count(CollectiveKind::AllToAll) << " all_to_all";
      }
      llvm::errs() << "\n";
      for (const std::string &note : r.notes)
        llvm::errs() << "partir-schedule:   " << note << "\n";
    }
  }
};
} // namespace
} // namespace toast::partition
