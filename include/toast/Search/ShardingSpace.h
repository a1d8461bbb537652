//===- ShardingSpace.h - The TOAST action space and its cost ----*- C++ -*-===//
//
// The search problem of TOAST §4 over the named dimension analysis (NDA,
// NamedDimensionAnalysis.h):
//
//  * an action (§4.2) is a tuple (color, resolution bits of the color's
//    compatibility sets, mesh axis): it shards every dimension-graph node of
//    the color on the axis, except nodes the resolution bits de-select (for
//    each conflict, the resolution picks the node that is sharded) and
//    except nodes the partitioner cannot shard (blocked names, names of
//    opaque ops or nested regions, reductions that do not combine by sum);
//    applying it *attempts* each node: a node that shares a site or an op
//    with a node already on the axis, or whose sizes the axis does not
//    divide, is left as it is (so batch then FSDP on one axis is two
//    actions: the parameters take the axis, their uses in batch-sharded
//    ops cannot and are gathered). An action is legal while none of its
//    nodes carries the axis and at least one can take it;
//  * with argument mirroring (§4.4), colors that hold dims of grouped entry
//    arguments at the same positions form one *family* and one action
//    shards all of them, so repeated layers do not multiply actions;
//  * actions touching fewer than `minDims` dimensions (at most a quarter
//    of the largest action's) are pruned;
//  * the cost of a state is computed analytically from the state (local
//    shapes, contraction FLOPs, the collectives def/use mismatches and
//    sharded reductions imply, live ranges), exactly as the simulator would
//    price the program that materializeCore, --partir-lower-to-hlo and
//    --partir-optimize-collectives produce from it (see docs/search.md).
//
// A state maps to a ShardingState (materialize): each op with a rule loops
// over, per mesh axis in mesh order, the factor whose node carries the
// axis; entry arguments get explicit tilings. importState is the inverse,
// for states left by manual tactics.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_SEARCH_SHARDINGSPACE_H
#define TOAST_SEARCH_SHARDINGSPACE_H

#include "toast/Analysis/NamedDimensionAnalysis.h"
#include "toast/Partition/ShardingState.h"
#include "toast/Search/Environment.h"
#include "toast/Simulator/CostModel.h"
#include "toast/Simulator/Simulator.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace toast::search {

/// Knobs of the NDA action space.
struct NdaEnvironmentOptions {
  /// Actions whose nodes cover fewer dimensions (def and use names) are
  /// pruned (TOAST §4.2 uses 10).
  unsigned minDims = 10;
  /// The constant C of MP(s) (TOAST §4.5).
  double memoryPenalty = sim::kDefaultMemoryPenalty;
  /// One action per family of colors of grouped arguments (§4.4).
  bool mirrorGroups = true;
  /// Price as the simulator does with SimulationOptions::donate / tf32.
  bool donate = false;
  bool tf32 = false;
  /// Offer padded (uneven) sharding of dimensions an axis does not divide
  /// (docs/search.md): one axis that does not divide a node's size pads it
  /// to ceil(n / k) rows per device. Padded states are priced exactly (the
  /// masks analytically, padded collectives the plan does not follow by
  /// the reference path).
  bool pad = true;
  /// Also offer *context actions* (docs/search.md, "Context actions"): a
  /// family action restricted to the nodes whose sites or ops meet a node
  /// of a context color, one of the largest unmirrored colors (the batch
  /// dimensions that run through every layer, GNS's nodes and edges). They
  /// let a dimension be sharded in one part of the program (the edge
  /// MLPs) and not in another (the node MLPs).
  bool contextActions = false;
  /// Remark on loops that may exit early and warn on loops without a
  /// constant trip count (off where another environment already did).
  bool reportLoops = true;
};

/// The analytic cost of one state (per device).
struct AnalyticCost {
  /// Step time (one stream: compute + communication), seconds.
  double runtime = 0;
  double computeTime = 0;
  double commTime = 0;
  /// Contraction FLOPs per device.
  double flops = 0;
  /// Peak live bytes per device.
  double peakBytes = 0;
  /// C(s) against the unpartitioned program.
  sim::RelativeCost rel;
  /// Collectives per sim::CollectiveKind.
  std::array<int64_t, sim::kNumCollectiveKinds> collectiveCounts{};
  /// Priced through the reference path (materialize, lower, optimize,
  /// simulate a copy) because the analytic model does not cover the state
  /// (some that shard inside loops, conditionals, some padded ones).
  bool byReference = false;

