//===- main.cpp - A host compiler linking an installed Toast -------------===//
//
// Parses a StableHLO module with Toast's dialects and runs a Toast pass,
// as a compiler that links Toast's libraries would.
//
//===----------------------------------------------------------------------===//

#include "toast/InitAllDialects.h"
#include "toast/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

static const char *kModule = R"mlir(
func.func @main(%a: tensor<4xf32>, %b: tensor<4x8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<4xf32>, tensor<4x8xf32>) -> tensor<8xf32>
  %1 = stablehlo.add %0, %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
)mlir";

int main() {
  mlir::DialectRegistry registry;
  toast::registerAllDialects(registry);
  mlir::MLIRContext ctx(registry);
  auto module = mlir::parseSourceString<mlir::ModuleOp>(kModule, &ctx);
  if (!module) {
    llvm::errs() << "consumer: parse failed\n";
    return 1;
  }
  mlir::PassManager pm(&ctx);
  pm.addPass(toast::createOpSummaryPass());
  if (mlir::failed(pm.run(*module))) {
    llvm::errs() << "consumer: pass failed\n";
    return 1;
  }
  llvm::outs() << "consumer: ok\n";
  return 0;
}
