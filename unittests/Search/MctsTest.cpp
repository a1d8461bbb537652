//===- MctsTest.cpp - MCTS and random search on toy environments ----------===//
//
// Toy environments whose optimum is known: a node per "bit", an action sets
// its bit (axis mask 1), and the cost is a function of the set bits.
//
//===----------------------------------------------------------------------===//

#include "toast/Search/Mcts.h"
#include "toast/Search/Baselines.h"

#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <mutex>
#include <set>
#include <thread>

using namespace toast::search;

namespace {

/// Action i sets bit i; `costFn` prices the bit vector.
class BitsEnvironment : public SearchEnvironment {
public:
  using CostFn = std::function<double(const std::vector<bool> &)>;
  BitsEnvironment(unsigned bits, CostFn costFn)
      : bits(bits), costFn(std::move(costFn)) {}

  unsigned getNumActions() const override { return bits; }
  std::string describeAction(unsigned action) const override {
    return "set bit " + std::to_string(action);
  }
  SearchState getInitialState() const override {
    return SearchState{std::vector<AxisMask>(bits, 0)};
  }
  bool isLegal(const SearchState &state, unsigned action) const override {
    return state.nodeAxes[action] == 0;
  }
  void apply(SearchState &state, unsigned action) const override {
    state.nodeAxes[action] = 1;
  }
  double cost(const SearchState &state) const override {
    std::vector<bool> set(bits);
    for (unsigned i = 0; i != bits; ++i)
      set[i] = state.nodeAxes[i] != 0;
    return costFn(set);
  }
  uint64_t getStateWork() const override { return stateWork; }
  /// What getStateWork() reports (0: unknown).
  uint64_t stateWork = 0;

private:
  unsigned bits;
  CostFn costFn;
};

/// Bits 0..good-1 each halve the cost; the others double it.
BitsEnvironment halvingEnvironment(unsigned bits, unsigned good) {
  return BitsEnvironment(bits, [good](const std::vector<bool> &set) {
    double cost = 1;
    for (unsigned i = 0; i != set.size(); ++i)
      if (set[i])
        cost *= i < good ? 0.5 : 2.0;
    return cost;
  });
}

std::set<unsigned> asSet(const std::vector<unsigned> &actions) {
  return std::set<unsigned>(actions.begin(), actions.end());
}

SearchOptions smallBudget(unsigned threads = 1, uint64_t seed = 1) {
  SearchOptions options;
  options.threads = threads;
  options.seed = seed;
  options.maxRollouts = 4000;
  options.roundRollouts = 200;
  return options;
}

TEST(Mcts, FindsIndependentImprovements) {
  BitsEnvironment env = halvingEnvironment(12, 3);
  SearchResult result = runMcts(env, smallBudget());
  EXPECT_EQ(asSet(result.actions), (std::set<unsigned>{0, 1, 2}));
  EXPECT_DOUBLE_EQ(result.bestCost, 0.125);
  EXPECT_DOUBLE_EQ(result.initialCost, 1.0);
  EXPECT_EQ(env.cost(result.best), result.bestCost);
}

TEST(Mcts, StopsAtTheInitialStateWhenNothingHelps) {
  BitsEnvironment env = halvingEnvironment(8, 0);
  SearchResult result = runMcts(env, smallBudget());
  EXPECT_TRUE(result.actions.empty());
  EXPECT_EQ(result.best, env.getInitialState());
  EXPECT_DOUBLE_EQ(result.bestCost, 1.0);
  // A round that finds nothing better ends the search early.
  EXPECT_EQ(result.rounds, 1u);
}

TEST(Mcts, FindsPairsThatOnlyHelpTogether) {
  // Bits 4 and 7 each cost 10% alone but quarter the cost together; bit 1
  // helps a little on its own.
  BitsEnvironment env(10, [](const std::vector<bool> &set) {
    double cost = 1;
    for (unsigned i = 0; i != set.size(); ++i)
      if (set[i] && i != 1 && i != 4 && i != 7)
        cost *= 1.5;
    if (set[4] != set[7])
      cost *= 1.1;
    if (set[4] && set[7])
      cost *= 0.25;
    if (set[1])
      cost *= 0.9;
    return cost;
  });
  SearchResult result = runMcts(env, smallBudget());
  EXPECT_EQ(asSet(result.actions), (std::set<unsigned>{1, 4, 7}));
  EXPECT_NEAR(result.bestCost, 0.225, 1e-12);
}

TEST(Mcts, StatesThatCannotBePricedAreAvoided) {
  // An infinite cost is a state the environment could not price (the
  // reference path failed to lower it); it used to turn the normalized
  // scores into NaN and the selection divided by zero.
  BitsEnvironment env(8, [](const std::vector<bool> &set) {
    if (set[3] || set[5])
      return std::numeric_limits<double>::infinity();
    return (set[0] ? 0.5 : 1.0) * (set[1] ? 0.5 : 1.0);
  });
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    SearchResult result = runMcts(env, smallBudget(2, seed));
    EXPECT_EQ(asSet(result.actions), (std::set<unsigned>{0, 1}));
    EXPECT_DOUBLE_EQ(result.bestCost, 0.25);
  }
  // An unpriceable start state: every other state is better.
  BitsEnvironment badStart(6, [](const std::vector<bool> &set) {
    if (!set[2])
      return std::numeric_limits<double>::infinity();
    return set[4] ? 0.5 : 1.0;
  });
  SearchResult result = runMcts(badStart, smallBudget());
  EXPECT_EQ(asSet(result.actions), (std::set<unsigned>{2, 4}));
  EXPECT_DOUBLE_EQ(result.bestCost, 0.5);
}

