//===- AnalyticCost.cpp - The simulator's numbers from a search state -----===//
//
// Prices a state without building IR: what materializeCore,
// --partir-lower-to-hlo and --partir-optimize-collectives would produce is
// derived symbolically per value, then timed and swept for peak memory as
// the simulator does (one stream: step time = compute + communication;
// peak = max over the trace of the live device-local buffers).
//
// Per value, lowering yields a *chain* at the definition: one all_gather
// (#tile) or all_reduce (#sum) per level of the defining op's nest,
// innermost first, the outermost all_gather copied per user. The
// optimizer then (in this model, in this order):
//  * moves all_reduces before all_gathers and merges single-use gathers;
//  * per user, cancels the user's slices against the gathers (prefix
//    rules), forms all_to_all, keeps gather + slice otherwise;
//  * forms reduce_scatter where every user slices an all_reduce alike;
//  * sinks all_reduces through transpose/reshape and merges the sum
//    all_reduces of an add, when those ops are not partitioned;
//  * makes arguments device-local when every use slices them alike, and
//    drops the gather feeding the return.
// Every op is then fused or priced as the simulator's defaults say
// (toast/Simulator/Fusion.h): a value is fused when every reader reads the
// local result directly (no collective or slice in between) and the rule
// allows it; a materialized op takes the roofline of its FLOPs and the
// bytes of what it reads (through its fused operands) and writes. An
// all_slice is the dynamic-slice XLA makes of it (emitSlice): a fusion
// reader of the value it slices, whose fusion writes the slice, or a view
// of a contiguous block of an argument.
//
//===----------------------------------------------------------------------===//

#include "Evaluation.h"

#include "toast/Dialect/PartIR/Core/IR/PartIRCore.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace toast::search::analytic {

void Evaluation::price(const Step &step, int64_t operandBytes,
                       int64_t resultBytes) {
  sim::CollectiveKind kind = sim::CollectiveKind::AllGather;
  AxisMask axes = dimsMask(step.dims);
  double bytes = operandBytes;
  switch (step.kind) {
  case StepKind::Gather:
    // What the devices send: whole (padded) chunks, as the simulator.
    kind = sim::CollectiveKind::AllGather;
    bytes = static_cast<double>(operandBytes) * axisProduct(axes);
    break;
  case StepKind::Reduce:
    kind = sim::CollectiveKind::AllReduce;
    break;
  case StepKind::ReduceScatter:
    kind = sim::CollectiveKind::ReduceScatter;
    break;
  case StepKind::AllToAll:
    kind = sim::CollectiveKind::AllToAll;
    axes = listMask(step.dims[step.to]);
    break;
  case StepKind::Slice:
    return;
  }
  sim::CollectiveCost c = sim::ringCollectiveCost(kind, axisProduct(axes),
                                                  bytes, impl.maskLinks[axes]);
  cost.commTime += c.time;
  ++cost.collectiveCounts[static_cast<unsigned>(kind)];
  if (traceEnabled())
    llvm::errs() << "analytic: " << sim::getCollectiveKindName(kind) << " axes "
                 << axes << " bytes " << bytes << " value " << currentValue
                 << " def "
                 << (prog.values[currentValue].defOp >= 0
                         ? prog.ops[prog.values[currentValue].defOp]
                               .op->getName()
                               .getStringRef()
                         : StringRef("arg"))
                 << " at " << at << " user " << currentUser << "\n";
}

/// Materializes the live shared levels of `value` at the current position
/// (`source`: the buffer of the defining op's local result).
void Evaluation::emitValue(unsigned value, int source) {
  currentValue = value;
  const ValuePlan &plan = plans[value];
  const ValueCore &v = prog.valueCores[value];
  // Most results have no chain: every reader reads the source (per-use
  // gathers at the definition come from perUser only). A value the plan
  // did not list has none (its ValuePlan is not read: a cache miss).
  if (v.defOp >= 0 &&
      (!isPlanned[value] || (plan.steps.empty() && !plan.perUser))) {
    sourceBuffers[value] = source;
    return;
  }
  // Likewise an argument the plan did not list: read whole from the
  // argument buffer, no chain, every use plain (resetPlans).
  if (v.defOp < 0 && !isPlanned[value]) {
    sourceBuffers[value] = emitArgument(value);
    return;
  }
  unsigned maxLevel = 0;
  bool sourceRead = false;
  for (size_t k = 0; k < v.numUses; ++k) {
    if (plainUses[v.firstUse + k]) {
      sourceRead = true;
      continue;
    }
    const UsePlan &use = usePlans[v.firstUse + k];
    if (use.argSlice)
      continue;
    sourceRead = true;
    maxLevel = std::max(maxLevel, use.level);
  }
  // The next entries of the level pools (each level's tiling written once).
  size_t start = levelBufferPool.size();
  levelStart[value] = start;
  levelBufferPool.resize(start + plan.steps.size() + 1, -1);
  levelBufferPool[start] = source;
  while (levelTilingPool.size() < levelBufferPool.size())
    levelTilingPool.emplace_back();
  levelTilingPool[start] = plan.sourceTiling;
  for (size_t l = 0; l < plan.steps.size(); ++l)
    levelTilingPool[start + l + 1] =
        apply(plan.steps[l], levelTilingPool[start + l]);
  if (v.defOp < 0) {
    // Arguments: the argument buffer itself, then its tiling slice.
    int argBuffer = emitArgument(value);
    const std::optional<DimAxes> &local = localArgs[value];
    if (dimsEmpty(plan.sourceTiling) ||
        (local && *local == plan.sourceTiling)) {
      levelBufferPool[start] = argBuffer;
    } else if (sourceRead) {
      levelBufferPool[start] =
          emitSlice(value, argBuffer, local ? *local : DimAxes(v.rank, 0),
                    plan.sourceTiling, !isReturnedDirectly(value));
      ++at;
    }
  }
  sourceBuffers[value] = levelBufferPool[start];
  for (size_t l = 0; l < plan.steps.size() && l < maxLevel; ++l) {
    int64_t in = bytesOf(value, levelTilingPool[start + l]);
    int64_t out = bytesOf(value, levelTilingPool[start + l + 1]);
    touch(levelBufferPool[start + l]);
    levelBufferPool[start + l + 1] = newBuffer(out);
    price(plan.steps[l], in, out);
    ++at;
  }
  // A single reader's gathers stay here.
  for (size_t k = 0; k < v.numUses; ++k) {
    // A plain use has no gathers at the producer.
    if (plainUses[v.firstUse + k])
      continue;
    const UsePlan &use = usePlans[v.firstUse + k];
    size_t n = stepsAtDef(use);
    if (int j = sharedStartUse(prog, collectivePlan, value, k); j >= 0) {
      startBuffers[v.firstUse + k] = startBuffers[v.firstUse + j];
      continue;
    }
    if (n)
      startBuffers[v.firstUse + k] = emitLeadingGathers(value, use, n);
  }
}

