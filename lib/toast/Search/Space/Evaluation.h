//===- Evaluation.h - The analytic cost's per-state evaluation --*- C++ -*-===//
//
// Private to lib/toast/Search/Space: the symbolic chains (axis lists per
// dimension, collective steps), the per-value and per-use plans, and the
// Evaluation that plans a state (AnalyticPlan.cpp) and emits its trace
// (AnalyticCost.cpp). See AnalyticCost.cpp for the model.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_LIB_SEARCH_SPACE_EVALUATION_H
#define TOAST_LIB_SEARCH_SPACE_EVALUATION_H

#include "CollectivePlan.h"

#include "toast/Interfaces/ControlFlow.h"
#include "toast/Simulator/Fusion.h"

#include <cstdlib>
#include <deque>
#include <limits>
#include <map>
#include <optional>

namespace toast::search::analytic {

/// TOAST_ANALYTIC_TRACE=1 prints every op, collective and the peak the
/// analytic cost sees, to compare with a lowered program by hand.
inline bool traceEnabled() {
  static const bool enabled = getenv("TOAST_ANALYTIC_TRACE") != nullptr;
  return enabled;
}

/// A padding mask's constant in a loop region (or in a loop nested in
/// it): lowering builds it in the body, the canonicalizer hoists it to the
/// entry's start (merging equal ones), so the region reads it from outside
/// and the entry holds it until the loop ends (AnalyticLoops.cpp).
struct HoistedMask {
  /// A zero tile (by local shape and element type), else a validity
  /// vector (by elements and valid elements).
  bool zero = false;
  std::pair<int64_t, int64_t> validity;
  std::pair<llvm::SmallVector<int64_t, 4>, const void *> zeroKey;
  int64_t bytes = 0;
};

struct Buffer {
  int64_t bytes = 0;
  int64_t def = 0;
  int64_t lastUse = 0;
  /// Fused into its readers (sim::isFusedIntoReaders): no memory.
  bool fused = false;
  /// A view (sim::isContiguousSliceView) of this buffer, -1 for none: no
  /// memory; reading it reads its bytes of the buffer it views.
  int viewOf = -1;
};

/// Per buffer, the materialized buffers a fused one stands for (the leaves
/// of its fusion tree, Evaluation::setFused; none for materialized
/// buffers), in one pool: a fusion reading a fused buffer walks one level,
/// and an evaluation allocates nothing per buffer.
struct FusedLeaves {
  std::vector<int> pool;
  /// Per buffer: first entry in `pool` and count.
  std::vector<std::pair<unsigned, unsigned>> ranges;
  size_t size() const { return ranges.size(); }
  llvm::ArrayRef<int> operator[](size_t buffer) const {
    auto [start, count] = ranges[buffer];
    return llvm::ArrayRef<int>(pool).slice(start, count);
  }
  void clear() {
    pool.clear();
    ranges.clear();
  }
};

/// Scratch of one evaluation, kept per thread so that evaluations reuse
/// their allocations (evaluations run concurrently on distinct threads).
struct Workspace {
  /// The program (ProgramModel::id) the scratch was last sized for: an
  /// evaluation of another
  /// program resets it whole, one of the same program only what it fills.
  uint64_t owner = 0;
  /// The planner's output, read by the pricer.
  CollectivePlan plan;
  /// The values whose plan or use plans the last plan may have left other
  /// than the plan of a value without a chain (Evaluation::resetPlans),
  /// and a byte per value saying whether it is listed.
  std::vector<unsigned> planned;
  std::vector<char> isPlanned;
  // The pricer's scratch.
  std::vector<TreeStep> emission;
  /// The buffers of a chain's levels (0: source), -1 when not
  /// materialized, and their tilings, in emission order: each value
  /// emitted with a chain takes the next steps + 1 entries of both from
  /// levelStart[value]. Consecutive memory, where a vector per value cost
  /// a cache miss per emitted chain (issue 17). A deque: a tiling's address
  /// stays valid while it grows (useTiling points into it).
  std::vector<unsigned> levelStart;
  std::vector<int> levelBufferPool;
  std::deque<DimAxes> levelTilingPool;
  /// Per value: the buffer of its level 0 (levelBuffers[v][0] where v has a
  /// chain), in one flat array: most values have no chain and most uses
  /// read level 0.
  std::vector<int> sourceBuffers;
  /// Per use: where its ops[0] was emitted, when gatherAtDef.
  std::vector<int> startBuffers;
  std::vector<int> argBuffers;
  std::vector<int> hoistedBuffers;
  std::vector<Buffer> buffers;
  FusedLeaves fusedInputs;
  std::vector<unsigned> stamp;
  std::vector<sim::CarryTie> carryTies;
  std::vector<std::pair<unsigned, double>> inPlaceSavings;
  std::vector<std::pair<int64_t, int64_t>> transients;
  std::vector<int64_t> delta;
  std::map<std::pair<int64_t, int64_t>, int> validityBuffers;
  std::map<std::pair<llvm::SmallVector<int64_t, 4>, const void *>, int>
      zeroBuffers;
};

/// `size` / `n` rounded up, for n > 0: a shift when n is a power of two
/// (the mesh axes of most programs), since integer division is a hot spot
/// of pricing.
inline int64_t ceilDivide(int64_t size, int64_t n) {
  if (size >= 0 && (n & (n - 1)) == 0)
    return (size + n - 1) >> llvm::countr_zero(static_cast<uint64_t>(n));
  return size / n + (size % n != 0 ? 1 : 0);
}
/// Whether `n` > 0 divides `size` (the same fast path).
inline bool dividesEvenly(int64_t size, int64_t n) {
  if ((n & (n - 1)) == 0)
    return (size & (n - 1)) == 0;
  return size % n == 0;
}

/// One evaluation.
struct ScatterLevels;

class Evaluation {
public:
  Evaluation(const NdaEnvironment::Impl &impl, const SearchState &state,
             Workspace &ws)
      : Evaluation(impl, impl.program, state, ws) {}
  /// An evaluation of `program`: the entry's (impl.program or the loop
  /// model's impl.loopProgram) or a loop region's (AnalyticLoops.cpp).
  Evaluation(const NdaEnvironment::Impl &impl, const ProgramModel &program,
             const SearchState &state, Workspace &ws)
      : impl(impl), prog(program), state(state), collectivePlan(ws.plan),
        nests(ws.plan.nests), looped(ws.plan.looped),
        fusedInto(ws.plan.fusedInto), fusedOps(ws.plan.fusedOps),
        fusedProducers(ws.plan.fusedProducers),
        fusedLevels(ws.plan.fusedLevels), plans(ws.plan.values),
        usePlans(ws.plan.uses), localArgs(ws.plan.localArgs),
        anyPadded(ws.plan.anyPadded), unmodeled(ws.plan.unmodeled),
        planned(ws.planned), isPlanned(ws.isPlanned), emission(ws.emission),
        levelStart(ws.levelStart), levelBufferPool(ws.levelBufferPool),
        levelTilingPool(ws.levelTilingPool), sourceBuffers(ws.sourceBuffers),
        plainUses(ws.plan.plainUses), startBuffers(ws.startBuffers),
        argBuffers(ws.argBuffers), hoistedBuffers(ws.hoistedBuffers),
        buffers(ws.buffers), fusedInputs(ws.fusedInputs), stamp(ws.stamp),
        carryTies(ws.carryTies), inPlaceSavings(ws.inPlaceSavings),
        transients(ws.transients), delta(ws.delta),
        validityBuffers(ws.validityBuffers), zeroBuffers(ws.zeroBuffers),
        fresh(ws.owner != program.id) {
    ws.owner = program.id;
    sim::SimulationOptions options = impl.getSimulationOptions();
    fusion = options.fusion;
    memoryBound = options.memoryBound;
  }
  /// Plans the state (the planner: findNests to findFusions, in
  /// AnalyticPlan.cpp) into the workspace's CollectivePlan.
  const CollectivePlan &makePlan();
  /// makePlan after findNests and findPadding.
  const CollectivePlan &planValues();
  /// Prices the plan just made (the pricer, AnalyticCost.cpp).
  AnalyticCost pricePlan();
  AnalyticCost run() {
    findNests();
    anyPadded = findPadding();
    if (computeAlonePassesLimit())
      return cost;
    planValues();
    return pricePlan();
  }
  /// Stop pricing once the step time passes `seconds` (the search only
  /// asks whether a state beats its best): the cost returned then holds
  /// the step time so far and no peak, and stoppedAtLimit() is true. Only
  /// where that step time is a lower bound of the whole cost: the program
  /// adds time op by op and nothing comes off later (stepTimeOnlyGrows),
  /// and nothing past the stop could leave the state to the reference path
  /// (no padding, no results kept whole).
  void setRuntimeLimit(double seconds) { runtimeLimit = seconds; }
  bool stoppedAtLimit() const { return stopped; }
  /// Whether the ops' compute time alone (emitOp's roofline without the
  /// memory traffic), which needs only the nests, passes the runtime
  /// limit: then the state stops before it is planned, with that time
  /// (stoppedAtLimit()).
  bool computeAlonePassesLimit();
  bool isBounded() const;
  double inPlaceSlack() const;
  std::pair<int64_t, double> nestSplit(unsigned i) const;
  /// Whether the state pads a collective or a slice in a way this model
  /// does not follow (AnalyticPadding.cpp): its cost must come from the
  /// reference path.
  bool isUnmodeled() const { return unmodeled; }
  /// Whether what it does not follow is a region op's boundary (the
  /// reference path's reason is then a loop's or conditional's).
  bool isUnmodeledAtRegions() const { return unmodeledAtRegions; }
  /// A loop region's program just priced (AnalyticLoops.cpp): null when
  /// its boundary is what lowering makes of the carried values, each block
  /// argument and yielded value local with its class's tiling `carried`
  /// (yielded values checked when `yields`), the captured values and
  /// constants read whole; else why not.
  const char *regionBoundaryAgrees(llvm::ArrayRef<DimAxes> carried,
                                   bool yields) const;
  /// The uses of `value` that read it through slices alone (what lowering
  /// makes all_slice ops), appended to `sliced`: their dims, or nullopt
  /// for a slice of an argument or of several steps (left unresolved).
  /// Clears `onlySlices` if some other use reads it; a region's yield of
  /// block argument `value` as its own carried value does not count
  /// (localizeTiedValues skips it). Returns whether that yield is one.
  bool collectSlicedUses(
      unsigned value, bool &onlySlices,
      llvm::SmallVectorImpl<std::optional<DimAxes>> &sliced) const;
  /// A loop region's program just priced: the mask constants it reads
  /// from the entry (its own and its nested loops').
  llvm::ArrayRef<HoistedMask> getHoistedMasks() const { return hoistedMasks; }
  /// A loop region's program just priced: whether its ops read argument
  /// `a` (a view reads no indices; sim::Simulation's outer uses).
  bool isArgumentRead(unsigned a) const {
    return a < argumentsRead.size() && argumentsRead[a];
  }

private:
  int64_t axisProduct(AxisMask m) const { return impl.maskProduct(m); }
  /// Bytes of `value`'s device-local buffer under `tiling`: ceil(size /
  /// tiles) rows per dimension, padding included (as the lowering's types).
  int64_t bytesOf(unsigned value, const DimAxes &tiling) const {
    // The dense ValueCore, not the 152-byte ProgramValue (issue 17).
    return elementsOf(value, tiling) * prog.valueCores[value].elementBytes;
  }
  /// Elements of the same buffer.
  int64_t elementsOf(unsigned value, const DimAxes &tiling) const {
    int64_t elements = 1;
    for (auto [d, size] : llvm::enumerate(prog.shapeOf(value))) {
      // Most dims are whole: skip the division, a hot spot of pricing.
      if (d >= tiling.size() || !tiling[d]) {
        elements *= size;
        continue;
      }
      elements *= ceilDivide(size, axisProduct(listMask(tiling[d])));
    }
    return elements;
  }
  /// How op's loops slice what use `useId` (global number; operand
  /// `operand` of op) reads.
  DimAxes useSlicing(unsigned useId, unsigned op, int operand) const;
  /// The same, read from the ProgramOp.
  DimAxes useSlicing(unsigned op, int operand) const;
  /// The dim of operand `operand` that `factor` maps in the reader of use
  /// `useId` (ProgramOp::operandDim), from the use record where it can.
  int useDim(unsigned useId, int operand, unsigned factor) const;
  void findNests();
  bool findPadding() const;
  void resetPlans();
  /// Lists `value` in `planned` (its plan or uses may change).
  void markPlanned(unsigned value) {
    if (!isPlanned[value]) {
      isPlanned[value] = 1;
      planned.push_back(value);
    }
  }
  void resetValuePlan(unsigned value);
  void buildChain(unsigned value);
  void buildChains();
  bool scatterOutermostSum(unsigned value,
                           llvm::ArrayRef<std::pair<unsigned, int>> levels);
  void pushLevelGathers(unsigned value,
                        llvm::ArrayRef<std::pair<unsigned, int>> levels);
  bool padsPastScatter(unsigned value,
                       llvm::ArrayRef<std::pair<unsigned, int>> levels,
                       const ScatterLevels &outer,
                       llvm::ArrayRef<DimAxes> slicings) const;
  bool firstSlicesMeetSum(unsigned value,
                          llvm::ArrayRef<std::pair<unsigned, int>> levels,
                          ScatterLevels &outer,
                          llvm::SmallVectorImpl<DimAxes> &slicings) const;
  bool sinkOuterSums(unsigned i);
  void scatterSumForSlicers(unsigned value);
  DimAxes tilingAt(unsigned value, unsigned level) const;
  const Step *handedOver(int value) const;
  void moveReduction(int from, unsigned i, Step step);
  void sinkSumsAfterGather(int value, unsigned i);
  void applyReductionPatterns(unsigned i);
  bool applyReductionPattern(unsigned i);
  void planValue(unsigned value);
  /// The axes the boundary keeps argument `value` whole on beyond its
  /// tiling (ProgramModel::wholeArguments; none in a loop region).
  AxisMask wholeAxes(unsigned value) const;
  void keepWhole(unsigned arg);
  static void resetUse(UsePlan &use);
  /// Whether `use` is what resetUse leaves (CollectivePlan::plainUses).
  static bool isPlainUse(const UsePlan &use) {
    return use.level == 0 && !use.gatherLevel && !use.argSlice &&
           !use.gatherAtDef && !use.readerIsUser && use.fusedLevel < 0 &&
           use.ops.empty() && use.argDims.empty();
  }
  /// Sets plainUses[useId] from its plan: every writer of a UsePlan calls
  /// it once its writes are done (resetPlans sets the reset ones).
  void refreshPlainUse(unsigned useId) {
    plainUses[useId] = isPlainUse(usePlans[useId]);
  }
  /// Plans `use` of `value` read with `slicing` in place: a UsePlan built
  /// and move-assigned per use copied its steps' dims element by element
  /// (issue 17, 4% of planning a GNS state).
  void planUse(unsigned value, const DimAxes &slicing, bool isReturn,
               UsePlan &use) const;
  void emitValue(unsigned value, int source);
  /// The buffer and tiling of `value`'s chain level `level` once emitted
  /// (level 0: sourceBuffers and the plan's source tiling).
  int levelBuffer(unsigned value, unsigned level) const {
    return level == 0 ? sourceBuffers[value]
                      : levelBufferPool[levelStart[value] + level];
  }
  const DimAxes &levelTilingOf(unsigned value, unsigned level) const {
    return level == 0 ? plans[value].sourceTiling
                      : levelTilingPool[levelStart[value] + level];
  }
  /// The buffer of argument `value` as the boundary hands it over (whole,
  /// or local when the plan makes it so), defined before the program.
  int emitArgument(unsigned value);
  int emitUse(unsigned value, unsigned useId);
  void emitOp(unsigned i);
  /// Whether lowering slices what the regions of region op i, priced
  /// whole, yield (AnalyticLoops.cpp).
  bool regionsYieldSlices(unsigned i) const;
  /// The loop model's price of loop op i's regions (AnalyticLoops.cpp):
  /// false when the state is one it does not cover.
  bool priceRegions(unsigned i, double &computeTime, double &flops,
                    int64_t &peakBytes);
  int64_t emitInputs(unsigned i, llvm::MutableArrayRef<int> inputs);
  void emitAhead(unsigned i, unsigned k);
  int emitLeadingGathers(unsigned value, const UsePlan &use, size_t n);
  void emitTree(unsigned i);
  void emitInput(unsigned i, unsigned k, llvm::MutableArrayRef<int> inputs,
                 int64_t &firstInputBytes);
  llvm::SmallVector<int, 1> newCarries(const ProgramOp &p);
  void tieCarries(const ProgramOp &p, llvm::ArrayRef<int> carries,
                  llvm::ArrayRef<int> inputs, llvm::ArrayRef<int> results);
  /// Whether region op `p` reads its carry's init `init` elsewhere than as
  /// the init (the simulator's rule: another operand, or a value its
  /// regions read).
  bool isReadElsewhere(const ProgramOp &p, llvm::ArrayRef<int> inputs,
                       int init) const;
  void tieInPlaceUpdates(const ProgramOp &p, llvm::ArrayRef<int> inputs,
                         llvm::ArrayRef<int> results);
  llvm::SmallVector<int64_t, 4> localShape(unsigned value,
                                           const DimAxes &tiling) const;
  void findDonations(std::vector<char> &donated);
  void findFusions();
  DimAxes apply(const Step &step, const DimAxes &tiling) const;
  void price(const Step &step, int64_t operandBytes, int64_t resultBytes);
  int newBuffer(int64_t bytes) {
    buffers.push_back({bytes, at, at});
    fusedInputs.ranges.emplace_back(0, 0);
    return buffers.size() - 1;
  }
  /// Bytes of `value`'s local result (its plan's source tiling, padded).
  /// A value the last plan did not list (isPlanned, a byte per value) has
  /// the reset plan, whole: its ValuePlan (a cache miss) is not read.
  int64_t sourceBytes(unsigned value) const {
    return isPlanned[value] ? bytesOf(value, plans[value].sourceTiling)
                            : bytesOf(value, DimAxes());
  }
  /// Elements of `value`'s local result (its source tiling, padded).
  int64_t localElements(unsigned value) const {
    // sourceBytes / elementBytes without the division (0 for a value of
    // no bytes, as that quotient).
    if (prog.valueCores[value].elementBytes <= 0)
      return 0;
    return isPlanned[value] ? elementsOf(value, plans[value].sourceTiling)
                            : elementsOf(value, DimAxes());
  }
  bool isFusedResult(unsigned i, llvm::ArrayRef<int> inputs, double sliceBytes);
  bool isReturnedDirectly(unsigned value) const;
  int emitSlice(unsigned value, int source, const DimAxes &from,
                const DimAxes &to, bool viewable);
  int copySlice(int source, int64_t bytes);
  bool isSplatChunk(unsigned value, const DimAxes &from,
                    const DimAxes &to) const;
  int emitSplatChunk(unsigned value, const DimAxes &to, unsigned useId,
                     const Step *after);
  double peekInputBytes(llvm::ArrayRef<int> inputs, int sliced,
                        double sliceBytes);

