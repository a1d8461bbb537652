//===- StablehloShapeOps.cpp - Data movement ops -------------------------===//
//
// Constants, iota and the data-movement ops: syntax of `constant` and the
// verifiers, which delegate the shape rules to StablehloVerifiers.h.
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/StableHLO/IR/StablehloAssemblyFormat.h"
#include "toast/Dialect/StableHLO/IR/StablehloOps.h"
#include "toast/Dialect/StableHLO/IR/StablehloVerifiers.h"

using namespace mlir;
using namespace toast::stablehlo;

#define GET_OP_CLASSES
#include "toast/Dialect/StableHLO/IR/StablehloShapeOps.cpp.inc"

/// Adapts `op->emitOpError()` to the verifiers' callback type.
static auto opError(Operation *op) {
  return [op]() { return op->emitOpError(); };
}

static ShapedType shapedType(Value value) {
  return cast<ShapedType>(value.getType());
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

ParseResult ConstantOp::parse(OpAsmParser &parser, OperationState &result) {
  // Generic-looking `stablehlo.constant() <{value = ...}> : () -> T` is not
  // valid pretty syntax; the generic form itself goes through the generic
  // parser.
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  SMLoc loc = parser.getCurrentLocation();
  Attribute value;
  if (parser.parseAttribute(value))
    return failure();
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements)
    return parser.emitError(loc, "expected a tensor constant, got ") << value;
  result.getOrAddProperties<Properties>().value = elements;
  result.addTypes(elements.getType());
  return success();
}

void ConstantOp::print(OpAsmPrinter &printer) {
  printer.printOptionalAttrDict((*this)->getAttrs(), {"value"});
  printer << ' ';
  printer.printAttribute(getValue());
}

LogicalResult ConstantOp::verify() {
  if (getValue().getType() != getType())
    return emitOpError("value type ")
           << getValue().getType() << " differs from result type "
           << getType();
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

void ConstantOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  // JAX's names: %cst for floating-point constants, %c for integers.
  Type elem = getElementTypeOrSelf(getType());
  setNameFn(getResult(), isa<FloatType, ComplexType>(elem) ? "cst" : "c");
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

LogicalResult IotaOp::verify() {
  int64_t rank = shapedType(getOutput()).getRank();
  if (rank == 0)
    return emitOpError("result must have rank at least 1");
  // The I64Attr getter is unsigned; read the value signed.
  int64_t dim = getIotaDimensionAttr().getInt();
  if (dim < 0 || dim >= rank)
    return emitOpError("iota dimension ")
           << dim << " is out of range [0, " << rank << ")";
  return success();
}

LogicalResult BroadcastInDimOp::verify() {
  return verifyBroadcastInDim(opError(*this), shapedType(getOperand()),
                              getBroadcastDimensions(), shapedType(getResult()));
}

LogicalResult TransposeOp::verify() {
  return verifyTranspose(opError(*this), shapedType(getOperand()),
                         getPermutation(), shapedType(getResult()));
}

LogicalResult ReshapeOp::verify() {
  if (getElementTypeOrSelf(getOperand().getType()) !=
      getElementTypeOrSelf(getType()))
    return emitOpError("reshape must keep the element type");
  // StableHLO's reshape has a static result; dynamic_reshape is another op.
  if (!shapedType(getResult()).hasStaticShape())
    return emitOpError("result must have a static shape, got ") << getType();
  return verifyReshape(opError(*this), shapedType(getOperand()),
                       shapedType(getResult()));
}

LogicalResult ConcatenateOp::verify() {
  return verifyConcatenate(opError(*this), getInputs().getTypes(),
                           getDimension(), shapedType(getResult()));
}

LogicalResult SliceOp::verify() {
  return verifySlice(opError(*this), shapedType(getOperand()),
                     getStartIndices(), getLimitIndices(), getStrides(),
                     shapedType(getResult()));
}

LogicalResult DynamicSliceOp::verify() {
  ShapedType operand = shapedType(getOperand());
  if (static_cast<int64_t>(getStartIndices().size()) != operand.getRank())
    return emitOpError("expects one start index per operand dimension (")
           << operand.getRank() << "), got " << getStartIndices().size();
  ArrayRef<int64_t> sizes = getSliceSizes();
  if (static_cast<int64_t>(sizes.size()) != operand.getRank())
    return emitOpError("slice_sizes must have one entry per operand "
                       "dimension");
  for (auto [d, size] : llvm::enumerate(sizes))
    if (size < 0 ||
        (!operand.isDynamicDim(d) && size > operand.getDimSize(d)))
      return emitOpError("slice size ")
             << size << " is out of bounds for dimension " << d;
  ShapedType result = shapedType(getResult());
  if (result.getShape() != sizes)
    return emitOpError("result shape must equal slice_sizes");
  if (result.getElementType() != operand.getElementType())
    return emitOpError("result must have the operand's element type");
  return success();
}

LogicalResult DynamicUpdateSliceOp::verify() {
  ShapedType operand = shapedType(getOperand());
  ShapedType update = shapedType(getUpdate());
  if (getOperand().getType() != getType())
    return emitOpError("result type must equal the operand type");
  if (update.getRank() != operand.getRank())
    return emitOpError("update must have the operand's rank");
  if (update.getElementType() != operand.getElementType())
    return emitOpError("update must have the operand's element type");
  if (static_cast<int64_t>(getStartIndices().size()) != operand.getRank())
    return emitOpError("expects one start index per operand dimension");
  for (int64_t d = 0; d < operand.getRank(); ++d)
    if (!operand.isDynamicDim(d) && !update.isDynamicDim(d) &&
        update.getDimSize(d) > operand.getDimSize(d))
      return emitOpError("update is larger than the operand in dimension ")
             << d;
  return success();
}

LogicalResult PadOp::verify() {
  return verifyPad(opError(*this), shapedType(getOperand()),
                   shapedType(getPaddingValue()), getEdgePaddingLow(),
                   getEdgePaddingHigh(), getInteriorPadding(),
                   shapedType(getResult()));
}

LogicalResult ReverseOp::verify() {
  return verifyDimList(opError(*this), "reversed dimension", getDimensions(),
                       shapedType(getOperand()).getRank());
}

LogicalResult GatherOp::verify() {
  if (getElementTypeOrSelf(getOperand().getType()) !=
      getElementTypeOrSelf(getType()))
    return emitOpError("result must have the operand's element type");
  return verifyGather(opError(*this), shapedType(getOperand()),
                      shapedType(getStartIndices()), getDimensionNumbers(),
                      getSliceSizes(), shapedType(getResult()));
}

/// The region takes 2*N scalar tensors and returns N values.
static LogicalResult verifyScalarPairRegion(Operation *op, Region &region,
                                            ValueRange inputs,
                                            StringRef regionName) {
  Block &block = region.front();
  size_t n = inputs.size();
  if (block.getNumArguments() != 2 * n)
    return op->emitOpError() << regionName << " must take " << 2 * n
                             << " arguments, got " << block.getNumArguments();
  for (BlockArgument arg : block.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || type.getRank() != 0)
      return op->emitOpError()
             << regionName << " arguments must be rank-0 tensors, got "
             << arg.getType();
  }
  return success();
}

