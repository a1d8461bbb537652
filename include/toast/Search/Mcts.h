//===- Mcts.h - Monte-Carlo tree search over a SearchEnvironment -*- C++
//-*-===//
//
// The search of TOAST §4.1-4.3 over any SearchEnvironment (Environment.h):
//
//  * UCT selection over the legal actions of a state plus `stop`, with a
//    transposition table keyed by SearchState::hash, so every order of the
//    same actions shares one node;
//  * a rollout descends the tree, adds one node, finishes with a random
//    playout that stops early with probability `playoutStop` per step, and
//    is scored at its final state; trajectories are capped at `maxDepth`
//    actions and each action costs a factor `discount` of reward, which
//    biases the search towards short trajectories;
//  * the search runs in rounds: a round runs `roundRollouts` rollouts (at
//    least two per legal action of the root) from the current root. While
//    rounds improve the best cost, each commits the next action of the best
//    trajectory found so far (the root walks down it); after a round that
//    does not, the root jumps to the best state, and there a round that
//    does not improve ends the rounds (after `patience` such rounds). The
//    depth cap and the budget (time and/or rollouts; rounds stop at 80% of
//    either) also end them;
//  * then the best trajectory is polished: a hill climb over its
//    neighbours (an action replaced by another, dropped, or appended),
//    taking the first improving neighbour in a seeded random order, until
//    none improves; then random perturbations of the best trajectory are
//    climbed from and kept when better (iterated local search) until
//    `restartPatience` of them in a row fail and have priced `patienceWork`
//    ops (gains below `minGain` count as failures; `patienceRatio` also
//    bounds them by the work the best took to find). Neighbouring strategies
//    (other resolution bits, another color for an axis) often differ by
//    fractions of a percent, which rounds sample too coarsely, and the
//    rounds' best depends on the seed;
//  * the search also stops as soon as every state within the depth cap has
//    been priced (nothing is left to find), and when the budget is spent:
//    the budget is an upper bound, not the usual way to stop.
//
// Rollouts run on `threads` std::threads. Within a round every thread reads
// the table as the previous round left it and records its own statistics;
// threads merge in thread order at the round boundary, and each thread
// draws from its own random stream seeded from (seed, thread). The result
// is therefore a function of (environment, options) for a given thread
// count, unless the time budget cuts a round short.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_SEARCH_MCTS_H
#define TOAST_SEARCH_MCTS_H

#include "toast/Search/Environment.h"

#include <functional>
#include <string>
#include <vector>

namespace toast::search {

/// SearchOptions::patienceWork extends the restarts' patience at most this
/// many times.
constexpr unsigned kMaxPatienceFactor = 4;

/// SearchOptions::threads at most (the option's bound).
constexpr unsigned kMaxThreads = 256;

/// Budget and knobs shared by every search algorithm (MCTS and baselines).
struct SearchOptions {
  uint64_t seed = 1;
  unsigned threads = 1;
  /// Wall-clock budget in seconds; 0: none.
  double budgetSeconds = 0;
  /// Total rollouts (one cost evaluation each); 0: none.
  uint64_t maxRollouts = 0;
  /// Rollouts per round (at least twice the legal actions of the root).
  unsigned roundRollouts = 256;
  /// Actions per trajectory, counted from the environment's initial state.
  unsigned maxDepth = 30;
  /// Rounds at the best state that may fail to improve before the search
  /// stops.
  unsigned patience = 1;

