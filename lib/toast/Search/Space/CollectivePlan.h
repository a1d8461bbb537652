//===- CollectivePlan.h - What lowering does to one state --*- C++ -*-===//
//
// Private to lib/toast/Search/Space: the plan of one state, made once by
// the planner (AnalyticPlan.cpp) and read by the pricer (AnalyticCost.cpp)
// and the planned-program emitter (PlannedHLO.cpp). Per op its loop nest
// (the axes tiling its factors, hence its local shapes) and the op whose
// loops it fuses into; per value the collective chain at its definition;
// per use the residual collectives and slices placed before the reader;
// per argument its boundary localization. design.md section 6 ("One
// planner, not a mirror") and docs/search.md describe the split.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_LIB_SEARCH_SPACE_COLLECTIVEPLAN_H
#define TOAST_LIB_SEARCH_SPACE_COLLECTIVEPLAN_H

#include "SpaceImpl.h"

#include <optional>
#include <tuple>
#include <vector>

namespace toast::search::analytic {

//===- Axis lists ---------------------------------------------------------===//
// The mesh axes on one tensor dimension, major first, packed one byte per
// axis (axis + 1), the major axis in the low byte; at most kMaxListLength
// per dim (ActionSpace never gives a node more). Shifts by a whole word are
// undefined, so every shift goes through shiftBytes/byteMask.

using AxisList = uint64_t;
using DimAxes = llvm::SmallVector<AxisList, 4>;
constexpr unsigned kMaxListLength = 8;

/// v moved up by n bytes (0 when everything moves out).
inline AxisList shiftBytes(AxisList v, unsigned n) {
  return n >= kMaxListLength ? 0 : v << (8 * n);
}
/// The low n bytes set.
inline AxisList byteMask(unsigned n) {
  return n >= kMaxListLength ? ~AxisList(0) : (AxisList(1) << (8 * n)) - 1;
}
inline unsigned listLength(AxisList l) {
  unsigned n = 0;
  while (l) {
    ++n;
    l >>= 8;
  }
  return n;
}
inline AxisList listAppend(AxisList l, unsigned axis) {
  return l | shiftBytes(AxisList(axis + 1), listLength(l));
}
inline AxisList listConcat(AxisList a, AxisList b) {
  return a | shiftBytes(b, listLength(a));
}
/// Whether `p` is a prefix of `l`.
inline bool listIsPrefix(AxisList p, AxisList l) {
  return (l & byteMask(listLength(p))) == p;
}
inline AxisList listDropPrefix(AxisList p, AxisList l) {
  unsigned n = listLength(p);
  return n >= kMaxListLength ? 0 : l >> (8 * n);
}
/// `l` without its suffix `s` (s must be a suffix of l).
inline AxisList listDropSuffix(AxisList l, AxisList s) {
  return l & byteMask(listLength(l) - listLength(s));
}
inline AxisMask listMask(AxisList l) {
  AxisMask m = 0;
  for (; l; l >>= 8)
    m |= AxisMask(1) << ((l & 0xff) - 1);
  return m;
}
inline AxisMask dimsMask(const DimAxes &dims) {
  AxisMask m = 0;
  for (AxisList l : dims)
    m |= listMask(l);
  return m;
}
inline bool dimsEmpty(const DimAxes &dims) {
  // A plain loop: llvm::all_of was left an out-of-line call (2% of
  // pricing a state).
  for (AxisList l : dims)
    if (l)
      return false;
  return true;
}
inline bool dimsIsPrefix(const DimAxes &p, const DimAxes &l) {
  for (size_t d = 0; d < p.size(); ++d)
    if (!listIsPrefix(p[d], l[d]))
      return false;
  return true;
}
inline DimAxes dimsDropPrefix(const DimAxes &p, const DimAxes &l) {
  DimAxes rest(l.size());
  for (size_t d = 0; d < l.size(); ++d)
    rest[d] = listDropPrefix(p[d], l[d]);
  return rest;
}
/// The single dim with axes, or -1.
inline int onlyDim(const DimAxes &dims) {
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

enum class StepKind : uint8_t {
  Gather,
  Reduce,
  ReduceScatter,
  AllToAll,
  Slice
};

struct Step {
  StepKind kind;
  /// Gather / reduce_scatter / slice: the dims; all_reduce: one list in
  /// dims[0] (axes in order).
  DimAxes dims;
  /// all_to_all: from dim -> to dim.
  int from = -1, to = -1;
};

/// `tiling` after `step`.
inline DimAxes applyStep(const Step &step, const DimAxes &tiling) {
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

/// What one use reads: the shared level of its value's chain, then
/// per-use ops placed right before the user. The fields every evaluation
/// reads for every use come first, in one cache line (issue 17).
struct UsePlan {
  unsigned level = 0;
  /// The outermost gather level (op) this use still reads once its slices
  /// have cancelled the outer ones (levels outermost first), if any.
  std::optional<unsigned> gatherLevel;
  /// The use slices the argument directly (merged slice), with argDims.
  bool argSlice = false;
  /// ops' leading gathers are the producer's own (one, or one per padded
  /// level the optimizer does not merge), which stay right after the
  /// producer when this is its only reader left (copies go to readers).
  bool gatherAtDef = false;
  /// ops is one gather the user op reads directly (no slice left): its
  /// copy goes right before the user, after the other operands' slices.
  bool readerIsUser = false;
  /// The reader's loop level into whose body the argument's tiling loop
  /// fused (-1: none): the gather left of it runs there, before the
  /// reader's slices of that level and deeper.
  int fusedLevel = -1;
  /// A loop's init planned as the boundary's slice of the merged gather
  /// (Evaluation::replanLoopInit): its all_to_all, if any, is lowering's.
  bool loopInit = false;
  llvm::SmallVector<Step, 1> ops;
  DimAxes argDims;
};

/// How many of `use`'s ops stay after the producer (gatherAtDef): its
/// leading gathers.
inline size_t leadingGathers(const UsePlan &use) {
  size_t n = 0;
  while (n < use.ops.size() && use.ops[n].kind == StepKind::Gather)
    ++n;
  return n;
}
/// The uses whose leading gathers a fusion tree emitted ahead of their
/// reader (TreeStep), with their count; pricer and emitter alike.
using AheadUses = llvm::SmallVector<std::pair<unsigned, size_t>, 2>;
/// How many of use useId's steps are in `ahead`.
inline size_t stepsAhead(llvm::ArrayRef<std::pair<unsigned, size_t>> ahead,
                         unsigned useId) {
  for (auto [id, n] : ahead)
    if (id == useId)
      return n;
  return 0;
}
inline size_t stepsAtDef(const UsePlan &use) {
  if (!use.gatherAtDef || use.argSlice)
    return 0;
  return leadingGathers(use);
}

struct ValuePlan {
  DimAxes sourceTiling;
  llvm::SmallVector<Step, 0> steps; ///< shared chain, innermost first
  std::optional<Step> perUser;      ///< all gathers, merged, per reader
  /// The chain ends in a reduce_scatter every reader reads as is.
  bool scattersOnTop = false;
  /// How many of the last steps are the all_reduces of the sum levels
  /// outside every tile level (of a chain with gathers).
  unsigned outerSums = 0;
  /// A chain with a reduce_scatter on top and one gather under it: how many
  /// of the all_reduces right under that gather lowering puts after it
  /// (sum levels outside every tile level the scatter kept). The
  /// optimizer's ReduceBeforeGather moves them under it, unless a layout op
  /// that the reduce_scatter sinks through sinks them first
  /// (Evaluation::sinkSumsAfterGather).
  unsigned sumsAfterGather = 0;
  /// The gathers one per loop level (axis, dim), outermost first.
  llvm::SmallVector<std::pair<unsigned, unsigned>, 0> gathers;
};

using Nest = llvm::SmallVector<std::pair<unsigned, unsigned>, 4>;

/// The plan of one state (NdaEnvironment::Impl::plan). Its vectors are
/// reused from state to state (Workspace), so that planning allocates
/// nothing once warm.
struct CollectivePlan {
  /// Per op: its loop nest, (axis, factor) sorted by axis; empty for ops
  /// that are not partitioned, not ruled or dead.
  std::vector<Nest> nests;
  /// Per op: whether its nest has loops (nests[i] is not empty), a byte
  /// per op where the checks would miss the cache on the nests.
  std::vector<char> looped;
  /// materializeCore's loop fusion: the op whose loop nest absorbs op i
  /// (-1: none), and per consumer its fused producers with the nest level
  /// and operand they fuse at.
  std::vector<int> fusedInto;
  /// The ops fused in this plan: only their entries need a reset.
  std::vector<unsigned> fusedOps;
  std::vector<llvm::SmallVector<std::tuple<unsigned, int, unsigned>, 1>>
      fusedProducers;
  /// Per fused op: the reader's loop level each of its fused levels joined.
  std::vector<llvm::SmallVector<unsigned, 2>> fusedLevels;
  /// Per value (ProgramModel::values): its chain.
  std::vector<ValuePlan> values;
  /// Per use (ProgramModel::uses): what it reads of its value's chain.
  std::vector<UsePlan> uses;
  /// Per use: 1 when its plan is what resetUse leaves (the source read as
  /// is, no per-use op), as most uses of a state are. Made at the end of
  /// makePlan; a byte per use, so that the pricer and the emitter need not
  /// read the 150-byte UsePlan of such a use (a cache miss each; issue 17).
  std::vector<char> plainUses;
  /// Per argument: device-local dims when every use slices it alike.
  std::vector<std::optional<DimAxes>> localArgs;
  /// Some node's axes do not divide its size.
  bool anyPadded = false;
  /// The state pads a collective or a slice in a way the planner does not
  /// follow: its cost must come from the reference path.
  bool unmodeled = false;
};

/// One step of a fusion tree's emission: op `op` itself (operand < 0), or
/// the leading gathers (leadingGathers) of op's operand `operand`, an
/// argument whose tiling loops fused into a loop level of the tree outside
/// the op's body: what is left of them runs there.
struct TreeStep {
  /// The loop level of op's own nest the step runs in.
  unsigned level;
  unsigned op;
  int operand;
};

/// Op i's fusion tree (i is no op's fused producer) in the order the
/// lowered program runs it: each loop's body in materializeCore's order,
/// then the next loop, the levels of a fused op that did not join its
/// reader's as a nest of their own (AnalyticPlan.cpp); `masked(j, k)`
/// says whether op j reads operand k through a padding mask. Sorts
/// plan.fusedProducers. Shared by the pricer and the emitter.
void orderFusionTree(const ProgramModel &prog, CollectivePlan &plan, unsigned i,
                     std::vector<TreeStep> &emission,
                     llvm::function_ref<bool(unsigned, unsigned)> masked);

/// Whether op i reads an argument whose tiling loop fused into one of its
/// loops (UsePlan::fusedLevel): its gathers may run ahead of i's body
/// (orderFusionTree), so i is emitted as a tree even without producers.
bool readsFusedArgument(const ProgramModel &prog, const CollectivePlan &plan,
                        unsigned i);

/// The operands of op i in the order the lowered program reads them
/// (AnalyticPlan.cpp); `masked(k)` says whether operand k is read through a
/// padding mask. Shared by the pricer and the emitter.
llvm::SmallVector<unsigned, 4>
inputOrder(const ProgramModel &prog, const CollectivePlan &plan, unsigned i,
           llvm::function_ref<bool(unsigned)> masked);

/// The earlier use of `value` (an index into its uses) whose gathers at
/// the producer (stepsAtDef) use k reads too, or -1: lowering gathers a
/// value once for its one reading op, however many of the op's operands
/// read it (a concatenate of copies). Shared by the pricer and the emitter
/// (AnalyticPlan.cpp).
int sharedStartUse(const ProgramModel &prog, const CollectivePlan &plan,
                   unsigned value, unsigned k);

/// The earlier operand of op i that reads the same gather copy as operand
/// k, or -1: the optimizer copies a gather once for each op that reads it
/// directly, however many of its operands do (AnalyticPlan.cpp); the
/// return shares none. Shared by the pricer and the emitter.
int sharedCopy(const ProgramModel &prog, const CollectivePlan &plan, unsigned i,
               unsigned k, llvm::function_ref<bool(unsigned)> masked);

/// Per operand of loop op i (a region op; the callers skip the others):
/// the operand, first in `order` (inputOrder), whose leading gathers it
/// reads, itself for that one, -1 for an operand that shares none. The
/// optimizer copies a gather once for a loop, however many of its inits
/// slice it (two tilings of one carried value): the first operand emits
/// the gathers ahead (emitAhead), the others go on from them. Shared by the
/// pricer and the emitter (AnalyticPlan.cpp).
llvm::SmallVector<int, 4>
loopGatherLeaders(const ProgramModel &prog, const CollectivePlan &plan,
                  unsigned i, llvm::ArrayRef<unsigned> order,
                  llvm::function_ref<bool(unsigned)> masked);

/// The operands of loop op i whose gather copies come before every init's
/// boundary slice, in the order lowering puts them: an init read through a
/// gather copy of its own (not shared, `leaders`; not of an enclosing
/// body's block argument, whose gather sinks to its slice) and a slice
/// after it, and an init left global read through its own copy.
/// The copy is right before the loop when localizeTiedValues inserts the
/// boundary slices there, in operand order, so the copies of later inits
/// precede the slices of earlier ones (the review of session 25's
/// g2mix/q147 and q181: peaks 9-23% apart). Copies of later-defined values
/// first, as inputOrder's. Shared by the pricer and the emitter.
llvm::SmallVector<unsigned, 4>
loopCopiesAhead(const ProgramModel &prog, const CollectivePlan &plan,
                unsigned i, llvm::ArrayRef<unsigned> order,
                llvm::ArrayRef<int> leaders,
                llvm::function_ref<bool(unsigned)> masked);

/// How op's loops slice its operand `operand` (AnalyticPlan.cpp).
DimAxes operandSlicing(const ProgramModel &prog, const CollectivePlan &plan,
                       unsigned op, int operand);

/// Op i's nest levels over padded reduction factors that reach operand k:
/// (axis, operand dim), the masks lowering puts before the op
/// (AnalyticPadding.cpp). Shared by the pricer and the emitter.
llvm::SmallVector<std::pair<unsigned, unsigned>, 1>
maskedLevels(const ProgramModel &prog, const CollectivePlan &plan,
             llvm::ArrayRef<int64_t> axisSizes, unsigned i, unsigned k);

/// Whether lowering masks operand k of op i (it has masked levels).
inline bool readsMasked(const ProgramModel &prog, const CollectivePlan &plan,
                        llvm::ArrayRef<int64_t> axisSizes, unsigned i,
                        unsigned k) {
  return !maskedLevels(prog, plan, axisSizes, i, k).empty();
}

} // namespace toast::search::analytic

#endif // TOAST_LIB_SEARCH_SPACE_COLLECTIVEPLAN_H
