//===- ChloOps.h - CHLO dialect and ops -------------------------*- C++ -*-===//
#ifndef TOAST_DIALECT_CHLO_IR_CHLOOPS_H
#define TOAST_DIALECT_CHLO_IR_CHLOOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "toast/Dialect/CHLO/IR/ChloOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "toast/Dialect/CHLO/IR/ChloOps.h.inc"

#endif // TOAST_DIALECT_CHLO_IR_CHLOOPS_H
