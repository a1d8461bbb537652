//===- SubAxes.h - Mesh axes split where sub-axes cut them ------*- C++ -*-===//
//
// Private to lib/toast/Export. A Shardy sub-axis `"x":(m)k` is the part of
// size k of mesh axis "x" whose more major parts multiply to m. Toast's
// partitioning state knows whole mesh axes only, so the import splits each
// axis where the sub-axes it reads begin or end: on `"x"=8`, `"x":(1)2`
// makes the pieces `"x:(1)2"=2` and `"x:(2)4"=4` of the partitioning mesh.
// The pieces keep the device numbering (an axis split in a major and a
// minor part numbers devices row-major as before), so a sharding on the
// user's mesh and its pieces mean the same devices. Pieces are named in
// Shardy's sub-axis syntax so that the export can join them back.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_LIB_EXPORT_SUBAXES_H
#define TOAST_LIB_EXPORT_SUBAXES_H

#include "toast/Dialect/Sdy/IR/Sdy.h"
#include "toast/Export/HloSharding.h"

namespace toast::xla {

class AxisSplit {
public:
  /// Splits every axis of `mesh` where one of `refs` begins or ends. Fails,
  /// setting `error`, when two references cut one axis at points that do
  /// not nest (`"x":(1)2` and `"x":(1)3` on `"x"=6`).
  static llvm::FailureOr<AxisSplit> build(sdy::MeshAttr mesh,
                                          llvm::ArrayRef<sdy::AxisRefAttr> refs,
                                          std::string &error);
  /// The split a partitioning mesh of pieces was made with: pieces named
  /// `x:(m)k` that tile an axis in order are joined back into "x".
  static AxisSplit fromPieces(llvm::ArrayRef<MeshAxis> pieces);

  /// Whether some axis is split (the pieces differ from the user's mesh).
  bool isSplit() const;
  /// The pieces, in mesh order (whole axes keep their names).
  llvm::SmallVector<MeshAxis> getPieces() const;
  /// The user's mesh (whole axes, no device order).
  sdy::MeshAttr getUserMesh(mlir::MLIRContext *ctx) const;
  /// The mesh of pieces, for the shardings of rewritten regions.
  sdy::MeshAttr getPieceMesh(mlir::MLIRContext *ctx) const;
  /// The pieces making up `ref`, major first; empty for an unknown axis.
  llvm::SmallVector<std::string> expand(sdy::AxisRefAttr ref) const;
  /// The user's axis references for `pieces` (major first): runs of pieces
  /// of one axis join into one reference, the whole axis when they cover it.
  llvm::SmallVector<sdy::AxisRefAttr>
  join(mlir::MLIRContext *ctx, llvm::ArrayRef<std::string> pieces) const;
  /// `sharding`, on the user's mesh, rewritten on the inline mesh of pieces.
  sdy::TensorShardingAttr toPieces(sdy::TensorShardingAttr sharding) const;
  /// `sharding`, on the mesh of pieces, rewritten on `mesh` (the user's).
  sdy::TensorShardingAttr fromPieces(sdy::TensorShardingAttr sharding,
                                     mlir::FlatSymbolRefAttr mesh) const;

private:
  struct Axis {
    std::string name;
    int64_t size;
    /// Where the axis is cut, as products of the sizes of the more major
    /// parts: 1, ..., size.
    llvm::SmallVector<int64_t> cuts;
  };
  const Axis *find(llvm::StringRef name) const;
  llvm::SmallVector<sdy::AxisRefAttr>
  expandRefs(mlir::MLIRContext *ctx,
             llvm::ArrayRef<sdy::AxisRefAttr> refs) const;
  llvm::SmallVector<sdy::AxisRefAttr>
  joinRefs(mlir::MLIRContext *ctx, llvm::ArrayRef<sdy::AxisRefAttr> refs) const;

  llvm::SmallVector<Axis> axes;
};

/// Rewrites a shard_map region between the user's mesh and its pieces:
/// every in and out sharding through `map`, and its manual axes to
/// `manualAxes`.
void rewriteRegion(
    sdy::ManualComputationOp op,
    llvm::function_ref<sdy::TensorShardingAttr(sdy::TensorShardingAttr)> map,
    llvm::ArrayRef<std::string> manualAxes);

/// The name of the piece of `axis` from cut `lo` to cut `hi`.
std::string getPieceName(llvm::StringRef axis, int64_t lo, int64_t hi);

} // namespace toast::xla

#endif // TOAST_LIB_EXPORT_SUBAXES_H
