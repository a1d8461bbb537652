//===- SpaceImpl.h - Internals of the NDA search environment ----*- C++ -*-===//
//
// Private to lib/toast/Search/Space: the precomputed action space
// (ActionSpace.cpp), the state-independent program summary the analytic
// cost walks (ProgramModel.cpp, AnalyticCost.cpp) and the conversions to
// and from ShardingState (Materialize.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_LIB_SEARCH_SPACE_SPACEIMPL_H
#define TOAST_LIB_SEARCH_SPACE_SPACEIMPL_H

#include "toast/Search/ShardingSpace.h"
#include "toast/Simulator/Aliasing.h"
#include "toast/Simulator/Fusion.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <atomic>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>

namespace toast::search {

/// TOAST_UNMODELED_WHY=1 prints why states are priced by the reference
/// path (docs/search.md); every place that decides so asks here.
inline bool explainUnmodeled() {
  static const bool print = std::getenv("TOAST_UNMODELED_WHY") != nullptr;
  return print;
}

/// A value of the entry function (argument or op result), or of a loop
/// region in the loop model (RegionModel).
struct ProgramValue {
  // The fields every evaluation reads first (issue 17: cache lines).
  /// Defining program op, or -1 for entry arguments.
  int defOp = -1;
  unsigned resultNumber = 0;
  /// Global number of uses[0] (uses are numbered value by value).
  unsigned firstUse = 0;
  /// Whether ops that never run read the value (they are not in `uses`):
  /// materializeCore's fuser still counts them, so the value's loop does
  /// not fuse into its one live reader; every later pass erased them.
  bool deadUses = false;
  int64_t elementBytes = 0;
  /// (program op, operand number) of every use; operand -1 for uses that
  /// need the whole value (opaque or nested users), -2 for the return.
  llvm::SmallVector<std::pair<unsigned, int>, 2> uses;
  llvm::SmallVector<int64_t, 4> shape;
  /// Node of each definition dim, -1 where the dim cannot be sharded.
  llvm::SmallVector<int, 4> dimNode;
  /// The minor parts of split dims (a flatten's B*S: S), major to minor:
  /// (dim, node). Their axes tile the dim after the dimNode's.
  llvm::SmallVector<std::pair<unsigned, int>, 0> minorNodes;
  /// Whether dim `d` (its major or a minor part) carries mesh axis `axis`.
  bool carriesAxis(const SearchState &state, unsigned d, unsigned axis) const {
    auto has = [&](int node) {
      return node >= 0 && (state.nodeAxes[node] >> axis & 1);
    };
    if (has(dimNode[d]))
      return true;
    for (auto [dim, node] : minorNodes)
      if (dim == d && has(node))
        return true;
    return false;
  }
  int64_t getNumElements() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
};

/// An op of the entry function (or of a loop region, RegionModel), as the
/// analytic cost sees it.
struct ProgramOp {
  mlir::Operation *op = nullptr;
  /// Has a loop nest in ShardingState terms.
  bool ruled = false;
  /// Hoisted to the function start by the collective optimizer's folder.
  bool constant = false;
  /// A constant whose value is a splat: an even chunk of it is a smaller
  /// splat (phlo::getSlicedSplat).
  bool splat = false;
  /// Removed as dead by the collective optimizer.
  bool dead = false;
  /// The terminator (func.return).
  bool isReturn = false;
  /// stablehlo.transpose / reshape, and stablehlo.add (for the reduction
  /// sinking and merging patterns of --partir-optimize-collectives).
  bool isLayout = false;
  bool isAdd = false;
  // Then the fields emitOp reads for every op, the rule's after them
  // (issue 17: a ProgramOp spans several cache lines).
  /// Program values of the operands (-1: not a top-level value) and
  /// results; values captured by nested regions are extra operands.
  llvm::SmallVector<int, 2> operands;
  llvm::SmallVector<int, 1> results;
  /// Global use numbers of the operands (-1 where `operands` is -1).
  llvm::SmallVector<int, 2> operandUses;
  /// Seconds per global execution of the op's contractions (nested ones
  /// included, with trip counts) and FLOPs.
  double computeTime = 0;
  double flops = 0;
  /// Region ops: the ops sim::simulateRegions walks (the op included; 0
  /// for other ops) and the bytes their buffers add at the regions' peak
  /// (none is left at the op itself: what the regions yield dies with them).
  int64_t nestedOps = 0;
  int64_t nestedPeakBytes = 0;
  /// reshape / bitcast_convert: the result aliases the operand when local
  /// byte counts agree.
  bool mayAlias = false;
  /// The fusion model's view of the op (sim::getFusionKind,
  /// isExpensiveToDuplicate, isContiguousSliceView, getSlicedOperand), and
  /// whether the roofline skips it (free ops, region ops, calls): fixed
  /// per op, so read here rather than from the IR for every state.
  sim::FusionKind fusionKind = sim::FusionKind::Opaque;
  bool expensiveToDuplicate = false;
  bool sliceView = false;
  int slicedOperand = -1;
  bool noRoofline = false;
  /// Some result is updated in place (sim::getInPlaceOperand).
  bool updatesInPlace = false;
  /// A collective the input program holds (an all_reduce or
  /// collective_permute outside a region priced whole): its local bytes
  /// and groups under a state are not modelled, so states with one are
  /// priced by the reference path.
  bool inputCollective = false;
  /// A loop whose bodies the loop model prices (ProgramModel::regions),
  /// -1 for other ops. Read for every op by emitOp and the planner, so
  /// next to the fields above, not after the rule's (issue 17: a cache
  /// line per op).
  int region = -1;
  /// Region ops: the hoisted body constants they read
  /// (ProgramModel::hoistedConstantBytes).
  llvm::SmallVector<unsigned, 2> hoistedConstants;
  // The fields above are read for every op; those below for region ops
  // (nestedOps > 0) or ruled ops only.
  /// Region ops priced whole: the collectives their regions already hold
  /// (a shard_map body's collective_permutes), seconds per execution and
  /// counts, with trip counts.
  double nestedCommTime = 0;
  std::array<int64_t, sim::kNumCollectiveKinds> nestedCollectives{};
  /// Region ops: how each result gets its buffer (a loop's carries).
  llvm::SmallVector<sim::TiedResult, 1> tiedResults;
  /// Per result of a region op: whether its regions read the block
  /// arguments tied to it (other than yielding one as its own carry); a
  /// conditional's branches have none. Lowering may localize a class they
  /// do not read (Evaluation::regionsYieldSlices).
  llvm::SmallVector<char, 2> carryReadInRegions;
  /// transpose: result dim i is operand dim permutation[i].
  llvm::SmallVector<int64_t, 4> permutation;
  /// Rule factors: node (-1: never sharded), size, reduction kind.
  llvm::SmallVector<int, 4> factorNode;
  llvm::SmallVector<int64_t, 4> factorSize;
  llvm::SmallVector<bool, 4> factorReduction;
  /// The minor parts of factors that map split dims whole (the rows of a
  /// matmul between a flatten and the unflatten: S of B*S), major to minor:
  /// (factor, node). Their axes tile the factor after factorNode's.
  llvm::SmallVector<std::pair<unsigned, int>, 0> minorNodes;
  /// Rule maps (copied from the sharding rule): the major factor of each
  /// dim, and a reshape's minor factors of compound dims.
  llvm::SmallVector<llvm::SmallVector<int64_t, 4>, 2> operandDims;
  llvm::SmallVector<llvm::SmallVector<int64_t, 4>, 1> resultDims;
  llvm::SmallVector<MinorFactor, 0> minorFactors;
  /// The operand / result dim `factor` maps (as major or minor factor), or
  /// -1.
  int operandDim(unsigned operand, int64_t factor) const {
    return dimOf(false, operand, factor);
  }
  int resultDim(unsigned result, int64_t factor) const {
    return dimOf(true, result, factor);
  }
  int dimOf(bool isResult, unsigned tensor, int64_t factor) const {
    const auto &dims = isResult ? resultDims[tensor] : operandDims[tensor];
    for (auto [d, f] : llvm::enumerate(dims))
      if (f == factor)
        return d;
    for (const MinorFactor &m : minorFactors)
      if (m.isResult == isResult && m.tensor == tensor && m.factor == factor)
        return m.dim;
    return -1;
  }
  /// Region ops priced whole: the captured values (operands past the op's
  /// own) its regions read, by the simulator's rule (sim::simulateRegions'
  /// outer reads: a view reads no indices). A carry's init read there is
  /// read elsewhere (Evaluation::isReadElsewhere).
  llvm::SmallVector<int, 2> readByRegions;
};

/// The fields of a ProgramOp that pricing reads for every op, in one dense
/// record per op (ProgramModel::cores): walking the ProgramOps in program
/// order missed the cache on three or four lines of each 632-byte record
/// (issue 17). Its operands, operand uses and results are in
/// ProgramModel::opSlots. Copied from the ProgramOp once it is complete.
struct OpCore {
  double computeTime = 0;
  double flops = 0;
  /// First slot in ProgramModel::opSlots: numOperands operands, as many
  /// operand uses, then numResults results.
  unsigned slots = 0;
  unsigned numOperands = 0;
  unsigned numResults = 0;
  /// First of the op's rule factor sizes (ProgramOp::factorSize) in
  /// ProgramModel::opFactorSizes: emitOp reads them for every op with
  /// loops.
  unsigned factorSizes = 0;
  int region = -1;
  int slicedOperand = -1;
  sim::FusionKind fusionKind = sim::FusionKind::Opaque;
  bool dead = false;
  bool constant = false;
  bool splat = false;
  bool isReturn = false;
  bool isLayout = false;
  bool isAdd = false;
  bool mayAlias = false;
  bool expensiveToDuplicate = false;
  bool sliceView = false;
  bool noRoofline = false;
  bool updatesInPlace = false;
  bool inputCollective = false;
  /// nestedOps > 0 (a region op: its cold fields are read).
  bool nested = false;
  /// hoistedConstants is not empty.
  bool hoists = false;
};

/// What pricing reads of a value (ProgramValue) for every value and in
/// every byte count, in one dense record per value (ProgramModel::
/// valueCores): a ProgramValue is 152 bytes, a cache miss each (issue 17).
struct ValueCore {
  int defOp = -1;
  unsigned firstUse = 0;
  unsigned numUses = 0;
  /// ProgramValue::deadUses.
  bool deadUses = false;
  /// The shape: `rank` sizes from ProgramModel::valueShapes[shape].
  unsigned shape = 0;
  unsigned rank = 0;
  int64_t elementBytes = 0;
  /// A result of a ruled op: per rule factor of its op, from
  /// ProgramModel::resultFactorDims[factorDims]: the result dim the factor
  /// maps (ProgramOp::resultDim), else -1 for a reduction factor, -2 for
  /// another. The planner's chains and fusions read it for every result
  /// of an op with loops, not the op's cold rule maps.
  unsigned factorDims = 0;
  /// (dim, node) of every shardable dimNode and minorNodes entry, from
  /// ProgramModel::valueDimNodes: buildChain reads them for every argument
  /// of every state.
  unsigned dimNodes = 0;
  unsigned numDimNodes = 0;
};

/// What the analytic cost reads of a use's user, copied per use so that
/// walking a value's uses reads consecutive memory instead of the users'
/// ProgramOps (cache misses that dominated pricing a state).
struct ProgramUse {
  /// The user's ProgramOp::op and fusionKind.
  mlir::Operation *userOp = nullptr;
  sim::FusionKind userKind = sim::FusionKind::Opaque;
  /// The user is a loop the loop model prices (ProgramOp::region >= 0).
  bool userIsLoop = false;
  /// The user's first result value, -1 for none.
  int userResult = -1;
  /// The user (program op) and the elements of its first result when the
  /// user has no loops (its local result is the whole value).
  unsigned user = 0;
  /// ProgramValue::uses' operand number (-1: the whole value, -2: the
  /// return), copied here so that the pricer need not read the value.
  int operand = -1;
  int64_t userResultElements = 0;
  /// Where the user's operandDims of this operand start in
  /// ProgramModel::useOperandDims (useRanks entries; none when it has
  /// none). Out of line, so that a use is 40 bytes for the walks over a
  /// value's uses (issue 17).
  unsigned operandDims = 0;
  /// The user's rule maps minor factors (ProgramOp::minorFactors) to this
  /// operand: only then does its slicing need the user's ProgramOp.
  bool userMinorFactors = false;
};

/// An op inside a loop or conditional body, in walkProgram pre-order, for
/// writing states (Materialize.cpp); the loop model prices bodies on
/// programs of their own (RegionModel).
struct NestedOp {
  bool ruled = false;
  /// The node of each rule factor (-1: never sharded) and the minor parts,
  /// as ProgramOp's.
  llvm::SmallVector<int, 4> factorNode;
  llvm::SmallVector<std::pair<unsigned, int>, 0> minorNodes;
  /// Axes the op never loops over: the manual axes of the shard_map
  /// regions around it (its values are per device on them already).
  AxisMask fixed = 0;
};

struct ProgramModel;

/// A `while` as the loop model sees it (AnalyticLoops.cpp): each region a
/// program of its own, whose arguments are the block arguments (the loop's
/// carried values), then the values it captures from outside and its
/// constants (hoisted), both read whole, its nested loops' included. A
/// region's `while` ops are RegionModels of its program (loops in loops).
struct RegionModel {
  /// Per region (cond, body): its program and how often it runs.
  std::vector<std::unique_ptr<ProgramModel>> blocks;
  llvm::SmallVector<double, 2> repeat;
  /// Per region: whether its terminator yields the carried values (the
  /// body; the condition yields a predicate).
  llvm::SmallVector<bool, 2> yieldsCarried;
  /// Per region, per argument of its program: the enclosing program's
  /// value it reads (captured values, constants merged with the enclosing
  /// program's), -1 for none.
  llvm::SmallVector<std::vector<int>, 2> outerValues;
};

/// Everything state-independent the analytic cost needs.
struct ProgramModel {
  /// Unique per model built: evaluation workspaces key on it (an address
  /// may be reused by the next environment's model).
  uint64_t id = 0;
  /// Compact copies of what every evaluation reads for every op, so that
  /// a state's nests and padding are found without walking the ProgramOps
  /// (hundreds of bytes each, a cache miss per op on the full-size
  /// programs: issue 17). Ruled ops that are not dead, with their
  /// (factor, node) pairs in nestFactors[nestBegin[k], nestBegin[k+1]):
  /// factorNode's sharded factors, then minorNodes.
  std::vector<unsigned> nestOps;
  std::vector<unsigned> nestBegin;
  std::vector<std::pair<unsigned, unsigned>> nestFactors;
  /// Per node: the gcd of the sizes (magnitudes; 0 for none) of the value
  /// dims it names (padded when the product of its axes does not divide
  /// one, so not this gcd) and of the factors of nestOps it shards (padded
  /// when one of its axes does not divide one). One test per node instead
  /// of one per size: findPadding walks every node of every state.
  std::vector<uint64_t> nodeDimGcd, nodeFactorGcd;
  /// Ops of loop and conditional bodies (walkProgram pre-order, depth > 0).
  std::vector<NestedOp> nestedOps;
  /// Per tied class (TiedValues order): the node of each dimension (-1:
  /// never sharded).
  std::vector<llvm::SmallVector<int, 4>> edgeDimNodes;
  /// Per tied class: the axes its nest never takes (NestedOp::fixed; an
  /// edge into or out of a shard_map body includes its manual axes).
  std::vector<AxisMask> edgeFixed;
  std::vector<ProgramOp> ops;
  /// Per op: the fields pricing reads for every op (OpCore), and their
  /// operands, operand uses and results, op after op.
  std::vector<OpCore> cores;
  /// Whether a state's step time only grows op by op as pricing emits the
  /// program (but for in-place updates, whose savings come off at the end:
  /// maxInPlaceSavedBytes), and nothing past an op can leave the state to
  /// the reference path: no loop model regions, no region op priced whole
  /// with a class its regions do not read (regionsYieldSlices), no
  /// collectives of the input program and no result kept whole
  /// (wholeResults).
  /// Evaluation::setRuntimeLimit needs it.
  bool stepTimeOnlyGrows = true;
  /// At most the bytes in-place updates save, in every state.
  double maxInPlaceSavedBytes = 0;
  std::vector<int> opSlots;
  std::vector<int64_t> opFactorSizes;
  std::vector<ValueCore> valueCores;
  std::vector<int64_t> valueShapes;
  std::vector<int16_t> resultFactorDims;
  std::vector<std::pair<unsigned, int>> valueDimNodes;
  llvm::ArrayRef<std::pair<unsigned, int>> dimNodesOf(unsigned value) const {
    const ValueCore &c = valueCores[value];
    return llvm::ArrayRef<std::pair<unsigned, int>>(
        valueDimNodes.data() + c.dimNodes, c.numDimNodes);
  }
  /// ValueCore::factorDims' code of `factor` for result `value`.
  int resultFactorDim(unsigned value, unsigned factor) const {
    return resultFactorDims[valueCores[value].factorDims + factor];
  }
  /// Per global use number: ProgramValue::uses' entry (user op, operand),
  /// 8 bytes a use where the planner's first test walks every value's uses.
  std::vector<std::pair<unsigned, int>> useOps;
  llvm::ArrayRef<std::pair<unsigned, int>> usesOf(unsigned value) const {
    const ValueCore &c = valueCores[value];
    return llvm::ArrayRef<std::pair<unsigned, int>>(useOps.data() + c.firstUse,
                                                    c.numUses);
  }
  /// Per global use number: how many dims the reader's rule maps of the
  /// operand (0 when it has none), a byte a use where the planner sizes
  /// every use's slicing (issue 17: the ProgramUse was a cache miss per
  /// use), and the dims themselves (ProgramUse::operandDims).
  std::vector<uint8_t> useRanks;
  std::vector<int64_t> useOperandDims;
  llvm::ArrayRef<int64_t> operandDimsOf(unsigned useId) const {
    return llvm::ArrayRef<int64_t>(
        useOperandDims.data() + uses[useId].operandDims, useRanks[useId]);
  }
  llvm::ArrayRef<int64_t> shapeOf(unsigned value) const {
    const ValueCore &c = valueCores[value];
    return llvm::ArrayRef<int64_t>(valueShapes.data() + c.shape, c.rank);
  }
  llvm::ArrayRef<int> operandsOf(unsigned op) const {
    const OpCore &c = cores[op];
    return llvm::ArrayRef<int>(opSlots.data() + c.slots, c.numOperands);
  }
  /// Global use numbers of the operands (-1 where none; all -1 for a dead
  /// op, whose ProgramOp::operandUses is empty).
  llvm::ArrayRef<int> operandUsesOf(unsigned op) const {
    const OpCore &c = cores[op];
    return llvm::ArrayRef<int>(opSlots.data() + c.slots + c.numOperands,
                               c.numOperands);
  }
  llvm::ArrayRef<int> resultsOf(unsigned op) const {
    const OpCore &c = cores[op];
    return llvm::ArrayRef<int>(opSlots.data() + c.slots + 2 * c.numOperands,
                               c.numResults);
  }
  /// Fills cores, opSlots and opFactorSizes from ops and valueCores,
  /// valueShapes and useOps from values (ProgramModel.cpp).
  void buildCores();
  std::vector<ProgramValue> values;
  /// Constant ops in hoisting order (deduplicated: equal constants share
  /// the first one's value).
  std::vector<unsigned> constants;
  /// Top-level constants equal to a padding mask's (lowering's masks merge
  /// with them like any equal constants): validity vectors by (elements,
  /// valid elements), zero tiles by (shape, element type); their values.
  std::map<std::pair<int64_t, int64_t>, unsigned> validityConstants;
  std::map<std::pair<llvm::SmallVector<int64_t, 4>, const void *>, unsigned>
      zeroConstants;
  /// Bytes of the constants hoisted out of region bodies that equal no
  /// top-level constant (they live from the start to their last reader).
  std::vector<int64_t> hoistedConstantBytes;
  unsigned numArguments = 0;
  /// Per argument of the entry: the mesh axes the lowered boundary keeps it
  /// whole on (wholeAxesOf); empty for a loop region's program.
  std::vector<AxisMask> wholeArguments;
  /// The same per result of the entry (of the value it returns): the
  /// evaluation leaves a state that returns a value tiled on them to the
  /// reference path, whose boundary gathers them (simulateMaterialized).
  std::vector<AxisMask> wholeResults;
  unsigned numUses = 0;
  /// Per global use number (ProgramValue::firstUse).
  std::vector<ProgramUse> uses;
  /// Some argument is donated (`tf.aliasing_output`, `jax.buffer_donor`).
  bool hasDonors = false;
  /// Stand-ins for the select and broadcast_in_dim with which lowering
  /// zeroes the padding before a padded reduction (Partition/PaddingMask),
  /// for the fusion rule's queries; they live in `maskOps`.
  mlir::OwningOpRef<mlir::ModuleOp> maskOps;
  mlir::Operation *maskSelect = nullptr;
  mlir::Operation *maskBroadcast = nullptr;
  /// The loop model's programs (AnalyticLoops.cpp): the top level's
  /// loops (ProgramOp::region) and, for a loop's block, its number of
  /// block arguments (the rest of its arguments are captured values and
  /// constants).
  std::vector<std::unique_ptr<RegionModel>> regions;
  bool isRegionBlock = false;
  unsigned numBlockArguments = 0;
  /// A loop region's arguments: the values they stand for.
  std::vector<mlir::Value> argumentValues;
};

class NdaEnvironment::Impl {
public:
  Impl(mlir::func::FuncOp entry, partir::MeshAttr mesh, sim::DeviceSpec device,
       NdaEnvironmentOptions options);

