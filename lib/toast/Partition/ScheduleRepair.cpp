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
  std::optional<std::string> of(Value value) {
    if (auto result = dyn_cast<OpResult>(value)) {
      std::string text = "#" + std::to_string(index.lookup(result.getOwner()));
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

/// The tiling that makes `op` (of `found`) loop in the replay as it does in
/// `found`, judged at the first level where the nests differ.
static std::optional<ValueTiling>
repairFor(ShardingState &found, Operation *op, ArrayRef<AxisFactor> wanted,
          ArrayRef<AxisFactor> got, size_t level, ValueSelectors &selectors) {
  const ShardingRule *rule = found.getRule(op);
  if (!rule)
    return std::nullopt;
  bool keep = level >= wanted.size();
  const AxisFactor &at = keep ? got[level] : wanted[level];
  auto value = valueOfFactor(op, *rule, at.factor);
  if (!value)
    return std::nullopt;
  std::optional<std::string> selector = selectors.of(value->first);
  if (!selector || (keep && touchesAxis(found, value->first, at.axis)))
    return std::nullopt;
  ValueTiling tiling;
  tiling.selector = *selector;
  tiling.axis = at.axis;
  tiling.level = keep ? 0 : level;
  tiling.spec = keep ? InputSpec{InputSpec::Kind::Replicated, 0}
                     : InputSpec{InputSpec::Kind::Dim, value->second};
  return tiling;
}

static bool sameTiling(const ValueTiling &a, const ValueTiling &b) {
  return a.selector == b.selector && a.axis == b.axis && a.level == b.level &&
         a.spec.kind == b.spec.kind && a.spec.dim == b.spec.dim;
}

FailureOr<WrittenSchedule> writeScheduleFromState(ShardingState &found,
                                                  ModuleOp original,
                                                  unsigned maxRepairs) {
  func::FuncOp func = found.getFunction();
  SmallVector<Operation *> foundOps = numberedOps(func);
  ValueSelectors selectors(func);
  // Accepted tilings, and every tiling tried (accepted or not).
  SmallVector<ValueTiling> extra, tried;
  auto isTried = [&](const ValueTiling &tiling) {
    return llvm::any_of(
        tried, [&](const ValueTiling &t) { return sameTiling(t, tiling); });
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
    std::optional<ValueTiling> repair;
    for (auto [x, y] : llvm::zip(foundOps, replayedOps)) {
      ArrayRef<AxisFactor> wanted = found.getLoopNest(x);
      ArrayRef<AxisFactor> got = replayed->state->getLoopNest(y);
      if (std::optional<size_t> level = firstNestDifference(wanted, got)) {
        repair = repairFor(found, x, wanted, got, *level, selectors);
        if (repair && !isTried(*repair))
          break;
        repair.reset();
      }
    }
    if (!repair)
      break;
    tried.push_back(*repair);
    extra.push_back(*repair);
    Schedule next = scheduleFromState(found, extra);
    FailureOr<Replay> attempt =
        replay(original, next, found.getMesh(), /*reportErrors=*/false);
    unsigned differences = succeeded(attempt)
                               ? countStateDifferences(found, *attempt->state)
                               : written.differences;
    // A tiling that does not bring the replay closer is dropped.
    if (differences >= written.differences) {
      extra.pop_back();
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
