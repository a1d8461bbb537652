//===- toast-run.cpp - Toast's reference interpreter driver --------------===//
//
// Runs a StableHLO / PartIR program with the reference interpreter
// (device-local PartIR:HLO and exported StableHLO run SPMD, one simulated
// device per mesh coordinate; docs/interpreter.md):
//
//   toast-run FILE [--entry NAME] [--seed N] [--print-results] [--fill-elided]
//   toast-run --compare ORIGINAL PARTITIONED [--seed N] [--rtol X] [--atol X]
//
// The work is done by the ToastInterpreter library (Runner.h).
//
//===----------------------------------------------------------------------===//

#include "toast/Interpreter/Runner.h"
#include "toast/Support/OutputFile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("toast-run options");

static cl::list<std::string> inputFiles(cl::Positional,
                                        cl::desc("FILE | ORIGINAL PARTITIONED"),
                                        cl::OneOrMore, cl::cat(category));

static cl::opt<bool> compareMode(
    "compare",
    cl::desc("Run ORIGINAL and PARTITIONED on the same random arguments and "
             "compare their results"),
    cl::cat(category));

static cl::opt<std::string> entry("entry",
                                  cl::desc("Function to run (default: main)"),
                                  cl::init("main"), cl::cat(category));

static cl::opt<uint64_t>
    seed("seed", cl::desc("Seed of the random arguments (default: 0)"),
         cl::init(0), cl::cat(category));

static cl::opt<double> relTolerance("rtol",
                                    cl::desc("Relative tolerance of --compare "
                                             "(default: 1e-4)"),
                                    cl::init(1e-4), cl::cat(category));

static cl::opt<double> absTolerance("atol",
                                    cl::desc("Absolute tolerance of --compare "
                                             "(default: 1e-5)"),
                                    cl::init(1e-5), cl::cat(category));

static cl::opt<bool> printResults("print-results",
                                  cl::desc("Print the entry's results"),
                                  cl::cat(category));

// A loop that never ends is a bad input like any other: it should end in a
// located error, not a hang. A million iterations take about a second for
// a scalar loop and are far more than ML programs run (decode loops run a
// token per iteration, scans a layer).
static cl::opt<int64_t> maxWhileIterations(
    "max-while-iterations",
    cl::desc("Fail when one stablehlo.while runs more iterations (default: "
             "1000000; 0: no limit)"),
    cl::init(1000000), cl::cat(category));

static cl::opt<bool> fillElided(
    "fill-elided",
    cl::desc("Fill constants whose data the exporter elided "
             "(dense_resource<__elided__>) with random values drawn from "
             "their type and the seed, equal in both programs of --compare"),
    cl::cat(category));

static cl::opt<bool> reportCheckErrors(
    "report-check-errors",
    cl::desc("Remark the largest errors of every passing expect_close / "
             "expect_almost_eq check"),
    cl::cat(category));

static const char *const kOverview = R"(Toast reference interpreter

  toast-run FILE [--entry NAME] [--seed N] [--print-results] [--fill-elided]
      Runs @NAME (default @main) of FILE. A function without arguments runs
      as is; one with arguments gets seeded random inputs and its results
      are printed (a device-local program runs SPMD on random global
      arguments and prints its reassembled global results).
      stablehlo.custom_call @check.expect_eq / expect_close /
      expect_almost_eq compare values; a failing check is reported at its
      location with the first differing element. Exit status 0 iff the
      program ran and every check passed. --fill-elided runs exports whose
      weights were elided (dense_resource<__elided__>) on random values,
      the same for every constant of one type.

  toast-run --compare ORIGINAL PARTITIONED [--seed N] [--rtol X] [--atol X]
      Runs @NAME of both programs on the same seeded random arguments and
      prints the largest absolute and relative error of every result.
      PARTITIONED may be PartIR:Core (run sequentially), device-local
      PartIR:HLO (partir.sharding, partir.mesh) or exported StableHLO with
      collectives (toast.global_sharding, mhlo.num_partitions); the latter
      two run SPMD, one thread per device, each on its shard, and their
      results are reassembled into global values.
      Exit status 0 iff every element of every result satisfies
      |partitioned - original| <= atol + rtol * max|original| (norm-wise:
      partial sums are added in another order, so elements that cancel to
      nearly zero may differ by more than rtol of themselves).
)";

