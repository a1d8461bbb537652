//===- StablehloDialect.h - StableHLO dialect -------------------*- C++ -*-===//
//
// Toast's StableHLO dialect (dialect name `stablehlo`, namespace
// toast::stablehlo). Include StablehloOps.h for the ops.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_DIALECT_STABLEHLO_IR_STABLEHLODIALECT_H
#define TOAST_DIALECT_STABLEHLO_IR_STABLEHLODIALECT_H

#include "mlir/IR/Dialect.h"

#include "toast/Dialect/StableHLO/IR/StablehloDialect.h.inc"

#endif // TOAST_DIALECT_STABLEHLO_IR_STABLEHLODIALECT_H
