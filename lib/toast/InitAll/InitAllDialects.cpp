//===- InitAllDialects.cpp - Register every Toast dialect ----------------===//

#include "toast/InitAllDialects.h"

#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "toast/Dialect/CHLO/IR/ChloOps.h"
#include "toast/Dialect/PartIR/Core/IR/PartIRCore.h"
#include "toast/Dialect/PartIR/HLO/IR/PartIRHLO.h"
#include "toast/Dialect/Sdy/IR/Sdy.h"
#include "toast/Dialect/StableHLO/IR/StablehloDialect.h"
#include "toast/Interfaces/StablehloShardingRules.h"

void toast::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::func::FuncDialect, toast::stablehlo::StableHLODialect,
                  toast::chlo::CHLODialect, toast::partir::PartIRDialect,
                  toast::partir_hlo::PartIRHLODialect, toast::sdy::SdyDialect>();
  toast::registerStablehloShardingRules(registry);
  mlir::func::registerInlinerExtension(registry);
}
