//===- CostModel.h - Per-op analytical costs --------------------*- C++ -*-===//
//
// The pieces of the simulator that price one op in isolation: FLOPs of
// contractions, bytes moved, and ring collectives with α-β terms. The
// simulator (Simulator.h) accumulates them along the program; the search
// reuses them to score states without rewriting IR.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_SIMULATOR_COSTMODEL_H
#define TOAST_SIMULATOR_COSTMODEL_H

#include "toast/Dialect/PartIR/Core/IR/PartIRCore.h"
#include "toast/Simulator/Device.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace toast::sim {

/// The collective kinds the simulator prices and counts (PartIR table 2
/// counts the first four).
enum class CollectiveKind {
  AllGather,
  AllReduce,
  ReduceScatter,
  AllToAll,
  CollectivePermute,
};
constexpr unsigned kNumCollectiveKinds = 5;

/// `all_gather`, `all_reduce`, `reduce_scatter`, `all_to_all`,
/// `collective_permute`.
llvm::StringRef getCollectiveKindName(CollectiveKind kind);

/// Time and traffic of one collective on one device.
struct CollectiveCost {
  /// Seconds: `steps * latency + bytes / bandwidth`.
  double time = 0;
  /// Bytes this device sends over its links.
  double bytes = 0;
  /// Ring steps (latency terms).
  int64_t steps = 0;
};

/// Prices a collective over a group of `groupSize` devices with ring
/// algorithms. `localBytes` is the device-local buffer the algorithm is
/// defined on:
///   - AllGather: the *result* (gathered) bytes R: n-1 steps, (n-1)/n * R;
///   - ReduceScatter: the *operand* bytes S: n-1 steps, (n-1)/n * S;
///   - AllReduce = ReduceScatter + AllGather on S: 2(n-1) steps,
///     2(n-1)/n * S;
///   - AllToAll: the operand bytes L; each device sends L/n to each other
///     device around a unidirectional ring (average n/2 hops): n-1 steps,
///     (n-1)/2 * L link bytes;
///   - CollectivePermute: one step, L bytes.
/// A group of one device costs nothing.
CollectiveCost ringCollectiveCost(CollectiveKind kind, int64_t groupSize,
                                  double localBytes, const LinkSpec &link);

/// The effective link of a group spanning several mesh axes: the slowest
/// bandwidth and the largest latency among them (XLA's auto-sharding
/// convention), the default interconnect when `axes` is empty.
LinkSpec getGroupLink(const DeviceSpec &device,
                      llvm::ArrayRef<std::string> axes);

/// Bytes of a statically shaped tensor type (0 for other types; tuples and
/// tokens count their tensor leaves). Sub-byte element types round up to
/// one byte per element.
int64_t getTypeBytes(mlir::Type type);

/// Whether every byte count of `type` (getTypeBytes, and its element
/// count) stays below 2^62, so that sums of them fit 64-bit integers.
bool hasCountableBytes(mlir::Type type);

/// The first op under `root` (post-order) whose result or block argument
/// has a type without countable bytes, and that type.
std::optional<std::pair<mlir::Operation *, mlir::Type>>
findUncountableType(mlir::Operation *root);

/// The first value under `root` (pre-order: an op's results, then its
/// regions' block arguments) whose type has a dynamic dimension (or is a
/// tuple holding one), or null. getTypeBytes counts such a type as 0 bytes.
mlir::Value findDynamicallyShapedValue(mlir::Operation *root);

/// A located error at the first op under `root` whose result or block
/// argument has a type without countable bytes (a `tensor<16x2^62xf32>`
/// would count as 0 bytes), prefixed with `who`.
mlir::LogicalResult checkCountableBytes(mlir::Operation *root,
                                        llvm::StringRef who);

/// FLOPs (2 x multiply-accumulates) of dot_general, dot and convolution;
/// 0 for every other op.
double getContractionFlops(mlir::Operation *op);

/// The element type whose peak prices a contraction: its operands' when
/// they agree, else its result's. A JAX dot with bf16 operands and
/// preferred_element_type=f32 (f32 result, f32 accumulation) runs on the
/// bf16 units, so it is priced at the bf16 peak; mixed operands (bf16 x
/// f32) are converted to the result type first.
mlir::Type getContractionElementType(mlir::Operation *op);

/// The `DeviceSpec::peakFlops` key of a contraction: the key of
/// getContractionElementType, with `f32` read as `tf32` when `tf32` is set
/// and the device has a TF32 peak (NVIDIA's TF32 tensor-core mode).
std::string getContractionPeakKey(mlir::Operation *op, const DeviceSpec &device,
                                  bool tf32 = false);

/// Seconds of `op`'s contraction FLOPs at the device's peak for its
/// element type (0 for other ops). The simulator and the search's analytic
/// cost both price contractions with this.
double getContractionTime(mlir::Operation *op, const DeviceSpec &device,
                          bool tf32 = false);

/// Whether `op` is a contraction whose time is compute-bound in the model
/// (dot_general, dot, convolution).
bool isContraction(mlir::Operation *op);

/// A collective op recognized by the simulator: PartIR:HLO collectives
/// (over mesh axes) and StableHLO collectives (over replica groups).
struct CollectiveInfo {
  CollectiveKind kind;
  /// Devices in one group.
  int64_t groupSize = 1;
  /// Mesh axes the group spans (empty for StableHLO replica groups).
  llvm::SmallVector<std::string> axes;
  /// The buffer size `ringCollectiveCost` expects.
  double localBytes = 0;
};

/// Describes `op` if it is a collective. `partir_hlo.all_slice` is not a
/// collective (it is free). `mesh` gives axis sizes of PartIR:HLO ops; an
/// axis missing from the mesh is an error reported on `op` (returns
/// failure through `error`).
std::optional<CollectiveInfo> getCollectiveInfo(mlir::Operation *op,
                                                toast::partir::MeshAttr mesh,
                                                std::string *error = nullptr);

} // namespace toast::sim

#endif // TOAST_SIMULATOR_COSTMODEL_H