int Evaluation::emitArgument(unsigned value) {
  int argBuffer = newBuffer(0);
  buffers[argBuffer].def = 0;
  // A loop region tells which of its inputs it reads (-1: none yet).
  buffers[argBuffer].lastUse = prog.isRegionBlock ? -1 : 0;
  argBuffers[value] = argBuffer;
  const std::optional<DimAxes> &local = localArgs[value];
  buffers[argBuffer].bytes =
      bytesOf(value, local ? *local : DimAxes(prog.valueCores[value].rank, 0));
  return argBuffer;
}

/// Emits the first n steps of `use` (gathers) from its chain level;
/// returns their last buffer.
int Evaluation::emitLeadingGathers(unsigned value, const UsePlan &use,
                                   size_t n) {
  int buffer = levelBuffer(value, use.level);
  DimAxes tiling = levelTilingOf(value, use.level);
  for (const Step &step : ArrayRef(use.ops).take_front(n)) {
    DimAxes next = apply(step, tiling);
    touch(buffer);
    buffer = newBuffer(bytesOf(value, next));
    price(step, bytesOf(value, tiling), bytesOf(value, next));
    ++at;
    tiling = std::move(next);
  }
  return buffer;
}

/// Emits the per-use ops of one use; returns the buffer the user reads.
int Evaluation::emitUse(unsigned value, unsigned useId) {
  currentValue = value;
  if (plainUses[useId]) {
    useTiling = &levelTilingOf(value, 0);
    return levelBuffer(value, 0);
  }
  const UsePlan &use = usePlans[useId];
  if (use.argSlice) {
    const std::optional<DimAxes> &local = localArgs[value];
    int arg = argBuffers[value];
    useTiling = &use.argDims;
    if (local && *local == use.argDims)
      return arg;
    // A slice of the global argument, or of the local one on the axes the
    // boundary keeps whole (keepWhole).
    int b =
        emitSlice(value, arg,
                  local ? *local : DimAxes(prog.values[value].shape.size(), 0),
                  use.argDims, !prog.ops[prog.uses[useId].user].isReturn);
    ++at;
    return b;
  }
  int buffer = levelBuffer(value, use.level);
  if (use.ops.empty()) {
    useTiling = &levelTilingOf(value, use.level);
    return buffer;
  }
  DimAxes tiling = levelTilingOf(value, use.level);
  ArrayRef<Step> ops = use.ops;
  if (size_t n = stepsAtDef(use) + stepsAhead(ahead, useId)) {
    buffer = startBuffers[useId];
    for (const Step &step : ops.take_front(n))
      tiling = apply(step, tiling);
    ops = ops.drop_front(n);
  }
  for (const Step &step : ops) {
    DimAxes next = apply(step, tiling);
    int64_t in = bytesOf(value, tiling), out = bytesOf(value, next);
    if (step.kind == StepKind::Slice) {
      // Of a gather's result or an op's: never an argument's view.
      const Step *after = &step == &ops.back() ? nullptr : &step + 1;
      buffer = isSplatChunk(value, tiling, next)
                   ? emitSplatChunk(value, next, useId, after)
                   : emitSlice(value, buffer, tiling, next,
                               /*viewable=*/false);
    } else {
      touch(buffer);
      buffer = newBuffer(out);
      price(step, in, out);
    }
    ++at;
    tiling = std::move(next);
  }
  setUseTiling(std::move(tiling));
  return buffer;
}

