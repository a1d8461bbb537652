//===- StablehloDialect.cpp - StableHLO dialect --------------------------===//

#include "toast/Dialect/StableHLO/IR/StablehloDialect.h"
#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace toast::stablehlo;

#include "toast/Dialect/StableHLO/IR/StablehloDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "toast/Dialect/StableHLO/IR/StablehloTypes.cpp.inc"

namespace {
/// StableHLO ops have value semantics and no symbol or region constraints
/// that inlining could break, so calls into StableHLO code can be inlined.
struct StablehloInlinerInterface : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void StableHLODialect::initialize() {
  registerAttributes();
  registerTypes();
  registerOps();
  addInterfaces<StablehloInlinerInterface>();
}

void StableHLODialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "toast/Dialect/StableHLO/IR/StablehloTypes.cpp.inc"
      >();
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
