//===- Formulation.cpp - A function's sharding choices as an ILP ----------===//
//
// Nodes are the entry arguments (rank >= 1, static shapes) and the
// top-level ops with a sharding rule and operands (constants, loops and
// conditionals stay replicated, as in the NDA space). A *layout* says, per
// search axis, which dimension of a tensor the axis tiles (-1: none).
//
//===----------------------------------------------------------------------===//

#include "toast/Search/Ilp.h"

#include "toast/Interfaces/ControlFlow.h"
#include "toast/Interfaces/ValueNames.h"

#include "toast/Simulator/CostModel.h"
#include "toast/Simulator/Fusion.h"

#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cmath>
#include <functional>
#include <set>

using namespace mlir;

namespace toast::search::ilp {

/// The most strategy pairs (edge variables) a formulation may have.
constexpr uint64_t kMaxStrategyPairs = 50000000;

namespace {

/// Per search axis, the dimension it tiles, or -1.
using Layout = SmallVector<int, 4>;

class Formulator {
public:
  Formulator(partition::ShardingState &state, ArrayRef<std::string> axes,
             const sim::DeviceSpec &device,
             const sim::SimulationOptions &options)
      : state(state), device(device), options(options),
        block(state.getFunction().front()) {
    partir::MeshAttr mesh = state.getMesh();
    for (auto [name, size] : llvm::zip(mesh.getNames(), mesh.getSizes()))
      if (axes.empty() || llvm::is_contained(axes, name.getValue())) {
        axisNames.push_back(name.str());
        axisSizes.push_back(size);
      }
  }

  FailureOr<Formulation> run();

private:
  LogicalResult checkUnpartitioned();
  void addArgument(BlockArgument arg);
  void addOp(Operation *op, int64_t position);
  /// The operand a follower takes its strategy from, or -1.
  int followedOperand(Operation *op) const;
  bool isNodeOp(Operation *op) const;
  bool readsNode(Operation *op) const {
    return llvm::any_of(op->getOperands(),
                        [&](Value v) { return valueNode.count(v); });
  }
  void addUserFollowers(ArrayRef<Operation *> ops);
  void addFollowerNode(const Formulation::UserFollower &follower);
  void addUpdateAliases();
  void priceUpdateAliases();
  /// The edges addUpdateAliases made (priceUpdateAliases prices them).
  std::vector<size_t> aliasEdges;
  void addStrategy(unsigned n, const ShardingRule &rule,
                   ArrayRef<partition::AxisFactor> nest, double seconds);
  void extendLiveRange(Problem::Node &node, Operation *reader);
  void addFollowedBuffer(unsigned n, const ShardingRule &rule,
                         unsigned followed);

  std::vector<SmallVector<partition::AxisFactor, 2>>
  enumerateNests(Operation *op, const ShardingRule &rule);
  /// The nest of `op` that reads operand `index` (or writes result
  /// `index`) in `layout`, where its factors allow.
  SmallVector<partition::AxisFactor, 2>
  deriveNest(Operation *op, const ShardingRule &rule, bool fromResult,
             unsigned index, const Layout &layout);
  /// The layout `nest` gives result (or operand) `index`.
  Layout layoutOf(const ShardingRule &rule,
                  ArrayRef<partition::AxisFactor> nest, bool result,
                  unsigned index);
  Layout operandLayout(const ShardingRule &rule,
                       ArrayRef<partition::AxisFactor> nest, unsigned operand) {
    return layoutOf(rule, nest, false, operand);
  }
  Layout resultLayout(const ShardingRule &rule,
                      ArrayRef<partition::AxisFactor> nest, unsigned result) {
    return layoutOf(rule, nest, true, result);
  }
  double nodeSeconds(Operation *op, const ShardingRule &rule,
                     ArrayRef<partition::AxisFactor> nest);
  double trafficBytes(Operation *op, const ShardingRule &rule,
                      ArrayRef<partition::AxisFactor> nest);
  void findFusedValues();
  /// Seconds to turn `from` into `to` on a tensor of `bytes` global bytes.
  double reshardSeconds(const Layout &from, const Layout &to,
                        double bytes) const;
  /// Bytes the buffers of that resharding take on a tensor of `type`.
  int64_t reshardBytes(Type type, const Layout &from, const Layout &to) const;
  /// Adds `edge` if it costs time or holds buffers (then live at
  /// `position`, the reader's).
  void addEdge(Problem::Edge edge, int64_t position);
  int64_t localBytes(Type type, const Layout &layout) const;
  unsigned axisIndex(StringRef name) const {
    return llvm::find(axisNames, name) - axisNames.begin();
  }
  int64_t product(ArrayRef<unsigned> axes) const {
    int64_t n = 1;
    for (unsigned a : axes)
      n *= axisSizes[a];
    return n;
  }
  sim::LinkSpec link(ArrayRef<unsigned> axes) const {
    SmallVector<std::string> names;
    for (unsigned a : axes)
      names.push_back(axisNames[a]);
    return sim::getGroupLink(device, names);
  }
  unsigned addNode(NodeStrategies strategies, int64_t start);
  void addUse(OpOperand &use);
  static int64_t toUnits(double seconds) {
    return std::llround(seconds / kSecondsPerCostUnit);
  }

