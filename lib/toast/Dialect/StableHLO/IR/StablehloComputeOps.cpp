//===- StablehloComputeOps.cpp - Contractions and reductions -------------===//
//
// The two printed forms of `reduce` and the verifiers of dot, convolution and
// the reductions.
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/StableHLO/IR/StablehloAssemblyFormat.h"
#include "toast/Dialect/StableHLO/IR/StablehloOps.h"
#include "toast/Dialect/StableHLO/IR/StablehloVerifiers.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace toast::stablehlo;

#define GET_OP_CLASSES
#include "toast/Dialect/StableHLO/IR/StablehloComputeOps.cpp.inc"

static auto opError(Operation *op) {
  return [op]() { return op->emitOpError(); };
}

static ShapedType shapedType(Value value) {
  return cast<ShapedType>(value.getType());
}

/// Values of an optional i64 elements attribute (empty when absent).
static SmallVector<int64_t> elementsOrEmpty(std::optional<DenseIntElementsAttr> attr) {
  if (!attr || !*attr)
    return {};
  return SmallVector<int64_t>(attr->getValues<int64_t>());
}

static ArrayRef<int64_t> arrayOrEmpty(std::optional<ArrayRef<int64_t>> attr) {
  return attr ? *attr : ArrayRef<int64_t>();
}

//===----------------------------------------------------------------------===//
// Dot, DotGeneral, Convolution
//===----------------------------------------------------------------------===//

/// precision_config has zero or two entries.
static LogicalResult verifyPrecision(Operation *op,
                                     std::optional<ArrayAttr> precision) {
  if (precision && *precision && precision->size() != 0 &&
      precision->size() != 2)
    return op->emitOpError("precision config must have 0 or 2 entries, got ")
           << precision->size();
  return success();
}

LogicalResult DotOp::verify() {
  if (failed(verifyPrecision(*this, getPrecisionConfig())))
    return failure();
  return toast::stablehlo::verifyDot(opError(*this), shapedType(getLhs()),
                                     shapedType(getRhs()),
                                     shapedType(getResult()));
}

LogicalResult DotGeneralOp::verify() {
  if (failed(verifyPrecision(*this, getPrecisionConfig())))
    return failure();
  return verifyDotGeneral(opError(*this), shapedType(getLhs()),
                          shapedType(getRhs()), getDotDimensionNumbers(),
                          shapedType(getResult()));
}

LogicalResult ConvolutionOp::verify() {
  if (failed(verifyPrecision(*this, getPrecisionConfig())))
    return failure();
  size_t numSpatial = getDimensionNumbers().getInputSpatialDimensions().size();
  SmallVector<int64_t> padding = elementsOrEmpty(getPadding());
  if (getPadding() && (getPadding()->getType().getRank() != 2 ||
                       getPadding()->getType().getDimSize(1) != 2))
    return emitOpError("padding must have shape [N, 2]");
  if (getWindowReversal() && getWindowReversal()->size() != numSpatial)
    return emitOpError("window reversal must have one entry per spatial "
                       "dimension");
  return verifyConvolution(
      opError(*this), shapedType(getLhs()), shapedType(getRhs()),
      getDimensionNumbers(), arrayOrEmpty(getWindowStrides()), padding,
      arrayOrEmpty(getLhsDilation()), arrayOrEmpty(getRhsDilation()),
      getFeatureGroupCount(), getBatchGroupCount(), shapedType(getResult()));
}

//===----------------------------------------------------------------------===//
// Reduction bodies
//===----------------------------------------------------------------------===//

/// A reduction body takes (acc_0..acc_{n-1}, x_0..x_{n-1}) as rank-0 tensors
/// of the init types and returns n values of those types.
static LogicalResult verifyReducerBody(Operation *op, Region &body,
                                       TypeRange initTypes) {
  Block &block = body.front();
  size_t n = initTypes.size();
  if (block.getNumArguments() != 2 * n)
    return op->emitOpError("body must take ")
           << 2 * n << " arguments, got " << block.getNumArguments();
  for (size_t i = 0; i < 2 * n; ++i) {
    Type expected = initTypes[i % n];
    if (block.getArgument(i).getType() != expected)
      return op->emitOpError("body argument ")
             << i << " must have type " << expected << ", got "
             << block.getArgument(i).getType();
  }
  // The op verifier runs before the block's own checks: the block may be
  // empty.
  if (!block.mightHaveTerminator() ||
      block.getTerminator()->getNumOperands() != n)
    return op->emitOpError("body must return ") << n << " values";
  Operation *terminator = block.getTerminator();
  for (auto [value, expected] :
       llvm::zip_equal(terminator->getOperandTypes(), initTypes))
    if (value != expected)
      return op->emitOpError("body must return values of types matching the "
                             "init values");
  return success();
}