TEST(Mcts, TrajectoriesAreCappedAtMaxDepth) {
  BitsEnvironment env = halvingEnvironment(40, 40);
  SearchOptions options = smallBudget();
  options.maxDepth = 5;
  SearchResult result = runMcts(env, options);
  EXPECT_EQ(result.actions.size(), 5u);
  EXPECT_DOUBLE_EQ(result.bestCost, 1.0 / 32);
}

TEST(Mcts, PrefersShorterTrajectoriesOnTies) {
  // Bit 0 halves the cost; the others change nothing.
  BitsEnvironment env(
      6, [](const std::vector<bool> &set) { return set[0] ? 0.5 : 1.0; });
  SearchResult result = runMcts(env, smallBudget());
  EXPECT_EQ(result.actions, std::vector<unsigned>{0});
}

TEST(Mcts, RespectsTheRolloutBudget) {
  BitsEnvironment env = halvingEnvironment(30, 30);
  SearchOptions options = smallBudget();
  options.maxRollouts = 200;
  options.roundRollouts = 100;
  SearchResult result = runMcts(env, options);
  EXPECT_EQ(result.rollouts, 200u);
  // The first round may run to 80% of the budget (160 rollouts), later
  // rounds stop at 35% (70): one round of 100, and polishing spends the
  // rest.
  EXPECT_EQ(result.rounds, 1u);
  EXPECT_EQ(result.stopReason.rfind("rollout budget", 0), 0u)
      << result.stopReason;
  EXPECT_LT(result.bestCost, 1.0);
  // Rounds of 40: 40, then 30 to reach 35%.
  options.roundRollouts = 40;
  result = runMcts(env, options);
  EXPECT_EQ(result.rollouts, 200u);
  EXPECT_EQ(result.rounds, 2u);
}

TEST(Mcts, PerturbationsLeaveALocalOptimum) {
  // Bit 0 alone halves the cost; bits 1, 2, 3 together (without bit 0)
  // give 0.2, but one or two of them cost 20% more. No single move leads
  // from {0} towards {1, 2, 3}: a climb stops at {0}.
  BitsEnvironment env(30, [](const std::vector<bool> &set) {
    unsigned trio = set[1] + set[2] + set[3];
    double cost = set[0] ? 0.5 : 1.0;
    if (trio == 3 && !set[0])
      return 0.2;
    if (trio)
      cost *= 1.2;
    for (unsigned i = 4; i != set.size(); ++i)
      if (set[i])
        cost *= 1.5;
    return cost;
  });
  SearchOptions options = smallBudget(1, 3);
  options.maxRollouts = 3000;
  // Rounds get 60 rollouts of geometric playouts: too few to meet the trio
  // by chance (uniform playouts, 15 random bits on average, meet it in a
  // few dozen: the trio ignores the other bits).
  options.polishShare = options.minPolishShare = 0.98;
  options.uniformPlayouts = false;
  options.perturb = false;
  SearchResult climbed = runMcts(env, options);
  EXPECT_DOUBLE_EQ(climbed.bestCost, 0.5);
  options.perturb = true;
  SearchResult perturbed = runMcts(env, options);
  EXPECT_DOUBLE_EQ(perturbed.bestCost, 0.2);
  EXPECT_EQ(asSet(perturbed.actions), (std::set<unsigned>{1, 2, 3}));
  // Perturbations stop once enough in a row fail to improve on the optimum.
  EXPECT_LE(perturbed.rollouts, 3000u);
  EXPECT_EQ(perturbed.stopReason, "30 perturbations in a row did not improve");
}

