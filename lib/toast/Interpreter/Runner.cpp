//===- Runner.cpp - Running programs and comparing them -------------------===//

#include "toast/Interpreter/Runner.h"
#include "toast/Interpreter/Spmd.h"

#include "toast/Dialect/CHLO/IR/ChloOps.h"
#include "toast/Dialect/PartIR/Core/IR/PartIRCore.h"
#include "toast/Dialect/PartIR/HLO/IR/PartIRHLO.h"
#include "toast/Dialect/Sdy/IR/Sdy.h"
#include "toast/Dialect/StableHLO/IR/StablehloOps.h"
#include "toast/Export/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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
  registry
      .insert<func::FuncDialect, arith::ArithDialect,
              toast::stablehlo::StableHLODialect, toast::chlo::CHLODialect,
              toast::partir::PartIRDialect, toast::partir_hlo::PartIRHLODialect,
              toast::sdy::SdyDialect>();
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

/// A random value of `type`: a tensor, a token, or a tuple of random
/// elements; std::nullopt for unsupported types.
static std::optional<Tensor> makeRandomValue(Type type, std::mt19937_64 &rng) {
  if (isa<toast::stablehlo::TokenType>(type))
    return Tensor::makeToken(type);
  if (auto tuple = dyn_cast<TupleType>(type)) {
    SmallVector<Tensor> elements;
    for (Type element : tuple.getTypes()) {
      std::optional<Tensor> value = makeRandomValue(element, rng);
      if (!value)
        return std::nullopt;
      elements.push_back(std::move(*value));
    }
    return Tensor::makeTuple(tuple, elements);
  }
  auto tensorType = dyn_cast<RankedTensorType>(type);
  std::optional<ElementType> elementType =
      tensorType ? ElementType::get(tensorType.getElementType()) : std::nullopt;
  if (!elementType || !tensorType.hasStaticShape())
    return std::nullopt;
  return makeRandomTensor(*elementType, tensorType.getShape(), rng);
}

/// Random values of `types` (the arguments of `func`, in global shapes).
static FailureOr<SmallVector<Tensor>>
makeRandomValues(TypeRange types, func::FuncOp func, uint64_t seed) {
  std::mt19937_64 rng(seed);
  SmallVector<Tensor> args;
  for (auto [i, type] : llvm::enumerate(types)) {
    auto tensorType = dyn_cast<RankedTensorType>(type);
    if (tensorType && tensorType.hasStaticShape() &&
        exceedsMaxElements(tensorType.getShape())) {
      emitError(func.getLoc())
          << "toast-run: argument #" << i << " of @" << func.getSymName()
          << ", " << type << ", is too large for the interpreter (more than "
          << kMaxTensorElements << " elements)";
      return failure();
    }
    std::optional<Tensor> value = makeRandomValue(type, rng);
    if (!value) {
      emitError(func.getLoc())
          << "toast-run: unsupported type " << type << " of argument #" << i
          << " of @" << func.getSymName();
      return failure();
    }
    args.push_back(std::move(*value));
  }
  return args;
}

FailureOr<SmallVector<Tensor>>
toast::interp::makeRandomArguments(func::FuncOp func, uint64_t seed) {
  return makeRandomValues(func.getArgumentTypes(), func, seed);
}

static func::FuncOp lookupEntry(ModuleOp module, StringRef entry) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func) {
    emitError(module.getLoc())
        << "toast-run: no function named @" << entry << " to run";
    return nullptr;
  }
  if (func.isExternal()) {
    emitError(func.getLoc())
        << "toast-run: @" << entry << " is a declaration without a body";
    return nullptr;
  }
  return func;
}

/// A function to run: global, or device-local with its SPMD description.
struct Program {
  // Op handles are cheap values; mutable so that const Programs can call
  // their (non-const) accessors.
  mutable func::FuncOp func;
  std::optional<SpmdProgram> spmd;
  /// The signature in global shapes.
  FunctionType getGlobalType() const {
    return spmd ? spmd->globalType : func.getFunctionType();
  }
};

static FailureOr<Program> loadProgram(ModuleOp module, StringRef entry) {
  func::FuncOp func = lookupEntry(module, entry);
  if (!func)
    return failure();
  // GSPMD's shard_map regions run as the sdy regions they are.
  if (failed(toast::xla::liftGspmdManualRegions(func)))
    return failure();
  FailureOr<std::optional<SpmdProgram>> spmd = analyzeSpmdProgram(func);
  if (failed(spmd))
    return failure();
  return Program{func, std::move(*spmd)};
}