  partition::ShardingState &state;
  const sim::DeviceSpec &device;
  const sim::SimulationOptions &options;
  Block &block;
  /// Results the fusion model fuses into their readers: no buffer, no
  /// traffic (decided once, on the unpartitioned program).
  DenseSet<Value> fused;
  /// What a fused value's fusion reads (its unfused inputs' bytes).
  DenseMap<Value, double> fusedInputBytes;
  SmallVector<std::string> axisNames;
  SmallVector<int64_t> axisSizes;
  Formulation formulation;
  /// Per node, per strategy, per result (one for arguments): the layout.
  std::vector<std::vector<SmallVector<Layout, 1>>> layouts;
  DenseMap<Value, std::pair<unsigned, unsigned>> valueNode;
  DenseMap<Operation *, unsigned> opNode;
  DenseMap<Operation *, int64_t> positions;
  /// Strategy pairs of the edges so far (reserve): the formulation's size.
  uint64_t pairs = 0;
  bool tooLarge = false;
  /// Whether `n` more strategy pairs still fit (kMaxStrategyPairs);
  /// records that the formulation is too large otherwise.
  bool reserve(uint64_t n) {
    tooLarge |= n > kMaxStrategyPairs - std::min(pairs, kMaxStrategyPairs);
    pairs += n;
    return !tooLarge;
  }
};

} // namespace

LogicalResult Formulator::checkUnpartitioned() {
  for (BlockArgument arg : block.getArguments())
    if (!state.getExplicitTiling(arg).empty())
      return state.getFunction().emitError(
          "algorithm=ilp starts from the unpartitioned program; an earlier "
          "tactic tiled an argument");
  for (Operation &op : block)
    if (!state.getLoopNest(&op).empty())
      return op.emitError("algorithm=ilp starts from the unpartitioned "
                          "program; an earlier tactic partitioned this op");
  return success();
}

int64_t Formulator::localBytes(Type type, const Layout &layout) const {
  int64_t bytes = sim::getTypeBytes(type);
  for (auto [a, dim] : llvm::enumerate(layout))
    if (dim >= 0)
      bytes /= axisSizes[a];
  return bytes;
}

double Formulator::reshardSeconds(const Layout &from, const Layout &to,
                                  double bytes) const {
  SmallVector<unsigned> gathered, moved;
  double kept = bytes;
  for (auto [a, dim] : llvm::enumerate(from)) {
    if (dim < 0)
      continue;
    if (to[a] < 0) {
      gathered.push_back(a);
      continue;
    }
    kept /= axisSizes[a];
    if (to[a] != dim)
      moved.push_back(a);
  }
  double seconds = 0;
  if (!gathered.empty())
    seconds += sim::ringCollectiveCost(sim::CollectiveKind::AllGather,
                                       product(gathered), kept, link(gathered))
                   .time;
  for (unsigned a : moved)
    seconds += sim::ringCollectiveCost(sim::CollectiveKind::AllToAll,
                                       axisSizes[a], kept, link({a}))
                   .time;
  return seconds;
}

/// The resharding's buffers live at its reader: the gathered (or
/// all_to_all'd) value when an axis leaves or moves, plus its all_slice when
/// an axis is added (the two coexist at the slice; the collective optimizer
/// fuses only a gather and a slice of the same axes into an all_to_all). A
/// layout the reader reads as it is needs no buffer.
int64_t Formulator::reshardBytes(Type type, const Layout &from,
                                 const Layout &to) const {
  int64_t kept = sim::getTypeBytes(type);
  bool collective = false, sliced = false;
  for (auto [a, dim] : llvm::enumerate(from)) {
    if (dim < 0) {
      sliced |= to[a] >= 0;
      continue;
    }
    collective |= to[a] != dim;
    if (to[a] >= 0)
      kept /= axisSizes[a];
  }
  return (collective ? kept : 0) + (sliced ? localBytes(type, to) : 0);
}

void Formulator::addEdge(Problem::Edge edge, int64_t position) {
  if (llvm::all_of(edge.usages, [](int64_t u) { return u == 0; })) {
    edge.usages.clear();
  } else {
    edge.start = position;
    edge.end = position + 1;
  }
  if (edge.usages.empty() &&
      llvm::all_of(edge.costs, [](int64_t c) { return c == 0; }))
    return;
  formulation.problem.edges.push_back(std::move(edge));
}

Layout Formulator::layoutOf(const ShardingRule &rule,
                            ArrayRef<partition::AxisFactor> nest, bool result,
                            unsigned index) {
  Layout layout(axisNames.size(), -1);
  for (const partition::AxisFactor &level : nest) {
    int64_t dim = result ? rule.getResultDim(index, level.factor)
                         : rule.getOperandDim(index, level.factor);
    layout[axisIndex(level.axis)] = dim == kNoFactor ? -1 : dim;
  }
  return layout;
}

/// The bytes `op` reads and writes in HBM under `nest`, as the roofline
/// counts them: its materialized operands (only the part it returns of a
/// sliced one) and its materialized results, on local shapes. A fused
/// operand's own inputs are counted where it is computed, so a fusion's
/// traffic is the sum over its ops (a buffer read by two ops of one fusion
/// counts twice, a small overcount).
double Formulator::trafficBytes(Operation *op, const ShardingRule &rule,
                                ArrayRef<partition::AxisFactor> nest) {
  if (sim::isFreeOp(op, options.fusion))
    return 0;
  double bytes = 0;
  int sliced = sim::getSlicedOperand(op);
  for (OpOperand &use : op->getOpOperands()) {
    if (fused.contains(use.get()))
      continue;
    unsigned i = use.getOperandNumber();
    if (static_cast<int>(i) == sliced)
      bytes +=
          localBytes(op->getResult(0).getType(), resultLayout(rule, nest, 0));
    else
      bytes += localBytes(use.get().getType(), operandLayout(rule, nest, i));
  }
  for (OpResult value : op->getResults())
    if (!fused.contains(value))
      bytes += localBytes(value.getType(),
                          resultLayout(rule, nest, value.getResultNumber()));
  return bytes;
}

/// The fusion model's decisions on the unpartitioned program.
void Formulator::findFusedValues() {
  if (!options.fusion)
    return;
  for (Operation &op : block) {
    if (op.getNumResults() != 1)
      continue;
    Value value = op.getResult(0);
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || !type.hasStaticShape())
      continue;
    SmallVector<sim::FusionReader> readers;
    for (OpOperand &use : value.getUses()) {
      sim::FusionReader reader;
      Operation *user = use.getOwner();
      if (user->getBlock() == &block &&
          !user->hasTrait<OpTrait::IsTerminator>()) {
        reader.op = user;
        if (auto t = dyn_cast<RankedTensorType>(
                user->getNumResults() ? user->getResult(0).getType() : Type()))
          reader.resultElements = t.hasStaticShape() ? t.getNumElements() : 0;
      }
      readers.push_back(reader);
    }
    // What the producer's fusion reads, on the unpartitioned shapes (tiling
    // scales inputs and result alike).
    double inputBytes = 0;
    for (Value operand : op.getOperands())
      inputBytes +=
          fused.contains(operand)
              ? fusedInputBytes.lookup(operand)
              : static_cast<double>(sim::getTypeBytes(operand.getType()));
    if (sim::isFusedIntoReaders(
            &op, type.getNumElements(), readers, [&] { return inputBytes; },
            static_cast<double>(sim::getTypeBytes(type)))) {
      fused.insert(value);
      fusedInputBytes[value] = inputBytes;
    }
  }
}

