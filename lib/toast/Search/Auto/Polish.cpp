//===- Polish.cpp - Local improvement of the best trajectory -------------===//
//
// Neighbouring strategies often differ by little: the resolution bits of
// one color, or the color an axis goes to. A round of MCTS samples too few
// of them to rank them precisely, so the search ends with a local search
// over the best trajectory's neighbours: each action replaced by any other
// action, or dropped, as long as the rest of the trajectory stays legal,
// and any action appended (models whose best strategy needs many actions,
// such as one per U-Net level, run out of rounds before the rounds find
// them all).
//
// The climb takes the first improving neighbour it meets, in a seeded
// random order and in chunks priced in parallel: a step costs a chunk
// rather than a sweep over every neighbour (1000-3000 on full-size models).
// It remembers the moves that failed and tries the others first, since a
// step changes one action and most failed moves fail again after it.
// Once the climb is stuck, the search perturbs the best trajectory (keeps
// a random prefix and adds a few random actions, or makes two random
// changes anywhere), climbs from there and keeps the result if it is
// better (iterated local search):
// the rounds' best is often a local optimum that a climb alone cannot
// leave, and which one depends on the seed. The restarts end when
// `restartPatience` of them in a row fail, when every reachable state has
// been priced, or when the budget is spent.
//
//===----------------------------------------------------------------------===//

#include "SearchDriver.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <optional>

