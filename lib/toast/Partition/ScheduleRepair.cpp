//===- ScheduleRepair.cpp - Schedules that replay a state exactly ---------===//
//
// Propagating the arguments' tilings does not always rebuild a state that
// an automatic tactic found: the search shards whole NDA colors and picks a
// side of each conflict, where propagation resolves conflicts its own way.
// The written schedule is therefore replayed and, at the first op that ends
// up partitioned differently, given the tiling of an intermediate value
// (`#N[.R]`) that pins that op down; repeated until the replay is exact.
// Propagation visits ops in program order, so pinning one op can change
// which evidence reaches a later op first and break it: where no repair
// lowers the count, one that fixes its op is accepted provisionally and the
// repair goes on from there (a detour), kept only if it ends lower.
//
//===----------------------------------------------------------------------===//

#include "toast/Interfaces/ValueNames.h"
#include "toast/Partition/ScheduleWriter.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;

namespace toast::partition {

namespace {
/// A copy of the original module with a schedule applied.
struct Replay {
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<ShardingState> state;
};
} // namespace

/// Applies `schedule`, as its JSON text reads back, to a copy of
/// `original`. Remarks and warnings of the replay are dropped; errors too
/// unless `reportErrors`.
static FailureOr<Replay> replay(ModuleOp original, const Schedule &written,
                                partir::MeshAttr mesh, bool reportErrors) {
  ScopedDiagnosticHandler quiet(original.getContext(), [&](Diagnostic &d) {
    return success(!reportErrors ||
                   d.getSeverity() != DiagnosticSeverity::Error);
  });
  std::string parseError;
  FailureOr<Schedule> schedule =
      parseSchedule(printScheduleJson(written), parseError);
  if (failed(schedule)) {
    if (reportErrors)
      original.emitError("the written schedule does not parse: ") << parseError;
    return failure();
  }
  Replay result;
  result.module = original.clone();
  FailureOr<func::FuncOp> func = getEntryFunction(*result.module);
  if (failed(func))
    return failure();
  ShardingState::clearSavedState(*func);
  if (failed(partition(*result.module, *schedule, /*materialize=*/false)))
    return failure();
  result.state = std::make_unique<ShardingState>(*func, mesh);
  if (failed(result.state->load()))
    return failure();
  return result;
}

/// Selects values of the function the numbering was taken from.
class ValueSelectors {
public:
  explicit ValueSelectors(func::FuncOp func) : func(func) {
    for (auto [i, op] : llvm::enumerate(numberedOps(func)))
      index[op] = i;
  }

  /// `#N[.R]` for an op result, the argument's selector for an argument of
  /// the function, nullopt for a block argument of a region.
  /// `#N` for op N.
  std::string ofOp(Operation *op) {
    return "#" + std::to_string(index.lookup(op));
  }
  /// N for op N.
  unsigned indexOf(Operation *op) { return index.lookup(op); }