double Formulator::nodeSeconds(Operation *op, const ShardingRule &rule,
                               ArrayRef<partition::AxisFactor> nest) {
  SmallVector<unsigned> all, reduced;
  for (const partition::AxisFactor &level : nest) {
    all.push_back(axisIndex(level.axis));
    if (rule.factors[level.factor].kind == FactorKind::Reduction)
      reduced.push_back(all.back());
  }
  double seconds =
      sim::getContractionTime(op, device, options.tf32) / product(all);
  if (options.memoryBound)
    seconds = std::max(seconds,
                       trafficBytes(op, rule, nest) / device.memoryBandwidth);
  if (reduced.empty())
    return seconds;
  // Partial results are summed where they are produced.
  for (OpResult value : op->getResults())
    seconds +=
        sim::ringCollectiveCost(
            sim::CollectiveKind::AllReduce, product(reduced),
            localBytes(value.getType(),
                       resultLayout(rule, nest, value.getResultNumber())),
            link(reduced))
            .time;
  return seconds;
}

std::vector<SmallVector<partition::AxisFactor, 2>>
Formulator::enumerateNests(Operation *op, const ShardingRule &rule) {
  SmallVector<int64_t> loopable;
  for (unsigned f = 0; f < rule.getNumFactors(); ++f)
    if (state.isLoopableFactor(op, f))
      loopable.push_back(f);
  std::vector<SmallVector<partition::AxisFactor, 2>> nests;
  SmallVector<partition::AxisFactor, 2> nest;
  SmallVector<int64_t> tiles(rule.getNumFactors(), 1);
  std::function<void(unsigned)> visit = [&](unsigned a) {
    if (a == axisNames.size()) {
      nests.push_back(nest);
      return;
    }
    visit(a + 1);
    for (int64_t f : loopable) {
      if (rule.factors[f].size % (tiles[f] * axisSizes[a]) ||
          !rule.canTileNext(f, [&](int64_t g) { return tiles[g]; }))
        continue;
      tiles[f] *= axisSizes[a];
      nest.push_back({axisNames[a], f});
      visit(a + 1);
      nest.pop_back();
      tiles[f] /= axisSizes[a];
    }
  };
  visit(0);
  return nests;
}

