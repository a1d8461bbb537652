//===- StablehloAttrs.cpp - StableHLO attribute syntax -------------------===//
//
// Parsers and printers of the dimension-number attributes. Key/value
// attributes (`#stablehlo.gather<offset_dims = [1], index_vector_dim = 1>`)
// accept keys in any order, omit empty lists when printing and print keys in
// StableHLO's order.
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/StableHLO/IR/StablehloAttrs.h"
#include "toast/Dialect/StableHLO/IR/StablehloAssemblyFormat.h"
#include "toast/Dialect/StableHLO/IR/StablehloDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace toast::stablehlo;

#include "toast/Dialect/StableHLO/IR/StablehloEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "toast/Dialect/StableHLO/IR/StablehloAttrs.cpp.inc"

namespace {
/// One `key = value` entry of a struct-like attribute: a dimension list or
/// an integer.
struct Field {
  StringRef name;
  SmallVector<int64_t> *list = nullptr;
  int64_t *scalar = nullptr;
  bool required = false;
};
} // namespace

/// Parses `key = value (, key = value)*` for the given fields, in any order.
/// The surrounding delimiters are parsed by the caller.
static ParseResult parseFields(AsmParser &parser, MutableArrayRef<Field> fields,
                               StringRef attrName) {
  llvm::StringSet<> seen;
  auto parseOne = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    auto *field = llvm::find_if(fields, [&](Field &f) { return f.name == key; });
    if (field == fields.end())
      return parser.emitError(loc, "unknown key '")
             << key << "' in #stablehlo." << attrName;
    if (!seen.insert(key).second)
      return parser.emitError(loc, "duplicate key '")
             << key << "' in #stablehlo." << attrName;
    if (field->list)
      return parseDimList(parser, *field->list);
    return parser.parseInteger(*field->scalar);
  };
  if (parser.parseCommaSeparatedList(parseOne))
    return failure();
  for (Field &field : fields)
    if (field.required && !seen.contains(field.name))
      return parser.emitError(parser.getCurrentLocation(), "missing key '")
             << field.name << "' in #stablehlo." << attrName;
  return success();
}

/// Prints the fields in order, omitting empty lists and zero integers that
/// are not required (as StableHLO does).
static void printFields(AsmPrinter &printer, ArrayRef<Field> fields) {
  bool first = true;
  for (const Field &field : fields) {
    if (!field.required &&
        (field.list ? field.list->empty() : *field.scalar == 0))
      continue;
    if (!first)
      printer << ", ";
    first = false;
    printer << field.name << " = ";
    if (field.list)
      printDimList(printer, *field.list);
    else
      printer << *field.scalar;
  }
}

/// Parses `<fields>` (an empty `<>` is allowed when nothing is required).
static ParseResult parseStruct(AsmParser &parser, MutableArrayRef<Field> fields,
                               StringRef attrName) {
  if (parser.parseLess())
    return failure();
  if (succeeded(parser.parseOptionalGreater())) {
    for (Field &field : fields)
      if (field.required)
        return parser.emitError(parser.getCurrentLocation(), "missing key '")
               << field.name << "' in #stablehlo." << attrName;
    return success();
  }
  if (parseFields(parser, fields, attrName))
    return failure();
  return parser.parseGreater();
}

//===----------------------------------------------------------------------===//
// DotDimensionNumbersAttr
//===----------------------------------------------------------------------===//

Attribute DotDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> lb, rb, lc, rc;
  Field fields[] = {{"lhs_batching_dimensions", &lb},
                    {"rhs_batching_dimensions", &rb},
                    {"lhs_contracting_dimensions", &lc},
                    {"rhs_contracting_dimensions", &rc}};
  if (parseStruct(parser, fields, "dot"))
    return {};
  return get(parser.getContext(), lb, rb, lc, rc);
}

void DotDimensionNumbersAttr::print(AsmPrinter &printer) const {
  SmallVector<int64_t> lb(getLhsBatchingDimensions()),
      rb(getRhsBatchingDimensions()), lc(getLhsContractingDimensions()),
      rc(getRhsContractingDimensions());
  Field fields[] = {{"lhs_batching_dimensions", &lb},
                    {"rhs_batching_dimensions", &rb},
                    {"lhs_contracting_dimensions", &lc},
                    {"rhs_contracting_dimensions", &rc}};
  printer << '<';
  printFields(printer, fields);
  printer << '>';
}

