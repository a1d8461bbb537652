//===- PartIRCore.cpp - PartIR:Core dialect ------------------------------===//
//
// Syntax and verifiers of the mesh, loops, slices and tags.
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/PartIR/Core/IR/PartIRCore.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace toast::partir;

#include "toast/Dialect/PartIR/Core/IR/PartIRCoreDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "toast/Dialect/PartIR/Core/IR/PartIRCoreTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "toast/Dialect/PartIR/Core/IR/PartIRCoreAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "toast/Dialect/PartIR/Core/IR/PartIRCoreOps.cpp.inc"

void PartIRDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "toast/Dialect/PartIR/Core/IR/PartIRCoreOps.cpp.inc"
      >();
}

void PartIRDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "toast/Dialect/PartIR/Core/IR/PartIRCoreAttrs.cpp.inc"
      >();
}

void PartIRDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "toast/Dialect/PartIR/Core/IR/PartIRCoreTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// MeshAttr
//===----------------------------------------------------------------------===//

Attribute MeshAttr::parse(AsmParser &parser, Type) {
  SmallVector<StringAttr> names;
  SmallVector<int64_t> sizes;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square,
          [&]() -> ParseResult {
            std::string name;
            int64_t size;
            if (parser.parseString(&name) || parser.parseEqual() ||
                parser.parseInteger(size))
              return failure();
            names.push_back(StringAttr::get(parser.getContext(), name));
            sizes.push_back(size);
            return success();
          }) ||
      parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    names, sizes);
}

void MeshAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(llvm::zip_equal(getNames(), getSizes()), printer,
                        [&](auto axis) {
                          printer.printString(std::get<0>(axis).getValue());
                          printer << "=" << std::get<1>(axis);
                        });
  printer << "]>";
}

LogicalResult MeshAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<StringAttr> names,
                               ArrayRef<int64_t> sizes) {
  if (names.size() != sizes.size())
    return emitError() << "mesh needs one size per axis";
  llvm::SmallSet<StringRef, 4> seen;
  for (auto [name, size] : llvm::zip_equal(names, sizes)) {
    if (name.getValue().empty())
      return emitError() << "mesh axis names must not be empty";
    if (!seen.insert(name.getValue()).second)
      return emitError() << "mesh axis \"" << name.getValue()
                         << "\" appears twice";
    if (size < 1)
      return emitError() << "mesh axis \"" << name.getValue()
                         << "\" must have a positive size, got " << size;
  }
  // Device counts are products of the sizes (getNumDevices): they must not
  // overflow, and no mesh has more devices than this.
  constexpr int64_t kMaxDevices = int64_t(1) << 31;
  int64_t devices = 1;
  for (int64_t size : sizes) {
    if (size > kMaxDevices / devices)
      return emitError() << "mesh has more than " << kMaxDevices
                         << " devices (the product of its axis sizes)";
    devices *= size;
  }
  return success();
}

LogicalResult RangeType::verify(function_ref<InFlightDiagnostic()> emitError,
                                int64_t size) {
  // The range of a loop over a mesh axis, whose sizes are positive.
  if (size < 1)
    return emitError() << "!partir.range size must be positive, got " << size;
  return success();
}

std::optional<int64_t> MeshAttr::getAxisSize(StringRef axis) const {
  for (auto [name, size] : llvm::zip_equal(getNames(), getSizes()))
    if (name.getValue() == axis)
      return size;
  return std::nullopt;
}

int64_t MeshAttr::getNumDevices() const {
  int64_t n = 1;
  for (int64_t size : getSizes())
    n *= size;
  return n;
}

MeshAttr toast::partir::getMesh(Operation *op) {
  for (Operation *cur = op; cur; cur = cur->getParentOp())
    if (auto mesh = cur->getAttrOfType<MeshAttr>(PartIRDialect::kMeshAttrName))
      return mesh;
  return {};
}

//===----------------------------------------------------------------------===//
// LoopOp
//===----------------------------------------------------------------------===//

ParseResult LoopOp::parse(OpAsmParser &parser, OperationState &result) {
  std::string axis;
  ArrayAttr actions;
  OpAsmParser::Argument range;
  if (parser.parseString(&axis) || parser.parseAttribute(actions) ||
      parser.parseLParen() || parser.parseArgument(range, /*allowType=*/true) ||
      parser.parseRParen())
    return failure();
  result.addAttribute("axis", parser.getBuilder().getStringAttr(axis));
  result.addAttribute("actions", actions);
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, range) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  SmallVector<Type> types;
  if (succeeded(parser.parseOptionalColon()) && parser.parseTypeList(types))
    return failure();
  result.addTypes(types);
  return success();
}