static LogicalResult verifyInitValues(Operation *op, ValueRange inits) {
  for (Value init : inits)
    if (shapedType(init).getRank() != 0)
      return op->emitOpError("init values must be rank-0 tensors");
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

/// The op a compact `applies` body consists of, or null when the body needs
/// the explicit `reducer` form.
static Operation *getCompactReducer(ReduceOp op) {
  if (op.getInputs().size() != 1 || !op.getBody().hasOneBlock())
    return nullptr;
  Block &block = op.getBody().front();
  if (block.getNumArguments() != 2 || !block.mightHaveTerminator() ||
      !llvm::hasSingleElement(block.without_terminator()))
    return nullptr;
  Operation &inner = block.front();
  Operation *terminator = block.getTerminator();
  Type argType = block.getArgument(0).getType();
  if (inner.getDialect() != op->getDialect() || inner.getNumRegions() != 0 ||
      !inner.getAttrs().empty() || inner.getNumOperands() != 2 ||
      inner.getNumResults() != 1 ||
      inner.getOperand(0) != block.getArgument(0) ||
      inner.getOperand(1) != block.getArgument(1) ||
      inner.getResult(0).getType() != argType ||
      block.getArgument(1).getType() != argType ||
      argType != op.getInitValues().front().getType() ||
      !isa<ReturnOp>(terminator) || terminator->getNumOperands() != 1 ||
      terminator->getOperand(0) != inner.getResult(0))
    return nullptr;
  return &inner;
}

ParseResult ReduceOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> inputs, inits;
  if (parser.parseCommaSeparatedList([&]() -> ParseResult {
        OpAsmParser::UnresolvedOperand input, init;
        if (parser.parseLParen() || parser.parseOperand(input) ||
            parser.parseKeyword("init") || parser.parseColon() ||
            parser.parseOperand(init) || parser.parseRParen())
          return failure();
        inputs.push_back(input);
        inits.push_back(init);
        return success();
      }))
    return failure();

  std::optional<OperationName> compactOp;
  SMLoc appliesLoc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("applies"))) {
    FailureOr<OperationName> name = parser.parseCustomOperationName();
    if (failed(name))
      return failure();
    compactOp = *name;
  }
  SmallVector<int64_t> dims;
  if (parser.parseKeyword("across") || parser.parseKeyword("dimensions") ||
      parser.parseEqual() || parseDimList(parser, dims) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  result.getOrAddProperties<Properties>().dimensions =
      parser.getBuilder().getDenseI64ArrayAttr(dims);

  SMLoc typeLoc = parser.getCurrentLocation();
  FunctionType fnType;
  if (parser.parseColonType(fnType))
    return failure();
  size_t n = inputs.size();
  if (fnType.getNumInputs() != 2 * n)
    return parser.emitError(typeLoc, "expected ")
           << 2 * n << " operand types, got " << fnType.getNumInputs();
  SmallVector<OpAsmParser::UnresolvedOperand> operands(inputs);
  operands.append(inits);
  if (parser.resolveOperands(operands, fnType.getInputs(), typeLoc,
                             result.operands))
    return failure();
  result.addTypes(fnType.getResults());

  Region *body = result.addRegion();
  if (compactOp) {
    // Rebuild the single-op body: (acc, x) -> op(acc, x).
    Type scalar = fnType.getInput(n);
    Location loc = result.location;
    Block *block = new Block();
    body->push_back(block);
    block->addArguments({scalar, scalar}, {loc, loc});
    // The region has no parent op yet, so the builder takes the context
    // from the parser rather than from the block.
    OpBuilder builder(parser.getContext());
    builder.setInsertionPointToStart(block);
    OperationState state(loc, *compactOp);
    state.addOperands(block->getArguments());
    state.addTypes(scalar);
    Operation *inner = builder.create(state);
    if (!inner)
      return parser.emitError(appliesLoc, "cannot build the reducer op");
    ReturnOp::create(builder, loc, inner->getResults());
    return success();
  }

  // reducer(%lhs0: T, %rhs0: T) (%lhs1: U, %rhs1: U) { ... }
  if (parser.parseKeyword("reducer"))
    return failure();
  SmallVector<OpAsmParser::Argument> lhs, rhs;
  for (size_t i = 0; i < n; ++i) {
    OpAsmParser::Argument a, b;
    if (parser.parseLParen() || parser.parseArgument(a, /*allowType=*/true) ||
        parser.parseComma() || parser.parseArgument(b, /*allowType=*/true) ||
        parser.parseRParen())
      return failure();
    lhs.push_back(a);
    rhs.push_back(b);
  }
  SmallVector<OpAsmParser::Argument> args(lhs);
  args.append(rhs);
  return parser.parseRegion(*body, args);
}

