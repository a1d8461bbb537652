//===- ShardingState.h - Tilings of a function and propagation --*- C++ -*-===//
//
// The state PartIR actions act on (PartIR paper §5, appendix B), kept as
// data rather than as IR so that actions and propagation are cheap:
//
//  * every op with a sharding rule has a *loop nest*: an ordered list of
//    (mesh axis, factor) pairs, outermost first. A parallel factor makes the
//    loop tile the results that map it (`#tile<d>`), a reduction factor makes
//    it add partial results (`#sum`), results that map neither are the same
//    in every iteration (`#any`);
//  * every value has *explicit tilings* (from `tile` actions) on top of the
//    tiling its defining loop nest gives, and a set of *atomic* axes on
//    which it must stay whole.
//
// The full tiling of a value — what a consumer sees — is its defining op's
// tiling followed by its explicit tilings; later entries are nested inside
// earlier ones (deep tiling, appendix B.1.2).
//
// Loops and conditionals (control-flow-design.md §2.2): the ops inside the
// regions of `while`, `case` and `if` have loop nests like top-level ops.
// Each tied class of such an op (a loop-carried value: operand, block
// arguments, yielded value and result; or a conditional's result and its
// branches' returns) is one *edge*: a virtual identity op whose operands are
// the class's sources and whose results are its targets. Edges have nests
// and take part in propagation like ops, so tilings flow into and out of
// bodies in both directions and a carried value required tiled two ways is
// a conflict like any other.
//
// Propagation is a worklist over ops and edges. For each mesh axis not yet used
// by an op's nest it collects the factors its operands' tilings (forward) and
// its results' tilings and consumers' loop nests (backward) point at. Exactly
// one candidate factor that is tileable, divisible and allowed by atomic axes
// extends the nest; several candidates are a conflict and block (incremental
// tactics resolve them, §5.2.3). An axis an op already loops over is never
// used again inside it, so nested loops over one axis cannot arise.
// A reshape's compound dimension (ShardingRule::minorFactors) is tiled
// major factor first; an axis pointing at a minor factor whose major
// factors are not fully tiled moves to the major factor instead, in a
// second round after every axis that needs no move.
//
// materializeCore() rewrites the function into PartIR:Core loops and slices.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_PARTITION_SHARDINGSTATE_H
#define TOAST_PARTITION_SHARDINGSTATE_H

#include "toast/Dialect/PartIR/Core/IR/PartIRCore.h"
#include "toast/Interfaces/ControlFlow.h"
#include "toast/Interfaces/ShardingRule.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

#include <set>

namespace toast::partition {

/// One level of a tiling: a mesh axis and the tensor dimension it splits.
struct AxisDim {
  std::string axis;
  int64_t dim;
  bool operator==(const AxisDim &other) const {
    return axis == other.axis && dim == other.dim;
  }
};

/// One level of an op's loop nest: a mesh axis and the rule factor it tiles.
struct AxisFactor {
  std::string axis;
  int64_t factor;
};

/// Statistics of one propagation run.
struct PropagationStats {
  unsigned visits = 0;      ///< ops taken from the worklist
  unsigned assignments = 0; ///< (axis, factor) pairs added to loop nests
  unsigned conflicts = 0;   ///< (op, axis) pairs blocked by a conflict
  /// Axes moved from a minor factor of a reshape's compound dimension to
  /// its major factor, as the minor one could not be tiled as a block
  /// (ShardingRule::canTileNext); each reshards the operand or result
  /// whose tiling pointed at the minor factor (an all_to_all).
  unsigned reshapeMoves = 0;
};

class ShardingState {
public:
  ShardingState(mlir::func::FuncOp func, partir::MeshAttr mesh);

  mlir::func::FuncOp getFunction() { return func; }
  partir::MeshAttr getMesh() const { return mesh; }

  //===- Actions ----------------------------------------------------------===//

  /// tile<value, dim, axis>: tiles `value` along `dim` over `axis`, nested
  /// inside its existing tiling. Fails (with a diagnostic) for an unknown
  /// axis, a dim out of range, an axis the value is already tiled or atomic
  /// on, or a dimension the tiled size does not divide. With `position`,
  /// the level goes at that place among the value's explicit levels (0:
  /// outermost; past the end: last), ahead of levels deep tiling adopts
  /// now; a level (axis, dim) it already has moves there. Fails for a
  /// position beyond the mesh's axes.
  mlir::LogicalResult tile(mlir::Value value, int64_t dim, llvm::StringRef axis,
                           std::optional<unsigned> position = std::nullopt);

