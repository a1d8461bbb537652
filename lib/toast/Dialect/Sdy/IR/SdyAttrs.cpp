//===- SdyAttrs.cpp - sdy mesh and sharding attributes --------------------===//
//
// Parsers, printers and verifiers of `#sdy.mesh`, `#sdy.sharding` and
// `#sdy.sharding_per_value`, in Shardy's printed syntax:
//
//   <["a"=2, "b"=4], device_ids=[...]>
//   <@mesh, [{"a"}, {"b", ?}p1, {}], replicated={"c"}, unreduced={"d"}>
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/Sdy/IR/Sdy.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace toast::sdy;

#define GET_ATTRDEF_CLASSES
#include "toast/Dialect/Sdy/IR/SdyAttrs.cpp.inc"

void SdyDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "toast/Dialect/Sdy/IR/SdyAttrs.cpp.inc"
      >();
}

/// `"a", "b"` as written inside braces.
static void printQuotedList(AsmPrinter &printer, ArrayRef<StringAttr> names) {
  llvm::interleaveComma(names, printer, [&](StringAttr name) {
    printer << '"' << name.getValue() << '"';
  });
}

/// `{"a", "b"}`.
static ParseResult parseAxisSet(AsmParser &parser,
                                SmallVectorImpl<StringAttr> &axes) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Braces, [&]() -> ParseResult {
        std::string name;
        if (parser.parseString(&name))
          return failure();
        axes.push_back(StringAttr::get(parser.getContext(), name));
        return success();
      });
}

//===----------------------------------------------------------------------===//
// MeshAttr
//===----------------------------------------------------------------------===//

Attribute MeshAttr::parse(AsmParser &parser, Type) {
  SmallVector<StringAttr> names;
  SmallVector<int64_t> sizes, deviceIds;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            std::string name;
            int64_t size;
            if (parser.parseString(&name) || parser.parseEqual() ||
                parser.parseInteger(size))
              return failure();
            names.push_back(StringAttr::get(parser.getContext(), name));
            sizes.push_back(size);
            return success();
          }))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("device_ids") || parser.parseEqual() ||
        parser.parseCommaSeparatedList(
            AsmParser::Delimiter::Square, [&]() -> ParseResult {
              return parser.parseInteger(deviceIds.emplace_back());
            }))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    names, sizes, deviceIds);
}

void MeshAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(llvm::zip_equal(getAxisNames(), getAxisSizes()),
                        printer, [&](auto axis) {
                          printer << '"' << std::get<0>(axis).getValue()
                                  << "\"=" << std::get<1>(axis);
                        });
  printer << ']';
  if (!getDeviceIds().empty()) {
    printer << ", device_ids=[";
    llvm::interleaveComma(getDeviceIds(), printer);
    printer << ']';
  }
  printer << '>';
}

LogicalResult MeshAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<StringAttr> names,
                               ArrayRef<int64_t> sizes,
                               ArrayRef<int64_t> deviceIds) {
  if (names.size() != sizes.size())
    return emitError() << "mesh needs one size per axis";
  llvm::SmallSet<StringRef, 4> seen;
  int64_t devices = 1;
  for (auto [name, size] : llvm::zip_equal(names, sizes)) {
    if (name.getValue().empty())
      return emitError() << "mesh axis names must not be empty";
    if (!seen.insert(name.getValue()).second)
      return emitError() << "mesh axis \"" << name.getValue()
                         << "\" appears twice";
    if (size < 1)
      return emitError() << "mesh axis \"" << name.getValue()
                         << "\" must have a positive size, got " << size;
    devices *= size;
  }
  if (deviceIds.empty())
    return success();
  if (static_cast<int64_t>(deviceIds.size()) != devices)
    return emitError() << "mesh has " << devices << " devices but "
                       << deviceIds.size() << " device_ids";
  SmallVector<bool> used(devices, false);
  for (int64_t id : deviceIds) {
    if (id < 0 || (devices > 1 && id >= devices))
      return emitError() << "device id " << id << " is out of range [0, "
                         << devices << ")";
    if (devices > 1 && used[id])
      return emitError() << "device id " << id << " appears twice";
    if (devices > 1)
      used[id] = true;
  }
  return success();
}