SmallVector<partition::AxisFactor, 2>
Formulator::deriveNest(Operation *op, const ShardingRule &rule, bool fromResult,
                       unsigned index, const Layout &layout) {
  SmallVector<partition::AxisFactor, 2> nest;
  SmallVector<int64_t> tiles(rule.getNumFactors(), 1);
  const auto &dims = fromResult ? rule.resultDims : rule.operandDims;
  for (auto [a, dim] : llvm::enumerate(layout)) {
    if (dim < 0)
      continue;
    int64_t f = dims[index][dim];
    if (f == kNoFactor || !state.isLoopableFactor(op, f) ||
        rule.factors[f].size % (tiles[f] * axisSizes[a]) ||
        !rule.canTileNext(f, [&](int64_t g) { return tiles[g]; }))
      continue;
    tiles[f] *= axisSizes[a];
    nest.push_back({axisNames[a], f});
  }
  return nest;
}

bool Formulator::isNodeOp(Operation *op) const {
  // Regions of ruled ops (a reduce's or a scatter's scalar body) belong to
  // the op; loops and conditionals stay whole (their bodies are not
  // formulated).
  // Ops without operands (iota, constants) are nodes too: they read no
  // node, so they follow their first reader (addUserFollowers); an iota
  // computed whole and then sliced holds the whole index tensor (t2b's loss
  // mask: 16.8 GB of the 55.5 GB the ILP's answer peaked at).
  return !isDataFlowRegionOp(op) && !op->hasTrait<OpTrait::IsTerminator>() &&
         state.getRule(op);
}

int Formulator::followedOperand(Operation *op) const {
  if (sim::isContraction(op))
    return -1;
  SmallVector<unsigned> candidates;
  for (OpOperand &use : op->getOpOperands())
    if (valueNode.count(use.get()))
      candidates.push_back(use.getOperandNumber());
  if (candidates.empty())
    return -1;
  // Several operands from different decisions: the op's layout is a choice
  // of its own (a residual add may follow either side, or neither), so it
  // decides; following one would keep the ILP from strategies the lowering
  // runs (the search's, for one).
  const Problem &problem = formulation.problem;
  auto leaderOf = [&](unsigned operand) {
    return problem.getLeader(valueNode.lookup(op->getOperand(operand)).first);
  };
  if (llvm::any_of(candidates, [&](unsigned c) {
        return leaderOf(c) != leaderOf(candidates.front());
      }))
    return -1;
  // A follower's nest is derived from its operand's layout, so only
  // factors the operand has can be looped. An op with factors of its own (a
  // broadcast_in_dim adding dimensions) decides for itself: following would
  // force it to compute its whole result replicated (Alpa and XLA
  // merge only ops whose sharding the operand determines).
  const ShardingRule &rule = *state.getRule(op);
  ArrayRef<int64_t> dims = rule.operandDims[candidates.front()];
  for (unsigned f = 0; f < rule.getNumFactors(); ++f)
    if (state.isLoopableFactor(op, f) && !llvm::is_contained(dims, f))
      return -1;
  return candidates.front();
}

