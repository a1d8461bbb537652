//===- SdyManualComputation.cpp - sdy.manual_computation ------------------===//
//
// Syntax and verifier of JAX's shard_map region:
//
//   sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {}]>]
//       out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"}
//       (%arg1: tensor<8x32xf32>) { ... sdy.return %y : tensor<8x32xf32> }
//       : (tensor<16x32xf32>) -> tensor<16x32xf32>
//
// The verifier checks that the body's types are the local shapes of the
// operands and results under the shardings, on the manual axes only.
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/Sdy/IR/Sdy.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace toast::sdy;

/// `[<@mesh, [...]>, ...]`.
static ParseResult parseShardingList(OpAsmParser &parser,
                                     TensorShardingPerValueAttr &result) {
  SmallVector<TensorShardingAttr> shardings;
  if (parseAttrList(parser, shardings))
    return failure();
  result = TensorShardingPerValueAttr::get(parser.getContext(), shardings);
  return success();
}

ParseResult ManualComputationOp::parse(OpAsmParser &parser,
                                       OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  TensorShardingPerValueAttr inShardings, outShardings;
  SmallVector<Attribute> manualAxes;
  SmallVector<OpAsmParser::Argument> bodyArgs;
  FunctionType type;
  SMLoc operandsLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(operands, AsmParser::Delimiter::Paren) ||
      parser.parseKeyword("in_shardings") || parser.parseEqual() ||
      parseShardingList(parser, inShardings) ||
      parser.parseKeyword("out_shardings") || parser.parseEqual() ||
      parseShardingList(parser, outShardings) ||
      parser.parseKeyword("manual_axes") || parser.parseEqual() ||
      parser.parseCommaSeparatedList(AsmParser::Delimiter::Braces,
                                     [&]() -> ParseResult {
                                       std::string axis;
                                       if (parser.parseString(&axis))
                                         return failure();
                                       manualAxes.push_back(
                                           StringAttr::get(ctx, axis));
                                       return success();
                                     }) ||
      parser.parseArgumentList(bodyArgs, AsmParser::Delimiter::Paren,
                               /*allowType=*/true))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, bodyArgs) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type) ||
      parser.resolveOperands(operands, type.getInputs(), operandsLoc,
                             result.operands))
    return failure();
  result.addTypes(type.getResults());
  result.addAttribute(getInShardingsAttrName(result.name), inShardings);
  result.addAttribute(getOutShardingsAttrName(result.name), outShardings);
  result.addAttribute(getManualAxesAttrName(result.name),
                      ArrayAttr::get(ctx, manualAxes));
  return success();
}

void ManualComputationOp::print(OpAsmPrinter &printer) {
  printer << '(' << getTensors() << ") in_shardings=";
  printAttrList(printer, getInShardings().getShardings());
  printer << " out_shardings=";
  printAttrList(printer, getOutShardings().getShardings());
  printer << " manual_axes={";
  llvm::interleaveComma(getManualAxes().getAsValueRange<StringAttr>(), printer,
                        [&](StringRef axis) { printer.printString(axis); });
  printer << "} (";
  llvm::interleaveComma(
      getBody().getArguments(), printer,
      [&](BlockArgument arg) { printer.printRegionArgument(arg); });
  printer << ") ";
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false);
  printer.printOptionalAttrDict((*this)->getAttrs(), {getInShardingsAttrName(),
                                                      getOutShardingsAttrName(),
                                                      getManualAxesAttrName()});
  printer << " : ";
  printer.printFunctionalType(getTensors().getTypes(), getResultTypes());
}

bool ManualComputationOp::isManualAxis(StringRef axis) {
  return llvm::is_contained(getManualAxes().getAsValueRange<StringAttr>(),
                            axis);
}

MeshAttr ManualComputationOp::getMesh() {
  for (TensorShardingAttr sharding : llvm::concat<const TensorShardingAttr>(
           getInShardings().getShardings(), getOutShardings().getShardings()))
    if (MeshAttr mesh = sharding.getMesh(*this))
      return mesh;
  return {};
}

