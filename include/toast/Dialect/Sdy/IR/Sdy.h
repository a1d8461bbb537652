//===- Sdy.h - Minimal sdy dialect ------------------------------*- C++ -*-===//
//
// Mesh symbols, tensor shardings and sharding constraints in Shardy's
// syntax, so that Shardy-annotated programs parse and verify (see
// SdyBase.td). Has no dependency on PartIR.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_DIALECT_SDY_IR_SDY_H
#define TOAST_DIALECT_SDY_IR_SDY_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

namespace toast::sdy {
class MeshOp;
} // namespace toast::sdy

#include "toast/Dialect/Sdy/IR/SdyDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "toast/Dialect/Sdy/IR/SdyAttrs.h.inc"

#define GET_OP_CLASSES
#include "toast/Dialect/Sdy/IR/SdyOps.h.inc"

#endif // TOAST_DIALECT_SDY_IR_SDY_H
