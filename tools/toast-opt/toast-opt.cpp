//===- toast-opt.cpp - Toast's optimizer driver --------------------------===//
//
// MlirOptMain with Toast's dialects and passes, nothing else.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "toast/InitAllDialects.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  toast::registerAllDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Toast: SPMD partitioning of StableHLO programs\n",
      registry));
}