unsigned Formulator::addNode(NodeStrategies strategies, int64_t start) {
  unsigned n = formulation.problem.nodes.size();
  formulation.problem.nodes.emplace_back();
  formulation.problem.nodes.back().start = start;
  formulation.problem.nodes.back().end = start + 1;
  formulation.strategies.push_back(std::move(strategies));
  layouts.emplace_back();
  return n;
}

void Formulator::addArgument(BlockArgument arg) {
  auto type = dyn_cast<RankedTensorType>(arg.getType());
  if (!type || !type.hasStaticShape() || type.getRank() == 0)
    return;
  NodeStrategies strategies;
  strategies.arg = arg;
  std::vector<Layout> argLayouts;
  Layout layout(axisNames.size(), -1);
  SmallVector<int64_t> tiles(type.getRank(), 1);
  SmallVector<partition::AxisDim, 2> tiling;
  std::function<void(unsigned)> visit = [&](unsigned a) {
    if (a == axisNames.size()) {
      strategies.tilings.push_back(tiling);
      argLayouts.push_back(layout);
      return;
    }
    visit(a + 1);
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (type.getDimSize(d) % (tiles[d] * axisSizes[a]))
        continue;
      tiles[d] *= axisSizes[a];
      tiling.push_back({axisNames[a], d});
      layout[a] = d;
      visit(a + 1);
      layout[a] = -1;
      tiling.pop_back();
      tiles[d] /= axisSizes[a];
    }
  };
  visit(0);
  // Tilings list axes in mesh order; the search axes were visited so.
  unsigned n = addNode(std::move(strategies), 0);
  Problem::Node &node = formulation.problem.nodes[n];
  for (const Layout &l : argLayouts) {
    node.costs.push_back(0);
    node.usages.push_back(localBytes(type, l));
    layouts[n].push_back({l});
  }
  valueNode[arg] = {n, 0};
}

/// Appends strategy `nest` of node `n`'s op: its cost, and per result its
/// layout and (unless fused) its local bytes.
void Formulator::addStrategy(unsigned n, const ShardingRule &rule,
                             ArrayRef<partition::AxisFactor> nest,
                             double seconds) {
  Problem::Node &node = formulation.problem.nodes[n];
  SmallVector<Layout, 1> results;
  int64_t usage = 0;
  for (OpResult value : formulation.strategies[n].op->getResults()) {
    results.push_back(resultLayout(rule, nest, value.getResultNumber()));
    if (!fused.contains(value))
      usage += localBytes(value.getType(), results.back());
  }
  node.costs.push_back(toUnits(seconds));
  node.usages.push_back(usage);
  layouts[n].push_back(std::move(results));
}

/// Keeps `node`'s value live up to `reader` (an op of the block), or to the
/// end when the reader is the terminator (a returned value).
void Formulator::extendLiveRange(Problem::Node &node, Operation *reader) {
  node.end = reader->hasTrait<OpTrait::IsTerminator>()
                 ? static_cast<int64_t>(block.getOperations().size())
                 : std::max(node.end, positions.lookup(reader) + 1);
}

void Formulator::addOp(Operation *op, int64_t position) {
  const ShardingRule &rule = *state.getRule(op);
  int followed = followedOperand(op);
  NodeStrategies strategies;
  strategies.op = op;
  std::vector<double> seconds;
  if (followed < 0) {
    strategies.nests = enumerateNests(op, rule);
    for (const auto &nest : strategies.nests)
      seconds.push_back(nodeSeconds(op, rule, nest));
  } else {
    auto [leader, number] = valueNode.lookup(op->getOperand(followed));
    double bytes = sim::getTypeBytes(op->getOperand(followed).getType());
    for (const auto &leaderLayouts : layouts[leader]) {
      const Layout &from = leaderLayouts[number];
      strategies.nests.push_back(deriveNest(op, rule, false, followed, from));
      seconds.push_back(
          nodeSeconds(op, rule, strategies.nests.back()) +
          reshardSeconds(from,
                         operandLayout(rule, strategies.nests.back(), followed),
                         bytes));
    }
  }
  unsigned n = addNode(std::move(strategies), position);
  Problem::Node &node = formulation.problem.nodes[n];
  if (followed >= 0)
    node.follows = valueNode.lookup(op->getOperand(followed)).first;
  for (auto [s, nest] : llvm::enumerate(formulation.strategies[n].nests))
    addStrategy(n, rule, nest, seconds[s]);
  if (followed >= 0)
    addFollowedBuffer(n, rule, followed);
  opNode[op] = n;
  for (OpResult value : op->getResults())
    valueNode[value] = {n, value.getResultNumber()};
  // Edges from the producers of the other operands.
  for (OpOperand &use : op->getOpOperands())
    if (static_cast<int>(use.getOperandNumber()) != followed)
      addUse(use);
}

