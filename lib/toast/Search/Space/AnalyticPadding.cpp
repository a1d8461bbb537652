//===- AnalyticPadding.cpp - Padded tilings in the analytic cost ----------===//
//
// A dimension of size n tiled over an axis of size k that does not divide
// it holds ceil(n / k) rows per device (docs/dialects.md). Three things
// change for the analytic cost (docs/search.md, "Padded states"):
//
//  * local buffers and work are the padded chunks' (Evaluation::bytesOf,
//    emitOp);
//  * lowering zeroes the padding of every operand of a sum reduction over
//    a padded factor (Partition/PaddingMask): per operand and padded level
//    a hoisted validity vector, its all_slice, a broadcast, a hoisted zero
//    tile and a select, priced here op by op as the simulator sees them;
//  * the collective optimizer leaves padded collectives unfused: a padded
//    slice and gather cancel only when they are equal, and padded slices,
//    gathers and reductions never merge, regroup or become reduce_scatter
//    or all_to_all. The planner follows the cases where the result is the
//    divisible plan's (level-by-level cancellation, single-level
//    collectives); for the others it says the state is unmodeled and the
//    state is priced by the reference path (NdaEnvironment::Impl::price).
//
//===----------------------------------------------------------------------===//

#include "Evaluation.h"

#include "toast/Dialect/PartIR/Core/IR/PartIRCore.h"

using namespace mlir;

