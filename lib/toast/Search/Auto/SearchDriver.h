//===- SearchDriver.h - What every search algorithm shares -------*- C++
//-*-===//
//
// Private to ToastSearch: random streams, the shared cost cache, the budget
// clock and the thread fan-out that MCTS and the baselines share.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_LIB_SEARCH_AUTO_SEARCHDRIVER_H
#define TOAST_LIB_SEARCH_AUTO_SEARCHDRIVER_H

#include "toast/Search/Mcts.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <unordered_map>

namespace toast::search::detail {

/// xoshiro256** seeded through splitmix64: small, fast, and the same
/// sequence on every platform (std distributions are not).
class Rng {
public:
  Rng(uint64_t seed, uint64_t stream);
  uint64_t next();
  /// Uniform in [0, n); n > 0.
  unsigned below(unsigned n) { return static_cast<unsigned>(next() % n); }
  /// Uniform in [0, 1).
  double uniform() { return (next() >> 11) * 0x1.0p-53; }

private:
  uint64_t s[4];
};

/// A state's key in tables: both of its 64-bit hashes.
using StateKey = std::pair<uint64_t, uint64_t>;
struct StateKeyHash {
  size_t operator()(const StateKey &key) const {
    return static_cast<size_t>(key.first ^
                               (key.second * 0x9e3779b97f4a7c15ull));
  }
};

/// Costs of states, shared by all threads. The cost is a pure function of
/// the state, so which thread computes an entry first does not change any
/// result. Keyed by SearchState::key (two independent 64-bit hashes).
class CostCache {
public:
  explicit CostCache(const SearchEnvironment &env) : env(env) {}
  double get(const SearchState &state);
  uint64_t getNumEvaluations() const { return evaluations.load(); }

private:
  const SearchEnvironment &env;
  std::mutex mutex;
  std::unordered_map<StateKey, double, StateKeyHash> costs;
  std::atomic<uint64_t> evaluations{0};
};

/// Wall-clock budget.
class Clock {
public:
  explicit Clock(double budgetSeconds);
  double elapsed() const;
  bool expired() const { return budget > 0 && elapsed() >= budget; }

private:
  std::chrono::steady_clock::time_point start;
  double budget;
};

/// A trajectory from some root and the cost of its final state.
struct Trajectory {
  double cost = 0;
  std::vector<unsigned> actions;
  /// Lower cost, or (within rounding) the same cost in fewer actions.
  bool betterThan(const Trajectory &other) const;
};

/// The legal actions of `state`, in increasing order.
std::vector<unsigned> legalActions(const SearchEnvironment &env,
                                   const SearchState &state);

/// Applies a uniformly random legal action to `state` and appends it to
/// `actions`; false if no action is legal.
bool applyRandomAction(const SearchEnvironment &env, SearchState &state,
                       std::vector<unsigned> &actions, Rng &rng);

/// Applies up to `count` uniformly random legal actions to `state` and
/// appends them to `actions`; stops early when no action is legal.
void appendRandomActions(const SearchEnvironment &env, SearchState &state,
                         std::vector<unsigned> &actions, size_t count,
                         Rng &rng);

/// The share of `total` rollouts thread `thread` of `threads` runs.
uint64_t quota(uint64_t total, unsigned threads, unsigned thread);

/// Runs body(thread) for thread in [0, threads) on std::threads and joins.
void forEachThread(unsigned threads, const std::function<void(unsigned)> &body);

/// Rollouts the next round may run, given the options and the rollouts done.
uint64_t roundBudget(const SearchOptions &options, uint64_t done);

/// Why no further round may run ("rollout budget", "time budget"), or null.
const char *budgetSpent(uint64_t roundBudget, const Clock &clock);

/// Improves `best` (a trajectory from the initial state whose first
/// `fixedPrefix` actions stay) by sweeps over its neighbours: one action
/// replaced by another or dropped, or one appended. Stops when a sweep
/// finds nothing better or the budget is spent; adds the evaluations to
/// `rollouts`.
void polish(const SearchEnvironment &env, const SearchOptions &options,
            CostCache &cache, const Clock &clock, Trajectory &best,
            size_t fixedPrefix, uint64_t &rollouts);

/// Fills the result's best state, actions, costs and counters from `best`.
void finishResult(SearchResult &result, const SearchEnvironment &env,
                  Trajectory best, const CostCache &cache, const Clock &clock);

} // namespace toast::search::detail

#endif // TOAST_LIB_SEARCH_AUTO_SEARCHDRIVER_H
