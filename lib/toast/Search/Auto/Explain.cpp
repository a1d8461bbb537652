//===- Explain.cpp - A strategy seen from the NDA action space ------------===//
//
// Issue 17 asks why MCTS does not reach the ILP's step time. The ILP picks
// a strategy per op; the search picks NDA actions (color x resolution x
// axis), each of which shards every node of a color at once. This file
// answers, for any strategy written into a ShardingState: which NDA state
// it is, whether a sequence of actions reaches exactly that state, and how
// close the actions get where they cannot.
//
//===----------------------------------------------------------------------===//

#include "toast/Search/Explain.h"
#include "toast/Simulator/Simulator.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

using namespace mlir;

namespace toast::search {

/// The number of (node, axis) bits `state` shares with `target`.
static unsigned countCovered(const SearchState &state,
                             const SearchState &target) {
  unsigned covered = 0;
  for (auto [mine, theirs] : llvm::zip_equal(state.nodeAxes, target.nodeAxes))
    covered += llvm::popcount(mine & theirs);
  return covered;
}

/// The number of (node, axis) bits of `state` that `target` does not have.
static unsigned countExtra(const SearchState &state,
                           const SearchState &target) {
  unsigned extra = 0;
  for (auto [mine, theirs] : llvm::zip_equal(state.nodeAxes, target.nodeAxes))
    extra += llvm::popcount(mine & ~theirs);
  return extra;
}

Decomposition decomposeIntoActions(const NdaEnvironment &space,
                                   const SearchState &target, bool allowExtra) {
  Decomposition result;
  result.reached = space.getInitialState();
  for (AxisMask mask : target.nodeAxes)
    result.targetBits += llvm::popcount(mask);
  unsigned covered = countCovered(result.reached, target);
  unsigned extra = countExtra(result.reached, target);
  // Greedy by net gain: bits of the target gained, minus (with allowExtra)
  // bits outside it; without allowExtra an action that adds any bit
  // outside the target is never taken.
  while (true) {
    int best = -1;
    long bestGain = 0;
    SearchState bestState;
    for (unsigned a = 0, e = space.getNumActions(); a != e; ++a) {
      if (!space.isLegal(result.reached, a))
        continue;
      SearchState next = result.reached;
      space.apply(next, a);
      long gained = long(countCovered(next, target)) - covered;
      long added = long(countExtra(next, target)) - extra;
      if (added > 0 && !allowExtra)
        continue;
      long gain = gained - added;
      if (gained > 0 && gain > bestGain) {
        best = a;
        bestGain = gain;
        bestState = std::move(next);
      }
    }
    if (best < 0)
      break;
    result.actions.push_back(best);
    result.reached = std::move(bestState);
    covered = countCovered(result.reached, target);
    extra = countExtra(result.reached, target);
  }
  result.coveredBits = covered;
  result.extraBits = extra;
  return result;
}

SearchState projectOntoActions(const NdaEnvironment &space,
                               const SearchState &target,
                               std::vector<unsigned> &actions) {
  // Each action's agreement with the target: the share of the nodes it
  // would shard now that the target has on its axis.
  SearchState state = space.getInitialState();
  while (true) {
    int best = -1;
    double bestShare = 0.5;
    for (unsigned a = 0, e = space.getNumActions(); a != e; ++a) {
      if (!space.isLegal(state, a))
        continue;
      SearchState next = state;
      space.apply(next, a);
      unsigned added = 0, agreed = 0;
      for (auto [before, after, wanted] :
           llvm::zip_equal(state.nodeAxes, next.nodeAxes, target.nodeAxes)) {
        AxisMask gained = after & ~before;
        added += llvm::popcount(gained);
        agreed += llvm::popcount(gained & wanted);
      }
      double share = added ? double(agreed) / added : 0;
      if (share > bestShare) {
        best = a;
        bestShare = share;
      }
    }
    if (best < 0)
      return state;
    space.apply(state, best);
    actions.push_back(best);
  }
}

std::vector<unsigned> descend(const NdaEnvironment &space, unsigned maxSteps,
                              uint64_t &priced) {
  SearchState state = space.getInitialState();
  double cost = space.cost(state);
  std::vector<unsigned> actions;
  while (actions.size() < maxSteps) {
    int best = -1;
    double bestCost = cost;
    for (unsigned a = 0, e = space.getNumActions(); a != e; ++a) {
      if (!space.isLegal(state, a))
        continue;
      SearchState next = state;
      space.apply(next, a);
      double c = space.cost(next);
      ++priced;
      if (c < bestCost) {
        best = a;
        bestCost = c;
      }
    }
    if (best < 0)
      break;
    space.apply(state, best);
    actions.push_back(best);
    cost = bestCost;
  }
  return actions;
}

/// Why the target's bits of one color and axis are missing: the color has
/// no action on the axis, or every action of it would add bits outside
/// the target (how many, at least), or none is legal any more.
static std::string whyMissing(const NdaEnvironment &space,
                              const SearchState &reached,
                              const SearchState &target, unsigned color,
                              unsigned axis) {
  long fewestExtra = -1;
  unsigned actions = 0, legal = 0;
  for (unsigned a = 0, e = space.getNumActions(); a != e; ++a) {
    const NdaAction &action = space.getAction(a);
    if (action.axis != axis || !llvm::is_contained(action.colors, color))
      continue;
    ++actions;
    if (!space.isLegal(reached, a))
      continue;
    ++legal;
    SearchState next = reached;
    space.apply(next, a);
    long added = long(countExtra(next, target)) - countExtra(reached, target);
    if (fewestExtra < 0 || added < fewestExtra)
      fewestExtra = added;
  }
  if (!actions)
    return "no action of the color on the axis (pruned, blocked or "
           "never built)";
  if (!legal)
    return llvm::formatv("{0} action(s), none legal here", actions).str();
  return llvm::formatv("{0} action(s), {1} legal, each adds >= {2} bits "
                       "the target does not have",
                       actions, legal, fewestExtra)
      .str();
}

void explainState(const NdaEnvironment &space, const SearchState &target,
                  const AnalyticCost *simulated, llvm::raw_ostream &os) {
  // "1.234 ms, 2.00 GiB", in the simulator's units.
  auto both = [](const AnalyticCost &c) {
    return sim::formatTime(c.runtime) + ", " +
           sim::formatBytes(c.peakBytes, /*exact=*/false);
  };
  AnalyticCost targetCost = space.analyticCost(target);
  os << "explain: the strategy as an NDA state: " << both(targetCost)
     << " (analytic)";
  if (simulated)
    os << "; simulated " << both(*simulated);
  os << "\n";
  Decomposition exact = decomposeIntoActions(space, target, false);
  AnalyticCost exactCost = space.analyticCost(exact.reached);
  os << llvm::format("explain: %zu actions that add only its bits cover "
                     "%u of its %u (node, axis) bits: ",
                     exact.actions.size(), exact.coveredBits, exact.targetBits)
     << both(exactCost) << (exact.reached == target ? " (reached exactly)" : "")
     << "\n";
  // The cost after each action: whether the way there goes downhill.
  SearchState prefix = space.getInitialState();
  for (unsigned a : exact.actions) {
    space.apply(prefix, a);
    os << "explain:   "
       << llvm::left_justify(both(space.analyticCost(prefix)), 24) << "  "
       << space.describeAction(a) << "\n";
  }
  // The missing bits, by color and axis.
  const NamedDimensionAnalysis &nda = space.getAnalysis();
  std::map<std::pair<unsigned, unsigned>, unsigned> missing;
  for (auto [node, mask] : llvm::enumerate(target.nodeAxes)) {
    AxisMask left = mask & ~exact.reached.nodeAxes[node];
    for (unsigned axis = 0; left; ++axis, left >>= 1)
      if (left & 1)
        ++missing[{nda.getColorOfNode(node), axis}];
  }
  for (auto [key, count] : missing)
    os << "explain:   missing " << count << " node(s) of color " << key.first
       << " on axis " << space.getAxisName(key.second) << ": "
       << whyMissing(space, exact.reached, target, key.first, key.second)
       << "\n";
  std::vector<unsigned> projected;
  SearchState majority = projectOntoActions(space, target, projected);
  os << llvm::format("explain: %zu actions that mostly agree with it (more "
                     "than half of the bits each adds): ",
                     projected.size())
     << both(space.analyticCost(majority)) << "\n";
  for (unsigned a : projected)
    os << "explain:   " << space.describeAction(a) << "\n";
  Decomposition loose = decomposeIntoActions(space, target, true);
  os << llvm::format("explain: %zu actions by net gain (extra bits allowed) "
                     "cover %u of %u bits, %u extra: ",
                     loose.actions.size(), loose.coveredBits, loose.targetBits,
                     loose.extraBits)
     << both(space.analyticCost(loose.reached)) << "\n";
  for (unsigned a : loose.actions)
    os << "explain:   " << space.describeAction(a) << "\n";
}

LogicalResult explainStrategy(const NdaEnvironment &space,
                              partition::ShardingState &state,
                              const AnalyticCost *simulated,
                              llvm::raw_ostream &os) {
  // importState reports what it cannot express as an error on the
  // function; here that is the answer, not a failure of the tactic.
  std::string why;
  FailureOr<SearchState> target;
  {
    ScopedDiagnosticHandler handler(state.getFunction()->getContext(),
                                    [&](Diagnostic &diag) {
                                      why = diag.str();
                                      return success();
                                    });
    target = space.importState(state);
  }
  if (failed(target)) {
    os << "explain: the strategy is not an NDA state: " << why << "\n";
    return success();
  }
  explainState(space, *target, simulated, os);
  return success();
}

} // namespace toast::search