void LoopOp::print(OpAsmPrinter &printer) {
  printer << " \"" << getAxis() << "\" " << getActions() << " (";
  if (!getBody().empty() && getBody().getNumArguments() == 1)
    printer.printRegionArgument(getRange());
  printer << ") ";
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false);
  printer.printOptionalAttrDict((*this)->getAttrs(), {"axis", "actions"});
  if (getNumResults() != 0) {
    printer << " : ";
    llvm::interleaveComma(getResultTypes(), printer);
  }
}

YieldOp LoopOp::getYield() {
  return dyn_cast<YieldOp>(getBody().front().getTerminator());
}

/// Checks that `yielded` combines into `result` under `action` over an axis
/// of size n.
static LogicalResult verifyAction(LoopOp op, unsigned index, Attribute action,
                                  Type yielded, Type result, int64_t n) {
  if (auto tile = dyn_cast<TileAttr>(action)) {
    auto in = dyn_cast<RankedTensorType>(yielded);
    auto out = dyn_cast<RankedTensorType>(result);
    if (!in || !out || in.getRank() != out.getRank() ||
        in.getElementType() != out.getElementType())
      return op.emitOpError("result ")
             << index << ": #partir.tile needs ranked tensors of the same "
             << "rank and element type, got " << yielded << " and " << result;
    int64_t d = tile.getDim();
    if (d < 0 || d >= out.getRank())
      return op.emitOpError("result ")
             << index << ": tile dimension " << d << " is out of range";
    // Tiling cuts a known size into n chunks; a dynamic size has none to
    // cut (and multiplying the dynamic marker would overflow).
    if (in.isDynamicDim(d) || out.isDynamicDim(d))
      return op.emitOpError("result ")
             << index << ": tile dimension " << d << " must be static, got "
             << yielded << " and " << result;
    // Padded tiles (docs/dialects.md): each tile holds ceil(size / n) rows,
    // and the concatenation drops the padding past the result's size.
    for (int64_t i = 0; i < out.getRank(); ++i) {
      int64_t expected =
          i == d ? chunkSize(out.getDimSize(i), n) : out.getDimSize(i);
      if (in.getDimSize(i) != expected)
        return op.emitOpError("result ")
               << index << ": yielded " << yielded << " tiled " << n
               << " times along dimension " << d << " does not give " << result;
    }
    return success();
  }
  if (!isa<SumAttr, AnyAttr>(action))
    return op.emitOpError("action ")
           << index << " must be #partir.tile<d>, #partir.sum or #partir.any, "
           << "got " << action;
  if (yielded != result)
    return op.emitOpError("result ")
           << index << ": yielded type " << yielded
           << " must equal the result type " << result;
  return success();
}

