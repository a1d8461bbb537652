//===- PartIRHLO.cpp - PartIR:HLO dialect --------------------------------===//
//
// Syntax, verifiers and folders of the mesh-axis collectives.
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/PartIR/HLO/IR/PartIRHLO.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace toast::partir_hlo;

#include "toast/Dialect/PartIR/HLO/IR/PartIRHLODialect.cpp.inc"

#define GET_OP_CLASSES
#include "toast/Dialect/PartIR/HLO/IR/PartIRHLOOps.cpp.inc"

void PartIRHLODialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "toast/Dialect/PartIR/HLO/IR/PartIRHLOOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Per-dimension axes
//===----------------------------------------------------------------------===//

bool toast::partir_hlo::isDimAxes(Attribute attr) {
  auto dims = dyn_cast<ArrayAttr>(attr);
  return dims && llvm::all_of(dims, [](Attribute dim) {
           auto axes = dyn_cast<ArrayAttr>(dim);
           return axes && llvm::all_of(axes, llvm::IsaPred<StringAttr>);
         });
}

SmallVector<std::string> toast::partir_hlo::getAxisNames(ArrayAttr attr) {
  SmallVector<std::string> names;
  for (Attribute axis : attr)
    names.push_back(cast<StringAttr>(axis).str());
  return names;
}

DimAxes toast::partir_hlo::getDimAxes(ArrayAttr attr) {
  DimAxes result;
  for (Attribute dim : attr)
    result.push_back(getAxisNames(cast<ArrayAttr>(dim)));
  return result;
}

ArrayAttr toast::partir_hlo::buildDimAxes(MLIRContext *ctx,
                                          const DimAxes &axes) {
  SmallVector<Attribute> dims;
  for (const auto &dim : axes) {
    SmallVector<Attribute> names;
    for (const std::string &axis : dim)
      names.push_back(StringAttr::get(ctx, axis));
    dims.push_back(ArrayAttr::get(ctx, names));
  }
  return ArrayAttr::get(ctx, dims);
}

ParseResult toast::partir_hlo::parseDimAxes(OpAsmParser &parser,
                                            ArrayAttr &dims) {
  DimAxes axes;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            axes.emplace_back();
            return parser.parseCommaSeparatedList(
                AsmParser::Delimiter::Braces, [&]() -> ParseResult {
                  std::string axis;
                  if (parser.parseString(&axis))
                    return failure();
                  axes.back().push_back(axis);
                  return success();
                });
          }))
    return failure();
  dims = buildDimAxes(parser.getContext(), axes);
  return success();
}

void toast::partir_hlo::printDimAxes(OpAsmPrinter &printer, Operation *,
                                     ArrayAttr dims) {
  printer << '[';
  llvm::interleaveComma(getDimAxes(dims), printer, [&](const auto &axes) {
    printer << '{';
    llvm::interleaveComma(
        axes, printer, [&](const std::string &a) { printer.printString(a); });
    printer << '}';
  });
  printer << ']';
}

