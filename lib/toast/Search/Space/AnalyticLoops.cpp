//===- AnalyticLoops.cpp - States that shard inside loop bodies -----------===//
//
// The loop model (control-flow-design.md, Stage 3): a state that shards
// inside the body of a `while` is planned and priced like any other, in
// two layers.
//
//  * In the program around it the loop is an op whose rule ties each
//    operand to its result dim by dim, with the carried class's nodes: it
//    reads its inits sliced to the class's tiling and defines its results
//    with that tiling, so the planner places the init's slice and the
//    result's gathers (which cancel against readers' slices) as for any
//    looped op.
//  * Each region (condition, body) is a program of its own, evaluated
//    with the same state: its block arguments are the carried values, its
//    terminator yields them, and what it captures from outside and its
//    constants are arguments read whole. Its time, FLOPs and collectives
//    count as often as the region runs (the trip count, as the simulator);
//    its peak is the loop's transient in the program around it.
//  * A region's own `while` ops are loops of its program in the same way
//    (loops in loops, e.g. a layer scan inside a decode loop): their
//    regions are programs again, their trip counts multiply.
//
// This is what lowering does when each carried value is device-local
// (localizeBoundary): every block argument is local with the class's
// tiling and every yielded value is produced with it. A state whose loops
// lower otherwise (a carry resharded at the boundary, a captured value or
// constant sliced inside a body) is left to the reference path. A padded
// carry is local with every level too: the boundary localizes a tied class
// level by level, as it does function arguments and results.
//
// Padded states: a region's padded reductions are masked in the body as in
// straight-line programs (AnalyticPadding.cpp), but the masks' validity
// vectors and zero tiles are constants the canonicalizer hoists to the
// entry's start, merged with equal ones: the region reads them from
// outside (stored, not fused: their readers are across the boundary), and
// the entry holds them from its start until the loop ends
// (hoistMaskConstants, adoptHoistedMasks).
//
//===----------------------------------------------------------------------===//

#include "Evaluation.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

using namespace mlir;
namespace hlo = toast::stablehlo;

