//===- toast-opt.cpp - Toast's optimizer driver --------------------------===//
//
// MlirOptMain with Toast's dialects and passes. With
// --allow-unregistered-dialect, namespaces the input uses that toast does
// not know get opaque stand-in dialects so that their ops' custom syntax
// parses (see OpaqueDialect.h).
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "toast/Dialect/Opaque/OpaqueDialect.h"
#include "toast/InitAllDialects.h"
#include "toast/InitAllPasses.h"
#include "llvm/Support/MemoryBuffer.h"

#include "TestPasses.h"

int main(int argc, char **argv) {
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
