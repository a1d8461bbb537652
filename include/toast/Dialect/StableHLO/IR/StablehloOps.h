//===- StablehloOps.h - StableHLO operations --------------------*- C++ -*-===//
//
// All StableHLO op classes of toast, grouped by the .td file that defines
// them: elementwise, shape (data movement), compute, control.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_DIALECT_STABLEHLO_IR_STABLEHLOOPS_H
#define TOAST_DIALECT_STABLEHLO_IR_STABLEHLOOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "toast/Dialect/StableHLO/IR/StablehloAttrs.h"
#include "toast/Dialect/StableHLO/IR/StablehloDialect.h"
#include "toast/Dialect/StableHLO/IR/StablehloTypes.h"

#define GET_OP_CLASSES
#include "toast/Dialect/StableHLO/IR/StablehloElementwiseOps.h.inc"
#define GET_OP_CLASSES
#include "toast/Dialect/StableHLO/IR/StablehloShapeOps.h.inc"
#define GET_OP_CLASSES
#include "toast/Dialect/StableHLO/IR/StablehloComputeOps.h.inc"
#define GET_OP_CLASSES
#include "toast/Dialect/StableHLO/IR/StablehloControlOps.h.inc"

#endif // TOAST_DIALECT_STABLEHLO_IR_STABLEHLOOPS_H
