//===- RandomSearch.cpp - The random-search baseline ---------------------===//

#include "toast/Search/Baselines.h"

#include "SearchDriver.h"

namespace toast::search {
using namespace detail;

namespace {
/// A uniformly random legal trajectory of random length from `start`.
Trajectory randomTrajectory(const SearchEnvironment &env,
                            const SearchState &start, unsigned maxDepth,
                            Rng &rng, CostCache &cache, const Clock &clock) {
  Trajectory trajectory;
  SearchState state = start;
  appendRandomActions(env, state, trajectory.actions,
                      1 + rng.below(std::max(1u, maxDepth)), rng);
  trajectory.cost = cache.get(state);
  trajectory.seconds = clock.elapsed();
  return trajectory;
}
} // namespace

SearchResult runRandomSearch(const SearchEnvironment &env,
                             const SearchOptions &options,
                             const ProgressFn &progress) {
  SearchOptions budgeted = options;
  if (budgeted.budgetSeconds <= 0 && budgeted.maxRollouts == 0)
    budgeted.maxRollouts = 2048;
  CostCache cache(env);
  Clock clock(budgeted.budgetSeconds);
  SearchState start = env.getInitialState();
  SearchResult result;
  result.initialCost = cache.get(start);
  Trajectory best{result.initialCost, {}};
  unsigned threads = std::max(1u, budgeted.threads);
  std::vector<Rng> rngs;
  for (unsigned t = 0; t != threads; ++t)
    rngs.emplace_back(budgeted.seed, t);
  // Rounds only pace progress reports and give a deterministic merge
  // point; nothing carries over between them but the best trajectory.
  while (true) {
    uint64_t budget = roundBudget(budgeted, result.rollouts);
    if (const char *spent = budgetSpent(budget, clock)) {
      result.stopReason = spent;
      break;
    }
    ++result.rounds;
    std::vector<Trajectory> bests(threads);
    std::vector<uint64_t> counts(threads, 0);
    forEachThread(threads, [&](unsigned t) {
      for (uint64_t i = 0, e = quota(budget, threads, t); i != e; ++i) {
        if (clock.expired())
          break;
        Trajectory trajectory = randomTrajectory(env, start, budgeted.maxDepth,
                                                 rngs[t], cache, clock);
        if (!counts[t]++ || trajectory.betterThan(bests[t]))
          bests[t] = std::move(trajectory);
      }
    });
    for (unsigned t = 0; t != threads; ++t) {
      result.rollouts += counts[t];
      if (counts[t] && bests[t].betterThan(best))
        best = std::move(bests[t]);
    }
    if (progress)
      progress(RoundInfo{result.rounds, result.rollouts, best.cost,
                         clock.elapsed()});
  }
  finishResult(result, env, std::move(best), cache.getNumEvaluations(), clock);
  return result;
}

} // namespace toast::search