  // AnalyticPadding.cpp: padded (uneven) tilings.
  bool isPaddedDim(unsigned value, size_t dim, AxisList axes) const;
  bool hasPaddedDim(unsigned value, const DimAxes &tiling) const;
  void checkPaddedUse(unsigned value, unsigned k);
  /// The levels of op's nest that slice its operand `operand`, outermost
  /// first: (axis, operand dim).
  llvm::SmallVector<std::pair<unsigned, unsigned>, 4>
  slicingLevels(unsigned op, unsigned operand) const;
  /// Whether a gather or slice by `dims` of `value` whose finer side is
  /// tiled by `fine` pads (the optimizer's test: chunk times axes is not
  /// the whole).
  bool stepPads(unsigned value, const DimAxes &fine, const DimAxes &dims) const;
  bool rewritePair(unsigned value, const DimAxes &tiling, const Step &a,
                   const Step &b, llvm::SmallVectorImpl<Step> &out) const;
  void rewriteChain(unsigned value, const DimAxes &tiling,
                    llvm::SmallVectorImpl<Step> &chain) const;
  void replanLoopInit(unsigned value, unsigned k, DimAxes slicing);
  void splitScatteredRest(unsigned value, unsigned k,
                          llvm::ArrayRef<std::pair<unsigned, unsigned>> levels);
  bool replanPaddedUse(unsigned value, unsigned k,
                       llvm::ArrayRef<std::pair<unsigned, unsigned>> levels,
                       const char *why);
  /// Whether an all_slice by `dims` of `value` tiled by `tiling` pads: the
  /// optimizer asks the dimensions it slices only.
  bool slicePads(unsigned value, const DimAxes &tiling,
                 const DimAxes &dims) const;
  /// A padded all_gather of `from` and all_slice of `to` over `axes` stay
  /// two collectives: they do not become an all_to_all.
  bool isPaddedAllToAll(unsigned value, size_t from, size_t to,
                        AxisList axes) const {
    return anyPadded &&
           (isPaddedDim(value, from, axes) || isPaddedDim(value, to, axes));
  }
  /// Whether `levels` (axis, dim) would merge into one collective if none
  /// padded: several, one of them padded.
  bool paddedLevels(unsigned value,
                    llvm::ArrayRef<std::pair<unsigned, unsigned>> levels) const;
  /// Op i's nest levels over padded reduction factors that reach operand
  /// k: (axis, operand dim), the masks lowering puts before the op.
  llvm::SmallVector<std::pair<unsigned, unsigned>, 1>
  maskedLevels(unsigned i, unsigned k) const;
  /// Whether lowering masks operand k of op i (it has masked levels).
  bool readsMasked(unsigned i, unsigned k) const {
    return !maskedLevels(i, k).empty();
  }
  void emitMaskConstants();
  /// A loop region's program: lists its mask constants in hoistedMasks
  /// and takes them out of its peak (the entry holds them).
  void hoistMaskConstants();
  /// The mask constants a loop's region reads from outside (op at `at`):
  /// buffers of the entry from its start, or again read from outside in a
  /// region; null, or why the loop model does not follow them.
  const char *adoptHoistedMasks(llvm::ArrayRef<HoistedMask> masks);
  int emitMaskedUse(unsigned i, unsigned k);
  double materialize(int buffer, llvm::ArrayRef<int> inputs);
  double readPeekedInputs();
  void setFused(int b, llvm::ArrayRef<int> inputs);
  void setFusedPeeked(int b);
  double readInputs(llvm::ArrayRef<int> inputs, int sliced = -1,
                    double sliceBytes = 0);
  /// sim::visitReadBuffers over this evaluation's buffers.
  template <typename Visit>
  void visitReads(llvm::ArrayRef<int> inputs, int sliced, double sliceBytes,
                  Visit visit) {
    sim::visitReadBuffers(
        inputs, sliced, sliceBytes, fusedInputs,
        [&](int b) { return buffers[b].fused; },
        [&](int b) { return static_cast<double>(buffers[b].bytes); }, stamp,
        ++generation, visit);
  }
  void touch(int buffer) {
    if (buffer < 0)
      return;
    buffers[buffer].lastUse = std::max(buffers[buffer].lastUse, at);
    touch(buffers[buffer].viewOf);
  }

