//===- SdyAttrs.cpp - sdy mesh and sharding attributes --------------------===//
//
// Parsers, printers and verifiers of `#sdy.mesh`, axis references,
// `#sdy.sharding` and `#sdy.sharding_per_value`, in Shardy's printed syntax:
//
//   <["a"=2, "b"=4], device_ids=[...]>
//   <@mesh, [{"a"}, {"b", ?}p1, {}], replicated={"c"}, unreduced={"d"}>
//   <mesh<["x"=8]>, [{"x":(1)2}, {"x":(2)4}]>
//
// The attributes of the sdy collectives (axis lists per dimension and the
// moves of an all_to_all) are in SdyCollectiveAttrs.cpp.
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

void toast::sdy::printAxisRefs(AsmPrinter &printer,
                               ArrayRef<AxisRefAttr> refs) {
  llvm::interleaveComma(refs, printer,
                        [&](AxisRefAttr ref) { ref.printBody(printer); });
}

ParseResult toast::sdy::parseAxisRefSet(AsmParser &parser,
                                        SmallVectorImpl<AxisRefAttr> &refs) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Braces, [&]() -> ParseResult {
        FailureOr<AxisRefAttr> ref = AxisRefAttr::parseBody(parser);
        if (failed(ref))
          return failure();
        refs.push_back(*ref);
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
                          printer.printString(std::get<0>(axis).getValue());
                          printer << "=" << std::get<1>(axis);
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
// AxisRefAttr
//===----------------------------------------------------------------------===//

FailureOr<AxisRefAttr> AxisRefAttr::parseBody(AsmParser &parser) {
  std::string name;
  if (parser.parseString(&name))
    return failure();
  int64_t preSize = 0, subSize = 0;
  if (succeeded(parser.parseOptionalColon())) {
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseLParen() || parser.parseInteger(preSize) ||
        parser.parseRParen() || parser.parseInteger(subSize))
      return failure();
    if (preSize < 1 || subSize < 1)
      return parser.emitError(loc, "sub-axis sizes must be positive, got (")
             << preSize << ")" << subSize;
  }
  return AxisRefAttr::get(parser.getContext(),
                          StringAttr::get(parser.getContext(), name), preSize,
                          subSize);
}

void AxisRefAttr::printBody(AsmPrinter &printer) const {
  printer.printString(getAxisName());
  if (isSubAxis())
    printer << ":(" << getPreSize() << ')' << getSubSize();
}

Attribute AxisRefAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  FailureOr<AxisRefAttr> ref = parseBody(parser);
  if (failed(ref) || parser.parseGreater())
    return {};
  return *ref;
}

void AxisRefAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printBody(printer);
  printer << '>';
}

std::string AxisRefAttr::str() const {
  std::string s = "\"" + getAxisName().str() + "\"";
  if (isSubAxis())
    s += ":(" + std::to_string(getPreSize()) + ")" +
         std::to_string(getSubSize());
  return s;
}

int64_t AxisRefAttr::getSize(MeshAttr mesh) const {
  std::optional<int64_t> size = mesh.getAxisSize(getAxisName());
  if (!size)
    return 0;
  return isSubAxis() ? getSubSize() : *size;
}

bool AxisRefAttr::overlaps(AxisRefAttr other) const {
  if (getName() != other.getName())
    return false;
  if (!isSubAxis() || !other.isSubAxis())
    return true;
  // Sub-axes cover the ranges [m, m*k) of pre-sizes.
  return getPreSize() < other.getPreSize() * other.getSubSize() &&
         other.getPreSize() < getPreSize() * getSubSize();
}

int64_t AxisRefAttr::getIndex(int64_t coord, int64_t axisSize) const {
  if (!isSubAxis())
    return coord;
  // Minor to this sub-axis lie axisSize / (m * k) positions of the axis.
  return (coord / (axisSize / (getPreSize() * getSubSize()))) % getSubSize();
}

//===----------------------------------------------------------------------===//
// DimensionShardingAttr
//===----------------------------------------------------------------------===//