void Evaluation::emitOp(unsigned i) {
  // The dense record (OpCore): the ProgramOp is read for ops with loops,
  // regions, hoisted constants or in-place updates only.
  const OpCore &p = prog.cores[i];
  if (p.dead || p.constant)
    return;
  llvm::SmallVector<int, 4> inputs(p.numOperands, -1);
  currentUser = i;
  if (p.isReturn)
    returnedTiling.assign(p.numOperands, {});
  int64_t firstInputBytes = emitInputs(i, inputs);
  if (p.isReturn) {
    returned = inputs;
    returnOp = i;
    // A result kept whole on an axis it is returned tiled on: the boundary
    // gathers it (LocalizeBoundary), which the plan does not follow.
    for (auto [k, tiling] : llvm::enumerate(returnedTiling))
      if (k < prog.wholeResults.size() &&
          (dimsMask(tiling) & prog.wholeResults[k])) {
        if (explainUnmodeled())
          llvm::errs() << "unmodeled: result " << k
                       << " returned tiled on axes it is kept whole on\n";
        unmodeled = true;
      }
    return;
  }
  // A region op: its regions' ops run at one position before it, with the
  // carried values live from the loop's start. The loop model prices them
  // under the state (AnalyticLoops.cpp).
  double computeTime = p.computeTime, flops = p.flops;
  int64_t nestedPeakBytes = p.nested ? prog.ops[i].nestedPeakBytes : 0;
  if (p.inputCollective) {
    if (explainUnmodeled())
      llvm::errs() << "unmodeled: a collective of the input program\n";
    unmodeled = true;
  }
  if (p.region >= 0) {
    if (!priceRegions(i, computeTime, flops, nestedPeakBytes))
      unmodeled = true;
  } else if (p.nested) {
    // Priced whole: the collectives its regions hold run as they are.
    const ProgramOp &op = prog.ops[i];
    cost.commTime += op.nestedCommTime;
    for (unsigned k = 0; k < sim::kNumCollectiveKinds; ++k)
      cost.collectiveCounts[k] += op.nestedCollectives[k];
    if (regionsYieldSlices(i))
      unmodeled = unmodeledAtRegions = true;
  }
  llvm::SmallVector<int, 1> carries;
  if (p.nested) {
    transients.push_back({at, nestedPeakBytes});
    carries = newCarries(prog.ops[i]);
    ++at;
  }
  // Fusion (sim::isFusedIntoReaders): a fused op reads nothing here (its
  // readers' fusions read what it reads); a reshape whose operand is fused
  // is no view.
  ArrayRef<int> results = prog.resultsOf(i);
  int64_t firstResultBytes = results.empty() ? -1 : sourceBytes(results[0]);
  bool aliasing = p.mayAlias && results.size() == 1 &&
                  firstInputBytes == firstResultBytes && inputs[0] >= 0 &&
                  !buffers[inputs[0]].fused;
  // A contiguous slice of a materialized buffer is read where it lies.
  bool view =
      fusion && p.sliceView && inputs[0] >= 0 && !buffers[inputs[0]].fused;
  peekedHere = false;
  bool fused = !aliasing && !view && fusion &&
               isFusedResult(i, inputs, firstResultBytes);
  if (view)
    touch(inputs[0]);
  double trafficBytes =
      fused || view ? 0
      : peekedHere  ? readPeekedInputs()
                    : readInputs(inputs, p.slicedOperand, firstResultBytes);
  if (p.hoists)
    for (unsigned k : prog.ops[i].hoistedConstants)
      touch(hoistedBuffers[k]);
  llvm::SmallVector<int, 1> sources;
  for (int r : results) {
    int64_t bytes = sourceBytes(r);
    if (aliasing) {
      sources.push_back(inputs.front());
      continue;
    }
    int b = newBuffer(bytes);
    if (view) {
      buffers[b].viewOf = inputs[0];
      sources.push_back(b);
      continue;
    }
    if (fused && peekedHere)
      setFusedPeeked(b);
    else if (fused)
      setFused(b, inputs);
    else
      trafficBytes += static_cast<double>(bytes);
    sources.push_back(b);
  }
  // The roofline (as Simulation::emit prices it): contractions and loop
  // bodies take their time, every materialized op at least its bytes.
  auto [tiles, padding] = nestSplit(i);
  double time = computeTime / tiles * padding;
  computeLeft -= time;
  if (memoryBound && !aliasing && !view && !fused && !p.noRoofline)
    time = std::max(time, trafficBytes / impl.device.memoryBandwidth);
  cost.computeTime += time;
  cost.flops += flops / tiles * padding;
  // Most ops carry nothing and update nothing in place: their cold
  // ProgramOp is not read.
  if (!carries.empty())
    tieCarries(prog.ops[i], carries, inputs, sources);
  if (p.updatesInPlace)
    tieInPlaceUpdates(prog.ops[i], inputs, sources);
  if (traceEnabled())
    llvm::errs() << "analytic: op " << at << " " << prog.ops[i].op->getName()
                 << " " << prog.ops[i].op->getLoc() << (fused ? " fused" : "")
                 << " time " << time << "\n";
  ++at;
  currentUser = -1;
  for (auto [r, source] : llvm::zip_equal(results, sources))
    emitValue(r, source);
}