/// A follower reads its followed operand resharded where its derived nest
/// cannot loop over the operand's axes: that copy is an edge buffer from the
/// followed node, on the diagonal (both take one strategy index).
void Formulator::addFollowedBuffer(unsigned n, const ShardingRule &rule,
                                   unsigned followed) {
  Operation *op = formulation.strategies[n].op;
  auto [leader, number] = valueNode.lookup(op->getOperand(followed));
  size_t count = layouts[leader].size();
  Problem::Edge edge{leader, n, std::vector<int64_t>(count * count, 0)};
  edge.usages.assign(count * count, 0);
  for (auto [s, nest] : llvm::enumerate(formulation.strategies[n].nests))
    edge.usages[s * count + s] = reshardBytes(
        op->getOperand(followed).getType(), layouts[leader][s][number],
        operandLayout(rule, nest, followed));
  addEdge(std::move(edge), positions.lookup(op));
}

/// Prices reading `use` (of a node's value) in the reader's strategies: an
/// edge into a node, or a gather to the whole value charged to the producer
/// when the reader is not a node.
void Formulator::addUse(OpOperand &use) {
  auto it = valueNode.find(use.get());
  if (it == valueNode.end())
    return;
  auto [producer, number] = it->second;
  Problem &problem = formulation.problem;
  Operation *reader = block.findAncestorOpInBlock(*use.getOwner());
  Problem::Node &from = problem.nodes[producer];
  extendLiveRange(from, reader);
  if (reader->hasTrait<OpTrait::IsTerminator>())
    return;
  Type type = use.get().getType();
  double bytes = sim::getTypeBytes(type);
  int64_t position = positions.lookup(reader);
  auto consumer = opNode.find(reader);
  if (consumer == opNode.end() || reader != use.getOwner()) {
    // The gathered value is the reader's: a buffer on the producer's own
    // diagonal.
    Layout whole(axisNames.size(), -1);
    size_t count = from.costs.size();
    if (!reserve(uint64_t(count) * count))
      return;
    Problem::Edge edge{producer, producer,
                       std::vector<int64_t>(count * count, 0)};
    edge.usages.assign(count * count, 0);
    for (auto [s, cost] : llvm::enumerate(from.costs)) {
      const Layout &layout = layouts[producer][s][number];
      cost += toUnits(reshardSeconds(layout, whole, bytes));
      edge.usages[s * count + s] = reshardBytes(type, layout, whole);
    }
    addEdge(std::move(edge), position);
    return;
  }
  unsigned to = consumer->second;
  const ShardingRule &rule = *state.getRule(reader);
  const auto &nests = formulation.strategies[to].nests;
  if (!reserve(uint64_t(layouts[producer].size()) * nests.size()))
    return;
  Problem::Edge edge{producer, to, {}};
  for (const auto &producerLayouts : layouts[producer])
    for (const auto &nest : nests) {
      Layout read = operandLayout(rule, nest, use.getOperandNumber());
      edge.costs.push_back(
          toUnits(reshardSeconds(producerLayouts[number], read, bytes)));
      edge.usages.push_back(reshardBytes(type, producerLayouts[number], read));
    }
  addEdge(std::move(edge), position);
}

/// A training step returns its parameters and optimizer state updated,
/// and a training loop feeds them back as the next step's arguments: such a
/// result (getUpdatedArguments) must keep its argument's layout, as XLA
/// constrains aliased buffers. Without it the ILP took GNS's parameters
/// replicated and returned 749 of them sharded, a step no loop can repeat
/// without gathering them again (the NDA actions shard an argument and its
/// update together). An edge from the node producing the result to the
/// argument's node marks every pair of strategies whose layouts differ;
/// priceUpdateAliases prices them once the unpartitioned cost is known.
void Formulator::addUpdateAliases() {
  Operation *ret = block.getTerminator();
  auto func = cast<FunctionOpInterface>(state.getFunction().getOperation());
  std::vector<std::optional<unsigned>> updated = getUpdatedArguments(func);
  for (OpOperand &operand : ret->getOpOperands()) {
    std::optional<unsigned> arg = updated[operand.getOperandNumber()];
    if (!arg)
      continue;
    auto argNode = valueNode.find(block.getArgument(*arg));
    auto result = valueNode.find(operand.get());
    if (argNode == valueNode.end() || result == valueNode.end())
      continue;
    auto [producer, number] = result->second;
    unsigned to = argNode->second.first;
    if (producer == to)
      continue;
    size_t rows = layouts[producer].size(), columns = layouts[to].size();
    if (!reserve(uint64_t(rows) * columns))
      return;
    Problem::Edge edge{producer, to, {}};
    for (const auto &producerLayouts : layouts[producer])
      for (const auto &argLayouts : layouts[to])
        edge.costs.push_back(producerLayouts[number] != argLayouts[0]);
    aliasEdges.push_back(formulation.problem.edges.size());
    formulation.problem.edges.push_back(std::move(edge));
  }
}

