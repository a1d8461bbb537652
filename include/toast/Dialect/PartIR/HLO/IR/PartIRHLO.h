//===- PartIRHLO.h - PartIR:HLO dialect -------------------------*- C++ -*-===//
#ifndef TOAST_DIALECT_PARTIR_HLO_IR_PARTIRHLO_H
#define TOAST_DIALECT_PARTIR_HLO_IR_PARTIRHLO_H

#include "toast/Dialect/PartIR/Core/IR/PartIRCore.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace toast::partir_hlo {

/// Whether `attr` is an array (one per dimension) of arrays of strings.
bool isDimAxes(mlir::Attribute attr);

/// The names in an array of axis names (all_reduce's and all_to_all's
/// `axes`, one dimension of a per-dimension list).
llvm::SmallVector<std::string> getAxisNames(mlir::ArrayAttr attr);

/// Per-dimension axes as vectors.
using DimAxes = llvm::SmallVector<llvm::SmallVector<std::string>>;
DimAxes getDimAxes(mlir::ArrayAttr attr);
mlir::ArrayAttr buildDimAxes(mlir::MLIRContext *ctx, const DimAxes &axes);

/// `[{"B"}, {}]`.
mlir::ParseResult parseDimAxes(mlir::OpAsmParser &parser,
                               mlir::ArrayAttr &dims);
void printDimAxes(mlir::OpAsmPrinter &printer, mlir::Operation *,
                  mlir::ArrayAttr dims);

} // namespace toast::partir_hlo

#include "toast/Dialect/PartIR/HLO/IR/PartIRHLODialect.h.inc"

#define GET_OP_CLASSES
#include "toast/Dialect/PartIR/HLO/IR/PartIRHLOOps.h.inc"

namespace toast::partir_hlo {

/// The splat constant `op` takes an even chunk of (no padding), null
/// otherwise. Every device's chunk is then the same smaller splat: the
/// export writes that constant, and the simulator and the analytic cost
/// price the slice as one (fused into its readers, free).
mlir::DenseElementsAttr getSlicedSplat(AllSliceOp op);

} // namespace toast::partir_hlo

#endif // TOAST_DIALECT_PARTIR_HLO_IR_PARTIRHLO_H