namespace toast::search::detail {

/// The random stream of polishing (threads use streams 0, 1, ...).
constexpr uint64_t kPolishStream = 0x706f6c697368ull;
/// The share of its neighbours a climb from a perturbation tries before it
/// counts as stuck (at most SearchOptions::restartNeighbours).
constexpr double kPerturbedCoverage = 0.25;

/// Restarts in a row that price no new state before the next one starts
/// from a state the coverage tracker found unpriced (restart()). More than
/// the default restart patience, so that a search with it stops as before.
constexpr unsigned kStaleRestarts = 32;

/// `actions` applied to `state` in turn, or nullopt if one is illegal.
static std::optional<SearchState> replay(const SearchEnvironment &env,
                                         llvm::ArrayRef<unsigned> actions,
                                         SearchState state) {
  for (unsigned action : actions) {
    if (!env.isLegal(state, action))
      return std::nullopt;
    env.apply(state, action);
  }
  return state;
}

/// `actions` replayed from the initial state, or nullopt if one is illegal.
static std::optional<SearchState> replay(const SearchEnvironment &env,
                                         const std::vector<unsigned> &actions) {
  return replay(env, actions, env.getInitialState());
}

/// The states after each prefix of the legal trajectory `actions`
/// (element j: its first j actions applied).
static std::vector<SearchState>
prefixStates(const SearchEnvironment &env,
             const std::vector<unsigned> &actions) {
  std::vector<SearchState> states;
  states.reserve(actions.size() + 1);
  states.push_back(env.getInitialState());
  for (unsigned action : actions) {
    assert(env.isLegal(states.back(), action) && "an illegal trajectory");
    states.push_back(states.back());
    env.apply(states.back(), action);
  }
  return states;
}

/// The states a climb step's neighbours start from: a neighbour shares a
/// prefix with the trajectory it is a neighbour of (all of it for an
/// append, up to the changed action otherwise). Replaying every neighbour
/// from the initial state checks and applies each action on every node it
/// holds: 7.8% of a full-size t7b search's CPU (1,500 rollouts), 3.4% from
/// the shared prefix.
struct StepBase {
  std::vector<unsigned> actions;
  std::vector<SearchState> prefixes;
};

/// `actions` replayed from the longest prefix they share with `base`, or
/// nullopt if an action is illegal: the same as replay().
static std::optional<SearchState>
replayFrom(const SearchEnvironment &env, const StepBase &base,
           const std::vector<unsigned> &actions) {
  size_t shared = std::mismatch(actions.begin(), actions.end(),
                                base.actions.begin(), base.actions.end())
                      .first -
                  actions.begin();
  return replay(env, llvm::ArrayRef(actions).drop_front(shared),
                base.prefixes[shared]);
}

/// `actions` with axes `a` and `b` exchanged from `fixedPrefix` on, or
/// nullopt if some action has no counterpart or nothing changes.
static std::optional<std::vector<unsigned>>
swapAxes(const SearchEnvironment &env, const std::vector<unsigned> &actions,
         size_t fixedPrefix, unsigned a, unsigned b) {
  std::vector<unsigned> swapped = actions;
  bool changed = false;
  for (size_t i = fixedPrefix; i < swapped.size(); ++i) {
    int onA = env.getActionOnAxis(actions[i], a);
    int onB = env.getActionOnAxis(actions[i], b);
    if (onA == static_cast<int>(actions[i]) && onB >= 0)
      swapped[i] = onB;
    else if (onB == static_cast<int>(actions[i]) && onA >= 0)
      swapped[i] = onA;
    else if (onA == static_cast<int>(actions[i]) ||
             onB == static_cast<int>(actions[i]))
      return std::nullopt;
    changed |= swapped[i] != actions[i];
  }
  if (!changed)
    return std::nullopt;
  return swapped;
}

/// How a neighbour differs from the trajectory it is a neighbour of.
enum class Move : unsigned { Append, SwapAxes, Drop, Replace };

/// A move's identity across the steps of a climb: its kind, the action it
/// takes out (a drop or a replacement) and the one it brings in (an
/// append or a replacement), or the two axes it exchanges. Positions are
/// left out: a drop shifts every later one, and what a move does depends
/// on the actions it exchanges more than on where they sit. The top two
/// bits stay clear, so a key is never one of DenseMap's reserved keys;
/// beyond 2^30 actions keys may collide, which only changes the order.
static uint64_t moveKey(Move kind, uint64_t out, uint64_t in) {
  constexpr uint64_t mask = (uint64_t(1) << 30) - 1;
  return (uint64_t(kind) << 60) | ((out & mask) << 30) | (in & mask);
}

/// A neighbour of a trajectory, the action it brings in (appended or put
/// in place of another), if any, and the move that makes it.
struct Neighbour {
  std::vector<unsigned> actions;
  int added = -1;
  uint64_t move = 0;
  /// The climb step at which the move was last priced and not taken, 0 if
  /// never.
  unsigned failedAt = 0;
};

/// For each move a climb has priced, the last step (from 1) at which it
/// was priced and not taken (it failed to improve the best, or another
/// neighbour of its chunk improved it more).
using MoveMemory = llvm::DenseMap<uint64_t, unsigned>;

/// The neighbours of `actions`: one action replaced, dropped or appended,
/// or two axes exchanged in all of them.
static std::vector<Neighbour> neighbours(const SearchEnvironment &env,
                                         const std::vector<unsigned> &actions,
                                         size_t fixedPrefix,
                                         unsigned maxDepth) {
  std::vector<Neighbour> result;
  if (actions.size() < maxDepth)
    for (unsigned a = 0, e = env.getNumActions(); a != e; ++a) {
      result.push_back(
          {actions, static_cast<int>(a), moveKey(Move::Append, 0, a)});
      result.back().actions.push_back(a);
    }
  // The whole strategy (after the fixed prefix) with two axes exchanged.
  for (unsigned a = 0, e = env.getNumAxes(); a < e; ++a)
    for (unsigned b = a + 1; b < e; ++b)
      if (std::optional<std::vector<unsigned>> swapped =
              swapAxes(env, actions, fixedPrefix, a, b))
        result.push_back(
            {std::move(*swapped), -1, moveKey(Move::SwapAxes, a, b)});
  for (size_t i = fixedPrefix; i < actions.size(); ++i) {
    std::vector<unsigned> dropped = actions;
    dropped.erase(dropped.begin() + i);
    result.push_back(
        {std::move(dropped), -1, moveKey(Move::Drop, actions[i], 0)});
    for (unsigned a = 0, e = env.getNumActions(); a != e; ++a) {
      if (a == actions[i])
        continue;
      result.push_back({actions, static_cast<int>(a),
                        moveKey(Move::Replace, actions[i], a)});
      result.back().actions[i] = a;
    }
  }
  return result;
}

/// `candidates` in a seeded random order, then stably: the moves this
/// climb has not priced yet first, then those priced (and not taken)
/// longest ago, and within each, given a prior, by the prior of the action
/// each brings in (drops and axis exchanges, a few per trajectory, first;
/// actions `current` has already, which can only be illegal again, last).
///
/// A step of a climb changes one action, and most moves that failed before
/// it fail again after it; in a random order each step would spend most of
/// its evaluations on them again, and on wide spaces a sweep is thousands
/// of states. Full-size U-Net (a100, {B:8, M:4}, seed 1): the first climb
/// got stuck after 3,200 states at cost 0.08017 instead of 9,000 at 0.08127
/// (docs/search.md, "Climbing with memory"). The prior puts the actions of
/// good rollouts before the rest.
static std::vector<Neighbour> order(std::vector<Neighbour> candidates,
                                    const std::vector<unsigned> &current,
                                    const std::vector<double> &prior,
                                    const MoveMemory &failed, Rng &rng) {
  for (size_t i = candidates.size(); i > 1; --i)
    std::swap(candidates[i - 1], candidates[rng.below(i)]);
  for (Neighbour &n : candidates) {
    auto it = failed.find(n.move);
    n.failedAt = it == failed.end() ? 0 : it->second;
  }
  std::vector<char> has(prior.size(), 0);
  for (unsigned a : current)
    if (a < has.size())
      has[a] = 1;
  auto rank = [&](const Neighbour &n) {
    if (prior.empty() || n.added < 0)
      return 2.0;
    return has[n.added] ? -1.0 : prior[n.added];
  };
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](const Neighbour &a, const Neighbour &b) {
                     if (a.failedAt != b.failedAt)
                       return a.failedAt < b.failedAt;
                     return rank(a) > rank(b);
                   });
  return candidates;
}