//===----------------------------------------------------------------------===//
// GatherDimensionNumbersAttr / ScatterDimensionNumbersAttr
//===----------------------------------------------------------------------===//

Attribute GatherDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> offset, collapsed, operandBatch, indicesBatch, indexMap;
  int64_t indexVectorDim = 0;
  Field fields[] = {{"offset_dims", &offset},
                    {"collapsed_slice_dims", &collapsed},
                    {"operand_batching_dims", &operandBatch},
                    {"start_indices_batching_dims", &indicesBatch},
                    {"start_index_map", &indexMap},
                    {"index_vector_dim", nullptr, &indexVectorDim}};
  if (parseStruct(parser, fields, "gather"))
    return {};
  return get(parser.getContext(), offset, collapsed, operandBatch,
             indicesBatch, indexMap, indexVectorDim);
}

void GatherDimensionNumbersAttr::print(AsmPrinter &printer) const {
  SmallVector<int64_t> offset(getOffsetDims()),
      collapsed(getCollapsedSliceDims()),
      operandBatch(getOperandBatchingDims()),
      indicesBatch(getStartIndicesBatchingDims()),
      indexMap(getStartIndexMap());
  int64_t indexVectorDim = getIndexVectorDim();
  Field fields[] = {{"offset_dims", &offset},
                    {"collapsed_slice_dims", &collapsed},
                    {"operand_batching_dims", &operandBatch},
                    {"start_indices_batching_dims", &indicesBatch},
                    {"start_index_map", &indexMap},
                    {"index_vector_dim", nullptr, &indexVectorDim}};
  printer << '<';
  printFields(printer, fields);
  printer << '>';
}

Attribute ScatterDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> window, inserted, inputBatch, indicesBatch, toOperand;
  int64_t indexVectorDim = 0;
  Field fields[] = {{"update_window_dims", &window},
                    {"inserted_window_dims", &inserted},
                    {"input_batching_dims", &inputBatch},
                    {"scatter_indices_batching_dims", &indicesBatch},
                    {"scatter_dims_to_operand_dims", &toOperand},
                    {"index_vector_dim", nullptr, &indexVectorDim}};
  if (parseStruct(parser, fields, "scatter"))
    return {};
  return get(parser.getContext(), window, inserted, inputBatch, indicesBatch,
             toOperand, indexVectorDim);
}

void ScatterDimensionNumbersAttr::print(AsmPrinter &printer) const {
  SmallVector<int64_t> window(getUpdateWindowDims()),
      inserted(getInsertedWindowDims()), inputBatch(getInputBatchingDims()),
      indicesBatch(getScatterIndicesBatchingDims()),
      toOperand(getScatterDimsToOperandDims());
  int64_t indexVectorDim = getIndexVectorDim();
  Field fields[] = {{"update_window_dims", &window},
                    {"inserted_window_dims", &inserted},
                    {"input_batching_dims", &inputBatch},
                    {"scatter_indices_batching_dims", &indicesBatch},
                    {"scatter_dims_to_operand_dims", &toOperand},
                    {"index_vector_dim", nullptr, &indexVectorDim}};
  printer << '<';
  printFields(printer, fields);
  printer << '>';
}

//===----------------------------------------------------------------------===//
// OutputOperandAliasAttr
//===----------------------------------------------------------------------===//

Attribute OutputOperandAliasAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> output, operandTuple;
  int64_t operandIndex = 0;
  Field fields[] = {{"output_tuple_indices", &output, nullptr, true},
                    {"operand_index", nullptr, &operandIndex, true},
                    {"operand_tuple_indices", &operandTuple, nullptr, true}};
  if (parseStruct(parser, fields, "output_operand_alias"))
    return {};
  return get(parser.getContext(), output, operandIndex, operandTuple);
}

void OutputOperandAliasAttr::print(AsmPrinter &printer) const {
  SmallVector<int64_t> output(getOutputTupleIndices()),
      operandTuple(getOperandTupleIndices());
  int64_t operandIndex = getOperandIndex();
  Field fields[] = {{"output_tuple_indices", &output, nullptr, true},
                    {"operand_index", nullptr, &operandIndex, true},
                    {"operand_tuple_indices", &operandTuple, nullptr, true}};
  printer << '<';
  printFields(printer, fields);
  printer << '>';
}

//===----------------------------------------------------------------------===//
// ConvDimensionNumbersAttr
//===----------------------------------------------------------------------===//

