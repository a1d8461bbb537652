//===- StablehloAssemblyFormat.cpp - Custom directives -------------------===//
//
// Parsers and printers of the `custom<...>` directives used by the StableHLO
// op formats. The syntax follows what JAX and PyTorch/XLA exports print.
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/StableHLO/IR/StablehloAssemblyFormat.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

#include <functional>

using namespace mlir;

namespace toast::stablehlo {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

ParseResult parseSameOperandsAndResultTypeImpl(OpAsmParser &parser,
                                               ArrayRef<Type *> operands,
                                               Type &result) {
  SMLoc loc = parser.getCurrentLocation();
  Type type;
  if (parser.parseType(type))
    return failure();
  auto fnType = dyn_cast<FunctionType>(type);
  if (!fnType) {
    for (Type *operand : operands)
      *operand = type;
    result = type;
    return success();
  }
  if (fnType.getNumInputs() != operands.size())
    return parser.emitError(loc) << "expected " << operands.size()
                                 << " operand type(s) in function type, got "
                                 << fnType.getNumInputs();
  if (fnType.getNumResults() != 1)
    return parser.emitError(loc) << "expected one result type, got "
                                 << fnType.getNumResults();
  for (auto [slot, input] : llvm::zip_equal(operands, fnType.getInputs()))
    *slot = input;
  result = fnType.getResult(0);
  return success();
}

void printSameOperandsAndResultTypeImpl(OpAsmPrinter &printer,
                                        TypeRange operands, Type result) {
  if (llvm::all_of(operands, [&](Type t) { return t == result; })) {
    printer << result;
    return;
  }
  printer.printFunctionalType(operands, TypeRange(result));
}

/// The real-valued tensor type whose elements are the parts of `complexType`.
static Type getComplexPartsType(Type complexType) {
  auto tensor = dyn_cast<RankedTensorType>(complexType);
  if (!tensor)
    return {};
  auto complex = dyn_cast<ComplexType>(tensor.getElementType());
  if (!complex)
    return {};
  return tensor.clone(complex.getElementType());
}

ParseResult parseComplexOpType(OpAsmParser &parser, Type &lhs, Type &rhs,
                               Type &result) {
  SMLoc loc = parser.getCurrentLocation();
  Type type;
  if (parser.parseType(type))
    return failure();
  if (auto fnType = dyn_cast<FunctionType>(type)) {
    if (fnType.getNumInputs() != 2 || fnType.getNumResults() != 1)
      return parser.emitError(loc, "expected (lhs, rhs) -> result type");
    lhs = fnType.getInput(0);
    rhs = fnType.getInput(1);
    result = fnType.getResult(0);
    return success();
  }
  Type parts = getComplexPartsType(type);
  if (!parts)
    return parser.emitError(loc, "expected a tensor of complex type, got ")
           << type;
  lhs = rhs = parts;
  result = type;
  return success();
}

void printComplexOpType(OpAsmPrinter &printer, Operation *, Type lhs, Type rhs,
                        Type result) {
  Type parts = getComplexPartsType(result);
  if (parts && lhs == parts && rhs == parts) {
    printer << result;
    return;
  }
  printer.printFunctionalType(TypeRange{lhs, rhs}, TypeRange(result));
}

ParseResult parseSelectOpType(OpAsmParser &parser, Type &pred, Type &onTrue,
                              Type &onFalse, Type &result) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<Type> types;
  if (parser.parseTypeList(types))
    return failure();
  if (types.size() == 1) {
    auto fnType = dyn_cast<FunctionType>(types[0]);
    if (!fnType || fnType.getNumInputs() != 3 || fnType.getNumResults() != 1)
      return parser.emitError(loc, "expected (pred, on_true, on_false) -> "
                                   "result type or 'pred_type, value_type'");
    pred = fnType.getInput(0);
    onTrue = fnType.getInput(1);
    onFalse = fnType.getInput(2);
    result = fnType.getResult(0);
    return success();
  }
  if (types.size() != 2)
    return parser.emitError(loc, "expected 'pred_type, value_type'");
  pred = types[0];
  onTrue = onFalse = result = types[1];
  return success();
}

