//===- HloSharding.h - XLA HloSharding strings and mesh axes ----*- C++ -*-===//
//
// XLA describes a tensor's sharding with an HloSharding string such as
// `{devices=[4,1,2]<=[8] last_tile_dim_replicate}`: a tile assignment array
// whose shape is the number of tiles per dimension (plus, with
// `last_tile_dim_replicate`, the number of copies of each tile), filled
// with device ids, either listed (`{devices=[2,1]0,1}`) or as an iota
// (`<=[8]`: 0..7 in order; `<=[2,4]T(1,0)`: 0..7 reshaped to 2x4 and
// transposed).
//
// Toast describes the same thing with mesh axes: per tensor dimension, the
// mesh axes that split it, major to minor, devices being numbered row-major
// over the mesh axes. This file converts between the two:
//
//  * buildHloSharding: per-dimension axes -> HloSharding (always an iota);
//  * parseHloSharding / printHloSharding: the string syntax;
//  * decomposeHloSharding: HloSharding -> "device-space" axes (a row-major
//    factorization of the device ids) and which of them split which
//    dimension; mapToMesh and synthesizeMesh match these against a mesh.
//
// Only LLVM support code is used, so the functions are easy to unit-test.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_EXPORT_HLOSHARDING_H
#define TOAST_EXPORT_HLOSHARDING_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/LogicalResult.h"

#include <string>

namespace toast::xla {

/// One mesh axis, in the mesh's (row-major device) order.
struct MeshAxis {
  std::string name;
  int64_t size;
};

/// Per tensor dimension, the mesh axes splitting it, major to minor.
using DimAxisNames = llvm::SmallVector<llvm::SmallVector<std::string>>;

/// The subset of XLA's HloSharding that Toast reads and writes.
struct HloSharding {
  /// Unsupported: well-formed but not representable with mesh axes (tuple
  /// and subgroup shardings); `unsupported` says which.
  enum class Kind { Replicated, Tiled, Maximal, Manual, Unsupported };
  Kind kind = Kind::Replicated;
  std::string unsupported;
  /// What a trailing tile dimension that is not a tensor dimension holds:
  /// copies (`last_tile_dim_replicate`, `last_tile_dims={replicated}`) or
  /// the devices of a manual (shard_map) region (`last_tile_dims={manual}`).
  enum class Subgroup { Replicated, Manual };
  /// Tiles per dimension, followed by one size per subgroup.
  llvm::SmallVector<int64_t> tileDims;
  llvm::SmallVector<Subgroup> subgroups;
  /// Device list as an iota: `<=[reshape]T(perm)`; perm empty = identity.
  bool isIota = true;
  llvm::SmallVector<int64_t> iotaReshape;
  llvm::SmallVector<int64_t> iotaPerm;
  /// Device list given explicitly (when !isIota), row-major over tileDims.
  llvm::SmallVector<int64_t> devices;
  /// Device of a `{maximal device=N}` sharding.
  int64_t maximalDevice = 0;

  /// Number of devices of a tiled sharding (product of tileDims).
  int64_t getNumDevices() const;
  /// Number of tensor dimensions of a tiled sharding.
  int64_t getTensorRank() const { return tileDims.size() - subgroups.size(); }
  /// Whether the sharding is manual on some devices' axes (a partly manual
  /// region's value).
  bool hasManualSubgroup() const {
    return llvm::is_contained(subgroups, Subgroup::Manual);
  }
  /// The device list row-major over tileDims (materializes an iota).
  llvm::SmallVector<int64_t> getDeviceList() const;
};

/// Parses `{replicated}`, `{manual}`, `{maximal device=N}` and tiled
/// shardings (iota or explicit device lists, `last_tile_dim_replicate`,
/// `last_tile_dims={manual, replicated}`). `metadata={...}` is skipped;
/// tuples parse as Kind::Unsupported. On failure `error` says what is wrong.
llvm::FailureOr<HloSharding> parseHloSharding(llvm::StringRef text,
                                              std::string &error);

/// Splits a tuple sharding `{{...}, {...}}` (a multi-result op's) into the
/// text of its elements. Fails, setting `error`, on anything else.
llvm::LogicalResult
splitHloTupleSharding(llvm::StringRef text,
                      llvm::SmallVectorImpl<llvm::StringRef> &elements,
                      std::string &error);

/// Prints in XLA's syntax (iota device lists in the `<=[...]` form).
std::string printHloSharding(const HloSharding &sharding);

/// The HloSharding of a tensor whose dimension d is split by `dims[d]`
/// (major to minor) on `mesh`. Axes of `mesh` that no dimension uses
/// replicate the tensor (`last_tile_dim_replicate`); no axis at all gives
/// `{replicated}`. The iota is canonical: size-1 axes are dropped and axes
/// that stay adjacent are merged, so an unpermuted order prints `<=[N]`.
/// A value inside a manual region (shard_map) on the axes `manual` gets a
/// manual subgroup of them before the copies
/// (`last_tile_dims={manual, replicated}`), as GSPMD writes such values.
/// Fails on unknown or repeated axes.
llvm::FailureOr<HloSharding>
buildHloSharding(llvm::ArrayRef<MeshAxis> mesh, const DimAxisNames &dims,
                 std::string &error, llvm::ArrayRef<std::string> manual = {});

/// A tiled sharding as axes of the device space: `axisSizes` factor the
/// device ids row-major (major first); `dimAxes[d]` lists, major to minor,
/// the axes splitting tensor dimension d; `replicatedAxes` those carrying
/// copies, `manualAxes` those of a manual subgroup.
struct AxisDecomposition {
  llvm::SmallVector<int64_t> axisSizes;
  llvm::SmallVector<llvm::SmallVector<unsigned>> dimAxes;
  llvm::SmallVector<unsigned> replicatedAxes;
  llvm::SmallVector<unsigned> manualAxes;
  int64_t getNumDevices() const;
};

/// Decomposes a tiled sharding. Explicit device lists are accepted when they
/// are an iota over some order of the tile dimensions. Fails (setting
/// `error`) when the device order is not a product of axes.
llvm::FailureOr<AxisDecomposition>
decomposeHloSharding(const HloSharding &sharding, std::string &error);

/// Expresses `decomposition` with the axes of `mesh`: per tensor dimension
/// the mesh axes (major to minor), and in `replicated` the mesh axes
/// carrying copies (and, given `manual`, there the mesh axes of a manual
/// subgroup). Fails when the device counts differ, a device-space axis does
/// not fall on mesh axis boundaries, or a manual subgroup has nowhere to go.
llvm::FailureOr<DimAxisNames>
mapToMesh(const AxisDecomposition &decomposition, llvm::ArrayRef<MeshAxis> mesh,
          llvm::SmallVectorImpl<std::string> &replicated, std::string &error,
          llvm::SmallVectorImpl<std::string> *manual = nullptr);

/// The coarsest mesh (sizes, major first) on which every decomposition can
/// be expressed. Fails when device counts differ or the device orders are
/// not nested (no common factorization).
llvm::FailureOr<llvm::SmallVector<int64_t>>
synthesizeMeshSizes(llvm::ArrayRef<AxisDecomposition> decompositions,
                    std::string &error);

} // namespace toast::xla

#endif // TOAST_EXPORT_HLOSHARDING_H
