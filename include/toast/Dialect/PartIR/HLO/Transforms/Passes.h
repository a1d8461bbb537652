//===- Passes.h - PartIR:HLO passes -----------------------------*- C++ -*-===//
#ifndef TOAST_DIALECT_PARTIR_HLO_TRANSFORMS_PASSES_H
#define TOAST_DIALECT_PARTIR_HLO_TRANSFORMS_PASSES_H

#include "toast/Dialect/PartIR/HLO/IR/PartIRHLO.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

#include <optional>

namespace toast::partir_hlo {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "toast/Dialect/PartIR/HLO/Transforms/Passes.h.inc"

/// The collective fusions of partir-optimize-collectives.
void populateCollectiveOptimizationPatterns(mlir::RewritePatternSet &patterns);

/// Runs the collective fusions (and folding) on `op` to a fixed point.
mlir::LogicalResult optimizeCollectives(mlir::Operation *op);

/// Whether the all_slice or all_gather `op` cuts a dimension its `dims`'
/// axes of `mesh` do not divide (docs/dialects.md). Its chunks then are
/// laid out over exactly those axes, so no pattern may regroup it with
/// other axes or turn it into a reduce_scatter or all_to_all (which do not
/// pad). Without a mesh: whether some cut size does not divide the other
/// (OptimizeCollectives.cpp).
bool isPadded(mlir::Operation *op, mlir::ArrayAttr dims,
              toast::partir::MeshAttr mesh);

/// How the axes of `longer` continue those of `prefix` in every dimension,
/// or std::nullopt if `prefix` is not a per-dimension prefix of `longer`
/// (OptimizeCollectives.cpp).
std::optional<DimAxes> suffixAfterPrefix(const DimAxes &prefix,
                                         const DimAxes &longer);

/// Lowers every partir.loop in `func` (innermost first) to collectives.
mlir::LogicalResult lowerCoreLoops(mlir::func::FuncOp func);

/// Replaces every sdy.manual_computation (shard_map) of `module` by its
/// body on the manual axes' local shards, between an all_slice of each
/// operand and an all_gather of each result (which the collective optimizer
/// cancels against the lowering's gathers and slices where layouts match).
/// Fails with an error at the op when its mesh is not `mesh` or a manual
/// axis is split into sub-axes.
mlir::LogicalResult inlineManualComputations(mlir::ModuleOp module,
                                             toast::partir::MeshAttr mesh);

/// Checks, with an error at the first op that fails, that every
/// sdy.manual_computation under `root` runs on `mesh` (what
/// inlineManualComputations needs), so that a pass can refuse a mesh up
/// front instead of failing to lower each candidate.
mlir::LogicalResult checkManualComputationMeshes(mlir::Operation *root,
                                                 toast::partir::MeshAttr mesh);

/// Checks, with an error (prefixed by `context`) at the first op that fails,
/// that the stablehlo collectives under `root` (replica_groups and
/// source_target_pairs; -1 pads a group) name devices of `mesh` only, that
/// the module's mhlo.num_partitions, if any, is the mesh's device count, and
/// that replica groups over global device ids hold every device. Lowering
/// keeps these collectives as they are, so every path that partitions a
/// program checks them here.
mlir::LogicalResult checkCollectiveDevices(mlir::Operation *root,
                                           toast::partir::MeshAttr mesh,
                                           llvm::StringRef context);

/// Makes the tied values of `func`'s loops and conditionals device-local
/// where every use of the class slices it the same way, or (evenly tiled
/// on `mesh`) with more axes after the fewest (innermost loops first).
/// Returns whether anything changed.
bool localizeTiedValues(mlir::func::FuncOp func, toast::partir::MeshAttr mesh);

/// Argument and result attribute of a PartIR:Core function: the mesh axes
/// (a list of strings) on which the caller passes the argument, or takes
/// the result, whole (materializeCore writes it for values atomic in the
/// sharding state). makeBoundaryDeviceLocal keeps them whole on those axes.
inline constexpr llvm::StringLiteral kKeepWholeAttr = "partir.keep_whole";

/// Makes `func`'s boundary device-local and records shardings and the mesh;
/// `partir.keep_whole` arguments and results stay whole on their axes.
void makeBoundaryDeviceLocal(mlir::func::FuncOp func,
                             toast::partir::MeshAttr mesh);

/// Removes `partir.keep_whole` from `func`'s arguments and results (a
/// boundary lowering leaves global has nothing to keep).
void dropKeepWhole(mlir::func::FuncOp func);

/// The options of --partir-lower-to-hlo.
struct LoweringOptions {
  /// Optimize collectives (after lowering, and again after localizing tied
  /// values).
  bool optimize = true;
  /// Make the boundary of public functions device-local.
  bool boundary = true;
};

/// What --partir-lower-to-hlo does to the functions `funcs` of `module`
/// (materialized PartIR:Core programs): lowers their loops, inlines
/// shard_map bodies (inlineManualComputations), optimizes the collectives,
/// makes loop-carried and branch values device-local (and optimizes again
/// what that exposes), then makes the boundary of the public ones
/// device-local. The pass and every path that prices or exports a
/// partitioned copy (schedules, the search's reference simulation,
/// shardings export) lower through this one function, so they all see the
/// program the pass makes.
mlir::LogicalResult lowerToDeviceLocal(mlir::ModuleOp module,
                                       llvm::ArrayRef<mlir::func::FuncOp> funcs,
                                       toast::partir::MeshAttr mesh,
                                       const LoweringOptions &options = {});
/// The same for one entry function.
inline mlir::LogicalResult lowerToDeviceLocal(mlir::ModuleOp module,
                                              mlir::func::FuncOp func,
                                              toast::partir::MeshAttr mesh) {
  return lowerToDeviceLocal(module, llvm::ArrayRef(func), mesh);
}

} // namespace toast::partir_hlo

#endif // TOAST_DIALECT_PARTIR_HLO_TRANSFORMS_PASSES_H
