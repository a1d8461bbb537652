//===- Ilp.h - Alpa / XLA auto-sharding as an integer program ---*- C++ -*-===//
//
// The baseline of TOAST figures 8 and 9: the integer linear program of Alpa
// (intra-operator pass) and XLA's auto-sharding, priced with Toast's cost
// model and solved with CBC (docs/search.md, "The ILP baseline").
//
//  * A *node* is an entry argument or a top-level op with a sharding rule.
//    Its strategies assign each search axis to at most one factor (an
//    argument: one dimension) whose size the axes on it divide; index 0 is
//    "replicated". Ops whose layout one operand determines (node operands
//    from one decision, every factor present in that operand, not a
//    contraction) *follow* it: they take its strategy index (their strategy
//    is derived from its layout), so they add no decision. Ops that read no
//    node (broadcasts of constants) are computed in the layout their first
//    reader reads.
//  * Node cost: the op's contraction time divided by its shard count, plus
//    the all_reduce of results whose reduction factors are sharded, plus
//    (followers) resharding from the followed operand.
//  * Edge cost (one per use): the collective that turns the producer's
//    result layout into the layout the consumer's strategy reads: all_gather
//    for axes the consumer does not have, all_to_all for axes that move to
//    another dimension, nothing for slicing.
//  * Memory: every node's value is live over an interval of op positions
//    with its local bytes per strategy, and an edge's resharded copy at
//    its consumer's position with its bytes per strategy pair (IOPDDL has
//    node usages only: the file carries them as an extension, "usages"
//    and "intervals" of the edges); Toast's solver charges C(s)'s
//    memory penalty on the excess of the peak over the device memory (the
//    penalty form, so that programs that fit nowhere still get a
//    strategy), with one row per op position where a live range ends,
//    added lazily (only positions a solution overfills); the IOPDDL file
//    carries the device memory as `usage_limit`.
//
// Costs are integers in picoseconds and usages in bytes, as the IOPDDL
// format (github.com/google/iopddl) expects.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_SEARCH_ILP_H
#define TOAST_SEARCH_ILP_H

#include "toast/Partition/ShardingState.h"
#include "toast/Simulator/Device.h"
#include "toast/Simulator/Simulator.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace toast::search::ilp {

/// Seconds per cost unit (a picosecond).
constexpr double kSecondsPerCostUnit = 1e-12;

/// The decision problem: IOPDDL's nodes and edges, plus followers.
struct Problem {
  struct Node {
    /// Live over op positions [start, end).
    int64_t start = 0, end = 0;
    /// Per strategy: cost (picoseconds) and local bytes.
    std::vector<int64_t> costs, usages;
    /// The node whose strategy index this one takes (the same number of
    /// strategies), or -1 for a decision of its own.
    int follows = -1;
    bool operator==(const Node &other) const;
  };
  struct Edge {
    unsigned from = 0, to = 0;
    /// Row-major: costs[i * |S_to| + j] for strategies i of `from` and j
    /// of `to`.
    std::vector<int64_t> costs;
    /// The edge's buffers (what the resharding allocates: the gathered or
    /// all_to_all'd value and its slice), bytes per strategy pair like
    /// `costs`, live over op positions [start, end); empty: none.
    std::vector<int64_t> usages;
    int64_t start = 0, end = 0;
    bool operator==(const Edge &other) const;
  };

  std::string name;
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  /// Device memory, bytes.
  int64_t usageLimit = 0;

  bool operator==(const Problem &other) const;
  /// The node whose strategy `node` takes (itself unless it follows).
  unsigned getLeader(unsigned node) const;
};

/// In the IOPDDL file a follower is an edge from the node it follows whose
/// off-diagonal entries cost this much (1000 s): no solver picks them.
constexpr int64_t kForbiddenCost = 1'000'000'000'000'000;

/// Writes `problem` as IOPDDL JSON ({"problem": {"name", "nodes":
/// {"intervals", "costs", "usages"}, "edges": {"nodes", "costs"},
/// "usage_limit"}}); when some edge has buffers, "edges" also holds their
/// "intervals" and "usages" (an extension of the format).
void writeIopddl(const Problem &problem, llvm::raw_ostream &os);
/// Reads IOPDDL JSON; edges shaped like a follower (square, zero diagonal,
/// kForbiddenCost elsewhere, into a node without other such edges) become
/// followers again, so that reading what writeIopddl wrote gives the same
/// problem.
llvm::Expected<Problem> readIopddl(llvm::StringRef json);

struct SolveOptions {
  /// CBC's wall-clock limit; over it, the best solution found so far.
  double timeLimitSeconds = 600;
  /// Cost units per byte of peak above `usageLimit` (0: memory ignored).
  double penaltyPerByte = 0;
};