  int64_t count(sim::CollectiveKind kind) const {
    return collectiveCounts[static_cast<unsigned>(kind)];
  }
};

/// One action of the space.
struct NdaAction {
  /// The colors the action shards: one, or a mirrored family (the first is
  /// the representative).
  llvm::SmallVector<unsigned, 1> colors;
  /// The resolution bits (NamedDimensionAnalysis resolution bit numbers)
  /// of the compatibility sets in these colors, and their chosen values.
  llvm::SmallVector<std::pair<unsigned, bool>> bits;
  /// Mesh axis index (mesh order) and its size.
  unsigned axis = 0;
  int64_t axisSize = 1;
  /// The nodes the action shards (sorted), and the dimension names they
  /// hold.
  std::vector<unsigned> nodes;
  unsigned numDims = 0;
  /// A context action's context color (NdaEnvironmentOptions::
  /// contextActions): `nodes` are those of the family action whose sites or
  /// ops meet a node of this color. -1 for the family action itself.
  int context = -1;
};

class NdaEnvironment : public SearchEnvironment {
public:
  /// Analyses `entry` (whose module carries the mesh, or not: `mesh` is
  /// used) and builds the action space over `axes` (names of mesh axes;
  /// empty = all). With `start`, the initial state is imported from it
  /// (e.g. after manual tactics); it must belong to `entry`. Errors
  /// (unknown axes, a start state that is not expressible) are emitted on
  /// `entry` and yield failure. Inline calls first
  /// (partition::prepareEntryFunction): names inside callees are never
  /// sharded. The environment refers to `entry`'s ops: do not rewrite it
  /// while the environment is in use (materialize into a copy, or save the
  /// state with materialize(state, func) and materialize afterwards).
  static mlir::FailureOr<std::unique_ptr<NdaEnvironment>>
  create(mlir::func::FuncOp entry, partir::MeshAttr mesh,
         llvm::ArrayRef<std::string> axes, sim::DeviceSpec device,
         NdaEnvironmentOptions options = {},
         partition::ShardingState *start = nullptr);
  ~NdaEnvironment() override;

  //===- SearchEnvironment ------------------------------------------------===//

  unsigned getNumActions() const override;
  std::string describeAction(unsigned action) const override;
  SearchState getInitialState() const override;
  bool isLegal(const SearchState &state, unsigned action) const override;
  void apply(SearchState &state, unsigned action) const override;
  double cost(const SearchState &state) const override;
  /// Stops pricing once the step time alone reaches the bound, where the
  /// analytic cost can only grow from there (Evaluation::setRuntimeLimit).
  double costBelow(const SearchState &state, double bound) const override;
  unsigned getNumAxes() const override;
  int getActionOnAxis(unsigned action, unsigned axis) const override;
  /// The ops of the entry function, nested ones included.
  uint64_t getStateWork() const override;

  //===- Actions
  //-----------------------------------------------------------===//

  const NdaAction &getAction(unsigned action) const;
  unsigned getActionColor(unsigned action) const {
    return getAction(action).colors.front();
  }
  unsigned getActionAxis(unsigned action) const {
    return getAction(action).axis;
  }
  llvm::StringRef getAxisName(unsigned axis) const;
  unsigned getActionNumDims(unsigned action) const {
    return getAction(action).numDims;
  }
  llvm::ArrayRef<std::pair<unsigned, bool>>
  getActionBits(unsigned action) const {
    return getAction(action).bits;
  }
  /// The family action (color, bits, axis) if it exists in the space
  /// (colors of a mirrored family: any member; never a context action),
  /// else -1. `bits` lists (bit, value)
  /// pairs; bits of the color that are not listed are taken as 0.
  int findAction(unsigned color, llvm::ArrayRef<std::pair<unsigned, bool>> bits,
                 llvm::StringRef axis) const;

  //===- Cost
  //---------------------------------------------------------------===//