void ReduceOp::print(OpAsmPrinter &printer) {
  printer << '(';
  llvm::interleave(
      llvm::zip_equal(getInputs(), getInitValues()), printer,
      [&](auto pair) {
        printer << std::get<0>(pair) << " init: " << std::get<1>(pair);
      },
      "), (");
  printer << ')';
  Operation *compact = getCompactReducer(*this);
  if (compact)
    printer << " applies " << compact->getName();
  printer << " across dimensions = ";
  printDimList(printer, getDimensions());
  printer.printOptionalAttrDict((*this)->getAttrs(), {"dimensions"});
  printer << " : ";
  printer.printFunctionalType(*this);
  if (compact)
    return;
  printer.printNewline();
  printer << " reducer";
  Block &block = getBody().front();
  size_t n = getInputs().size();
  for (size_t i = 0; i < n && 2 * n <= block.getNumArguments(); ++i) {
    printer << '(';
    printer.printRegionArgument(block.getArgument(i));
    printer << ", ";
    printer.printRegionArgument(block.getArgument(i + n));
    printer << ") ";
  }
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult ReduceOp::verify() {
  if (getInputs().empty())
    return emitOpError("expects at least one input");
  if (failed(verifyInitValues(*this, getInitValues())))
    return failure();
  if (getNumResults() != getInputs().size())
    return emitOpError("expects one result per input");
  ShapedType first = shapedType(getInputs().front());
  for (Value input : getInputs())
    if (shapedType(input).getShape() != first.getShape())
      return emitOpError("all inputs must have the same shape");
  for (auto [input, result] : llvm::zip_equal(getInputs(), getResults()))
    if (failed(verifyReduceDims(opError(*this), shapedType(input),
                                getDimensions(),
                                cast<ShapedType>(result.getType()))))
      return failure();
  return verifyReducerBody(*this, getBody(), getInitValues().getTypes());
}

//===----------------------------------------------------------------------===//
// ReduceWindowOp, SelectAndScatterOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceWindowOp::verify() {
  if (getInputs().empty())
    return emitOpError("expects at least one input");
  if (failed(verifyInitValues(*this, getInitValues())))
    return failure();
  if (getNumResults() != getInputs().size())
    return emitOpError("expects one result per input");
  SmallVector<int64_t> shape;
  if (failed(verifyWindow(opError(*this), shapedType(getInputs().front()),
                          getWindowDimensions(),
                          arrayOrEmpty(getWindowStrides()),
                          elementsOrEmpty(getPadding()),
                          arrayOrEmpty(getBaseDilations()),
                          arrayOrEmpty(getWindowDilations()), shape)))
    return failure();
  for (Value result : getResults())
    if (shapedType(result).getShape() != ArrayRef<int64_t>(shape))
      return emitOpError("result shape does not match the windowed input "
                         "shape");
  return verifyReducerBody(*this, getBody(), getInitValues().getTypes());
}

LogicalResult SelectAndScatterOp::verify() {
  ShapedType operand = shapedType(getOperand());
  if (getResult().getType() != getOperand().getType())
    return emitOpError("result type must equal the operand type");
  SmallVector<int64_t> shape;
  if (failed(verifyWindow(opError(*this), operand,
                          arrayOrEmpty(getWindowDimensions()),
                          arrayOrEmpty(getWindowStrides()),
                          elementsOrEmpty(getPadding()), {}, {}, shape)))
    return failure();
  if (shapedType(getSource()).getShape() != ArrayRef<int64_t>(shape))
    return emitOpError("source shape must be the windowed operand shape");
  if (getSelect().front().getNumArguments() != 2 ||
      getScatter().front().getNumArguments() != 2)
    return emitOpError("select and scatter regions take two arguments");
  return success();
}

LogicalResult TriangularSolveOp::verify() {
  ShapedType a = shapedType(getA()), b = shapedType(getB());
  if (a.getRank() < 2 || a.getRank() != b.getRank())
    return emitOpError("a and b must have the same rank, at least 2");
  int64_t rank = a.getRank();
  if (!a.isDynamicDim(rank - 1) && !a.isDynamicDim(rank - 2) &&
      a.getDimSize(rank - 1) != a.getDimSize(rank - 2))
    return emitOpError("a must be square in its two minor dimensions");
  if (getTransposeA() == Transpose::TRANSPOSE_INVALID)
    return emitOpError("transpose_a must not be TRANSPOSE_INVALID");
  if (getResult().getType() != getB().getType())
    return emitOpError("result type must equal the type of b");
  return success();
}