LogicalResult ManualComputationOp::verifyRegions() {
  if (getInShardings().getShardings().size() != getTensors().size())
    return emitOpError() << "has " << getTensors().size() << " operands but "
                         << getInShardings().getShardings().size()
                         << " in_shardings";
  if (getOutShardings().getShardings().size() != getNumResults())
    return emitOpError() << "has " << getNumResults() << " results but "
                         << getOutShardings().getShardings().size()
                         << " out_shardings";
  Block &block = getBody().front();
  if (block.getNumArguments() != getTensors().size())
    return emitOpError() << "has " << getTensors().size()
                         << " operands but its body takes "
                         << block.getNumArguments() << " arguments";
  if (block.empty() || !isa<ReturnOp>(block.back()))
    return emitOpError() << "body must end with sdy.return";
  if (block.back().getNumOperands() != getNumResults())
    return block.back().emitOpError()
           << "returns " << block.back().getNumOperands()
           << " values but the manual_computation has " << getNumResults()
           << " results";
  return success();
}

namespace {
/// Checks one sharded boundary value: the sharding, the order of manual and
/// free axes, and the body-side (local) type.
struct BoundaryChecker {
  ManualComputationOp op;
  MeshAttr mesh;

  LogicalResult check(TensorShardingAttr sharding, Type globalType,
                      Type localType, const Twine &what,
                      const Twine &localWhat) {
    if (failed(sharding.verifyFor(
            globalType, op, [&] { return op.emitOpError() << what << ": "; })))
      return failure();
    if (sharding.getMesh(op) != mesh)
      return op.emitOpError()
             << what << ": all shardings must use one mesh, "
             << "but " << sharding.getMesh(op) << " is not " << mesh;
    auto global = cast<RankedTensorType>(globalType);
    SmallVector<int64_t> local(global.getShape());
    for (int64_t d = 0; d < global.getRank(); ++d) {
      bool sawFree = false;
      for (AxisRefAttr ref : sharding.getDimShardings()[d].getAxes()) {
        bool manual = op.isManualAxis(ref.getAxisName());
        if (manual && sawFree)
          return op.emitOpError()
                 << what << ": dimension " << d << ": manual axis " << ref.str()
                 << " must come before the free axes";
        sawFree |= !manual;
      }
      int64_t count = getShardCount(sharding, d, mesh, [&](AxisRefAttr ref) {
        return op.isManualAxis(ref.getAxisName());
      });
      if (global.isDynamicDim(d))
        continue;
      if (global.getDimSize(d) % count != 0)
        return op.emitOpError()
               << what << ": dimension " << d << " of size "
               << global.getDimSize(d) << " is not divisible by " << count
               << ", the size of its manual axes";
      local[d] = global.getDimSize(d) / count;
    }
    auto expected = global.clone(local);
    if (localType != expected)
      return op.emitOpError() << localWhat << " has type " << localType
                              << " but the local shape of " << what
                              << " on the manual axes is " << expected;
    return success();
  }
};
} // namespace

LogicalResult ManualComputationOp::verifySymbolUses(SymbolTableCollection &) {
  MeshAttr mesh = getMesh();
  SmallVector<StringRef> seen;
  for (StringRef axis : getManualAxes().getAsValueRange<StringAttr>()) {
    if (!mesh)
      return emitOpError() << "manual axis \"" << axis
                           << "\" needs a mesh, but there are no shardings";
    if (!mesh.getAxisSize(axis))
      return emitOpError() << "manual axis \"" << axis
                           << "\" is not an axis of the mesh " << mesh;
    if (llvm::is_contained(seen, axis))
      return emitOpError() << "manual axis \"" << axis << "\" appears twice";
    seen.push_back(axis);
    // Inside an enclosing manual computation the axis already indexes the
    // device, so making it manual again would split the local shape twice
    // over one axis (Shardy forbids overlapping nested manual axes).
    for (auto outer = (*this)->getParentOfType<ManualComputationOp>(); outer;
         outer = outer->getParentOfType<ManualComputationOp>())
      if (outer.isManualAxis(axis)) {
        InFlightDiagnostic diag = emitOpError()
                                  << "manual axis \"" << axis
                                  << "\" is already manual in an enclosing "
                                     "manual_computation";
        diag.attachNote(outer.getLoc()) << "enclosing manual_computation";
        return diag;
      }
  }
  BoundaryChecker checker{*this, mesh};
  Block &block = getBody().front();
  for (auto [i, sharding] : llvm::enumerate(getInShardings().getShardings()))
    if (failed(checker.check(
            sharding, getTensors()[i].getType(), block.getArgument(i).getType(),
            "operand " + Twine(i), "body argument " + Twine(i))))
      return failure();
  Operation *ret = block.getTerminator();
  for (auto [i, sharding] : llvm::enumerate(getOutShardings().getShardings()))
    if (failed(checker.check(sharding, getResult(i).getType(),
                             ret->getOperand(i).getType(), "result " + Twine(i),
                             "sdy.return operand " + Twine(i))))
      return failure();
  return success();
}
