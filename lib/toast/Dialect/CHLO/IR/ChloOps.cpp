//===- ChloOps.cpp - CHLO dialect ----------------------------------------===//

#include "toast/Dialect/CHLO/IR/ChloOps.h"

#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace toast::chlo;

#include "toast/Dialect/CHLO/IR/ChloOpsDialect.cpp.inc"

namespace {
/// CHLO ops are pure elementwise functions: always legal to inline.
struct ChloInlinerInterface : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void CHLODialect::initialize() {
  addInterfaces<ChloInlinerInterface>();
  addOperations<
#define GET_OP_LIST
#include "toast/Dialect/CHLO/IR/ChloOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "toast/Dialect/CHLO/IR/ChloOps.cpp.inc"

LogicalResult TopKOp::verify() {
  auto operand = cast<RankedTensorType>(getOperand().getType());
  auto values = cast<RankedTensorType>(getValues().getType());
  auto indices = cast<RankedTensorType>(getIndices().getType());
  if (operand.getRank() < 1)
    return emitOpError("operand must have rank at least 1");
  int64_t last = operand.getDimSize(operand.getRank() - 1);
  int64_t k = getK();
  if (k < 0 || (!ShapedType::isDynamic(last) && k > last))
    return emitOpError("k = ") << k << " must be in [0, " << last << "]";
  SmallVector<int64_t> shape(operand.getShape());
  shape.back() = k;
  if (values.getShape() != ArrayRef<int64_t>(shape) ||
      indices.getShape() != ArrayRef<int64_t>(shape))
    return emitOpError("values and indices must have shape [..., k]");
  if (values.getElementType() != operand.getElementType())
    return emitOpError("values must have the operand's element type");
  if (!indices.getElementType().isSignlessInteger(32))
    return emitOpError("indices must be i32");
  return success();
}