  mlir::LogicalResult initialize(llvm::ArrayRef<std::string> axes,
                                 partition::ShardingState *start);

  // ActionSpace.cpp
  void findShardableNodes();
  void findAtomicNodes(partition::ShardingState *start);
  void buildActions();
  bool isLegal(const SearchState &state, unsigned action) const;
  void apply(SearchState &state, unsigned action) const;
  std::string describeAction(unsigned action) const;

  // ProgramModel.cpp
  void buildProgram();
  /// The axes every node naming a dimension of entry value `value` never
  /// takes (nodeAtomic): the start state keeps the value whole on them (an
  /// imported closed sharding, a schedule's "replicated"), or it is sharded
  /// alike with values it keeps whole. Materializing marks such arguments
  /// atomic on them, so that lowering's boundary keeps the caller's
  /// layout, and the planner prices that boundary.
  AxisMask wholeAxesOf(mlir::Value value) const;
  /// The program of `block` into `model`: the entry block, or a loop body
  /// (ProgramModel::isRegionBlock); `loops` gives the block's `while` ops
  /// the loop model's rule (AnalyticLoops.cpp), recursively. Returns false
  /// for region blocks the loop model does not cover (a region op in them
  /// without its rule).
  bool buildBlockModel(mlir::Block &block, ProgramModel &model, bool loops);