/// A mismatched pair costs more than the unpartitioned program (which has
/// none), so no optimum, and no incumbent of the descent from it, keeps one.
/// A price rather than kForbiddenCost: 10^15 among costs of 10^7-10^11
/// scales the program badly for the LP, and no more is needed.
void Formulator::priceUpdateAliases() {
  int64_t penalty =
      2 * static_cast<int64_t>(std::ceil(formulation.replicatedCost)) + 1;
  for (size_t e : aliasEdges)
    for (int64_t &cost : formulation.problem.edges[e].costs)
      cost *= penalty;
}

/// A user follower counts like any node: a node that follows the node
/// deciding its reader, priced as the simulator prices the op in that
/// layout, holding its local results from its position to its last reader.
void Formulator::addFollowerNode(const Formulation::UserFollower &follower) {
  Operation *op = follower.op;
  const ShardingRule &rule = *state.getRule(op);
  NodeStrategies strategies;
  strategies.op = op;
  strategies.nests = follower.nests;
  unsigned n = addNode(std::move(strategies), positions.lookup(op));
  Problem::Node &node = formulation.problem.nodes[n];
  node.follows = follower.node;
  for (Operation *user : op->getUsers())
    extendLiveRange(node, block.findAncestorOpInBlock(*user));
  for (const auto &nest : follower.nests)
    addStrategy(n, rule, nest, nodeSeconds(op, rule, nest));
}

/// Ops that read no node (broadcasts of constants, iota-based masks) are
/// computed where they are read: each takes, per strategy of the node that
/// decides its first reader, the layout that reader reads (readers that are
/// such ops themselves are resolved first, in reverse order).
void Formulator::addUserFollowers(ArrayRef<Operation *> ops) {
  DenseMap<Operation *, unsigned> followerOf;
  for (Operation *op : llvm::reverse(ops)) {
    if (op->getUses().empty())
      continue;
    OpOperand &use =
        *llvm::min_element(op->getUses(), [&](OpOperand &a, OpOperand &b) {
          return positions.lookup(block.findAncestorOpInBlock(*a.getOwner())) <
                 positions.lookup(block.findAncestorOpInBlock(*b.getOwner()));
        });
    Operation *reader = use.getOwner();
    unsigned number = cast<OpResult>(use.get()).getResultNumber();
    const ShardingRule &rule = *state.getRule(op);
    Formulation::UserFollower follower{op, 0, {}};
    auto addFrom = [&](Operation *readerOp,
                       ArrayRef<SmallVector<partition::AxisFactor, 2>> nests) {
      const ShardingRule &readerRule = *state.getRule(readerOp);
      for (const auto &nest : nests)
        follower.nests.push_back(deriveNest(
            op, rule, true, number,
            operandLayout(readerRule, nest, use.getOperandNumber())));
    };
    if (auto node = opNode.find(reader); node != opNode.end()) {
      follower.node = node->second;
      addFrom(reader, formulation.strategies[node->second].nests);
    } else if (auto other = followerOf.find(reader);
               other != followerOf.end()) {
      const Formulation::UserFollower &next =
          formulation.userFollowers[other->second];
      follower.node = next.node;
      addFrom(reader, next.nests);
    } else {
      continue;
    }
    followerOf[op] = formulation.userFollowers.size();
    addFollowerNode(follower);
    formulation.userFollowers.push_back(std::move(follower));
  }
}