/// Emits the fusion tree rooted at op i in the lowered program's order.
void Evaluation::emitTree(unsigned i) {
  orderFusionTree(prog, collectivePlan, i, emission,
                  [&](unsigned j, unsigned k) { return readsMasked(j, k); });
  ahead.clear();
  for (const TreeStep &step : emission) {
    if (step.operand < 0)
      emitOp(step.op);
    else
      emitAhead(step.op, step.operand);
  }
  ahead.clear();
}

/// Emits the leading gathers of op i's operand k ahead of the op
/// (TreeStep); emitUse goes on from them.
void Evaluation::emitAhead(unsigned i, unsigned k) {
  unsigned value = prog.operandsOf(i)[k], useId = prog.operandUsesOf(i)[k];
  const UsePlan &use = usePlans[useId];
  currentUser = i;
  currentValue = value;
  size_t n = leadingGathers(use);
  startBuffers[useId] = emitLeadingGathers(value, use, n);
  ahead.push_back({useId, n});
  currentUser = -1;
}

/// Emits what op i reads, in the lowered program's order (inputOrder),
/// into `inputs`; returns the bytes of the first operand as read (-1
/// unless the op may alias its operand: only that test reads them).
int64_t Evaluation::emitInputs(unsigned i, llvm::MutableArrayRef<int> inputs) {
  int64_t firstInputBytes = -1;
  auto masked = [&](unsigned k) { return readsMasked(i, k); };
  llvm::SmallVector<unsigned, 4> order =
      inputOrder(prog, collectivePlan, i, masked);
  // Loops only: most ops are not, and this runs for every op of a state.
  llvm::SmallVector<int, 4> leaders;
  size_t aheadBefore = ahead.size();
  if (prog.cores[i].region >= 0) {
    leaders = loopGatherLeaders(prog, collectivePlan, i, order, masked);
    for (unsigned k :
         loopCopiesAhead(prog, collectivePlan, i, order, leaders, masked)) {
      emitAhead(i, k);
      currentUser = i; // As after a leader's gathers below.
    }
  }
  for (unsigned k : order) {
    int j = sharedCopy(prog, collectivePlan, i, k, masked);
    if (j >= 0) {
      inputs[k] = inputs[j];
      continue;
    }
    int leader = leaders.empty() ? -1 : leaders[k];
    if (leader == static_cast<int>(k)) {
      emitAhead(i, k);
      currentUser = i;
    } else if (leader >= 0) {
      unsigned useId = prog.operandUsesOf(i)[k];
      unsigned leaderUse = prog.operandUsesOf(i)[leader];
      startBuffers[useId] = startBuffers[leaderUse];
      ahead.push_back({useId, stepsAhead(ahead, leaderUse)});
    }
    emitInput(i, k, inputs, firstInputBytes);
  }
  ahead.resize(aheadBefore);
  return firstInputBytes;
}

/// Emits what op i reads of operand k into inputs[k].
void Evaluation::emitInput(unsigned i, unsigned k,
                           llvm::MutableArrayRef<int> inputs,
                           int64_t &firstInputBytes) {
  unsigned v = prog.operandsOf(i)[k];
  bool masked = readsMasked(i, k);
  inputs[k] =
      masked ? emitMaskedUse(i, k) : emitUse(v, prog.operandUsesOf(i)[k]);
  // Only the aliasing test reads it: a cache miss on the operand's shape
  // for every other op.
  if (k == 0 && prog.cores[i].mayAlias)
    firstInputBytes = bytesOf(v, *useTiling);
  if (prog.cores[i].isReturn)
    returnedTiling[k] = *useTiling;
}

/// Whether `use` reads the local result through all_slices and nothing
/// else: the first all_slice is a fusion reader of the producer. Padded
/// levels leave one all_slice per level (they do not merge).
static bool isSliceOfSource(const UsePlan &use) {
  return !use.argSlice && use.level == 0 && !use.ops.empty() &&
         llvm::all_of(use.ops, [](const auto &step) {
           return step.kind == StepKind::Slice;
         });
}