/// Bits on two axes: action 2i + k puts bit i on axis k. k of bits 0-3 on
/// axis 0 give 0.5 * 0.9^(k-1), on axis 1 0.9 * 0.6^(k-1): one bit is best
/// on axis 0, four are best on axis 1. Using both axes triples the cost,
/// the other bits double it.
class TwoAxesEnvironment : public BitsEnvironment {
public:
  explicit TwoAxesEnvironment(bool linked)
      : BitsEnvironment(8, {}), linked(linked) {}
  unsigned getNumActions() const override { return 16; }
  bool isLegal(const SearchState &state, unsigned action) const override {
    return state.nodeAxes[action / 2] == 0;
  }
  void apply(SearchState &state, unsigned action) const override {
    state.nodeAxes[action / 2] = 1u << (action % 2);
  }
  double cost(const SearchState &state) const override {
    unsigned good[2] = {0, 0};
    double cost = 1;
    for (unsigned i = 0; i != 8; ++i) {
      if (!state.nodeAxes[i])
        continue;
      if (i >= 4)
        cost *= 2;
      else
        ++good[state.nodeAxes[i] == 1 ? 0 : 1];
    }
    if (good[0])
      cost *= 0.5 * std::pow(0.9, good[0] - 1);
    if (good[1])
      cost *= 0.9 * std::pow(0.6, good[1] - 1);
    return good[0] && good[1] ? 3 * cost : cost;
  }
  unsigned getNumAxes() const override { return linked ? 2 : 0; }
  int getActionOnAxis(unsigned action, unsigned axis) const override {
    return linked ? static_cast<int>(action / 2 * 2 + axis) : -1;
  }

private:
  bool linked;
};

TEST(Mcts, PolishingMovesAStrategyToOtherAxes) {
  SearchOptions options = smallBudget(1, 2);
  options.maxRollouts = 2000;
  options.roundRollouts = 16;
  options.polishShare = options.minPolishShare = 0.99;
  options.perturb = false;
  // The rounds (20 rollouts) settle on axis 0; single-action changes
  // cannot leave it, exchanging the axes of the whole strategy can.
  SearchResult stuck = runMcts(TwoAxesEnvironment(false), options);
  EXPECT_NEAR(stuck.bestCost, 0.5 * std::pow(0.9, 3), 1e-12);
  SearchResult moved = runMcts(TwoAxesEnvironment(true), options);
  EXPECT_NEAR(moved.bestCost, 0.9 * std::pow(0.6, 3), 1e-12);
}

TEST(Mcts, RespectsTheTimeBudget) {
  // A slow cost: 1 ms per state.
  BitsEnvironment env(30, [](const std::vector<bool> &set) {
    auto until =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(1);
    while (std::chrono::steady_clock::now() < until) {
    }
    double cost = 1;
    for (bool b : set)
      cost *= b ? 0.9 : 1;
    return cost;
  });
  SearchOptions options;
  options.budgetSeconds = 0.3;
  options.threads = 2;
  SearchResult result = runMcts(env, options);
  EXPECT_LT(result.seconds, 1.0);
  // Rounds stop at 80% of the budget; polishing may use the rest.
  EXPECT_EQ(result.stopReason.rfind("time budget", 0), 0u) << result.stopReason;
  EXPECT_LT(result.bestCost, 1.0);
}

TEST(Mcts, ProgressIsReportedPerRound) {
  BitsEnvironment env = halvingEnvironment(12, 3);
  std::vector<RoundInfo> rounds;
  SearchResult result = runMcts(
      env, smallBudget(), [&](const RoundInfo &r) { rounds.push_back(r); });
  ASSERT_EQ(rounds.size(), result.rounds);
  for (size_t i = 1; i < rounds.size(); ++i)
    EXPECT_LE(rounds[i].bestCost, rounds[i - 1].bestCost);
  EXPECT_EQ(rounds.back().bestCost, result.bestCost);
}

/// Results that must be identical for identical (seed, threads).
void expectSameResult(const SearchResult &a, const SearchResult &b) {
  EXPECT_EQ(a.actions, b.actions);
  EXPECT_EQ(a.bestCost, b.bestCost);
  EXPECT_EQ(a.best, b.best);
  EXPECT_EQ(a.rounds, b.rounds);
  EXPECT_EQ(a.rollouts, b.rollouts);
}

