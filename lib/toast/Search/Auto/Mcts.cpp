//===- Mcts.cpp - Monte-Carlo tree search over a SearchEnvironment -------===//

#include "toast/Search/Mcts.h"

#include "SearchDriver.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <unordered_map>

namespace toast::search {
using namespace detail;

namespace {

/// Statistics of one edge of a node: an action, or `stop` (action -1).
struct Edge {
  int action = -1;
  uint32_t visits = 0;
  double sum = 0;
  double best = -std::numeric_limits<double>::infinity();
};

/// A state in the transposition table. edges[0] is `stop`, then the legal
/// actions in increasing order; every thread builds the same list for a
/// state, so statistics merge edge by edge.
struct Node {
  uint32_t visits = 0;
  std::vector<Edge> edges;
};

using Table = std::unordered_map<StateKey, Node, StateKeyHash>;

/// All-moves-as-first statistics of an action (Gelly and Silver's RAVE):
/// the rewards of every rollout whose trajectory from the root contains
/// it, at any position. NDA actions mostly commute (a state is the set of
/// axes its actions put on nodes), so an action that shows up in good
/// trajectories anywhere is a good candidate everywhere.
struct ActionStat {
  uint32_t visits = 0;
  double sum = 0;
  double best = -std::numeric_limits<double>::infinity();
};
using ActionStats = std::vector<ActionStat>;

/// One thread's state across rounds and its statistics for one round.
struct Worker {
  explicit Worker(uint64_t seed, unsigned thread) : rng(seed, thread) {}
  Rng rng;
  Table local;
  /// This round's all-moves-as-first statistics, merged like `local`.
  ActionStats actions;
  Trajectory best;
  bool found = false;
  uint64_t rollouts = 0;
};

/// The share of the budget rounds may use (SearchOptions::polishShare).
static double roundShare(const SearchOptions &options, bool firstRound) {
  if (!options.polish)
    return 1;
  double share = options.polishShare;
  if (firstRound)
    share = std::min(share, options.minPolishShare);
  return 1 - share;
}

class Search {
public:
  Search(const SearchEnvironment &env, const SearchOptions &options)
      : env(env), options(options), cache(env), clock(options.budgetSeconds),
        roundClock(options.budgetSeconds * roundShare(options, false)),
        firstRoundClock(options.budgetSeconds * roundShare(options, true)),
        coverage(env, cache, options.maxDepth), root(env.getInitialState()) {}

  SearchResult run(const ProgressFn &progress);

private:
  Trajectory rollout(Worker &worker);
  /// The edge UCT picks at a node known to the table or to the worker,
  /// among the edges progressive widening has opened; opens the next one
  /// when the node's visits allow it.
  unsigned select(const Node *shared, const Node *mine, Worker &worker) const;
  /// The unvisited edge of `layout` with the best all-moves-as-first value
  /// (ties broken at random).
  unsigned openNext(const Node &layout, llvm::function_ref<bool(size_t)> open,
                    Worker &worker) const;
  Node makeNode(const SearchState &state) const;
  /// The worker's statistics record for `key`, created on first use with
  /// the edge layout of `layout`.
  Node &record(Worker &worker, const StateKey &key, const Node &layout) const;
  /// A random playout from `state`: on a wide node (`uniform`), a
  /// uniformly random number of random actions up to the depth cap;
  /// otherwise random actions until it stops, with probability
  /// `playoutStop` before each.
  void playout(SearchState &state, std::vector<unsigned> &actions,
               unsigned &depth, Rng &rng, bool uniform) const;
  /// Whether a node with `numActions` legal actions is wide: progressive
  /// widening does not open them all at once.
  bool isWide(size_t numActions) const {
    return options.widen > 0 &&
           numActions > std::max(1u, options.roundRollouts) / 4;
  }
  double reward(double cost, size_t length) const;
  void runRound(std::vector<std::unique_ptr<Worker>> &workers,
                uint64_t rollouts, const Clock &roundsClock);
  void merge(Worker &worker);