/// Whether op i's result is fused into its readers (the simulator's rule,
/// sim::isFusedIntoReaders): a reader is an op that reads the local result
/// directly, with no collective or slice in between, or the use's own
/// all_slice of it (isSliceOfSource). `inputs` are the
/// buffers the op reads, `sliceBytes` its first result's.
bool Evaluation::isFusedResult(unsigned i, llvm::ArrayRef<int> inputs,
                               double sliceBytes) {
  const OpCore &p = prog.cores[i];
  // A slice's fusion is the one that writes it (the rule's first test).
  if (p.numResults != 1 || p.fusionKind == sim::FusionKind::Opaque ||
      p.fusionKind == sim::FusionKind::Slice)
    return false;
  int result = prog.resultsOf(i)[0];
  const ValueCore &v = prog.valueCores[result];
  // Element counts only matter to a reduce's epilogue rule, and the
  // result's bytes only to duplication into several readers: both divide
  // by the tiling (a hot spot of pricing), so the others skip them.
  bool reduce = p.fusionKind == sim::FusionKind::Reduce;
  llvm::SmallVector<sim::FusionReader, 4> readers;
  for (unsigned k = 0; k < v.numUses; ++k) {
    const UsePlan &use = usePlans[v.firstUse + k];
    const ProgramUse &user = prog.uses[v.firstUse + k];
    // A reader that is no op, or a boundary, rules fusion out (the rule's
    // first test): skip the other readers. A plain use reads the source
    // directly (its UsePlan is not read: a cache miss).
    bool plain = plainUses[v.firstUse + k];
    bool sliced = !plain && isSliceOfSource(use);
    if (user.operand == -2 || (!plain && (use.argSlice || use.level != 0 ||
                                          (!use.ops.empty() && !sliced))))
      return false;
    sim::FusionReader reader;
    reader.op = user.userOp;
    reader.kind = user.userKind;
    reader.resultElements = !reduce || user.userResult < 0 ? 0
                            : looped[user.user] ? localElements(user.userResult)
                                                : user.userResultElements;
    if (sliced) {
      // The use's own all_slice (Evaluation::emitSlice), one per use.
      reader.op = nullptr;
      reader.key = &use;
      reader.kind = sim::FusionKind::Slice;
      // Only a reduce's epilogue rule reads it, for elementwise readers.
      reader.resultElements = 0;
    } else if (anyPadded && user.operand >= 0 &&
               readsMasked(user.user, user.operand)) {
      // A masked operand is read by its mask's select, one per use: the
      // selects are distinct readers (three masked readers of one relu
      // gradient in the tiny GNS keep it stored).
      reader.op = prog.maskSelect;
      reader.key = &use;
      reader.kind = sim::FusionKind::Elementwise;
      reader.resultElements = reduce ? localElements(result) : 0;
    }
    if (reader.kind == sim::FusionKind::Opaque)
      return false;
    readers.push_back(reader);
  }
  return sim::isFusedIntoReadersByKind(
      p.fusionKind, p.expensiveToDuplicate, reduce ? localElements(result) : 0,
      readers,
      [&] { return peekInputBytes(inputs, p.slicedOperand, sliceBytes); },
      readers.size() > 1 ? static_cast<double>(sourceBytes(result)) : 0);
}

/// Whether the return reads argument `value` as it is, without slicing
/// it: the all_slice it would read is then no view (a terminator's operand
/// is a buffer of its own, sim::isContiguousSliceView).
bool Evaluation::isReturnedDirectly(unsigned value) const {
  const ProgramValue &v = prog.values[value];
  for (size_t k = 0; k < v.uses.size(); ++k) {
    const UsePlan &use = usePlans[v.firstUse + k];
    if (!use.argSlice && use.level == 0 && use.ops.empty() &&
        prog.ops[prog.uses[v.firstUse + k].user].isReturn)
      return true;
  }
  return false;
}

/// An all_slice of `value` from `from` to `to` reading buffer `source` at
/// the current position, as Simulation::emit prices it: with the fusion
/// model, a view of `source` when `viewable` (an argument read by no
/// return) and contiguous, else the dynamic-slice XLA makes of it, which
/// reads the slice (or what a fused producer reads) and writes it;
/// without, a free copy. Returns the buffer its readers read.
int Evaluation::emitSlice(unsigned value, int source, const DimAxes &from,
                          const DimAxes &to, bool viewable) {
  int64_t bytes = bytesOf(value, to);
  if (fusion && viewable &&
      sim::isContiguousSlice(localShape(value, to), localShape(value, from))) {
    touch(source);
    int view = newBuffer(bytes);
    buffers[view].viewOf = source;
    return view;
  }
  return copySlice(source, bytes);
}

/// An all_slice of `bytes` that is no view (emitSlice), reading `source`.
int Evaluation::copySlice(int source, int64_t bytes) {
  double traffic = readInputs({source}, 0, static_cast<double>(bytes));
  int slice = newBuffer(bytes);
  if (fusion && memoryBound)
    cost.computeTime +=
        (traffic + static_cast<double>(bytes)) / impl.device.memoryBandwidth;
  return slice;
}

/// Whether an all_slice of `value` from `from` to `to` takes an even chunk
/// of a splat constant, which is a smaller splat (phlo::getSlicedSplat).
bool Evaluation::isSplatChunk(unsigned value, const DimAxes &from,
                              const DimAxes &to) const {
  int def = prog.valueCores[value].defOp;
  if (def < 0 || !prog.cores[def].splat || !dimsEmpty(from))
    return false;
  for (auto [d, size] : llvm::enumerate(prog.values[value].shape))
    if (d < to.size() && size % axisProduct(listMask(to[d])) != 0)
      return false;
  return true;
}

/// The chunk isSplatChunk finds, as the simulator prices the splat the
/// export writes: free, and fused (sim::getFusionKind) when it has more
/// than one element and its reader fuses: the use's next step when one
/// follows (`after`; a slice does, a collective does not), else the user
/// unless it is a boundary or an opaque op.
int Evaluation::emitSplatChunk(unsigned value, const DimAxes &to,
                               unsigned useId, const Step *after) {
  int64_t bytes = bytesOf(value, to);
  int chunk = newBuffer(bytes);
  const ProgramUse &user = prog.uses[useId];
  int64_t elementBytes =
      std::max<int64_t>(prog.valueCores[value].elementBytes, 1);
  // A masked operand is read by its mask's select (isFusedResult).
  bool masked =
      anyPadded && user.operand >= 0 && readsMasked(user.user, user.operand);
  bool reader = after
                    ? after->kind == StepKind::Slice
                    : user.operand != -2 &&
                          (masked || user.userKind != sim::FusionKind::Opaque);
  if (fusion && reader && bytes / elementBytes > 1)
    setFused(chunk, {});
  return chunk;
}