void printSelectOpType(OpAsmPrinter &printer, Operation *, Type pred,
                       Type onTrue, Type onFalse, Type result) {
  if (onTrue == result && onFalse == result) {
    printer << pred << ", " << result;
    return;
  }
  printer.printFunctionalType(TypeRange{pred, onTrue, onFalse},
                              TypeRange(result));
}

ParseResult parseTupleOpType(OpAsmParser &parser,
                             SmallVectorImpl<Type> &operands, Type &result) {
  SMLoc loc = parser.getCurrentLocation();
  Type type;
  if (parser.parseType(type))
    return failure();
  if (auto fnType = dyn_cast<FunctionType>(type)) {
    if (fnType.getNumResults() != 1)
      return parser.emitError(loc, "expected one result type, got ")
             << fnType.getNumResults();
    llvm::append_range(operands, fnType.getInputs());
    result = fnType.getResult(0);
    return success();
  }
  auto tuple = dyn_cast<TupleType>(type);
  if (!tuple)
    return parser.emitError(loc, "expected a tuple type, got ") << type;
  llvm::append_range(operands, tuple.getTypes());
  result = tuple;
  return success();
}

void printTupleOpType(OpAsmPrinter &printer, Operation *, TypeRange operands,
                      Type result) {
  auto tuple = dyn_cast<TupleType>(result);
  if (tuple && TypeRange(tuple.getTypes()) == operands) {
    printer << result;
    return;
  }
  printer.printFunctionalType(operands, TypeRange(result));
}

//===----------------------------------------------------------------------===//
// Operands and attributes
//===----------------------------------------------------------------------===//

ParseResult parseVariadicOperandWithAttribute(
    OpAsmParser &parser,
    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands) {
  // Operands are each followed by a comma; a keyword ends the list.
  while (true) {
    OpAsmParser::UnresolvedOperand operand;
    OptionalParseResult parsed = parser.parseOptionalOperand(operand);
    if (!parsed.has_value())
      return success();
    if (failed(*parsed) || parser.parseComma())
      return failure();
    operands.push_back(operand);
  }
}

void printVariadicOperandWithAttribute(OpAsmPrinter &printer, Operation *,
                                       OperandRange operands) {
  for (Value operand : operands)
    printer << operand << ", ";
}

ParseResult parseDimList(AsmParser &parser, SmallVectorImpl<int64_t> &dims) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
    int64_t dim;
    if (parser.parseInteger(dim))
      return failure();
    dims.push_back(dim);
    return success();
  });
}

void printDimList(AsmPrinter &printer, ArrayRef<int64_t> dims) {
  printer << '[';
  llvm::interleaveComma(dims, printer);
  printer << ']';
}

ParseResult parseSliceRanges(OpAsmParser &parser, DenseI64ArrayAttr &start,
                             DenseI64ArrayAttr &limit,
                             DenseI64ArrayAttr &strides) {
  SmallVector<int64_t> starts, limits, steps;
  auto parseRange = [&]() -> ParseResult {
    int64_t s, l, st = 1;
    if (parser.parseInteger(s) || parser.parseColon() || parser.parseInteger(l))
      return failure();
    if (succeeded(parser.parseOptionalColon()) && parser.parseInteger(st))
      return failure();
    starts.push_back(s);
    limits.push_back(l);
    steps.push_back(st);
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseRange))
    return failure();
  Builder b(parser.getContext());
  start = b.getDenseI64ArrayAttr(starts);
  limit = b.getDenseI64ArrayAttr(limits);
  strides = b.getDenseI64ArrayAttr(steps);
  return success();
}