FailureOr<Formulation> Formulator::run() {
  if (failed(checkUnpartitioned()))
    return failure();
  for (auto [i, op] : llvm::enumerate(block))
    positions[&op] = i;
  findFusedValues();
  formulation.problem.name = state.getFunction().getSymName().str();
  formulation.problem.usageLimit = device.memoryBytes;
  for (BlockArgument arg : block.getArguments())
    addArgument(arg);
  SmallVector<Operation *> sourceless;
  for (auto [i, op] : llvm::enumerate(block)) {
    if (tooLarge)
      break;
    if (isNodeOp(&op) && readsNode(&op)) {
      addOp(&op, i);
      continue;
    }
    if (isNodeOp(&op)) {
      sourceless.push_back(&op);
      continue;
    }
    // Readers that are not nodes (the return, opaque ops, ops with
    // regions) take whole values, once per value.
    llvm::SmallPtrSet<Value, 8> read;
    op.walk([&](Operation *inner) {
      for (OpOperand &use : inner->getOpOperands())
        if (read.insert(use.get()).second)
          addUse(use);
    });
  }
  if (!tooLarge)
    addUserFollowers(sourceless);
  if (!tooLarge)
    addUpdateAliases();
  // Each pair is a variable and two cost entries: past the bound, the
  // problem would not fit in memory, let alone solve.
  if (tooLarge)
    return state.getFunction().emitError()
           << "algorithm=ilp: the formulation has more than "
           << kMaxStrategyPairs << " strategy pairs on a mesh of "
           << axisNames.size()
           << " axes (each op's strategies place every axis); search "
              "fewer axes (axes=...) or use another algorithm";
  // Arguments live throughout.
  int64_t end = block.getOperations().size();
  for (auto [n, strategies] : llvm::enumerate(formulation.strategies))
    if (!strategies.op)
      formulation.problem.nodes[n].end = end;
  std::vector<unsigned> replicated(formulation.problem.nodes.size(), 0);
  formulation.replicatedCost = evaluate(formulation.problem, replicated, 0);
  priceUpdateAliases();
  formulation.replicatedPeak = peakUsage(formulation.problem, replicated);
  return std::move(formulation);
}

FailureOr<Formulation> formulate(partition::ShardingState &state,
                                 ArrayRef<std::string> axes,
                                 const sim::DeviceSpec &device,
                                 const sim::SimulationOptions &options) {
  return Formulator(state, axes, device, options).run();
}

/// A nest as a set: the order of its levels does not change the layout.
static std::set<std::pair<std::string, int64_t>>
levelSet(ArrayRef<partition::AxisFactor> nest) {
  std::set<std::pair<std::string, int64_t>> levels;
  for (const partition::AxisFactor &level : nest)
    levels.insert({level.axis, level.factor});
  return levels;
}

FailureOr<std::vector<unsigned>>
findStrategies(const Formulation &formulation,
               partition::ShardingState &target) {
  const Problem &problem = formulation.problem;
  std::vector<unsigned> found(problem.nodes.size(), 0);
  auto matches = [&](unsigned n, unsigned s) {
    const NodeStrategies &node = formulation.strategies[n];
    if (node.op)
      return levelSet(node.nests[s]) == levelSet(target.getLoopNest(node.op));
    return llvm::equal(node.tilings[s], target.getExplicitTiling(node.arg));
  };
  auto fail = [&](unsigned n) -> FailureOr<std::vector<unsigned>> {
    const NodeStrategies &node = formulation.strategies[n];
    const char *message =
        "the ILP formulation has no strategy for this partitioning";
    if (node.op) {
      InFlightDiagnostic diag = node.op->emitError(message);
      diag << " (" << node.op->getName() << " looping";
      for (const partition::AxisFactor &level : target.getLoopNest(node.op))
        diag << " " << level.axis << ":" << level.factor;
      return diag << ")";
    }
    return target.getFunction().emitError()
           << "argument " << node.arg.getArgNumber() << ": " << message;
  };
  for (unsigned n = 0; n < problem.nodes.size(); ++n) {
    if (problem.nodes[n].follows >= 0)
      continue;
    unsigned count = problem.nodes[n].costs.size(), s = 0;
    while (s < count && !matches(n, s))
      ++s;
    if (s == count)
      return fail(n);
    found[n] = s;
  }
  for (unsigned n = 0; n < problem.nodes.size(); ++n) {
    found[n] = found[problem.getLeader(n)];
    if (!matches(n, found[n]))
      return fail(n);
  }
  return found;
}

LogicalResult applySolution(const Formulation &formulation,
                            ArrayRef<unsigned> strategies,
                            partition::ShardingState &state) {
  for (const Formulation::UserFollower &follower : formulation.userFollowers)
    if (failed(state.setLoopNest(follower.op,
                                 follower.nests[strategies[follower.node]])))
      return failure();
  for (auto [n, node] : llvm::enumerate(formulation.strategies)) {
    unsigned s = strategies[n];
    if (node.op) {
      if (failed(state.setLoopNest(node.op, node.nests[s])))
        return failure();
    } else if (failed(state.setExplicitTiling(node.arg, node.tilings[s]))) {
      return failure();
    }
  }
  return success();
}

} // namespace toast::search::ilp