/// A rugged landscape where different seeds find different local optima.
BitsEnvironment ruggedEnvironment(unsigned bits = 24) {
  return BitsEnvironment(bits, [](const std::vector<bool> &set) {
    double cost = 1;
    for (unsigned i = 0; i != set.size(); ++i)
      for (unsigned j = i + 1; j < set.size(); j += 5)
        if (set[i] && set[j])
          cost *= ((i * 7 + j * 13) % 11) / 10.0 + 0.5;
    for (unsigned i = 0; i != set.size(); ++i)
      if (set[i])
        cost *= 0.97 + 0.01 * (i % 5);
    return cost;
  });
}

TEST(Mcts, SameSeedAndThreadsGiveTheSameResult) {
  BitsEnvironment env = ruggedEnvironment();
  for (unsigned threads : {1u, 2u, 3u}) {
    SearchOptions options = smallBudget(threads, 7);
    options.maxRollouts = 1500;
    options.roundRollouts = 150;
    SearchResult first = runMcts(env, options);
    SearchResult second = runMcts(env, options);
    SCOPED_TRACE(threads);
    expectSameResult(first, second);
  }
}

TEST(Mcts, PricingThreadsOutliveRoundsAndClimbs) {
  // The pricer keeps per-thread scratch (the NDA space's workspace), which
  // only pays off if the same threads price every round and climb chunk:
  // the caller is thread 0, the others stay for the next call.
  std::mutex mutex;
  std::set<std::thread::id> pricers;
  BitsEnvironment rugged = ruggedEnvironment();
  BitsEnvironment env(24, [&](const std::vector<bool> &set) {
    std::lock_guard<std::mutex> lock(mutex);
    pricers.insert(std::this_thread::get_id());
    return rugged.cost(
        SearchState{std::vector<AxisMask>(set.begin(), set.end())});
  });
  SearchOptions options = smallBudget(3, 5);
  options.maxRollouts = 0;
  SearchResult result = runMcts(env, options);
  EXPECT_GT(result.restarts, 1u);
  EXPECT_GT(result.evaluations, 100u);
  EXPECT_LE(pricers.size(), 3u);
  EXPECT_TRUE(pricers.count(std::this_thread::get_id()));
  // A second search from the same thread reuses them.
  std::set<std::thread::id> first = pricers;
  options.seed = 6;
  runMcts(env, options);
  EXPECT_EQ(pricers, first);
}

/// The rugged environment, answering costBelow with the bound itself (plus
/// the margin) when the cost reaches it, as an environment that stops
/// pricing there would.
class BoundedEnvironment : public BitsEnvironment {
public:
  BoundedEnvironment() : BitsEnvironment(ruggedEnvironment()) {}
  double costBelow(const SearchState &state, double bound) const override {
    double cost = this->cost(state);
    double atLeast = SearchEnvironment::atLeast(bound);
    if (cost < atLeast)
      return cost;
    ++stopped;
    return atLeast;
  }
  mutable std::atomic<unsigned> stopped{0};
};

TEST(Mcts, ClimbsThatStopPricingAtTheBestFindTheSame) {
  // Climbs ask only whether a neighbour beats their best: a value at the
  // bound answers that, and the search is the same step for step.
  BoundedEnvironment bounded;
  BitsEnvironment full = ruggedEnvironment();
  for (unsigned threads : {1u, 2u}) {
    SearchOptions options = smallBudget(threads, 3);
    options.maxRollouts = 0;
    SearchResult a = runMcts(full, options);
    SearchResult b = runMcts(bounded, options);
    SCOPED_TRACE(threads);
    EXPECT_EQ(a.actions, b.actions);
    EXPECT_EQ(a.bestCost, b.bestCost);
    EXPECT_EQ(a.evaluations, b.evaluations);
    EXPECT_EQ(a.restarts, b.restarts);
    EXPECT_EQ(a.stopReason, b.stopReason);
  }
  EXPECT_GT(bounded.stopped.load(), 100u);
}

TEST(RandomSearch, FindsTheOptimumOfASmallSpace) {
  BitsEnvironment env = halvingEnvironment(4, 2);
  SearchResult result = runRandomSearch(env, smallBudget());
  EXPECT_EQ(asSet(result.actions), (std::set<unsigned>{0, 1}));
  EXPECT_DOUBLE_EQ(result.bestCost, 0.25);
  EXPECT_EQ(result.rollouts, 4000u);
}