/// The bytes readInputs would count, without touching anything.
double Evaluation::peekInputBytes(llvm::ArrayRef<int> inputs, int sliced,
                                  double sliceBytes) {
  double bytes = 0;
  peeked.clear();
  visitReads(inputs, sliced, sliceBytes, [&](unsigned b, double count) {
    peeked.push_back({b, count});
    bytes += count;
  });
  peekedHere = true;
  return bytes;
}

/// Marks buffer `b` fused, reading `inputs`. It records the materialized
/// buffers they stand for (sim::visitFusionInputs' leaves), so that a
/// fusion reading `b` walks one level instead of b's fused tree (26 fused
/// buffers per walk on the MoE export); the leaves are the same.
void Evaluation::setFused(int b, llvm::ArrayRef<int> inputs) {
  buffers[b].fused = true;
  std::vector<int> &pool = fusedInputs.pool;
  size_t start = pool.size();
  // The walk copies a fused buffer's leaves before it visits any of them,
  // so growing the pool under it is safe.
  sim::visitFusionInputs(
      inputs, fusedInputs, [&](int x) { return buffers[x].fused; }, stamp,
      ++generation, [&](unsigned x) { pool.push_back(x); });
  fusedInputs.ranges[b] = {start, pool.size() - start};
}

/// setFused when peekInputBytes has just visited the leaves of `b`'s
/// inputs (readPeekedInputs).
void Evaluation::setFusedPeeked(int b) {
  buffers[b].fused = true;
  std::vector<int> &pool = fusedInputs.pool;
  size_t start = pool.size();
  for (auto [leaf, bytes] : peeked)
    pool.push_back(static_cast<int>(leaf));
  fusedInputs.ranges[b] = {start, pool.size() - start};
}

/// readInputs of the inputs peekInputBytes last visited, from its record.
double Evaluation::readPeekedInputs() {
  double bytes = 0;
  for (auto [b, count] : peeked) {
    touch(static_cast<int>(b));
    bytes += count;
  }
  return bytes;
}

/// Touches the materialized buffers an op reading `inputs` reads (fused
/// ones stand for what they read) and returns their bytes, each once.
double Evaluation::readInputs(llvm::ArrayRef<int> inputs, int sliced,
                              double sliceBytes) {
  double bytes = 0;
  visitReads(inputs, sliced, sliceBytes, [&](unsigned b, double count) {
    touch(static_cast<int>(b));
    bytes += count;
  });
  return bytes;
}

/// The buffers of a region op's carried results, allocated where its
/// regions run (-1: the result is allocated by the op).
llvm::SmallVector<int, 1> Evaluation::newCarries(const ProgramOp &p) {
  llvm::SmallVector<int, 1> carries;
  for (auto [r, tied] : llvm::zip_equal(p.results, p.tiedResults))
    carries.push_back(tied.init < 0 ? -1 : newBuffer(sourceBytes(r)));
  return carries;
}

/// The simulator's ties (Simulation::tieCarries) for the op at the current
/// position: each carry to its init, each result to its carry. `inputs`
/// are the buffers the op reads, by operand (captured values last, -1
/// where none).
void Evaluation::tieCarries(const ProgramOp &p, llvm::ArrayRef<int> carries,
                            llvm::ArrayRef<int> inputs,
                            llvm::ArrayRef<int> results) {
  for (auto [carry, tied, result] :
       llvm::zip(carries, p.tiedResults, results)) {
    if (carry < 0)
      continue;
    int init = inputs[tied.init];
    if (init >= 0)
      carryTies.push_back({static_cast<unsigned>(carry),
                           static_cast<unsigned>(init), at, tied.passThrough,
                           isReadElsewhere(p, inputs, init)});
    carryTies.push_back({static_cast<unsigned>(result),
                         static_cast<unsigned>(carry), at, true, false});
  }
}

/// The simulator's in-place updates (Simulation::tieInPlaceUpdates): each
/// result of a dynamic_update_slice or scatter to the buffer it updates.
void Evaluation::tieInPlaceUpdates(const ProgramOp &p,
                                   llvm::ArrayRef<int> inputs,
                                   llvm::ArrayRef<int> results) {
  if (!p.updatesInPlace)
    return;
  for (auto [r, result] : llvm::enumerate(results)) {
    int operand = sim::getInPlaceOperand(p.op, r);
    if (operand < 0 || inputs[operand] < 0)
      continue;
    int init = inputs[operand];
    // In place, the op moves the updated slice only (as
    // Simulation::tieInPlaceUpdates prices it).
    int update = sim::getUpdateOperand(p.op, r);
    double saved =
        static_cast<double>(buffers[init].bytes + buffers[result].bytes);
    if (update >= 0 && inputs[update] >= 0) {
      double updateBytes = static_cast<double>(buffers[inputs[update]].bytes);
      int value = p.operands[update];
      // As the simulator: the op that computes the update, not an argument
      // or a collective or slice in between, writes it into the slot.
      int useId = p.operandUses[update];
      bool direct = useId >= 0 && usePlans[useId].level == 0 &&
                    usePlans[useId].ops.empty() && !usePlans[useId].argSlice;
      bool producerWrites =
          fusion && sim::writesUpdateInPlace(p.op) && value >= 0 && direct &&
          prog.values[value].defOp >= 0 &&
          !prog.ops[prog.values[value].defOp].constant &&
          prog.values[value].uses.size() == 1 && !buffers[inputs[update]].fused;
      saved += producerWrites ? updateBytes : -updateBytes;
    }
    inPlaceSavings.push_back({static_cast<unsigned>(carryTies.size()), saved});
    carryTies.push_back({static_cast<unsigned>(result),
                         static_cast<unsigned>(init), at, false,
                         llvm::count(inputs, init) > 1});
  }
}