  // AnalyticLoops.cpp
  /// The loop model's programs (loopProgram), when the entry has loops.
  void buildLoopProgram();
  /// Gives a `while` of `model` (the entry's or a region's) the loop
  /// model's rule and the programs of its regions (ProgramOp::region), if
  /// the model covers it. `valueIds` are `model`'s values defined so far.
  void describeLoop(mlir::Operation *op, ProgramOp &p, ProgramModel &model,
                    const llvm::DenseMap<mlir::Value, int> &valueIds);
  /// ProgramOp::carryReadInRegions of region op `op` (ProgramModel.cpp).
  void describeCarryReads(mlir::Operation *op, ProgramOp &p) const;
  /// Gives a loop model's program the entry model's mask stand-ins
  /// (ProgramModel::maskSelect), which outlive it.
  void useMaskPrototypes(ProgramModel &model) const;

  // AnalyticCost.cpp
  /// `unmodeled` (if given) says whether the state pads collectives in a
  /// way the evaluation does not follow (AnalyticPadding.cpp), or meets a
  /// region boundary it does not follow: then `atRegions` (if given) is
  /// set.
  AnalyticCost
  evaluate(const SearchState &state, bool *unmodeled = nullptr,
           bool *atRegions = nullptr,
           double runtimeLimit = std::numeric_limits<double>::infinity(),
           bool *stopped = nullptr) const;
  /// The cost of `state`: analytic (by the loop model when the state
  /// shards a node that reaches into a loop or conditional body), or
  /// through the reference path where the model does not cover it.
  /// With a `runtimeLimit`, an analytic evaluation may stop once its step
  /// time passes it (Evaluation::setRuntimeLimit) and return that.
  AnalyticCost
  price(const SearchState &state,
        double runtimeLimit = std::numeric_limits<double>::infinity()) const;
  /// NdaEnvironment::costBelow: price(state).rel.total, or a value of at
  /// least `bound` when the analytic step time passes it first.
  double priceBelow(const SearchState &state, double bound) const;
  bool needsReference(const SearchState &state) const;

