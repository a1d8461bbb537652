//===- WholeStrategy.h - Every value's sharding, out and back in -*- C++
//-*-===//
//
// Private to lib/toast/Export. The whole-strategy form of the shardings
// export writes, besides the entry function's boundary, the sharding of
// every op result and a sharding constraint wherever a reader needs a value
// in another layout than its producer gives it. The import reads that form
// back into exactly the partitioning state it came from:
//
//  * an op's loop nest is rebuilt from its annotations: the axes sharding
//    its results are its parallel factors, the axes of an operand as the op
//    reads it (its producer's sharding, or the constraint in between) that
//    no result has are its reduction factors;
//  * a loop's or conditional's tied class takes the sharding of the region
//    op's result;
//  * an `sdy.reshard` that is the only reader of a value and only adds axes
//    to it says that the value is held in that layout beyond what its
//    producer computes (an explicit tiling); a sharding constraint (sdy or
//    `@Sharding`) is its readers' reshard. The GSPMD form has no reshard:
//    there an explicit tiling becomes a reshard of each reader.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_LIB_EXPORT_WHOLESTRATEGY_H
#define TOAST_LIB_EXPORT_WHOLESTRATEGY_H

#include "SubAxes.h"

#include "toast/Export/HloSharding.h"
#include "toast/Export/Passes.h"
#include "toast/Partition/ShardingState.h"

#include "llvm/ADT/DenseMap.h"

namespace toast::xla {

/// Writes per-dimension mesh axes as the annotations the export options ask
/// for.
class ShardingWriter {
public:
  ShardingWriter(mlir::ModuleOp module, partir::MeshAttr mesh,
                 const ShardingExportOptions &options);

  /// Sets `mhlo.sharding` and/or `sdy.sharding` through `set` (function
  /// arguments and results); errors are located at `anchor`.
  mlir::LogicalResult
  annotate(const DimAxisNames &dims, mlir::Operation *anchor,
           llvm::function_ref<void(llvm::StringRef, mlir::Attribute)> set);
  /// Annotates the results of `op`: an HloSharding (a tuple of them for
  /// several results) and an sdy sharding per value with `replicated` axes.
  mlir::LogicalResult
  annotateOp(mlir::Operation *op, llvm::ArrayRef<DimAxisNames> results,
             llvm::ArrayRef<llvm::SmallVector<std::string>> replicated);
  /// A constraint giving `value` the sharding `dims`, at the builder's
  /// insertion point: in the sdy form an `sdy.reshard` when the value is
  /// `held` so for all its readers, else an `sdy.sharding_constraint`; a
  /// `@Sharding` custom call in the other forms.
  mlir::FailureOr<mlir::Value> constrain(mlir::OpBuilder &b, mlir::Location loc,
                                         mlir::Value value,
                                         const DimAxisNames &dims, bool held);
  /// Rewrites the shardings of the shard_map regions of `module` that the
  /// import put on the pieces of split axes (SubAxes.h) onto the exported
  /// mesh, with sub-axes.
  void joinRegions(mlir::ModuleOp module);

private:
  /// The HloSharding of a value of `block` (manual in a shard_map body).
  mlir::FailureOr<std::string> hloString(const DimAxisNames &dims,
                                         mlir::Operation *anchor,
                                         mlir::Block *block);
  sdy::TensorShardingAttr
  sdySharding(const DimAxisNames &dims,
              llvm::ArrayRef<std::string> replicated = {});

  mlir::MLIRContext *ctx;
  const ShardingExportOptions &options;
  llvm::SmallVector<MeshAxis> axes;
  /// The user's axes when the partitioning mesh splits some (sub-axes).
  AxisSplit split;
  sdy::MeshOp sdyMesh;
};

/// Per-dimension axes of a tiling (levels of one dimension in order, major
/// first).
DimAxisNames toDimAxes(llvm::ArrayRef<partition::AxisDim> tiling,
                       mlir::Type type);

/// Annotates every op result of `func` (and the ops of loop and conditional
/// bodies) with the sharding `state` gives it and inserts constraints where
/// a reader needs another layout. `argShardings` are the shardings written
/// on the arguments.
mlir::LogicalResult annotateWholeProgram(mlir::func::FuncOp func,
                                         partition::ShardingState &state,
                                         llvm::ArrayRef<DimAxisNames> args,
                                         ShardingWriter &writer);

/// The whole-strategy annotations of a function, read by the import.
struct WholeShardings {
  /// Shardings of arguments and op results as annotated.
  llvm::DenseMap<mlir::Value, DimAxisNames> held;
  /// How a reader reads its operand, where a constraint said so.
  llvm::DenseMap<mlir::OpOperand *, DimAxisNames> asRead;
  /// Values held in a layout beyond their producer's (explicit tilings).
  llvm::DenseMap<mlir::Value, DimAxisNames> extended;
  /// Axes a value is kept whole on.
  llvm::DenseMap<mlir::Value, llvm::SmallVector<std::string>> atomic;
};

/// Whether some op of `func` other than a constraint carries a sharding
/// (the whole-strategy form).
bool hasOpShardings(mlir::func::FuncOp func);

/// Records a constraint `op` on `input` with sharding `dims` into `whole`:
/// an extension of its input or a reader's reshard (see above).
void recordConstraint(mlir::Operation *op, mlir::Value input,
                      const DimAxisNames &dims, WholeShardings &whole);

/// Sets the loop nests, tied-class nests, explicit tilings and atomic axes
/// of `state` from `whole`; propagates only when some op with a sharding
/// rule has no annotation. Errors are located at the op whose annotation
/// cannot be followed.
mlir::LogicalResult applyWholeShardings(partition::ShardingState &state,
                                        const WholeShardings &whole);

} // namespace toast::xla

#endif // TOAST_LIB_EXPORT_WHOLESTRATEGY_H