TEST(RandomSearch, SameSeedAndThreadsGiveTheSameResult) {
  BitsEnvironment env = ruggedEnvironment();
  for (unsigned threads : {1u, 2u}) {
    SearchOptions options = smallBudget(threads, 3);
    options.maxRollouts = 500;
    SCOPED_TRACE(threads);
    expectSameResult(runRandomSearch(env, options),
                     runRandomSearch(env, options));
  }
}

TEST(RandomSearch, MctsDoesBetterOnADeepOptimum) {
  // Twelve good bits among forty: random trajectories rarely pick only
  // good ones.
  BitsEnvironment env = halvingEnvironment(40, 12);
  SearchOptions options = smallBudget(2, 5);
  options.maxRollouts = 3000;
  SearchResult mcts = runMcts(env, options);
  SearchResult random = runRandomSearch(env, options);
  EXPECT_LT(mcts.bestCost, random.bestCost);
  EXPECT_DOUBLE_EQ(mcts.bestCost, std::pow(0.5, 12));
}

/// A wide space, as GNS's 474 actions, where the best strategies take many
/// actions: 400 bits, three in four of which each cut the cost by 5%, the
/// fourth raising it by 30%.
BitsEnvironment wideEnvironment() {
  return BitsEnvironment(400, [](const std::vector<bool> &set) {
    double cost = 1;
    for (unsigned i = 0; i != set.size(); ++i)
      if (set[i])
        cost *= i % 4 ? 0.95 : 1.3;
    return cost;
  });
}

TEST(Mcts, WideSpacesNeedFewerRolloutsThanActions) {
  // 300 rollouts, fewer than one per action: TOAST's rounds (every action
  // of the root twice, geometric playouts) spend them on one or two
  // actions per trajectory and end at 0.63-0.66 (seeds 1-3). Progressive
  // widening by the all-moves-as-first values and uniform playouts reach
  // 0.28-0.54 (random search: 0.40-0.54; on this toy it is not always
  // beaten).
  BitsEnvironment env = wideEnvironment();
  for (uint64_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(seed);
    SearchOptions options = smallBudget(2, seed);
    options.maxRollouts = 300;
    options.roundRollouts = 256;
    SearchResult wide = runMcts(env, options);
    options.widen = 0;
    options.uniformPlayouts = false;
    SearchResult toast = runMcts(env, options);
    EXPECT_LT(wide.bestCost, 0.9 * toast.bestCost);
  }
}

TEST(Mcts, WideningIsReproducibleForAGivenSeedAndThreadCount) {
  // The order in which a node opens its actions depends on statistics
  // merged at round boundaries in thread order and on each thread's own
  // random stream, never on scheduling.
  BitsEnvironment env = wideEnvironment();
  for (unsigned threads : {1u, 2u}) {
    SCOPED_TRACE(threads);
    SearchOptions options = smallBudget(threads, 11);
    options.maxRollouts = 600;
    options.roundRollouts = 100;
    expectSameResult(runMcts(env, options), runMcts(env, options));
  }
}

// Convergence: the search ends by itself, and the budget is only a bound.

TEST(Mcts, StopsWhenEveryStateIsPriced) {
  // 16 states: the first round prices them all, so nothing is left to
  // polish or perturb.
  BitsEnvironment env = halvingEnvironment(4, 2);
  SearchOptions options;
  options.budgetSeconds = 60;
  SearchResult result = runMcts(env, options);
  EXPECT_EQ(result.stopReason, "every state priced");
  EXPECT_TRUE(result.complete);
  EXPECT_EQ(result.evaluations, 16u);
  EXPECT_DOUBLE_EQ(result.bestCost, 0.25);
  EXPECT_LE(result.secondsToBest, result.seconds);
}

TEST(Mcts, StopsWhenPerturbationsKeepFailing) {
  // 2^24 states: too many to price, so the search converges instead, well
  // before its budget.
  BitsEnvironment env = ruggedEnvironment();
  SearchOptions options;
  options.budgetSeconds = 600;
  options.restartPatience = 5;
  SearchResult result = runMcts(env, options);
  EXPECT_EQ(result.stopReason, "5 perturbations in a row did not improve");
  EXPECT_FALSE(result.complete);
  EXPECT_FALSE(result.roundsStopReason.empty());
  EXPECT_LE(result.secondsToBest, result.seconds);
  // No patience: the search stops when the first climb is stuck.
  options.restartPatience = 0;
  EXPECT_EQ(runMcts(env, options).stopReason, "no neighbour improves");
}