  // Materialize.cpp
  mlir::LogicalResult materialize(const SearchState &state,
                                  partition::ShardingState &sharding) const;
  mlir::FailureOr<SearchState>
  importState(partition::ShardingState &sharding) const;
  /// Notes on `diag` why the search leaves out the node of NDA name
  /// `name` (an import error's cause), if it does; whether it did.
  bool noteUnshardable(mlir::InFlightDiagnostic &diag, unsigned name) const;
  mlir::FailureOr<sim::SimulationResult>
  simulateMaterialized(const SearchState &state,
                       mlir::OwningOpRef<mlir::ModuleOp> *lowered) const;
  /// Writes the module with `state` as partir.* attributes (input of
  /// --partir-materialize-core) to `path`.
  void dumpState(const SearchState &state, llvm::StringRef path) const;
  /// Writes `module` to `path` for TOAST_CHECK_ANALYTIC_DUMP; a failure is
  /// reported on stderr, as a debugging aid must not end the search.
  static void dumpModule(mlir::ModuleOp module, llvm::StringRef path);
  /// TOAST_CHECK_ANALYTIC: prices an analytic `cost` of `state` by the
  /// reference path too and reports a difference (ShardingSpace.cpp).
  void checkAgainstReference(const SearchState &state,
                             const AnalyticCost &cost) const;

