//===- StablehloElementwiseOps.cpp - Elementwise op verifiers ------------===//

#include "toast/Dialect/StableHLO/IR/StablehloAssemblyFormat.h"
#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

using namespace mlir;
using namespace toast::stablehlo;

#define GET_OP_CLASSES
#include "toast/Dialect/StableHLO/IR/StablehloElementwiseOps.cpp.inc"

/// Bit width of an element type; complex counts both parts. Zero for types
/// without a bit width (index, none, ...).
static int64_t bitWidth(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type))
    return 2 * bitWidth(complex.getElementType());
  return type.isIntOrFloat() ? type.getIntOrFloatBitWidth() : 0;
}

LogicalResult BitcastConvertOp::verify() {
  auto in = cast<RankedTensorType>(getOperand().getType());
  auto out = cast<RankedTensorType>(getType());
  int64_t inBits = bitWidth(in.getElementType());
  int64_t outBits = bitWidth(out.getElementType());
  if (inBits == 0 || outBits == 0)
    return emitOpError("operand and result must have integer, float or "
                       "complex element types");
  ArrayRef<int64_t> inShape = in.getShape(), outShape = out.getShape();
  if (inBits == outBits) {
    if (inShape != outShape)
      return emitOpError("same-width bitcast must keep the shape");
    return success();
  }
  // A narrower result adds a minor dimension, a wider one removes it.
  ArrayRef<int64_t> longer = inBits > outBits ? outShape : inShape;
  ArrayRef<int64_t> shorter = inBits > outBits ? inShape : outShape;
  int64_t ratio = std::max(inBits, outBits) / std::min(inBits, outBits);
  if (longer.size() != shorter.size() + 1 ||
      longer.drop_back() != shorter || longer.back() != ratio)
    return emitOpError("bitcast from ")
           << in << " to " << out
           << " must add or remove a minor dimension of size " << ratio;
  return success();
}

LogicalResult ReducePrecisionOp::verify() {
  // The I32Attr getters are unsigned; read the values signed.
  if (getExponentBitsAttr().getInt() < 1)
    return emitOpError("exponent_bits must be at least 1");
  if (getMantissaBitsAttr().getInt() < 0)
    return emitOpError("mantissa_bits must be non-negative");
  return success();
}

LogicalResult ComplexOp::verify() {
  auto result = cast<RankedTensorType>(getType());
  auto complex = dyn_cast<ComplexType>(result.getElementType());
  if (!complex)
    return emitOpError("result must have a complex element type");
  if (getElementTypeOrSelf(getLhs().getType()) != complex.getElementType() ||
      getElementTypeOrSelf(getRhs().getType()) != complex.getElementType())
    return emitOpError("operand element types must be ")
           << complex.getElementType();
  return success();
}

/// `bound` is a scalar or has the shape of `operand`.
static LogicalResult verifyScalarOrSameShape(Operation *op, StringRef name,
                                             Type bound, Type operand) {
  auto b = cast<RankedTensorType>(bound);
  auto o = cast<RankedTensorType>(operand);
  if (b.getRank() != 0 && b.getShape() != o.getShape())
    return op->emitOpError() << name << " must be a scalar or have shape "
                             << o;
  return success();
}

LogicalResult ClampOp::verify() {
  Type elem = getElementTypeOrSelf(getOperand().getType());
  if (getElementTypeOrSelf(getMin().getType()) != elem ||
      getElementTypeOrSelf(getMax().getType()) != elem ||
      getElementTypeOrSelf(getType()) != elem)
    return emitOpError("min, operand, max and result must have the same "
                       "element type");
  if (getOperand().getType() != getType())
    return emitOpError("result type must equal the operand type");
  if (failed(verifyScalarOrSameShape(*this, "min", getMin().getType(),
                                     getOperand().getType())))
    return failure();
  return verifyScalarOrSameShape(*this, "max", getMax().getType(),
                                 getOperand().getType());
}

LogicalResult SelectOp::verify() {
  if (getOnTrue().getType() != getOnFalse().getType() ||
      getOnTrue().getType() != getType())
    return emitOpError("on_true, on_false and result must have the same type");
  return verifyScalarOrSameShape(*this, "pred", getPred().getType(),
                                 getOnTrue().getType());
}

LogicalResult CompareOp::verify() {
  if (getElementTypeOrSelf(getLhs().getType()) !=
      getElementTypeOrSelf(getRhs().getType()))
    return emitOpError("lhs and rhs must have the same element type");
  return success();
}