void printSliceRanges(OpAsmPrinter &printer, Operation *,
                      DenseI64ArrayAttr start, DenseI64ArrayAttr limit,
                      DenseI64ArrayAttr strides) {
  printer << " [";
  // Malformed (generic-form) slices may have lists of different lengths; the
  // verifier reports them, the printer must still not read out of bounds.
  size_t n = std::min({start.size(), limit.size(), strides.size()});
  for (size_t i = 0; i < n; ++i) {
    if (i)
      printer << ", ";
    printer << start[i] << ':' << limit[i];
    if (strides[i] != 1)
      printer << ':' << strides[i];
  }
  printer << ']';
}

ParseResult parseExponentMantissa(OpAsmParser &parser, IntegerAttr &exponent,
                                  IntegerAttr &mantissa) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  auto error = [&, text = keyword]() {
    return parser.emitError(loc, "expected a format like 'e5m10', got '")
           << text << "'";
  };
  size_t m = keyword.find('m');
  if (!keyword.consume_front("e") || m == StringRef::npos)
    return error();
  int32_t e, mant;
  if (keyword.substr(0, m - 1).getAsInteger(10, e) ||
      keyword.substr(m).getAsInteger(10, mant))
    return error();
  Builder b(parser.getContext());
  exponent = b.getI32IntegerAttr(e);
  mantissa = b.getI32IntegerAttr(mant);
  return success();
}

void printExponentMantissa(OpAsmPrinter &printer, Operation *,
                           IntegerAttr exponent, IntegerAttr mantissa) {
  printer << 'e' << exponent.getInt() << 'm' << mantissa.getInt();
}

/// `[DEFAULT, HIGHEST]` after `precision =`.
static ParseResult parsePrecisionList(OpAsmParser &parser, ArrayAttr &result) {
  SmallVector<Attribute> values;
  MLIRContext *ctx = parser.getContext();
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&]() -> ParseResult {
        SMLoc loc = parser.getCurrentLocation();
        StringRef keyword;
        if (parser.parseKeyword(&keyword))
          return failure();
        std::optional<Precision> value = symbolizePrecision(keyword);
        if (!value)
          return parser.emitError(loc, "unknown precision '") << keyword << "'";
        values.push_back(PrecisionAttr::get(ctx, *value));
        return success();
      }))
    return failure();
  result = ArrayAttr::get(ctx, values);
  return success();
}

static void printPrecisionList(OpAsmPrinter &printer, ArrayAttr precision) {
  printer << "precision = [";
  llvm::interleaveComma(precision, printer, [&](Attribute attr) {
    if (auto p = dyn_cast<PrecisionAttr>(attr))
      printer << stringifyPrecision(p.getValue());
    else
      printer << attr;
  });
  printer << ']';
}

ParseResult parsePrecisionConfig(OpAsmParser &parser, ArrayAttr &precision) {
  if (failed(parser.parseOptionalComma()))
    return success();
  if (parser.parseKeyword("precision") || parser.parseEqual())
    return failure();
  return parsePrecisionList(parser, precision);
}

void printPrecisionConfig(OpAsmPrinter &printer, Operation *,
                          ArrayAttr precision) {
  if (!precision)
    return;
  printer << ", ";
  printPrecisionList(printer, precision);
}

ParseResult parsePrecisionConfigAndAlgorithm(OpAsmParser &parser,
                                             ArrayAttr &precision,
                                             DotAlgorithmAttr &algorithm) {
  while (succeeded(parser.parseOptionalComma())) {
    if (succeeded(parser.parseOptionalKeyword("algorithm"))) {
      // `<...>`, printed without the `#stablehlo.dot_algorithm` prefix.
      if (parser.parseEqual() ||
          parser.parseCustomAttributeWithFallback(algorithm))
        return failure();
      continue;
    }
    if (parser.parseKeyword("precision") || parser.parseEqual() ||
        parsePrecisionList(parser, precision))
      return failure();
  }
  return success();
}