std::optional<int64_t> MeshAttr::getAxisSize(StringRef axis) const {
  for (auto [name, size] : llvm::zip_equal(getAxisNames(), getAxisSizes()))
    if (name.getValue() == axis)
      return size;
  return std::nullopt;
}

int64_t MeshAttr::getNumDevices() const {
  int64_t n = 1;
  for (int64_t size : getAxisSizes())
    n *= size;
  return n;
}

bool MeshAttr::hasIotaDeviceIds() const {
  for (auto [i, id] : llvm::enumerate(getDeviceIds()))
    if (id != static_cast<int64_t>(i))
      return false;
  return true;
}

//===----------------------------------------------------------------------===//
// DimensionShardingAttr
//===----------------------------------------------------------------------===//

/// `{"a", "b", ?}p1` (without angle brackets).
static FailureOr<DimensionShardingAttr> parseDimBody(AsmParser &parser) {
  MLIRContext *ctx = parser.getContext();
  SmallVector<StringAttr> axes;
  bool closed = true;
  if (parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Braces, [&]() -> ParseResult {
            if (!closed)
              return parser.emitError(parser.getCurrentLocation(),
                                      "'?' must be the last entry of a "
                                      "dimension sharding");
            if (succeeded(parser.parseOptionalQuestion())) {
              closed = false;
              return success();
            }
            std::string name;
            SMLoc loc = parser.getCurrentLocation();
            if (parser.parseString(&name))
              return failure();
            if (succeeded(parser.parseOptionalColon()))
              return parser.emitError(loc, "sub-axes (\"x\":(m)k) are not "
                                           "supported");
            axes.push_back(StringAttr::get(ctx, name));
            return success();
          }))
    return failure();
  int64_t priority = -1;
  StringRef keyword;
  SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword(&keyword))) {
    if (keyword.size() < 2 || keyword[0] != 'p' ||
        keyword.drop_front().getAsInteger(10, priority) || priority < 0)
      return parser.emitError(loc, "expected a priority such as 'p0', got '")
             << keyword << "'";
  }
  return DimensionShardingAttr::get(ctx, axes, closed, priority);
}

static void printDimBody(AsmPrinter &printer, DimensionShardingAttr dim) {
  printer << '{';
  printQuotedList(printer, dim.getAxes());
  if (!dim.getIsClosed())
    printer << (dim.getAxes().empty() ? "?" : ", ?");
  printer << '}';
  if (dim.hasPriority())
    printer << 'p' << dim.getPriority();
}

Attribute DimensionShardingAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  FailureOr<DimensionShardingAttr> dim = parseDimBody(parser);
  if (failed(dim) || parser.parseGreater())
    return {};
  return *dim;
}

void DimensionShardingAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printDimBody(printer, *this);
  printer << '>';
}

//===----------------------------------------------------------------------===//
// TensorShardingAttr
//===----------------------------------------------------------------------===//

Attribute TensorShardingAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  StringAttr meshName;
  SmallVector<DimensionShardingAttr> dims;
  SmallVector<StringAttr> replicated, unreduced;
  if (parser.parseLess())
    return {};
  SMLoc meshLoc = parser.getCurrentLocation();
  if (failed(parser.parseOptionalSymbolName(meshName))) {
    parser.emitError(meshLoc, "expected a mesh symbol such as @mesh (inline "
                              "meshes are not supported)");
    return {};
  }
  if (parser.parseComma() ||
      parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            FailureOr<DimensionShardingAttr> dim = parseDimBody(parser);
            if (failed(dim))
              return failure();
            dims.push_back(*dim);
            return success();
          }))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    StringRef keyword;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword) || parser.parseEqual())
      return {};
    if (keyword == "replicated") {
      if (parseAxisSet(parser, replicated))
        return {};
    } else if (keyword == "unreduced") {
      if (parseAxisSet(parser, unreduced))
        return {};
    } else {
      parser.emitError(loc, "expected 'replicated' or 'unreduced', got '")
          << keyword << "'";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return TensorShardingAttr::get(ctx, FlatSymbolRefAttr::get(meshName), dims,
                                 replicated, unreduced);
}

void TensorShardingAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printer.printSymbolName(getMeshName().getValue());
  printer << ", [";
  llvm::interleaveComma(
      getDimShardings(), printer,
      [&](DimensionShardingAttr dim) { printDimBody(printer, dim); });
  printer << ']';
  if (!getReplicatedAxes().empty()) {
    printer << ", replicated={";
    printQuotedList(printer, getReplicatedAxes());
    printer << '}';
  }
  if (!getUnreducedAxes().empty()) {
    printer << ", unreduced={";
    printQuotedList(printer, getUnreducedAxes());
    printer << '}';
  }
  printer << '>';
}

MeshOp TensorShardingAttr::lookupMesh(Operation *from) const {
  return SymbolTable::lookupNearestSymbolFrom<MeshOp>(from, getMeshName());
}

SmallVector<StringRef> TensorShardingAttr::getDimAxes(int64_t dim) const {
  SmallVector<StringRef> axes;
  for (StringAttr axis : getDimShardings()[dim].getAxes())
    axes.push_back(axis.getValue());
  return axes;
}

LogicalResult TensorShardingAttr::verifyFor(
    Type type, Operation *symbolFrom,
    function_ref<InFlightDiagnostic()> emitError) const {
  MeshOp meshOp = lookupMesh(symbolFrom);
  if (!meshOp)
    return emitError() << "sharding refers to unknown mesh " << getMeshName();
  MeshAttr mesh = meshOp.getMesh();
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return emitError() << "sharding needs a ranked tensor, got " << type;
  if (tensor.getRank() != getRank())
    return emitError() << "sharding has " << getRank()
                       << " dimension shardings but " << type << " has rank "
                       << tensor.getRank();
  llvm::SmallSet<StringRef, 4> seen;
  auto check = [&](StringAttr axis) -> LogicalResult {
    if (!mesh.getAxisSize(axis.getValue()))
      return emitError() << "unknown axis \"" << axis.getValue()
                         << "\" in mesh " << getMeshName() << " "
                         << meshOp.getMesh();
    if (!seen.insert(axis.getValue()).second)
      return emitError() << "axis \"" << axis.getValue()
                         << "\" is used twice in the sharding";
    return success();
  };
  for (DimensionShardingAttr dim : getDimShardings())
    for (StringAttr axis : dim.getAxes())
      if (failed(check(axis)))
        return failure();
  for (StringAttr axis : getReplicatedAxes())
    if (failed(check(axis)))
      return failure();
  for (StringAttr axis : getUnreducedAxes())
    if (failed(check(axis)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// TensorShardingPerValueAttr
//===----------------------------------------------------------------------===//

Attribute TensorShardingPerValueAttr::parse(AsmParser &parser, Type) {
  SmallVector<TensorShardingAttr> shardings;
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square,
          [&]() -> ParseResult {
            auto sharding = dyn_cast_or_null<TensorShardingAttr>(
                TensorShardingAttr::parse(parser, Type()));
            if (!sharding)
              return failure();
            shardings.push_back(sharding);
            return success();
          }) ||
      parser.parseGreater())
    return {};
  return TensorShardingPerValueAttr::get(parser.getContext(), shardings);
}

void TensorShardingPerValueAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(getShardings(), printer,
                        [&](TensorShardingAttr s) { s.print(printer); });
  printer << "]>";
}
