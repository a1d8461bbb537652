//===- StablehloAttrs.h - StableHLO attributes and enums --------*- C++ -*-===//
#ifndef TOAST_DIALECT_STABLEHLO_IR_STABLEHLOATTRS_H
#define TOAST_DIALECT_STABLEHLO_IR_STABLEHLOATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "toast/Dialect/StableHLO/IR/StablehloEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "toast/Dialect/StableHLO/IR/StablehloAttrs.h.inc"

#endif // TOAST_DIALECT_STABLEHLO_IR_STABLEHLOATTRS_H
