//===- Runner.h - Running programs and comparing them -----------*- C++ -*-===//
//
// The library behind `toast-run`: run an entry function (with seeded random
// arguments when it takes any) and its `check.expect_*` calls, or run two
// programs on the same random inputs and compare their results
// (differential testing of partitioned programs).
//
// The original takes global shapes. The partitioned program may be global
// (PartIR:Core or Temporal) or device-local (PartIR:HLO, exported StableHLO
// with collectives): a device-local program runs SPMD (Spmd.h), each device
// receiving its shard of the same global inputs, and its results are
// reassembled into global values before the comparison. runEntry runs a
// device-local program the same way.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_INTERPRETER_RUNNER_H
#define TOAST_INTERPRETER_RUNNER_H

#include "toast/Interpreter/Compare.h"
#include "toast/Interpreter/Interpreter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <random>
#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace toast::interp {

/// Registers the dialects the interpreter executes (func, stablehlo, chlo,
/// partir) in `registry`.
void registerInterpreterDialects(mlir::DialectRegistry &registry);

/// Parses the file at `path` ("-" for stdin) into a module; errors are
/// reported through `context`'s diagnostic handler. `sourceMgr` must be
/// empty: the file becomes its main buffer.
mlir::OwningOpRef<mlir::ModuleOp> parseModuleFile(llvm::StringRef path,
                                                  mlir::MLIRContext &context,
                                                  llvm::SourceMgr &sourceMgr);

/// A tensor of `type` with seeded random elements: floats uniform in
/// [-1, 1), signed integers in [-10, 10], unsigned ones in [0, 10], i1
/// uniform.
Tensor makeRandomTensor(const ElementType &type, llvm::ArrayRef<int64_t> shape,
                        std::mt19937_64 &rng);

/// Random arguments for `func` from `seed` (one stream, in argument order);
/// fails with an error at the function for unsupported argument types.
mlir::FailureOr<llvm::SmallVector<Tensor>>
makeRandomArguments(mlir::func::FuncOp func, uint64_t seed);

/// Options of runEntry.
struct RunOptions {
  std::string entry = "main";
  /// Seeds the random arguments and the stream of `stablehlo.rng`.
  uint64_t seed = 0;
  /// Print every result (always done when the entry takes arguments).
  bool printResults = false;
  InterpreterOptions interpreter;
};

/// What a run produced.
struct RunReport {
  CheckSummary checks;
  llvm::SmallVector<Tensor> results;
};

/// Runs `options.entry` of `module`, printing a summary (and results) to
/// `os`. Fails when evaluation fails; failed checks are counted in the
/// report (and reported as errors at the check) but do not fail the run.
mlir::FailureOr<RunReport> runEntry(mlir::ModuleOp module,
                                    const RunOptions &options,
                                    llvm::raw_ostream &os);

/// Options of compareModules.
struct CompareOptions {
  std::string entry = "main";
  /// Seeds the random arguments and the stream of `stablehlo.rng` (both
  /// programs draw the same numbers).
  uint64_t seed = 0;
  Tolerance tolerance{/*atol=*/1e-5, /*rtol=*/1e-4};
  InterpreterOptions interpreter;
};

/// Runs the entries of `original` and `partitioned` on the same random
/// arguments (global shapes; `partitioned` may be device-local) and prints
/// the largest absolute and relative error of every result (the tensors of
/// tuples one by one; tokens are skipped) to `os`. Succeeds iff both run,
/// their signatures match, every check inside them passes and every result
/// is within the tolerance.
mlir::LogicalResult compareModules(mlir::ModuleOp original,
                                   mlir::ModuleOp partitioned,
                                   const CompareOptions &options,
                                   llvm::raw_ostream &os);

} // namespace toast::interp

#endif // TOAST_INTERPRETER_RUNNER_H