  // MCTS only.
  /// UCT exploration constant (on rewards normalized per node to [0, 1]).
  double exploration = 0.7;
  /// Reward factor per action: shorter trajectories win near-ties.
  double discount = 0.995;
  /// Probability that a rollout leaves a new node by `stop` rather than by
  /// a random action and a playout (and, without `uniformPlayouts`, that a
  /// playout stops before each further random action).
  double playoutStop = 0.5;
  /// Playouts from wide nodes (more than roundRollouts / 4 actions, with
  /// `widen`) take a uniformly random number of random actions, from 0 to
  /// the depth cap, as random search's trajectories do, rather than a
  /// geometric number (one on average). A node's value then samples states
  /// deep below it: on wide spaces good strategies need many actions
  /// (GNS: 15-30), and geometric playouts never reach them.
  bool uniformPlayouts = true;
  /// Weight of the best reward (vs. the mean) in an edge's value.
  double maxWeight = 0.5;
  /// Progressive widening: a node visited n times has at most
  /// max(roundRollouts / 4, ceil(widen * sqrt(n + 1))) of its actions open
  /// to selection, opened in the order of their all-moves-as-first value
  /// (the rewards of every rollout whose trajectory contains the action,
  /// wherever it occurs). On wide spaces (GNS: 474 actions) trying every
  /// action of a node costs more rollouts than a short budget has; nodes
  /// with at most roundRollouts / 4 actions open them all, as in TOAST,
  /// but in that order. 0: every action open at once, in random order.
  double widen = 2;
  /// After the rounds, improve the best trajectory by hill climbing over
  /// its neighbours (one action replaced, dropped or appended) until none
  /// improves.
  bool polish = true;
  /// The share of the budget (time and rollouts) rounds leave to polishing
  /// when the budget cuts them short: rounds after the first stop at
  /// 1 - polishShare of it. At equal rollouts, climbing from the first
  /// rounds' best beat more rounds on every budget-bound full-size model
  /// measured (GNS, U-Net, t2b, ITX; docs/search.md "Budget").
  double polishShare = 0.65;
  /// The share even the first round leaves to polishing: it may run to
  /// 1 - minPolishShare of the budget. A climb from fewer rollouts than a
  /// round starts too low (DETR at 30 rollouts: 2.92 against 2.66 ms).
  double minPolishShare = 0.2;
  /// A climb tries the moves that have not failed to improve yet before
  /// those that have, and those that failed longest ago next: a step
  /// changes one action, and most failed moves fail again after it. Off:
  /// every step tries its neighbours in a new random order (given a prior,
  /// by the prior), as before 2026-11-28; at 1,500 rollouts that ended
  /// 1-6% higher on full-size U-Net and GNS (docs/performance.md,
  /// "Climbing with memory").
  bool climbMemory = true;
  /// Once the climb is stuck, keep perturbing the best trajectory and
  /// climbing from there (iterated local search) until `restartPatience`
  /// perturbations in a row fail to improve it.
  bool perturb = true;
  /// Consecutive perturbation restarts that may fail before the search
  /// stops by itself (0: stop when the first climb is stuck). 30 stops the
  /// tiny models in milliseconds; on full-size models and a real 138M
  /// transformer, improvements came after up to 21-35 failures, which 20
  /// missed (docs/search.md).
  unsigned restartPatience = 30;
  /// Where states are cheap, restarts are too, and the failures in a row
  /// that stop the search also have to price at least this much: states
  /// times SearchEnvironment::getStateWork() (ops), up to
  /// kMaxPatienceFactor times `restartPatience` failures. The scanned
  /// transformers (a thousand ops, layers in a `while`) stopped after 2-3 s
  /// with answers 8% apart across seeds; with 120 failures most seeds
  /// reach the best. Unrolled full-size models price more than this in
  /// their 30 failures and are unchanged (docs/search.md, "Patience that
  /// grows where states are cheap").
  /// 0: `restartPatience` failures alone.
  uint64_t patienceWork = 8000000;
  /// The relative gain of the best cost that counts as progress for the
  /// stopping rules: a round counts as improving, and a restart as
  /// successful (resetting `restartPatience`), only when the best cost
  /// falls below (1 - minGain) times the best counted so far. Smaller
  /// gains are kept (the best is always the best priced) but do not keep
  /// the search going: on full-size models rounds and restarts went on
  /// for minutes with gains of 0.01-0.1% (docs/search.md, "Convergence").
  /// 0: every gain counts.
  double minGain = 0;
  /// A climb from a perturbation counts as stuck once a quarter of its
  /// neighbours, and at most this many (but at least a chunk, 8 per
  /// thread), fail to improve (0: a quarter). A quarter of a wide
  /// neighbourhood is 900-1,200 states (real GPT-2 decode and torch-xla
  /// MoE exports: 134 and 422 actions), so 30 failed restarts were minutes
  /// of search; with 128 they stopped 2.8x and 4.3x sooner with the same
  /// answers (docs/performance.md, "Bounded restarts on wide spaces").
  uint64_t restartNeighbours = 128;
  /// Restarts also end when the states priced since the last counted
  /// improvement (or since the first climb got stuck, if later) exceed
  /// `patienceRatio` times the states priced until then: the patience
  /// grows with the work the best took to find. A failed restart costs a
  /// quarter of a climb's neighbourhood, hundreds of states on wide models
  /// (U-Net, GNS), where 30 of them were most of a search. 0: no limit.
  double patienceRatio = 0;

  // Exhaustive enumeration only.
  /// States enumerated at most (the initial one included).
  uint64_t maxStates = 100000;
};

/// One improvement of the best cost, for the report: when (seconds,
/// states priced), to what cost, and in which phase.
struct Improvement {
  enum Phase { Round, Climb, Restart };
  double seconds = 0;
  uint64_t states = 0;
  double cost = 0;
  Phase phase = Round;
  /// Whether it counted as progress (a gain of at least `minGain`).
  bool counted = true;
  /// Restarts: which one (from 1).
  unsigned restart = 0;
};

/// What the search reports after each round.
struct RoundInfo {
  unsigned round = 0;
  uint64_t rollouts = 0; ///< so far
  double bestCost = 0;   ///< so far
  double seconds = 0;    ///< elapsed
  /// Actions committed so far (the root's depth after the round).
  unsigned committed = 0;
};

struct SearchResult {
  /// The best state found and the actions leading to it from the initial
  /// state, in order.
  SearchState best;
  std::vector<unsigned> actions;
  double initialCost = 0;
  double bestCost = 0;
  unsigned rounds = 0;
  uint64_t rollouts = 0;
  /// Distinct states whose cost was computed.
  uint64_t evaluations = 0;
  /// Seconds until the search stopped, and until it found its best state.
  double seconds = 0;
  double secondsToBest = 0;
  /// Why the search ended, in words ("every state priced", "time budget",
  /// "30 perturbations in a row did not improve", ...).
  std::string stopReason;
  /// Why the rounds of MCTS ended, before polishing ("a round did not
  /// improve", ...); empty for the other algorithms.
  std::string roundsStopReason;
  /// MCTS's phases: seconds and states priced when the rounds ended and
  /// when the first climb after them got stuck (-1 seconds: it did not),
  /// and the perturbation restarts made after it.
  double roundsSeconds = -1;
  uint64_t roundsStates = 0;
  double climbSeconds = -1;
  uint64_t climbStates = 0;
  unsigned restarts = 0;
  /// MCTS: every improvement of the best after the initial state, in order
  /// (a climb's steps are one improvement, at its end).
  std::vector<Improvement> improvements;
  /// Exhaustive enumeration: whether every reachable state was priced, so
  /// that `best` is optimal.
  bool complete = false;
};

using ProgressFn = std::function<void(const RoundInfo &)>;

/// Runs MCTS on `env` from its initial state.
SearchResult runMcts(const SearchEnvironment &env, const SearchOptions &options,
                     const ProgressFn &progress = {});

} // namespace toast::search

#endif // TOAST_SEARCH_MCTS_H