TEST(Mcts, CheapStatesGetMoreRestarts) {
  BitsEnvironment env = ruggedEnvironment();
  SearchOptions options;
  options.restartPatience = 5;
  options.patienceWork = 0;
  SearchResult plain = runMcts(env, options);
  EXPECT_EQ(plain.stopReason, "5 perturbations in a row did not improve");
  // States that cost a billion ops: five failures price more than the
  // default work, so the search is the same.
  options.patienceWork = SearchOptions().patienceWork;
  env.stateWork = 1000000000;
  SearchResult costly = runMcts(env, options);
  EXPECT_EQ(costly.stopReason, plain.stopReason);
  EXPECT_EQ(costly.evaluations, plain.evaluations);
  EXPECT_EQ(costly.actions, plain.actions);
  // States of one op each: the failures in a row cannot price eight million,
  // so the restarts go on until four times the patience fail.
  env.stateWork = 1;
  SearchResult cheap = runMcts(env, options);
  EXPECT_EQ(cheap.stopReason, "20 perturbations in a row did not improve");
  EXPECT_GT(cheap.restarts, plain.restarts);
  // The same search, further: never a worse answer.
  EXPECT_LE(cheap.bestCost, plain.bestCost);
  // An environment that does not know its work: the patience alone.
  env.stateWork = 0;
  EXPECT_EQ(runMcts(env, options).evaluations, plain.evaluations);
}

TEST(Mcts, GainsBelowTheToleranceDoNotKeepTheSearchGoing) {
  // Bit 0 halves the cost; bits 1-8 each take 0.1% off it, which rounds of
  // short playouts find about one per round. Bits 9 + 2k and 10 + 2k take
  // 0.1% off together but add 2% alone, so a climb cannot add them and
  // restarts find the pairs one at a time. A long series of tiny gains;
  // with a tolerance of 1% they are kept but end the rounds and do not
  // renew the restarts' patience.
  BitsEnvironment env(29, [](const std::vector<bool> &set) {
    double cost = set[0] ? 0.5 : 1.0;
    for (unsigned i = 1; i != 9; ++i)
      if (set[i])
        cost *= 0.999;
    for (unsigned i = 9; i + 1 < set.size(); i += 2)
      if (set[i] && set[i + 1])
        cost *= 0.999;
      else if (set[i] || set[i + 1])
        cost *= 1.02;
    return cost;
  });
  SearchOptions options;
  options.widen = 0;
  options.uniformPlayouts = false;
  options.restartPatience = 5;
  SearchResult every = runMcts(env, options);
  options.minGain = 0.01;
  SearchResult tolerant = runMcts(env, options);
  EXPECT_EQ(tolerant.stopReason, "5 perturbations in a row did not improve");
  EXPECT_LE(tolerant.rounds, every.rounds);
  EXPECT_LT(tolerant.restarts, every.restarts);
  EXPECT_LT(tolerant.evaluations, every.evaluations);
  // Bit 0 is found; small gains after it are kept, but do not count.
  EXPECT_LE(tolerant.bestCost, 0.5);
  ASSERT_FALSE(tolerant.improvements.empty());
  EXPECT_DOUBLE_EQ(tolerant.improvements.back().cost, tolerant.bestCost);
  unsigned counted = 0, uncounted = 0;
  double level = tolerant.initialCost;
  for (const Improvement &step : tolerant.improvements) {
    if (step.counted) {
      // A counted gain is at least 1% below the last counted level.
      EXPECT_LT(step.cost, level * 0.99);
      level = step.cost;
      ++counted;
    } else {
      EXPECT_GE(step.cost, level * 0.99);
      ++uncounted;
    }
  }
  EXPECT_GE(counted, 1u);
  EXPECT_GE(uncounted, 1u);
  // Without a tolerance every improvement counts.
  for (const Improvement &step : every.improvements)
    EXPECT_TRUE(step.counted);
}