struct Solution {
  /// Strategy index per node (followers: their leader's).
  std::vector<unsigned> strategies;
  /// The objective (cost units) of `strategies`.
  double objective = 0;
  /// CBC proved it optimal.
  bool optimal = false;
  /// The time limit stopped CBC.
  bool timedOut = false;
  double seconds = 0;
  /// "optimal", "time limit: best of ..." and the like.
  std::string note;
  /// Size of the (last) integer program.
  unsigned variables = 0, rows = 0;
  /// Memory rows are added lazily: how many, in how many re-solves.
  unsigned memoryRows = 0, memoryRounds = 0;
};

/// Whether Toast was built with CBC (coinor-libcbc-dev).
bool haveSolver();

/// Solves `problem` with CBC, starting from the local search's solution
/// (improveLocally from all-replicated) as the cutoff. Fails (with a
/// message) when built without CBC; otherwise always returns a solution
/// (the local search's when CBC found no better one within the time limit,
/// said in the note).
llvm::Expected<Solution> solve(const Problem &problem,
                               const SolveOptions &options);

/// The objective of `strategies` (cost units): node and edge costs plus the
/// memory penalty of the peak over the usage limit.
double evaluate(const Problem &problem, llvm::ArrayRef<unsigned> strategies,
                double penaltyPerByte);
/// Coordinate descent from `start`: each decision in turn takes its best
/// strategy given the others, until a sweep changes nothing or `seconds`
/// pass. The incumbent the solver starts from.
std::vector<unsigned> improveLocally(const Problem &problem,
                                     std::vector<unsigned> start,
                                     double penaltyPerByte, double seconds);
/// Live bytes (nodes' values and edges' buffers) at every op position for
/// `strategies`.
std::vector<int64_t> usageProfile(const Problem &problem,
                                  llvm::ArrayRef<unsigned> strategies);
/// Peak bytes over the op positions for `strategies`.
int64_t peakUsage(const Problem &problem, llvm::ArrayRef<unsigned> strategies);

//===----------------------------------------------------------------------===//
// From a function to a problem, and back
//===----------------------------------------------------------------------===//

/// One node's strategies in Toast terms.
struct NodeStrategies {
  /// The op (null for an argument) or the argument.
  mlir::Operation *op = nullptr;
  mlir::BlockArgument arg;
  /// Per strategy: the op's loop nest or the argument's tiling.
  std::vector<llvm::SmallVector<partition::AxisFactor, 2>> nests;
  std::vector<llvm::SmallVector<partition::AxisDim, 2>> tilings;
};

struct Formulation {
  Problem problem;
  /// Parallel to problem.nodes.
  std::vector<NodeStrategies> strategies;
  /// Ops that read no node (broadcasts of constants, ...) are no decision:
  /// each is computed in the layout its first reader reads, per strategy of
  /// `node` (the node deciding that reader).
  struct UserFollower {
    mlir::Operation *op = nullptr;
    unsigned node = 0;
    std::vector<llvm::SmallVector<partition::AxisFactor, 2>> nests;
  };
  std::vector<UserFollower> userFollowers;
  /// The program's cost unpartitioned in the ILP's model (cost units,
  /// bytes): the references of C(s).
  double replicatedCost = 0;
  int64_t replicatedPeak = 0;
};

/// Formulates the entry function of `state` over the mesh axes `axes`
/// (empty: all) priced on `device` as the simulator prices with `options`:
/// contractions at the TF32 peak with `tf32`; with `memoryBound`, every op
/// by the roofline over the bytes it reads and writes; with `fusion`, the
/// values the fusion model fuses (decided on the unpartitioned program)
/// have no buffer and no traffic. The state must be unpartitioned (no loop
/// nests or tilings yet); fails with a diagnostic on the function
/// otherwise.
mlir::FailureOr<Formulation>
formulate(partition::ShardingState &state, llvm::ArrayRef<std::string> axes,
          const sim::DeviceSpec &device,
          const sim::SimulationOptions &options = {});

/// The strategies (one per node, followers their leader's) under which the
/// formulation describes `target`, a partitioned state of the same
/// function (e.g. the automatic search's): how the ILP's model prices a
/// strategy it did not choose. Fails with a diagnostic at the first op or
/// argument whose nest or tiling is none of its strategies.
mlir::FailureOr<std::vector<unsigned>>
findStrategies(const Formulation &formulation,
               partition::ShardingState &target);

/// Writes the chosen strategies into `state` (loop nests, argument
/// tilings).
mlir::LogicalResult applySolution(const Formulation &formulation,
                                  llvm::ArrayRef<unsigned> strategies,
                                  partition::ShardingState &state);

} // namespace toast::search::ilp

#endif // TOAST_SEARCH_ILP_H