  // PlannedHLO.cpp
  mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
  emitPlanned(const SearchState &state) const;

  /// The nest of program op `i` under `state`: (mesh axis, factor) in mesh
  /// order.
  llvm::SmallVector<std::pair<unsigned, unsigned>, 4>
  getNest(const SearchState &state, unsigned i) const {
    return getNest(state, program.ops[i].factorNode, program.ops[i].minorNodes);
  }
  /// The nest of an op (or a tied class) whose factors have these nodes
  /// (and minor parts: (factor, node)).
  llvm::SmallVector<std::pair<unsigned, unsigned>, 4>
  getNest(const SearchState &state, llvm::ArrayRef<int> factorNode,
          llvm::ArrayRef<std::pair<unsigned, int>> minorNodes = {},
          AxisMask fixed = 0) const;
  /// The mask of the mesh axes among `axes` (others are ignored).
  AxisMask getAxisMask(llvm::ArrayRef<std::string> axes) const;
  int64_t maskProduct(AxisMask mask) const { return maskProducts[mask]; }
  /// The number of devices: the product of every mesh axis.
  int64_t numDevices() const { return maskProducts.back(); }
  /// The simulator options the cost follows (donate, tf32).
  sim::SimulationOptions getSimulationOptions() const {
    sim::SimulationOptions simOptions;
    simOptions.donate = options.donate;
    simOptions.tf32 = options.tf32;
    return simOptions;
  }

