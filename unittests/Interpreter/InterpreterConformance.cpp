//===- InterpreterConformance.cpp - Run the StableHLO test data ----------===//
//
// The conformance test of the interpreter (ctest `interpreter-conformance`):
// runs @main of every file of <corpus>/stablehlo-testdata in-process and
// requires at least 99% of them to pass. A file passes when it parses, runs
// without errors (an unsupported op is a failure, not a skip) and all its
// check.expect_* calls pass. Prints every failing file with its first
// diagnostic, and the pass rate.
//
// The corpus folder is argv[1] or $TOAST_CORPUS_DIR. Without it the test
// exits with 77 (skipped), except under CI=true, where that is a failure.
//
//===----------------------------------------------------------------------===//

#include "toast/Interpreter/Runner.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

using namespace mlir;

namespace {

constexpr int kSkipped = 77;
constexpr double kRequiredPassRate = 0.99;

/// Runs one file; returns an empty string on success, else the reason.
/// Adds the number of passing checks to `checksPassed`.
std::string runFile(const std::string &path, int64_t &checksPassed) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return "cannot read file";
  DialectRegistry registry;
  toast::interp::registerInterpreterDialects(registry);
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  std::string firstError;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error && firstError.empty()) {
      llvm::raw_string_ostream os(firstError);
      os << diag.getLocation() << ": " << diag.str();
    }
    return success();
  });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      (*buffer)->getBuffer(), ParserConfig(&context),
      llvm::sys::path::filename(path));
  if (!module)
    return firstError.empty() ? "parse error" : firstError;
  toast::interp::RunOptions options;
  // A runaway loop fails the file instead of hanging the test.
  options.interpreter.maxWhileIterations = 1000000;
  std::string log;
  llvm::raw_string_ostream os(log);
  FailureOr<toast::interp::RunReport> report =
      toast::interp::runEntry(*module, options, os);
  if (failed(report) || report->checks.failed > 0)
    return firstError.empty() ? "failed" : firstError;
  checksPassed += report->checks.passed;
  if (report->checks.passed == 0)
    return "no check.expect_* call ran";
  return "";
}
} // namespace

int main(int argc, char **argv) {
  const char *envDir = std::getenv("TOAST_CORPUS_DIR");
  std::string corpus = argc > 1 ? argv[1] : (envDir ? envDir : "");
  const char *ci = std::getenv("CI");
  bool underCI = ci && std::string(ci) == "true";
  std::string folder = corpus + "/stablehlo-testdata";
  if (corpus.empty() || !llvm::sys::fs::is_directory(folder)) {
    llvm::errs() << "interpreter-conformance: no corpus at '" << folder
                 << "'\n";
    return underCI ? 1 : kSkipped;
  }

  std::vector<std::string> files;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(folder, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".mlir")
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    llvm::errs() << "interpreter-conformance: no .mlir files in '" << folder
                 << "'\n";
    return 1;
  }

  auto start = std::chrono::steady_clock::now();
  size_t passed = 0;
  int64_t checksPassed = 0;
  for (const std::string &file : files) {
    std::string reason = runFile(file, checksPassed);
    if (reason.empty()) {
      ++passed;
      continue;
    }
    std::string firstLine = reason.substr(0, reason.find('\n'));
    llvm::outs() << "FAIL " << llvm::sys::path::filename(file) << ": "
                 << firstLine << "\n";
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  double rate = double(passed) / files.size();
  llvm::outs() << llvm::format("interpreter-conformance: %zu of %zu files "
                               "passed (%.2f%%, %lld checks) in %.1f s; "
                               "required %.0f%%\n",
                               passed, files.size(), 100.0 * rate,
                               static_cast<long long>(checksPassed), seconds,
                               100.0 * kRequiredPassRate);
  return rate >= kRequiredPassRate ? 0 : 1;
}