//===----------------------------------------------------------------------===//
// RngOp
//===----------------------------------------------------------------------===//

LogicalResult RngOp::verify() {
  Type element = getElementTypeOrSelf(getType());
  if (getElementTypeOrSelf(getA().getType()) != element ||
      getElementTypeOrSelf(getB().getType()) != element)
    return emitOpError("a, b and the result must have one element type");
  if (!isa<IntegerType, FloatType>(element))
    return emitOpError("expects integer, boolean or floating-point "
                       "elements, got ")
           << element;
  if (getRngDistribution() == RngDistribution::NORMAL &&
      !isa<FloatType>(element))
    return emitOpError("NORMAL needs floating-point elements, got ") << element;
  ShapedType result = shapedType(getResult());
  int64_t shapeSize = shapedType(getShape()).getDimSize(0);
  if (!ShapedType::isDynamic(shapeSize) && shapeSize != result.getRank())
    return emitOpError("shape has ")
           << shapeSize << " entries but the result has rank "
           << result.getRank();
  DenseIntElementsAttr shape;
  if (!matchPattern(getShape(), m_Constant(&shape)))
    return success();
  // The shape may have any integer element type.
  SmallVector<int64_t> sizes =
      llvm::map_to_vector(shape.getValues<APInt>(),
                          [](const APInt &v) { return v.getSExtValue(); });
  for (auto [d, size] : llvm::enumerate(sizes))
    if (!result.isDynamicDim(d) && size != result.getDimSize(d)) {
      InFlightDiagnostic diag = emitOpError("shape [");
      llvm::interleaveComma(sizes, diag);
      return diag << "] differs from the result type " << getType();
    }
  return success();
}

//===----------------------------------------------------------------------===//
// Batch normalization
//===----------------------------------------------------------------------===//

/// `values` have the operand's type (outputs and gradients of batch norms).
static LogicalResult verifyOperandTyped(Operation *op, Value operand,
                                        ArrayRef<StringRef> names,
                                        ValueRange values) {
  for (auto [name, value] : llvm::zip_equal(names, values))
    if (value.getType() != operand.getType())
      return op->emitOpError()
             << name << " must have the operand type " << operand.getType()
             << ", got " << value.getType();
  return success();
}

LogicalResult BatchNormInferenceOp::verify() {
  if (failed(verifyOperandTyped(*this, getOperand(), {"result"}, getResult())))
    return failure();
  return verifyBatchNorm(
      opError(*this), shapedType(getOperand()), getFeatureIndexAttr().getInt(),
      {"scale", "offset", "mean", "variance"},
      TypeRange{getScale().getType(), getOffset().getType(),
                getMean().getType(), getVariance().getType()});
}

LogicalResult BatchNormTrainingOp::verify() {
  if (failed(verifyOperandTyped(*this, getOperand(), {"output"}, getOutput())))
    return failure();
  return verifyBatchNorm(
      opError(*this), shapedType(getOperand()), getFeatureIndexAttr().getInt(),
      {"scale", "offset", "batch_mean", "batch_var"},
      TypeRange{getScale().getType(), getOffset().getType(),
                getBatchMean().getType(), getBatchVar().getType()});
}

LogicalResult BatchNormGradOp::verify() {
  if (failed(verifyOperandTyped(*this, getOperand(),
                                {"grad_output", "grad_operand"},
                                {getGradOutput(), getGradOperand()})))
    return failure();
  return verifyBatchNorm(
      opError(*this), shapedType(getOperand()), getFeatureIndexAttr().getInt(),
      {"scale", "mean", "variance", "grad_scale", "grad_offset"},
      TypeRange{getScale().getType(), getMean().getType(),
                getVariance().getType(), getGradScale().getType(),
                getGradOffset().getType()});
}

//===----------------------------------------------------------------------===//
// Einsum
//===----------------------------------------------------------------------===//

LogicalResult EinsumOp::verify() {
  return analyzeEinsum(opError(*this), getEinsumConfig(),
                       TypeRange{getLhs().getType(), getRhs().getType()},
                       shapedType(getResult()));
}

LogicalResult UnaryEinsumOp::verify() {
  return analyzeEinsum(opError(*this), getEinsumConfig(),
                       getOperand().getType(), shapedType(getResult()));
}
