//===- SimulatePass.cpp - --partir-simulate -------------------------------===//
//
// Thin driver over toast::sim::simulate: resolves the device, runs the
// simulation, prints the summary and writes the JSON report. The IR is left
// unchanged, so the pass can sit anywhere in a pipeline.
//
//===----------------------------------------------------------------------===//

#include "toast/Simulator/Passes.h"
#include "toast/Simulator/Simulator.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

namespace toast::sim {
#define GEN_PASS_DEF_PARTIRSIMULATEPASS
#include "toast/Simulator/Passes.h.inc"
} // namespace toast::sim

using namespace mlir;
using namespace toast::sim;

namespace {
/// Step time and peak memory of an earlier report.
struct Baseline {
  double stepTime = 0;
  double peakMemory = 0;
};

llvm::Expected<Baseline> readBaseline(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read baseline '" + path +
                                       "': " + buffer.getError().message());
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "baseline '" + path + "' is not JSON: " +
                                       llvm::toString(json.takeError()));
  const llvm::json::Object *root = json->getAsObject();
  std::optional<double> step =
      root ? root->getNumber("step_time_s") : std::nullopt;
  std::optional<double> peak =
      root ? root->getNumber("peak_memory_bytes") : std::nullopt;
  if (!step || !peak)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "baseline '" + path +
            "' needs numbers 'step_time_s' and 'peak_memory_bytes' (a "
            "--partir-simulate JSON report)");
  return Baseline{*step, *peak};
}

struct PartirSimulatePass
    : toast::sim::impl::PartirSimulatePassBase<PartirSimulatePass> {
  using PartirSimulatePassBase::PartirSimulatePassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::Expected<DeviceSpec> spec = lookupDevice(device);
    if (!spec) {
      module.emitError("partir-simulate: ") << llvm::toString(spec.takeError());
      return signalPassFailure();
    }
    SimulationOptions options;
    options.memoryBound = memoryBound;
    options.fusion = fusion;
    options.overlap = overlap;
    options.function = function;
    options.tf32 = tf32;
    options.donate = donate;
    options.warnUncountedLoops = true;
    options.warnMissingPeaks = true;
    FailureOr<SimulationResult> result = simulate(module, *spec, options);
    if (failed(result))
      return signalPassFailure();

    Baseline initial{result->stepTime,
                     static_cast<double>(result->peakMemoryBytes)};
    if (!baseline.empty()) {
      llvm::Expected<Baseline> read = readBaseline(baseline);
      if (!read) {
        module.emitError("partir-simulate: ")
            << llvm::toString(read.takeError());
        return signalPassFailure();
      }
      initial = *read;
    }
    RelativeCost relative = computeRelativeCost(
        initial.stepTime, initial.peakMemory, result->stepTime,
        static_cast<double>(result->peakMemoryBytes),
        static_cast<double>(result->deviceMemoryBytes), penalty);

    if (summary)
      printSummary(llvm::errs(), *result, &relative);
    if (!jsonPath.empty()) {
      std::string error;
      std::unique_ptr<llvm::ToolOutputFile> file =
          openOutputFile(jsonPath, &error);
      if (!file) {
        module.emitError("partir-simulate: ") << error;
        return signalPassFailure();
      }
      file->os() << toJSON(*result, &relative, penalty);
      file->keep();
    }
    markAllAnalysesPreserved();
  }
};
} // namespace