void printPrecisionConfigAndAlgorithm(OpAsmPrinter &printer, Operation *op,
                                      ArrayAttr precision,
                                      DotAlgorithmAttr algorithm) {
  printPrecisionConfig(printer, op, precision);
  if (!algorithm)
    return;
  printer << ", algorithm = ";
  printer.printStrippedAttrOrType(algorithm);
}

/// `name = [a, b] x [c, d]`.
static ParseResult parseDimPair(OpAsmParser &parser, StringRef name,
                                SmallVectorImpl<int64_t> &lhs,
                                SmallVectorImpl<int64_t> &rhs) {
  if (parser.parseKeyword(name) || parser.parseEqual() ||
      parseDimList(parser, lhs) || parser.parseKeyword("x") ||
      parseDimList(parser, rhs))
    return failure();
  return success();
}

ParseResult parseDotDimensionNumbers(OpAsmParser &parser,
                                     DotDimensionNumbersAttr &dims) {
  SmallVector<int64_t> lb, rb, lc, rc;
  if (succeeded(parser.parseOptionalKeyword("batching_dims"))) {
    if (parser.parseEqual() || parseDimList(parser, lb) ||
        parser.parseKeyword("x") || parseDimList(parser, rb) ||
        parser.parseComma())
      return failure();
  }
  if (parseDimPair(parser, "contracting_dims", lc, rc))
    return failure();
  dims = DotDimensionNumbersAttr::get(parser.getContext(), lb, rb, lc, rc);
  return success();
}

void printDotDimensionNumbers(OpAsmPrinter &printer, Operation *,
                              DotDimensionNumbersAttr dims) {
  if (!dims.getLhsBatchingDimensions().empty() ||
      !dims.getRhsBatchingDimensions().empty()) {
    printer << "batching_dims = ";
    printDimList(printer, dims.getLhsBatchingDimensions());
    printer << " x ";
    printDimList(printer, dims.getRhsBatchingDimensions());
    printer << ", ";
  }
  printer << "contracting_dims = ";
  printDimList(printer, dims.getLhsContractingDimensions());
  printer << " x ";
  printDimList(printer, dims.getRhsContractingDimensions());
}

ParseResult parseConvDimensions(OpAsmParser &parser,
                                ConvDimensionNumbersAttr &dims) {
  return parseConvDimensionNumbersBody(parser, dims);
}

void printConvDimensions(OpAsmPrinter &printer, Operation *,
                         ConvDimensionNumbersAttr dims) {
  printConvDimensionNumbersBody(printer, dims);
}

/// `pad = [[1, 1], [2, 2]]` into an Nx2 i64 elements attribute.
static ParseResult parsePadding(OpAsmParser &parser,
                                DenseIntElementsAttr &padding) {
  SmallVector<int64_t> values;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                     [&]() -> ParseResult {
        SmallVector<int64_t> pair;
        SMLoc loc = parser.getCurrentLocation();
        if (parseDimList(parser, pair))
          return failure();
        if (pair.size() != 2)
          return parser.emitError(loc, "expected [low, high] padding pair");
        values.append(pair);
        return success();
      }))
    return failure();
  auto type = RankedTensorType::get(
      {static_cast<int64_t>(values.size() / 2), 2},
      IntegerType::get(parser.getContext(), 64));
  padding = DenseIntElementsAttr::get(type, values);
  return success();
}

