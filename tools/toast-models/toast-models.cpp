//===- toast-models.cpp - Writes the benchmark models as StableHLO -------===//
//
// toast-models NAME [--layers N] [--batch N] ... [-o FILE]
// toast-models --list
//
// Prints the module on stdout (or -o FILE) and its size (parameters,
// parameter tensors, ops, generation time) on stderr.
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/StableHLO/IR/StablehloDialect.h"
#include "toast/Models/Models.h"
#include "toast/Support/OutputFile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <deque>

using namespace llvm;

static cl::OptionCategory category("toast-models options");

static cl::opt<std::string> modelName(cl::Positional, cl::desc("<model>"),
                                      cl::cat(category));
static cl::opt<std::string> outputFile("o", cl::desc("Output file"),
                                       cl::value_desc("file"), cl::init("-"),
                                       cl::cat(category));
static cl::opt<bool> listModels("list", cl::desc("List models and presets"),
                                cl::cat(category));
static cl::opt<bool> inference("inference",
                               cl::desc("Forward pass only (mlp, transformer)"),
                               cl::cat(category));
static cl::opt<bool> gradients(
    "gradients",
    cl::desc("Training steps return the loss and the gradients (grad.*) "
             "instead of applying Adam"),
    cl::cat(category));
static cl::opt<std::string> embedding(
    "embedding",
    cl::desc("Transformer embedding lookup: gather or onehot (default: the "
             "preset's; t32/t48 onehot, t2b/t7b gather)"),
    cl::cat(category));
static cl::opt<std::string>
    dtype("dtype",
          cl::desc("Parameter element type: f32 (default), bf16 or f64"),
          cl::init("f32"), cl::cat(category));
static cl::opt<bool>
    scan("scan",
         cl::desc("transformer, itx: the layers as one stablehlo.while over "
                  "parameters stacked on a leading layer dimension "
                  "(params.layers.*), as jax.lax.scan / nn.scan emit them"),
         cl::cat(category));
static cl::opt<bool>
    remat("remat",
          cl::desc("with --scan: the backward loop recomputes each layer from "
                   "its saved input (jax.checkpoint on the scanned layer); "
                   "default: the forward loop saves every residual stacked "
                   "(transformer training steps)"),
          cl::cat(category));
static cl::opt<bool> flattenLinear(
    "flatten-linear",
    cl::desc("transformer: linear layers written the PyTorch way (flatten "
             "to (B*S, D), 2-D weights, unflatten, heads split by reshape)"),
    cl::cat(category));
static cl::opt<bool> quiet("quiet", cl::desc("Do not print statistics"),
                           cl::cat(category));

static std::string listing() {
  std::string text;
  raw_string_ostream os(text);
  for (const auto &m : toast::models::listModels()) {
    os << formatv("  {0,-12}", m.name);
    if (m.family != m.name)
      os << "[" << m.family << "] ";
    os << m.summary << "\n";
  }
  return text;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  // One --<name>=<int> option per model option; deque keeps them in place.
  std::deque<cl::opt<int64_t>> intOptions;
  for (const auto &info : toast::models::listOptions())
    intOptions.emplace_back(StringRef(info.name), cl::desc(info.help),
                            cl::value_desc("n"), cl::cat(category));
  cl::HideUnrelatedOptions(category);
  std::string overview = "toast-models: the PartIR/TOAST benchmark models as "
                         "StableHLO\n\nModels and presets:\n" +
                         listing();
  cl::ParseCommandLineOptions(argc, argv, overview);

  if (listModels) {
    outs() << listing();
    return 0;
  }
  if (modelName.empty()) {
    errs() << "toast-models: no model given (try --list)\n";
    return 1;
  }

  toast::models::ModelOptions options;
  options.inference = inference;
  options.gradients = gradients;
  options.dtype = dtype;
  options.embedding = embedding;
  options.scan = scan;
  options.remat = remat;
  options.flattenLinear = flattenLinear;
  for (auto &opt : intOptions)
    if (opt.getNumOccurrences())
      options.ints[opt.ArgStr] = opt;

  mlir::MLIRContext ctx;
  ctx.loadDialect<toast::stablehlo::StableHLODialect,
                  mlir::func::FuncDialect>();
  auto start = std::chrono::steady_clock::now();
  std::string error;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      toast::models::buildModel(&ctx, modelName, options, error);
  if (!module) {
    errs() << "toast-models: " << (error.empty() ? "generation failed" : error)
           << "\n";
    return 1;
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();

  std::string message;
  auto output = mlir::openOutputFile(outputFile, &message);
  if (!output) {
    errs() << "toast-models: " << message << "\n";
    return 1;
  }
  module->print(output->os());
  output->os() << "\n";
  if (std::error_code error = toast::takeWriteError(output->os())) {
    errs() << "toast-models: cannot write '" << outputFile
           << "': " << error.message() << "\n";
    return 1;
  }
  output->keep();

  if (!quiet) {
    toast::models::ModelStats stats = toast::models::measureModel(*module);
    errs() << formatv("{0}: {1} parameters ({2:F3}B) in {3} tensors, {4} "
                      "arguments, {5} ops, generated in {6:F2}s\n",
                      modelName, stats.parameters, stats.parameters / 1e9,
                      stats.parameterTensors, stats.arguments, stats.ops,
                      seconds);
  }
  return 0;
}
