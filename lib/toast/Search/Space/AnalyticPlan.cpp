//===- AnalyticPlan.cpp - Planning a state's collectives per value --------===//
//
// The planner, the first half of an evaluation: every op's loop nest, the
// chain each value gets from lowering, the optimizer's reduction patterns,
// per use what remains of the chain once the reader's slices cancel
// against it, the arguments the boundary makes device-local, and
// materializeCore's loop fusion. Its output is the CollectivePlan
// (CollectivePlan.h), which the pricer (AnalyticCost.cpp) and the planned
// program's emitter (PlannedHLO.cpp) read.
//
//===----------------------------------------------------------------------===//

#include "Evaluation.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"

#include <numeric>

using namespace mlir;

namespace toast::search::analytic {

DimAxes Evaluation::useSlicing(unsigned useId, unsigned op, int operand) const {
  // The use record has the reader's dims of this operand: most readers
  // are not partitioned (their slicing's size is in the dense useRanks),
  // and those that are need their (large, cold) ProgramOp only for minor
  // factors (operandSlicing's result otherwise).
  DimAxes dims(prog.useRanks[useId], 0);
  if (!looped[op])
    return dims;
  for (auto [axis, factor] : nests[op])
    if (int d = useDim(useId, operand, factor); d >= 0)
      dims[d] = listAppend(dims[d], axis);
  return dims;
}

int Evaluation::useDim(unsigned useId, int operand, unsigned factor) const {
  const ProgramUse &use = prog.uses[useId];
  if (use.userMinorFactors)
    return prog.ops[use.user].operandDim(operand, factor);
  ArrayRef<int64_t> dims = prog.operandDimsOf(useId);
  const auto *d = llvm::find(dims, static_cast<int64_t>(factor));
  return d == dims.end() ? -1 : d - dims.begin();
}

DimAxes Evaluation::useSlicing(unsigned op, int operand) const {
  return operandSlicing(prog, collectivePlan, op, operand);
}

DimAxes operandSlicing(const ProgramModel &prog, const CollectivePlan &plan,
                       unsigned op, int operand) {
  const ProgramOp &p = prog.ops[op];
  DimAxes dims(p.operandDims[operand].size(), 0);
  for (auto [axis, factor] : plan.nests[op])
    if (int d = p.operandDim(operand, factor); d >= 0)
      dims[d] = listAppend(dims[d], axis);
  return dims;
}

/// The plan of a value without a chain (what buildChains starts from):
/// its local result whole, no steps.
void Evaluation::resetValuePlan(unsigned value) {
  ValuePlan &plan = plans[value];
  plan.sourceTiling.assign(prog.valueCores[value].rank, 0);
  plan.steps.clear();
  plan.perUser.reset();
  plan.scattersOnTop = false;
  plan.outerSums = plan.sumsAfterGather = 0;
  plan.gathers.clear();
}

/// Resets what the last plan of this program changed: the values it
/// listed (markPlanned) and their uses. Every other value's plan and use
/// plans are then a value's without a chain, read by ops without loops,
/// so that a plan costs what the state partitions, not a walk over every
/// value of the program (issue 17: a cache miss per value).
void Evaluation::resetPlans() {
  if (fresh) {
    plans.assign(prog.values.size(), {});
    for (size_t v = 0; v < prog.values.size(); ++v)
      resetValuePlan(v);
    usePlans.assign(prog.numUses, {});
    collectivePlan.plainUses.assign(prog.numUses, 1);
    planned.clear();
    isPlanned.assign(prog.values.size(), 0);
    return;
  }
  for (unsigned v : planned) {
    resetValuePlan(v);
    const ValueCore &value = prog.valueCores[v];
    // A plain use is reset already (its UsePlan is not read).
    for (size_t k = 0; k < value.numUses; ++k) {
      if (collectivePlan.plainUses[value.firstUse + k])
        continue;
      resetUse(usePlans[value.firstUse + k]);
      collectivePlan.plainUses[value.firstUse + k] = 1;
    }
    isPlanned[v] = 0;
  }
  planned.clear();
}

/// Lowered chains before user-dependent rewrites: all_reduces first (they
/// move before gathers), then the gathers; single-use gathers merge. Only
/// arguments and results of ops with loops have levels; the rest keep the
/// plan resetPlans left them.
void Evaluation::buildChains() {
  for (unsigned a = 0; a < prog.numArguments; ++a)
    buildChain(a);
  for (unsigned i : prog.nestOps)
    if (looped[i])
      for (int r : prog.resultsOf(i))
        buildChain(r);
}

/// The chain of `value`, an argument or a result of an op with loops.
void Evaluation::buildChain(unsigned v) {
  ValuePlan &plan = plans[v];
  // The dense ValueCore and dim nodes, not the ProgramValue (issue 17).
  const ValueCore &value = prog.valueCores[v];
  // Levels outermost first: (axis, dim or -1 for a sum).
  llvm::SmallVector<std::pair<unsigned, int>, 4> levels;
  if (value.defOp < 0) {
    // ProgramValue::carriesAxis over the shardable (dim, node) pairs.
    ArrayRef<std::pair<unsigned, int>> nodes = prog.dimNodesOf(v);
    AxisMask carried = 0;
    for (auto [d, node] : nodes)
      carried |= state.nodeAxes[node];
    // Most arguments of a state are not sharded.
    if (!carried)
      return;
    for (unsigned axis = 0; axis < impl.axisNames.size(); ++axis)
      for (unsigned d = 0; d < value.rank; ++d)
        if (llvm::any_of(nodes, [&](const std::pair<unsigned, int> &e) {
              return e.first == d && (state.nodeAxes[e.second] >> axis & 1);
            }))
          levels.push_back({axis, static_cast<int>(d)});
  } else {
    // The dense per-result table, not the op's rule maps (a cache miss).
    for (auto [axis, factor] : nests[value.defOp]) {
      int dim = prog.resultFactorDim(v, factor);
      if (dim >= -1) // Mapped, or a reduction factor (-1).
        levels.push_back({axis, dim});
    }
  }
  // Without levels the plan stays the one resetPlans left: most arguments
  // of a state are not sharded.
  if (levels.empty())
    return;
  markPlanned(v);
  for (auto [axis, dim] : levels)
    if (dim >= 0)
      plan.sourceTiling[dim] = listAppend(plan.sourceTiling[dim], axis);
  if (scatterOutermostSum(v, levels))
    return;
  // all_reduces move before the gathers (innermost first); the gathers
  // are copied per reading op and merge into one per reader.
  for (auto [axis, dim] : llvm::reverse(levels))
    if (dim < 0)
      plan.steps.push_back({StepKind::Reduce, {listAppend(0, axis)}});
  if (!dimsEmpty(plan.sourceTiling))
    plan.perUser = Step{StepKind::Gather, plan.sourceTiling};
  for (auto [axis, dim] : levels)
    if (dim >= 0)
      plan.gathers.push_back({axis, static_cast<unsigned>(dim)});
  if (plan.perUser)
    while (plan.outerSums < levels.size() && levels[plan.outerSums].second < 0)
      ++plan.outerSums;
}

/// Whether the readers' slicings `slicings` (in use order) turn an
/// all_reduce over one axis into a reduce_scatter `scatter` on one dim.
/// The optimizer visits the last reader first: when its slices are exactly
/// that axis on one dim, every reader's first slice (its outermost level)
/// is that same all_slice, the all_reduce's only kind of user, and it
/// becomes the reduce_scatter; the readers slice the rest off it after.
/// Otherwise the last reader's slices merge first and the all_reduce stays.
/// Readers slicing differently need the last reader's own chain to be that
/// one slice (`lastRead`, its slicing before findScatterLevels' cancelled
/// gathers come off): with a slice more, of a tile gathered inside the sum,
/// the two merge before the all_reduce's users are looked at (priced half
/// the lowered time, review of session 16), while a value tiled on another
/// dim whose last reader slices the sum axis alone gets the reduce_scatter
/// on top of that tile's gather, which the other readers slice again (m1
/// on {B:2, S:2, M:2}: 111 states priced an all_reduce, up to 78% high).
/// Without `lastRead` (scatterSumForSlicers) a value tiled on another dim
/// is not followed.
static bool scattersForReaders(unsigned axis, ArrayRef<DimAxes> slicings,
                               const DimAxes &source, const DimAxes *lastRead,
                               DimAxes &scatter) {
  if (slicings.empty())
    return false;
  const DimAxes &last = slicings.back();
  int d = onlyDim(last);
  if (d < 0 || last[d] != listAppend(0, axis))
    return false;
  bool alike = llvm::all_of(slicings, [&](auto &s) { return s == last; });
  if (!alike && lastRead && *lastRead != last)
    return false;
  for (auto [e, axes] : llvm::enumerate(source))
    if (axes && static_cast<int>(e) != d && !alike && !lastRead)
      return false;
  for (const DimAxes &s : slicings)
    if (!dimsIsPrefix(last, s) ||
        (dimsMask(s) & ((AxisMask(1) << axis) - 1)) != 0)
      return false;
  scatter = last;
  return true;
}

/// The outer levels of a chain (outermost first) the readers' slices turn
/// into one reduce_scatter: tile levels that every reader slices first,
/// per dim in order (`cancelled`), around one sum level (`sum`), up to the
/// first level that is neither (`kept`: the levels from there stay). The
/// readers' loops fused the tiles outside the sum, or their slices cancel
/// those gathers (CancelSliceOfGather); a tile inside the sum is gathered
/// after its all_reduce once ReduceBeforeGather moved that down, and
/// cancelled the same way. Tiles outside the sum only for one reader
/// (`oneReader`; dead readers never get here): the producer's loop fuses into
/// no reader otherwise, and the order of several readers' rewrites was not
/// followed (two readers, or a dead one, priced 17-50% low; found by review).
/// Tiles inside the sum for any live readers that all slice them first:
/// lowering makes one reduce_scatter for them (two live readers priced
/// 8-17% high before). A value with a dead reader gets here not at all
/// (scatterOutermostSum).
struct ScatterLevels {
  DimAxes cancelled;
  std::optional<size_t> sum;
  size_t kept = 0;
};
static ScatterLevels
findScatterLevels(ArrayRef<std::pair<unsigned, int>> levels,
                  ArrayRef<DimAxes> slicings, bool oneReader) {
  ScatterLevels found;
  found.cancelled.assign(slicings.front().size(), 0);
  for (; found.kept < levels.size(); ++found.kept) {
    auto [axis, dim] = levels[found.kept];
    if (dim < 0) {
      if (found.sum)
        break;
      found.sum = found.kept;
      continue;
    }
    // Outside the sum only the readers' fusion or cancelled gathers of a
    // single reader let it through; inside it ReduceBeforeGather serves
    // every reader that slices alike.
    if (!oneReader && !found.sum)
      break;
    AxisList next = listAppend(found.cancelled[dim], axis);
    if (!llvm::all_of(slicings, [&, dim = dim](const DimAxes &s) {
          return listIsPrefix(next, s[dim]);
        }))
      break;
    found.cancelled[dim] = next;
  }
  return found;
}

/// Whether padding stands in the way of findScatterLevels' reduce_scatter:
/// a padded tile outside the sum fuses into the single reader and pads no
/// collective (a tile of 10 columns over B:3 in front of a sum over S),
/// but a padded tile inside it would be a padded gather, and the rest of a
/// reader's slices, padded, is not followed.
bool Evaluation::padsPastScatter(unsigned value,
                                 ArrayRef<std::pair<unsigned, int>> levels,
                                 const ScatterLevels &outer,
                                 ArrayRef<DimAxes> slicings) const {
  DimAxes inside(outer.cancelled.size(), 0);
  for (auto [axis, dim] :
       levels.slice(*outer.sum + 1, outer.kept - *outer.sum - 1))
    inside[dim] = listAppend(inside[dim], axis);
  if (hasPaddedDim(value, inside))
    return true;
  return llvm::any_of(slicings, [&](const DimAxes &s) {
    return hasPaddedDim(value, dimsDropPrefix(outer.cancelled, s));
  });
}

/// A padded tile inside the outermost sum (or padding in what the readers
/// slice after the sum's axis), and readers whose first slice is the sum's
/// axis alone (one dim, even). The optimizer visits the last reader first:
/// when its second slice pads, the two do not merge, so the readers' first
/// slices are the all_reduce's only users and become one reduce_scatter
/// before ReduceBeforeGather could move the sum below the tile's gather.
/// The gathers stay under the reduce_scatter and each reader slices the
/// rest after it (the other readers' rest may be even). Rewrites `outer`
/// and `slicings` for scatterOutermostSum (nothing cancelled; the readers'
/// first slices); false when that is not the case.
bool Evaluation::firstSlicesMeetSum(
    unsigned value, ArrayRef<std::pair<unsigned, int>> levels,
    ScatterLevels &outer, llvm::SmallVectorImpl<DimAxes> &slicings) const {
  const ProgramValue &v = prog.values[value];
  if (*outer.sum != 0)
    return false;
  unsigned axis = levels[0].first;
  size_t rank = v.shape.size();
  // The optimizer visits the last reader first (bottom-up).
  unsigned lastReader = 0;
  for (auto [op, operand] : v.uses)
    lastReader = std::max(lastReader, op);
  llvm::SmallVector<DimAxes, 4> firsts;
  for (auto [op, operand] : v.uses) {
    auto sliced = slicingLevels(op, operand);
    if (sliced.size() < 2 || sliced[0].first != axis)
      return false;
    DimAxes first(rank, 0);
    first[sliced[0].second] = listAppend(0, axis);
    if (slicePads(value, DimAxes(rank, 0), first))
      return false;
    // The last reader's second slice must pad, or it merges with the
    // first before the all_reduce's users are looked at. What follows the
    // first slice is the use's chain off the reduce_scatter, its padded
    // slices ops of their own (checkPaddedUse: splitScatteredRest).
    if (op == lastReader) {
      auto [a, d] = sliced[1];
      DimAxes second(rank, 0);
      second[d] = listAppend(0, a);
      if (!slicePads(value, first, second))
        return false;
    }
    firsts.push_back(std::move(first));
  }
  outer.cancelled.assign(v.shape.size(), 0);
  outer.kept = 1;
  slicings.assign(firsts.begin(), firsts.end());
  return true;
}

/// The optimizer visits readers first: when the outermost level sums and
/// the readers slice it as scattersForReaders says, that all_reduce
/// becomes a reduce_scatter on top of the inner levels' chain (all_reduces,
/// then one gather that stays after the producer). Tile levels the
/// readers slice first do not stand in between (findScatterLevels).
bool Evaluation::scatterOutermostSum(
    unsigned value, ArrayRef<std::pair<unsigned, int>> levels) {
  const ProgramValue &v = prog.values[value];
  // A dead reader's slices take part in the optimizer's rewrites until
  // canonicalization erases it, and the program model has no nest for it:
  // one slicing otherwise keeps the all_reduce (priced up to 50% low, found
  // by review), so none is assumed.
  if (levels.empty() || v.uses.empty() || v.defOp < 0 || v.deadUses)
    return false;
  llvm::SmallVector<DimAxes, 4> slicings;
  bool tiled =
      llvm::any_of(levels, [](auto level) { return level.second >= 0; });
  for (auto [k, u] : llvm::enumerate(v.uses)) {
    if (u.second < 0)
      return false;
    // A loop slices its init only after the optimizer ran once
    // (localizeTiedValues): by then ReduceBeforeGather moved the sums under
    // the tiles' gathers, and the boundary's slice meets a gather (a t32
    // scan state on {B:2, M:3}, summed over B with a padded tile on M, was
    // priced with a reduce_scatter, 1.5% low; review14).
    if (tiled && prog.uses[v.firstUse + k].userIsLoop)
      return false;
    slicings.push_back(useSlicing(v.firstUse + k, u.first, u.second));
  }
  ScatterLevels outer =
      findScatterLevels(levels, slicings, slicings.size() == 1);
  if (!outer.sum)
    return false;
  if (anyPadded && padsPastScatter(value, levels, outer, slicings) &&
      !firstSlicesMeetSum(value, levels, outer, slicings))
    return false;
  DimAxes lastRead = slicings.back();
  for (DimAxes &s : slicings)
    s = dimsDropPrefix(outer.cancelled, s);
  DimAxes first;
  if (!scattersForReaders(levels[*outer.sum].first, slicings,
                          plans[value].sourceTiling, &lastRead, first))
    return false;
  // A padded slice of the sum stays one (reduce_scatter does not pad).
  if (anyPadded && hasPaddedDim(value, first))
    return false;
  ValuePlan &plan = plans[value];
  for (auto [axis, dim] : llvm::reverse(levels.drop_front(outer.kept)))
    if (dim < 0)
      plan.steps.push_back({StepKind::Reduce, {listAppend(0, axis)}});
  DimAxes inner = dimsDropPrefix(outer.cancelled, plan.sourceTiling);
  if (anyPadded && hasPaddedDim(value, inner)) {
    pushLevelGathers(value, levels.drop_front(outer.kept));
  } else if (!dimsEmpty(inner)) {
    plan.steps.push_back({StepKind::Gather, std::move(inner)});
    for (auto [axis, dim] : levels.drop_front(outer.kept)) {
      if (dim >= 0)
        break;
      ++plan.sumsAfterGather;
    }
  }
  plan.steps.push_back({StepKind::ReduceScatter, first});
  plan.scattersOnTop = true;
  return true;
}

/// The gathers of the tile levels `levels` (outermost first) as lowering
/// leaves them under a reduce_scatter: one per level, innermost first,
/// where adjacent even ones merge (rewritePair: MergeGathers, the outer
/// one's axes major) and a padded one stays alone (a 9-row dim over S:2
/// gathered with M's columns in one op was priced 25% high, found by review).
void Evaluation::pushLevelGathers(unsigned value,
                                  ArrayRef<std::pair<unsigned, int>> levels) {
  ValuePlan &plan = plans[value];
  DimAxes tiling = tilingAt(value, plan.steps.size());
  // The tiling before the last gather pushed, once there is one.
  std::optional<DimAxes> before;
  for (auto [axis, dim] : llvm::reverse(levels)) {
    if (dim < 0)
      continue;
    Step gather{StepKind::Gather, DimAxes(tiling.size(), 0)};
    gather.dims[dim] = listAppend(0, axis);
    llvm::SmallVector<Step, 1> merged;
    if (before &&
        rewritePair(value, *before, plan.steps.back(), gather, merged)) {
      plan.steps.back() = std::move(merged.front());
    } else {
      before = tiling;
      plan.steps.push_back(gather);
    }
    tiling = applyStep(gather, tiling);
  }
}

/// The tiling of `value` after its first `level` shared steps.
DimAxes Evaluation::tilingAt(unsigned value, unsigned level) const {
  DimAxes tiling = plans[value].sourceTiling;
  for (unsigned l = 0; l < level; ++l)
    tiling = apply(plans[value].steps[l], tiling);
  return tiling;
}

/// The shared step a single-use value hands to its reader unchanged (the
/// reader reads the top level, no per-use ops), or null.
const Step *Evaluation::handedOver(int value) const {
  // A value the plan did not list has no steps (resetPlans).
  if (value < 0 || !isPlanned[value])
    return nullptr;
  const ValueCore &v = prog.valueCores[value];
  const ValuePlan &plan = plans[value];
  if (v.numUses != 1 || plan.steps.empty())
    return nullptr;
  const UsePlan &use = usePlans[v.firstUse];
  if (use.argSlice || !use.ops.empty() || use.level != plan.steps.size())
    return nullptr;
  const Step &top = plan.steps.back();
  return top.kind == StepKind::Reduce || top.kind == StepKind::ReduceScatter
             ? &top
             : nullptr;
}

/// A partial sum that layout op i alone reads whole, through a gather:
/// the optimizer visits op i first and sinks the all_reduces of the sum
/// levels outside every tile level through it (the gather then feeds it);
/// the sums inside stay before the gather. The moved ones start op i's
/// result chain, innermost first.
bool Evaluation::sinkOuterSums(unsigned i) {
  int value = prog.operandsOf(i)[0];
  // A value the plan did not list has the reset plan: no sums (its
  // ValuePlan is not read, a cache miss).
  if (value < 0 || !isPlanned[value])
    return false;
  const ValueCore &v = prog.valueCores[value];
  ValuePlan &plan = plans[value];
  if (v.numUses != 1 || !plan.outerSums || !plan.perUser)
    return false;
  const UsePlan &use = usePlans[v.firstUse];
  if (use.argSlice || use.level != plan.steps.size() || use.ops.size() != 1 ||
      use.ops[0].kind != StepKind::Gather)
    return false;
  // The reader's slices may cancel the outer gathers and leave it reading
  // an inner padded one (which merges with none) whole.
  if (use.ops[0].dims != plan.perUser->dims &&
      !(anyPadded &&
        stepPads(value, tilingAt(value, use.level), use.ops[0].dims)))
    return false;
  unsigned n = plan.outerSums;
  plan.outerSums = 0;
  for (unsigned k = 0; k < n; ++k)
    moveReduction(value, i, plan.steps.back());
  return true;
}

/// Once the reduce_scatter on top of `value`'s chain has sunk through
/// layout op i, lowering's next op under i is the last all_reduce that
/// stands after the gather (ValuePlan::sumsAfterGather): the optimizer
/// visits i first and sinks those too (SinkReduceThroughLayoutOp) before
/// ReduceBeforeGather could move them under the gather, which then feeds
/// i. A transpose of a dot's gradient summed over B and M, tiled on S and
/// read with B sliced: planned gather, transpose, all_reduce, then the
/// reduce_scatter (review14: a scanned t2b state on {B:2, M:2, S:2} was
/// priced with the all_reduce before the gather, 2e-4 low).
void Evaluation::sinkSumsAfterGather(int value, unsigned i) {
  ValuePlan &in = plans[value];
  unsigned n = std::exchange(in.sumsAfterGather, 0);
  size_t g = in.steps.size();
  if (!n || !g || in.steps[g - 1].kind != StepKind::Gather || g - 1 < n)
    return;
  ValuePlan &out = plans[prog.resultsOf(i)[0]];
  // Outermost first: each goes to the bottom of i's chain.
  for (unsigned k = 0; k < n; ++k) {
    size_t at = g - 2 - k;
    if (in.steps[at].kind != StepKind::Reduce)
      return;
    out.steps.insert(out.steps.begin(), in.steps[at]);
    in.steps.erase(in.steps.begin() + at);
    --usePlans[prog.valueCores[value].firstUse].level;
  }
  refreshPlainUse(prog.valueCores[value].firstUse);
}

/// Moves the top step of `from` (read only by op i) to the bottom of op
/// i's result chain: op i then runs on the unreduced operand.
void Evaluation::moveReduction(int from, unsigned i, Step step) {
  ValuePlan &in = plans[from];
  in.steps.pop_back();
  --usePlans[prog.valueCores[from].firstUse].level;
  refreshPlainUse(prog.valueCores[from].firstUse);
  markPlanned(prog.resultsOf(i)[0]);
  ValuePlan &out = plans[prog.resultsOf(i)[0]];
  if (step.kind == StepKind::ReduceScatter) {
    // The op's local result is no longer sliced by the scatter's axes.
    AxisMask scattered = dimsMask(step.dims);
    for (AxisList &l : out.sourceTiling) {
      AxisList kept = 0;
      for (AxisList rest = l; rest; rest >>= 8)
        if (!(scattered >> ((rest & 0xff) - 1) & 1))
          kept = listAppend(kept, (rest & 0xff) - 1);
      l = kept;
    }
  }
  out.steps.insert(out.steps.begin(), std::move(step));
}

/// The optimizer's reduction patterns at op i, once its operands are
/// planned: all_reduce sinks through transpose/reshape, reduce_scatter
/// through transpose, and an add of two equal sum collectives becomes one
/// collective of the add.
void Evaluation::applyReductionPatterns(unsigned i) {
  // The rewritten op is visited again: repeat while a pattern applies.
  while (applyReductionPattern(i)) {
  }
}

bool Evaluation::applyReductionPattern(unsigned i) {
  // Only layout ops and adds have patterns: most ops stop at the dense
  // OpCore, without reading their ProgramOp.
  const OpCore &core = prog.cores[i];
  if (core.numResults != 1 || (!core.isLayout && !core.isAdd))
    return false;
  // The operand slots, not the ProgramOp (read for a permutation only).
  ArrayRef<int> operands = prog.operandsOf(i);
  if (core.isLayout && operands.size() == 1) {
    if (sinkOuterSums(i))
      return true;
    const Step *step = handedOver(operands[0]);
    if (!step)
      return false;
    if (step->kind == StepKind::Reduce) {
      moveReduction(operands[0], i, *step);
      return true;
    }
    const ProgramOp &p = prog.ops[i];
    if (p.permutation.empty())
      return false;
    Step moved{StepKind::ReduceScatter, DimAxes(p.permutation.size(), 0)};
    for (auto [d, from] : llvm::enumerate(p.permutation))
      moved.dims[d] = step->dims[from];
    moveReduction(operands[0], i, std::move(moved));
    sinkSumsAfterGather(operands[0], i);
    return true;
  }
  if (!core.isAdd || operands.size() != 2 || operands[0] == operands[1])
    return false;
  const Step *lhs = handedOver(operands[0]);
  const Step *rhs = handedOver(operands[1]);
  if (!lhs || !rhs || lhs->kind != rhs->kind || lhs->dims != rhs->dims)
    return false;
  unsigned a = operands[0], b = operands[1];
  if (tilingAt(a, plans[a].steps.size() - 1) !=
      tilingAt(b, plans[b].steps.size() - 1))
    return false;
  Step merged = *lhs;
  plans[b].steps.pop_back();
  --usePlans[prog.valueCores[b].firstUse].level;
  refreshPlainUse(prog.valueCores[b].firstUse);
  moveReduction(a, i, std::move(merged));
  return true;
}

DimAxes Evaluation::apply(const Step &step, const DimAxes &tiling) const {
  return applyStep(step, tiling);
}

/// Per-use rewriting of the chain's end against the use's slices: the
/// reader's gather copy cancels with its slices where one is a prefix of
/// the other, forms an all_to_all, or stays.
void Evaluation::planUse(unsigned value, const DimAxes &slicing, bool isReturn,
                         UsePlan &use) const {
  const ValuePlan &plan = plans[value];
  bool isArg = prog.values[value].defOp < 0;
  resetUse(use);
  use.level = plan.steps.size();
  DimAxes s = slicing;
  // The readers slice the rest of their slicing off the reduce_scatter
  // (the outer tiles it kept, then the scatter, are a prefix of it).
  if (plan.scattersOnTop) {
    DimAxes rest = dimsDropPrefix(tilingAt(value, use.level), s);
    if (!dimsEmpty(rest))
      use.ops.push_back({StepKind::Slice, std::move(rest)});
    return;
  }
  // The boundary returns what the gathers would gather, every level of
  // them (padded levels too, LocalizeBoundary).
  if (isReturn)
    return;
  if (plan.perUser && !dimsEmpty(s)) {
    // The optimizer visits the reader's (merged) slices before the
    // producer's per-level gathers merge: it cancels them outermost first.
    size_t k = 0;
    std::optional<Step> a2a;
    for (; k < plan.gathers.size(); ++k) {
      auto [axis, dim] = plan.gathers[k];
      AxisList first = s[dim] & 0xff;
      if (first != AxisList(axis + 1)) {
        // The slice moves the axes of this gather, or of a run of outer
        // gathers of one dimension, to another dimension; the inner
        // gathers stay before the all_to_all.
        int sd = onlyDim(s);
        if (sd >= 0 && sd != static_cast<int>(dim)) {
          AxisList run = 0;
          size_t j = k;
          while (j < plan.gathers.size() && plan.gathers[j].second == dim &&
                 run != s[sd])
            run = listAppend(run, plan.gathers[j++].first);
          // A run of every gather is the all_to_all of the whole gather
          // (below).
          bool inner = j == k + 1 || j < plan.gathers.size();
          if (run == s[sd] && inner &&
              !isPaddedAllToAll(value, dim, sd, s[sd])) {
            a2a = Step{StepKind::AllToAll, DimAxes(s.size(), 0),
                       static_cast<int>(dim), sd};
            a2a->dims[dim] = a2a->dims[sd] = s[sd];
            s[sd] = 0;
            k = j;
          }
        }
        break;
      }
      s[dim] >>= 8;
      if (dimsEmpty(s)) {
        ++k;
        break;
      }
    }
    DimAxes g(s.size(), 0);
    for (size_t j = k; j < plan.gathers.size(); ++j)
      g[plan.gathers[j].second] =
          listAppend(g[plan.gathers[j].second], plan.gathers[j].first);
    if (k < plan.gathers.size())
      use.gatherLevel = k;
    if (a2a) {
      // The inner gathers stay where they were; the all_to_all reads them.
      if (!dimsEmpty(g)) {
        use.ops.push_back({StepKind::Gather, g});
        use.gatherAtDef = true;
      }
      use.ops.push_back(*a2a);
      return;
    }
    if (dimsEmpty(g)) {
      // Every gather cancelled: slice what they gathered.
    } else if (dimsEmpty(s)) {
      use.ops.push_back({StepKind::Gather, g});
      use.gatherAtDef = true;
      use.readerIsUser = true;
      return;
    } else if (dimsIsPrefix(s, g)) {
      DimAxes rest = dimsDropPrefix(s, g);
      if (!dimsEmpty(rest))
        use.ops.push_back({StepKind::Gather, rest});
      return;
    } else if (dimsIsPrefix(g, s)) {
      s = dimsDropPrefix(g, s);
    } else {
      int sd = onlyDim(s), gd = onlyDim(g);
      if (sd >= 0 && gd >= 0 && sd != gd && s[sd] == g[gd] &&
          !isPaddedAllToAll(value, gd, sd, s[sd])) {
        Step a2a{StepKind::AllToAll, g, gd, sd};
        a2a.dims[sd] = s[sd];
        use.ops.push_back(a2a);
        return;
      }
      use.ops.push_back({StepKind::Gather, g});
      use.ops.push_back({StepKind::Slice, s});
      use.gatherAtDef = true;
      return;
    }
  } else if (plan.perUser) {
    use.ops.push_back(*plan.perUser);
    use.gatherAtDef = true;
    use.readerIsUser = true;
    use.gatherLevel = 0;
    return;
  }
  if (dimsEmpty(s))
    return;
  if (use.level == 0 && isArg) {
    use.argSlice = true;
    use.argDims = plan.sourceTiling;
    for (size_t d = 0; d < s.size(); ++d)
      use.argDims[d] = listConcat(use.argDims[d], s[d]);
    return;
  }
  use.ops.push_back({StepKind::Slice, s});
}

/// What planUse leaves for a use that reads the top of an empty chain.
void Evaluation::resetUse(UsePlan &use) {
  use.level = 0;
  use.gatherLevel.reset();
  use.argSlice = use.gatherAtDef = use.readerIsUser = use.loopInit = false;
  use.fusedLevel = -1;
  use.ops.clear();
  if (!use.argDims.empty())
    use.argDims.clear();
}

/// A value whose chain ends in an all_reduce over one axis, each use one
/// slice of it: the reduce_scatter scattersForReaders finds, the uses
/// slicing the rest off it.
void Evaluation::scatterSumForSlicers(unsigned value) {
  const ProgramValue &v = prog.values[value];
  ValuePlan &plan = plans[value];
  llvm::SmallVector<DimAxes, 4> slicings;
  for (size_t k = 0; k < v.uses.size(); ++k) {
    const UsePlan &use = usePlans[v.firstUse + k];
    if (use.level != plan.steps.size() || use.ops.size() != 1 ||
        use.ops[0].kind != StepKind::Slice)
      return;
    slicings.push_back(use.ops[0].dims);
  }
  unsigned axis = llvm::countr_zero(listMask(plan.steps.back().dims[0]));
  DimAxes scatter;
  if (!scattersForReaders(axis, slicings, plan.sourceTiling, nullptr, scatter))
    return;
  for (size_t k = 0; k < v.uses.size(); ++k) {
    UsePlan &use = usePlans[v.firstUse + k];
    DimAxes rest = dimsDropPrefix(scatter, slicings[k]);
    use.ops.clear();
    if (!dimsEmpty(rest))
      use.ops.push_back({StepKind::Slice, std::move(rest)});
  }
  plan.steps.back() = Step{StepKind::ReduceScatter, std::move(scatter)};
}

/// A loop's init use read through gathers: lowering slices a loop's inits
/// after the collective optimizer ran (LowerCoreToHLO: optimize,
/// localizeTiedValues, optimize again), when the gathers the loop reads
/// have merged into one. The boundary's slice then meets that merged
/// gather, not the levels one by one: the pair rewrites as any other. A
/// mask of 16x16 tiled B, M read by a scan tiled B, M on its rows stays a
/// gather and a slice, where the level-by-level plan had an all_to_all
/// (full-size t2b with its layers in a scan: 376 of 1,402 states of a
/// search went to the reference path for it); rows {M, S} and columns B
/// carried as rows S and columns {B, M} stay both, where it cancelled B
/// (priced 29% low; review14). `slicing`: the loop's slicing of the init.
void Evaluation::replanLoopInit(unsigned value, unsigned k, DimAxes slicing) {
  const ValuePlan &plan = plans[value];
  const ProgramValue &v = prog.values[value];
  UsePlan &use = usePlans[v.firstUse + k];
  if (!plan.perUser || use.ops.empty())
    return;
  unsigned op = v.uses[k].first;
  // The loop reads the value once, and no padded level: a loop reading it
  // as two inits gets one gather copy, which both boundary slices read
  // (GatherPerUser), but rewriting each chain here orders the two inits'
  // ops unlike lowering (review14's d002: a peak 7% high when allowed in
  // session 25), and padded levels are not followed. Such inits, when read
  // through an all_to_all, stay refused (priceRegions). Other readers get
  // copies of their own (the causal mask both scans of a training step
  // carry).
  bool twice =
      llvm::count_if(v.uses, [&](auto &u) { return u.first == op; }) > 1;
  if (twice || v.deadUses ||
      (anyPadded && (hasPaddedDim(value, plan.sourceTiling) ||
                     hasPaddedDim(value, slicing))))
    return;
  llvm::SmallVector<Step, 2> chain{*plan.perUser,
                                   Step{StepKind::Slice, std::move(slicing)}};
  rewriteChain(value, tilingAt(value, plan.steps.size()), chain);
  use.ops.assign(chain.begin(), chain.end());
  bool gathers = !chain.empty() && chain.front().kind == StepKind::Gather;
  use.gatherLevel.reset();
  if (gathers)
    use.gatherLevel = 0;
  use.gatherAtDef = gathers;
  use.readerIsUser = gathers && chain.size() == 1;
  use.loopInit = true;
}

/// Plans every use of `value`, decides reduce_scatter and (for arguments)
/// whether the boundary makes the argument device-local.
void Evaluation::planValue(unsigned value) {
  ValuePlan &plan = plans[value];
  const ProgramValue &v = prog.values[value];
  // A result without a chain read by ops without loops (most values of a
  // state): every use reads the source as is (what planUse returns for an
  // empty slicing), and nothing below applies.
  // Its uses are reset already (resetPlans); a value not listed has no
  // chain. An argument without levels read by ops without loops is one
  // too: nothing below changes it (no slices, no local form).
  if (!anyPadded &&
      (!isPlanned[value] ||
       (plan.steps.empty() && !plan.perUser && !plan.scattersOnTop)) &&
      llvm::all_of(prog.usesOf(value), // Dense: not the ProgramValue.
                   [&](auto &u) { return u.second < 0 || !looped[u.first]; }))
    return;
  markPlanned(value);
  // Whatever path leaves below, the uses' plans are final then (but for
  // the reduction patterns' level moves, which refresh their use).
  llvm::scope_exit refresh([&] {
    for (size_t k = 0; k < v.uses.size(); ++k)
      refreshPlainUse(v.firstUse + k);
  });
  for (auto [k, u] : llvm::enumerate(v.uses)) {
    DimAxes s = u.second >= 0 ? useSlicing(v.firstUse + k, u.first, u.second)
                              : DimAxes(v.shape.size(), 0);
    planUse(value, s, u.second == -2, usePlans[v.firstUse + k]);
    if (prog.uses[v.firstUse + k].userIsLoop)
      replanLoopInit(value, k, std::move(s));
  }
  if (anyPadded)
    for (size_t k = 0; k < v.uses.size(); ++k)
      checkPaddedUse(value, k);
  // Each gather level is an op; one with several readers (ops, or the next
  // outer gather) when the optimizer copies gathers is copied to them, so
  // only the outermost level still read, read by one op, stays after the
  // producer. Readers count until their slices cancel the level step-wise
  // (later cancellations come after the copies).
  // A loop's init is sliced by the boundary after the copies: the loop
  // reads the whole gather then (AnalyticLoops.cpp).
  auto readLevel = [&](size_t k) -> std::optional<unsigned> {
    // From the use record: the reader's ProgramOp is a cache miss.
    if (!usePlans[v.firstUse + k].gatherLevel && !plan.gathers.empty() &&
        (prog.uses[v.firstUse + k].userIsLoop || v.uses[k].second == -2))
      return 0u;
    return usePlans[v.firstUse + k].gatherLevel;
  };
  unsigned outermost = ~0u;
  for (size_t k = 0; k < v.uses.size(); ++k)
    if (std::optional<unsigned> level = readLevel(k))
      outermost = std::min(outermost, *level);
  // The optimizer copies a gather per op reading it: the user when it
  // reads the gather itself (so one copy for all its operands that do),
  // else the use's own slice, all_to_all or mask select.
  auto loweredReader = [&](size_t k) -> int64_t {
    const UsePlan &use = usePlans[v.firstUse + k];
    auto [user, operand] = v.uses[k];
    bool masked = anyPadded && operand >= 0 && readsMasked(user, operand);
    bool direct =
        (use.readerIsUser && !masked) || prog.uses[v.firstUse + k].userIsLoop;
    return direct ? static_cast<int64_t>(user) : -1 - static_cast<int64_t>(k);
  };
  std::optional<int64_t> reader;
  bool several = false;
  for (size_t k = 0; k < v.uses.size(); ++k) {
    if (readLevel(k) != outermost)
      continue;
    int64_t lowered = loweredReader(k);
    several |= reader && *reader != lowered;
    reader = lowered;
  }
  // A loop region's carried value is gathered right before its reader
  // (the boundary made it local after the optimizer placed the gathers;
  // AnalyticLoops.cpp).
  bool carried = prog.isRegionBlock && value < prog.numBlockArguments;
  for (auto [k, u] : llvm::enumerate(v.uses)) {
    UsePlan &use = usePlans[v.firstUse + k];
    use.gatherAtDef &= !several && !carried && use.gatherLevel == outermost;
    // A padded return's gather with other readers: not followed.
    if (u.second == -2 && !use.ops.empty() && !use.gatherAtDef)
      unmodeled = true;
  }
  // An argument's tiling loop with one use (dead readers count) is fused
  // into its reader's loop when that loop slices what it tiles first: its
  // gathers run there. (Not through the atomic loop of an argument kept
  // whole on some axes.)
  if (v.defOp < 0 && v.uses.size() == 1 && !v.deadUses &&
      v.uses[0].second >= 0 && !plan.gathers.empty() && !wholeAxes(value)) {
    auto [axis, dim] = plan.gathers.front();
    const ProgramOp &reader = prog.ops[v.uses[0].first];
    for (auto [level, entry] : llvm::enumerate(nests[v.uses[0].first])) {
      auto [readerAxis, factor] = entry;
      int readerDim = reader.operandDim(v.uses[0].second, factor);
      if (readerDim < 0)
        continue;
      if (readerAxis == axis && static_cast<unsigned>(readerDim) == dim) {
        usePlans[v.firstUse].gatherAtDef = false;
        usePlans[v.firstUse].fusedLevel = static_cast<int>(level);
      }
      break;
    }
  }
  // reduce_scatter: every use slices the final all_reduce alike, on
  // exactly its axes (not past a dead reader: scatterOutermostSum).
  if (!plan.steps.empty() && plan.steps.back().kind == StepKind::Reduce &&
      !v.uses.empty() && !v.deadUses) {
    const DimAxes *dims = nullptr;
    bool alike = true;
    for (size_t k = 0; k < v.uses.size() && alike; ++k) {
      const UsePlan &use = usePlans[v.firstUse + k];
      alike = use.level == plan.steps.size() && use.ops.size() == 1 &&
              use.ops[0].kind == StepKind::Slice &&
              (!dims || *dims == use.ops[0].dims);
      // Not past a use with no steps (its ops[0] does not exist).
      if (alike)
        dims = &use.ops[0].dims;
    }
    AxisList reduced = plan.steps.back().dims[0];
    // A padded slice of a sum stays one (reduce_scatter does not pad).
    if (alike && anyPadded &&
        slicePads(value, tilingAt(value, plan.steps.size()), *dims))
      alike = false;
    if (alike && dimsMask(*dims) == listMask(reduced) &&
        llvm::popcount(dimsMask(*dims)) ==
            static_cast<int>(listLength(reduced))) {
      plan.steps.back() = Step{StepKind::ReduceScatter, *dims};
      for (size_t k = 0; k < v.uses.size(); ++k)
        usePlans[v.firstUse + k].ops.clear();
    } else if (listLength(reduced) == 1 && !anyPadded) {
      scatterSumForSlicers(value);
    }
  }

  if (v.defOp >= 0)
    return;
  // Arguments: local when every direct use is a slice with the same dims.
  unsigned arg = value;
  bool sourceRead = false, anySlice = false, alike = true;
  const DimAxes *dims = nullptr;
  bool tiled = !dimsEmpty(plan.sourceTiling);
  for (size_t k = 0; k < v.uses.size(); ++k) {
    const UsePlan &use = usePlans[v.firstUse + k];
    if (use.argSlice) {
      anySlice = true;
      if (dims && *dims != use.argDims)
        alike = false;
      dims = &use.argDims;
    } else {
      sourceRead = true;
    }
  }
  if (v.uses.empty())
    return;
  if (tiled && sourceRead) {
    // The tiling slice itself is a direct use.
    if (anySlice && *dims != plan.sourceTiling)
      alike = false;
    if (alike)
      localArgs[arg] = plan.sourceTiling;
  } else if (!sourceRead && anySlice && alike) {
    localArgs[arg] = *dims;
  }
  if (localArgs[arg])
    keepWhole(arg);
}

AxisMask Evaluation::wholeAxes(unsigned value) const {
  if (prog.isRegionBlock || value >= prog.wholeArguments.size())
    return 0;
  return prog.wholeArguments[value] & ~dimsMask(plans[value].sourceTiling);
}

/// LocalizeBoundary on an argument kept whole on some axes: per dimension
/// the boundary takes the axes before the first kept one, and the readers
/// slice the rest locally (emitUse's slice of the local argument). Padded
/// slices of the argument split level by level (and a padded level stays
/// whole): left to the reference path.
void Evaluation::keepWhole(unsigned arg) {
  AxisMask whole = wholeAxes(arg);
  if (!whole)
    return;
  DimAxes &local = *localArgs[arg];
  bool padded = anyPadded && slicePads(arg, DimAxes(local.size(), 0), local);
  bool split = false;
  for (AxisList &axes : local) {
    AxisList outer = 0;
    for (AxisList rest = axes; rest && !(whole >> ((rest & 0xff) - 1) & 1);
         rest >>= 8)
      outer = listAppend(outer, (rest & 0xff) - 1);
    split |= outer != axes;
    axes = outer;
  }
  if (!split)
    return;
  if (padded) {
    unmodeled = true;
    if (explainUnmodeled())
      llvm::errs() << "unmodeled: argument " << arg
                   << " kept whole on some axes, sliced padded\n";
  }
  if (dimsEmpty(local))
    localArgs[arg].reset();
}

/// Every op's nest (NdaEnvironment::Impl::getNest), from the compact
/// tables: ops that are not ruled, or dead, keep an empty nest.
void Evaluation::findNests() {
  if (fresh) {
    nests.assign(prog.ops.size(), {});
    looped.assign(prog.ops.size(), 0);
  }
  for (auto [k, i] : llvm::enumerate(prog.nestOps)) {
    Nest &nest = nests[i];
    nest.clear();
    for (unsigned j = prog.nestBegin[k]; j < prog.nestBegin[k + 1]; ++j) {
      auto [factor, node] = prog.nestFactors[j];
      for (AxisMask m = state.nodeAxes[node]; m; m &= m - 1)
        nest.push_back({static_cast<unsigned>(llvm::countr_zero(m)), factor});
    }
    if (nest.size() > 1)
      llvm::sort(nest);
    looped[i] = !nest.empty();
  }
}

/// Whether some node's axes do not divide a value dim it names (their
/// product) or a factor it shards (one axis).
bool Evaluation::findPadding() const {
  for (auto [node, mask] : llvm::enumerate(state.nodeAxes)) {
    if (!mask)
      continue;
    // partir::isPadded on every size, as one test on their gcd.
    auto pads = [](uint64_t gcd, int64_t n) {
      uint64_t d = static_cast<uint64_t>(n);
      return (d & (d - 1)) == 0 ? (gcd & (d - 1)) != 0 : gcd % d != 0;
    };
    if (pads(prog.nodeDimGcd[node], axisProduct(mask)))
      return true;
    for (AxisMask m = mask; m; m &= m - 1)
      if (pads(prog.nodeFactorGcd[node], impl.axisSizes[llvm::countr_zero(m)]))
        return true;
  }
  return false;
}

/// A single-result op whose result has one use (dead readers count) is
/// fused into its reader when the reader's first loop slicing that operand
/// is over the same axis and dimension as the op's outermost loop; it then
/// runs at the reader's position (materializeCore, LoopFuser).
void Evaluation::findFusions() {
  if (fresh) {
    fusedInto.assign(prog.ops.size(), -1);
    fusedProducers.assign(prog.ops.size(), {});
    fusedLevels.assign(prog.ops.size(), {});
  } else {
    for (unsigned i : fusedOps) {
      fusedProducers[fusedInto[i]].clear();
      fusedLevels[i].clear();
      fusedInto[i] = -1;
    }
  }
  fusedOps.clear();
  for (unsigned i : prog.nestOps) {
    // The dense records (OpCore, ValueCore, ProgramUse) first: most ops
    // are ruled out before their cold ProgramOp is read.
    if (!looped[i] || prog.cores[i].numResults != 1)
      continue;
    unsigned result = prog.resultsOf(i)[0];
    const ValueCore &v = prog.valueCores[result];
    // A dead reader still blocks the fusion (ProgramValue::deadUses).
    if (v.numUses != 1 || v.deadUses)
      continue;
    const ProgramUse &onlyUse = prog.uses[v.firstUse];
    if (onlyUse.operand < 0)
      continue;
    auto [outerAxis, outerFactor] = nests[i].front();
    int dim = prog.resultFactorDim(result, outerFactor);
    if (dim < 0)
      continue;
    unsigned user = onlyUse.user;
    // A reader without loops slices nothing. No fusion across a loop's
    // boundary (MaterializeCore's guard): its body would run the producer
    // every iteration. (The bytes and the use record, not the reader's
    // cold ProgramOp.)
    if (!looped[user] || prog.cores[i].region >= 0 || onlyUse.userIsLoop)
      continue;
    // The reader's loops that slice this operand, outermost first.
    llvm::SmallVector<std::pair<unsigned, int>, 4> slicing; // (level, dim)
    for (auto [level, entry] : llvm::enumerate(nests[user]))
      if (int d = useDim(v.firstUse, onlyUse.operand, entry.second); d >= 0)
        slicing.push_back({static_cast<unsigned>(level), d});
    if (slicing.empty() || nests[user][slicing[0].first].first != outerAxis ||
        slicing[0].second != dim)
      continue;
    // Inner loops keep fusing level by level while they tile what the next
    // slicing loop slices; the op's body ends up in the deepest one.
    unsigned depth = slicing[0].first;
    fusedLevels[i].push_back(depth);
    for (size_t j = 1; j < slicing.size() && j < nests[i].size(); ++j) {
      auto [axis, factor] = nests[i][j];
      int tiled = std::max(prog.resultFactorDim(result, factor), -1);
      if (axis != nests[user][slicing[j].first].first ||
          tiled != slicing[j].second)
        break;
      depth = slicing[j].first;
      fusedLevels[i].push_back(depth);
    }
    if (traceEnabled())
      llvm::errs() << "analytic: fuse " << i << " " << prog.ops[i].op->getName()
                   << " into " << user << " " << prog.ops[user].op->getName()
                   << " at " << depth << "\n";
    fusedInto[i] = user;
    fusedOps.push_back(i);
    fusedProducers[user].push_back(
        {depth, -onlyUse.operand, static_cast<unsigned>(i)});
  }
}

/// The planner: every op's nest, the chains, the optimizer's patterns
/// and per-use rewrites in program order, then materializeCore's loop
/// fusion.
const CollectivePlan &Evaluation::makePlan() {
  findNests();
  anyPadded = findPadding();
  return planValues();
}

const CollectivePlan &Evaluation::planValues() {
  unmodeled = false;
  resetPlans();
  buildChains();
  localArgs.assign(prog.numArguments, std::nullopt);
  // Planning in program order: a reader's patterns see its operands'
  // plans, and may change them before its own results are planned.
  for (unsigned a = 0; a < prog.numArguments; ++a)
    planValue(a);
  // The dense OpCores, not the ProgramOps (a cache miss per op).
  for (auto [i, p] : llvm::enumerate(prog.cores)) {
    if (p.dead)
      continue;
    applyReductionPatterns(i);
    for (int r : prog.resultsOf(i))
      planValue(r);
  }
#ifdef EXPENSIVE_CHECKS
  for (size_t u = 0; u < usePlans.size(); ++u)
    assert(collectivePlan.plainUses[u] == isPlainUse(usePlans[u]) &&
           "a UsePlan writer did not refresh plainUses");
  // The pricer reads an unlisted value's plan as the reset one
  // (sourceBytes, emitValue, handedOver) without loading it.
  for (size_t v = 0; v < plans.size(); ++v)
    assert((isPlanned[v] || (plans[v].steps.empty() && !plans[v].perUser &&
                             !plans[v].outerSums && !plans[v].scattersOnTop &&
                             dimsEmpty(plans[v].sourceTiling))) &&
           "a ValuePlan writer did not list its value (markPlanned)");
#endif
  findFusions();
  return collectivePlan;
}

/// Where operand k's argument tiling loops fused into op i's loops
/// (materializeCore's LoopFuser): from its first fused level
/// (UsePlan::fusedLevel), inner tiling loops keep fusing while they tile
/// what i's next slicing loop slices. Returns the deepest such level of i
/// and the axes of the tiling loops left, which gather in that body.
static std::pair<unsigned, AxisMask> argumentFusion(const ProgramModel &prog,
                                                    const CollectivePlan &plan,
                                                    unsigned i, unsigned k) {
  const ProgramOp &p = prog.ops[i];
  const auto &gathers = plan.values[p.operands[k]].gathers;
  unsigned depth = plan.uses[p.operandUses[k]].fusedLevel;
  size_t j = 1;
  for (unsigned level = depth + 1;
       level < plan.nests[i].size() && j < gathers.size(); ++level) {
    auto [axis, factor] = plan.nests[i][level];
    int dim = p.operandDim(k, factor);
    if (dim < 0)
      continue;
    if (axis != gathers[j].first ||
        static_cast<unsigned>(dim) != gathers[j].second)
      break;
    depth = level;
    ++j;
  }
  AxisMask left = 0;
  for (; j < gathers.size(); ++j)
    left |= AxisMask(1) << gathers[j].first;
  return {depth, left};
}

/// The level of op i's nest whose body holds the gathers of op i's operand
/// k, an argument whose tiling loop fused into a loop of i, when that body
/// is not i's own and the use gathers every tiling loop left there as it is:
/// they run in that body, before the deeper loop, and the slices of i's
/// deeper loops stay with i. -1 otherwise: in i's own body inputOrder
/// places them, and a gather the reader's slices cancelled in part is a
/// new one right before its reader (the collective optimizer). Also for a
/// masked operand: with one reader the gather is no copy the optimizer
/// moves before the mask's select (examples/mlp.mlir padded on {B:3, M:2}),
/// and for an op with no fused producer (`tree` false).
static int aheadLevel(const ProgramModel &prog, const CollectivePlan &plan,
                      unsigned i, unsigned k, bool tree,
                      llvm::function_ref<bool(unsigned, unsigned)> masked) {
  // A dead op reads nothing (and has no use records). The dense operand
  // slots, not the cold ProgramOp; a plain use has no gathers (its UsePlan
  // is not read: a cache miss).
  if (prog.cores[i].dead)
    return -1;
  int useId = prog.operandUsesOf(i)[k];
  if (prog.operandsOf(i)[k] < 0 || useId < 0 || plan.plainUses[useId])
    return -1;
  const UsePlan &use = plan.uses[useId];
  size_t n = leadingGathers(use);
  // An op alone in its nest: inputOrder places a gather it reads directly
  // (readerIsUser) between its slices, but not one a padding mask reads
  // (inputOrder keeps that operand in operand order, while its gathers
  // still run in the fused argument loop's body: a 9% low peak, found by
  // review).
  if (use.argSlice || use.gatherAtDef || use.fusedLevel < 0 || !n ||
      (!tree && use.readerIsUser && !masked(i, k)))
    return -1;
  auto [depth, left] = argumentFusion(prog, plan, i, k);
  AxisMask gathered = 0;
  for (const Step &step : ArrayRef(use.ops).take_front(n))
    gathered |= dimsMask(step.dims);
  // An all_to_all after them took the outer gathers with the reader's
  // slice (SliceOfGatherToAllToAll reads the inner gather where it is):
  // the inner gathers still run in that body, the all_to_all before i.
  if (n < use.ops.size() && use.ops[n].kind == StepKind::AllToAll)
    gathered |= listMask(use.ops[n].dims[use.ops[n].from]);
  // Outside i's innermost body: the gathers run in the body of that level,
  // ahead of the loop of i's next level and so of i's slices. In the
  // innermost body of a tree too: the argument's loop is prepended there
  // like a producer's, in operand order (a 2.1% low peak, found by review).
  if (gathered != left || (depth + 1 >= plan.nests[i].size() && !tree))
    return -1;
  return static_cast<int>(depth);
}

bool readsFusedArgument(const ProgramModel &prog, const CollectivePlan &plan,
                        unsigned i) {
  // The dense operand slots: the pricer asks this of every op.
  for (int useId : prog.operandUsesOf(i))
    // A plain use fused nothing (its UsePlan is not read: a miss).
    if (useId >= 0 && !plan.plainUses[useId] &&
        plan.uses[useId].fusedLevel >= 0)
      return true;
  return false;
}

/// Per op of a fusion tree, the position of its own step.
using OwnSteps = llvm::SmallDenseMap<unsigned, unsigned, 16>;

/// Appends op i's part of its fusion tree in the order materializeCore's
/// fuser leaves it in each body: a loop fused into one of i's loops is
/// prepended to that loop's body, one fusion after the other in the order
/// of i's slices (operand order), so the highest operand's producer or
/// argument loop comes first; i itself last. A step's level is i's own
/// loop level (orderFusionTree places it in the tree); `ownStep` records
/// where each op's own step is.
static void
collectFusionTree(const ProgramModel &prog, CollectivePlan &plan, unsigned i,
                  std::vector<TreeStep> &emission, OwnSteps &ownStep,
                  llvm::function_ref<bool(unsigned, unsigned)> masked) {
  auto &producers = plan.fusedProducers[i];
  // Highest operand first (the tuple holds minus the operand).
  llvm::sort(producers, [](const auto &a, const auto &b) {
    return std::get<1>(a) < std::get<1>(b);
  });
  bool tree = plan.fusedInto[i] >= 0 || !producers.empty();
  auto *next = producers.begin();
  for (int k = static_cast<int>(prog.cores[i].numOperands) - 1; k >= 0; --k) {
    if (next != producers.end() && -std::get<1>(*next) == k) {
      collectFusionTree(prog, plan, std::get<2>(*next++), emission, ownStep,
                        masked);
      continue;
    }
    int level = aheadLevel(prog, plan, i, k, tree, masked);
    if (level >= 0)
      emission.push_back({static_cast<unsigned>(level), i, k});
  }
  unsigned innermost = plan.nests[i].empty() ? 0 : plan.nests[i].size() - 1;
  ownStep[i] = emission.size();
  emission.push_back({innermost, i, -1});
}

/// Appends where step `s` (op `op` at its own loop `level`) runs in the
/// tree: a path from the root's nest inwards of (loop level, position in
/// that level's body). A fused level of op joins its reader's loop; the
/// levels of op inside the deepest one it fused into are a nest of their
/// own in that body, after what op's fused producers put there (op's own
/// step closes them), so they count as one entry at the position of op's
/// step.
using PathStep = std::pair<unsigned, unsigned>;
static void appendTreePath(const CollectivePlan &plan, const OwnSteps &ownStep,
                           unsigned op, unsigned level, unsigned s,
                           llvm::SmallVectorImpl<PathStep> &paths) {
  size_t begin = paths.size();
  for (int reader = plan.fusedInto[op]; reader >= 0;
       op = reader, reader = plan.fusedInto[op]) {
    const auto &levels = plan.fusedLevels[op];
    if (level < levels.size()) {
      level = levels[level];
      continue;
    }
    paths.push_back({level, s});
    s = ownStep.lookup(op);
    level = levels.back();
  }
  paths.push_back({level, s});
  std::reverse(paths.begin() + begin, paths.end());
}

void orderFusionTree(const ProgramModel &prog, CollectivePlan &plan, unsigned i,
                     std::vector<TreeStep> &emission,
                     llvm::function_ref<bool(unsigned, unsigned)> masked) {
  emission.clear();
  OwnSteps ownStep;
  collectFusionTree(prog, plan, i, emission, ownStep, masked);
  if (emission.size() < 2)
    return;
  // Each level's body runs what fused into it, then the next level's loop:
  // paths compare level first, then position, body by body inwards.
  llvm::SmallVector<PathStep, 32> paths;
  llvm::SmallVector<unsigned, 17> begins;
  for (auto [s, step] : llvm::enumerate(emission)) {
    begins.push_back(paths.size());
    appendTreePath(plan, ownStep, step.op, step.level, s, paths);
  }
  begins.push_back(paths.size());
  auto path = [&](unsigned s) {
    return ArrayRef(paths).slice(begins[s], begins[s + 1] - begins[s]);
  };
  llvm::SmallVector<unsigned, 16> order(emission.size());
  std::iota(order.begin(), order.end(), 0u);
  llvm::sort(order, [&](unsigned a, unsigned b) {
    ArrayRef<PathStep> pa = path(a), pb = path(b);
    return std::lexicographical_compare(pa.begin(), pa.end(), pb.begin(),
                                        pb.end());
  });
  llvm::SmallVector<TreeStep, 16> sorted;
  for (unsigned s : order)
    sorted.push_back(emission[s]);
  emission.assign(sorted.begin(), sorted.end());
}

/// The innermost level of op i's nest that slices operand k, -1 if none:
/// lowering merges the slices of a use into its innermost one.
static int lastSlicingLevel(const ProgramModel &prog,
                            const CollectivePlan &plan, unsigned i,
                            unsigned k) {
  const ProgramOp &p = prog.ops[i];
  int last = -1;
  for (auto [level, entry] : llvm::enumerate(plan.nests[i]))
    if (p.operandDim(k, entry.second) >= 0)
      last = static_cast<int>(level);
  return last;
}

/// Whether two steps are the same collective.
static bool sameStep(const Step &a, const Step &b) {
  return a.kind == b.kind && a.dims == b.dims && a.from == b.from &&
         a.to == b.to;
}

int sharedStartUse(const ProgramModel &prog, const CollectivePlan &plan,
                   unsigned value, unsigned k) {
  const ProgramValue &v = prog.values[value];
  const UsePlan &mine = plan.uses[v.firstUse + k];
  size_t n = stepsAtDef(mine);
  if (!n)
    return -1;
  for (unsigned j = 0; j < k; ++j) {
    const UsePlan &other = plan.uses[v.firstUse + j];
    if (v.uses[j].first == v.uses[k].first && other.level == mine.level &&
        stepsAtDef(other) == n &&
        std::equal(other.ops.begin(), other.ops.begin() + n, mine.ops.begin(),
                   sameStep))
      return static_cast<int>(j);
  }
  return -1;
}

/// Whether operand k of loop op i is an init its loop carries sharded (not
/// a value its regions capture, read whole after the loop's own operands).
static bool isSlicedInit(const ProgramModel &prog, const CollectivePlan &plan,
                         unsigned i, unsigned k) {
  return k < prog.ops[i].operandDims.size() &&
         !dimsEmpty(operandSlicing(prog, plan, i, k));
}

/// Operands `ks` read through gather copies, in the order the optimizer
/// leaves the copies before their reader: its greedy driver visits them
/// bottom-up, so the copy of the value defined last comes first.
static void sortCopies(llvm::MutableArrayRef<unsigned> ks,
                       llvm::ArrayRef<int> operands) {
  llvm::stable_sort(
      ks, [&](unsigned a, unsigned b) { return operands[a] > operands[b]; });
}

/// The reader's slices sit in the bodies of its loop levels, each body
/// starting with the loops fused into it: an argument's tiling loop fused
/// at a level leaves its gather before the slices of that level and deeper
/// (MaterializeCore splices the fused body first). Gather copies the op
/// reads directly come last: the optimizer inserts those right before
/// their reader, one gather after the other as its greedy driver visits
/// them, bottom-up: the copy of the value defined last (lowering gathers
/// right after the producer, arguments' at the start in argument order,
/// the order of value ids) goes first.
llvm::SmallVector<unsigned, 4>
inputOrder(const ProgramModel &prog, const CollectivePlan &plan, unsigned i,
           llvm::function_ref<bool(unsigned)> masked) {
  // The dense operand slots, not the cold ProgramOp (issue 17).
  llvm::ArrayRef<int> operands = prog.operandsOf(i);
  llvm::ArrayRef<int> operandUses = prog.operandUsesOf(i);
  // Fused arguments' gathers by level, then slice-position uses (operand
  // order), then copies.
  llvm::SmallVector<std::pair<int, unsigned>, 2> fused;
  llvm::SmallVector<unsigned, 4> slices, copies, order;
  for (auto [k, v] : llvm::enumerate(operands)) {
    if (v < 0 || operandUses[k] < 0)
      continue;
    // A plain use reads no gather: a slice-position use.
    if (plan.plainUses[operandUses[k]]) {
      slices.push_back(k);
      continue;
    }
    const UsePlan &use = plan.uses[operandUses[k]];
    // A masked operand's gather copy is read by its mask; a loop's sharded
    // init reads what is left of the boundary slice cancelled into the
    // gather, where localizeTiedValues put that slice (operand order).
    if (!use.readerIsUser || use.gatherAtDef || masked(k) ||
        (prog.uses[operandUses[k]].userIsLoop &&
         isSlicedInit(prog, plan, i, k)))
      slices.push_back(k);
    else if (use.fusedLevel >= 0)
      fused.push_back({use.fusedLevel, k});
    else
      copies.push_back(k);
  }
  llvm::stable_sort(fused, llvm::less_first());
  auto *nextFused = fused.begin();
  for (unsigned k : slices) {
    int level = fused.empty() ? -1 : lastSlicingLevel(prog, plan, i, k);
    for (; nextFused != fused.end() && nextFused->first <= level; ++nextFused)
      order.push_back(nextFused->second);
    order.push_back(k);
  }
  for (; nextFused != fused.end(); ++nextFused)
    order.push_back(nextFused->second);
  sortCopies(copies, operands);
  order.append(copies.begin(), copies.end());
  return order;
}

/// The gather copy before op i that its operand k reads: GatherPerUser
/// copies a gather once per op reading it, however many of its operands
/// read it directly (Adam's g * g).
int sharedCopy(const ProgramModel &prog, const CollectivePlan &plan, unsigned i,
               unsigned k, llvm::function_ref<bool(unsigned)> masked) {
  // The return reads each operand on its own (the boundary's gathers).
  if (prog.cores[i].isReturn)
    return -1;
  llvm::ArrayRef<int> operands = prog.operandsOf(i);
  llvm::ArrayRef<int> operandUses = prog.operandUsesOf(i);
  auto copied = [&](unsigned j) {
    // A plain use reads no gather (its UsePlan is not read: a miss).
    if (operands[j] < 0 || operandUses[j] < 0 || plan.plainUses[operandUses[j]])
      return false;
    const UsePlan &use = plan.uses[operandUses[j]];
    return use.readerIsUser && !use.gatherAtDef && !use.ops.empty() &&
           !masked(j);
  };
  if (!copied(k))
    return -1;
  const UsePlan &mine = plan.uses[operandUses[k]];
  for (unsigned j = 0; j < k; ++j) {
    if (operands[j] != operands[k] || !copied(j))
      continue;
    const UsePlan &other = plan.uses[operandUses[j]];
    if (other.level == mine.level && llvm::equal(other.ops, mine.ops, sameStep))
      return static_cast<int>(j);
  }
  return -1;
}

/// Whether operand k of loop op i reads its init through leading gathers
/// of its own (not at the producer, not through a mask): a gather the
/// optimizer copies once for the loop (GatherPerUser counts a boundary
/// slice as its loop).
static size_t ownLoopGathers(const ProgramModel &prog,
                             const CollectivePlan &plan, unsigned i, unsigned k,
                             llvm::function_ref<bool(unsigned)> masked) {
  int value = prog.operandsOf(i)[k], useId = prog.operandUsesOf(i)[k];
  if (value < 0 || useId < 0 || !prog.uses[useId].userIsLoop ||
      plan.plainUses[useId] || masked(k))
    return 0;
  const UsePlan &use = plan.uses[useId];
  if (use.argSlice || use.gatherAtDef)
    return 0;
  return leadingGathers(use);
}

llvm::SmallVector<int, 4>
loopGatherLeaders(const ProgramModel &prog, const CollectivePlan &plan,
                  unsigned i, llvm::ArrayRef<unsigned> order,
                  llvm::function_ref<bool(unsigned)> masked) {
  llvm::ArrayRef<int> operands = prog.operandsOf(i);
  llvm::SmallVector<int, 4> leaders(operands.size(), -1);
  llvm::ArrayRef<int> operandUses = prog.operandUsesOf(i);
  for (auto [at, k] : llvm::enumerate(order)) {
    size_t n = ownLoopGathers(prog, plan, i, k, masked);
    if (!n)
      continue;
    const UsePlan &mine = plan.uses[operandUses[k]];
    for (unsigned j : order.take_front(at)) {
      const UsePlan &other = plan.uses[operandUses[j]];
      // A follower's leader came first and matched already.
      if (operands[j] != operands[k] ||
          (leaders[j] >= 0 && leaders[j] != static_cast<int>(j)))
        continue;
      if (ownLoopGathers(prog, plan, i, j, masked) != n ||
          other.level != mine.level ||
          !llvm::equal(llvm::ArrayRef(other.ops).take_front(n),
                       llvm::ArrayRef(mine.ops).take_front(n), sameStep))
        continue;
      leaders[j] = static_cast<int>(j);
      leaders[k] = static_cast<int>(j);
      break;
    }
  }
  return leaders;
}

llvm::SmallVector<unsigned, 4>
loopCopiesAhead(const ProgramModel &prog, const CollectivePlan &plan,
                unsigned i, llvm::ArrayRef<unsigned> order,
                llvm::ArrayRef<int> leaders,
                llvm::function_ref<bool(unsigned)> masked) {
  llvm::SmallVector<unsigned, 4> ahead;
  llvm::ArrayRef<int> operandUses = prog.operandUsesOf(i);
  llvm::ArrayRef<int> operands = prog.operandsOf(i);
  for (unsigned k : order) {
    // A block argument's gather sits right before its first reader, the
    // slice (sinkGathersOfCarries), not ahead of the other inits' slices.
    // The loop's own operands only: captured values come after them.
    if (leaders[k] >= 0 || k >= prog.ops[i].operandDims.size() ||
        operands[k] < static_cast<int>(prog.numBlockArguments))
      continue;
    // A sliced init's copy with its slice after it, or the copy an init
    // left global reads as it is (the review of session 26's c013: it came
    // after the other init's copy and slice, 12 B of peak).
    size_t n = ownLoopGathers(prog, plan, i, k, masked);
    if (n && (plan.uses[operandUses[k]].ops.size() > n ||
              !isSlicedInit(prog, plan, i, k)))
      ahead.push_back(k);
  }
  sortCopies(ahead, operands);
  return ahead;
}

} // namespace toast::search::analytic
