//===- PartIRCore.h - PartIR:Core dialect -----------------------*- C++ -*-===//
#ifndef TOAST_DIALECT_PARTIR_CORE_IR_PARTIRCORE_H
#define TOAST_DIALECT_PARTIR_CORE_IR_PARTIRCORE_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "toast/Interfaces/ShardingRule.h"

#include "toast/Dialect/PartIR/Core/IR/PartIRCoreDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "toast/Dialect/PartIR/Core/IR/PartIRCoreTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "toast/Dialect/PartIR/Core/IR/PartIRCoreAttrs.h.inc"

#define GET_OP_CLASSES
#include "toast/Dialect/PartIR/Core/IR/PartIRCoreOps.h.inc"

namespace toast::partir {

/// The mesh of the module enclosing `op` (attribute `partir.mesh`), or null.
MeshAttr getMesh(mlir::Operation *op);

} // namespace toast::partir

#endif // TOAST_DIALECT_PARTIR_CORE_IR_PARTIRCORE_H
