//===- ScheduleWriter.h - A partitioning state as manual tactics -*- C++
//-*-===//
//
// The inverse of a schedule: the tilings of the entry function's arguments
// in a partitioning state (e.g. the one an automatic tactic found), written
// as manual tactics in the JSON format parseSchedule reads, over the names
// a user knows the arguments by (ValueNames.h). Applying the schedule tiles
// the same arguments in the same order and lets propagation rebuild the
// inside of the program; writeScheduleFromState pins intermediate values
// where it does not, and countStateDifferences says how close a replay is.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_PARTITION_SCHEDULEWRITER_H
#define TOAST_PARTITION_SCHEDULEWRITER_H

#include "toast/Partition/Schedule.h"

namespace toast::partition {

/// A selector of argument `i` of `func` alone: its first name no other
/// argument or tag has, else `argN` (the positional selector).
std::string argumentSelector(mlir::func::FuncOp func, unsigned i);

/// A tiling a schedule adds to those of the arguments: the value
/// `selector` selects (`#N[.R]` for an op result) tiled on `spec.dim` by
/// `axis` in the tactic of tiling level `level`, or kept whole on `axis`
/// (a Replicated spec, in the keep tactics); or, with an `#N` selector, op
/// N asked to loop over a factor (OperandDim or ResultDim, at `level`) or
/// kept from looping over `axis` (WholeOp, in the keep tactics).
struct ValueTiling {
  std::string selector;
  std::string axis;
  size_t level = 0;
  InputSpec spec;
  /// Part of an exact pin of op N (its whole nest): the repair drops what
  /// it accepted earlier for the same selector.
  bool pinsOp = false;
  /// Whether the entry belongs in a keep tactic.
  bool keepsWhole() const {
    return spec.kind == InputSpec::Kind::Replicated ||
           spec.kind == InputSpec::Kind::WholeOp;
  }
};

/// Manual tactics that tile and keep whole the entry function's arguments
/// as `state` does: one tactic per level of the arguments' tilings and
/// mesh axis, so that every argument's axes keep their order, plus the
/// `extra` tilings. Arguments are selected by their first name that
/// selects only them, else by `argN`. With `early`, an argument's level
/// goes in the first tactic of its axis after its previous level's, not in
/// the tactics of level i for its level i.
Schedule scheduleFromState(ShardingState &state,
                           llvm::ArrayRef<ValueTiling> extra = {},
                           bool early = false);

/// The tactic level scheduleFromState writes each level of an argument's
/// `tiling` in: its index, or with `early` the first level whose tactic of
/// that axis comes after the previous level's.
llvm::SmallVector<size_t> tacticLevels(llvm::ArrayRef<AxisDim> tiling,
                                       partir::MeshAttr mesh, bool early);

/// A schedule written from a state, and how far replaying it is from the
/// state.
struct WrittenSchedule {
  Schedule schedule;
  /// Intermediate tilings added because propagation did not rebuild them.
  unsigned repairs = 0;
  /// Ops, tied classes and values (arguments, region arguments, results:
  /// tilings and atomic axes) still partitioned differently.
  unsigned differences = 0;
  /// The first few of them in words (describeStateDifferences).
  llvm::SmallVector<std::string> examples;
};

/// The schedule of `found` (scheduleFromState), replayed on a copy of
/// `original` (the module before the tactics that made `found`) and
/// repaired greedily: while ops or values end up partitioned differently,
/// candidate tilings and op actions for the first such ops and values are
/// tried one at a time; where none lowers the count, one that makes its op
/// loop as in `found` though others break, repaired on from there and kept
/// if fewer differ in the end (a detour); then rejected ones two at a time,
/// then leaving out an accepted one; a change is kept only if fewer differ;
/// at most `maxRepairs` replays. Fails (with a diagnostic) only when the
/// arguments' schedule itself does not apply.
mlir::FailureOr<WrittenSchedule>
writeScheduleFromState(ShardingState &found, mlir::ModuleOp original,
                       unsigned maxRepairs = 256);

/// The JSON text of a schedule of manual tactics (with its mesh).
std::string printScheduleJson(const Schedule &schedule);

/// The first level at which two loop nests differ (axis or factor, or
/// one nest ends), or nullopt when they are equal.
std::optional<size_t> firstNestDifference(llvm::ArrayRef<AxisFactor> a,
                                          llvm::ArrayRef<AxisFactor> b);

/// The values whose tiling (nest, then explicit levels) and atomic axes
/// lowering turns into loops, in a fixed order: the function's arguments,
/// then every op's region arguments and results in numberedOps order.
llvm::SmallVector<mlir::Value> partitionedValues(mlir::func::FuncOp func);

/// Whether value `x` of state `a` and value `y` of state `b` have the same
/// full tiling and atomic axes.
bool samePartitioning(ShardingState &a, mlir::Value x, ShardingState &b,
                      mlir::Value y);

/// How many ops, tied classes and values of the function of `a` and of
/// `b` (two copies of one function) are partitioned differently: loop
/// nests (axes, factors and their order), and every value's tiling and
/// atomic axes (a tiling beyond the producer's nest is resharded).
unsigned countStateDifferences(ShardingState &a, ShardingState &b);
/// Those differences, each a key in ascending order: op N is N, then the
/// tied classes and the values (partitionedValues) follow.
llvm::SmallVector<unsigned> stateDifferences(ShardingState &a,
                                             ShardingState &b);

/// The first `limit` of those differences in words (`op #95
/// (stablehlo.dot_general) loops [S:0], the replay []`, `value #95 is tiled
/// [B:0], the replay [B:0, M:1]`), for the warning of a partial replay.
llvm::SmallVector<std::string>
describeStateDifferences(ShardingState &a, ShardingState &b, unsigned limit);

} // namespace toast::partition

#endif // TOAST_PARTITION_SCHEDULEWRITER_H
