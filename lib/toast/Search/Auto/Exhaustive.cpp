//===- Exhaustive.cpp - Every reachable state, breadth first --------------===//
//
// The oracle of the other searches, and a user option for small programs:
// every state reachable from the initial one is priced, breadth first over
// a table of states keyed like the transposition table (one entry per
// state, whatever the order of the actions reaching it), with no depth cap,
// up to `maxStates` states and the budget. Breadth first reaches each state
// by a shortest trajectory, so among states of equal cost the reported
// strategy has the fewest actions.
//
//===----------------------------------------------------------------------===//

#include "toast/Search/Baselines.h"

#include "SearchDriver.h"

#include <algorithm>

namespace toast::search {
using namespace detail;

namespace {
/// A recorded state waiting for its price.
struct Pending {
  size_t index;
  SearchState state;
};

/// Prices `batch` in `threads` threads and keeps the best (in batch order,
/// so the result does not depend on the thread count).
void priceBatch(const SearchEnvironment &env, const StateEnumerator &states,
                std::vector<Pending> &batch, unsigned threads,
                const Clock &clock, Trajectory &best) {
  std::vector<double> costs(batch.size());
  forEachThread(threads, [&](unsigned t) {
    for (size_t i = t; i < batch.size(); i += threads)
      costs[i] = env.cost(batch[i].state);
  });
  double now = clock.elapsed();
  for (size_t i = 0; i != batch.size(); ++i) {
    Trajectory candidate{costs[i], states.actions(batch[i].index), now};
    if (candidate.betterThan(best))
      best = std::move(candidate);
  }
  batch.clear();
}
} // namespace

SearchResult runExhaustive(const SearchEnvironment &env,
                           const SearchOptions &options,
                           const ProgressFn &progress) {
  Clock clock(options.budgetSeconds);
  unsigned threads = std::max(1u, options.threads);
  // The rollout budget counts priced states here.
  uint64_t limit = std::max<uint64_t>(1, options.maxStates);
  const char *limitReason = "state limit";
  if (options.maxRollouts && options.maxRollouts < limit) {
    limit = options.maxRollouts;
    limitReason = "rollout budget";
  }
  SearchResult result;
  result.initialCost = env.cost(env.getInitialState());
  Trajectory best{result.initialCost, {}, clock.elapsed()};
  StateEnumerator states(env, /*maxDepth=*/0);
  std::vector<Pending> batch;
  size_t batchSize = 16 * threads;
  const char *stopped = nullptr;
  unsigned level = 0;
  while (!states.done() && !stopped) {
    if (clock.expired()) {
      stopped = "time budget";
      break;
    }
    std::vector<StateEnumerator::Child> children = states.successors();
    for (StateEnumerator::Child &child : children) {
      if (states.size() >= limit) {
        stopped = limitReason;
        break;
      }
      states.record(child);
      batch.push_back(Pending{states.size() - 1, std::move(child.state)});
    }
    if (!stopped)
      states.advance();
    // Price a batch when it is full and at the end of every level, which
    // is when progress is reported.
    bool levelDone = states.done() || states.depth() != level;
    if (batch.size() >= batchSize || levelDone || stopped)
      priceBatch(env, states, batch, threads, clock, best);
    if (levelDone) {
      ++level;
      if (progress)
        progress(
            RoundInfo{level, states.size(), best.cost, clock.elapsed(), level});
    }
  }
  priceBatch(env, states, batch, threads, clock, best);
  result.complete = states.done() && !stopped;
  result.rounds = level;
  result.rollouts = states.size();
  // Optimal among the states the actions reach: the baselines' spaces
  // (argument dimensions, the ILP's per-op choices) hold others.
  result.stopReason =
      result.complete
          ? std::string("optimal over the actions: ") + kEveryStatePriced
          : "best of " + std::to_string(states.size()) + " states: " + stopped;
  finishResult(result, env, std::move(best), states.size(), clock);
  return result;
}

} // namespace toast::search
