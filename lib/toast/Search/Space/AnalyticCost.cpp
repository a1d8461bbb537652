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
//
//===----------------------------------------------------------------------===//

#include "SpaceImpl.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

namespace toast::search {

namespace {

/// TOAST_ANALYTIC_TRACE=1 prints every op, collective and the peak the
/// analytic cost sees, to compare with a lowered program by hand.
bool traceEnabled() {
  static const bool enabled = getenv("TOAST_ANALYTIC_TRACE") != nullptr;
  return enabled;
}

//===- Axis lists ---------------------------------------------------------===//
// The mesh axes on one tensor dimension, major first, packed one byte per
// axis (axis + 1), the major axis in the low byte; at most 4 per dim.

using AxisList = uint32_t;
using DimAxes = llvm::SmallVector<AxisList, 4>;

unsigned listLength(AxisList l) {
  unsigned n = 0;
  while (l) {
    ++n;
    l >>= 8;
  }
  return n;
}
AxisList listAppend(AxisList l, unsigned axis) {
  return l | (AxisList(axis + 1) << (8 * listLength(l)));
}
AxisList listConcat(AxisList a, AxisList b) {
  return a | (b << (8 * listLength(a)));
}
/// Whether `p` is a prefix of `l`.
bool listIsPrefix(AxisList p, AxisList l) {
  unsigned n = listLength(p);
  AxisList mask = n >= 4 ? ~AxisList(0) : (AxisList(1) << (8 * n)) - 1;
  return (l & mask) == p;
}
AxisList listDropPrefix(AxisList p, AxisList l) {
  return l >> (8 * listLength(p));
}
/// `l` without its suffix `s` (s must be a suffix of l).
AxisList listDropSuffix(AxisList l, AxisList s) {
  unsigned keep = listLength(l) - listLength(s);
  return keep >= 4 ? l : l & ((AxisList(1) << (8 * keep)) - 1);
}
AxisMask listMask(AxisList l) {
  AxisMask m = 0;
  for (; l; l >>= 8)
    m |= AxisMask(1) << ((l & 0xff) - 1);
  return m;
}
AxisMask dimsMask(const DimAxes &dims) {
  AxisMask m = 0;
  for (AxisList l : dims)
    m |= listMask(l);
  return m;
}
bool dimsEmpty(const DimAxes &dims) {
  return llvm::all_of(dims, [](AxisList l) { return l == 0; });
}
bool dimsIsPrefix(const DimAxes &p, const DimAxes &l) {
  for (size_t d = 0; d < p.size(); ++d)
    if (!listIsPrefix(p[d], l[d]))
      return false;
  return true;
}
DimAxes dimsDropPrefix(const DimAxes &p, const DimAxes &l) {
  DimAxes rest(l.size());
  for (size_t d = 0; d < l.size(); ++d)
    rest[d] = listDropPrefix(p[d], l[d]);
  return rest;
}
/// The single dim with axes, or -1.
int onlyDim(const DimAxes &dims) {
  int found = -1;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (!dims[d])
      continue;
    if (found >= 0)
      return -1;
    found = d;
  }
  return found;
}

//===- Chains -------------------------------------------------------------===//

enum class StepKind : uint8_t { Gather, Reduce, ReduceScatter, AllToAll, Slice };

struct Step {
  StepKind kind;
  /// Gather / reduce_scatter / slice: the dims; all_reduce: one list in
  /// dims[0] (axes in order).
  DimAxes dims;
  /// all_to_all: from dim -> to dim.
  int from = -1, to = -1;
};

/// What one use reads: the shared level of its value's chain, then
/// per-use ops placed right before the user.
struct UsePlan {
  unsigned level = 0;
  llvm::SmallVector<Step, 1> ops;
  /// The use slices the argument directly (merged slice), with these dims.
  bool argSlice = false;
  DimAxes argDims;
  /// ops[0] is the producer's own gather, which stays right after the
  /// producer when this is its only reader left (copies go to readers).
  bool gatherAtDef = false;
  /// The outermost gather level (op) this use still reads once its slices
  /// have cancelled the outer ones (levels outermost first), if any.
  std::optional<unsigned> gatherLevel;
  /// Where ops[0] was emitted, when gatherAtDef.
  int startBuffer = -1;
};

struct ValuePlan {
  DimAxes sourceTiling;
  llvm::SmallVector<Step, 2> steps; ///< shared chain, innermost first
  std::optional<Step> perUser;      ///< all gathers, merged, per reader
  /// The chain ends in a reduce_scatter every reader reads as is.
  bool scattersOnTop = false;
  /// The gathers one per loop level (axis, dim), outermost first.
  llvm::SmallVector<std::pair<unsigned, unsigned>, 2> gathers;
  /// Buffers of the levels (0: source), -1 when not materialized.
  llvm::SmallVector<int, 3> levelBuffers;
  llvm::SmallVector<DimAxes, 3> levelTiling;
};

struct Buffer {
  int64_t bytes = 0;
  int64_t def = 0;
  int64_t lastUse = 0;
};

using Nest = llvm::SmallVector<std::pair<unsigned, unsigned>, 4>;

/// Scratch of one evaluation, kept per thread so that evaluations reuse
/// their allocations (evaluations run concurrently on distinct threads).
struct Workspace {
  std::vector<Nest> nests;
  std::vector<int> fusedInto;
  std::vector<llvm::SmallVector<std::tuple<unsigned, int, unsigned>, 1>>
      fusedProducers;
  std::vector<ValuePlan> plans;
  std::vector<UsePlan> usePlans;
  std::vector<std::optional<DimAxes>> localArgs;
  std::vector<int> argBuffers;
  std::vector<Buffer> buffers;
  std::vector<std::pair<int64_t, int64_t>> transients;
  std::vector<int64_t> delta;
};

/// One evaluation.
class Evaluation {
public:
  Evaluation(const NdaEnvironment::Impl &impl, const SearchState &state,
             Workspace &ws)
      : impl(impl), prog(impl.program), state(state), nests(ws.nests),
        fusedInto(ws.fusedInto), fusedProducers(ws.fusedProducers),
        plans(ws.plans), usePlans(ws.usePlans), localArgs(ws.localArgs),
        argBuffers(ws.argBuffers), buffers(ws.buffers),
        transients(ws.transients), delta(ws.delta) {}
  AnalyticCost run();

private:

  int64_t axisProduct(AxisMask m) const { return impl.maskProduct(m); }
  int64_t bytesOf(unsigned value, const DimAxes &tiling) const {
    const ProgramValue &v = prog.values[value];
    return v.getNumElements() * v.elementBytes /
           axisProduct(dimsMask(tiling));
  }
  DimAxes useSlicing(unsigned op, int operand) const;
  void buildChains();
  bool scatterOutermostSum(unsigned value,
                           ArrayRef<std::pair<unsigned, int>> levels);
  DimAxes tilingAt(unsigned value, unsigned level) const;
  const Step *handedOver(int value) const;
  void moveReduction(int from, unsigned i, Step step);
  void applyReductionPatterns(unsigned i);
  bool applyReductionPattern(unsigned i);
  void planValue(unsigned value);
  UsePlan planUse(unsigned value, const DimAxes &slicing,
                  bool isReturn) const;
  void emitValue(unsigned value, int source);
  int emitUse(unsigned value, unsigned useId);
  void emitOp(unsigned i);
  void findFusions();
  void emitTree(unsigned i);
  DimAxes apply(const Step &step, const DimAxes &tiling) const;
  void price(const Step &step, int64_t operandBytes, int64_t resultBytes);
  int newBuffer(int64_t bytes) {
    buffers.push_back({bytes, at, at});
    return buffers.size() - 1;
  }
  void touch(int buffer) {
    if (buffer >= 0)
      buffers[buffer].lastUse = std::max(buffers[buffer].lastUse, at);
  }