/// Local shape of `value` under `tiling`.
llvm::SmallVector<int64_t, 4>
Evaluation::localShape(unsigned value, const DimAxes &tiling) const {
  llvm::SmallVector<int64_t, 4> shape(prog.values[value].shape);
  for (auto [d, size] : llvm::enumerate(shape))
    if (d < tiling.size())
      size = partir::chunkSize(size, axisProduct(listMask(tiling[d])));
  return shape;
}

/// The simulator's donations (Simulation::findDonations), with the
/// device-local types of the lowered function: an argument's are its local
/// tiling's (or the whole value), a result's what the return reads.
void Evaluation::findDonations(std::vector<char> &donated) {
  donated.assign(prog.numArguments, 0);
  if (!prog.hasDonors || returnOp < 0)
    return;
  const ProgramOp &ret = prog.ops[returnOp];
  auto compatible = [&](unsigned argument, unsigned result) {
    int value = ret.operands[result];
    if (value < 0 || returned[result] < 0 ||
        getElementTypeOrSelf(impl.entry.getArgument(argument).getType()) !=
            getElementTypeOrSelf(ret.op->getOperand(result).getType()))
      return false;
    const ProgramValue &arg = prog.values[argument];
    DimAxes argTiling = localArgs[argument] ? *localArgs[argument]
                                            : DimAxes(arg.shape.size(), 0);
    return localShape(argument, argTiling) ==
           localShape(value, returnedTiling[result]);
  };
  for (const sim::Donation &d :
       sim::getDonations(impl.entry, impl.options.donate, compatible)) {
    donated[d.argument] = 1;
    if (d.result >= 0)
      donations.push_back({static_cast<unsigned>(returned[d.result]),
                           static_cast<unsigned>(argBuffers[d.argument])});
  }
}

/// How op i's nest splits its work (emitOp): over the loops' tiles, on
/// padded rows (as the lowering's local types); work / tiles * padding.
std::pair<int64_t, double> Evaluation::nestSplit(unsigned i) const {
  const OpCore &p = prog.cores[i];
  int64_t tiles = 1;
  double padding = 1;
  // A loop's nest is its carried values' tiling, not a split of its work.
  if (!looped[i] || p.region >= 0)
    return {tiles, padding};
  for (auto [axis, factor] : nests[i]) {
    int64_t k = impl.axisSizes[axis],
            size = prog.opFactorSizes[p.factorSizes + factor];
    tiles *= k;
    if (!dividesEvenly(size, k))
      padding *= static_cast<double>((size / k + 1) * k) / size;
  }
  return {tiles, padding};
}

/// Where the step time emitted so far bounds the whole (setRuntimeLimit):
/// it only grows op by op, and nothing past an op leaves the state to the
/// reference path.
bool Evaluation::isBounded() const {
  return runtimeLimit < std::numeric_limits<double>::infinity() &&
         prog.stepTimeOnlyGrows && !anyPadded && !unmodeled;
}

/// What in-place updates may take off the step time at the end, at most.
double Evaluation::inPlaceSlack() const {
  return memoryBound ? prog.maxInPlaceSavedBytes / impl.device.memoryBandwidth
                     : 0;
}

bool Evaluation::computeAlonePassesLimit() {
  stopped = unmodeled = false;
  computeLeft = 0;
  // A fresh workspace is sized by the planner: a stop before it would
  // leave it marked as this program's, unsized.
  if (fresh || !isBounded())
    return false;
  for (auto [i, p] : llvm::enumerate(prog.cores)) {
    if (p.dead || p.constant || p.isReturn)
      continue;
    auto [tiles, padding] = nestSplit(i);
    computeLeft += p.computeTime / tiles * padding;
  }
  // At least the step time, whatever the plan adds.
  double atLeast = computeLeft - inPlaceSlack();
  if (atLeast <= runtimeLimit)
    return false;
  stopped = true;
  cost.computeTime = cost.runtime = atLeast;
  return true;
}