TEST(Mcts, PatienceRatioBoundsTheRestartsByTheWorkThatFoundTheBest) {
  // 2^24 states: with a patience of 200 failed restarts the perturbations
  // go on for thousands of states; a patience ratio of 0.5 stops them once
  // half as many states as the best (or the first climb) took have been
  // priced without progress.
  BitsEnvironment env = ruggedEnvironment();
  SearchOptions options;
  options.restartPatience = 200;
  SearchResult patient = runMcts(env, options);
  options.patienceRatio = 0.5;
  SearchResult ratio = runMcts(env, options);
  EXPECT_NE(ratio.stopReason.find("(patience ratio)"), std::string::npos)
      << ratio.stopReason;
  EXPECT_LT(ratio.evaluations, patient.evaluations);
  EXPECT_LT(ratio.restarts, patient.restarts);
  // The same search until it stops: its best is one the patient search
  // also reached, never a different one.
  EXPECT_GE(ratio.bestCost, patient.bestCost);
  // It stops only once 1.5 x the states of the later of the first climb
  // and the last counted improvement have been priced.
  uint64_t anchor = ratio.climbStates;
  for (const Improvement &step : ratio.improvements)
    if (step.counted)
      anchor = std::max(anchor, step.states);
  EXPECT_GT(ratio.evaluations, anchor * 3 / 2);
}

TEST(Mcts, PerturbedClimbsTryAtMostRestartNeighbours) {
  // 100 actions: a quarter of a trajectory's neighbourhood is hundreds of
  // states, so a restart that fails prices hundreds; with at most 32 tried
  // per step, a climb from a perturbation prices at most 32 per step.
  BitsEnvironment env = ruggedEnvironment(100);
  SearchOptions options;
  options.budgetSeconds = 600;
  options.restartPatience = 5;
  options.restartNeighbours = 0;
  SearchResult quarter = runMcts(env, options);
  options.restartNeighbours = 32;
  SearchResult capped = runMcts(env, options);
  // The rounds and the first climb are the same search.
  EXPECT_EQ(capped.climbStates, quarter.climbStates);
  ASSERT_GT(quarter.restarts, 0u);
  ASSERT_GT(capped.restarts, 0u);
  double perQuarter =
      double(quarter.evaluations - quarter.climbStates) / quarter.restarts;
  double perCapped =
      double(capped.evaluations - capped.climbStates) / capped.restarts;
  EXPECT_LT(perCapped * 3, perQuarter) << perCapped << " " << perQuarter;
  // A bound above every quarter changes nothing.
  options.restartNeighbours = 1u << 30;
  SearchResult loose = runMcts(env, options);
  EXPECT_EQ(loose.evaluations, quarter.evaluations);
  EXPECT_EQ(loose.bestCost, quarter.bestCost);
}

TEST(Mcts, SmallGainsAddUpUnderTheTolerance) {
  // Each bit takes 0.4% off: no single gain reaches a 1% tolerance, but
  // three together do, so the search does not stop at the first climb's
  // level (the level moves only when progress is counted).
  BitsEnvironment env(30, [](const std::vector<bool> &set) {
    double cost = 1;
    for (bool bit : set)
      if (bit)
        cost *= 0.996;
    return cost;
  });
  SearchOptions options;
  options.roundRollouts = 64;
  options.restartPatience = 5;
  options.minGain = 0.01;
  SearchResult result = runMcts(env, options);
  unsigned counted = 0;
  for (const Improvement &step : result.improvements)
    counted += step.counted;
  EXPECT_GE(counted, 2u);
  EXPECT_LT(result.bestCost, 0.996 * 0.996 * 0.996);
}

TEST(Mcts, ConvergedSearchesAreReproducible) {
  // Without a budget, where the search stops depends on the seed only.
  BitsEnvironment env = ruggedEnvironment();
  SearchOptions options;
  options.threads = 2;
  options.seed = 4;
  expectSameResult(runMcts(env, options), runMcts(env, options));
}

// Exhaustive enumeration, on spaces whose states can be counted by hand.

TEST(Exhaustive, PricesEveryStateOfASmallSpace) {
  // Ten bits: 2^10 states; the optimum sets the three good bits.
  BitsEnvironment env = halvingEnvironment(10, 3);
  for (unsigned threads : {1u, 3u}) {
    SearchOptions options;
    options.threads = threads;
    SearchResult result = runExhaustive(env, options);
    SCOPED_TRACE(threads);
    EXPECT_TRUE(result.complete);
    EXPECT_EQ(result.stopReason,
              "optimal over the actions: every state priced");
    EXPECT_EQ(result.evaluations, 1024u);
    EXPECT_EQ(asSet(result.actions), (std::set<unsigned>{0, 1, 2}));
    EXPECT_DOUBLE_EQ(result.bestCost, 0.125);
    EXPECT_EQ(env.cost(result.best), result.bestCost);
    // One breadth-first level per action count, 0 to 10.
    EXPECT_EQ(result.rounds, 11u);
  }
}