  const NdaEnvironment::Impl &impl;
  const ProgramModel &prog;
  const SearchState &state;
  std::vector<Nest> &nests;
  /// materializeCore's loop fusion: the op whose loop nest absorbs op i
  /// (-1: none), and per consumer its fused producers with the nest level
  /// and operand they fuse at.
  std::vector<int> &fusedInto;
  std::vector<llvm::SmallVector<std::tuple<unsigned, int, unsigned>, 1>>
      &fusedProducers;
  std::vector<ValuePlan> &plans;
  std::vector<UsePlan> &usePlans;
  /// Per argument: device-local dims when every use slices it alike.
  std::vector<std::optional<DimAxes>> &localArgs;
  std::vector<int> &argBuffers;
  /// Tiling of what the last emitUse returned.
  DimAxes useTiling;
  std::vector<Buffer> &buffers;
  std::vector<std::pair<int64_t, int64_t>> &transients;
  std::vector<int64_t> &delta;
  llvm::SmallVector<int, 4> returned;
  int64_t at = 0;
  int currentValue = -1;
  int currentUser = -1;
  AnalyticCost cost;
};

DimAxes Evaluation::useSlicing(unsigned op, int operand) const {
  const ProgramOp &p = prog.ops[op];
  DimAxes dims(p.operandDims[operand].size(), 0);
  for (auto [axis, factor] : nests[op])
    for (auto [d, f] : llvm::enumerate(p.operandDims[operand]))
      if (f == static_cast<int64_t>(factor))
        dims[d] = listAppend(dims[d], axis);
  return dims;
}

/// Lowered chains before user-dependent rewrites: all_reduces first (they
/// move before gathers), then the gathers; single-use gathers merge.
void Evaluation::buildChains() {
  plans.assign(prog.values.size(), {});
  for (auto [v, value] : llvm::enumerate(prog.values)) {
    ValuePlan &plan = plans[v];
    plan.sourceTiling.assign(value.shape.size(), 0);
    // Levels outermost first: (axis, dim or -1 for a sum).
    llvm::SmallVector<std::pair<unsigned, int>, 4> levels;
    if (value.defOp < 0) {
      for (unsigned axis = 0; axis < impl.axisNames.size(); ++axis)
        for (auto [d, node] : llvm::enumerate(value.dimNode))
          if (node >= 0 && (state.nodeAxes[node] >> axis & 1))
            levels.push_back({axis, static_cast<int>(d)});
    } else {
      const ProgramOp &p = prog.ops[value.defOp];
      for (auto [axis, factor] : nests[value.defOp]) {
        int dim = -1;
        for (auto [d, f] : llvm::enumerate(p.resultDims[value.resultNumber]))
          if (f == static_cast<int64_t>(factor))
            dim = d;
        if (dim >= 0 || p.factorReduction[factor])
          levels.push_back({axis, dim});
      }
    }
    for (auto [axis, dim] : levels)
      if (dim >= 0)
        plan.sourceTiling[dim] = listAppend(plan.sourceTiling[dim], axis);
    if (scatterOutermostSum(v, levels))
      continue;
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
  }
}

/// The optimizer visits readers first: when the outermost level sums and
/// every reader slices the result alike on exactly its axis, that
/// all_reduce becomes a reduce_scatter on top of the inner levels' chain
/// (all_reduces, then one gather that stays after the producer).
bool Evaluation::scatterOutermostSum(
    unsigned value, ArrayRef<std::pair<unsigned, int>> levels) {
  const ProgramValue &v = prog.values[value];
  if (levels.empty() || levels.front().second >= 0 || v.uses.empty() ||
      v.defOp < 0)
    return false;
  DimAxes first;
  for (auto [k, u] : llvm::enumerate(v.uses)) {
    if (u.second < 0)
      return false;
    DimAxes s = useSlicing(u.first, u.second);
    if (k == 0)
      first = std::move(s);
    else if (s != first)
      return false;
  }
  if (dimsMask(first) != (AxisMask(1) << levels.front().first) ||
      onlyDim(first) < 0 || listLength(first[onlyDim(first)]) != 1)
    return false;
  ValuePlan &plan = plans[value];
  for (auto [axis, dim] : llvm::reverse(levels.drop_front()))
    if (dim < 0)
      plan.steps.push_back({StepKind::Reduce, {listAppend(0, axis)}});
  if (!dimsEmpty(plan.sourceTiling))
    plan.steps.push_back({StepKind::Gather, plan.sourceTiling});
  plan.steps.push_back({StepKind::ReduceScatter, first});
  plan.scattersOnTop = true;
  return true;
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
  if (value < 0)
    return nullptr;
  const ProgramValue &v = prog.values[value];
  const ValuePlan &plan = plans[value];
  if (v.uses.size() != 1 || plan.steps.empty())
    return nullptr;
  const UsePlan &use = usePlans[v.firstUse];
  if (use.argSlice || !use.ops.empty() || use.level != plan.steps.size())
    return nullptr;
  const Step &top = plan.steps.back();
  return top.kind == StepKind::Reduce || top.kind == StepKind::ReduceScatter
             ? &top
             : nullptr;
}

/// Moves the top step of `from` (read only by op i) to the bottom of op
/// i's result chain: op i then runs on the unreduced operand.
void Evaluation::moveReduction(int from, unsigned i, Step step) {
  ValuePlan &in = plans[from];
  in.steps.pop_back();
  --usePlans[prog.values[from].firstUse].level;
  ValuePlan &out = plans[prog.ops[i].results[0]];
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
  const ProgramOp &p = prog.ops[i];
  if (p.results.size() != 1)
    return false;
  if (p.isLayout && p.operands.size() == 1) {
    const Step *step = handedOver(p.operands[0]);
    if (!step)
      return false;
    if (step->kind == StepKind::Reduce) {
      moveReduction(p.operands[0], i, *step);
      return true;
    }
    if (p.permutation.empty())
      return false;
    Step moved{StepKind::ReduceScatter, DimAxes(p.permutation.size(), 0)};
    for (auto [d, from] : llvm::enumerate(p.permutation))
      moved.dims[d] = step->dims[from];
    moveReduction(p.operands[0], i, std::move(moved));
    return true;
  }
  if (!p.isAdd || p.operands.size() != 2 || p.operands[0] == p.operands[1])
    return false;
  const Step *lhs = handedOver(p.operands[0]);
  const Step *rhs = handedOver(p.operands[1]);
  if (!lhs || !rhs || lhs->kind != rhs->kind || lhs->dims != rhs->dims)
    return false;
  unsigned a = p.operands[0], b = p.operands[1];
  if (tilingAt(a, plans[a].steps.size() - 1) !=
      tilingAt(b, plans[b].steps.size() - 1))
    return false;
  Step merged = *lhs;
  plans[b].steps.pop_back();
  --usePlans[prog.values[b].firstUse].level;
  moveReduction(a, i, std::move(merged));
  return true;
}

DimAxes Evaluation::apply(const Step &step, const DimAxes &tiling) const {
  DimAxes out = tiling;
  switch (step.kind) {
  case StepKind::Gather:
    for (size_t d = 0; d < out.size(); ++d)
      out[d] = listDropSuffix(out[d], step.dims[d]);
    break;
  case StepKind::Reduce:
    break;
  case StepKind::ReduceScatter:
  case StepKind::Slice:
    for (size_t d = 0; d < out.size(); ++d)
      out[d] = listConcat(out[d], step.dims[d]);
    break;
  case StepKind::AllToAll: {
    AxisList moved = step.dims[step.from];
    out[step.from] = listDropSuffix(out[step.from], moved);
    out[step.to] = listConcat(out[step.to], moved);
    break;
  }
  }
  return out;
}

/// Per-use rewriting of the chain's end against the use's slices: the
/// reader's gather copy cancels with its slices where one is a prefix of
/// the other, forms an all_to_all, or stays.
UsePlan Evaluation::planUse(unsigned value, const DimAxes &slicing,
                            bool isReturn) const {
  const ValuePlan &plan = plans[value];
  bool isArg = prog.values[value].defOp < 0;
  UsePlan use;
  use.level = plan.steps.size();
  DimAxes s = slicing;
  if (plan.scattersOnTop)
    return use;
  if (isReturn)
    return use; // The boundary returns what the gather would gather.
  if (plan.perUser && !dimsEmpty(s)) {
    // The optimizer visits the reader's (merged) slices before the
    // producer's per-level gathers merge: it cancels them outermost first.
    size_t k = 0;
    std::optional<Step> a2a;
    for (; k < plan.gathers.size(); ++k) {
      auto [axis, dim] = plan.gathers[k];
      AxisList first = s[dim] & 0xff;
      if (first != AxisList(axis + 1)) {
        // The slice moves this gather's axis to another dimension.
        int sd = onlyDim(s);
        if (sd >= 0 && sd != static_cast<int>(dim) &&
            s[sd] == AxisList(axis + 1)) {
          a2a = Step{StepKind::AllToAll, DimAxes(s.size(), 0),
                     static_cast<int>(dim), sd};
          a2a->dims[dim] = a2a->dims[sd] = s[sd];
          s[sd] = 0;
          ++k;
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
      return use;
    }
    if (dimsEmpty(g)) {
      // Every gather cancelled: slice what they gathered.
    } else if (dimsEmpty(s)) {
      use.ops.push_back({StepKind::Gather, g});
      use.gatherAtDef = true;
      return use;
    } else if (dimsIsPrefix(s, g)) {
      DimAxes rest = dimsDropPrefix(s, g);
      if (!dimsEmpty(rest))
        use.ops.push_back({StepKind::Gather, rest});
      return use;
    } else if (dimsIsPrefix(g, s)) {
      s = dimsDropPrefix(g, s);
    } else {
      int sd = onlyDim(s), gd = onlyDim(g);
      if (sd >= 0 && gd >= 0 && sd != gd && s[sd] == g[gd]) {
        Step a2a{StepKind::AllToAll, g, gd, sd};
        a2a.dims[sd] = s[sd];
        use.ops.push_back(a2a);
        return use;
      }
      use.ops.push_back({StepKind::Gather, g});
      use.ops.push_back({StepKind::Slice, s});
      use.gatherAtDef = true;
      return use;
    }
  } else if (plan.perUser) {
    use.ops.push_back(*plan.perUser);
    use.gatherAtDef = true;
    use.gatherLevel = 0;
    return use;
  }
  if (dimsEmpty(s))
    return use;
  if (use.level == 0 && isArg) {
    use.argSlice = true;
    use.argDims = plan.sourceTiling;
    for (size_t d = 0; d < s.size(); ++d)
      use.argDims[d] = listConcat(use.argDims[d], s[d]);
    return use;
  }
  use.ops.push_back({StepKind::Slice, s});
  return use;
}

/// Plans every use of `value`, decides reduce_scatter and (for arguments)
/// whether the boundary makes the argument device-local.
void Evaluation::planValue(unsigned value) {
  ValuePlan &plan = plans[value];
  const ProgramValue &v = prog.values[value];
  for (auto [k, u] : llvm::enumerate(v.uses)) {
    DimAxes s = u.second >= 0 ? useSlicing(u.first, u.second)
                              : DimAxes(v.shape.size(), 0);
    usePlans[v.firstUse + k] = planUse(value, s, u.second == -2);
  }
  // Each gather level is an op; one with several readers (ops, or the next
  // outer gather) when the optimizer copies gathers is copied to them, so
  // only the outermost level still read, read by one op, stays after the
  // producer. Readers count until their slices cancel the level step-wise
  // (later cancellations come after the copies).
  unsigned outermost = ~0u;
  for (size_t k = 0; k < v.uses.size(); ++k)
    if (usePlans[v.firstUse + k].gatherLevel)
      outermost = std::min(outermost, *usePlans[v.firstUse + k].gatherLevel);
  int reader = -1;
  bool several = false;
  for (auto [k, u] : llvm::enumerate(v.uses)) {
    const UsePlan &use = usePlans[v.firstUse + k];
    if (use.gatherLevel != outermost)
      continue;
    several |= reader >= 0 && reader != static_cast<int>(u.first);
    reader = u.first;
  }
  for (size_t k = 0; k < v.uses.size(); ++k) {
    UsePlan &use = usePlans[v.firstUse + k];
    use.gatherAtDef &= !several && use.gatherLevel == outermost;
  }
  // reduce_scatter: every use slices the final all_reduce alike, on
  // exactly its axes.
  if (!plan.steps.empty() && plan.steps.back().kind == StepKind::Reduce &&
      !v.uses.empty()) {
    const DimAxes *dims = nullptr;
    bool alike = true;
    for (size_t k = 0; k < v.uses.size() && alike; ++k) {
      const UsePlan &use = usePlans[v.firstUse + k];
      alike = use.level == plan.steps.size() && use.ops.size() == 1 &&
              use.ops[0].kind == StepKind::Slice &&
              (!dims || *dims == use.ops[0].dims);
      dims = &use.ops[0].dims;
    }
    AxisList reduced = plan.steps.back().dims[0];
    if (alike && dimsMask(*dims) == listMask(reduced) &&
        llvm::popcount(dimsMask(*dims)) ==
            static_cast<int>(listLength(reduced))) {
      plan.steps.back() = Step{StepKind::ReduceScatter, *dims};
      for (size_t k = 0; k < v.uses.size(); ++k)
        usePlans[v.firstUse + k].ops.clear();
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
}

void Evaluation::price(const Step &step, int64_t operandBytes,
                       int64_t resultBytes) {
  sim::CollectiveKind kind = sim::CollectiveKind::AllGather;
  AxisMask axes = dimsMask(step.dims);
  double bytes = operandBytes;
  switch (step.kind) {
  case StepKind::Gather:
    kind = sim::CollectiveKind::AllGather;
    bytes = resultBytes;
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
  sim::CollectiveCost c = sim::ringCollectiveCost(
      kind, axisProduct(axes), bytes, impl.maskLinks[axes]);
  cost.commTime += c.time;
  ++cost.collectiveCounts[static_cast<unsigned>(kind)];
  if (traceEnabled())
    llvm::errs() << "analytic: " << sim::getCollectiveKindName(kind)
                 << " axes " << axes << " bytes " << bytes << " value "
                 << currentValue << " def "
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
  ValuePlan &plan = plans[value];
  const ProgramValue &v = prog.values[value];
  unsigned maxLevel = 0;
  bool sourceRead = false;
  for (size_t k = 0; k < v.uses.size(); ++k) {
    const UsePlan &use = usePlans[v.firstUse + k];
    if (use.argSlice)
      continue;
    sourceRead = true;
    maxLevel = std::max(maxLevel, use.level);
  }
  plan.levelBuffers.assign(plan.steps.size() + 1, -1);
  plan.levelBuffers[0] = source;
  plan.levelTiling.assign(plan.steps.size() + 1, plan.sourceTiling);
  for (size_t l = 0; l < plan.steps.size(); ++l)
    plan.levelTiling[l + 1] = apply(plan.steps[l], plan.levelTiling[l]);
  if (v.defOp < 0) {
    // Arguments: the argument buffer itself, then its tiling slice.
    int argBuffer = buffers.size();
    buffers.push_back({0, 0, 0});
    argBuffers[value] = argBuffer;
    const std::optional<DimAxes> &local = localArgs[value];
    buffers[argBuffer].bytes =
        bytesOf(value, local ? *local : DimAxes(v.shape.size(), 0));
    if (dimsEmpty(plan.sourceTiling) || local) {
      plan.levelBuffers[0] = argBuffer;
    } else if (sourceRead) {
      touch(argBuffer);
      plan.levelBuffers[0] = newBuffer(bytesOf(value, plan.sourceTiling));
      ++at;
    }
  }
  for (size_t l = 0; l < plan.steps.size() && l < maxLevel; ++l) {
    int64_t in = bytesOf(value, plan.levelTiling[l]);
    int64_t out = bytesOf(value, plan.levelTiling[l + 1]);
    touch(plan.levelBuffers[l]);
    plan.levelBuffers[l + 1] = newBuffer(out);
    price(plan.steps[l], in, out);
    ++at;
  }
  // A single reader's gather stays here.
  for (size_t k = 0; k < v.uses.size(); ++k) {
    UsePlan &use = usePlans[v.firstUse + k];
    if (!use.gatherAtDef || use.argSlice || use.ops.empty())
      continue;
    const DimAxes &tiling = plan.levelTiling[use.level];
    DimAxes next = apply(use.ops[0], tiling);
    touch(plan.levelBuffers[use.level]);
    use.startBuffer = newBuffer(bytesOf(value, next));
    price(use.ops[0], bytesOf(value, tiling), bytesOf(value, next));
    ++at;
  }
}

/// Emits the per-use ops of one use; returns the buffer the user reads.
int Evaluation::emitUse(unsigned value, unsigned useId) {
  currentValue = value;
  const UsePlan &use = usePlans[useId];
  const ValuePlan &plan = plans[value];
  if (use.argSlice) {
    const std::optional<DimAxes> &local = localArgs[value];
    int arg = argBuffers[value];
    useTiling = use.argDims;
    if (local)
      return arg;
    touch(arg);
    int b = newBuffer(bytesOf(value, use.argDims));
    ++at;
    return b;
  }
  int buffer = plan.levelBuffers[use.level];
  DimAxes tiling = plan.levelTiling[use.level];
  ArrayRef<Step> ops = use.ops;
  if (use.gatherAtDef && !ops.empty()) {
    buffer = use.startBuffer;
    tiling = apply(ops.front(), tiling);
    ops = ops.drop_front();
  }
  for (const Step &step : ops) {
    DimAxes next = apply(step, tiling);
    int64_t in = bytesOf(value, tiling), out = bytesOf(value, next);
    touch(buffer);
    buffer = newBuffer(out);
    price(step, in, out);
    ++at;
    tiling = std::move(next);
  }
  useTiling = std::move(tiling);
  return buffer;
}

void Evaluation::emitOp(unsigned i) {
  const ProgramOp &p = prog.ops[i];
  if (p.dead || p.constant)
    return;
  llvm::SmallVector<int, 4> inputs;
  int64_t firstInputBytes = -1;
  for (auto [k, v] : llvm::enumerate(p.operands)) {
    if (v < 0 || p.operandUses[k] < 0)
      continue;
    currentUser = i;
    inputs.push_back(emitUse(v, p.operandUses[k]));
    if (k == 0)
      firstInputBytes = bytesOf(v, useTiling);
  }
  if (p.isReturn) {
    returned = inputs;
    return;
  }
  if (p.nestedOps > 0) {
    transients.push_back({at, p.nestedPeakBytes});
    ++at;
  }
  for (int b : inputs)
    touch(b);
  int64_t tiles = 1;
  for (auto [axis, factor] : nests[i])
    tiles *= impl.axisSizes[axis];
  cost.computeTime += p.computeTime / tiles;
  cost.flops += p.flops / tiles;
  llvm::SmallVector<int, 1> sources;
  for (int r : p.results) {
    int64_t bytes = bytesOf(r, plans[r].sourceTiling);
    if (p.mayAlias && firstInputBytes == bytes && !inputs.empty())
      sources.push_back(inputs.front());
    else
      sources.push_back(newBuffer(bytes));
  }
  if (p.nestedOps > 0)
    transients.push_back({at, p.nestedEndBytes});
  if (traceEnabled())
    llvm::errs() << "analytic: op " << at << " " << p.op->getName() << " "
                 << p.op->getLoc() << "\n";
  ++at;
  currentUser = -1;
  for (auto [r, source] : llvm::zip_equal(p.results, sources))
    emitValue(r, source);
}

/// A single-result op whose result has one use is fused into its reader
/// when the reader's first loop slicing that operand is over the same axis
/// and dimension as the op's outermost loop; it then runs at the reader's
/// position (materializeCore, LoopFuser).
void Evaluation::findFusions() {
  fusedInto.assign(prog.ops.size(), -1);
  fusedProducers.assign(prog.ops.size(), {});
  for (auto [i, p] : llvm::enumerate(prog.ops)) {
    if (p.dead || nests[i].empty() || p.results.size() != 1)
      continue;
    const ProgramValue &v = prog.values[p.results[0]];
    if (v.uses.size() != 1 || v.uses[0].second < 0)
      continue;
    auto [outerAxis, outerFactor] = nests[i].front();
    int dim = -1;
    for (auto [d, f] : llvm::enumerate(p.resultDims[0]))
      if (f == static_cast<int64_t>(outerFactor))
        dim = d;
    if (dim < 0)
      continue;
    unsigned user = v.uses[0].first;
    const ProgramOp &u = prog.ops[user];
    const auto &dims = u.operandDims[v.uses[0].second];
    // The reader's loops that slice this operand, outermost first.
    llvm::SmallVector<std::pair<unsigned, int>, 4> slicing; // (level, dim)
    for (auto [level, entry] : llvm::enumerate(nests[user])) {
      auto it = llvm::find(dims, static_cast<int64_t>(entry.second));
      if (it != dims.end())
        slicing.push_back(
            {static_cast<unsigned>(level), static_cast<int>(it - dims.begin())});
    }
    if (slicing.empty() || nests[user][slicing[0].first].first != outerAxis ||
        slicing[0].second != dim)
      continue;
    // Inner loops keep fusing level by level while they tile what the next
    // slicing loop slices; the op's body ends up in the deepest one.
    unsigned depth = slicing[0].first;
    for (size_t j = 1; j < slicing.size() && j < nests[i].size(); ++j) {
      auto [axis, factor] = nests[i][j];
      int tiled = -1;
      for (auto [d, f] : llvm::enumerate(p.resultDims[0]))
        if (f == static_cast<int64_t>(factor))
          tiled = d;
      if (axis != nests[user][slicing[j].first].first ||
          tiled != slicing[j].second)
        break;
      depth = slicing[j].first;
    }
    fusedInto[i] = user;
    fusedProducers[user].push_back(
        {depth, -v.uses[0].second, static_cast<unsigned>(i)});
  }
}

/// Emits op i after the producers fused into it: those that stopped
/// fusing at an outer loop level first, and within a level the last fused
/// (highest operand) first.
void Evaluation::emitTree(unsigned i) {
  auto &producers = fusedProducers[i];
  llvm::sort(producers);
  for (auto &[level, negOperand, producer] : producers)
    emitTree(producer);
  emitOp(i);
}

AnalyticCost Evaluation::run() {
  buffers.clear();
  transients.clear();
  nests.assign(prog.ops.size(), {});
  for (size_t i = 0; i < prog.ops.size(); ++i)
    if (prog.ops[i].ruled && !prog.ops[i].dead)
      nests[i] = impl.getNest(state, i);
  buildChains();
  usePlans.assign(prog.numUses, {});
  localArgs.assign(prog.numArguments, std::nullopt);
  argBuffers.assign(prog.numArguments, -1);
  // Planning in program order: a reader's patterns see its operands'
  // plans, and may change them before its own results are planned.
  for (unsigned a = 0; a < prog.numArguments; ++a)
    planValue(a);
  for (auto [i, p] : llvm::enumerate(prog.ops)) {
    if (p.dead)
      continue;
    applyReductionPatterns(i);
    for (int r : p.results)
      planValue(r);
  }

  for (unsigned c : prog.constants) {
    int r = prog.ops[c].results[0];
    int source = newBuffer(bytesOf(r, plans[r].sourceTiling));
    ++at;
    emitValue(r, source);
  }
  for (unsigned a = 0; a < prog.numArguments; ++a)
    emitValue(a, -1);
  findFusions();
  for (size_t i = 0; i < prog.ops.size(); ++i)
    if (fusedInto[i] < 0)
      emitTree(i);

  int64_t end = at;
  for (int b : argBuffers) {
    buffers[b].def = 0;
    buffers[b].lastUse = end;
  }
  for (int b : returned)
    if (b >= 0)
      buffers[b].lastUse = end;
  int64_t n = std::max<int64_t>(end, 1);
  delta.assign(n + 1, 0);
  for (const Buffer &b : buffers) {
    if (b.bytes == 0)
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

} // namespace

AnalyticCost NdaEnvironment::Impl::evaluate(const SearchState &state) const {
  thread_local Workspace workspace;
  AnalyticCost cost = Evaluation(*this, state, workspace).run();
  cost.rel = sim::computeRelativeCost(
      unpartitioned.runtime, unpartitioned.peakBytes, cost.runtime,
      cost.peakBytes, device.memoryBytes, options.memoryPenalty);
  return cost;
}

} // namespace toast::search
