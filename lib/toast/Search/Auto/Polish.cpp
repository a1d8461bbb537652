//===- Polish.cpp - Local improvement of the best trajectory -------------===//
//
// Neighbouring strategies often differ by little: the resolution bits of
// one color, or the color an axis goes to. A round of MCTS samples too few
// of them to rank them precisely, so the search ends with sweeps over the
// best trajectory's neighbours: each action replaced by any other action,
// or dropped, as long as the rest of the trajectory stays legal, and any
// action appended (models whose best strategy needs many actions, such as
// one per U-Net level, run out of rounds before the rounds find them all).
//
//===----------------------------------------------------------------------===//

#include "SearchDriver.h"

#include <optional>

namespace toast::search::detail {

/// `actions` replayed from the initial state, or nullopt if one is illegal.
static std::optional<SearchState> replay(const SearchEnvironment &env,
                                         const std::vector<unsigned> &actions) {
  SearchState state = env.getInitialState();
  for (unsigned action : actions) {
    if (!env.isLegal(state, action))
      return std::nullopt;
    env.apply(state, action);
  }
  return state;
}

/// The neighbours of `actions`: one action replaced, dropped or appended.
static std::vector<std::vector<unsigned>>
neighbours(const SearchEnvironment &env, const std::vector<unsigned> &actions,
           size_t fixedPrefix, unsigned maxDepth) {
  std::vector<std::vector<unsigned>> result;
  if (actions.size() < maxDepth)
    for (unsigned a = 0, e = env.getNumActions(); a != e; ++a) {
      result.push_back(actions);
      result.back().push_back(a);
    }
  for (size_t i = fixedPrefix; i < actions.size(); ++i) {
    std::vector<unsigned> dropped = actions;
    dropped.erase(dropped.begin() + i);
    result.push_back(std::move(dropped));
    for (unsigned a = 0, e = env.getNumActions(); a != e; ++a) {
      if (a == actions[i])
        continue;
      result.push_back(actions);
      result.back()[i] = a;
    }
  }
  return result;
}

void polish(const SearchEnvironment &env, const SearchOptions &options,
            CostCache &cache, const Clock &clock, Trajectory &best,
            size_t fixedPrefix, uint64_t &rollouts) {
  unsigned threads = std::max(1u, options.threads);
  bool improved = true;
  while (improved && !clock.expired()) {
    improved = false;
    std::vector<std::vector<unsigned>> candidates =
        neighbours(env, best.actions, fixedPrefix, options.maxDepth);
    // Replays are cheap; only legal candidates cost an evaluation.
    std::vector<std::pair<std::vector<unsigned>, SearchState>> legal;
    for (std::vector<unsigned> &candidate : candidates)
      if (std::optional<SearchState> state = replay(env, candidate))
        legal.push_back({std::move(candidate), std::move(*state)});
    uint64_t budget = legal.size();
    if (options.maxRollouts)
      budget = std::min<uint64_t>(budget,
                                  options.maxRollouts -
                                      std::min(options.maxRollouts, rollouts));
    std::vector<double> costs(budget, 0);
    std::vector<char> done(budget, 0);
    forEachThread(threads, [&](unsigned t) {
      for (uint64_t i = t; i < budget && !clock.expired(); i += threads) {
        costs[i] = cache.get(legal[i].second);
        done[i] = 1;
      }
    });
    // In candidate order, so ties go to the same neighbour every run.
    for (uint64_t i = 0; i != budget; ++i) {
      if (!done[i])
        continue;
      ++rollouts;
      Trajectory candidate{costs[i], std::move(legal[i].first)};
      if (candidate.betterThan(best)) {
        best = std::move(candidate);
        improved = true;
      }
    }
  }
}

} // namespace toast::search::detail