  /// The cost of `state` (thread-safe): one linear analytic pass, or the
  /// reference path for states the analytic model does not cover (some
  /// that shard inside loops, conditionals and loops in loops, some
  /// padded ones).
  AnalyticCost analyticCost(const SearchState &state) const;
  /// Whether `state` shards a node that reaches into a loop or conditional
  /// body (or a region op's operands and results): such states are priced
  /// by the loop model (AnalyticLoops.cpp) or, where it does not cover
  /// them, through the reference path (AnalyticCost::byReference).
  bool shardsInsideRegions(const SearchState &state) const;
  /// The cost of the unpartitioned program (all-zero state).
  const AnalyticCost &getUnpartitionedCost() const;
  /// How many analyticCost calls so far went to the reference path, and
  /// how many of those shard inside loops the loop model does not cover
  /// (the rest are padded states the analytic model does not follow).
  std::pair<uint64_t, uint64_t> getReferencePricings() const;

  //===- Materialization and import
  //-----------------------------------------===//

  /// Writes `state` into `sharding` (built on the analysed entry function):
  /// every ruled op's loop nest and every entry argument's explicit tiling
  /// are replaced; atomic axes are kept.
  mlir::LogicalResult materialize(const SearchState &state,
                                  partition::ShardingState &sharding) const;
  /// Stores `state` on the analysed function as the partir.* attributes of
  /// ShardingState::save (for tactic pipelines). `func` must be the entry
  /// function the environment was built on.
  mlir::LogicalResult materialize(const SearchState &state,
                                  mlir::func::FuncOp func) const;
  /// The state a ShardingState describes (e.g. after BP). Fails with a
  /// diagnostic when it is not expressible per node (deep explicit tilings
  /// of intermediate values, nests that disagree within one node).
  mlir::FailureOr<SearchState>
  importState(partition::ShardingState &sharding) const;

  /// Clones the module of the entry function, materializes `state`
  /// (materializeCore, --partir-lower-to-hlo, --partir-optimize-collectives)
  /// and simulates it with the environment's device: the reference the
  /// analytic cost is tested against.
  /// With `lowered`, the lowered module is kept there (for inspection).
  mlir::FailureOr<sim::SimulationResult> simulateMaterialized(
      const SearchState &state,
      mlir::OwningOpRef<mlir::ModuleOp> *lowered = nullptr) const;

  /// A clone of the entry's module whose entry is the device-local
  /// PartIR:HLO of `state` built straight from the planner's CollectivePlan
  /// (no materializeCore, lowering or collective optimization): the
  /// program the analytic cost prices. Every state priced without the
  /// reference path (loops and conditionals included); failure (with a
  /// diagnostic) otherwise.
  mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
  emitPlanned(const SearchState &state) const;

  //===- Queries
  //--------------------------------------------------------------===//

  const NamedDimensionAnalysis &getAnalysis() const;
  partir::MeshAttr getMesh() const;
  const sim::DeviceSpec &getDevice() const;
  const NdaEnvironmentOptions &getOptions() const;
  /// The simulator options the cost follows (donate, tf32): every path that
  /// simulates a strategy of this space uses them.
  sim::SimulationOptions getSimulationOptions() const;
  /// Mesh axis indices the actions use.
  llvm::ArrayRef<unsigned> getSearchAxes() const;
  /// Human-readable state: "n12:B n40:M ..." (or "replicated").
  std::string describeState(const SearchState &state) const;

  class Impl;

private:
  explicit NdaEnvironment(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

/// How replaceByPlannedEntry ended.
/// NotCovered: the program holds region ops the emitter does not build
/// (shard_map bodies, isolated from above, which lowering inlines).
enum class PlannedEntry { Replaced, ByReference, NotCovered };

/// Replaces the entry of `module` by the device-local PartIR:HLO of the
/// sharding state that tactic passes saved on it, built from the planner
/// (NdaEnvironment::emitPlanned) and priced on `device`; `cost`, when
/// given, receives the state's analytic cost. A state the planner leaves to
/// the reference path gives ByReference and leaves the module unchanged;
/// failure comes with a diagnostic.
mlir::FailureOr<PlannedEntry>
replaceByPlannedEntry(mlir::ModuleOp module, const sim::DeviceSpec &device,
                      AnalyticCost *cost = nullptr,
                      const NdaEnvironmentOptions &options = {});

} // namespace toast::search

#endif // TOAST_SEARCH_SHARDINGSPACE_H
