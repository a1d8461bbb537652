//===- SimulatePass.cpp - --partir-simulate -------------------------------===//
//
// Thin driver over toast::sim::simulate: resolves the device, runs the
// simulation, prints the summary and writes the JSON report. The IR is left
// unchanged, so the pass can sit anywhere in a pipeline.
//
//===----------------------------------------------------------------------===//

#include "toast/Simulator/JsonInput.h"
#include "toast/Simulator/Passes.h"
#include "toast/Simulator/Simulator.h"
#include "toast/Support/OutputFile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

#include <array>
#include <cmath>

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
      parseJsonInput((*buffer)->getBuffer());
  if (!json)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "baseline '" + path + "' is not JSON: " +
                                       llvm::toString(json.takeError()));
  const llvm::json::Object *root = json->getAsObject();
  std::optional<double> step =
      root ? root->getNumber("step_time_s") : std::nullopt;
  std::optional<double> peak =
      root ? root->getNumber("peak_memory_bytes") : std::nullopt;
  if (step && peak && (!std::isfinite(*step) || !std::isfinite(*peak) ||
                       *step < 0 || *peak < 0))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "baseline '" + path +
            "': 'step_time_s' and 'peak_memory_bytes' must be finite "
            "numbers >= 0");
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
    if (failed(toast::partir::checkMaterialized(module, "partir-simulate")))
      return signalPassFailure();
    // A NaN, infinite or negative constant makes every relative cost NaN
    // or infinite.
    if (!std::isfinite(penalty) || penalty < 0) {
      module.emitError("partir-simulate: penalty must be a finite number "
                       ">= 0, got ")
          << penalty;
      return signalPassFailure();
    }
    llvm::Expected<DeviceSpec> spec = lookupDevice(device);
    if (!spec) {
      module.emitError("partir-simulate: ") << llvm::toString(spec.takeError());
      return signalPassFailure();
    }
    // Open every output first: a path that cannot be written is an error
    // before a long simulation, and no output is left half written.
    std::unique_ptr<llvm::ToolOutputFile> jsonFile, traceFile, csvFile;
    struct Output {
      const std::string &path;
      std::unique_ptr<llvm::ToolOutputFile> &file;
      const char *what;
    };
    for (const Output &output :
         {Output{jsonPath, jsonFile, "json"},
          Output{tracePath, traceFile, "trace"},
          Output{memoryCsvPath, csvFile, "memory-csv"}}) {
      if (output.path.empty())
        continue;
      std::string error;
      output.file = openOutputFile(output.path, &error);
      if (!output.file) {
        module.emitError("partir-simulate: ") << output.what << ": " << error;
        return signalPassFailure();
      }
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
    options.warnDynamicShapes = true;
    Timeline timeline;
    bool wantTimeline = traceFile || csvFile;
    FailureOr<SimulationResult> result =
        simulate(module, *spec, options, wantTimeline ? &timeline : nullptr);
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
    if (jsonFile)
      jsonFile->os() << toJSON(*result, &relative, penalty);
    if (traceFile)
      writeChromeTrace(traceFile->os(), *result, timeline);
    if (csvFile)
      writeMemoryCSV(csvFile->os(), *result, timeline);
    // Keep the outputs only if every one of them was written.
    std::array<std::unique_ptr<llvm::ToolOutputFile> *, 3> files = {
        &jsonFile, &traceFile, &csvFile};
    // Check them all: a file left with its error set aborts when destroyed.
    bool written = true;
    for (std::unique_ptr<llvm::ToolOutputFile> *file : files)
      if (*file)
        written &= succeeded(toast::checkWritten(
            **file, module.getLoc(), "partir-simulate: cannot write"));
    if (!written)
      return signalPassFailure();
    for (std::unique_ptr<llvm::ToolOutputFile> *file : files)
      if (*file)
        (*file)->keep();
    markAllAnalysesPreserved();
  }
};
} // namespace
