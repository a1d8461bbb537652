//===- GspmdRegions.h - GSPMD manual regions as sdy regions -----*- C++ -*-===//
//
// Private to lib/toast/Export. GSPMD writes a shard_map region as custom
// calls: each operand goes through `@Sharding` (its global sharding) and
// `@SPMDFullToShardShape` (to the local shape), each result through
// `@Sharding {manual}` and `@SPMDShardToFullShape` (back to the global
// shape, with its global sharding). The ops in between are device-local.
// liftGspmdRegions turns every such region into an sdy.manual_computation
// on all mesh axes, so that the rest of Toast (import, lowering, toast-run)
// handles one form.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_LIB_EXPORT_GSPMDREGIONS_H
#define TOAST_LIB_EXPORT_GSPMDREGIONS_H

#include "toast/Dialect/PartIR/Core/IR/PartIRCore.h"
#include "toast/Export/HloSharding.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

namespace toast::xla {

/// Whether `op` is a `stablehlo.custom_call` to `target`.
bool isCustomCall(mlir::Operation *op, llvm::StringRef target);

/// The boundary custom calls of `func`'s GSPMD regions
/// (SPMDFullToShardShape and SPMDShardToFullShape), in block order.
llvm::SmallVector<mlir::Operation *>
findGspmdBoundaries(mlir::func::FuncOp func);

/// What one boundary op says about its region.
struct GspmdBoundary {
  /// The global value's per-dimension mesh axes.
  DimAxisNames dims;
  /// The mesh axes of its manual subgroup, when its local sharding is only
  /// partly manual (`last_tile_dims={manual, ...}`); empty when `{manual}`.
  llvm::SmallVector<std::string> manualAxes;
  /// Dimensions JAX left to the partitioner (`unspecified_dims=[...]` in
  /// the backend_config): open in the boundary sharding.
  llvm::SmallVector<int64_t> openDims;
};

/// The dimensions a GSPMD `@Sharding` or boundary call's backend_config
/// (`"unspecified_dims=[0,1]"`) leaves unspecified.
llvm::SmallVector<int64_t> getUnspecifiedDims(mlir::Operation *op);

/// Replaces the GSPMD regions of `func` by sdy.manual_computation ops on
/// `mesh` (an sdy.mesh is created when the module has none with its axes),
/// manual on the axes of their boundaries' manual subgroups (all axes when
/// the boundaries are `{manual}`). `boundaries` describes each boundary op
/// of findGspmdBoundaries. Fails with an error located at the region when
/// it uses values from outside other than constants, is used other than
/// through its boundary, or its boundaries disagree on the manual axes.
mlir::LogicalResult liftGspmdRegions(
    mlir::func::FuncOp func, toast::partir::MeshAttr mesh,
    const llvm::DenseMap<mlir::Operation *, GspmdBoundary> &boundaries);

} // namespace toast::xla

#endif // TOAST_LIB_EXPORT_GSPMDREGIONS_H