  std::optional<std::string> of(Value value) {
    if (auto result = dyn_cast<OpResult>(value)) {
      std::string text = ofOp(result.getOwner());
      if (result.getResultNumber() != 0)
        text += "." + std::to_string(result.getResultNumber());
      return text;
    }
    auto arg = cast<BlockArgument>(value);
    if (arg.getOwner() != &func.getBody().front())
      return std::nullopt;
    return argumentSelector(func, arg.getArgNumber());
  }

private:
  func::FuncOp func;
  DenseMap<Operation *, unsigned> index;
};

/// A value of `op` that `factor` of its rule maps, with the dimension:
/// results first, then operands.
static std::optional<std::pair<Value, int64_t>>
valueOfFactor(Operation *op, const ShardingRule &rule, int64_t factor) {
  for (unsigned r = 0; r < op->getNumResults(); ++r)
    if (int64_t dim = rule.getResultDim(r, factor); dim != kNoFactor)
      return std::make_pair(op->getResult(r), dim);
  for (unsigned o = 0; o < op->getNumOperands(); ++o)
    if (int64_t dim = rule.getOperandDim(o, factor); dim != kNoFactor)
      return std::make_pair(op->getOperand(o), dim);
  return std::nullopt;
}

/// Whether an op that defines or reads `value` loops over `axis` in
/// `state`: keeping the value whole on the axis (atomic) would forbid it.
static bool touchesAxis(ShardingState &state, Value value, StringRef axis) {
  auto onAxis = [&](Operation *op) {
    return llvm::any_of(state.getLoopNest(op), [&](const AxisFactor &level) {
      return level.axis == axis;
    });
  };
  if (Operation *producer = value.getDefiningOp(); producer && onAxis(producer))
    return true;
  return llvm::any_of(value.getUsers(), onAxis);
}

/// An operand dimension of `op` whose major factor is `factor`, as the
/// `operandO:D` spec names it, else such a result dimension (`resultR:D`,
/// for an op without operands such as iota), or nullopt.
static std::optional<InputSpec>
opSpecOf(Operation *op, const ShardingRule &rule, int64_t factor) {
  for (bool onResult : {false, true}) {
    unsigned count = onResult ? op->getNumResults() : op->getNumOperands();
    for (unsigned o = 0; o < count; ++o) {
      int64_t dim = onResult ? rule.getResultDim(o, factor)
                             : rule.getOperandDim(o, factor);
      if (dim == kNoFactor ||
          rule.getDimFactors(onResult, o, dim).front() != factor)
        continue;
      InputSpec spec{onResult ? InputSpec::Kind::ResultDim
                              : InputSpec::Kind::OperandDim,
                     dim};
      spec.operand = o;
      return spec;
    }
  }
  return std::nullopt;
}

/// One repair: tilings added to the schedule together.
using Repair = SmallVector<ValueTiling, 1>;

/// Repairs that may make `op` (of `found`) loop in the replay as it does
/// in `found`, judged at the first level where the nests differ, most
/// preferred first: for a loop the op lacks, the tiling of the value that
/// carries the factor, then a request that the op loop over the factor
/// (which also reaches a reduction factor of an operand tiled on the axis
/// by another dimension), then requests for all its missing levels at once
/// (one level alone may not bring the replay closer); for a loop the op
/// should not have, keeping the value whole on the axis, then keeping the
/// op itself whole on it (its consumers may still slice its result), then
/// on every axis it should not loop over at once.
static SmallVector<Repair> repairsFor(ShardingState &found, Operation *op,
                                      ArrayRef<AxisFactor> wanted,
                                      ArrayRef<AxisFactor> got, size_t level,
                                      ValueSelectors &selectors) {
  SmallVector<Repair> repairs;
  const ShardingRule *rule = found.getRule(op);
  if (!rule)
    return repairs;
  std::string opSelector = selectors.ofOp(op);
  auto add = [&](std::string selector, StringRef axis, size_t at,
                 InputSpec spec) {
    repairs.push_back({{std::move(selector), axis.str(), at, spec}});
  };
  bool keep = level >= wanted.size();
  const AxisFactor &at = keep ? got[level] : wanted[level];
  auto value = valueOfFactor(op, *rule, at.factor);
  std::optional<std::string> selector =
      value ? selectors.of(value->first) : std::nullopt;
  if (!keep) {
    if (selector)
      add(*selector, at.axis, level, {InputSpec::Kind::Dim, value->second});
    // The request at its level, then in earlier tactics: where the replay
    // loops over another axis first (its tactic runs before this one), the
    // loop moves ahead of it, and propagation carries the order on.
    if (std::optional<InputSpec> spec = opSpecOf(op, *rule, at.factor))
      for (size_t l = level + 1; l-- > 0;)
        add(opSelector, at.axis, l, *spec);
    Repair all;
    for (size_t l = level; l < wanted.size(); ++l)
      if (std::optional<InputSpec> spec = opSpecOf(op, *rule, wanted[l].factor))
        all.push_back({opSelector, wanted[l].axis, l, *spec});
    if (all.size() > 1)
      repairs.push_back(std::move(all));
  } else if (selector && !touchesAxis(found, value->first, at.axis)) {
    add(*selector, at.axis, 0, {InputSpec::Kind::Replicated, 0});
  }
  // The replay loops over axes that `found` does not use at all: keep the
  // op whole on the first, then on all of them at once.
  auto unwanted = [&](const AxisFactor &g) {
    return !llvm::any_of(wanted,
                         [&](const AxisFactor &l) { return l.axis == g.axis; });
  };
  if (level < got.size() && unwanted(got[level]))
    add(opSelector, got[level].axis, 0, {InputSpec::Kind::WholeOp, 0});
  Repair whole;
  for (const AxisFactor &g : got.drop_front(std::min(level, got.size())))
    if (unwanted(g))
      whole.push_back({opSelector, g.axis, 0, {InputSpec::Kind::WholeOp, 0}});
  if (whole.size() > 1)
    repairs.push_back(std::move(whole));
  return repairs;
}

/// Where the replay has argument `arg`'s levels of `found` in another
/// order (pins on an axis that ran before the argument's own earlier level
/// reached it by deep tiling), its first misplaced level at its place
/// (`"D@P"`), in the tactic the writer puts that level in (so it replaces
/// the plain entry); else nothing.
static SmallVector<Repair> levelPlacement(ShardingState &found, Value arg,
                                          ShardingState &replayed, Value got,
                                          ValueSelectors &selectors,
                                          bool early) {
  std::optional<std::string> selector = selectors.of(arg);
  ArrayRef<AxisDim> wanted = found.getExplicitTiling(arg),
                    have = replayed.getExplicitTiling(got);
  for (auto [index, tiling] : llvm::enumerate(wanted)) {
    if (index < have.size() && have[index] == tiling)
      continue;
    if (!selector || !llvm::is_contained(have, tiling))
      return {};
    InputSpec spec{InputSpec::Kind::Dim, tiling.dim};
    spec.position = index;
    size_t level = tacticLevels(wanted, found.getMesh(), early)[index];
    return {{{*selector, tiling.axis, level, spec}}};
  }
  return {};
}

/// Repairs that may give `value` (of `found`) the tiling and atomic axes
/// it has in `found`, where the replay's `got` differs beyond what the
/// producer's nest explains: the first explicit level it lacks, at its
/// level, or keeping it whole on an axis it should be atomic on. (Levels
/// the replay has too many come from pins, which dropPins reconsiders.)
static SmallVector<Repair> repairsForValue(ShardingState &found, Value value,
                                           ShardingState &replayed, Value got,
                                           ValueSelectors &selectors) {
  SmallVector<Repair> repairs;
  std::optional<std::string> selector = selectors.of(value);
  if (!selector)
    return repairs;
  SmallVector<AxisDim> wanted = found.getTiling(value),
                       have = replayed.getTiling(got);
  for (auto [level, tiling] : llvm::enumerate(wanted)) {
    if (level < have.size() && have[level] == tiling)
      continue;
    if (!llvm::is_contained(have, tiling))
      repairs.push_back({{*selector, tiling.axis, level,
                          InputSpec{InputSpec::Kind::Dim, tiling.dim}}});
    break;
  }
  for (const std::string &axis : found.getAtomicAxes(value))
    if (!llvm::is_contained(replayed.getAtomicAxes(got), axis))
      repairs.push_back(
          {{*selector, axis, 0, InputSpec{InputSpec::Kind::Replicated, 0}}});
  return repairs;
}

/// Pins `op` to its nest in `found` at once: a request for each loop at
/// its nest position (so the order of two axes over one factor is the
/// state's, whatever order the tactics run in), and the op kept whole on
/// every other axis. The requests go in the tactic of their level with
/// `atLevel`, else in the first tactic of their axis (before propagation
/// can give the op another loop on it; but a loop there may reach an
/// argument through deep tiling before the argument's own earlier level,
/// as with tokens tiled B, S, M on one dimension). Empty when some loop has
/// no dimension to name its factor by.
static Repair exactPin(ShardingState &found, Operation *op,
                       ValueSelectors &selectors, bool atLevel) {
  Repair pin;
  const ShardingRule *rule = found.getRule(op);
  if (!rule)
    return pin;
  std::string selector = selectors.ofOp(op);
  ArrayRef<AxisFactor> nest = found.getLoopNest(op);
  for (auto [position, level] : llvm::enumerate(nest)) {
    std::optional<InputSpec> spec = opSpecOf(op, *rule, level.factor);
    if (!spec)
      return {};
    spec->position = position;
    pin.push_back(
        {selector, level.axis, atLevel ? position : 0, *spec, /*pinsOp=*/true});
  }
  for (StringAttr axis : found.getMesh().getNames())
    if (!llvm::any_of(nest, [&](const AxisFactor &l) {
          return l.axis == axis.getValue();
        }))
      pin.push_back({selector,
                     axis.str(),
                     0,
                     {InputSpec::Kind::WholeOp, 0},
                     /*pinsOp=*/true});
  return pin;
}

/// The ops next to `op`: the producers of its operands and the readers of
/// its results, in the function's block (ops of the same body).
static SmallVector<Operation *> neighboursOf(Operation *op) {
  SmallVector<Operation *> next;
  for (Value operand : op->getOperands())
    if (Operation *producer = operand.getDefiningOp())
      next.push_back(producer);
  for (Value result : op->getResults())
    llvm::append_range(next, result.getUsers());
  return next;
}

/// Exact pins of groups of ops around `start` (an op the replay loops
/// differently): the differing ops connected to it through the values
/// they define and read, then these with their neighbours. A conflict the
/// search resolved inside the program (attention scores and a causal mask
/// on the query rows where propagation picks the key columns) may need
/// several ops pinned together, which no single or pair of repairs does.
static SmallVector<Repair> groupRepairs(ShardingState &found, Operation *start,
                                        const DenseSet<Operation *> &differing,
                                        ValueSelectors &selectors) {
  constexpr size_t kMaxGroup = 32;
  SmallVector<Operation *> group = {start};
  DenseSet<Operation *> seen = {start};
  for (size_t i = 0; i < group.size() && group.size() < kMaxGroup; ++i)
    for (Operation *next : neighboursOf(group[i]))
      if (differing.contains(next) && seen.insert(next).second &&
          group.size() < kMaxGroup)
        group.push_back(next);
  SmallVector<Repair> repairs;
  auto pinAll = [&](ArrayRef<Operation *> ops) {
    for (bool atLevel : {true, false}) {
      Repair all;
      for (Operation *op : ops) {
        Repair pin = exactPin(found, op, selectors, atLevel);
        all.append(pin.begin(), pin.end());
      }
      if (!all.empty())
        repairs.push_back(std::move(all));
    }
  };
  pinAll(start);
  if (group.size() > 1)
    pinAll(group);
  size_t inner = group.size();
  for (size_t i = 0; i < inner && group.size() < kMaxGroup; ++i)
    for (Operation *next : neighboursOf(group[i]))
      if (found.getRule(next) && seen.insert(next).second &&
          group.size() < kMaxGroup)
        group.push_back(next);
  if (group.size() > inner)
    pinAll(group);
  return repairs;
}

static bool sameTiling(const ValueTiling &a, const ValueTiling &b) {
  return a.selector == b.selector && a.axis == b.axis && a.level == b.level &&
         a.spec.kind == b.spec.kind && a.spec.dim == b.spec.dim &&
         a.spec.operand == b.spec.operand && a.spec.position == b.spec.position;
}

static bool sameRepair(const Repair &a, const Repair &b) {
  return a.size() == b.size() && llvm::all_of(llvm::zip(a, b), [](auto pair) {
           return sameTiling(std::get<0>(pair), std::get<1>(pair));
         });
}

namespace {
/// The repairs of one op (of `found`) or value that the replay partitions
/// differently, most preferred first.
struct RepairGroup {
  /// The op whose loop nest the repairs are for; null for a value.
  Operation *op = nullptr;
  SmallVector<Repair> repairs;
};
} // namespace

/// The repairs worth trying, one group per op whose loop nest differs in
/// the replay (program order), then per value whose tiling or atomic axes
/// differ; most preferred first within a group, the exact pins of the op
/// and of groups of ops around it last (groupRepairs). With `pinGroups`,
/// the exact pins around the producer of each value that differs instead,
/// and the misplaced argument levels (all at once first).
static SmallVector<RepairGroup> candidateRepairs(ShardingState &found,
                                                 ShardingState &replayed,
                                                 ValueSelectors &selectors,
                                                 bool pinGroups, bool early) {
  SmallVector<Operation *> foundOps = numberedOps(found.getFunction()),
                           replayedOps = numberedOps(replayed.getFunction());
  SmallVector<RepairGroup> groups;
  if (replayedOps.size() != foundOps.size())
    return groups;
  DenseSet<Operation *> differing;
  for (auto [x, y] : llvm::zip(foundOps, replayedOps))
    if (firstNestDifference(found.getLoopNest(x), replayed.getLoopNest(y)))
      differing.insert(x);
  // Values that differ: with `pinGroups`, exact pins around their
  // producers, which replace value pins that reshard them, and an
  // argument's misplaced level at its place. Only once nothing else helps,
  // so that schedules the other repairs make exact stay as they were (on
  // the zoo of benchmarks/schedule_replay.py, offering placements with the
  // other value repairs gave the same 36 schedules).
  if (pinGroups) {
    // Every misplaced argument level at once first: one pin ahead of an
    // argument's own level misplaces it in every argument tiled alike
    // (parameters and their optimizer moments), one replay each otherwise.
    Repair placements;
    for (auto [x, y] : llvm::zip(partitionedValues(found.getFunction()),
                                 partitionedValues(replayed.getFunction()))) {
      if (samePartitioning(found, x, replayed, y))
        continue;
      if (Operation *producer = x.getDefiningOp()) {
        groups.push_back(
            {nullptr, groupRepairs(found, producer, differing, selectors)});
      } else if (x.getParentBlock() == &found.getFunction().getBody().front()) {
        groups.push_back(
            {nullptr, levelPlacement(found, x, replayed, y, selectors, early)});
        for (const Repair &placement : groups.back().repairs)
          llvm::append_range(placements, placement);
      }
    }
    if (placements.size() > 1)
      groups.insert(groups.begin(), {nullptr, {placements}});
    return groups;
  }
  for (auto [x, y] : llvm::zip(foundOps, replayedOps)) {
    ArrayRef<AxisFactor> wanted = found.getLoopNest(x);
    ArrayRef<AxisFactor> got = replayed.getLoopNest(y);
    if (std::optional<size_t> level = firstNestDifference(wanted, got)) {
      groups.push_back(
          {x, repairsFor(found, x, wanted, got, *level, selectors)});
      // Least preferred: they pin the most.
      llvm::append_range(groups.back().repairs,
                         groupRepairs(found, x, differing, selectors));
    }
  }
  for (auto [x, y] : llvm::zip(partitionedValues(found.getFunction()),
                               partitionedValues(replayed.getFunction())))
    if (!samePartitioning(found, x, replayed, y))
      groups.push_back(
          {nullptr, repairsForValue(found, x, replayed, y, selectors)});
  return groups;
}

namespace {
/// The greedy search for the tilings that make a replay exact.
class Repairer {
public:
  Repairer(ShardingState &found, ModuleOp original, unsigned maxTries)
      : found(found), original(original), maxTries(maxTries),
        selectors(found.getFunction()) {}

