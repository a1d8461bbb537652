//===- AutoPartitionPass.cpp - --toast-auto-partition --------------------===//

#include "toast/Dialect/PartIR/HLO/Transforms/Passes.h"
#include "toast/Partition/Schedule.h"
#include "toast/Partition/ScheduleWriter.h"
#include "toast/Search/AutoPartition.h"
#include "toast/Search/Passes.h"
#include "toast/Search/ShardingSpace.h"
#include "toast/Simulator/Device.h"
#include "toast/Support/OutputFile.h"

namespace toast::search {
#define GEN_PASS_DEF_TOASTAUTOPARTITIONPASS
#include "toast/Search/Passes.h.inc"

/// Writes the strategy the search left in `module` as a schedule of manual
/// tactics to `path`, repaired until applying it to `original` (the module
/// before the search) gives the same state, and warns if it still does not.
static mlir::LogicalResult writeFoundSchedule(mlir::ModuleOp module,
                                              mlir::ModuleOp original,
                                              llvm::StringRef path,
                                              bool materialize) {
  auto func = partition::getEntryFunction(module);
  if (failed(func))
    return mlir::failure();
  partition::ShardingState found(*func, partir::getMesh(module));
  if (failed(found.load()))
    return mlir::failure();
  // The schedule holds the whole state: it replays on the program without
  // the state earlier tactic passes saved.
  auto written = partition::writeScheduleFromState(found, original);
  if (failed(written))
    return module.emitError("--toast-auto-partition: the schedule written "
                            "for '")
           << path << "' does not apply";
  if (failed(writeOutputFile(
          module.getLoc(),
          "--toast-auto-partition: cannot write schedule-out file", path,
          [&](llvm::raw_ostream &os) {
            os << partition::printScheduleJson(written->schedule);
          })))
    return mlir::failure();
  if (written->differences) {
    mlir::InFlightDiagnostic warning = mlir::emitWarning(module.getLoc());
    warning << "schedule-out: applying '" << path
            << "' reproduces the strategy only in part: "
            << written->differences
            << " ops, loops or arguments are partitioned differently after "
               "its propagation ("
            << written->repairs << " intermediate values pinned)";
    for (const std::string &example : written->examples)
      warning.attachNote() << "the search's " << example;
  }
  return materialize ? found.materializeCore() : mlir::success();
}

/// emit=planned: the entry becomes the device-local program the search
/// priced, built from its plan (design.md section 6); a winner the planner
/// leaves to the reference path is materialized and lowered as that path
/// does, so the output is device-local PartIR:HLO either way.
static mlir::LogicalResult emitPlannedWinner(mlir::ModuleOp module,
                                             llvm::StringRef device) {
  llvm::Expected<sim::DeviceSpec> spec = sim::lookupDevice(device);
  if (!spec)
    return module.emitError("--toast-auto-partition: ")
           << llvm::toString(spec.takeError());
  // The search's environment already said how it prices the loops.
  NdaEnvironmentOptions options;
  options.reportLoops = false;
  // The emitter changes the module only once it has built the program: when
  // it cannot (a state it does not cover), the winner goes the other way,
  // and the remark says why.
  std::string why;
  mlir::FailureOr<PlannedEntry> replaced;
  {
    mlir::ScopedDiagnosticHandler capture(
        module.getContext(), [&](mlir::Diagnostic &diag) {
          if (diag.getSeverity() != mlir::DiagnosticSeverity::Error)
            return mlir::failure();
          if (why.empty())
            why = diag.str();
          return mlir::success();
        });
    replaced = replaceByPlannedEntry(module, *spec, nullptr, options);
  }
  if (succeeded(replaced) && *replaced == PlannedEntry::Replaced)
    return mlir::success();
  auto entry = partition::getEntryFunction(module);
  if (failed(entry))
    return mlir::failure();
  if (failed(replaced))
    mlir::emitRemark(entry->getLoc())
        << "emit=planned: the emitter cannot build this strategy (" << why
        << "); emitted through PartIR:Core and lowering";
  else
    mlir::emitRemark(entry->getLoc())
        << (*replaced == PlannedEntry::NotCovered
                ? "emit=planned: the program has shard_map regions, which the "
                  "emitter does not build; "
                : "emit=planned: the strategy found is priced by the reference "
                  "path; ")
        << "emitted through PartIR:Core and lowering";
  partir::MeshAttr mesh = partir::getMesh(module);
  partition::ShardingState found(*entry, mesh);
  if (failed(found.load()) || failed(found.materializeCore()))
    return mlir::failure();
  return partir_hlo::lowerToDeviceLocal(module, *entry, mesh);
}

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
    if (emit != "core" && emit != "planned") {
      module.emitError("--toast-auto-partition: unknown emit '")
          << emit << "' (expected core or planned)";
      return signalPassFailure();
    }
    bool planned = emit == "planned";
    if (planned && !materialize) {
      module.emitError("--toast-auto-partition: emit=planned builds the "
                       "partitioned program; it does not go with "
                       "materialize=false");
      return signalPassFailure();
    }
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
    tactic.patienceWork = patienceWork;
    tactic.minGain = minGain;
    tactic.patienceRatio = patienceRatio;
    tactic.climbMemory = climbMemory;
    tactic.restartNeighbours = restartNeighbours;
    tactic.maxStates = maxStates;
    tactic.minDims = minDims;
    tactic.ilpTimeLimitSeconds = ilpTimeLimitSeconds;
    tactic.iopddlOut = iopddlOut;
    tactic.donate = donate;
    tactic.tf32 = tf32;
    tactic.pad = pad;
    tactic.contextActions = contextActions;
    tactic.listActions = listActions;
    tactic.progress = progress;
    partition::Schedule schedule;
    schedule.mesh = *mesh;
    schedule.automatic.push_back(tactic);
    mlir::OwningOpRef<mlir::ModuleOp> original;
    if (!scheduleOut.empty())
      original = module.clone();
    bool core = materialize && !planned;
    auto reports =
        partition::partition(module, schedule, core && scheduleOut.empty());
    if (failed(reports))
      return signalPassFailure();
    if (!scheduleOut.empty() &&
        failed(writeFoundSchedule(module, *original, scheduleOut, core)))
      return signalPassFailure();
    if (planned && failed(emitPlannedWinner(module, device)))
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