  const NdaEnvironment::Impl &impl;
  const ProgramModel &prog;
  const SearchState &state;
  CollectivePlan &collectivePlan;
  // Its fields, made by the planner half (AnalyticPlan.cpp)
  // and only read by the pricer half (AnalyticCost.cpp).
  std::vector<Nest> &nests;
  std::vector<char> &looped;
  std::vector<int> &fusedInto;
  std::vector<unsigned> &fusedOps;
  std::vector<llvm::SmallVector<std::tuple<unsigned, int, unsigned>, 1>>
      &fusedProducers;
  std::vector<llvm::SmallVector<unsigned, 2>> &fusedLevels;
  std::vector<ValuePlan> &plans;
  std::vector<UsePlan> &usePlans;
  std::vector<std::optional<DimAxes>> &localArgs;
  bool &anyPadded;
  bool &unmodeled;
  /// Set with `unmodeled` when a region op's boundary is the reason.
  bool unmodeledAtRegions = false;
  /// setRuntimeLimit.
  double runtimeLimit = std::numeric_limits<double>::infinity();
  bool stopped = false;
  /// The compute time (emitOp's, before the memory roofline) of the ops
  /// not emitted yet, when bounded: what the step time will at least add.
  double computeLeft = 0;
  std::vector<unsigned> &planned;
  std::vector<char> &isPlanned;

