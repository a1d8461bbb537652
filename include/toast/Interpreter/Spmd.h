//===- Spmd.h - Running device-local programs on simulated devices -*- C++
//-*-===//
//
// A device-local program (PartIR:HLO after --partir-lower-to-hlo, or
// StableHLO with collectives after --partir-export-stablehlo) is what every
// device of a mesh runs on its own shard of the data. The interpreter runs
// it on one simulated device per mesh coordinate (device d has coordinates
// row-major over the mesh axes, as in the export's replica groups), each on
// its own thread with its own Interpreter; collectives meet in an exchange
// (SpmdContext) where every device sees the operands of the others.
// Results are deterministic: every collective combines the operands in the
// order of its device group, whatever the thread timing.
//
// The entry function's boundary says how global values are split:
//  * PartIR:HLO: `partir.sharding = [["B"], []]` on an argument or result
//    (per dimension, the mesh axes splitting it, major to minor); the mesh
//    is the `partir.mesh` attribute of the function or module;
//  * exported StableHLO: `toast.global_sharding` (an HloSharding string
//    such as `{devices=[4,1,2]<=[8] last_tile_dim_replicate}`), with the
//    device count from the module's `mhlo.num_partitions`.
// A value without either attribute is replicated: every device gets (or
// must return) the whole value.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_INTERPRETER_SPMD_H
#define TOAST_INTERPRETER_SPMD_H

#include "toast/Interpreter/Interpreter.h"

#include <optional>

namespace toast::interp {

/// How one global value is split over the devices.
struct ShardLayout {
  /// Tiles per dimension (1: every device holds the whole dimension).
  llvm::SmallVector<int64_t> tiles;
  /// Per device, the index of the tile it holds, per dimension.
  llvm::SmallVector<llvm::SmallVector<int64_t>> deviceTiles;
};

/// A device-local entry function and the layouts of its boundary.
struct SpmdProgram {
  enum class Kind { PartIRHLO, ExportedStableHLO };
  Kind kind = Kind::PartIRHLO;
  int64_t numDevices = 1;
  /// The mesh (PartIR:HLO only).
  llvm::SmallVector<toast::xla::MeshAxis> mesh;
  llvm::SmallVector<ShardLayout> args;
  llvm::SmallVector<ShardLayout> results;
  /// The entry's signature in global shapes.
  mlir::FunctionType globalType;
};

/// The most devices a program may run on (one thread each).
constexpr int64_t kMaxSimulatedDevices = 4096;

/// Describes `func` when its module is a device-local program; std::nullopt
/// when it is a global program (StableHLO, PartIR:Core). Fails with an
/// error located at the function when its sharding attributes are missing,
/// malformed or do not divide the values.
mlir::FailureOr<std::optional<SpmdProgram>>
analyzeSpmdProgram(mlir::func::FuncOp func);

/// Device `device`'s shard of the global value `global` (a new tensor).
Tensor extractShard(const Tensor &global, const ShardLayout &layout,
                    int64_t device);

/// What an SPMD run produced: global results reassembled from the devices'
/// shards, and the checks of all devices.
struct SpmdRunReport {
  llvm::SmallVector<Tensor> results;
  CheckSummary checks;
};

/// Runs `func` on every device of `program`, each on its shard of
/// `globalArgs`, and reassembles the results. Fails when a device fails, or
/// when two devices holding the same part of a result disagree (the
/// program's result sharding is then wrong, e.g. a collective is missing).
/// The devices run on threads: the context must allow multithreading (the
/// MLIRContext default); runSpmd fails with an error otherwise.
mlir::FailureOr<SpmdRunReport> runSpmd(mlir::func::FuncOp func,
                                       const SpmdProgram &program,
                                       llvm::ArrayRef<Tensor> globalArgs,
                                       InterpreterOptions options);

/// Like runSpmd, for a region that does not use values from outside
/// (the body of an `sdy.manual_computation`): every device runs `region`
/// on its shards of `globalArgs`; the results are the region's terminator
/// operands, reassembled. `program.globalType` maps the global arguments to
/// the global results.
mlir::FailureOr<SpmdRunReport> runSpmdRegion(mlir::Region &region,
                                             const SpmdProgram &program,
                                             llvm::ArrayRef<Tensor> globalArgs,
                                             InterpreterOptions options);

} // namespace toast::interp

#endif // TOAST_INTERPRETER_SPMD_H
