//===- Baselines.h - Baseline searches for honest comparisons ---*- C++ -*-===//
//
// Two baselines that share MCTS's budget (SearchOptions) and cost model, so
// that comparisons measure the search and the action space only, and the
// exhaustive enumeration that gives the optimum of small spaces:
//
//  * random search: uniformly random legal trajectories of uniformly random
//    length (1..maxDepth) from the initial state, each scored at its end;
//  * AutoMap-style search (AutoMap, TOAST §4.3): actions only shard entry
//    arguments, (argument, dimension, axis); a state is the set of argument
//    tilings, priced by tiling a copy of the start ShardingState, running
//    PartIR propagation, importing the result into the NDA space and taking
//    the NDA space's analytic cost. It is searched with the same MCTS;
//  * exhaustive enumeration: every reachable state, breadth first, up to a
//    state limit.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_SEARCH_BASELINES_H
#define TOAST_SEARCH_BASELINES_H

#include "toast/Search/Mcts.h"
#include "toast/Search/ShardingSpace.h"

namespace toast::search {

/// Random search on `env`. Without any budget in `options` it runs 2048
/// trajectories. Runs in `options.threads` threads, reproducibly for a
/// given seed and thread count (as MCTS).
SearchResult runRandomSearch(const SearchEnvironment &env,
                             const SearchOptions &options,
                             const ProgressFn &progress = {});

/// Exhaustive enumeration, the oracle of the other searches: prices every
/// state reachable from the initial one, breadth first and without a depth
/// cap, up to `options.maxStates` states (and the budget; a rollout budget
/// counts priced states). `complete` says whether it priced them all, in
/// which case `best` is optimal. Prices in `options.threads` threads; the
/// result does not depend on the thread count.
SearchResult runExhaustive(const SearchEnvironment &env,
                           const SearchOptions &options,
                           const ProgressFn &progress = {});

/// The AutoMap-style space: action (argument, dimension, axis) tiles an
/// entry argument; every state is priced by propagating its tilings on a
/// copy of `start` and importing the result into `space`.
class AutoMapEnvironment : public SearchEnvironment {
public:
  /// `space` and `start` (the state earlier tactics left, on the function
  /// `space` analyses) must outlive the environment. Actions use `space`'s
  /// search axes.
  AutoMapEnvironment(const NdaEnvironment &space,
                     partition::ShardingState &start);

  unsigned getNumActions() const override { return actions.size(); }
  std::string describeAction(unsigned action) const override;
  SearchState getInitialState() const override;
  bool isLegal(const SearchState &state, unsigned action) const override;
  void apply(SearchState &state, unsigned action) const override;
  /// The NDA space's cost of toSpaceState(state); states propagation
  /// leaves inexpressible in the NDA space, or that return an updated
  /// argument in another layout than they take it, cost kUnpriceable.
  double cost(const SearchState &state) const override;

  /// The NDA state the argument tilings of `state` propagate to; fails when
  /// the NDA space cannot express it (with diagnostics: callers may want a
  /// handler that drops them) or when an update leaves in another layout
  /// than its argument (keepsUpdatedLayouts, no diagnostic).
  mlir::FailureOr<SearchState> toSpaceState(const SearchState &state) const;

  static constexpr double kUnpriceable = 1e30;

private:
  struct Action {
    unsigned arg;
    int64_t dim;
    unsigned axis;
  };
  /// The state slot of (argument, dimension).
  unsigned slot(unsigned arg, int64_t dim) const {
    return firstSlot[arg] + dim;
  }
  /// The mask of axes `start` already tiles (argument, dimension) on.
  AxisMask startAxes(unsigned arg, int64_t dim) const;
  bool keepsUpdatedLayouts(partition::ShardingState &sharding) const;
  /// (result, argument) of every result that updates an argument
  /// (toast::getUpdatedArguments), found once.
  std::vector<std::pair<unsigned, unsigned>> updatePairs;
  /// Per argument, the value returned as its update (the first result
  /// that updates it, when that is not the argument itself): tiled with it.
  llvm::DenseMap<unsigned, mlir::Value> updateOf;

  const NdaEnvironment &space;
  partition::ShardingState &start;
  std::vector<Action> actions;
  std::vector<unsigned> firstSlot;
  unsigned numSlots = 0;
};

} // namespace toast::search

#endif // TOAST_SEARCH_BASELINES_H
