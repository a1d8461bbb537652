//===- Runner.cpp - Running programs and comparing them -------------------===//

#include "toast/Interpreter/Runner.h"

#include "toast/Dialect/CHLO/IR/ChloOps.h"
#include "toast/Dialect/PartIR/Core/IR/PartIRCore.h"
#include "toast/Dialect/StableHLO/IR/StablehloDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cmath>

using namespace mlir;
using namespace toast::interp;

void toast::interp::registerInterpreterDialects(DialectRegistry &registry) {
  registry.insert<func::FuncDialect, toast::stablehlo::StableHLODialect,
                  toast::chlo::CHLODialect, toast::partir::PartIRDialect>();
}

OwningOpRef<ModuleOp>
toast::interp::parseModuleFile(StringRef path, MLIRContext &context,
                               llvm::SourceMgr &sourceMgr) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(path);
  if (std::error_code ec = buffer.getError()) {
    emitError(UnknownLoc::get(&context))
        << "toast-run: cannot open '" << path << "': " << ec.message();
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
}

Tensor toast::interp::makeRandomTensor(const ElementType &type,
                                       ArrayRef<int64_t> shape,
                                       std::mt19937_64 &rng) {
  Tensor t(type, shape);
  // Uniform doubles from the top 53 bits: portable across standard
  // libraries, unlike std::uniform_real_distribution.
  auto unit = [&] { return std::ldexp(double(rng() >> 11), -53); };
  for (int64_t i = 0, n = t.getNumElements(); i < n; ++i) {
    switch (type.getKind()) {
    case ElementKind::Float:
      t.setFloat(i, 2.0 * unit() - 1.0);
      break;
    case ElementKind::Complex:
      t.setComplex(i, {2.0 * unit() - 1.0, 2.0 * unit() - 1.0});
      break;
    case ElementKind::Bool:
      t.setInt(i, rng() & 1);
      break;
    case ElementKind::Signed:
      t.setInt(i, static_cast<int64_t>(rng() % 21) - 10);
      break;
    case ElementKind::Unsigned:
      t.setInt(i, static_cast<int64_t>(rng() % 11));
      break;
    }
  }
  return t;
}

FailureOr<SmallVector<Tensor>>
toast::interp::makeRandomArguments(func::FuncOp func, uint64_t seed) {
  std::mt19937_64 rng(seed);
  SmallVector<Tensor> args;
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    std::optional<ElementType> elementType =
        tensorType ? ElementType::get(tensorType.getElementType())
                   : std::nullopt;
    if (!elementType || !tensorType.hasStaticShape()) {
      emitError(func.getLoc())
          << "toast-run: unsupported type " << type << " of argument #" << i
          << " of @" << func.getSymName();
      return failure();
    }
    args.push_back(makeRandomTensor(*elementType, tensorType.getShape(), rng));
  }
  return args;
}

static func::FuncOp lookupEntry(ModuleOp module, StringRef entry) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isExternal()) {
    emitError(module.getLoc())
        << "toast-run: no function named @" << entry << " to run";
    return nullptr;
  }
  return func;
}

FailureOr<RunReport> toast::interp::runEntry(ModuleOp module,
                                             const RunOptions &options,
                                             raw_ostream &os) {
  func::FuncOp func = lookupEntry(module, options.entry);
  if (!func)
    return failure();
  FailureOr<SmallVector<Tensor>> args = makeRandomArguments(func, options.seed);
  if (failed(args))
    return failure();
  Interpreter interp(module, options.interpreter);
  FailureOr<SmallVector<Tensor>> results = interp.callFunction(func, *args);
  if (failed(results))
    return failure();
  RunReport report;
  report.checks = interp.getCheckSummary();
  report.results = std::move(*results);
  if (options.printResults || !args->empty()) {
    if (!args->empty())
      os << "@" << options.entry << " ran on random arguments (seed "
         << options.seed << ")\n";
    for (auto [i, result] : llvm::enumerate(report.results)) {
      os << "result #" << i << ": ";
      result.print(os, 16);
      os << "\n";
    }
  }
  os << "@" << options.entry << ": " << report.checks.passed
     << " checks passed, " << report.checks.failed << " failed\n";
  return report;
}