/// Prices one chunk of candidates in parallel and moves `best` to the best
/// improving one. Returns whether it moved; `stop` when the budget ran out.
static bool climbChunk(const SearchEnvironment &env,
                       const SearchOptions &options, CostCache &cache,
                       const Clock &clock, Trajectory &best,
                       const StepBase &base,
                       llvm::MutableArrayRef<Neighbour> chunk,
                       uint64_t &rollouts, bool &stop) {
  // Only legal candidates cost an evaluation. Replays are cheaper than
  // evaluations but not free on large programs (every action is checked
  // and applied), so they run in parallel too.
  // Threads take the next candidate as they finish one: prices differ by
  // 20x once pricing stops at the best (costBelow). Results go by index,
  // so which thread prices what changes nothing.
  unsigned threads = std::max(1u, options.threads);
  std::vector<std::optional<SearchState>> replayed(chunk.size());
  std::atomic<size_t> nextReplay{0};
  forEachThread(threads, [&](unsigned) {
    for (size_t i; (i = nextReplay++) < chunk.size();)
      replayed[i] = replayFrom(env, base, chunk[i].actions);
  });
  std::vector<std::pair<std::vector<unsigned>, SearchState>> legal;
  for (size_t i = 0; i != chunk.size(); ++i)
    if (replayed[i])
      legal.push_back({std::move(chunk[i].actions), std::move(*replayed[i])});
  uint64_t budget = legal.size();
  if (options.maxRollouts)
    budget = std::min<uint64_t>(
        budget, options.maxRollouts - std::min(options.maxRollouts, rollouts));
  std::vector<double> costs(budget, 0);
  std::vector<char> done(budget, 0);
  std::atomic<uint64_t> nextPrice{0};
  forEachThread(threads, [&](unsigned) {
    for (uint64_t i; !clock.expired() && (i = nextPrice++) < budget;) {
      // Only whether it beats the best matters: pricing may stop once it
      // cannot (SearchEnvironment::costBelow).
      costs[i] = cache.getBelow(legal[i].second, best.cost);
      done[i] = 1;
    }
  });
  stop = budget < legal.size() || clock.expired();
  // In candidate order, so ties go to the same neighbour every run.
  bool moved = false;
  for (uint64_t i = 0; i != budget; ++i) {
    if (!done[i])
      continue;
    ++rollouts;
    Trajectory candidate{costs[i], std::move(legal[i].first), clock.elapsed()};
    if (candidate.betterThan(best)) {
      best = std::move(candidate);
      moved = true;
    }
  }
  return moved;
}

/// First-improvement hill climbing from `best`; returns false when the
/// budget ran out before the climb got stuck. A step that finds no
/// improving neighbour among the first `coverage` of them (at most
/// `maxTried`, if not 0; at least a chunk) ends the climb.
static bool climb(const SearchEnvironment &env, const SearchOptions &options,
                  CostCache &cache, const Clock &clock, Trajectory &best,
                  size_t fixedPrefix, uint64_t &rollouts, Rng &rng,
                  const std::vector<double> &prior, double coverage = 1,
                  uint64_t maxTried = 0) {
  size_t chunkSize = 8 * std::max(1u, options.threads);
  MoveMemory failed;
  for (unsigned step = 1;; ++step) {
    std::vector<Neighbour> candidates =
        order(neighbours(env, best.actions, fixedPrefix, options.maxDepth),
              best.actions, prior, failed, rng);
    // At most all of them: coverage is at most 1.
    uint64_t tried = static_cast<uint64_t>(candidates.size() * coverage);
    if (maxTried)
      tried = std::min(tried, maxTried);
    candidates.resize(
        std::max<size_t>(std::min(candidates.size(), chunkSize), tried));
    StepBase base{best.actions, prefixStates(env, best.actions)};
    bool moved = false, stop = false;
    for (size_t from = 0; from < candidates.size() && !moved && !stop;
         from += chunkSize) {
      size_t size = std::min(chunkSize, candidates.size() - from);
      moved = climbChunk(env, options, cache, clock, best, base,
                         llvm::MutableArrayRef(candidates).slice(from, size),
                         rollouts, stop);
      if (options.climbMemory)
        for (size_t i = from; i != from + size; ++i)
          failed[candidates[i].move] = step;
    }
    if (stop)
      return false;
    if (!moved)
      return true;
  }
}

