//===- ScheduleRepair.cpp - Schedules that replay a state exactly ---------===//
//
// Propagating the arguments' tilings does not always rebuild a state that
// an automatic tactic found: the search shards whole NDA colors and picks a
// side of each conflict, where propagation resolves conflicts its own way.
// The written schedule is therefore replayed and, at the first op that ends
// up partitioned differently, given the tiling of an intermediate value
// (`#N[.R]`) that pins that op down; repeated until the replay is exact.
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
/// `operandO:D` spec names it, or nullopt.
static std::optional<InputSpec>
operandSpecOf(Operation *op, const ShardingRule &rule, int64_t factor) {
  for (unsigned o = 0; o < op->getNumOperands(); ++o) {
    int64_t dim = rule.getOperandDim(o, factor);
    if (dim == kNoFactor || rule.getDimFactors(false, o, dim).front() != factor)
      continue;
    InputSpec spec{InputSpec::Kind::OperandDim, dim};
    spec.operand = o;
    return spec;
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
    if (std::optional<InputSpec> spec = operandSpecOf(op, *rule, at.factor))
      for (size_t l = level + 1; l-- > 0;)
        add(opSelector, at.axis, l, *spec);
    Repair all;
    for (size_t l = level; l < wanted.size(); ++l)
      if (std::optional<InputSpec> spec =
              operandSpecOf(op, *rule, wanted[l].factor))
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

static bool sameTiling(const ValueTiling &a, const ValueTiling &b) {
  return a.selector == b.selector && a.axis == b.axis && a.level == b.level &&
         a.spec.kind == b.spec.kind && a.spec.dim == b.spec.dim &&
         a.spec.operand == b.spec.operand;
}

static bool sameRepair(const Repair &a, const Repair &b) {
  return a.size() == b.size() && llvm::all_of(llvm::zip(a, b), [](auto pair) {
           return sameTiling(std::get<0>(pair), std::get<1>(pair));
         });
}

FailureOr<WrittenSchedule> writeScheduleFromState(ShardingState &found,
                                                  ModuleOp original,
                                                  unsigned maxRepairs) {
  func::FuncOp func = found.getFunction();
  SmallVector<Operation *> foundOps = numberedOps(func);
  ValueSelectors selectors(func);
  // Accepted tilings, and every repair tried (accepted or not).
  SmallVector<ValueTiling> extra;
  SmallVector<Repair> tried;
  auto isTried = [&](const Repair &repair) {
    return llvm::any_of(tried,
                        [&](const Repair &t) { return sameRepair(t, repair); });
  };
  WrittenSchedule written;
  written.schedule = scheduleFromState(found);
  FailureOr<Replay> replayed = replay(original, written.schedule,
                                      found.getMesh(), /*reportErrors=*/true);
  if (failed(replayed))
    return failure();
  written.differences = countStateDifferences(found, *replayed->state);
  while (written.differences && tried.size() < maxRepairs) {
    SmallVector<Operation *> replayedOps =
        numberedOps(replayed->state->getFunction());
    if (replayedOps.size() != foundOps.size())
      break;
    // The first op partitioned differently that an untried tiling may pin.
    std::optional<Repair> repair;
    for (auto [x, y] : llvm::zip(foundOps, replayedOps)) {
      ArrayRef<AxisFactor> wanted = found.getLoopNest(x);
      ArrayRef<AxisFactor> got = replayed->state->getLoopNest(y);
      std::optional<size_t> level = firstNestDifference(wanted, got);
      if (!level)
        continue;
      for (Repair &candidate :
           repairsFor(found, x, wanted, got, *level, selectors))
        if (!isTried(candidate)) {
          repair = std::move(candidate);
          break;
        }
      if (repair)
        break;
    }
    if (!repair)
      break;
    tried.push_back(*repair);
    extra.append(repair->begin(), repair->end());
    Schedule next = scheduleFromState(found, extra);
    FailureOr<Replay> attempt =
        replay(original, next, found.getMesh(), /*reportErrors=*/false);
    unsigned differences = succeeded(attempt)
                               ? countStateDifferences(found, *attempt->state)
                               : written.differences;
    // A tiling that does not bring the replay closer is dropped.
    if (differences >= written.differences) {
      extra.pop_back_n(repair->size());
      continue;
    }
    written.schedule = std::move(next);
    written.differences = differences;
    written.repairs = extra.size();
    replayed = std::move(attempt);
  }
  return written;
}

} // namespace toast::partition