  // The pricer's scratch.
  /// The fusion tree being emitted (orderFusionTree).
  std::vector<TreeStep> &emission;
  /// The uses whose leading gathers the tree emitted ahead of their
  /// reader (TreeStep::operand), with their count; their buffer is in
  /// startBuffers.
  AheadUses ahead;
  std::vector<unsigned> &levelStart;
  std::vector<int> &levelBufferPool;
  std::deque<DimAxes> &levelTilingPool;
  std::vector<int> &sourceBuffers;
  std::vector<char> &plainUses;
  std::vector<int> &startBuffers;
  std::vector<int> &argBuffers;
  /// Buffers of ProgramModel::hoistedConstantBytes.
  std::vector<int> &hoistedBuffers;
  /// Tiling of what the last emitUse returned: its level's, the use's
  /// argDims or ownUseTiling. A pointer: only the first operand's and the
  /// return's are read, and copying it for every use cost a cache miss
  /// on the value's plan (issue 17).
  const DimAxes *useTiling = nullptr;
  DimAxes ownUseTiling;
  void setUseTiling(DimAxes tiling) {
    ownUseTiling = std::move(tiling);
    useTiling = &ownUseTiling;
  }
  std::vector<Buffer> &buffers;
  /// Per buffer: what it reads when fused (sim::visitFusionInputs).
  FusedLeaves &fusedInputs;
  std::vector<unsigned> &stamp;
  unsigned generation = 0;
  /// What the last peekInputBytes visited (buffer, bytes), in its order,
  /// and whether emitOp's isFusedResult made it: an op that is not fused
  /// then reads the same inputs (readPeekedInputs) without a second walk
  /// (the two walks were a fifth of pricing a state of the MoE export).
  llvm::SmallVector<std::pair<unsigned, double>, 16> peeked;
  bool peekedHere = false;
  /// Loop carries and the buffers of their inits (sim::resolveCarryTies).
  std::vector<sim::CarryTie> &carryTies;
  /// In-place update ties (index in carryTies) and the HBM bytes the
  /// update saves when it applies.
  std::vector<std::pair<unsigned, double>> &inPlaceSavings;
  /// The simulator options priced: fusion, roofline.
  bool fusion = true, memoryBound = true;
  std::vector<std::pair<int64_t, int64_t>> &transients;
  std::vector<int64_t> &delta;
  /// Per result of the entry function: the buffer the return reads (-1:
  /// none), its tiling, and the return op (-1: not emitted).
  llvm::SmallVector<int, 4> returned;
  llvm::SmallVector<DimAxes, 4> returnedTiling;
  int returnOp = -1;
  /// Returned buffers that may reuse donated arguments.
  llvm::SmallVector<sim::BufferDonation, 2> donations;
  int64_t at = 0;
  int currentValue = -1;
  int currentUser = -1;
  /// Hoisted mask constants: validity vectors by (elements, valid
  /// elements), zeros by local shape and element type.
  std::map<std::pair<int64_t, int64_t>, int> &validityBuffers;
  std::map<std::pair<llvm::SmallVector<int64_t, 4>, const void *>, int>
      &zeroBuffers;
  /// The workspace last served another program (Workspace::owner).
  bool fresh;
  /// Loop regions: which arguments the program read; at the top level, the
  /// entry's values the last loop's regions read (AnalyticLoops.cpp).
  std::vector<char> argumentsRead;
  llvm::SmallVector<int, 4> regionReads;
  /// A loop region's mask constants (hoistMaskConstants).
  std::vector<HoistedMask> hoistedMasks;
  AnalyticCost cost;
};

} // namespace toast::search::analytic

#endif // TOAST_LIB_SEARCH_SPACE_EVALUATION_H