namespace {
/// One bracketed layout of the short conv form, e.g. `[b, 0, 1, f]`: the
/// positions of the two named dimensions and of each spatial dimension.
struct ConvLayout {
  int64_t first = -1, second = -1;
  SmallVector<int64_t> spatial;
};
} // namespace

/// Parses `[b, 0, 1, f]` where `names` are the two non-spatial letters.
static ParseResult parseConvLayout(AsmParser &parser, char a, char b,
                                   ConvLayout &layout) {
  SmallVector<std::pair<int64_t, int64_t>> spatial; // (spatial index, pos)
  int64_t pos = 0;
  auto parseDim = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    int64_t index;
    OptionalParseResult asInt = parser.parseOptionalInteger(index);
    if (asInt.has_value()) {
      if (failed(*asInt))
        return failure();
      spatial.push_back({index, pos++});
      return success();
    }
    StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return failure();
    int64_t &slot = keyword == StringRef(&a, 1)   ? layout.first
                    : keyword == StringRef(&b, 1) ? layout.second
                                                  : index;
    if (&slot == &index)
      return parser.emitError(loc, "expected '")
             << a << "', '" << b << "' or a spatial index, got '" << keyword
             << "'";
    if (slot != -1)
      return parser.emitError(loc, "duplicate '") << keyword << "'";
    slot = pos++;
    return success();
  };
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseDim))
    return failure();
  if (layout.first < 0 || layout.second < 0)
    return parser.emitError(loc, "expected both '")
           << a << "' and '" << b << "' in convolution layout";
  layout.spatial.assign(spatial.size(), -1);
  for (auto [index, position] : spatial) {
    if (index < 0 || index >= static_cast<int64_t>(spatial.size()) ||
        layout.spatial[index] != -1)
      return parser.emitError(loc, "spatial dimensions must be a permutation "
                                   "of 0..")
             << spatial.size() - 1;
    layout.spatial[index] = position;
  }
  return success();
}

/// The long form: `raw input_batch_dimension = 0, ...`.
static ParseResult parseRawConvDims(AsmParser &parser,
                                    ConvDimensionNumbersAttr &dims) {
  int64_t ib = 0, iff = 0, kif = 0, kof = 0, ob = 0, of = 0;
  SmallVector<int64_t> is, ks, os;
  Field fields[] = {{"input_batch_dimension", nullptr, &ib, true},
                    {"input_feature_dimension", nullptr, &iff, true},
                    {"input_spatial_dimensions", &is, nullptr, true},
                    {"kernel_input_feature_dimension", nullptr, &kif, true},
                    {"kernel_output_feature_dimension", nullptr, &kof, true},
                    {"kernel_spatial_dimensions", &ks, nullptr, true},
                    {"output_batch_dimension", nullptr, &ob, true},
                    {"output_feature_dimension", nullptr, &of, true},
                    {"output_spatial_dimensions", &os, nullptr, true}};
  if (parseFields(parser, fields, "conv"))
    return failure();
  dims = ConvDimensionNumbersAttr::get(parser.getContext(), ib, iff, is, kif,
                                       kof, ks, ob, of, os);
  return success();
}