/// A random trajectory a few moves from `best`: a random prefix kept (the
/// first `fixedPrefix` actions always), then one to four random legal
/// actions.
static std::pair<Trajectory, SearchState>
perturb(const SearchEnvironment &env, const SearchOptions &options,
        const Trajectory &best, size_t fixedPrefix, Rng &rng) {
  size_t keep = fixedPrefix + rng.below(best.actions.size() - fixedPrefix + 1);
  Trajectory start{0, {best.actions.begin(), best.actions.begin() + keep}};
  // A prefix of a legal trajectory is legal.
  SearchState state = *replay(env, start.actions);
  size_t room = options.maxDepth - std::min<size_t>(options.maxDepth, keep);
  appendRandomActions(env, state, start.actions,
                      std::min<size_t>(room, 1 + rng.below(4)), rng);
  return {std::move(start), std::move(state)};
}

/// A kick: two random single-action changes of `best` (an action replaced,
/// inserted or dropped after the fixed prefix), a move that the climb,
/// which makes one change at a time, cannot make when the first change
/// alone is worse. Falls back to perturb() when no legal kick turns up.
static std::pair<Trajectory, SearchState> kick(const SearchEnvironment &env,
                                               const SearchOptions &options,
                                               const Trajectory &best,
                                               size_t fixedPrefix, Rng &rng) {
  unsigned numActions = env.getNumActions();
  for (unsigned attempt = 0; attempt != 32 && numActions; ++attempt) {
    Trajectory start{0, best.actions};
    std::vector<unsigned> &actions = start.actions;
    for (unsigned change = 0; change != 2; ++change) {
      size_t free = actions.size() - fixedPrefix;
      unsigned kind = rng.below(3);
      if (kind == 0 && actions.size() < options.maxDepth)
        actions.insert(actions.begin() + fixedPrefix + rng.below(free + 1),
                       rng.below(numActions));
      else if (kind == 1 && free)
        actions.erase(actions.begin() + fixedPrefix + rng.below(free));
      else if (free)
        actions[fixedPrefix + rng.below(free)] = rng.below(numActions);
    }
    if (actions == best.actions)
      continue;
    if (std::optional<SearchState> state = replay(env, actions))
      return {std::move(start), std::move(*state)};
  }
  return perturb(env, options, best, fixedPrefix, rng);
}

/// Whether `failed` restarts in a row that priced `states` states are
/// enough to stop (SearchOptions::patienceWork): on a cheap program a
/// restart is cheap, and the improving ones may come after a hundred
/// failures.
static bool enoughWork(const SearchEnvironment &env,
                       const SearchOptions &options, unsigned failed,
                       uint64_t states) {
  uint64_t work = env.getStateWork();
  if (!options.patienceWork || !work ||
      failed >= uint64_t(kMaxPatienceFactor) * options.restartPatience)
    return true;
  // Rounded up without overflow (patience-work may be any uint64_t).
  return states >=
         options.patienceWork / work + (options.patienceWork % work != 0);
}