  FailureOr<WrittenSchedule> run();

private:
  /// A replay of the schedule with `extra` tilings.
  struct Attempt {
    Schedule schedule;
    Replay replayed;
    unsigned differences;
    SmallVector<ValueTiling> extra;
    /// What differs (stateDifferences keys).
    SmallVector<unsigned> keys;
  };
  /// Replays the schedule with `extra` tilings; nullopt unless it applies
  /// and (unless `anyCount`) fewer ops or values differ than in the
  /// accepted replay.
  std::optional<Attempt> attempt(const SmallVector<ValueTiling> &extra,
                                 bool anyCount = false);
  void accept(Attempt &best);
  /// Replays with `extra` and keeps it if fewer differ.
  bool tryTilings(const SmallVector<ValueTiling> &extra);
  bool isTried(const Repair &repair) {
    return llvm::any_of(tried,
                        [&](const Repair &t) { return sameRepair(t, repair); });
  }
  /// Adds the best of the untried repairs of the first op (or value) with
  /// one that lowers the count; false when none is left. With `pinGroups`,
  /// of the exact pins around the producers of values that differ, tried
  /// once nothing else helps.
  bool addSingle(bool pinGroups);
  /// Adds two rejected repairs together (on different ops: one may only
  /// help once the other is in place), at most kMaxPairs tries.
  bool addPair();
  /// Drops an accepted tiling that no longer helps (a later one pins the
  /// same op, and this one adds a tiling the state does not have).
  bool dropOne();
  /// Where no repair lowers the count: accepts one that makes its op loop
  /// as in `found` but breaks others, continues the greedy repair from
  /// there, and keeps the result if fewer differ in the end (else undoes
  /// it). At most kDetourTries replays per detour.
  bool addDetour();
  /// Whether op `op` of `found` loops as in `found` in `attempt`.
  bool fixesOp(Operation *op, const Attempt &attempt);
  /// Whether everything that differs in `attempt` differs in the accepted
  /// replay too, and `op` (if any) loops as in `found`.
  bool breaksNothing(Operation *op, const Attempt &attempt);