/// Fails with an error unless the two functions have the same signature.
static LogicalResult checkSignatures(func::FuncOp original,
                                     func::FuncOp partitioned) {
  FunctionType a = original.getFunctionType(),
               b = partitioned.getFunctionType();
  if (a.getNumInputs() != b.getNumInputs()) {
    emitError(partitioned.getLoc())
        << "toast-run: argument count mismatch: the original @"
        << original.getSymName() << " takes " << a.getNumInputs()
        << " arguments, the partitioned one " << b.getNumInputs();
    return failure();
  }
  for (unsigned i = 0; i < a.getNumInputs(); ++i)
    if (a.getInput(i) != b.getInput(i)) {
      emitError(partitioned.getLoc())
          << "toast-run: argument #" << i << " has type " << b.getInput(i)
          << " in the partitioned program but " << a.getInput(i)
          << " in the original (both must take global shapes)";
      return failure();
    }
  if (a.getNumResults() != b.getNumResults()) {
    emitError(partitioned.getLoc())
        << "toast-run: result count mismatch: the original returns "
        << a.getNumResults() << " values, the partitioned one "
        << b.getNumResults();
    return failure();
  }
  for (unsigned i = 0; i < a.getNumResults(); ++i)
    if (a.getResult(i) != b.getResult(i)) {
      emitError(partitioned.getLoc())
          << "toast-run: result #" << i << " has type " << b.getResult(i)
          << " in the partitioned program but " << a.getResult(i)
          << " in the original";
      return failure();
    }
  return success();
}

LogicalResult toast::interp::compareModules(ModuleOp original,
                                            ModuleOp partitioned,
                                            const CompareOptions &options,
                                            raw_ostream &os) {
  func::FuncOp origFunc = lookupEntry(original, options.entry);
  func::FuncOp partFunc = lookupEntry(partitioned, options.entry);
  if (!origFunc || !partFunc || failed(checkSignatures(origFunc, partFunc)))
    return failure();
  FailureOr<SmallVector<Tensor>> args =
      makeRandomArguments(origFunc, options.seed);
  if (failed(args))
    return failure();
  Interpreter origInterp(original, options.interpreter);
  FailureOr<SmallVector<Tensor>> expected =
      origInterp.callFunction(origFunc, *args);
  if (failed(expected))
    return failure();
  Interpreter partInterp(partitioned, options.interpreter);
  FailureOr<SmallVector<Tensor>> actual =
      partInterp.callFunction(partFunc, *args);
  if (failed(actual))
    return failure();

  bool ok = true;
  os << "comparing @" << options.entry << " on random arguments (seed "
     << options.seed << "), atol " << options.tolerance.atol << ", rtol "
     << options.tolerance.rtol << "\n";
  for (auto [i, pair] : llvm::enumerate(llvm::zip_equal(*expected, *actual))) {
    auto &[ref, got] = pair;
    ErrorStats stats = computeErrorStats(got, ref, options.tolerance);
    bool within = stats.numOutside == 0;
    ok &= within;
    os << llvm::formatv("result #{0} {1}: max abs error {2:e3}, max rel error "
                        "{3:e3}: {4}\n",
                        i, ref.getType(), stats.maxAbsError, stats.maxRelError,
                        within ? "ok" : "MISMATCH");
    if (!within) {
      int64_t j = stats.firstOutside;
      os << "  " << stats.numOutside << " of " << ref.getNumElements()
         << " elements outside the tolerance; first at " << ref.formatIndex(j)
         << ": partitioned " << got.formatElement(j) << ", original "
         << ref.formatElement(j) << "\n";
    }
  }
  CheckSummary c1 = origInterp.getCheckSummary(),
               c2 = partInterp.getCheckSummary();
  if (c1.failed || c2.failed) {
    os << "checks failed: " << c1.failed << " in the original, " << c2.failed
       << " in the partitioned program\n";
    ok = false;
  }
  os << (ok ? "results agree\n" : "results differ\n");
  return success(ok);
}
