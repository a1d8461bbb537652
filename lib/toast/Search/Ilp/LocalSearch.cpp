//===- LocalSearch.cpp - Coordinate descent on the ILP's problem ----------===//
//
// The incumbent CBC must beat: from a start, each decision in turn takes
// its best strategy given the others, until a sweep changes nothing. Moves
// are priced incrementally (the decision's nodes and edges, and the live
// bytes over its members' and its edges' buffers' intervals), so a sweep costs
// about the problem's size times the strategies per decision.
//
//===----------------------------------------------------------------------===//

#include "toast/Search/Ilp.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <chrono>

namespace toast::search::ilp {

namespace {
class LocalSearch {
public:
  LocalSearch(const Problem &problem, std::vector<unsigned> start,
              double penaltyPerByte)
      : problem(problem), choice(std::move(start)),
        penaltyPerByte(penaltyPerByte), members(problem.nodes.size()),
        incident(problem.nodes.size()) {
    for (auto [n, node] : llvm::enumerate(problem.nodes))
      members[problem.getLeader(n)].push_back(n);
    for (auto [e, edge] : llvm::enumerate(problem.edges)) {
      unsigned from = problem.getLeader(edge.from);
      unsigned to = problem.getLeader(edge.to);
      incident[from].push_back(e);
      if (to != from)
        incident[to].push_back(e);
    }
    profile = usageProfile(problem, choice);
  }

  std::vector<unsigned> run(double seconds) {
    auto start = std::chrono::steady_clock::now();
    bool changed = true;
    while (changed) {
      changed = false;
      for (unsigned n = 0; n < problem.nodes.size(); ++n) {
        if (problem.nodes[n].follows >= 0)
          continue;
        changed |= improve(n);
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                          start)
                .count() > seconds)
          return choice;
      }
    }
    return choice;
  }

private:
  void addUsage(int64_t start, int64_t end, int64_t bytes) {
    for (int64_t t = std::max<int64_t>(start, 0); t < end; ++t)
      profile[t] += bytes;
  }
  /// Adds (sign 1) or removes (-1) the buffers of the edges incident to
  /// `leader` under `choice`.
  void addEdgeUsages(unsigned leader, int sign) {
    for (unsigned e : incident[leader]) {
      const Problem::Edge &edge = problem.edges[e];
      if (edge.usages.empty())
        continue;
      size_t columns = problem.nodes[edge.to].costs.size();
      addUsage(edge.start, edge.end,
               sign *
                   edge.usages[choice[edge.from] * columns + choice[edge.to]]);
    }
  }
  double penalty() const {
    int64_t peak = *std::max_element(profile.begin(), profile.end());
    return penaltyPerByte * std::max<int64_t>(peak - problem.usageLimit, 0);
  }
  /// The cost of decision `leader`'s nodes and edges under `choice`.
  double localCost(unsigned leader) const {
    double cost = 0;
    for (unsigned n : members[leader])
      cost += problem.nodes[n].costs[choice[n]];
    for (unsigned e : incident[leader]) {
      const Problem::Edge &edge = problem.edges[e];
      size_t columns = problem.nodes[edge.to].costs.size();
      cost += edge.costs[choice[edge.from] * columns + choice[edge.to]];
    }
    return cost;
  }
  void set(unsigned leader, unsigned s) {
    addEdgeUsages(leader, -1);
    for (unsigned n : members[leader]) {
      const Problem::Node &node = problem.nodes[n];
      addUsage(node.start, node.end, -node.usages[choice[n]]);
      choice[n] = s;
      addUsage(node.start, node.end, node.usages[s]);
    }
    addEdgeUsages(leader, 1);
  }
  /// Moves `leader` to its best strategy; true if that changed it.
  bool improve(unsigned leader) {
    unsigned current = choice[leader];
    double best = localCost(leader) + (penaltyPerByte > 0 ? penalty() : 0);
    unsigned bestStrategy = current;
    for (unsigned s = 0, e = problem.nodes[leader].costs.size(); s < e; ++s) {
      if (s == current)
        continue;
      set(leader, s);
      double cost = localCost(leader) + (penaltyPerByte > 0 ? penalty() : 0);
      if (cost < best - 1e-9 * std::abs(best)) {
        best = cost;
        bestStrategy = s;
      }
    }
    set(leader, bestStrategy);
    return bestStrategy != current;
  }

  const Problem &problem;
  std::vector<unsigned> choice;
  double penaltyPerByte;
  std::vector<std::vector<unsigned>> members, incident;
  std::vector<int64_t> profile;
};
} // namespace

std::vector<unsigned> improveLocally(const Problem &problem,
                                     std::vector<unsigned> start,
                                     double penaltyPerByte, double seconds) {
  return LocalSearch(problem, std::move(start), penaltyPerByte).run(seconds);
}

} // namespace toast::search::ilp
