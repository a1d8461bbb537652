//===- StablehloTypes.h - StableHLO types -----------------------*- C++ -*-===//
//
// `!stablehlo.token` (TokenType).
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_DIALECT_STABLEHLO_IR_STABLEHLOTYPES_H
#define TOAST_DIALECT_STABLEHLO_IR_STABLEHLOTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "toast/Dialect/StableHLO/IR/StablehloTypes.h.inc"

#endif // TOAST_DIALECT_STABLEHLO_IR_STABLEHLOTYPES_H
