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

/// The size of one of `n` chunks of a dimension of `size`: ceil(size / n).
/// When n does not divide size, the chunks are *padded*: chunk i holds rows
/// [i * c, min((i + 1) * c, size)) and the rest of its c rows is padding
/// (the last devices hold it, as GSPMD lays out uneven shardings).
inline int64_t chunkSize(int64_t size, int64_t n) {
  return size / n + (size % n != 0 ? 1 : 0);
}

/// Whether `n` chunks of `size` rows carry padding.
inline bool isPadded(int64_t size, int64_t n) { return size % n != 0; }

/// A located error, prefixed with `pass`, at the first op of `module` that
/// still carries the tactic passes' state (`partir.tiling` on arguments,
/// `partir.loops` on ops): a partitioning not rewritten into PartIR:Core
/// yet, which lowering, exporting or simulating would silently read as the
/// global program.
mlir::LogicalResult checkMaterialized(mlir::ModuleOp module,
                                      llvm::StringRef pass);

} // namespace toast::partir

#endif // TOAST_DIALECT_PARTIR_CORE_IR_PARTIRCORE_H