  ShardingState &found;
  ModuleOp original;
  unsigned maxTries;
  ValueSelectors selectors;
  /// Accepted tilings, every repair tried, the ones that did not help.
  SmallVector<ValueTiling> accepted;
  SmallVector<Repair> tried, rejected;
  unsigned tries = 0, pairTries = 0;
  /// Repairs a detour started from (each is started once).
  SmallVector<Repair> detoured;
  /// Whether the arguments' levels go in their earliest tactics.
  bool early = false;
  WrittenSchedule written;
  std::optional<Replay> replayed;
  static constexpr unsigned kMaxPairs = 64;
  /// Detours start from repairs of the first kDetourOps differing ops.
  static constexpr unsigned kDetourOps = 4, kDetourTries = 48;
};
} // namespace

std::optional<Repairer::Attempt>
Repairer::attempt(const SmallVector<ValueTiling> &extra, bool anyCount) {
  ++tries;
  Attempt result{scheduleFromState(found, extra, early), {}, 0, extra};
  FailureOr<Replay> replayedAttempt =
      replay(original, result.schedule, found.getMesh(),
             /*reportErrors=*/false);
  if (failed(replayedAttempt))
    return std::nullopt;
  result.keys = stateDifferences(found, *replayedAttempt->state);
  result.differences = result.keys.size();
  if (!anyCount && result.differences >= written.differences)
    return std::nullopt;
  result.replayed = std::move(*replayedAttempt);
  return result;
}

void Repairer::accept(Attempt &best) {
  written.schedule = std::move(best.schedule);
  written.differences = best.differences;
  written.repairs = best.extra.size();
  accepted = std::move(best.extra);
  replayed = std::move(best.replayed);
}

bool Repairer::tryTilings(const SmallVector<ValueTiling> &extra) {
  std::optional<Attempt> result = attempt(extra);
  if (result)
    accept(*result);
  return result.has_value();
}

/// `accepted` with `repair` added. An exact pin of an op replaces what was
/// accepted for its selector: an older request or tiling in another
/// tactic would be refused once the op loops, or reshard its result.
static SmallVector<ValueTiling> withRepair(ArrayRef<ValueTiling> accepted,
                                           const Repair &repair) {
  SmallVector<ValueTiling> extra;
  for (const ValueTiling &old : accepted)
    if (old.pinsOp || !llvm::any_of(repair, [&](const ValueTiling &t) {
          return t.pinsOp && t.selector == old.selector;
        }))
      extra.push_back(old);
  extra.append(repair.begin(), repair.end());
  return extra;
}

bool Repairer::addSingle(bool pinGroups) {
  for (RepairGroup &candidates :
       candidateRepairs(found, *replayed->state, selectors, pinGroups, early)) {
    SmallVector<Repair> &group = candidates.repairs;
    // Every untried repair of the op, the best kept: the first that helps
    // may pin the op in a way that reshards a value the state does not
    // (deep tiling), where a later one pins it exactly. Exact pins only
    // when no smaller repair of the op helps: they write many entries
    // (taking the best of all made schedules of 68 to 261 entries where
    // 10 to 30 did).
    // One that fixes the op and breaks nothing ends the op's tries: a later
    // one could only fix other ops as well, which their own repairs then do
    // (a quarter fewer replays on the gns runs, at times a longer schedule).
    std::optional<Attempt> best;
    std::optional<size_t> bestIndex;
    bool clean = false;
    for (auto [i, candidate] : llvm::enumerate(group)) {
      if (clean || isTried(candidate) || tries >= maxTries ||
          (best && candidate.front().pinsOp))
        continue;
      tried.push_back(candidate);
      std::optional<Attempt> result = attempt(withRepair(accepted, candidate));
      // Pinning ops reached by deep tiling may make an accepted value pin
      // of another op fail ("already tiled on axis"): the pins alone.
      if (!result && pinGroups && tries < maxTries) {
        SmallVector<ValueTiling> pins;
        for (const ValueTiling &old : accepted)
          if (old.pinsOp)
            pins.push_back(old);
        if (pins.size() < accepted.size())
          result = attempt(withRepair(pins, candidate));
      }
      if (result && (!best || result->differences < best->differences)) {
        clean = breaksNothing(candidates.op, *result);
        best = std::move(result);
        bestIndex = i;
      }
    }
    // The others may still help together with another one (addPair);
    // exact pins are too large to pair.
    for (auto [i, candidate] : llvm::enumerate(group))
      if (!candidate.front().pinsOp && i != bestIndex && isTried(candidate) &&
          !llvm::any_of(rejected, [&](const Repair &r) {
            return sameRepair(r, candidate);
          }))
        rejected.push_back(candidate);
    if (best) {
      accept(*best);
      return true;
    }
  }
  return false;
}

bool Repairer::addPair() {
  for (size_t i = 0; i < rejected.size(); ++i)
    for (size_t j = i + 1; j < rejected.size(); ++j) {
      if (pairTries >= kMaxPairs || tries >= maxTries)
        return false;
      if (rejected[i].front().selector == rejected[j].front().selector)
        continue;
      Repair pair = rejected[i];
      pair.append(rejected[j].begin(), rejected[j].end());
      if (isTried(pair))
        continue;
      tried.push_back(pair);
      ++pairTries;
      if (tryTilings(withRepair(accepted, pair)))
        return true;
    }
  return false;
}

bool Repairer::dropOne() {
  for (size_t i = accepted.size(); i-- > 0;) {
    if (tries >= maxTries)
      return false;
    SmallVector<ValueTiling> extra = accepted;
    extra.erase(extra.begin() + i);
    if (tryTilings(extra))
      return true;
  }
  return false;
}

bool Repairer::fixesOp(Operation *op, const Attempt &attempt) {
  Operation *replayedOp =
      numberedOps(attempt.replayed.state->getFunction())[selectors.indexOf(op)];
  return !firstNestDifference(found.getLoopNest(op),
                              attempt.replayed.state->getLoopNest(replayedOp));
}

bool Repairer::breaksNothing(Operation *op, const Attempt &attempt) {
  SmallVector<unsigned> now = stateDifferences(found, *replayed->state);
  return std::includes(now.begin(), now.end(), attempt.keys.begin(),
                       attempt.keys.end()) &&
         (!op || !llvm::is_contained(attempt.keys, selectors.indexOf(op)));
}

bool Repairer::addDetour() {
  SmallVector<RepairGroup> groups = candidateRepairs(
      found, *replayed->state, selectors, /*pinGroups=*/false, early);
  unsigned ops = 0;
  for (RepairGroup &group : groups) {
    if (!group.op)
      continue;
    if (++ops > kDetourOps)
      return false;
    for (const Repair &start : group.repairs) {
      if (tries >= maxTries)
        return false;
      if (llvm::any_of(detoured,
                       [&](const Repair &d) { return sameRepair(d, start); }))
        continue;
      detoured.push_back(start);
      std::optional<Attempt> first =
          attempt(withRepair(accepted, start), /*anyCount=*/true);
      if (!first || !fixesOp(group.op, *first))
        continue;
      // Propagation visits ops in program order, so pinning this op can
      // change which evidence reaches a later op first; repair from there.
      unsigned before = written.differences, limit = maxTries;
      WrittenSchedule savedWritten = written;
      SmallVector<ValueTiling> savedAccepted = accepted;
      SmallVector<Repair> savedTried = tried, savedRejected = rejected;
      unsigned savedPairTries = pairTries;
      std::optional<Replay> savedReplay = std::move(replayed);
      accept(*first);
      maxTries = std::min(limit, tries + kDetourTries);
      while (written.differences >= before &&
             (addSingle(/*pinGroups=*/false) || addSingle(/*pinGroups=*/true)))
        ;
      maxTries = limit;
      if (written.differences < before)
        return true;
      written = std::move(savedWritten);
      accepted = std::move(savedAccepted);
      tried = std::move(savedTried);
      rejected = std::move(savedRejected);
      pairTries = savedPairTries;
      replayed = std::move(savedReplay);
    }
  }
  return false;
}

FailureOr<WrittenSchedule> Repairer::run() {
  // Each argument level in the tactics of its index; where that does not
  // apply (deep tiling nested another axis's slicing first, so the
  // argument's own level of that axis is refused), each level as early as
  // its order allows.
  written.schedule = scheduleFromState(found);
  FailureOr<Replay> first = replay(original, written.schedule, found.getMesh(),
                                   /*reportErrors=*/false);
  if (failed(first)) {
    early = true;
    written.schedule = scheduleFromState(found, {}, early);
    first = replay(original, written.schedule, found.getMesh(),
                   /*reportErrors=*/false);
  }
  // Neither applies: the first form's errors say why.
  if (failed(first)) {
    (void)replay(original, scheduleFromState(found), found.getMesh(),
                 /*reportErrors=*/true);
    return failure();
  }
  replayed = std::move(*first);
  written.differences = countStateDifferences(found, *replayed->state);
  while (written.differences &&
         (addSingle(/*pinGroups=*/false) || addSingle(/*pinGroups=*/true) ||
          addDetour() || addPair() || dropOne()))
    ;
  if (written.differences)
    written.examples =
        describeStateDifferences(found, *replayed->state, /*limit=*/8);
  return written;
}

FailureOr<WrittenSchedule> writeScheduleFromState(ShardingState &found,
                                                  ModuleOp original,
                                                  unsigned maxRepairs) {
  return Repairer(found, original, maxRepairs).run();
}

} // namespace toast::partition
