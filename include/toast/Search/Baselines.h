//===- Baselines.h - Baseline searches for honest comparisons ---*- C++ -*-===//
//
// Two baselines that share MCTS's budget (SearchOptions) and cost model, so
// that comparisons measure the search and the action space only:
//
//  * random search: uniformly random legal trajectories of uniformly random
//    length (1..maxDepth) from the initial state, each scored at its end;
//  * AutoMap-style search (AutoMap, TOAST §4.3): actions only shard entry
//    arguments, (argument, dimension, axis); a state is the set of argument
//    tilings, priced by tiling a copy of the start ShardingState, running
//    PartIR propagation, importing the result into the NDA space and taking
//    the NDA space's analytic cost. It is searched with the same MCTS.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_SEARCH_BASELINES_H
#define TOAST_SEARCH_BASELINES_H

#include "toast/Search/Mcts.h"

namespace toast::search {

/// Random search on `env`. Without any budget in `options` it runs 2048
/// trajectories. Runs in `options.threads` threads, reproducibly for a
/// given seed and thread count (as MCTS).
SearchResult runRandomSearch(const SearchEnvironment &env,
                             const SearchOptions &options,
                             const ProgressFn &progress = {});

} // namespace toast::search

#endif // TOAST_SEARCH_BASELINES_H