  /// atomic<value, axis>: keeps `value` whole on `axis`.
  mlir::LogicalResult atomic(mlir::Value value, llvm::StringRef axis);

  /// tile<op, factor, axis>: asks `op` to loop over `axis` on `factor` of
  /// its rule, including a reduction factor no result maps (a contraction
  /// whose partial sums are added). The request decides the op's candidate
  /// on the axis when propagation visits it, over every other evidence, as
  /// an explicitly tiled result does; operands are sliced or resharded to
  /// suit. Fails (with a diagnostic) for an op without a rule, an unknown or
  /// manual axis, a factor that cannot be looped over (isLoopableFactor),
  /// sizes the axis does not divide, or an op that already loops over,
  /// requests or is atomic on the axis. With `position`, the loop goes at
  /// that place of the op's nest (0: outermost): ahead of the op's loops
  /// that were asked no position or a larger one, whenever they come, so
  /// that the order of two axes over one factor (which one is major) does
  /// not follow the order the tactics ran in; a position beyond the mesh's
  /// axes fails.
  mlir::LogicalResult tileOp(mlir::Operation *op, int64_t factor,
                             llvm::StringRef axis,
                             std::optional<unsigned> position = std::nullopt);
  /// atomic<op, axis>: `op` never loops over `axis`; it computes its whole
  /// result on every device while its operands and results may stay tiled
  /// around it (gathered before it, sliced after it by their consumers).
  /// Fails for an op without a rule, an unknown axis, or an op that loops
  /// over or requests the axis.
  mlir::LogicalResult atomicOp(mlir::Operation *op, llvm::StringRef axis);

  /// Propagates tilings to a fixed point.
  PropagationStats propagate();

  /// Sets `op`'s loop nest outright (outermost first), for callers that
  /// decide whole states at once (the automatic search, ShardingSpace.h).
  /// Fails with a diagnostic for an op without a rule, an unknown axis, an
  /// axis used twice, a factor that cannot be looped over
  /// (isLoopableFactor) or sizes the nest does not divide.
  mlir::LogicalResult setLoopNest(mlir::Operation *op,
                                  llvm::ArrayRef<AxisFactor> nest);
  /// Sets the loop nest of tied class `edge` (its index in
  /// getTiedValues().getEdges(); factors are the dimensions) outright; same
  /// checks as setLoopNest.
  mlir::LogicalResult setEdgeNest(unsigned edge,
                                  llvm::ArrayRef<AxisFactor> nest);
  /// Sets the explicit tiling of `value` outright (no deep tiling, unlike
  /// tile()); same checks as tile() for every level.
  mlir::LogicalResult setExplicitTiling(mlir::Value value,
                                        llvm::ArrayRef<AxisDim> tiling);
  /// Whether `factor` of `op`'s rule may appear in a loop nest: tileable,
  /// and a reduction only if the op's partial results combine by `#sum`.
  bool isLoopableFactor(mlir::Operation *op, int64_t factor);

  //===- Queries ----------------------------------------------------------===//