/// Runs `program` on global `args`: directly, or SPMD on its devices.
/// `stablehlo.rng` draws from `seed`, the seed of the arguments.
static FailureOr<SpmdRunReport> runProgram(const Program &program,
                                           ArrayRef<Tensor> args,
                                           InterpreterOptions options,
                                           uint64_t seed) {
  options.rngSeed = seed;
  if (program.spmd)
    return runSpmd(program.func, *program.spmd, args, options);
  Interpreter interp(program.func->getParentOfType<ModuleOp>(), options);
  FailureOr<SmallVector<Tensor>> results =
      interp.callFunction(program.func, args);
  if (failed(results))
    return failure();
  return SpmdRunReport{std::move(*results), interp.getCheckSummary()};
}

static void describeSpmd(const Program &program, raw_ostream &os) {
  if (!program.spmd)
    return;
  os << "@" << program.func.getSymName() << " runs SPMD on "
     << program.spmd->numDevices << " devices ("
     << (program.spmd->kind == SpmdProgram::Kind::PartIRHLO
             ? "PartIR:HLO"
             : "exported StableHLO")
     << ")\n";
}

FailureOr<RunReport> toast::interp::runEntry(ModuleOp module,
                                             const RunOptions &options,
                                             raw_ostream &os) {
  FailureOr<Program> program = loadProgram(module, options.entry);
  if (failed(program))
    return failure();
  FailureOr<SmallVector<Tensor>> args = makeRandomValues(
      program->getGlobalType().getInputs(), program->func, options.seed);
  if (failed(args))
    return failure();
  FailureOr<SpmdRunReport> run =
      runProgram(*program, *args, options.interpreter, options.seed);
  if (failed(run))
    return failure();
  RunReport report;
  report.checks = run->checks;
  report.results = std::move(run->results);
  describeSpmd(*program, os);
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
/// `partitioned` is compared in global shapes.
static LogicalResult checkSignatures(func::FuncOp original,
                                     const Program &partitionedProgram) {
  func::FuncOp partitioned = partitionedProgram.func;
  FunctionType a = original.getFunctionType(),
               b = partitionedProgram.getGlobalType();
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
          << " in the original"
          << (partitionedProgram.spmd
                  ? " (the global type of a device-local argument is its "
                    "type times its sharding's tiles)"
                  : " (both must take global shapes)");
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

/// The tensors of `values` in order, with tuples flattened; tokens carry no
/// data and are left out.
static SmallVector<Tensor> flattenTensors(ArrayRef<Tensor> values) {
  SmallVector<Tensor> tensors;
  for (const Tensor &value : values) {
    if (value.isTuple())
      llvm::append_range(tensors, flattenTensors(value.getTupleElements()));
    else if (value.isValid())
      tensors.push_back(value);
  }
  return tensors;
}

LogicalResult toast::interp::compareModules(ModuleOp original,
                                            ModuleOp partitioned,
                                            const CompareOptions &options,
                                            raw_ostream &os) {
  FailureOr<Program> orig = loadProgram(original, options.entry);
  FailureOr<Program> part = loadProgram(partitioned, options.entry);
  if (failed(orig) || failed(part))
    return failure();
  if (orig->spmd) {
    emitError(orig->func.getLoc())
        << "toast-run: the ORIGINAL program must be global (it is "
           "device-local); pass it second";
    return failure();
  }
  if (failed(checkSignatures(orig->func, *part)))
    return failure();
  FailureOr<SmallVector<Tensor>> args =
      makeRandomArguments(orig->func, options.seed);
  if (failed(args))
    return failure();
  FailureOr<SpmdRunReport> expected =
      runProgram(*orig, *args, options.interpreter, options.seed);
  if (failed(expected))
    return failure();
  FailureOr<SpmdRunReport> actual =
      runProgram(*part, *args, options.interpreter, options.seed);
  if (failed(actual))
    return failure();

  bool ok = true;
  os << "comparing @" << options.entry << " on random arguments (seed "
     << options.seed << "), atol " << options.tolerance.atol << ", rtol "
     << options.tolerance.rtol << "\n";
  describeSpmd(*part, os);
  SmallVector<Tensor> expectedTensors = flattenTensors(expected->results);
  SmallVector<Tensor> actualTensors = flattenTensors(actual->results);
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip_equal(expectedTensors, actualTensors))) {
    auto &[ref, got] = pair;
    ErrorStats stats = computeErrorStats(
        got, ref, getNormwiseTolerance(ref, options.tolerance));
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
  CheckSummary c1 = expected->checks, c2 = actual->checks;
  if (c1.failed || c2.failed) {
    os << "checks failed: " << c1.failed << " in the original, " << c2.failed
       << " in the partitioned program\n";
    ok = false;
  }
  os << (ok ? "results agree\n" : "results differ\n");
  return success(ok);
}