namespace toast::search {

void NdaEnvironment::Impl::buildLoopProgram() {
  bool anyLoop = false;
  entry.getBody().front().walk([&](Operation *op) {
    anyLoop |= isa<hlo::WhileOp, hlo::CaseOp, hlo::IfOp>(op);
  });
  if (!anyLoop)
    return;
  auto model = std::make_unique<ProgramModel>();
  useMaskPrototypes(*model);
  Block &block = entry.getBody().front();
  buildBlockModel(block, *model, /*loops=*/true);
  if (model->regions.empty())
    return;
  // The nodes with names in or on region ops the model does not cover
  // (conditionals, loops with loops inside): states sharding them stay on
  // the reference path.
  llvm::DenseSet<Operation *> uncovered;
  for (const ProgramOp &p : model->ops)
    if (isDataFlowRegionOp(p.op) && p.region < 0)
      uncovered.insert(p.op);
  nodeOutsideLoopModel.assign(nda.getNumNodes(), 0);
  for (unsigned name = 0, e = nda.getNumNames(); name != e; ++name) {
    const NamedDimensionAnalysis::Site &site =
        nda.getSites()[nda.getName(name).site];
    Operation *op =
        site.isUse() ? site.use->getOwner()
        : isa<BlockArgument>(site.value)
            ? cast<BlockArgument>(site.value).getOwner()->getParentOp()
            : site.value.getDefiningOp();
    Operation *top = op ? block.findAncestorOpInBlock(*op) : nullptr;
    if (top && uncovered.contains(top))
      nodeOutsideLoopModel[nda.getNode(name)] = 1;
  }
  loopProgram = std::move(model);
}

void NdaEnvironment::Impl::useMaskPrototypes(ProgramModel &model) const {
  // Padded states mask their reductions inside bodies too.
  model.maskSelect = program.maskSelect;
  model.maskBroadcast = program.maskBroadcast;
}

bool NdaEnvironment::Impl::coveredByLoopModel(const SearchState &state) const {
  if (!loopProgram)
    return false;
  for (auto [node, mask] : llvm::enumerate(state.nodeAxes))
    if (mask && nodeOutsideLoopModel[node])
      return false;
  return true;
}

/// Constants by value and type: hoisting merges equal ones.
using ConstantIds = llvm::DenseMap<std::pair<Attribute, Type>, int>;

/// The first (lowest-numbered) of `valueIds` per constant.
static ConstantIds getConstantIds(const llvm::DenseMap<Value, int> &valueIds) {
  ConstantIds constants;
  for (auto [v, id] : valueIds) {
    Attribute value;
    if (!matchPattern(v, m_Constant(&value)))
      continue;
    auto [it, inserted] = constants.insert({{value, v.getType()}, id});
    if (!inserted)
      it->second = std::min(it->second, id);
  }
  return constants;
}

/// The enclosing program's value a region's argument `v` reads: a
/// captured value, or the first constant there equal to a region constant
/// (hoisting merges them); -1 for none.
static int findOuterValue(Value v, const llvm::DenseMap<Value, int> &valueIds,
                          const ConstantIds &constants) {
  if (auto it = valueIds.find(v); it != valueIds.end())
    return it->second;
  Attribute value;
  if (!matchPattern(v, m_Constant(&value)))
    return -1;
  auto it = constants.find({value, v.getType()});
  return it == constants.end() ? -1 : it->second;
}

void NdaEnvironment::Impl::describeLoop(
    Operation *op, ProgramOp &p, ProgramModel &model,
    const llvm::DenseMap<Value, int> &valueIds) {
  bool branches = isa<hlo::CaseOp, hlo::IfOp>(op);
  if (!(branches || isa<hlo::WhileOp>(op)) || p.ruled)
    return;
  const TiedValues &tied = rules->getTiedValues();
  // One factor per dim of each carried value (a loop's) or result tied to
  // the branches' yields (a conditional's), on the class's nodes.
  SmallVector<SmallVector<int64_t, 4>, 2> operandDims, resultDims;
  for (Value operand : op->getOperands())
    operandDims.emplace_back(cast<ShapedType>(operand.getType()).getRank(), -1);
  SmallVector<int, 4> factorNode;
  SmallVector<int64_t, 4> factorSize;
  for (OpResult result : op->getResults()) {
    const TiedValues::Edge *edge = tied.getEdgeOfTarget(result);
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!edge || !type)
      return;
    unsigned e = tied.getIndex(*edge);
    // A shard_map's manual axes are no carried tiling.
    if (program.edgeFixed[e])
      return;
    // A loop's init; a conditional's results have none.
    auto source = llvm::find_if(
        edge->sources, [&](OpOperand *use) { return use->getOwner() == op; });
    if (source == edge->sources.end() && !branches)
      return;
    int operand =
        branches ? -1 : static_cast<int>((*source)->getOperandNumber());
    resultDims.emplace_back();
    for (unsigned d = 0; d < type.getRank(); ++d) {
      if (operand >= 0)
        operandDims[operand][d] = factorNode.size();
      resultDims.back().push_back(factorNode.size());
      factorNode.push_back(program.edgeDimNodes[e][d]);
      factorSize.push_back(type.getDimSize(d));
    }
  }
  auto loop = std::make_unique<RegionModel>();
  ConstantIds constants = getConstantIds(valueIds);
  // Each branch counts once, as the simulator prices conditionals.
  SmallVector<Scope> scopes = getRegionScopes(op, Scope());
  for (auto [region, scope] : llvm::zip_equal(op->getRegions(), scopes)) {
    auto block = std::make_unique<ProgramModel>();
    useMaskPrototypes(*block);
    if (region.empty() ||
        !buildBlockModel(region.front(), *block, /*loops=*/true))
      return;
    loop->blocks.push_back(std::move(block));
    loop->repeat.push_back(scope.repeat);
    // A loop's body yields the carried values, its condition a predicate;
    // every branch yields the results.
    loop->yieldsCarried.push_back(branches ||
                                  &region == &op->getRegions().back());
    std::vector<int> outer;
    for (Value v : loop->blocks.back()->argumentValues)
      outer.push_back(findOuterValue(v, valueIds, constants));
    loop->outerValues.push_back(std::move(outer));
  }
  p.ruled = true;
  p.factorNode.assign(factorNode.begin(), factorNode.end());
  p.factorSize.assign(factorSize.begin(), factorSize.end());
  p.factorReduction.assign(factorNode.size(), false);
  p.operandDims.assign(operandDims.begin(), operandDims.end());
  p.resultDims.assign(resultDims.begin(), resultDims.end());
  p.region = model.regions.size();
  model.regions.push_back(std::move(loop));
}

