//===- StablehloAssemblyFormat.h - Custom directives ------------*- C++ -*-===//
//
// Parsers and printers for the `custom<...>` directives of the StableHLO op
// formats. They reproduce the syntax JAX/PyTorch exports print.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_DIALECT_STABLEHLO_IR_STABLEHLOASSEMBLYFORMAT_H
#define TOAST_DIALECT_STABLEHLO_IR_STABLEHLOASSEMBLYFORMAT_H

#include "mlir/IR/OpImplementation.h"
#include "toast/Dialect/StableHLO/IR/StablehloAttrs.h"

namespace toast::stablehlo {

//===- Types ---------------------------------------------------------------===//

/// `T` when all operand and result types equal T, else `(T0, T1) -> R`.
mlir::ParseResult parseSameOperandsAndResultTypeImpl(
    mlir::OpAsmParser &parser, llvm::ArrayRef<mlir::Type *> operands,
    mlir::Type &result);
void printSameOperandsAndResultTypeImpl(mlir::OpAsmPrinter &printer,
                                        mlir::TypeRange operands,
                                        mlir::Type result);

template <typename... Ts>
mlir::ParseResult parseSameOperandsAndResultType(mlir::OpAsmParser &parser,
                                                 Ts &...types) {
  mlir::Type *all[] = {&types...};
  constexpr size_t n = sizeof...(Ts);
  return parseSameOperandsAndResultTypeImpl(
      parser, llvm::ArrayRef<mlir::Type *>(all, n - 1), *all[n - 1]);
}
template <typename... Ts>
void printSameOperandsAndResultType(mlir::OpAsmPrinter &printer,
                                    mlir::Operation *, Ts... types) {
  mlir::Type all[] = {types...};
  constexpr size_t n = sizeof...(Ts);
  printSameOperandsAndResultTypeImpl(
      printer, mlir::TypeRange(llvm::ArrayRef<mlir::Type>(all, n - 1)),
      all[n - 1]);
}

/// `complex<T>` tensor type, operands derived (`tensor<..xT>`), or a function
/// type.
mlir::ParseResult parseComplexOpType(mlir::OpAsmParser &parser,
                                     mlir::Type &lhs, mlir::Type &rhs,
                                     mlir::Type &result);
void printComplexOpType(mlir::OpAsmPrinter &printer, mlir::Operation *,
                        mlir::Type lhs, mlir::Type rhs, mlir::Type result);

/// `pred_type, value_type` or a function type.
mlir::ParseResult parseSelectOpType(mlir::OpAsmParser &parser,
                                    mlir::Type &pred, mlir::Type &onTrue,
                                    mlir::Type &onFalse, mlir::Type &result);
void printSelectOpType(mlir::OpAsmPrinter &printer, mlir::Operation *,
                       mlir::Type pred, mlir::Type onTrue, mlir::Type onFalse,
                       mlir::Type result);

/// `tuple<T0, T1>`: the result type, whose element types the operands have;
/// a function type `(T0, T1) -> tuple<...>` is accepted too.
mlir::ParseResult parseTupleOpType(mlir::OpAsmParser &parser,
                                   llvm::SmallVectorImpl<mlir::Type> &operands,
                                   mlir::Type &result);
void printTupleOpType(mlir::OpAsmPrinter &printer, mlir::Operation *,
                      mlir::TypeRange operands, mlir::Type result);

//===- Operands and attributes ---------------------------------------------===//

/// `%a, %b, ` : operands each followed by a comma (before a keyword).
mlir::ParseResult parseVariadicOperandWithAttribute(
    mlir::OpAsmParser &parser,
    llvm::SmallVectorImpl<mlir::OpAsmParser::UnresolvedOperand> &operands);
void printVariadicOperandWithAttribute(mlir::OpAsmPrinter &printer,
                                       mlir::Operation *,
                                       mlir::OperandRange operands);

/// `[0:2, 1:4:2]`.
mlir::ParseResult parseSliceRanges(mlir::OpAsmParser &parser,
                                   mlir::DenseI64ArrayAttr &start,
                                   mlir::DenseI64ArrayAttr &limit,
                                   mlir::DenseI64ArrayAttr &strides);
void printSliceRanges(mlir::OpAsmPrinter &printer, mlir::Operation *,
                      mlir::DenseI64ArrayAttr start,
                      mlir::DenseI64ArrayAttr limit,
                      mlir::DenseI64ArrayAttr strides);

/// `e5m10`.
mlir::ParseResult parseExponentMantissa(mlir::OpAsmParser &parser,
                                        mlir::IntegerAttr &exponent,
                                        mlir::IntegerAttr &mantissa);
void printExponentMantissa(mlir::OpAsmPrinter &printer, mlir::Operation *,
                           mlir::IntegerAttr exponent,
                           mlir::IntegerAttr mantissa);

/// `, precision = [DEFAULT, HIGHEST]` (optional).
mlir::ParseResult parsePrecisionConfig(mlir::OpAsmParser &parser,
                                       mlir::ArrayAttr &precision);
void printPrecisionConfig(mlir::OpAsmPrinter &printer, mlir::Operation *,
                          mlir::ArrayAttr precision);

/// `batching_dims = [0] x [0], contracting_dims = [2] x [1]`.
mlir::ParseResult parseDotDimensionNumbers(mlir::OpAsmParser &parser,
                                           DotDimensionNumbersAttr &dims);
void printDotDimensionNumbers(mlir::OpAsmPrinter &printer, mlir::Operation *,
                              DotDimensionNumbersAttr dims);

/// Optional `, precision = [...]` then optional `, algorithm = <...>`.
mlir::ParseResult parsePrecisionConfigAndAlgorithm(mlir::OpAsmParser &parser,
                                                   mlir::ArrayAttr &precision,
                                                   DotAlgorithmAttr &algorithm);
void printPrecisionConfigAndAlgorithm(mlir::OpAsmPrinter &printer,
                                      mlir::Operation *,
                                      mlir::ArrayAttr precision,
                                      DotAlgorithmAttr algorithm);

/// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`.
mlir::ParseResult parseConvDimensions(mlir::OpAsmParser &parser,
                                      ConvDimensionNumbersAttr &dims);
void printConvDimensions(mlir::OpAsmPrinter &printer, mlir::Operation *,
                         ConvDimensionNumbersAttr dims);

/// The body of `window = {stride = [..], pad = [[..]], lhs_dilate = [..],
/// rhs_dilate = [..], reverse = [..]}`. `reverse` takes `true`/`false` or,
/// as older printers wrote it, `1`/`0`.
mlir::ParseResult parseWindowAttributes(mlir::OpAsmParser &parser,
                                        mlir::DenseI64ArrayAttr &strides,
                                        mlir::DenseIntElementsAttr &padding,
                                        mlir::DenseI64ArrayAttr &lhsDilation,
                                        mlir::DenseI64ArrayAttr &rhsDilation,
                                        mlir::DenseBoolArrayAttr &reversal);
void printWindowAttributes(mlir::OpAsmPrinter &printer, mlir::Operation *,
                           mlir::DenseI64ArrayAttr strides,
                           mlir::DenseIntElementsAttr padding,
                           mlir::DenseI64ArrayAttr lhsDilation,
                           mlir::DenseI64ArrayAttr rhsDilation,
                           mlir::DenseBoolArrayAttr reversal);

/// `@target` (a symbol name, quoted when needed).
mlir::ParseResult parseCustomCallTarget(mlir::OpAsmParser &parser,
                                        mlir::StringAttr &target);
void printCustomCallTarget(mlir::OpAsmPrinter &printer, mlir::Operation *,
                           mlir::StringAttr target);

//===- Shared by attribute and op parsers -----------------------------------===//

/// `[1, 2, 3]` (possibly empty).
mlir::ParseResult parseDimList(mlir::AsmParser &parser,
                               llvm::SmallVectorImpl<int64_t> &dims);
void printDimList(mlir::AsmPrinter &printer, llvm::ArrayRef<int64_t> dims);

/// The body of `#stablehlo.conv<...>`: the short `[b, 0, 1, f]x[...]->[...]`
/// form or the `raw key = value, ...` form.
mlir::ParseResult
parseConvDimensionNumbersBody(mlir::AsmParser &parser,
                              ConvDimensionNumbersAttr &dims);
void printConvDimensionNumbersBody(mlir::AsmPrinter &printer,
                                   ConvDimensionNumbersAttr dims);

} // namespace toast::stablehlo

#endif // TOAST_DIALECT_STABLEHLO_IR_STABLEHLOASSEMBLYFORMAT_H