  /// The full tiling of `value` (defining nest, then explicit tilings).
  llvm::SmallVector<AxisDim> getTiling(mlir::Value value);
  /// Only the tiling the defining nest gives (what the producer computes).
  llvm::SmallVector<AxisDim> getNestTiling(mlir::Value value);
  /// Only the explicit tilings.
  llvm::ArrayRef<AxisDim> getExplicitTiling(mlir::Value value);
  /// The (axis, dim) levels by which the consumer of `use` (an op with a
  /// rule or the tied class it feeds) slices the value it reads, or
  /// std::nullopt when the use is opaque.
  std::optional<llvm::SmallVector<AxisDim>> getUseSlicing(mlir::OpOperand &use);
  llvm::ArrayRef<std::string> getAtomicAxes(mlir::Value value);
  /// The loop nest of `op` (empty for ops without a rule).
  llvm::ArrayRef<AxisFactor> getLoopNest(mlir::Operation *op);
  /// The loops tileOp asked `op` for, and the axes atomicOp keeps it
  /// whole on.
  llvm::ArrayRef<AxisFactor> getRequestedLoops(mlir::Operation *op);
  /// The nest position tileOp asked for `op`'s loop over `axis`, if any.
  std::optional<unsigned> getRequestedPosition(mlir::Operation *op,
                                               llvm::StringRef axis);
  llvm::ArrayRef<std::string> getAtomicOpAxes(mlir::Operation *op);
  /// The rule of `op`, or null when the op is opaque to partitioning.
  const ShardingRule *getRule(mlir::Operation *op);
  /// The tied classes of the function's loops and conditionals.
  const TiedValues &getTiedValues() const { return *tied; }
  /// The loop nest of a tied class (its factors are the dimensions).
  llvm::ArrayRef<AxisFactor> getEdgeNest(const TiedValues::Edge &edge);
  /// Whether `dim` of body argument `arg` (a loop-carried value) is a
  /// stacked dimension: the body only indexes it (the ops reading `arg`
  /// map `dim` to no factor or a NotTileable one, as dynamic_slice and
  /// dynamic_update_slice do with a scan's layer dimension) or passes `arg`
  /// on unchanged, and something indexes it.
  bool isIndexedByBody(mlir::BlockArgument arg, int64_t dim);
  /// Whether `value` is carried into a loop whose body indexes `dim`.
  bool isStackedDim(mlir::Value value, int64_t dim);
  /// The manual axes of the shard_map regions enclosing `block` (its values
  /// are per device on them: they are never tiled on them, and its ops
  /// never loop over them).
  static llvm::SmallVector<std::string> getManualAxes(mlir::Block *block);
  /// Size of a mesh axis (the axis must exist).
  int64_t axisSize(llvm::StringRef axis) const;

  //===- Persistence ------------------------------------------------------===//

  /// Stores the state as discardable attributes (`partir.tiling`,
  /// `partir.atomic` on arguments and ops, `partir.loops`,
  /// `partir.op_tiles` and `partir.op_atomic` on ops,
  /// `partir.edge_loops` on loops and conditionals, one list per result) so
  /// that tactic passes can be chained in a pipeline.
  void save();
  /// Reads what save() stored; fails on malformed attributes.
  mlir::LogicalResult load();
  /// Removes the attributes save() writes.
  static void clearSavedState(mlir::func::FuncOp func);

  //===- Materialization --------------------------------------------------===//

  /// Rewrites the function into PartIR:Core: a loop nest per partitioned op,
  /// value-tiling and atomic loops, then fuses a loop into the loop that
  /// slices its only use (Listing 8). Returns failure with a diagnostic if
  /// an op cannot be rebuilt on local shapes.
  mlir::LogicalResult materializeCore();

private:
  /// An op with a rule, or a tied class seen as an identity op.
  struct NodeInfo {
    ShardingRule rule;
    llvm::SmallVector<AxisFactor> nest;
    unsigned order = 0;
    /// The op, or null for a tied class.
    mlir::Operation *op = nullptr;
    /// The tied class (index into getTiedValues().getEdges()) of an edge.
    unsigned edge = 0;
    /// Axes the node never loops over: the manual axes of the shard_map
    /// regions it sits in (or, for an edge, crosses).
    llvm::SmallVector<std::string> fixedAxes;
    /// An edge between a global value and a shard_map body: the manual
    /// levels its global side has before the nest's own (inputs: read
    /// sliced so; outputs: produced so).
    llvm::SmallVector<AxisDim> manualLevels;
    bool manualOnInputs = false;
    /// Loops asked for by tileOp, and axes kept by atomicOp.
    llvm::SmallVector<AxisFactor> requested;
    llvm::SmallVector<std::string> atomicAxes;
    /// Nest positions asked for some requested loops, by axis.
    llvm::SmallVector<std::pair<std::string, unsigned>> positions;
  };
  struct ValueInfo {
    llvm::SmallVector<AxisDim> tiling; ///< explicit tilings
    llvm::SmallVector<std::string> atomic;
  };
  /// A node and one of its operands (uses) or results (defined values).
  struct NodePort {
    NodeInfo *node = nullptr;
    unsigned index = 0;
  };