/// Iterated local search from the best trajectory, a local optimum: climbs
/// from random perturbations of it until `restartPatience` of them in a row
/// fail to improve it (the search has converged), the budget is spent or
/// every state is priced. Returns why it stopped.
static std::string restart(const SearchEnvironment &env,
                           const SearchOptions &options, CostCache &cache,
                           const Clock &clock, Trajectory &best,
                           size_t fixedPrefix, uint64_t &rollouts,
                           CoverageTracker &coverage,
                           const std::vector<double> &prior, ProgressLog &log,
                           Rng &rng, unsigned &restarts) {
  uint64_t stuckAt = cache.getNumEvaluations();
  // Restarts in a row that priced no new state. Restarts stay near the
  // best, so on a small space they can run out of new states while some
  // are still unpriced (11 of the 676 of the MLP on {B:2, M:2}); with a
  // large patience the search would then never end. After kStaleRestarts
  // of them, a restart starts from the first state the coverage tracker
  // found unpriced, so that it prices something, until every state is.
  unsigned stale = 0;
  for (unsigned failed = 0;; ++restarts) {
    if (const char *spent = budgetReason(options, clock, rollouts))
      return spent;
    // Patience in proportion to the work that found the best (or that the
    // rounds and the first climb took, if more).
    uint64_t since = std::max(stuckAt, log.getCountedStates());
    if (failed >= options.restartPatience &&
        enoughWork(env, options, failed, cache.getNumEvaluations() - since))
      return std::to_string(failed) + " perturbations in a row did not improve";
    if (options.patienceRatio > 0 && failed &&
        cache.getNumEvaluations() - since > options.patienceRatio * since)
      return std::to_string(failed) +
             " perturbations in a row did not improve (patience ratio)";
    // Half the restarts rebuild a random suffix, half kick the whole
    // trajectory: on the full-size t2b (TPUv3, seeds 1-3) suffixes alone
    // left one seed 20% above the median step time, kicks alone one 9%
    // above, the mix none (docs/search.md).
    std::optional<SearchState> unpriced;
    if (stale >= kStaleRestarts && fixedPrefix == 0 &&
        !coverage.getUnpriced().empty())
      unpriced = replay(env, coverage.getUnpriced());
    auto [candidate, state] =
        unpriced       ? std::make_pair(Trajectory{0, coverage.getUnpriced()},
                                        std::move(*unpriced))
        : rng.below(2) ? kick(env, options, best, fixedPrefix, rng)
                       : perturb(env, options, best, fixedPrefix, rng);
    uint64_t pricedBefore = cache.getNumEvaluations();
    candidate.cost = cache.get(state);
    candidate.seconds = clock.elapsed();
    ++rollouts;
    // A quarter of the neighbours, at most `restartNeighbours`, decides
    // that a perturbed climb is stuck: confirming a local optimum costs a
    // whole sweep, and most perturbed climbs end far from the best anyway.
    // On wide spaces a quarter is close to a thousand states (a GPT-2
    // decode export, 134 actions by 25: 30 failed restarts took 112 s of
    // its 134 s search; bounded at 128, the restarts took 25 s of 48 s,
    // same answer). That share is not the prior's best (its order is
    // random but for the climb's memory): restarts are there to leave what
    // the rounds believed, and with the prior's order the actions of poor
    // rollouts would never be tried (Mcts.PerturbationsLeaveALocalOptimum).
    climb(env, options, cache, clock, candidate, fixedPrefix, rollouts, rng, {},
          kPerturbedCoverage, options.restartNeighbours);
    if (candidate.betterThan(best)) {
      // Finish the climb over every neighbour, so that the best is a local
      // optimum whenever the search stops by itself.
      climb(env, options, cache, clock, candidate, fixedPrefix, rollouts, rng,
            prior);
      best = std::move(candidate);
      // A gain below `minGain` is kept but does not renew the patience.
      bool counts =
          log.improve(best.cost, best.seconds, cache.getNumEvaluations(),
                      Improvement::Restart, restarts + 1);
      failed = counts ? 0 : failed + 1;
    } else {
      ++failed;
    }
    stale = cache.getNumEvaluations() == pricedBefore ? stale + 1 : 0;
    if (coverage.complete())
      return kEveryStatePriced;
  }
}

std::string polish(const SearchEnvironment &env, const SearchOptions &options,
                   CostCache &cache, const Clock &clock, Trajectory &best,
                   size_t fixedPrefix, uint64_t &rollouts,
                   CoverageTracker &coverage, const std::vector<double> &prior,
                   ProgressLog &log, PolishPhases &phases) {
  // One stream for the whole polish, so its result depends on the seed
  // only (chunks are priced in parallel but compared in order).
  Rng rng(options.seed, kPolishStream);
  double before = best.cost;
  bool stuck = climb(env, options, cache, clock, best, fixedPrefix, rollouts,
                     rng, prior);
  if (best.cost < before)
    log.improve(best.cost, best.seconds, cache.getNumEvaluations(),
                Improvement::Climb);
  if (!stuck) {
    const char *spent = budgetReason(options, clock, rollouts);
    return spent ? spent : "rollout budget";
  }
  phases.climbSeconds = clock.elapsed();
  phases.climbStates = cache.getNumEvaluations();
  if (coverage.complete())
    return kEveryStatePriced;
  if (!options.perturb || options.restartPatience == 0)
    return "no neighbour improves";
  return restart(env, options, cache, clock, best, fixedPrefix, rollouts,
                 coverage, prior, log, rng, phases.restarts);
}

} // namespace toast::search::detail
