//===- Explain.h - A strategy seen from the NDA action space ----*- C++ -*-===//
//
// Maps a strategy (e.g. the ILP's) onto the NDA space, decomposes it into
// actions, and says what the actions cannot express (docs/search.md, "The
// ILP's answer in the action space").
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_SEARCH_EXPLAIN_H
#define TOAST_SEARCH_EXPLAIN_H

#include "toast/Search/ShardingSpace.h"

#include "llvm/Support/raw_ostream.h"

namespace toast::search {

/// A greedy decomposition of a target state into NDA actions.
struct Decomposition {
  std::vector<unsigned> actions;
  SearchState reached;
  /// (node, axis) bits of the target, of `reached` within the target, and
  /// of `reached` outside it.
  unsigned targetBits = 0, coveredBits = 0, extraBits = 0;
};

/// From the initial state, applies while it can the legal action with the
/// largest net gain: target bits gained, minus (with `allowExtra`) bits
/// outside the target; without `allowExtra` only actions that add no bit
/// outside the target are taken.
Decomposition decomposeIntoActions(const NdaEnvironment &space,
                                   const SearchState &target, bool allowExtra);

/// From the initial state, applies while it can the legal action the
/// target agrees with most (the largest share of the bits it adds that
/// the target has), if that share exceeds one half; `actions` receives
/// them.
SearchState projectOntoActions(const NdaEnvironment &space,
                               const SearchState &target,
                               std::vector<unsigned> &actions);

/// Steepest descent from the initial state: prices every legal action,
/// takes the best while it lowers the cost, at most `maxSteps` times.
/// `priced` counts the states priced.
std::vector<unsigned> descend(const NdaEnvironment &space, unsigned maxSteps,
                              uint64_t &priced);

/// Prints, for `target`: its analytic cost (and `simulated`, if given),
/// the exact decomposition, the bits it misses by color and axis and why,
/// and the net-gain decomposition.
void explainState(const NdaEnvironment &space, const SearchState &target,
                  const AnalyticCost *simulated, llvm::raw_ostream &os);

/// explainState for the strategy written in `state`, or why it is not an
/// NDA state (importState's diagnostic, printed instead of emitted).
mlir::LogicalResult explainStrategy(const NdaEnvironment &space,
                                    partition::ShardingState &state,
                                    const AnalyticCost *simulated,
                                    llvm::raw_ostream &os);

} // namespace toast::search

#endif // TOAST_SEARCH_EXPLAIN_H
