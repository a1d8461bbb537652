//===- toast-opt.cpp - Toast's optimizer driver --------------------------===//
//
// MlirOptMain with Toast's dialects and passes. With
// --allow-unregistered-dialect, namespaces the input uses that toast does
// not know get opaque stand-in dialects so that their ops' custom syntax
// parses (see OpaqueDialect.h).
//
// Unlike mlir-opt, diagnostics do not print the operation they are attached
// to unless --mlir-print-op-on-diagnostic is given: Toast's errors are
// located, and a schedule error attached to the module of a 100k-op model
// would otherwise print the whole model.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "toast/Dialect/Opaque/OpaqueDialect.h"
#include "toast/InitAllDialects.h"
#include "toast/InitAllPasses.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <vector>

#include "TestPasses.h"

/// argv with --mlir-print-op-on-diagnostic=false first, unless the user
/// chose.
static std::vector<char *> quietDiagnosticArgs(int argc, char **argv) {
  static char quiet[] = "--mlir-print-op-on-diagnostic=false";
  std::vector<char *> args(argv, argv + argc);
  bool chosen = llvm::any_of(args, [](llvm::StringRef arg) {
    return arg.contains("mlir-print-op-on-diagnostic");
  });
  if (!chosen)
    args.insert(args.begin() + 1, quiet);
  args.push_back(nullptr);
  return args;
}

int main(int argc, char **argv) {
  std::vector<char *> args = quietDiagnosticArgs(argc, argv);
  argc = static_cast<int>(args.size()) - 1;
  argv = args.data();
  toast::registerAllPasses();
  toast::test::registerTestPasses();
  mlir::DialectRegistry registry;
  toast::registerAllDialects(registry);
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "Toast: SPMD partitioning of StableHLO programs\n",
      registry);
  if (mlir::MlirOptMainConfig::createFromCLOptions()
          .shouldAllowUnregisteredDialects()) {
    // A missing input is reported by MlirOptMain itself.
    std::string message;
    if (auto file = mlir::openInputFile(inputFilename, &message))
      for (const std::string &ns : toast::findUnknownDialectNamespaces(
               file->getBuffer(), registry))
        toast::registerOpaqueDialect(registry, ns);
  }
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
}