LogicalResult LoopOp::verify() {
  MeshAttr mesh = getMesh(*this);
  if (!mesh)
    return emitOpError("needs a mesh: add `partir.mesh = #partir.mesh<...>` "
                       "to the enclosing module");
  std::optional<int64_t> size = mesh.getAxisSize(getAxis());
  if (!size)
    return emitOpError("axis \"")
           << getAxis() << "\" is not in the mesh " << mesh;
  for (auto parent = (*this)->getParentOfType<LoopOp>(); parent;
       parent = parent->getParentOfType<LoopOp>())
    if (parent.getAxis() == getAxis())
      return emitOpError("is nested in another loop over axis \"")
             << getAxis() << "\"";
  Block &block = getBody().front();
  auto rangeType = block.getNumArguments() == 1
                       ? dyn_cast<RangeType>(block.getArgument(0).getType())
                       : RangeType();
  if (!rangeType || rangeType.getSize() != *size)
    return emitOpError("body must take one !partir.range<")
           << *size << "> argument (the size of axis \"" << getAxis() << "\")";
  YieldOp yield = getYield();
  if (!yield)
    return emitOpError("body must end with partir.yield");
  if (getActions().size() != getNumResults())
    return emitOpError("needs one action per result: ")
           << getActions().size() << " actions, " << getNumResults()
           << " results";
  if (yield.getValues().size() != getNumResults())
    return emitOpError("body yields ")
           << yield.getValues().size() << " values for " << getNumResults()
           << " results";
  for (unsigned i = 0; i < getNumResults(); ++i)
    if (failed(verifyAction(*this, i, getActions()[i],
                            yield.getValues()[i].getType(),
                            getResult(i).getType(), *size)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// SliceOp, TagOp
//===----------------------------------------------------------------------===//

ParseResult SliceOp::parse(OpAsmParser &parser, OperationState &result) {
  int64_t dim;
  OpAsmParser::UnresolvedOperand operand, range;
  Type inType, outType;
  // A padded slice names its range type: its size does not follow from the
  // tensor types.
  RangeType rangeType;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseInteger(dim) || parser.parseOperand(operand) ||
      parser.parseLSquare() || parser.parseOperand(range) ||
      (succeeded(parser.parseOptionalColon()) && parser.parseType(rangeType)) ||
      parser.parseRSquare() ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(inType) || parser.parseArrow() ||
      parser.parseType(outType))
    return failure();
  auto in = dyn_cast<RankedTensorType>(inType);
  auto out = dyn_cast<RankedTensorType>(outType);
  bool ranked = in && out && dim >= 0 && dim < in.getRank() &&
                dim < out.getRank() && out.getDimSize(dim) > 0;
  // The range follows from the sizes only if the sliced one is known.
  if (ranked && !rangeType && in.isDynamicDim(dim))
    return parser.emitError(loc, "dimension ")
           << dim << " of " << in << " must be static to be sliced";
  if (!ranked || (!rangeType && in.getDimSize(dim) % out.getDimSize(dim) != 0))
    return parser.emitError(loc, "expected ranked tensor types whose "
                                 "dimension ")
           << dim << " sizes divide (or a `%r : !partir.range<N>` index)";
  // An empty dimension gives no positive range: the type verifier says so.
  if (!rangeType)
    rangeType = parser.getChecked<RangeType>(
        loc, parser.getContext(), in.getDimSize(dim) / out.getDimSize(dim));
  if (!rangeType)
    return failure();
  result.getOrAddProperties<Properties>().dim =
      parser.getBuilder().getI64IntegerAttr(dim);
  if (parser.resolveOperand(operand, inType, result.operands) ||
      parser.resolveOperand(range, rangeType, result.operands))
    return failure();
  result.addTypes(outType);
  return success();
}

void SliceOp::print(OpAsmPrinter &printer) {
  printer << ' ' << getDim() << ' ' << getOperand() << '[' << getRange();
  int64_t n = cast<RangeType>(getRange().getType()).getSize();
  int64_t size = getOperand().getType().getDimSize(getDim());
  if (isPadded(size, n))
    printer << " : " << getRange().getType();
  printer << ']';
  printer.printOptionalAttrDict((*this)->getAttrs(), {"dim"});
  printer << " : " << getOperand().getType() << " -> " << getResult().getType();
}

LogicalResult SliceOp::verify() {
  auto in = cast<RankedTensorType>(getOperand().getType());
  auto out = cast<RankedTensorType>(getResult().getType());
  int64_t n = cast<RangeType>(getRange().getType()).getSize();
  int64_t d = getDim();
  if (d < 0 || d >= in.getRank())
    return emitOpError("dimension ") << d << " is out of range for " << in;
  if (in.getRank() != out.getRank() ||
      in.getElementType() != out.getElementType())
    return emitOpError("result must have the operand's rank and element type");
  if (in.isDynamicDim(d))
    return emitOpError("dimension ")
           << d << " of " << in << " must be static to be sliced";
  for (int64_t i = 0; i < in.getRank(); ++i) {
    int64_t expected =
        i == d ? chunkSize(in.getDimSize(i), n) : in.getDimSize(i);
    if (out.getDimSize(i) != expected)
      return emitOpError("result type ")
             << out << " is not chunk of " << n << " along dimension " << d
             << " of " << in;
  }
  return success();
}

LogicalResult TagOp::verify() {
  if (getOperand().getType() != getResult().getType())
    return emitOpError("result type must equal the operand type");
  if (getName().empty())
    return emitOpError("name must not be empty");
  return success();
}

std::optional<toast::ShardingRule> TagOp::getShardingRule() {
  if (!isa<RankedTensorType>(getOperand().getType()))
    return std::nullopt;
  return toast::ShardingRuleBuilder(*this).addPointwise().build();
}

LogicalResult toast::partir::checkMaterialized(ModuleOp module,
                                               StringRef pass) {
  Operation *unmaterialized = nullptr;
  module.walk([&](Operation *op) {
    bool tiledArgument = false;
    if (auto func = dyn_cast<FunctionOpInterface>(op))
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        tiledArgument |= bool(func.getArgAttr(i, "partir.tiling"));
    if (tiledArgument || op->hasAttr("partir.loops")) {
      unmaterialized = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!unmaterialized)
    return success();
  return unmaterialized->emitError(pass)
         << ": the program carries a partitioning that is not materialized "
            "yet (partir.tiling / partir.loops attributes); run "
            "--partir-materialize-core first";
}