namespace toast::stablehlo {
ParseResult parseConvDimensionNumbersBody(AsmParser &parser,
                                          ConvDimensionNumbersAttr &dims) {
  if (succeeded(parser.parseOptionalKeyword("raw")))
    return parseRawConvDims(parser, dims);
  ConvLayout input, kernel, output;
  SMLoc loc = parser.getCurrentLocation();
  if (parseConvLayout(parser, 'b', 'f', input) || parser.parseKeyword("x") ||
      parseConvLayout(parser, 'i', 'o', kernel) || parser.parseArrow() ||
      parseConvLayout(parser, 'b', 'f', output))
    return failure();
  if (input.spatial.size() != kernel.spatial.size() ||
      input.spatial.size() != output.spatial.size())
    return parser.emitError(loc, "input, kernel and output must have the same "
                                 "number of spatial dimensions");
  dims = ConvDimensionNumbersAttr::get(
      parser.getContext(), input.first, input.second, input.spatial,
      kernel.first, kernel.second, kernel.spatial, output.first, output.second,
      output.spatial);
  return success();
}

/// Prints one layout; falls back to `?` for positions no dimension maps to
/// (only possible for attributes built in C++ with inconsistent numbers).
static void printConvLayout(AsmPrinter &printer, char a, int64_t aPos, char b,
                            int64_t bPos, ArrayRef<int64_t> spatial) {
  int64_t rank = 2 + spatial.size();
  SmallVector<std::string> names(rank, "?");
  auto set = [&](int64_t pos, std::string name) {
    if (pos >= 0 && pos < rank)
      names[pos] = std::move(name);
  };
  set(aPos, std::string(1, a));
  set(bPos, std::string(1, b));
  for (auto [i, pos] : llvm::enumerate(spatial))
    set(pos, std::to_string(i));
  printer << '[';
  llvm::interleaveComma(names, printer);
  printer << ']';
}

/// Whether the named and spatial positions form a permutation of the rank,
/// i.e. whether the short form can represent the layout.
static bool isPermutation(int64_t a, int64_t b, ArrayRef<int64_t> spatial) {
  int64_t rank = 2 + spatial.size();
  SmallVector<bool> used(rank, false);
  SmallVector<int64_t> all = {a, b};
  all.append(spatial.begin(), spatial.end());
  for (int64_t pos : all) {
    if (pos < 0 || pos >= rank || used[pos])
      return false;
    used[pos] = true;
  }
  return true;
}

static void printRawConvDims(AsmPrinter &printer,
                             ConvDimensionNumbersAttr dims) {
  int64_t ib = dims.getInputBatchDimension(),
          iff = dims.getInputFeatureDimension(),
          kif = dims.getKernelInputFeatureDimension(),
          kof = dims.getKernelOutputFeatureDimension(),
          ob = dims.getOutputBatchDimension(),
          of = dims.getOutputFeatureDimension();
  SmallVector<int64_t> is(dims.getInputSpatialDimensions()),
      ks(dims.getKernelSpatialDimensions()),
      os(dims.getOutputSpatialDimensions());
  Field fields[] = {{"input_batch_dimension", nullptr, &ib, true},
                    {"input_feature_dimension", nullptr, &iff, true},
                    {"input_spatial_dimensions", &is, nullptr, true},
                    {"kernel_input_feature_dimension", nullptr, &kif, true},
                    {"kernel_output_feature_dimension", nullptr, &kof, true},
                    {"kernel_spatial_dimensions", &ks, nullptr, true},
                    {"output_batch_dimension", nullptr, &ob, true},
                    {"output_feature_dimension", nullptr, &of, true},
                    {"output_spatial_dimensions", &os, nullptr, true}};
  printer << "raw ";
  printFields(printer, fields);
}

void printConvDimensionNumbersBody(AsmPrinter &printer,
                                   ConvDimensionNumbersAttr dims) {
  size_t n = dims.getInputSpatialDimensions().size();
  if (dims.getKernelSpatialDimensions().size() != n ||
      dims.getOutputSpatialDimensions().size() != n ||
      !isPermutation(dims.getInputBatchDimension(),
                     dims.getInputFeatureDimension(),
                     dims.getInputSpatialDimensions()) ||
      !isPermutation(dims.getKernelInputFeatureDimension(),
                     dims.getKernelOutputFeatureDimension(),
                     dims.getKernelSpatialDimensions()) ||
      !isPermutation(dims.getOutputBatchDimension(),
                     dims.getOutputFeatureDimension(),
                     dims.getOutputSpatialDimensions()))
    return printRawConvDims(printer, dims);
  printConvLayout(printer, 'b', dims.getInputBatchDimension(), 'f',
                  dims.getInputFeatureDimension(),
                  dims.getInputSpatialDimensions());
  printer << 'x';
  printConvLayout(printer, 'i', dims.getKernelInputFeatureDimension(), 'o',
                  dims.getKernelOutputFeatureDimension(),
                  dims.getKernelSpatialDimensions());
  printer << "->";
  printConvLayout(printer, 'b', dims.getOutputBatchDimension(), 'f',
                  dims.getOutputFeatureDimension(),
                  dims.getOutputSpatialDimensions());
}
} // namespace toast::stablehlo

Attribute ConvDimensionNumbersAttr::parse(AsmParser &parser, Type) {
  ConvDimensionNumbersAttr dims;
  if (parser.parseLess() || parseConvDimensionNumbersBody(parser, dims) ||
      parser.parseGreater())
    return {};
  return dims;
}

void ConvDimensionNumbersAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printConvDimensionNumbersBody(printer, *this);
  printer << '>';
}

void StableHLODialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "toast/Dialect/StableHLO/IR/StablehloAttrs.cpp.inc"
      >();
}