/// `{"a", "b", ?}p1` (without angle brackets).
static FailureOr<DimensionShardingAttr> parseDimBody(AsmParser &parser) {
  MLIRContext *ctx = parser.getContext();
  SmallVector<AxisRefAttr> axes;
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
            FailureOr<AxisRefAttr> ref = AxisRefAttr::parseBody(parser);
            if (failed(ref))
              return failure();
            axes.push_back(*ref);
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
  printAxisRefs(printer, dim.getAxes());
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

DimensionShardingAttr DimensionShardingAttr::get(MLIRContext *ctx,
                                                 ArrayRef<StringAttr> axisNames,
                                                 bool isClosed,
                                                 int64_t priority) {
  SmallVector<AxisRefAttr> refs;
  for (StringAttr name : axisNames)
    refs.push_back(AxisRefAttr::get(name));
  return get(ctx, refs, isClosed, priority);
}

//===----------------------------------------------------------------------===//
// TensorShardingAttr
//===----------------------------------------------------------------------===//

Attribute TensorShardingAttr::parse(AsmParser &parser, Type) {
  MLIRContext *ctx = parser.getContext();
  Attribute meshOrRef;
  SmallVector<DimensionShardingAttr> dims;
  SmallVector<AxisRefAttr> replicated, unreduced;
  if (parser.parseLess())
    return {};
  SMLoc meshLoc = parser.getCurrentLocation();
  StringAttr meshName;
  if (succeeded(parser.parseOptionalSymbolName(meshName))) {
    meshOrRef = FlatSymbolRefAttr::get(meshName);
  } else if (succeeded(parser.parseOptionalKeyword("mesh"))) {
    meshOrRef = MeshAttr::parse(parser, Type());
    if (!meshOrRef)
      return {};
  } else {
    parser.emitError(meshLoc, "expected a mesh symbol such as @mesh or an "
                              "inline mesh<[...]>");
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
      if (parseAxisRefSet(parser, replicated))
        return {};
    } else if (keyword == "unreduced") {
      if (parseAxisRefSet(parser, unreduced))
        return {};
    } else {
      parser.emitError(loc, "expected 'replicated' or 'unreduced', got '")
          << keyword << "'";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return TensorShardingAttr::get(ctx, meshOrRef, dims, replicated, unreduced);
}

void TensorShardingAttr::print(AsmPrinter &printer) const {
  printer << '<';
  if (FlatSymbolRefAttr name = getMeshName()) {
    printer.printSymbolName(name.getValue());
  } else {
    printer << "mesh";
    cast<MeshAttr>(getMeshOrRef()).print(printer);
  }
  printer << ", [";
  llvm::interleaveComma(
      getDimShardings(), printer,
      [&](DimensionShardingAttr dim) { printDimBody(printer, dim); });
  printer << ']';
  if (!getReplicatedAxes().empty()) {
    printer << ", replicated={";
    printAxisRefs(printer, getReplicatedAxes());
    printer << '}';
  }
  if (!getUnreducedAxes().empty()) {
    printer << ", unreduced={";
    printAxisRefs(printer, getUnreducedAxes());
    printer << '}';
  }
  printer << '>';
}

MeshOp TensorShardingAttr::lookupMesh(Operation *from) const {
  FlatSymbolRefAttr name = getMeshName();
  if (!name)
    return {};
  return SymbolTable::lookupNearestSymbolFrom<MeshOp>(from, name);
}

MeshAttr TensorShardingAttr::getMesh(Operation *from) const {
  if (auto inlineMesh = dyn_cast<MeshAttr>(getMeshOrRef()))
    return inlineMesh;
  MeshOp op = lookupMesh(from);
  return op ? op.getMesh() : MeshAttr();
}

SmallVector<std::string> TensorShardingAttr::getDimAxes(int64_t dim) const {
  SmallVector<std::string> axes;
  for (AxisRefAttr axis : getDimShardings()[dim].getAxes())
    axes.push_back(axis.isSubAxis() ? axis.str() : axis.getAxisName().str());
  return axes;
}

TensorShardingAttr
toast::sdy::getClosedSharding(FlatSymbolRefAttr mesh,
                              ArrayRef<SmallVector<std::string>> dims) {
  MLIRContext *ctx = mesh.getContext();
  SmallVector<DimensionShardingAttr> dimShardings;
  for (const auto &axes : dims) {
    SmallVector<StringAttr> names;
    for (const std::string &axis : axes)
      names.push_back(StringAttr::get(ctx, axis));
    dimShardings.push_back(DimensionShardingAttr::get(
        ctx, names, /*isClosed=*/true, /*priority=*/-1));
  }
  return TensorShardingAttr::get(ctx, mesh, dimShardings, {}, {});
}

bool TensorShardingAttr::hasSubAxes() const {
  auto sub = [](AxisRefAttr ref) { return ref.isSubAxis(); };
  return llvm::any_of(getDimShardings(),
                      [&](DimensionShardingAttr dim) {
                        return llvm::any_of(dim.getAxes(), sub);
                      }) ||
         llvm::any_of(getReplicatedAxes(), sub) ||
         llvm::any_of(getUnreducedAxes(), sub);
}

std::string TensorShardingAttr::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << Attribute(*this);
  return s;
}

LogicalResult
toast::sdy::verifyAxisRef(AxisRefAttr ref, MeshAttr mesh,
                          FlatSymbolRefAttr meshName,
                          function_ref<InFlightDiagnostic()> emitError) {
  std::optional<int64_t> size = mesh.getAxisSize(ref.getAxisName());
  if (!size) {
    InFlightDiagnostic diag = emitError();
    diag << "unknown axis \"" << ref.getAxisName() << "\" in mesh ";
    if (meshName)
      diag << meshName << " ";
    return diag << mesh;
  }
  if (!ref.isSubAxis())
    return success();
  int64_t span = ref.getPreSize() * ref.getSubSize();
  if (ref.getSubSize() < 2)
    return emitError() << "sub-axis " << ref.str()
                       << " must have a size greater than 1";
  if (*size % span != 0)
    return emitError() << "sub-axis " << ref.str() << " does not divide axis \""
                       << ref.getAxisName() << "\" of size " << *size
                       << " (pre-size times size " << span
                       << " must divide it)";
  if (span == *size && ref.getPreSize() == 1)
    return emitError() << "sub-axis " << ref.str() << " is the whole axis \""
                       << ref.getAxisName() << "\"; write it as \""
                       << ref.getAxisName() << "\"";
  return success();
}

LogicalResult toast::sdy::verifyDisjointAxisRefs(
    ArrayRef<AxisRefAttr> refs, MeshAttr mesh, FlatSymbolRefAttr meshName,
    function_ref<InFlightDiagnostic()> emitError) {
  for (auto [i, ref] : llvm::enumerate(refs)) {
    if (failed(verifyAxisRef(ref, mesh, meshName, emitError)))
      return failure();
    for (AxisRefAttr earlier : refs.take_front(i)) {
      if (earlier == ref)
        return emitError() << "axis " << ref.str()
                           << " is used twice in the sharding";
      if (earlier.overlaps(ref))
        return emitError() << "axis " << ref.str() << " overlaps "
                           << earlier.str() << " in the sharding";
    }
  }
  return success();
}

LogicalResult TensorShardingAttr::verifyFor(
    Type type, Operation *symbolFrom,
    function_ref<InFlightDiagnostic()> emitError) const {
  MeshAttr mesh = getMesh(symbolFrom);
  if (!mesh)
    return emitError() << "sharding refers to unknown mesh " << getMeshName();
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return emitError() << "sharding needs a ranked tensor, got " << type;
  if (tensor.getRank() != getRank())
    return emitError() << "sharding has " << getRank()
                       << " dimension shardings but " << type << " has rank "
                       << tensor.getRank();
  SmallVector<AxisRefAttr> all;
  for (DimensionShardingAttr dim : getDimShardings()) {
    // Sub-axes must be maximal: two neighbours that make one larger part
    // of the axis are written as that part.
    for (auto [major, minor] :
         llvm::zip(dim.getAxes(), dim.getAxes().drop_front()))
      if (major.isSubAxis() && minor.isSubAxis() &&
          major.getName() == minor.getName() &&
          major.getPreSize() * major.getSubSize() == minor.getPreSize())
        return emitError() << "sub-axes " << major.str() << " and "
                           << minor.str() << " must be merged into one";
    llvm::append_range(all, dim.getAxes());
  }
  llvm::append_range(all, getReplicatedAxes());
  llvm::append_range(all, getUnreducedAxes());
  return verifyDisjointAxisRefs(all, mesh, getMeshName(), emitError);
}

//===----------------------------------------------------------------------===//
// TensorShardingPerValueAttr
//===----------------------------------------------------------------------===//

Attribute TensorShardingPerValueAttr::parse(AsmParser &parser, Type) {
  SmallVector<TensorShardingAttr> shardings;
  if (parser.parseLess() || parseAttrList(parser, shardings) ||
      parser.parseGreater())
    return {};
  return TensorShardingPerValueAttr::get(parser.getContext(), shardings);
}

void TensorShardingPerValueAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printAttrList(printer, getShardings());
  printer << '>';
}