  const SearchEnvironment &env;
  const SearchOptions &options;
  CostCache cache;
  Clock clock;
  /// Rounds leave a share of the time budget to polishing; the first
  /// round a smaller one.
  Clock roundClock;
  Clock firstRoundClock;
  CoverageTracker coverage;
  Table table;
  /// All-moves-as-first statistics as of the last round boundary.
  ActionStats actionStats;
  double initialCost = 0;
  SearchState root;
  std::vector<unsigned> committed;
};

Node Search::makeNode(const SearchState &state) const {
  Node node;
  node.edges.push_back(Edge{});
  for (unsigned a : legalActions(env, state))
    node.edges.push_back(Edge{static_cast<int>(a)});
  return node;
}

Node &Search::record(Worker &worker, const StateKey &key,
                     const Node &layout) const {
  auto [it, inserted] = worker.local.try_emplace(key);
  if (inserted)
    for (const Edge &edge : layout.edges)
      it->second.edges.push_back(Edge{edge.action});
  return it->second;
}

/// Each action's all-moves-as-first value (the mean and best reward mixed
/// like an edge's) normalized to [0, 1] over the actions seen; 0.5 for
/// actions no rollout has tried yet. `extra`, if any, adds a worker's
/// statistics of the running round.
static std::vector<double> actionPrior(const ActionStats &stats,
                                       const ActionStats *extra,
                                       double maxWeight) {
  std::vector<double> value(stats.size(), 0);
  std::vector<char> seen(stats.size(), 0);
  double lo = INFINITY, hi = -INFINITY;
  for (size_t a = 0; a != stats.size(); ++a) {
    uint32_t n = stats[a].visits + (extra ? (*extra)[a].visits : 0);
    if (!n)
      continue;
    double sum = stats[a].sum + (extra ? (*extra)[a].sum : 0);
    double best = std::max(stats[a].best, extra ? (*extra)[a].best : -INFINITY);
    value[a] = (1 - maxWeight) * (sum / n) + maxWeight * best;
    seen[a] = 1;
    lo = std::min(lo, value[a]);
    hi = std::max(hi, value[a]);
  }
  for (size_t a = 0; a != stats.size(); ++a)
    value[a] = !seen[a] || hi - lo <= 1e-12 ? 0.5 : (value[a] - lo) / (hi - lo);
  return value;
}

unsigned Search::openNext(const Node &layout,
                          llvm::function_ref<bool(size_t)> open,
                          Worker &worker) const {
  std::vector<double> prior =
      actionPrior(actionStats, &worker.actions, options.maxWeight);
  double bestPrior = -INFINITY;
  std::vector<unsigned> ties;
  for (size_t i = 1, e = layout.edges.size(); i != e; ++i) {
    if (open(i))
      continue;
    double p = prior[layout.edges[i].action];
    if (p > bestPrior + 1e-12) {
      bestPrior = p;
      ties.assign(1, i);
    } else if (p >= bestPrior - 1e-12) {
      ties.push_back(i);
    }
  }
  return ties[ties.size() == 1 ? 0 : worker.rng.below(ties.size())];
}

unsigned Search::select(const Node *shared, const Node *mine,
                        Worker &worker) const {
  Rng &rng = worker.rng;
  const Node &layout = shared ? *shared : *mine;
  size_t numEdges = layout.edges.size();
  auto visitsOf = [&](size_t i) {
    return (shared ? shared->edges[i].visits : 0) +
           (mine ? mine->edges[i].visits : 0);
  };
  // Edge values mix the mean and the best reward: the problem is
  // deterministic, so one good trajectory through an edge is real evidence.
  std::vector<double> value(numEdges, 0);
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  uint64_t total = 0;
  for (size_t i = 0; i != numEdges; ++i) {
    uint32_t n = visitsOf(i);
    total += n;
    if (!n)
      continue;
    double sum =
        (shared ? shared->edges[i].sum : 0) + (mine ? mine->edges[i].sum : 0);
    double best = std::max(shared ? shared->edges[i].best : -INFINITY,
                           mine ? mine->edges[i].best : -INFINITY);
    value[i] = (1 - options.maxWeight) * (sum / n) + options.maxWeight * best;
    lo = std::min(lo, value[i]);
    hi = std::max(hi, value[i]);
  }
  // Bias towards short trajectories: a node's own value (`stop`) is
  // measured before any longer trajectory through it is compared with it.
  if (visitsOf(0) == 0)
    return 0;
  // Progressive widening: a node opens its actions one at a time, best
  // all-moves-as-first value first, as its visits grow; UCT chooses among
  // the open ones. Without it a wide node (474 actions on GNS) spends its
  // first 474 visits on one visit per action.
  auto isOpen = [&](size_t i) { return i == 0 || visitsOf(i) != 0; };
  if (options.widen > 0) {
    size_t opened = 0;
    for (size_t i = 1; i != numEdges; ++i)
      opened += isOpen(i);
    // At least a quarter of a round's rollouts: narrow nodes (every
    // model's but GNS's and U-Net's, up to 64 actions) open every action
    // as in TOAST, only in the prior's order. With fewer open actions, a
    // 64-rollout search of a tiny ITX decode loop (44 actions) never tried
    // the one action that helps (test/Search/auto-loops.mlir).
    double allowed = std::max(std::ceil(options.widen * std::sqrt(total + 1.0)),
                              std::max(1u, options.roundRollouts) / 4.0);
    if (opened + 1 < numEdges && static_cast<double>(opened) < allowed)
      return openNext(layout, isOpen, worker);
  }
  // Rewards are normalized per node so that one exploration constant fits
  // every model; unvisited edges get the middle of the range.
  double logTotal = std::log(static_cast<double>(total) + 1);
  double bestScore = -INFINITY;
  std::vector<unsigned> ties;
  for (size_t i = 0; i != numEdges; ++i) {
    if (options.widen > 0 && !isOpen(i))
      continue;
    uint32_t n = visitsOf(i);
    double q = 0.5;
    if (n && hi - lo > 1e-12)
      q = (value[i] - lo) / (hi - lo);
    double score = q + options.exploration * std::sqrt(logTotal / (n + 1));
    if (score > bestScore + 1e-12) {
      bestScore = score;
      ties.assign(1, i);
    } else if (score >= bestScore - 1e-12) {
      ties.push_back(i);
    }
  }
  return ties[ties.size() == 1 ? 0 : rng.below(ties.size())];
}

void Search::playout(SearchState &state, std::vector<unsigned> &actions,
                     unsigned &depth, Rng &rng, bool uniform) const {
  if (uniform) {
    // Random search's trajectory lengths: on GNS the best strategies found
    // shard 15-30 of 474 actions, which geometric playouts (one more
    // action on average) never sample.
    size_t before = actions.size();
    appendRandomActions(env, state, actions,
                        rng.below(options.maxDepth - depth + 1), rng);
    depth += actions.size() - before;
    return;
  }
  while (depth < options.maxDepth && rng.uniform() >= options.playoutStop) {
    if (!applyRandomAction(env, state, actions, rng))
      return;
    ++depth;
  }
}

double Search::reward(double cost, size_t length) const {
  // Log of the improvement over the initial state, so halving the cost is
  // worth the same at every scale; each action costs a factor `discount`.
  // Any finite reference gives the same order; an unpriceable start state
  // takes 1. A state that could not be priced (infinite cost: the
  // reference path failed to lower it) is worth a thousandth of the
  // reference: worse than any real state but on the scale of real rewards,
  // so the per-node normalization keeps those apart and nothing is NaN.
  double reference = initialCost < 1e300 ? std::max(initialCost, 1e-300) : 1.0;
  if (!(cost < 1e300))
    cost = reference * 1e3;
  return std::log(reference / std::max(cost, 1e-300)) +
         static_cast<double>(length) * std::log(options.discount);
}

Trajectory Search::rollout(Worker &worker) {
  SearchState state = root;
  unsigned depth = committed.size();
  Trajectory trajectory;
  std::vector<std::pair<StateKey, unsigned>> path;
  while (true) {
    StateKey key = state.key();
    auto sharedIt = table.find(key);
    const Node *shared = sharedIt == table.end() ? nullptr : &sharedIt->second;
    auto mineIt = worker.local.find(key);
    const Node *mine = mineIt == worker.local.end() ? nullptr : &mineIt->second;
    if (!shared && !mine) {
      // Expansion: a new node, left by `stop` or by a random action
      // followed by a playout.
      Node &node = worker.local[key] = makeNode(state);
      unsigned edge = 0;
      if (depth < options.maxDepth && node.edges.size() > 1 &&
          worker.rng.uniform() >= options.playoutStop)
        edge = 1 + worker.rng.below(node.edges.size() - 1);
      path.push_back({key, edge});
      if (edge) {
        unsigned action = node.edges[edge].action;
        env.apply(state, action);
        trajectory.actions.push_back(action);
        ++depth;
        // Uniform playouts only where the space is wide: on full-size ITX
        // (24 actions) they priced long trajectories through the reference
        // path, 6.7x the CPU for a worse state at 400 rollouts.
        playout(state, trajectory.actions, depth, worker.rng,
                options.uniformPlayouts && isWide(node.edges.size() - 1));
      }
      break;
    }
    unsigned edge =
        depth >= options.maxDepth ? 0 : select(shared, mine, worker);
    path.push_back({key, edge});
    if (edge == 0)
      break;
    unsigned action = (shared ? shared : mine)->edges[edge].action;
    env.apply(state, action);
    trajectory.actions.push_back(action);
    ++depth;
  }
  trajectory.cost = cache.get(state);
  trajectory.seconds = clock.elapsed();
  double r = reward(trajectory.cost, depth);
  for (const auto &[key, edge] : path) {
    auto sharedIt = table.find(key);
    Node &node = sharedIt != table.end() ? record(worker, key, sharedIt->second)
                                         : worker.local.at(key);
    ++node.visits;
    Edge &e = node.edges[edge];
    ++e.visits;
    e.sum += r;
    e.best = std::max(e.best, r);
  }
  std::vector<unsigned> distinct = trajectory.actions;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  for (unsigned action : distinct) {
    ActionStat &stat = worker.actions[action];
    ++stat.visits;
    stat.sum += r;
    stat.best = std::max(stat.best, r);
  }
  return trajectory;
}

void Search::merge(Worker &worker) {
  for (auto &[key, node] : worker.local) {
    auto [it, inserted] = table.try_emplace(key);
    if (inserted) {
      it->second = std::move(node);
      continue;
    }
    Node &into = it->second;
    into.visits += node.visits;
    for (size_t i = 0, e = into.edges.size(); i != e; ++i) {
      into.edges[i].visits += node.edges[i].visits;
      into.edges[i].sum += node.edges[i].sum;
      into.edges[i].best = std::max(into.edges[i].best, node.edges[i].best);
    }
  }
  worker.local.clear();
  for (size_t a = 0, e = actionStats.size(); a != e; ++a) {
    ActionStat &into = actionStats[a], &from = worker.actions[a];
    into.visits += from.visits;
    into.sum += from.sum;
    into.best = std::max(into.best, from.best);
    from = ActionStat{};
  }
}

void Search::runRound(std::vector<std::unique_ptr<Worker>> &workers,
                      uint64_t rollouts, const Clock &roundsClock) {
  unsigned threads = workers.size();
  forEachThread(threads, [&](unsigned t) {
    Worker &worker = *workers[t];
    worker.found = false;
    worker.rollouts = 0;
    for (uint64_t i = 0, e = quota(rollouts, threads, t); i != e; ++i) {
      if (roundsClock.expired())
        break;
      Trajectory trajectory = rollout(worker);
      ++worker.rollouts;
      if (!worker.found || trajectory.betterThan(worker.best)) {
        worker.best = std::move(trajectory);
        worker.found = true;
      }
    }
  });
  // Thread order makes the table's sums, and the round's best on ties,
  // independent of scheduling.
  for (auto &worker : workers)
    merge(*worker);
}

SearchResult Search::run(const ProgressFn &progress) {
  SearchResult result;
  initialCost = cache.get(root);
  Trajectory best{initialCost, {}, clock.elapsed()};
  unsigned threads = std::max(1u, options.threads);
  std::vector<std::unique_ptr<Worker>> workers;
  actionStats.resize(env.getNumActions());
  for (unsigned t = 0; t != threads; ++t) {
    workers.push_back(std::make_unique<Worker>(options.seed, t));
    workers.back()->actions.resize(env.getNumActions());
  }
  unsigned idle = 0;
  ProgressLog log(options.minGain, initialCost, result.improvements);
  while (true) {
    // Without progressive widening, every legal action of the root is
    // tried at least twice per round. With it, a round is `roundRollouts`
    // (which opens at least a quarter as many): on GNS two per action is 948
    // rollouts, more than a 30 s budget prices under load, and the rounds
    // would never commit.
    std::vector<unsigned> rootActions = legalActions(env, root);
    SearchOptions roundOptions = options;
    if (!(options.widen > 0))
      roundOptions.roundRollouts =
          std::max<uint64_t>(options.roundRollouts, 2 * rootActions.size());
    // Rounds leave the same share of a rollout budget to polishing as of a
    // time budget.
    bool first = result.rounds == 0;
    if (options.polish && options.maxRollouts)
      roundOptions.maxRollouts = std::max<uint64_t>(
          1, static_cast<uint64_t>(options.maxRollouts *
                                   roundShare(options, first)));
    const Clock &roundsClock = first ? firstRoundClock : roundClock;
    uint64_t budget = roundBudget(roundOptions, result.rollouts);
    if (committed.size() >= options.maxDepth) {
      result.stopReason = "depth cap";
      break;
    }
    if (rootActions.empty()) {
      result.stopReason = "no legal action left";
      break;
    }
    if (const char *spent = budgetSpent(budget, roundsClock)) {
      result.stopReason = spent;
      break;
    }
    ++result.rounds;
    bool startedAtBest = best.actions.size() <= committed.size();
    runRound(workers, budget, roundsClock);
    bool improved = false;
    for (auto &worker : workers) {
      result.rollouts += worker->rollouts;
      if (!worker->found)
        continue;
      Trajectory candidate{worker->best.cost, committed, worker->best.seconds};
      candidate.actions.insert(candidate.actions.end(),
                               worker->best.actions.begin(),
                               worker->best.actions.end());
      if (candidate.betterThan(best)) {
        best = std::move(candidate);
        improved = true;
      }
    }
    // A gain below `minGain` keeps the best but is not progress: the
    // rounds treat it as a round that did not improve.
    bool progressed =
        improved && log.improve(best.cost, best.seconds,
                                cache.getNumEvaluations(), Improvement::Round);
    idle = progressed ? 0 : idle + 1;
    RoundInfo info{result.rounds, result.rollouts, best.cost, clock.elapsed()};
    // A round that does not improve ends the search (TOAST §4.1) once the
    // root has reached the best state. Before that, rounds walk down the
    // best trajectory one action at a time while they improve, each
    // exploring the siblings of the next action first; after a round that
    // does not, the root jumps to the best state. Committing the whole best
    // trajectory after every round measured worse on t2b: round 1's best
    // is often a short trajectory into a state with no legal action left.
    // A round from the best state that improves it by less than `minGain`
    // ends the rounds too: otherwise each such round jumps to the new best
    // and the rounds go on as long as they find anything at all.
    bool atBest = best.actions.size() <= committed.size();
    bool stop = (atBest && progressed) ||
                ((atBest || startedAtBest) && idle >= options.patience);
    if (!atBest) {
      size_t upto = progressed ? committed.size() + 1 : best.actions.size();
      for (size_t i = committed.size(); i != upto; ++i) {
        env.apply(root, best.actions[i]);
        committed.push_back(best.actions[i]);
      }
      info.committed = committed.size();
    }
    if (progress)
      progress(info);
    // Nothing is left to find once every reachable state has a price.
    if (coverage.complete()) {
      result.stopReason = kEveryStatePriced;
      break;
    }
    if (stop) {
      result.stopReason = progressed ? "stop is the best action"
                          : improved ? "a round improved by less than "
                                       "min-gain"
                                     : "a round did not improve";
      break;
    }
  }
  result.roundsStopReason = result.stopReason;
  result.roundsSeconds = clock.elapsed();
  result.roundsStates = cache.getNumEvaluations();
  if (options.polish && result.stopReason != kEveryStatePriced &&
      !budgetReason(options, clock, result.rollouts)) {
    PolishPhases phases;
    result.stopReason = polish(
        env, options, cache, clock, best, 0, result.rollouts, coverage,
        actionPrior(actionStats, nullptr, options.maxWeight), log, phases);
    result.climbSeconds = phases.climbSeconds;
    result.climbStates = phases.climbStates;
    result.restarts = phases.restarts;
  }
  result.complete = result.stopReason == kEveryStatePriced;
  result.initialCost = initialCost;
  finishResult(result, env, std::move(best), cache.getNumEvaluations(), clock);
  return result;
}

} // namespace

SearchResult runMcts(const SearchEnvironment &env, const SearchOptions &options,
                     const ProgressFn &progress) {
  Search search(env, options);
  return search.run(progress);
}

} // namespace toast::search