  NodeInfo *getInfo(mlir::Operation *op);
  /// The node reading `use` (an op with a rule or an edge it feeds).
  NodePort getConsumer(mlir::OpOperand &use);
  /// The node defining `value` (an op with a rule or an edge it is a
  /// target of).
  NodePort getProducer(mlir::Value value);
  /// The values a node reads and defines.
  llvm::SmallVector<mlir::Value> getInputs(const NodeInfo &node);
  llvm::SmallVector<mlir::Value> getOutputs(const NodeInfo &node);
  /// The (axis, dim) levels `nest` of a node applies to its input `index`.
  static llvm::SmallVector<AxisDim> inputSlicing(const NodeInfo &node,
                                                 unsigned index);
  /// The (axis, dim) slicings that every consumer's loop nest applies to
  /// `value`, in the first consumer's order; empty if some use is opaque.
  llvm::SmallVector<AxisDim> commonConsumerSlicing(mlir::Value value);
  /// Adds `level` to `node`'s nest: last, or ahead of the loops asked a
  /// later nest position (tileOp) or none.
  void insertLoop(NodeInfo &node, AxisFactor level);
  /// Tries to extend a node's nest by one axis; returns true on change.
  bool visit(NodeInfo &node, PropagationStats &stats);
  /// The factor a candidate axis would tile, or std::nullopt.
  std::optional<int64_t> candidateFactor(NodeInfo &node, llvm::StringRef axis,
                                         PropagationStats &stats);
  bool canAssign(NodeInfo &node, llvm::StringRef axis, int64_t factor);
  /// For a factor that canAssign refuses only because it is a minor factor
  /// of a compound dimension whose major factors are not fully tiled: the
  /// first of those major factors the axis can tile, or std::nullopt.
  std::optional<int64_t> majorFactorFor(NodeInfo &node, llvm::StringRef axis,
                                        int64_t factor);
  /// The factor of `node`'s rule that level `l` of `tiling`, a tiling of
  /// its input or output `index`, lands on (levels on a compound
  /// dimension fill its factors major first), or kNoFactor.
  int64_t factorOfLevel(const NodeInfo &node, bool isResult, unsigned index,
                        llvm::ArrayRef<AxisDim> tiling, size_t l) const;
  /// One node per tied class, ordered where its region op is; `fixed`
  /// gives the manual axes each region op's body runs per device on.
  void addEdges(const llvm::DenseMap<mlir::Operation *, unsigned> &regionOrder,
                const llvm::DenseMap<mlir::Operation *,
                                     llvm::SmallVector<std::string>> &fixed);
  void saveEdges(mlir::Builder &b);
  mlir::LogicalResult loadEdges(mlir::Operation *op);
  /// Reads the tileOp requests and atomicOp axes save() stored on `op`.
  mlir::LogicalResult loadOpActions(mlir::Operation *op);
  mlir::LogicalResult loadNest(mlir::Attribute attr, const ShardingRule &rule,
                               llvm::SmallVectorImpl<AxisFactor> &nest);

  mlir::func::FuncOp func;
  partir::MeshAttr mesh;
  std::shared_ptr<const TiedValues> tied;
  /// Ops first (in program pre-order), then edges.
  std::vector<NodeInfo> nodes;
  llvm::DenseMap<mlir::Operation *, unsigned> opNodes;
  /// Node of each tied class, by its index in the TiedValues.
  llvm::SmallVector<unsigned> edgeNodes;
  llvm::DenseMap<mlir::Value, ValueInfo> values;
  /// Nodes whose evidence changed since they were last visited, visited in
  /// program order so that results do not depend on use-list order.
  std::set<std::pair<unsigned, unsigned>> worklist;
  void enqueue(NodePort port);
  void enqueue(mlir::Operation *op);
  void enqueueNeighbours(mlir::Value value);
};

/// Rewrites size attributes of a tile-local clone of `original` whose full
/// dimensions shrank (slice limits, dynamic_slice and gather slice sizes):
/// materializeCore's loop bodies and the search's planned programs
/// (search::NdaEnvironment::emitPlanned) clone ops onto local shapes alike.
void adjustLocalAttributes(mlir::Operation *clone, mlir::Operation *original);

} // namespace toast::partition

#endif // TOAST_PARTITION_SHARDINGSTATE_H