  mutable mlir::func::FuncOp entry; // FuncOp accessors are not const
  partir::MeshAttr mesh;
  sim::DeviceSpec device;
  NdaEnvironmentOptions options;
  NamedDimensionAnalysis nda;
  /// Rules and loopable factors exactly as the partitioner sees them.
  std::unique_ptr<partition::ShardingState> rules;

  llvm::SmallVector<std::string> axisNames;
  llvm::SmallVector<int64_t> axisSizes;
  std::vector<int64_t> maskProducts;
  /// The simulator's group link (getGroupLink) per set of axes.
  std::vector<sim::LinkSpec> maskLinks;
  std::vector<unsigned> searchAxes;

  /// Per node: whether the partitioner can shard it, the gcd of its names'
  /// sizes and its number of names.
  std::vector<char> nodeShardable;
  /// Per node the search leaves out: the first of its names the
  /// partitioner cannot loop over, or -1 for a stacked dimension (the
  /// layer index of values a loop reads by its counter). For errors.
  std::vector<int> nodeBlocker;
  std::vector<int64_t> nodeGcd;
  /// Whether one axis the node's size does not divide may pad it: all its
  /// names have one size, which is their dimension's (not a reshape's
  /// major factor), as ShardingState::canAssign requires.
  std::vector<char> nodePaddable;
  /// Per node: the axes it never takes because the start state keeps a
  /// value it names whole on them (`partir.atomic`: an imported closed
  /// sharding, a schedule's "replicated") or an op it names a dimension of
  /// never loops over them (`partir.op_atomic`). The search must not undo
  /// what the user fixed, and materializing such a state fails.
  std::vector<AxisMask> nodeAtomic;
  /// A region op passes per-device values across its boundary (a shard_map
  /// body): every state is priced by the reference path.
  bool perDeviceBoundaries = false;
  /// Whether `axisSize` may shard `node`, which `axes` shard already:
  /// divisibly, or padded over one axis (canTileDim).
  bool canShardNode(unsigned node, AxisMask axes, int64_t axisSize) const;
  /// Names weighted by how often their op runs (a loop body's names count
  /// trip-count times, so a scanned layer weighs what its unrolled copies
  /// do).
  std::vector<unsigned> nodeNames;
  /// Whether a node has names in a loop or conditional body or at its
  /// boundary (region operands and results).
  std::vector<char> nodeInRegion;