ParseResult parseWindowAttributes(OpAsmParser &parser,
                                  DenseI64ArrayAttr &strides,
                                  DenseIntElementsAttr &padding,
                                  DenseI64ArrayAttr &lhsDilation,
                                  DenseI64ArrayAttr &rhsDilation,
                                  DenseBoolArrayAttr &reversal) {
  Builder b(parser.getContext());
  llvm::StringSet<> seen;
  auto parseEntry = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (!seen.insert(key).second)
      return parser.emitError(loc, "duplicate window attribute '")
             << key << "'";
    if (key == "pad")
      return parsePadding(parser, padding);
    if (key == "reverse") {
      SmallVector<bool> flags;
      if (parser.parseCommaSeparatedList(
              AsmParser::Delimiter::Square, [&]() -> ParseResult {
                SMLoc flagLoc = parser.getCurrentLocation();
                if (succeeded(parser.parseOptionalKeyword("true"))) {
                  flags.push_back(true);
                  return success();
                }
                if (succeeded(parser.parseOptionalKeyword("false"))) {
                  flags.push_back(false);
                  return success();
                }
                // Older printers wrote the flags as 0 and 1.
                int64_t flag = -1;
                OptionalParseResult parsed = parser.parseOptionalInteger(flag);
                if (parsed.has_value() && failed(*parsed))
                  return failure();
                if (!parsed.has_value() || (flag != 0 && flag != 1))
                  return parser.emitError(flagLoc,
                                          "expected 'true', 'false', 0 or 1");
                flags.push_back(flag == 1);
                return success();
              }))
        return failure();
      reversal = b.getDenseBoolArrayAttr(flags);
      return success();
    }
    SmallVector<int64_t> values;
    if (key != "stride" && key != "lhs_dilate" && key != "rhs_dilate")
      return parser.emitError(loc, "unknown window attribute '") << key << "'";
    if (parseDimList(parser, values))
      return failure();
    DenseI64ArrayAttr attr = b.getDenseI64ArrayAttr(values);
    (key == "stride" ? strides : key == "lhs_dilate" ? lhsDilation
                                                     : rhsDilation) = attr;
    return success();
  };
  if (parser.parseLBrace())
    return failure();
  if (succeeded(parser.parseOptionalRBrace()))
    return success();
  do {
    if (parseEntry())
      return failure();
  } while (succeeded(parser.parseOptionalComma()));
  return parser.parseRBrace();
}

void printWindowAttributes(OpAsmPrinter &printer, Operation *,
                           DenseI64ArrayAttr strides,
                           DenseIntElementsAttr padding,
                           DenseI64ArrayAttr lhsDilation,
                           DenseI64ArrayAttr rhsDilation,
                           DenseBoolArrayAttr reversal) {
  printer << '{';
  SmallVector<std::function<void()>> entries;
  if (strides)
    entries.push_back([&] {
      printer << "stride = ";
      printDimList(printer, strides.asArrayRef());
    });
  if (padding)
    entries.push_back([&] {
      printer << "pad = [";
      SmallVector<int64_t> values(padding.getValues<int64_t>());
      for (size_t i = 0; i + 1 < values.size(); i += 2) {
        if (i)
          printer << ", ";
        printer << '[' << values[i] << ", " << values[i + 1] << ']';
      }
      printer << ']';
    });
  if (lhsDilation)
    entries.push_back([&] {
      printer << "lhs_dilate = ";
      printDimList(printer, lhsDilation.asArrayRef());
    });
  if (rhsDilation)
    entries.push_back([&] {
      printer << "rhs_dilate = ";
      printDimList(printer, rhsDilation.asArrayRef());
    });
  if (reversal)
    entries.push_back([&] {
      printer << "reverse = [";
      llvm::interleaveComma(reversal.asArrayRef(), printer,
                            [&](bool v) { printer << (v ? "true" : "false"); });
      printer << ']';
    });
  llvm::interleaveComma(entries, printer, [](auto &fn) { fn(); });
  printer << '}';
}

ParseResult parseCustomCallTarget(OpAsmParser &parser, StringAttr &target) {
  return parser.parseSymbolName(target);
}

void printCustomCallTarget(OpAsmPrinter &printer, Operation *,
                           StringAttr target) {
  printer.printSymbolName(target.getValue());
}

} // namespace toast::stablehlo
