//===- Passes.h - Export to and import from XLA/Shardy ----------*- C++ -*-===//
#ifndef TOAST_EXPORT_PASSES_H
#define TOAST_EXPORT_PASSES_H

#include "toast/Dialect/PartIR/Core/IR/PartIRCore.h"
#include "toast/Dialect/PartIR/HLO/IR/PartIRHLO.h"
#include "toast/Dialect/Sdy/IR/Sdy.h"
#include "toast/Dialect/StableHLO/IR/StablehloDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace toast::xla {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "toast/Export/Passes.h.inc"

/// Rewrites the device-local PartIR:HLO `module` into StableHLO with
/// explicit collectives (what --partir-export-stablehlo does).
mlir::LogicalResult exportToStablehlo(mlir::ModuleOp module);

/// Which annotations exportShardings writes.
struct ShardingExportOptions {
  bool mhlo = true;
  bool sdy = true;
  std::string meshName = "mesh";
  /// Every op result and reshard (scope=all), or only the entry function's
  /// arguments and results (scope=boundary).
  bool wholeProgram = true;
};

/// Annotates the entry function of the global `module` with the shardings
/// of its saved partitioning state (what --partir-export-shardings does).
mlir::LogicalResult exportShardings(mlir::ModuleOp module,
                                    const ShardingExportOptions &options);

/// Options of importShardings.
struct ShardingImportOptions {
  bool atomic = true;
};

/// Imports `sdy.sharding` / `mhlo.sharding` annotations of the entry
/// function of `module` as tile (and atomic) actions, propagates and saves
/// the state (what --partir-import-shardings does).
mlir::LogicalResult importShardings(mlir::ModuleOp module,
                                    const ShardingImportOptions &options);

/// Replaces the GSPMD form of shard_map regions in `func` (`@Sharding` +
/// `@SPMDFullToShardShape` into the region, `@Sharding {manual}` +
/// `@SPMDShardToFullShape` out of it) by sdy.manual_computation ops on all
/// mesh axes, the mesh being the one the annotations give (an sdy.mesh is
/// added when needed). importShardings does this first; toast-run does it
/// to run such programs. Fails with a located error on regions it cannot
/// read.
mlir::LogicalResult liftGspmdManualRegions(mlir::func::FuncOp func);

/// Removes the sharding annotations importShardings reads.
void dropShardings(mlir::ModuleOp module);

} // namespace toast::xla

#endif // TOAST_EXPORT_PASSES_H