AnalyticCost Evaluation::pricePlan() {
  buffers.clear();
  fusedInputs.clear();
  stamp.clear();
  carryTies.clear();
  inPlaceSavings.clear();
  donations.clear();
  returned.clear();
  returnOp = -1;
  transients.clear();
  argBuffers.assign(prog.numArguments, -1);
  // emitValue assigns a value's levels before any use reads them: no
  // clearing (a walk over every value, 2% of pricing a GNS state).
  levelStart.resize(prog.values.size());
  levelBufferPool.clear();
  sourceBuffers.resize(prog.values.size());
  startBuffers.assign(prog.numUses, -1);

  for (unsigned c : prog.constants) {
    int r = prog.ops[c].results[0];
    int64_t bytes = sourceBytes(r);
    int source = newBuffer(bytes);
    // A splat constant fuses into its readers like a broadcast
    // (sim::getFusionKind): it reads nothing.
    if (fusion && isFusedResult(c, {}, static_cast<double>(bytes)))
      setFused(source, {});
    ++at;
    emitValue(r, source);
  }
  hoistedBuffers.clear();
  for (int64_t bytes : prog.hoistedConstantBytes) {
    hoistedBuffers.push_back(newBuffer(bytes));
    ++at;
  }
  emitMaskConstants();
  for (unsigned a = 0; a < prog.numArguments; ++a)
    emitValue(a, -1);
  bool bounded = isBounded();
  double slack = inPlaceSlack();
  // A fusion tree runs at its root's position, each op in the body of the
  // root's loop level it ended up in (outer levels first).
  for (size_t i = 0; i < prog.ops.size(); ++i) {
    // At least the step time: what is emitted, what the ops left will
    // compute, less what in-place updates may save.
    double atLeast = cost.computeTime + cost.commTime + computeLeft - slack;
    if (bounded && atLeast > runtimeLimit) {
      stopped = true;
      cost.runtime = atLeast;
      return cost;
    }
    if (fusedInto[i] >= 0)
      continue;
    if (fusedProducers[i].empty() &&
        !readsFusedArgument(prog, collectivePlan, i)) {
      emitOp(i); // Alone in its body.
      continue;
    }
    emitTree(i);
  }

  int64_t end = at;
  std::vector<char> donated;
  findDonations(donated);
  if (prog.isRegionBlock) {
    argumentsRead.clear();
    for (int b : argBuffers)
      argumentsRead.push_back(buffers[b].lastUse >= 0);
  }
  for (auto [a, b] : llvm::enumerate(argBuffers)) {
    buffers[b].def = -1;
    // A loop region's carries live until their last use in it (their
    // in-place updates depend on it); what it reads from outside until
    // the loop ends.
    bool carry = prog.isRegionBlock && a < prog.numBlockArguments;
    if (!donated[a] && !carry)
      buffers[b].lastUse = end;
  }
  for (int b : returned)
    if (b >= 0)
      buffers[b].lastUse = end;
  std::vector<char> applied;
  sim::resolveCarryTies(buffers, carryTies, donations, &applied);
  if (memoryBound)
    for (auto [tie, saved] : inPlaceSavings)
      if (applied[tie])
        cost.computeTime -= saved / impl.device.memoryBandwidth;
  // A loop region's peak is what it adds: its carries and inputs are the
  // enclosing program's (sim::simulateRegions).
  if (prog.isRegionBlock) {
    for (int b : argBuffers)
      buffers[b].bytes = 0;
    hoistMaskConstants();
  }
  int64_t n = std::max<int64_t>(end, 1);
  delta.assign(n + 1, 0);
  for (const Buffer &b : buffers) {
    if (b.bytes == 0 || b.fused || b.viewOf >= 0)
      continue;
    int64_t from = std::max<int64_t>(b.def, 0);
    int64_t to = std::min<int64_t>(std::max(b.lastUse, from), n - 1);
    delta[from] += b.bytes;
    delta[to + 1] -= b.bytes;
  }
  for (auto [index, bytes] : transients) {
    delta[index] += bytes;
    delta[index + 1] -= bytes;
  }
  int64_t live = 0, peak = -1, peakAt = -1;
  for (int64_t i = 0; i < n; ++i) {
    live += delta[i];
    if (traceEnabled())
      llvm::errs() << "analytic: live " << i << " " << live << "\n";
    if (live > peak) {
      peak = live;
      peakAt = i;
    }
  }
  if (traceEnabled())
    llvm::errs() << "analytic: peak " << peak << " at " << peakAt << "\n";
  cost.peakBytes = static_cast<double>(peak);
  cost.runtime = cost.computeTime + cost.commTime;
  return cost;
}

} // namespace toast::search::analytic

namespace toast::search {

AnalyticCost NdaEnvironment::Impl::evaluate(const SearchState &state,
                                            bool *unmodeled, bool *atRegions,
                                            double runtimeLimit,
                                            bool *stopped) const {
  // States that shard inside loop bodies go through the loop model's
  // program (AnalyticLoops.cpp), with a workspace of its own.
  thread_local analytic::Workspace workspace, loopWorkspace;
  bool loops = needsReference(state);
  if (perDeviceBoundaries || (loops && !coveredByLoopModel(state))) {
    if (unmodeled)
      *unmodeled = true;
    return AnalyticCost();
  }
  analytic::Evaluation evaluation(*this, loops ? *loopProgram : program, state,
                                  loops ? loopWorkspace : workspace);
  evaluation.setRuntimeLimit(runtimeLimit);
  AnalyticCost cost = evaluation.run();
  if (stopped)
    *stopped = evaluation.stoppedAtLimit();
  if (unmodeled)
    *unmodeled = evaluation.isUnmodeled();
  if (atRegions)
    *atRegions = evaluation.isUnmodeledAtRegions();
  cost.rel = sim::computeRelativeCost(
      unpartitioned.runtime, unpartitioned.peakBytes, cost.runtime,
      cost.peakBytes, device.memoryBytes, options.memoryPenalty);
  return cost;
}

} // namespace toast::search