LogicalResult ScatterOp::verify() {
  if (getInputs().empty())
    return emitOpError("expects at least one input");
  if (getNumResults() != getInputs().size())
    return emitOpError("expects one result per input");
  for (auto [input, result] : llvm::zip_equal(getInputs(), getResults()))
    if (input.getType() != result.getType())
      return emitOpError("result types must equal the input types");
  if (failed(verifyScatter(opError(*this), shapedType(getInputs().front()),
                           shapedType(getScatterIndices()),
                           shapedType(getUpdates().front()),
                           getScatterDimensionNumbers())))
    return failure();
  return verifyScalarPairRegion(*this, getUpdateComputation(), getInputs(),
                                "update_computation");
}

LogicalResult SortOp::verify() {
  if (getInputs().empty())
    return emitOpError("expects at least one input");
  int64_t rank = shapedType(getInputs().front()).getRank();
  int64_t dim = getDimension();
  if (dim < -rank || dim >= std::max<int64_t>(rank, 1))
    return emitOpError("dimension ")
           << dim << " is out of range for rank " << rank;
  if (getNumResults() != getInputs().size())
    return emitOpError("expects one result per input");
  for (auto [input, result] : llvm::zip_equal(getInputs(), getResults()))
    if (input.getType() != result.getType())
      return emitOpError("result types must equal the input types");
  if (failed(verifyScalarPairRegion(*this, getComparator(), getInputs(),
                                    "comparator")))
    return failure();
  // Arguments 2i and 2i+1 are two elements of input i.
  Block &block = getComparator().front();
  for (auto [i, arg] : llvm::enumerate(block.getArguments())) {
    Type expected = getElementTypeOrSelf(getInputs()[i / 2].getType());
    if (getElementTypeOrSelf(arg.getType()) != expected)
      return emitOpError("comparator argument ")
             << i << " must have element type " << expected << ", got "
             << arg.getType();
  }
  auto i1 = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (!block.mightHaveTerminator() ||
      TypeRange(block.getTerminator()->getOperandTypes()) != TypeRange(i1))
    return emitOpError("comparator must return a single tensor<i1>");
  return success();
}

LogicalResult BroadcastOp::verify() {
  return verifyBroadcast(opError(*this), shapedType(getOperand()),
                         getBroadcastSizes(), shapedType(getResult()));
}

LogicalResult GetDimensionSizeOp::verify() {
  // The I64Attr getter is unsigned; read the value signed.
  int64_t dim = getDimensionAttr().getInt();
  return verifyDimList(opError(*this), "dimension", dim,
                       shapedType(getOperand()).getRank());
}

LogicalResult TorchIndexSelectOp::verify() {
  if (getElementTypeOrSelf(getOperand().getType()) !=
      getElementTypeOrSelf(getType()))
    return emitOpError("result must have the operand's element type");
  return verifyTorchIndexSelect(opError(*this), shapedType(getOperand()),
                                shapedType(getIndex()), getDimAttr().getInt(),
                                getBatchDimsAttr().getInt(),
                                shapedType(getResult()));
}

//===----------------------------------------------------------------------===//
// Tuples
//===----------------------------------------------------------------------===//

LogicalResult TupleOp::verify() {
  auto expected = TupleType::get(getContext(), getVal().getTypes());
  if (getType() != expected)
    return emitOpError("result type must be ")
           << expected << " (the operand types), got " << getType();
  return success();
}

LogicalResult GetTupleElementOp::verify() {
  auto tuple = cast<TupleType>(getOperand().getType());
  // The I32Attr getter is unsigned; read the value signed.
  int64_t index = getIndexAttr().getInt();
  int64_t size = tuple.size();
  if (index < 0 || index >= size)
    return emitOpError("index ")
           << index << " is out of range [0, " << size << ")";
  if (getType() != tuple.getType(index))
    return emitOpError("result type must be ")
           << tuple.getType(index) << " (element " << index
           << " of the tuple), got " << getType();
  return success();
}