  std::vector<NdaAction> actions;
  /// Per action and mesh axis: the action with the same colors and
  /// resolution on that axis, or -1.
  std::vector<llvm::SmallVector<int, 4>> actionOnAxis;
  void linkActionsAcrossAxes();
  /// Groups of nodes that must carry pairwise distinct axes (the dims of
  /// one site, the factors of one op) and, per node, the groups it is in.
  std::vector<std::vector<unsigned>> groups;
  std::vector<llvm::SmallVector<unsigned, 2>> nodeGroups;
  /// Per node, the nodes of its groups (itself included), each once: node
  /// n's are peerList[peerStart[n], peerStart[n + 1]). One flat array, as
  /// canTake reads them for every node an action replays (a vector per
  /// node cost a cache miss more per node).
  std::vector<uint32_t> peerStart;
  std::vector<unsigned> peerList;
  llvm::ArrayRef<unsigned> peersOf(unsigned node) const {
    return llvm::ArrayRef(peerList).slice(peerStart[node], peerStart[node + 1] -
                                                               peerStart[node]);
  }
  /// The entry's ops no backend runs (sim::findDeadOps): the program model
  /// leaves them out, as the simulator does.
  llvm::DenseSet<mlir::Operation *> deadOps;
  /// Whether `node` can take `axis` (of size `axisSize`) in `state`: no node
  /// it shares a site or an op with carries the axis, and its sizes divide.
  bool canTake(const SearchState &state, unsigned node, unsigned axis,
               int64_t axisSize) const;
  /// Per node: the nodes of the parts before / after it in split dims
  /// (B before S in B*S). A part takes an axis only once every part
  /// before it is fully tiled on earlier mesh axes and no part after it is
  /// tiled: only then is the dim's tiling a block tiling (as
  /// ShardingRule::canTileNext requires of a reshape's compound dims).
  std::vector<llvm::SmallVector<unsigned, 1>> partsBefore, partsAfter;
  /// Per node, whether it has parts before or after it: most have none,
  /// and canTake reads this byte rather than two lists per node.
  std::vector<char> nodeHasParts;
  void findSplitParts();
  /// Adds the actions of one color family (every resolution, every axis);
  /// returns whether some of its nodes meet at a site or an op (and so
  /// were left out of its actions).
  bool addFamilyActions(llvm::ArrayRef<unsigned> colors, unsigned minDims);
  /// Context actions (NdaEnvironmentOptions::contextActions): each family
  /// action restricted to the nodes that meet a context color, added after
  /// the family actions.
  void addContextActions(unsigned minDims);
  /// options.minDims, capped at a quarter of the largest family's
  /// dimensions (small programs keep their actions).
  unsigned getPruningThreshold(
      const std::map<unsigned, llvm::SmallVector<unsigned, 1>> &families) const;
  /// Color -> family representative (itself without mirroring).
  std::vector<unsigned> colorFamily;

  ProgramModel program;
  /// The entry's ops, nested ones included (getStateWork).
  uint64_t numOps = 0;
  /// The same program for the loop model (AnalyticLoops.cpp): each
  /// top-level `while` with a rule tying its operands and results dim by
  /// dim (the carried classes' nests) and its regions as programs of their
  /// own; null when the entry has no loop the model covers.
  std::unique_ptr<ProgramModel> loopProgram;
  /// Per node: whether it has names in or on a region op the loop model
  /// does not cover.
  std::vector<char> nodeOutsideLoopModel;
  /// Whether the loop model covers every region `state` shards in.
  bool coveredByLoopModel(const SearchState &state) const;
  /// States priced by the reference path: all, and those that shard inside
  /// loop bodies the loop model does not cover (the rest are padded).
  mutable std::atomic<uint64_t> numByReference{0}, numLoopsByReference{0};
  SearchState initial;
  AnalyticCost unpartitioned;
};

} // namespace toast::search

#endif // TOAST_LIB_SEARCH_SPACE_SPACEIMPL_H
