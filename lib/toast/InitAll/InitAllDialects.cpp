//===- InitAllDialects.cpp - Register every Toast dialect ----------------===//

#include "toast/InitAllDialects.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
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
  // The temporal reading of PartIR:Core is written in upstream scf/tensor.
  registry.insert<mlir::arith::ArithDialect, mlir::scf::SCFDialect,
                  mlir::tensor::TensorDialect>();
  toast::registerStablehloShardingRules(registry);
  mlir::func::registerInlinerExtension(registry);
}