static int run();

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, kOverview);
  int status = run();
  // A failed write (a full disk, a closed pipe) is an error like any other;
  // left in the stream, it would abort at exit (report_fatal_error).
  if (std::error_code error = toast::takeWriteError(llvm::outs())) {
    llvm::errs() << "toast-run: cannot write the results: " << error.message()
                 << "\n";
    return 1;
  }
  return status;
}

static int run() {

  if (compareMode && inputFiles.size() != 2) {
    llvm::errs() << "toast-run: --compare needs two files (ORIGINAL "
                    "PARTITIONED), got "
                 << inputFiles.size() << "\n";
    return 1;
  }
  if (!compareMode && inputFiles.size() != 1) {
    llvm::errs() << "toast-run: expected one input file, got "
                 << inputFiles.size() << " (use --compare for two)\n";
    return 1;
  }
  if (compareMode && inputFiles[0] == "-" && inputFiles[1] == "-") {
    llvm::errs() << "toast-run: --compare cannot read both programs from "
                    "standard input ('-')\n";
    return 1;
  }

  DialectRegistry registry;
  toast::interp::registerInterpreterDialects(registry);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  // One SourceMgr per file: the parser reads the main buffer of its
  // SourceMgr. Diagnostics in the second file are shown by loading it into
  // the handler's SourceMgr on demand.
  SmallVector<std::unique_ptr<llvm::SourceMgr>, 2> sourceMgrs;
  for (size_t i = 0; i < inputFiles.size(); ++i)
    sourceMgrs.push_back(std::make_unique<llvm::SourceMgr>());
  SourceMgrDiagnosticHandler diagnostics(*sourceMgrs[0], &context);

  SmallVector<OwningOpRef<ModuleOp>, 2> modules;
  for (auto [file, sourceMgr] : llvm::zip_equal(inputFiles, sourceMgrs)) {
    modules.push_back(
        toast::interp::parseModuleFile(file, context, *sourceMgr));
    if (!modules.back())
      return 1;
  }

  if (maxWhileIterations < 0) {
    llvm::errs() << "toast-run: --max-while-iterations must be >= 0 (0: no "
                    "limit), got "
                 << maxWhileIterations << "\n";
    return 1;
  }
  toast::interp::InterpreterOptions interpreterOptions;
  interpreterOptions.maxWhileIterations = maxWhileIterations;
  interpreterOptions.reportCheckErrors = reportCheckErrors;
  interpreterOptions.fillElided = fillElided;

  if (compareMode) {
    // A negative or NaN tolerance would fail every element, a comparison
    // that cannot pass.
    for (auto [name, value] :
         {std::pair<const char *, double>{"atol", absTolerance},
          {"rtol", relTolerance}})
      if (!(value >= 0) || std::isinf(value)) {
        llvm::errs() << "toast-run: --" << name
                     << " must be a finite number >= 0, got " << value << "\n";
        return 1;
      }
    toast::interp::CompareOptions options;
    options.entry = entry;
    options.seed = seed;
    options.tolerance.atol = absTolerance;
    options.tolerance.rtol = relTolerance;
    options.interpreter = interpreterOptions;
    return failed(toast::interp::compareModules(*modules[0], *modules[1],
                                                options, llvm::outs()))
               ? 1
               : 0;
  }

  toast::interp::RunOptions options;
  options.entry = entry;
  options.seed = seed;
  options.printResults = printResults;
  options.interpreter = interpreterOptions;
  FailureOr<toast::interp::RunReport> report =
      toast::interp::runEntry(*modules[0], options, llvm::outs());
  if (failed(report))
    return 1;
  return report->checks.failed == 0 ? 0 : 1;
}
