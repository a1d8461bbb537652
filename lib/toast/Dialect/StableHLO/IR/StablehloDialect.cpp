//===- StablehloDialect.cpp - StableHLO dialect --------------------------===//

#include "toast/Dialect/StableHLO/IR/StablehloDialect.h"
#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

using namespace mlir;
using namespace toast::stablehlo;

#include "toast/Dialect/StableHLO/IR/StablehloDialect.cpp.inc"

void StableHLODialect::initialize() {
  registerAttributes();
  registerOps();
}

void StableHLODialect::registerOps() {
  addOperations<
#define GET_OP_LIST
#include "toast/Dialect/StableHLO/IR/StablehloElementwiseOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "toast/Dialect/StableHLO/IR/StablehloShapeOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "toast/Dialect/StableHLO/IR/StablehloComputeOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "toast/Dialect/StableHLO/IR/StablehloControlOps.cpp.inc"
      >();
}
