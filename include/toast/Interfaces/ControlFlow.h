//===- ControlFlow.h - Loops and conditionals for partitioning --*- C++ -*-===//
//
// One mechanism for region ops in every layer (control-flow-design.md §2):
//
//  * DataFlowEdgeOpInterface says which values of a `while`, `case` or `if`
//    are one value for partitioning (a *tied class*, Shardy's data-flow
//    edge) and how often each region runs;
//  * ProgramWalk visits the ops of every *partitionable block* (a function
//    body and, recursively, the regions of data-flow edge ops) with the scope
//    they run in: the enclosing region op and the repeat count;
//  * TiedValues indexes the tied classes of a function: the edge of a
//    target value and of a source use.
//
// None of this needs StableHLO classes: the op models live with the
// StableHLO sharding rules.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_INTERFACES_CONTROLFLOW_H
#define TOAST_INTERFACES_CONTROLFLOW_H

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

#include <optional>

namespace toast {

/// What a counted loop's pattern says: carried value `counter` starts at
/// `init` and moves by `step` per iteration; `tripCount` is the number of
/// body runs, or their maximum when the condition has other terms that may
/// end the loop earlier (`earlyExit`, e.g. a decode loop that stops when
/// every sequence is done).
struct LoopFacts {
  unsigned counter = 0;
  int64_t init = 0;
  int64_t step = 1;
  int64_t tripCount = 0;
  bool earlyExit = false;
};

/// The manual (per-device) axes on the global side of an edge into or out
/// of a shard_map region: (axis, dim) levels, major first within a
/// dimension. The region's side of the edge is local on them.
struct ManualLevels {
  llvm::SmallVector<std::pair<std::string, int64_t>> levels;
  /// Whether the global side is the edge's sources (an operand entering
  /// the region) rather than its targets (a result leaving it).
  bool onSources = false;
};

} // namespace toast

#include "toast/Interfaces/DataFlowEdgeOpInterface.h.inc"

namespace toast {

/// Whether `op` passes values to and from its regions (an op whose regions
/// ProgramWalk enters).
inline bool isDataFlowRegionOp(mlir::Operation *op) {
  return llvm::isa<DataFlowEdgeOpInterface>(op);
}

/// Where an op runs: inside which region op, how often per run of the
/// program, and how deep.
struct Scope {
  mlir::Operation *regionOp = nullptr;
  /// Product of the run counts of the enclosing regions (a loop body runs
  /// trip-count times; every branch of a conditional counts once, a
  /// pessimistic bound). A region whose run count is unknown counts once.
  double repeat = 1;
  unsigned depth = 0;
  /// Whether some enclosing loop has an unknown trip count.
  bool uncounted = false;
  /// Whether some enclosing loop counts its maximum trip count (it may exit
  /// earlier, LoopFacts::earlyExit).
  bool atMost = false;
};

/// Visits the ops of `entry` and of every region of the data-flow edge ops
/// in it, recursively. In pre-order a region op is visited before its
/// regions' ops, in post-order after them. Terminators are visited too.
void walkProgram(mlir::Block &entry,
                 llvm::function_ref<void(mlir::Operation *, const Scope &)> fn,
                 mlir::WalkOrder order = mlir::WalkOrder::PreOrder);

/// The scopes of the regions of `op` (a data-flow edge op) given the scope
/// `op` runs in, one per region.
llvm::SmallVector<Scope> getRegionScopes(mlir::Operation *op,
                                         const Scope &outer);

/// The trip count of a counted loop, or std::nullopt.
std::optional<int64_t> getTripCount(mlir::Operation *op);

/// Where a loop's condition decides whether it goes on: the op defining
/// the value its first region yields (a while's compare or `and`), else the
/// loop itself. Diagnostics about trip counts go there: an exported loop's
/// own line carries every carried value (7,505 characters for GPT-2's
/// decode loop), which the diagnostic would print whole.
mlir::Location getLoopConditionLoc(mlir::Operation *op);

/// The tied classes of one function (or any block with its nested regions).
class TiedValues {
public:
  struct Edge {
    mlir::Operation *owner;
    unsigned index;
    llvm::SmallVector<mlir::OpOperand *, 2> sources;
    /// The owning result first, then block arguments.
    llvm::SmallVector<mlir::Value, 3> targets;
  };

  TiedValues() = default;
  explicit TiedValues(mlir::Block &entry);

  llvm::ArrayRef<Edge> getEdges() const { return edges; }
  /// The edge `value` is a target of, or null.
  const Edge *getEdgeOfTarget(mlir::Value value) const;
  /// The edge `use` feeds (and the index among its sources), or null.
  const Edge *getEdgeOfSource(mlir::OpOperand &use,
                              unsigned *sourceIndex = nullptr) const;
  /// The position of an edge in getEdges().
  unsigned getIndex(const Edge &edge) const { return &edge - edges.data(); }

private:
  llvm::SmallVector<Edge> edges;
  llvm::DenseMap<mlir::Value, unsigned> targetEdge;
  llvm::DenseMap<mlir::OpOperand *, std::pair<unsigned, unsigned>> sourceEdge;
};

} // namespace toast

#endif // TOAST_INTERFACES_CONTROLFLOW_H