DenseElementsAttr toast::partir_hlo::getSlicedSplat(AllSliceOp op) {
  DenseElementsAttr value;
  if (!matchPattern(op.getOperand(), m_Constant(&value)) || !value.isSplat())
    return {};
  toast::partir::MeshAttr mesh = toast::partir::getMesh(op);
  if (!mesh)
    return {};
  auto from = cast<RankedTensorType>(op.getOperand().getType());
  auto to = cast<RankedTensorType>(op.getType());
  for (auto [d, axes] : llvm::enumerate(getDimAxes(op.getDims()))) {
    int64_t devices = 1;
    for (const std::string &axis : axes)
      devices *= mesh.getAxisSize(axis).value_or(0);
    if (to.getDimSize(d) * devices != from.getDimSize(d))
      return {};
  }
  return value;
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

/// Product of the sizes of `axes`; reports unknown and repeated axes.
static FailureOr<int64_t> axesProduct(Operation *op, ArrayRef<std::string> axes,
                                      llvm::SmallSet<std::string, 4> &seen) {
  toast::partir::MeshAttr mesh = toast::partir::getMesh(op);
  if (!mesh)
    return op->emitOpError("needs a mesh: add `partir.mesh` to the module");
  int64_t product = 1;
  for (const std::string &axis : axes) {
    std::optional<int64_t> size = mesh.getAxisSize(axis);
    if (!size)
      return op->emitOpError("axis \"") << axis << "\" is not in the mesh "
                                        << mesh;
    if (!seen.insert(axis).second)
      return op->emitOpError("axis \"") << axis << "\" is used twice";
    // Mesh sizes are only checked to be positive, so huge ones must not
    // overflow here.
    std::optional<int64_t> next = llvm::checkedMul(product, *size);
    if (!next)
      return op->emitOpError("the product of the sizes of the axes overflows");
    product = *next;
  }
  return product;
}

/// Axes cut dimension `d` into one chunk per device, or join the chunks
/// back: that only means something for a known size, and the dynamic-size
/// marker must never reach the size arithmetic. `what` names the dimension
/// in the error ("dimension", "gather dimension", ...).
static LogicalResult verifyStaticUnderAxes(Operation *op, StringRef what,
                                           int64_t d, RankedTensorType in,
                                           RankedTensorType out) {
  if (!in.isDynamicDim(d) && !out.isDynamicDim(d))
    return success();
  return op->emitOpError()
         << what << " " << d
         << " must be static in the operand and the result because axes act "
            "on it, got "
         << in << " -> " << out;
}

/// The size that dimension `d` of `size` has after a gather (times `n`) or
/// a slice (divided by `n`) over axes whose sizes multiply to `n`.
/// With `padded`, a slice that n does not divide gives ceil(size / n).
static FailureOr<int64_t> scaledDimSize(Operation *op, StringRef what,
                                        int64_t d, int64_t size, int64_t n,
                                        bool gather, bool padded = false) {
  if (gather) {
    std::optional<int64_t> product = llvm::checkedMul(size, n);
    if (!product)
      return op->emitOpError() << what << " " << d << " of size " << size
                               << " gathered " << n << " times overflows";
    return *product;
  }
  if (padded)
    return toast::partir::chunkSize(size, n);
  if (size % n != 0)
    return op->emitOpError() << what << " " << d << " of size " << size
                             << " is not divisible by " << n;
  return size / n;
}

/// Checks result = operand divided (slice) or multiplied (gather) per dim.
/// A dimension without axes keeps its size, dynamic or not. With `padded`
/// (all_slice, all_gather), a dimension the axes do not divide has
/// ceil(size / n) rows per device (docs/dialects.md, padded sharding).
static LogicalResult verifyDimAxesShapes(Operation *op, ArrayAttr dimsAttr,
                                         bool gather, bool padded = false) {
  auto in = cast<RankedTensorType>(op->getOperand(0).getType());
  auto out = cast<RankedTensorType>(op->getResult(0).getType());
  DimAxes dims = getDimAxes(dimsAttr);
  if (static_cast<int64_t>(dims.size()) != in.getRank())
    return op->emitOpError("needs one axis list per dimension (")
           << in.getRank() << "), got " << dims.size();
  if (in.getRank() != out.getRank() ||
      in.getElementType() != out.getElementType())
    return op->emitOpError("result must have the operand's rank and element "
                           "type");
  llvm::SmallSet<std::string, 4> seen;
  for (auto [d, axes] : llvm::enumerate(dims)) {
    FailureOr<int64_t> n = axesProduct(op, axes, seen);
    if (failed(n))
      return failure();
    if (axes.empty()) {
      if (in.getDimSize(d) != out.getDimSize(d))
        return op->emitOpError("dimension ")
               << d << " has no axes, so the result must keep its size, got "
               << in << " -> " << out;
      continue;
    }
    if (failed(verifyStaticUnderAxes(op, "dimension", d, in, out)))
      return failure();
    FailureOr<int64_t> expected = scaledDimSize(
        op, "dimension", d, in.getDimSize(d), *n, gather, padded);
    if (failed(expected))
      return failure();
    bool paddedGather = padded && gather &&
                        toast::partir::chunkSize(out.getDimSize(d), *n) ==
                            in.getDimSize(d);
    if (out.getDimSize(d) != *expected && !paddedGather)
      return op->emitOpError("dimension ")
             << d << " of the result must be " << *expected << ", got "
             << out.getDimSize(d);
  }
  return success();
}

static LogicalResult verifyReduction(Operation *op, StringRef reduction) {
  if (reduction != "sum" && reduction != "max" && reduction != "min" &&
      reduction != "prod")
    return op->emitOpError("unknown reduction \"")
           << reduction << "\" (expected sum, max, min or prod)";
  return success();
}

LogicalResult AllSliceOp::verify() {
  return verifyDimAxesShapes(*this, getDims(), /*gather=*/false,
                             /*padded=*/true);
}

LogicalResult AllGatherOp::verify() {
  return verifyDimAxesShapes(*this, getDims(), /*gather=*/true,
                             /*padded=*/true);
}

LogicalResult ReduceScatterOp::verify() {
  if (failed(verifyReduction(*this, getReduction())))
    return failure();
  return verifyDimAxesShapes(*this, getDims(), /*gather=*/false);
}

LogicalResult AllReduceOp::verify() {
  if (failed(verifyReduction(*this, getReduction())))
    return failure();
  if (getOperand().getType() != getResult().getType())
    return emitOpError("result type must equal the operand type");
  llvm::SmallSet<std::string, 4> seen;
  return failure(failed(axesProduct(*this, getAxisNames(getAxes()), seen)));
}

LogicalResult AllToAllOp::verify() {
  auto in = cast<RankedTensorType>(getOperand().getType());
  auto out = cast<RankedTensorType>(getResult().getType());
  int64_t g = getGatherDim(), s = getSliceDim();
  if (g < 0 || s < 0 || g >= in.getRank() || s >= in.getRank() || g == s)
    return emitOpError("gather and slice dimensions must be distinct and in "
                       "range");
  SmallVector<std::string> axes = getAxisNames(getAxes());
  llvm::SmallSet<std::string, 4> seen;
  FailureOr<int64_t> n = axesProduct(*this, axes, seen);
  if (failed(n))
    return failure();
  SmallVector<int64_t> shape(in.getShape());
  // Without axes nothing moves, and the dimensions may stay dynamic.
  if (!axes.empty()) {
    if (out.getRank() != in.getRank())
      return emitOpError("result must have the operand's rank, got ")
             << in << " -> " << out;
    if (failed(verifyStaticUnderAxes(*this, "gather dimension", g, in, out)) ||
        failed(verifyStaticUnderAxes(*this, "slice dimension", s, in, out)))
      return failure();
    FailureOr<int64_t> sliced = scaledDimSize(*this, "slice dimension", s,
                                              shape[s], *n, /*gather=*/false);
    if (failed(sliced))
      return failure();
    FailureOr<int64_t> gathered = scaledDimSize(*this, "gather dimension", g,
                                                shape[g], *n, /*gather=*/true);
    if (failed(gathered))
      return failure();
    shape[g] = *gathered;
    shape[s] = *sliced;
  }
  if (out.getShape() != ArrayRef<int64_t>(shape) ||
      out.getElementType() != in.getElementType())
    return emitOpError("result type must be ") << in.clone(shape);
  return success();
}

//===----------------------------------------------------------------------===//
// Folders
//===----------------------------------------------------------------------===//

static bool allEmpty(ArrayAttr dims) {
  return llvm::all_of(dims, [](Attribute d) {
    return cast<ArrayAttr>(d).empty();
  });
}

OpFoldResult AllSliceOp::fold(FoldAdaptor) {
  if (allEmpty(getDims()))
    return getOperand();
  // all_slice(all_gather(x)) over the same axes is x.
  if (auto gather = getOperand().getDefiningOp<AllGatherOp>())
    if (gather.getDims() == getDims() &&
        gather.getOperand().getType() == getType())
      return gather.getOperand();
  return {};
}

OpFoldResult AllGatherOp::fold(FoldAdaptor) {
  if (allEmpty(getDims()))
    return getOperand();
  return {};
}

OpFoldResult AllReduceOp::fold(FoldAdaptor) {
  if (getAxes().empty())
    return getOperand();
  return {};
}