namespace analytic {

/// Why the loop model leaves a state to the reference path, printed with
/// TOAST_UNMODELED_WHY (docs/search.md); returns false.
static bool notCovered(const char *why) {
  if (explainUnmodeled() || traceEnabled())
    llvm::errs() << "loop model: " << why << "\n";
  return false;
}

/// Whether lowering localizes a tied class beyond its tiling when its
/// readers slice it further by `slices`: whether they all start with the
/// same axis in some dimension (tiedSlice in LocalizeBoundary.cpp carries
/// the class at the axes every slice starts with). Unresolved slices count
/// as sharing one.
static bool slicesShareAxes(ArrayRef<std::optional<DimAxes>> slices) {
  if (slices.empty())
    return false;
  for (const std::optional<DimAxes> &s : slices)
    if (!s)
      return true;
  const DimAxes &first = *slices.front();
  for (size_t d = 0; d < first.size(); ++d) {
    AxisList head = first[d] & byteMask(1);
    if (head && llvm::all_of(slices, [&](const std::optional<DimAxes> &s) {
          return ((*s)[d] & byteMask(1)) == head;
        }))
      return true;
  }
  return false;
}

/// A region op priced whole (nothing of the state inside its regions)
/// keeps its tied classes global. When every reader of a result slices it,
/// the slices sharing a first axis, and its regions do not read the class
/// (a conditional's branches never do; a loop's body and condition leave
/// its block arguments unused, or yield one as its own carry), lowering
/// localizes it all the same (tiedSlice): the regions yield slices, which
/// the whole price does not follow (the review of session 26: cond/c150,
/// c151, up to 50% slow; tie/t096 and mix/m114, a loop's unused carry).
bool Evaluation::regionsYieldSlices(unsigned i) const {
  const ProgramOp &op = prog.ops[i];
  for (auto [r, result] : llvm::enumerate(prog.resultsOf(i))) {
    if (r >= op.carryReadInRegions.size() || op.carryReadInRegions[r])
      continue;
    bool only = true;
    SmallVector<std::optional<DimAxes>, 2> sliced;
    collectSlicedUses(result, only, sliced);
    if (only && slicesShareAxes(sliced)) {
      notCovered("a region op priced whole every reader slices");
      return true;
    }
  }
  return false;
}

bool Evaluation::priceRegions(unsigned i, double &computeTime, double &flops,
                              int64_t &peakBytes) {
  const ProgramOp &p = prog.ops[i];
  const RegionModel &loop = *prog.regions[p.region];
  // An init read through an all_to_all that replanLoopInit did not plan
  // as the boundary's slice of the merged gather (several readers, padded
  // levels) is not followed.
  for (unsigned k = 0, e = p.op->getNumOperands(); k < e; ++k) {
    if (p.operandUses[k] < 0 || usePlans[p.operandUses[k]].loopInit)
      continue;
    for (const Step &step : usePlans[p.operandUses[k]].ops)
      if (step.kind == StepKind::AllToAll)
        return notCovered("an init read through an all_to_all");
  }
  SmallVector<DimAxes, 4> carried;
  for (int r : p.results)
    carried.push_back(plans[r].sourceTiling);
  // Lowering localizes a tied class level by level (localizeTiedValues):
  // when every use of its targets (the op's result, the regions' block
  // arguments) is a slice, it carries the class at that slice, beyond the
  // class's tiling the loop model plans (a result read on B then M of a
  // class tiled M, its block argument unused: review of session 25,
  // g2/q072, planned 11% fast and 27% below the peak).
  SmallVector<char, 4> passedOn(p.results.size(), 0);
  SmallVector<char, 4> onlySlices(p.results.size(), 1);
  SmallVector<SmallVector<std::optional<DimAxes>, 2>, 4> sliced(
      p.results.size());
  for (auto [a, r] : llvm::enumerate(p.results)) {
    bool only = true;
    collectSlicedUses(r, only, sliced[a]);
    onlySlices[a] = only;
  }
  computeTime = flops = 0;
  peakBytes = 0;
  regionReads.clear();
  // Per thread, per region program: evaluations of regions reuse their
  // allocations as the entry's do (Workspace::owner tells programs apart).
  thread_local llvm::DenseMap<const ProgramModel *, std::unique_ptr<Workspace>>
      workspaces;
  for (auto [k, block] : llvm::enumerate(loop.blocks)) {
    // Loops in loops evaluate their regions from here, growing the map:
    // hold the workspace itself, not its slot.
    std::unique_ptr<Workspace> &slot = workspaces[block.get()];
    if (!slot)
      slot = std::make_unique<Workspace>();
    Workspace &ws = *slot;
    if (traceEnabled())
      llvm::errs() << "analytic: region " << k << " of op " << i << "\n";
    Evaluation region(impl, *block, state, ws);
    auto end = llvm::scope_exit([&] {
      if (traceEnabled())
        llvm::errs() << "analytic: region end\n";
    });
    // Padded collectives the planner does not follow (checkPaddedUse).
    if (region.makePlan().unmodeled)
      return notCovered("a region's padded collectives not followed");
    AnalyticCost c = region.pricePlan();
    if (region.isUnmodeled())
      return notCovered("unmodeled region");
    if (const char *why =
            region.regionBoundaryAgrees(carried, loop.yieldsCarried[k]))
      return notCovered(why);
    if (const char *why = adoptHoistedMasks(region.getHoistedMasks()))
      return notCovered(why);
    for (unsigned a = 0; a < region.prog.numBlockArguments && a < sliced.size();
         ++a) {
      bool only = onlySlices[a];
      passedOn[a] |= region.collectSlicedUses(a, only, sliced[a]);
      onlySlices[a] = only;
    }
    for (auto [a, outer] : llvm::enumerate(loop.outerValues[k]))
      if (outer >= 0 && region.isArgumentRead(a))
        regionReads.push_back(outer);
    double repeat = loop.repeat[k];
    computeTime += repeat * c.computeTime;
    flops += repeat * c.flops;
    cost.commTime += repeat * c.commTime;
    for (unsigned kind = 0; kind < sim::kNumCollectiveKinds; ++kind)
      cost.collectiveCounts[kind] +=
          c.collectiveCounts[kind] * static_cast<int64_t>(repeat);
    peakBytes = std::max(peakBytes, static_cast<int64_t>(c.peakBytes));
  }
  for (auto [a, only] : llvm::enumerate(onlySlices)) {
    if (!only)
      continue;
    if (slicesShareAxes(sliced[a]))
      return notCovered("a tied class every reader slices further");
    // Nothing reads the class (its block arguments unused, its result
    // dead): lowering finds no slice and leaves it global, gathering what
    // the body yields (the review of session 26: 18 of its 27 mismatches,
    // priced without those gathers). A body that passes the carry on as
    // it is yields nothing to gather (19 of that review's programs, exact).
    if (sliced[a].empty() && !passedOn[a] && !dimsEmpty(carried[a]))
      return notCovered("a tied class nothing reads");
  }
  return true;
}

bool Evaluation::collectSlicedUses(
    unsigned value, bool &onlySlices,
    SmallVectorImpl<std::optional<DimAxes>> &sliced) const {
  const ProgramValue &v = prog.values[value];
  // The yield's operand `value` (uses of the return have no operand
  // number of their own).
  int ownYield = -1;
  if (value < prog.numBlockArguments && returnOp >= 0) {
    const ProgramOp &ret = prog.ops[returnOp];
    if (value < ret.operandUses.size())
      ownYield = ret.operandUses[value];
  }
  bool passedOn = false;
  for (auto [k, u] : llvm::enumerate(v.uses)) {
    if (static_cast<int>(v.firstUse + k) == ownYield) {
      passedOn = true;
      continue;
    }
    const UsePlan &use = usePlans[v.firstUse + k];
    bool slices = use.argSlice || !use.ops.empty();
    for (const Step &step : use.ops)
      slices &= step.kind == StepKind::Slice;
    if (!slices)
      onlySlices = false;
    else if (use.argSlice && use.ops.empty())
      // argDims: the tiling the argument is sliced to, its own first.
      sliced.push_back(dimsDropPrefix(plans[value].sourceTiling, use.argDims));
    else if (!use.argSlice && use.ops.size() == 1)
      sliced.push_back(use.ops.front().dims);
    else
      sliced.push_back(std::nullopt);
  }
  return passedOn;
}

const char *Evaluation::regionBoundaryAgrees(ArrayRef<DimAxes> carried,
                                             bool yields) const {
  // A loop's regions take the carried values, a conditional's branches
  // nothing.
  if (prog.numBlockArguments && carried.size() != prog.numBlockArguments)
    return "carried values and block arguments differ";
  for (unsigned a = 0; a < prog.numArguments; ++a) {
    const ProgramValue &v = prog.values[a];
    const DimAxes &tiling = plans[a].sourceTiling;
    if (a < prog.numBlockArguments) {
      // The carry is local with its class's tiling, and only with it: a
      // class left global is read through slices of the global value
      // (lowering localizes it only where the loop's results are read
      // alike too), not as a local argument (review of session 25: such
      // states were priced as local and emitted as invalid IR).
      if (tiling != carried[a])
        return "a block argument tiled unlike its class";
      bool local = localArgs[a] && !dimsEmpty(*localArgs[a]);
      if (!v.uses.empty() &&
          (dimsEmpty(tiling) ? local
                             : !localArgs[a] || *localArgs[a] != tiling))
        return "a carried value not local in the region";
      continue;
    }
    // Captured values and constants are read whole.
    for (size_t k = 0; k < v.uses.size(); ++k) {
      const UsePlan &use = usePlans[v.firstUse + k];
      if (use.argSlice || !use.ops.empty())
        return "a captured value or constant sliced in a region";
    }
  }
  if (!yields)
    return nullptr;
  if (returnOp < 0 || returnedTiling.size() != carried.size())
    return "no yield";
  for (auto [k, tiling] : llvm::enumerate(carried))
    if (returned[k] < 0 || returnedTiling[k] != tiling)
      return "a value yielded unlike its class";
  return nullptr;
}

void Evaluation::hoistMaskConstants() {
  hoistedMasks.clear();
  for (const auto &[key, b] : validityBuffers) {
    HoistedMask &m = hoistedMasks.emplace_back();
    m.validity = key;
    m.bytes = buffers[b].bytes;
    buffers[b].bytes = 0;
  }
  for (const auto &[key, b] : zeroBuffers) {
    HoistedMask &m = hoistedMasks.emplace_back();
    m.zero = true;
    m.zeroKey = key;
    m.bytes = buffers[b].bytes;
    buffers[b].bytes = 0;
  }
}

const char *Evaluation::adoptHoistedMasks(ArrayRef<HoistedMask> masks) {
  for (const HoistedMask &m : masks) {
    // Equal constants are one after hoisting: the entry's own mask
    // constants or another region's.
    int &buffer =
        m.zero ? zeroBuffers.try_emplace(m.zeroKey, -1).first->second
               : validityBuffers.try_emplace(m.validity, -1).first->second;
    if (buffer < 0) {
      buffer = newBuffer(m.bytes);
      buffers[buffer].def = 0; // At the entry's start.
    } else if (buffers[buffer].fused) {
      // Fused into this program's selects, it would be stored now, and
      // they would read it.
      return "a mask's zero tile shared by a loop region and its program";
    }
    touch(buffer);
  }
  return nullptr;
}

bool Evaluation::isReadElsewhere(const ProgramOp &p, ArrayRef<int> inputs,
                                 int init) const {
  unsigned own = p.op->getNumOperands();
  if (llvm::count(inputs.take_front(own), init) > 1)
    return true;
  // What the regions read: the loop model knows it per state, a region op
  // priced whole from its simulation (ProgramOp::readByRegions).
  ArrayRef<int> read = p.region >= 0 ? ArrayRef<int>(regionReads)
                                     : ArrayRef<int>(p.readByRegions);
  for (unsigned k = own; k < inputs.size(); ++k)
    if (inputs[k] == init && llvm::is_contained(read, p.operands[k]))
      return true;
  return false;
}

} // namespace analytic
} // namespace toast::search