TEST(Exhaustive, CountsStatesNotOrders) {
  // Eight bits, each unset or on one of two axes: 3^8 states, although
  // there are far more orders of actions. The optimum puts bits 0-3 on
  // axis 1 (0.9 * 0.6^3).
  TwoAxesEnvironment env(false);
  SearchResult result = runExhaustive(env, SearchOptions());
  EXPECT_TRUE(result.complete);
  EXPECT_EQ(result.evaluations, 6561u);
  EXPECT_NEAR(result.bestCost, 0.9 * std::pow(0.6, 3), 1e-12);
  EXPECT_EQ(asSet(result.actions), (std::set<unsigned>{1, 3, 5, 7}));
}

TEST(Exhaustive, StopsAtTheStateLimit) {
  BitsEnvironment env = halvingEnvironment(10, 3);
  SearchOptions options;
  options.maxStates = 100;
  SearchResult result = runExhaustive(env, options);
  EXPECT_FALSE(result.complete);
  EXPECT_EQ(result.evaluations, 100u);
  EXPECT_EQ(result.stopReason, "best of 100 states: state limit");
  // Breadth first: the 56 states of up to two actions, then three-bit
  // states from {0, 1} on: the first of them, {0, 1, 2}, is the optimum,
  // although the enumeration cannot know it.
  EXPECT_DOUBLE_EQ(result.bestCost, 0.125);
  EXPECT_EQ(result.actions, (std::vector<unsigned>{0, 1, 2}));
}

TEST(Mcts, ReachesTheExhaustiveOptimum) {
  // Rugged, but small enough to enumerate: 16 bits.
  BitsEnvironment small = ruggedEnvironment(16);
  SearchOptions options;
  options.maxStates = 1 << 16;
  SearchResult optimum = runExhaustive(small, options);
  ASSERT_TRUE(optimum.complete);
  EXPECT_EQ(optimum.evaluations, 65536u);
  for (uint64_t seed : {1, 2, 3}) {
    SearchOptions mcts;
    mcts.seed = seed;
    SCOPED_TRACE(seed);
    EXPECT_LE(runMcts(small, mcts).bestCost, optimum.bestCost * 1.001);
  }
}

} // namespace

TEST(SearchState, KeysIgnoreZerosAndSeparatePositionsAndAxes) {
  SearchState a{{0, 3, 0, 1}}, b{{0, 3, 0, 1, 0, 0}};
  // Trailing unsharded nodes do not change a state's identity.
  EXPECT_EQ(a.key(), b.key());
  SearchState swapped{{0, 1, 0, 3}}, moved{{3, 0, 0, 1}};
  EXPECT_NE(a.key(), swapped.key());
  EXPECT_NE(a.key(), moved.key());
  // Each hash on its own separates every state with one sharded node.
  std::set<uint64_t> first, second;
  for (unsigned node = 0; node != 64; ++node)
    for (AxisMask mask = 1; mask != 64; ++mask) {
      SearchState s{std::vector<AxisMask>(64, 0)};
      s.nodeAxes[node] = mask;
      first.insert(s.hash());
      second.insert(s.hash2());
    }
  EXPECT_EQ(first.size(), 64u * 63u);
  EXPECT_EQ(second.size(), 64u * 63u);
}

TEST(Mcts, ClimbsTryMovesThatHaveNotFailedFirst) {
  // 16 of 60 bits halve the cost, the others double it: every step of a
  // climb adds one good bit, and every other move fails at every step. In
  // a new random order per step each step re-prices failed moves (their
  // states are new: the trajectory changed); with the climb's memory they
  // wait until the untried ones are priced. Both climbs end at the optimum,
  // the remembering one with fewer states (measured: 45-50% fewer).
  BitsEnvironment env = halvingEnvironment(60, 16);
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    SearchOptions options = smallBudget(1, seed);
    options.maxRollouts = 100000;
    options.roundRollouts = 16;
    // The rounds get a few dozen rollouts: the climb does the work.
    options.polishShare = options.minPolishShare = 0.999;
    options.uniformPlayouts = false;
    options.perturb = false;
    uint64_t states[2];
    for (bool memory : {false, true}) {
      options.climbMemory = memory;
      SearchResult result = runMcts(env, options);
      EXPECT_EQ(result.bestCost, std::pow(0.5, 16)) << seed;
      EXPECT_EQ(result.stopReason, "no neighbour improves") << seed;
      states[memory] = result.climbStates - result.roundsStates;
    }
    EXPECT_LT(states[1] * 4, states[0] * 3)
        << "seed " << seed << ": " << states[1] << " against " << states[0];
  }
}