namespace toast::search::analytic {

bool Evaluation::isPaddedDim(unsigned value, size_t dim, AxisList axes) const {
  int64_t tiles = axisProduct(listMask(axes));
  return tiles > 1 && partir::isPadded(prog.values[value].shape[dim], tiles);
}

bool Evaluation::hasPaddedDim(unsigned value, const DimAxes &tiling) const {
  for (auto [d, axes] : llvm::enumerate(tiling))
    if (isPaddedDim(value, d, axes))
      return true;
  return false;
}

bool Evaluation::slicePads(unsigned value, const DimAxes &tiling,
                           const DimAxes &dims) const {
  for (auto [d, axes] : llvm::enumerate(dims))
    if (axes && isPaddedDim(value, d, listConcat(tiling[d], axes)))
      return true;
  return false;
}

bool Evaluation::paddedLevels(
    unsigned value, ArrayRef<std::pair<unsigned, unsigned>> levels) const {
  return levels.size() > 1 && llvm::any_of(levels, [&](auto level) {
           return isPaddedDim(value, level.second, listAppend(0, level.first));
         });
}

bool Evaluation::stepPads(unsigned value, const DimAxes &fine,
                          const DimAxes &dims) const {
  for (auto [d, axes] : llvm::enumerate(dims)) {
    if (!axes)
      continue;
    int64_t size = prog.values[value].shape[d];
    int64_t small = partir::chunkSize(size, axisProduct(listMask(fine[d])));
    int64_t large = partir::chunkSize(
        size, axisProduct(listMask(listDropSuffix(fine[d], axes))));
    if (small * axisProduct(listMask(axes)) != large)
      return true;
  }
  return false;
}

/// One rewrite of --partir-optimize-collectives on the adjacent steps `a`
/// then `b` of a use's chain, `tiling` before `a` (OptimizeCollectives.cpp:
/// MergeGathers, MergeSlices, CancelSliceOfGather, SliceOfGatherToAllToAll,
/// none of which touches a padded collective but the exact cancellation).
/// Appends what replaces the pair to `out`; false when nothing applies.
bool Evaluation::rewritePair(unsigned value, const DimAxes &tiling,
                             const Step &a, const Step &b,
                             llvm::SmallVectorImpl<Step> &out) const {
  if (a.kind == StepKind::AllToAll || b.kind == StepKind::AllToAll ||
      (a.kind == StepKind::Slice && b.kind == StepKind::Gather))
    return false;
  DimAxes middle = applyStep(a, tiling);
  DimAxes end = applyStep(b, middle);
  bool padded =
      stepPads(value, a.kind == StepKind::Gather ? tiling : middle, a.dims) ||
      stepPads(value, b.kind == StepKind::Gather ? middle : end, b.dims);
  DimAxes dims(tiling.size(), 0);
  if (a.kind == b.kind) {
    if (padded)
      return false;
    // The outer gather's axes are major; the first slice's axes are.
    for (size_t d = 0; d < dims.size(); ++d)
      dims[d] = a.kind == StepKind::Gather ? listConcat(b.dims[d], a.dims[d])
                                           : listConcat(a.dims[d], b.dims[d]);
    out.push_back({a.kind, std::move(dims)});
    return true;
  }
  // A slice of a gather.
  if (dimsIsPrefix(b.dims, a.dims)) {
    DimAxes rest = dimsDropPrefix(b.dims, a.dims);
    if (dimsEmpty(rest))
      return true;
    if (padded)
      return false;
    out.push_back({StepKind::Gather, std::move(rest)});
    return true;
  }
  if (padded)
    return false;
  if (dimsIsPrefix(a.dims, b.dims)) {
    out.push_back({StepKind::Slice, dimsDropPrefix(a.dims, b.dims)});
    return true;
  }
  int sd = onlyDim(b.dims), gd = onlyDim(a.dims);
  if (sd < 0 || gd < 0 || sd == gd || b.dims[sd] != a.dims[gd])
    return false;
  Step a2a{StepKind::AllToAll, a.dims, gd, sd};
  a2a.dims[sd] = b.dims[sd];
  out.push_back(std::move(a2a));
  return true;
}

/// Rewrites `chain`, steps of `value` from `tiling` on, pair by pair from
/// the reader up (the greedy driver visits bottom-up) until nothing applies:
/// what is left are the ops the collective optimizer leaves.
void Evaluation::rewriteChain(unsigned value, const DimAxes &tiling,
                              llvm::SmallVectorImpl<Step> &chain) const {
  for (size_t i = chain.size(); i >= 2;) {
    DimAxes before = tiling;
    for (size_t j = 0; j + 2 < i; ++j)
      before = applyStep(chain[j], before);
    llvm::SmallVector<Step, 1> replaced;
    if (!rewritePair(value, before, chain[i - 2], chain[i - 1], replaced)) {
      --i;
      continue;
    }
    chain.erase(chain.begin() + i - 2, chain.begin() + i);
    chain.insert(chain.begin() + i - 2, replaced.begin(), replaced.end());
    // Start over from the reader: the new op's reader may now match.
    i = chain.size();
  }
}

/// The slices a reader of a reduce_scatter on top (planUse: one slice of
/// the rest of its slicing) takes as the optimizer leaves them: one per
/// level of `levels` past the scatter, merged where no side pads
/// (MergeSlices does not merge a padded slice; firstSlicesMeetSum's readers
/// slice a padded dimension after the sum's axis).
void Evaluation::splitScatteredRest(
    unsigned value, unsigned k,
    ArrayRef<std::pair<unsigned, unsigned>> levels) {
  UsePlan &use = usePlans[prog.values[value].firstUse + k];
  if (use.ops.size() != 1)
    return;
  DimAxes tiling = tilingAt(value, plans[value].steps.size());
  DimAxes skip = tiling;
  size_t rank = tiling.size();
  llvm::SmallVector<Step, 4> chain;
  for (auto [axis, dim] : levels) {
    if (skip[dim]) {
      skip[dim] >>= 8;
      continue;
    }
    chain.push_back({StepKind::Slice, DimAxes(rank, 0)});
    chain.back().dims[dim] = listAppend(0, axis);
  }
  if (chain.size() < 2)
    return;
  rewriteChain(value, tiling, chain);
  use.ops.assign(chain.begin(), chain.end());
}

/// Re-plans use `k` of `value` as the collective optimizer leaves its
/// padded chain: the value's gathers one per level (innermost first), the
/// reader's slices one per level (outermost first), rewritten pair by pair
/// from the reader up (the greedy driver visits bottom-up) until nothing
/// applies. What is left is the use's ops; the leading gathers stay after
/// the producer when it is the only reader (GatherPerUser copies them
/// otherwise, innermost first, right before the reader). False when the
/// use is not one the chain describes: a shared chain below it other than
/// sums, an even slice on a summed axis left (it may become a
/// reduce_scatter), or an argument with one reader (its tiling loop may
/// fuse into the reader's). A loop region's values are replanned alike:
/// its ops' slices and gathers are the entry's (its carried arguments,
/// gathered right before their readers, do not get this far).
bool Evaluation::replanPaddedUse(unsigned value, unsigned k,
                                 ArrayRef<std::pair<unsigned, unsigned>> levels,
                                 const char *why) {
  const ProgramValue &v = prog.values[value];
  const ValuePlan &plan = plans[value];
  UsePlan &use = usePlans[v.firstUse + k];
  // A use after the value's shared sums reads their result as the others
  // do (the all_reduces move before the gathers, ReduceBeforeGather).
  AxisMask summed = 0;
  bool afterSums = llvm::all_of(plan.steps, [&](const Step &step) {
    summed |= dimsMask(step.dims);
    return step.kind == StepKind::Reduce;
  });
  // An argument read by several ops is local at its tiling and gathered at
  // the start, as a result is after its producer; with one reader its
  // tiling loop may fuse into the reader's (fusedLevel): not followed.
  bool fusable = v.defOp < 0 && v.uses.size() < 2;
  if (fusable || !afterSums || plan.scattersOnTop || use.argSlice ||
      use.level != plan.steps.size()) {
    if (explainUnmodeled())
      llvm::errs() << "padded chain not replanned: "
                   << (fusable              ? "an argument with one reader"
                       : !afterSums         ? "a shared chain"
                       : plan.scattersOnTop ? "a reduce_scatter on top"
                       : use.argSlice       ? "an argument slice"
                                            : "a shared level")
                   << "\n";
    return false;
  }
  size_t rank = v.shape.size();
  auto level = [&](StepKind kind, unsigned axis, unsigned dim) {
    Step step{kind, DimAxes(rank, 0)};
    step.dims[dim] = listAppend(0, axis);
    return step;
  };
  llvm::SmallVector<Step, 8> chain;
  if (plan.perUser)
    for (auto [axis, dim] : llvm::reverse(plan.gathers))
      chain.push_back(level(StepKind::Gather, axis, dim));
  for (auto [axis, dim] : levels)
    chain.push_back(level(StepKind::Slice, axis, dim));
  rewriteChain(value, plan.sourceTiling, chain);
  // The reader's first slice, even and on the last all_reduce's one axis,
  // meets it: the pair becomes a reduce_scatter, and the padded slices
  // after it stay (a torch-mlir DETR convolution read with channels on B
  // and a padded height on M). For the value's one reader only: the
  // all_reduce is shared.
  if (!chain.empty() && chain.front().kind == StepKind::Slice &&
      v.uses.size() == 1 && !v.deadUses && !plan.steps.empty()) {
    const Step &sum = plan.steps.back();
    const Step &slice = chain.front();
    DimAxes before = tilingAt(value, plan.steps.size());
    if (listLength(sum.dims[0]) == 1 &&
        dimsMask(slice.dims) == listMask(sum.dims[0]) &&
        !stepPads(value, applyStep(slice, before), slice.dims)) {
      // No undo if a check below refuses the chain: the state is then
      // unmodeled and its plan thrown away (the reference path prices it).
      plans[value].steps.back() = Step{StepKind::ReduceScatter, slice.dims};
      summed &= ~dimsMask(slice.dims);
      chain.erase(chain.begin());
    }
  }
  // An even slice on a summed axis that lowering puts right after the
  // all_reduce meets it and may become a reduce_scatter (with the other
  // readers' slices): not followed (a t2b state with the vocabulary on M
  // was 1.2% off; readers whose first slices do meet a sum with a padded
  // tile inside it are planned by firstSlicesMeetSum). A slice before it
  // in the chain separates the two, and so does the gather of the
  // outermost tile for the sums inside it: lowering sums inside the tile
  // level and gathers after (a torch-mlir DETR convolution with channels
  // on B and summed over M, its reader slicing a padded height on B). The
  // tiles inside a sum are gathered before its all_reduce and separate
  // nothing (a dead reader keeps firstSlicesMeetSum away: 1.75x high).
  AxisMask outerSummed = 0;
  for (const Step &step : ArrayRef(plan.steps).take_back(plan.outerSums))
    outerSummed |= dimsMask(step.dims);
  AxisMask outerTile =
      plan.gathers.empty() ? 0 : AxisMask(1) << plan.gathers.front().first;
  AxisMask open = summed;
  DimAxes tiling = tilingAt(value, plan.steps.size());
  for (const Step &step : chain) {
    tiling = applyStep(step, tiling);
    if (step.kind != StepKind::Slice) {
      if (dimsMask(step.dims) & outerTile)
        open &= outerSummed;
      continue;
    }
    if ((dimsMask(step.dims) & open) && !stepPads(value, tiling, step.dims)) {
      if (explainUnmodeled())
        llvm::errs() << "padded chain not replanned: an even slice on a "
                        "summed axis\n";
      return false;
    }
    open = 0;
  }
  use.ops.assign(chain.begin(), chain.end());
  // The outermost gather level still read: the first level whose axis a
  // gather left holds.
  AxisMask gathered = 0;
  bool gathersOnly = !chain.empty();
  for (const Step &step : chain) {
    if (step.kind == StepKind::Gather)
      gathered |= dimsMask(step.dims);
    gathersOnly &= step.kind == StepKind::Gather;
  }
  use.gatherLevel.reset();
  for (auto [j, entry] : llvm::enumerate(plan.gathers))
    if (gathered >> entry.first & 1) {
      use.gatherLevel = j;
      break;
    }
  use.gatherAtDef = !chain.empty() && chain.front().kind == StepKind::Gather;
  use.readerIsUser = gathersOnly;
  if (explainUnmodeled()) {
    // What the state was unmodeled for before, and the ops kept (kind:
    // 0 gather, 3 all_to_all, 4 slice; axes per dim).
    llvm::errs() << "padded chain: " << why << " (value " << value << ", use "
                 << k << ") ops";
    for (const Step &step : chain) {
      llvm::errs() << " " << static_cast<int>(step.kind) << "[";
      for (AxisList l : step.dims)
        llvm::errs() << l << ",";
      llvm::errs() << "]";
    }
    llvm::errs() << "\n";
  }
  return true;
}

llvm::SmallVector<std::pair<unsigned, unsigned>, 4>
Evaluation::slicingLevels(unsigned op, unsigned operand) const {
  llvm::SmallVector<std::pair<unsigned, unsigned>, 4> levels;
  const auto &dims = prog.ops[op].operandDims[operand];
  for (auto [axis, factor] : nests[op])
    for (auto [d, f] : llvm::enumerate(dims))
      if (f == static_cast<int64_t>(factor))
        levels.push_back({axis, static_cast<unsigned>(d)});
  return levels;
}

/// Marks the state unmodeled when use `k` of `value` meets padded
/// collectives the optimizer treats otherwise than the divisible plan.
void Evaluation::checkPaddedUse(unsigned value, unsigned k) {
  const ProgramValue &v = prog.values[value];
  // A dim the whole mesh divides is divided by every product of its axes:
  // most values of a state with padding cannot pad (5% of full-size
  // U-Net's search CPU went to finding that out level by level).
  int64_t devices = impl.numDevices();
  if (llvm::all_of(v.shape, [&](int64_t n) { return n % devices == 0; }))
    return;
  const ValuePlan &plan = plans[value];
  const UsePlan &use = usePlans[v.firstUse + k];
  auto [op, operand] = v.uses[k];
  llvm::SmallVector<std::pair<unsigned, unsigned>, 4> levels;
  DimAxes slicing(v.shape.size(), 0);
  if (operand >= 0)
    levels = slicingLevels(op, operand);
  for (auto [axis, d] : levels)
    slicing[d] = listAppend(slicing[d], axis);
  if (!hasPaddedDim(value, plan.sourceTiling) && !hasPaddedDim(value, slicing))
    return;
  auto padded = [&](ArrayRef<std::pair<unsigned, unsigned>> list) {
    return paddedLevels(value, list);
  };
  auto fail = [&](const char *why) {
    unmodeled = true;
    if (explainUnmodeled()) {
      llvm::errs() << "unmodeled: " << why << " (value " << value << ", use "
                   << k << ") shape";
      for (int64_t n : v.shape)
        llvm::errs() << " " << n;
      llvm::errs() << " gathers";
      for (auto [a, d] : plan.gathers)
        llvm::errs() << " " << a << "@" << d;
      llvm::errs() << " levels";
      for (auto [a, d] : levels)
        llvm::errs() << " " << a << "@" << d;
      llvm::errs() << " ops";
      for (const Step &st : use.ops) {
        llvm::errs() << " " << static_cast<int>(st.kind) << "[";
        for (AxisList l : st.dims)
          llvm::errs() << l << ",";
        llvm::errs() << "]";
      }
      llvm::errs() << "\n";
    }
  };
  // The boundary makes every level of a tiled argument device-local and
  // returns every gathered level local (LocalizeBoundary): nothing padded
  // is left at either end.
  if (operand == -2)
    return;
  // A reduce_scatter on top of one gather level: no padded collective
  // to regroup (scatterOutermostSum leaves padded slices alone).
  if (plan.scattersOnTop) {
    if (padded(plan.gathers))
      fail("reduce_scatter over several gather levels");
    else if (operand >= 0)
      splitScatteredRest(value, k, levels);
    return;
  }
  if (llvm::any_of(use.ops, [](const Step &step) {
        return step.kind == StepKind::AllToAll;
      }))
    return replanPaddedUse(value, k, levels, "all_to_all") ? void()
                                                           : fail("all_to_all");
  // Padded slices and gathers cancel only when equal: level by level,
  // outermost first.
  ArrayRef<std::pair<unsigned, unsigned>> gathers =
      plan.perUser ? ArrayRef(plan.gathers)
                   : ArrayRef<std::pair<unsigned, unsigned>>();
  size_t g = 0, l = 0;
  while (g < gathers.size() && l < levels.size() && gathers[g] == levels[l])
    ++g, ++l;
  size_t cancelled = gathers.size();
  if (plan.perUser && (dimsEmpty(slicing) || use.gatherLevel))
    cancelled = use.gatherLevel.value_or(0);
  if (cancelled != g)
    return replanPaddedUse(value, k, levels,
                           "slices cancel other levels than the plan")
               ? void()
               : fail("slices cancel other levels than the plan");
  ArrayRef<std::pair<unsigned, unsigned>> restGathers = gathers.drop_front(g);
  ArrayRef<std::pair<unsigned, unsigned>> restLevels =
      ArrayRef(levels).drop_front(l);
  // One gather and one slice left stay two collectives, as in the plan,
  // whatever reads them (in-place updates and reduces through a mask
  // disagreed by up to 9e-8 of a tiny GNS step until masked readers were
  // told apart, Evaluation::isFusedResult).
  bool gatherThenSlice = restGathers.size() == 1 && restLevels.size() == 1 &&
                         use.ops.size() == 2 &&
                         use.ops[0].kind == StepKind::Gather &&
                         use.ops[1].kind == StepKind::Slice;
  // Otherwise a gather and a slice left over, or several levels of either
  // that would merge if they did not pad.
  const char *left = !restGathers.empty() && !restLevels.empty()
                         ? "gather and slice left over"
                     : padded(restGathers) ? "several gathers left"
                                           : "several slices left";
  if (((!restGathers.empty() && !restLevels.empty() && !gatherThenSlice) ||
       padded(restGathers) || padded(restLevels)) &&
      !replanPaddedUse(value, k, levels, left))
    return fail(left);
  if (use.argSlice) {
    // The argument's own tiling slices merge with the use's.
    llvm::SmallVector<std::pair<unsigned, unsigned>, 4> all;
    for (auto [d, axes] : llvm::enumerate(use.argDims))
      for (AxisList rest = axes; rest; rest >>= 8)
        all.push_back({static_cast<unsigned>((rest & 0xff) - 1),
                       static_cast<unsigned>(d)});
    if (padded(all))
      return fail("argument slice over several levels");
  }
}

llvm::SmallVector<std::pair<unsigned, unsigned>, 1>
maskedLevels(const ProgramModel &prog, const CollectivePlan &plan,
             llvm::ArrayRef<int64_t> axisSizes, unsigned i, unsigned k) {
  llvm::SmallVector<std::pair<unsigned, unsigned>, 1> levels;
  // An op without loops has no level (the byte, not its cold ProgramOp).
  if (!plan.anyPadded || !plan.looped[i])
    return levels;
  const ProgramOp &p = prog.ops[i];
  if (k >= p.operandDims.size())
    return levels;
  for (auto [axis, factor] : plan.nests[i]) {
    if (!p.factorReduction[factor] ||
        !partir::isPadded(p.factorSize[factor], axisSizes[axis]))
      continue;
    for (auto [d, f] : llvm::enumerate(p.operandDims[k]))
      if (f == static_cast<int64_t>(factor))
        levels.push_back({axis, static_cast<unsigned>(d)});
  }
  return levels;
}

llvm::SmallVector<std::pair<unsigned, unsigned>, 1>
Evaluation::maskedLevels(unsigned i, unsigned k) const {
  return analytic::maskedLevels(prog, collectivePlan, impl.axisSizes, i, k);
}

/// The validity vectors and zero tiles of every mask, hoisted to the
/// function start and deduplicated like the constants they are, also with
/// the entry's own (ProgramModel::validityConstants, zeroConstants).
void Evaluation::emitMaskConstants() {
  validityBuffers.clear();
  zeroBuffers.clear();
  if (!anyPadded)
    return;
  for (auto [i, p] : llvm::enumerate(prog.ops)) {
    if (p.dead || !p.ruled)
      continue;
    for (auto [k, v] : llvm::enumerate(p.operands)) {
      auto levels = maskedLevels(i, k);
      if (levels.empty() || v < 0)
        continue;
      DimAxes tiling = useSlicing(i, k);
      for (auto [axis, d] : levels) {
        int64_t n = impl.axisSizes[axis];
        int64_t size = prog.values[v].shape[d];
        std::pair<int64_t, int64_t> key{n * partir::chunkSize(size, n), size};
        auto [it, added] = validityBuffers.try_emplace(key, buffers.size());
        if (!added)
          continue;
        if (auto c = prog.validityConstants.find(key);
            c != prog.validityConstants.end()) {
          it->second = sourceBuffers[c->second];
          continue;
        }
        newBuffer(key.first); // i1: one byte per element
        ++at;
      }
      Type element = getElementTypeOrSelf(p.op->getOperand(k).getType());
      std::pair<llvm::SmallVector<int64_t, 4>, const void *> key{
          localShape(v, tiling), element.getAsOpaquePointer()};
      auto [zero, added] = zeroBuffers.try_emplace(key, buffers.size());
      if (added)
        if (auto c = prog.zeroConstants.find(key);
            c != prog.zeroConstants.end()) {
          zero->second = sourceBuffers[c->second];
          added = false;
        }
      if (added) {
        // A zero tile is a splat constant: of more than one element, it
        // fuses into the mask selects that read it (sim::getFusionKind),
        // stored only without fusion.
        int b = newBuffer(bytesOf(v, tiling));
        int64_t elements = 1;
        for (int64_t size : key.first)
          elements *= size;
        // In a loop region it is hoisted out of the body: read across the
        // region's boundary, it is stored (AnalyticLoops.cpp).
        if (fusion && elements > 1 && !prog.isRegionBlock)
          setFused(b, {});
        ++at;
      }
    }
  }
}

/// Prices a materialized mask op writing `buffer` and reading `inputs`.
double Evaluation::materialize(int buffer, ArrayRef<int> inputs) {
  double traffic = readInputs(inputs) + buffers[buffer].bytes;
  double time = memoryBound ? traffic / impl.device.memoryBandwidth : 0;
  cost.computeTime += time;
  return time;
}

/// Operand k of op i, read through the masks of its padded reduction
/// levels: per level the validity all_slice (copySlice), its broadcast and the
/// select, which the op or the next select reads. A gather copy the op
/// reads directly goes right before the first select (its reader).
int Evaluation::emitMaskedUse(unsigned i, unsigned k) {
  const ProgramOp &p = prog.ops[i];
  unsigned value = p.operands[k];
  unsigned useId = p.operandUses[k];
  const UsePlan &use = usePlans[useId];
  bool copy = use.readerIsUser && !use.gatherAtDef;
  int tile = copy ? -1 : emitUse(value, useId);
  DimAxes tiling = useSlicing(i, k);
  int64_t tileBytes = bytesOf(value, tiling);
  int64_t elements =
      tileBytes / std::max<int64_t>(prog.values[value].elementBytes, 1);
  Type element = getElementTypeOrSelf(p.op->getOperand(k).getType());
  int zero =
      zeroBuffers.at({localShape(value, tiling), element.getAsOpaquePointer()});
  auto levels = maskedLevels(i, k);
  for (auto [l, level] : llvm::enumerate(levels)) {
    auto [axis, d] = level;
    int64_t n = impl.axisSizes[axis];
    int64_t size = prog.values[value].shape[d];
    int64_t chunk = partir::chunkSize(size, n);
    int valid = validityBuffers.at({n * chunk, size});
    int sliced = copySlice(valid, chunk);
    ++at;
    sim::FusionReader select{prog.maskSelect, elements};
    int pred = newBuffer(elements);
    if (fusion && sim::isFusedIntoReaders(
                      prog.maskBroadcast, elements, select,
                      [&] { return peekInputBytes({sliced}, -1, 0); },
                      static_cast<double>(elements))) {
      setFused(pred, {sliced});
    } else {
      materialize(pred, {sliced});
    }
    ++at;
    if (l == 0 && copy)
      tile = emitUse(value, useId);
    sim::FusionReader reader{
        l + 1 < levels.size() ? prog.maskSelect : p.op,
        l + 1 < levels.size()
            ? elements
            : (p.results.empty() ? 0 : localElements(p.results[0]))};
    int masked = newBuffer(tileBytes);
    if (fusion && sim::isFusedIntoReaders(
                      prog.maskSelect, elements, reader,
                      [&] {
                        return peekInputBytes({pred, tile, zero}, -1, 0);
                      },
                      static_cast<double>(tileBytes))) {
      setFused(masked, {pred, tile, zero});
    } else {
      materialize(masked, {pred, tile, zero});
    }
    if (traceEnabled())
      llvm::errs() << "analytic: mask of operand " << k << " at " << at
                   << (buffers[masked].fused ? " fused" : "") << "\n";
    ++at;
    tile = masked;
  }
  setUseTiling(std::move(tiling));
  return tile;
}

} // namespace toast::search::analytic
