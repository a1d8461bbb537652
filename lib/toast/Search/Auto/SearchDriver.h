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
#include <unordered_set>

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
  /// get(state) when that is below `bound`, else a value of at least
  /// `bound` (SearchEnvironment::costBelow). Such a value is kept apart from
  /// the costs: a later get() prices the state in full, a later getBelow()
  /// with a bound it still reaches returns it.
  double getBelow(const SearchState &state, double bound);
  /// Whether the state of `key` has been priced.
  bool contains(const StateKey &key) const;
  uint64_t getNumEvaluations() const { return evaluations.load(); }

private:
  const SearchEnvironment &env;
  mutable std::mutex mutex;
  /// A cost, or a lower bound of one (getBelow) when not `exact`.
  struct Entry {
    double cost;
    bool exact;
  };
  std::unordered_map<StateKey, Entry, StateKeyHash> costs;
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
  /// When the search found it (seconds on the search's clock).
  double seconds = 0;
  /// Lower cost, or (within rounding) the same cost in fewer actions.
  bool betterThan(const Trajectory &other) const;
};

/// Records the improvements of the best cost (SearchResult::improvements)
/// and says which count as progress for the stopping rules: a gain of at
/// least `minGain` below the cost of the last one that counted (so that
/// small gains add up).
class ProgressLog {
public:
  ProgressLog(double minGain, double initialCost,
              std::vector<Improvement> &improvements)
      : minGain(minGain), counted(initialCost), improvements(improvements) {}
  /// Notes that the best cost fell to `cost`; returns whether that counts.
  bool improve(double cost, double seconds, uint64_t states,
               Improvement::Phase phase, unsigned restart = 0);
  /// States priced when progress was last counted (0: never).
  uint64_t getCountedStates() const { return countedStates; }

private:
  double minGain;
  /// The best cost when progress was last counted.
  double counted;
  uint64_t countedStates = 0;
  std::vector<Improvement> &improvements;
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

/// Runs body(thread) for thread in [0, threads) and returns when all are
/// done: thread 0 is the caller, the others persistent workers of the
/// caller (their thread_local state, the pricer's workspace, survives).
void forEachThread(unsigned threads, const std::function<void(unsigned)> &body);

/// Rollouts the next round may run, given the options and the rollouts done.
uint64_t roundBudget(const SearchOptions &options, uint64_t done);

/// Why no further round may run ("rollout budget", "time budget"), or null.
const char *budgetSpent(uint64_t roundBudget, const Clock &clock);

/// The states reachable from the initial one, breadth first, each
/// recorded once (by key) as its parent and the action from it: whole
/// states cost up to megabytes on full-size models, so a state is replayed
/// from the initial one when needed.
class StateEnumerator {
public:
  /// States deeper than `maxDepth` actions are not enumerated (0: no cap).
  StateEnumerator(const SearchEnvironment &env, unsigned maxDepth);

  /// A successor of the state being expanded.
  struct Child {
    unsigned action;
    SearchState state;
    StateKey key;
  };
  /// Whether every recorded state has been expanded.
  bool done() const { return next == entries.size(); }
  size_t size() const { return entries.size(); }
  /// The successors of the next state to expand that are not recorded
  /// yet, in action order, without duplicates.
  std::vector<Child> successors() const;
  /// Records a successor of the state being expanded.
  void record(const Child &child);
  /// Moves on to the next recorded state.
  void advance() { ++next; }
  /// The index of the next state to expand (for actions()).
  size_t getNext() const { return next; }
  /// Actions from the initial state to the next state to expand.
  unsigned depth() const { return done() ? 0 : entries[next].depth; }
  /// The actions from the initial state to recorded state `index`.
  std::vector<unsigned> actions(size_t index) const;

private:
  struct Entry {
    uint32_t parent;
    unsigned action;
    unsigned depth;
  };
  const SearchEnvironment &env;
  unsigned maxDepth;
  std::vector<Entry> entries;
  std::unordered_set<StateKey, StateKeyHash> recorded;
  size_t next = 0;
};

/// The stop reason of a search that priced every reachable state.
constexpr const char *kEveryStatePriced = "every state priced";

/// Whether the cost cache holds every state reachable within `maxDepth`
/// actions: then no search can find anything better than the best priced
/// state. Walks the priced states breadth first and stops at the first
/// successor that is not priced; the next check resumes there, so the
/// whole search expands each priced state once.
class CoverageTracker {
public:
  CoverageTracker(const SearchEnvironment &env, const CostCache &cache,
                  unsigned maxDepth)
      : states(env, maxDepth), initialKey(env.getInitialState().key()),
        cache(cache) {}
  bool complete();
  /// The actions from the initial state to the unpriced state at which the
  /// last complete() stopped (empty before one did).
  const std::vector<unsigned> &getUnpriced() const { return unpriced; }

private:
  StateEnumerator states;
  StateKey initialKey;
  const CostCache &cache;
  std::vector<unsigned> unpriced;
  /// The cache's size at the last check that stopped at an unpriced state:
  /// until it grows, that state is still unpriced.
  uint64_t stalledAt = ~0ull;
};

/// Where polishing's time went (SearchResult's phase fields).
struct PolishPhases {
  double climbSeconds = -1;
  uint64_t climbStates = 0;
  unsigned restarts = 0;
};

/// Improves `best` (a trajectory from the initial state whose first
/// `fixedPrefix` actions stay) by hill climbing over its neighbours (one
/// action replaced by another or dropped, one appended, or two axes
/// exchanged in every action), then by perturbation restarts until
/// `restartPatience` fail in a row (unless `perturb` is off). Stops earlier
/// when the budget is spent or `coverage` finds every state priced. Adds
/// the evaluations to `rollouts`; returns why it stopped. A climb's step
/// tries first the moves the climb has not priced yet, then those priced
/// longest ago (`climbMemory`); within each, in a seeded random order,
/// and, given a `prior` (one value per action, higher first), drops and
/// axis exchanges first, then neighbours that append or put in a
/// higher-ranked action. Records its phases in `phases`.
std::string polish(const SearchEnvironment &env, const SearchOptions &options,
                   CostCache &cache, const Clock &clock, Trajectory &best,
                   size_t fixedPrefix, uint64_t &rollouts,
                   CoverageTracker &coverage, const std::vector<double> &prior,
                   ProgressLog &log, PolishPhases &phases);

/// Why the search must stop now: "time budget", "rollout budget" (for
/// `rollouts` done) or null.
const char *budgetReason(const SearchOptions &options, const Clock &clock,
                         uint64_t rollouts);

/// Fills the result's best state, actions, costs, times and evaluations.
void finishResult(SearchResult &result, const SearchEnvironment &env,
                  Trajectory best, uint64_t evaluations, const Clock &clock);

} // namespace toast::search::detail

#endif // TOAST_LIB_SEARCH_AUTO_SEARCHDRIVER_H
