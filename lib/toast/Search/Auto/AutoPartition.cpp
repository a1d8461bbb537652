//===- AutoPartition.cpp - The AutomaticPartition tactic ------------------===//

#include "toast/Search/AutoPartition.h"

#include "IlpSearch.h"
#include "toast/Dialect/PartIR/HLO/IR/PartIRHLO.h"
#include "toast/Dialect/PartIR/HLO/Transforms/Passes.h"
#include "toast/Partition/Schedule.h"
#include "toast/Search/Baselines.h"
#include "toast/Simulator/CostModel.h"
#include "toast/Simulator/Device.h"
#include "toast/Simulator/Simulator.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <chrono>
#include <cmath>

using namespace mlir;

namespace toast::search {

std::optional<Algorithm> parseAlgorithm(StringRef name) {
  if (name == "mcts")
    return Algorithm::Mcts;
  if (name == "random")
    return Algorithm::Random;
  if (name == "automap")
    return Algorithm::AutoMap;
  if (name == "exhaustive")
    return Algorithm::Exhaustive;
  if (name == "ilp")
    return Algorithm::Ilp;
  return std::nullopt;
}

StringRef getAlgorithmName(Algorithm algorithm) {
  switch (algorithm) {
  case Algorithm::Mcts:
    return "mcts";
  case Algorithm::Random:
    return "random";
  case Algorithm::AutoMap:
    return "automap";
  case Algorithm::Exhaustive:
    return "exhaustive";
  case Algorithm::Ilp:
    return "ilp";
  }
  llvm_unreachable("unknown algorithm");
}

/// A program lowered already (PartIR:HLO collectives, device-local
/// boundaries) is per device: partitioning it again would slice local
/// values as if they were global.
static LogicalResult checkGlobal(func::FuncOp func) {
  auto isLocalBoundary = [](DictionaryAttr attrs) {
    return attrs && (attrs.contains("partir.sharding") ||
                     attrs.contains("toast.global_shape") ||
                     attrs.contains("toast.global_sharding"));
  };
  bool local = false;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    local |= isLocalBoundary(func.getArgAttrDict(i));
  func.walk([&](Operation *op) {
    local |= isa_and_nonnull<partir_hlo::PartIRHLODialect>(op->getDialect());
    return local ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (!local)
    return success();
  return func.emitError("automatic partition: the program is device-local "
                        "already (lowered to PartIR:HLO, or exported from it); "
                        "partition the global program");
}

/// Checks what the NDA space does not: the device, the budget, the axes.
static FailureOr<sim::DeviceSpec>
validateOptions(partition::ShardingState &state, const AutoOptions &options) {
  func::FuncOp func = state.getFunction();
  if (failed(checkGlobal(func)))
    return failure();
  for (const std::string &axis : options.axes)
    if (!state.getMesh().getAxisSize(axis))
      return func.emitError() << "automatic partition: axis \"" << axis
                              << "\" is not in the mesh " << state.getMesh();
  if (!(options.search.budgetSeconds >= 0))
    return func.emitError() << "automatic partition: the time budget must be "
                               ">= 0 seconds, got "
                            << options.search.budgetSeconds;
  // Each thread is an OS thread; far more than cores only makes the
  // process fail to start them.
  if (options.search.threads < 1 || options.search.threads > kMaxThreads)
    return func.emitError()
           << "automatic partition: threads must be between 1 and "
           << kMaxThreads << ", got " << options.search.threads;
  if (!(options.search.minGain >= 0 && options.search.minGain < 1)) {
    std::string got;
    llvm::raw_string_ostream(got) << llvm::format("%g", options.search.minGain);
    return func.emitError()
           << "automatic partition: min-gain must be in [0, 1), got " << got;
  }
  if (!(options.search.patienceRatio >= 0 &&
        std::isfinite(options.search.patienceRatio))) {
    std::string got;
    llvm::raw_string_ostream(got)
        << llvm::format("%g", options.search.patienceRatio);
    return func.emitError() << "automatic partition: patience-ratio must be a "
                               "finite number >= 0, "
                               "got "
                            << got;
  }
  if (!(options.ilpTimeLimitSeconds > 0))
    return func.emitError() << "automatic partition: the ILP time limit must "
                               "be > 0 seconds, got "
                            << options.ilpTimeLimitSeconds;
  if (options.search.maxStates < 1)
    return func.emitError("automatic partition: the state limit must be >= 1 "
                          "states, got 0");
  // Only the ILP has a problem to write; ignoring the path would leave the
  // user waiting for a file that never comes.
  if (!options.iopddlOut.empty() && options.algorithm != Algorithm::Ilp)
    return func.emitError()
           << "automatic partition: iopddl-out needs algorithm=ilp, got "
              "algorithm="
           << getAlgorithmName(options.algorithm);
  // Every strategy priced by the reference path, and the winner, is
  // lowered: a shard_map body whose collectives name another mesh's
  // devices never can be (before, each such pricing failed).
  // Lowering inlines every shard_map of the module (callees included).
  Operation *scope = func->getParentOfType<ModuleOp>();
  if (failed(partir_hlo::checkManualComputationMeshes(scope ? scope : func,
                                                      state.getMesh())) ||
      failed(partir_hlo::checkCollectiveDevices(
          scope ? scope : func.getOperation(), state.getMesh(),
          "automatic partition: ")))
    return failure();
  llvm::Expected<sim::DeviceSpec> device = sim::lookupDevice(options.device);
  if (!device)
    return func.emitError()
           << "automatic partition: " << llvm::toString(device.takeError());
  return *device;
}

namespace {
/// One search run: the environment it used, its result in NDA terms, and
/// the chosen actions in words.
struct Outcome {
  SearchResult result;
  SearchState best;
  std::vector<std::string> actions;
};
} // namespace

static FailureOr<Outcome> runSearch(const NdaEnvironment &space,
                                    partition::ShardingState &state,
                                    const AutoOptions &options,
                                    const ProgressFn &progress) {
  Outcome outcome;
  if (options.algorithm == Algorithm::AutoMap) {
    AutoMapEnvironment automap(space, state);
    {
      // States propagation leaves inexpressible are priced, not reported.
      ScopedDiagnosticHandler quiet(state.getFunction().getContext(),
                                    [](Diagnostic &) { return success(); });
      outcome.result = runMcts(automap, options.search, progress);
    }
    FailureOr<SearchState> best = automap.toSpaceState(outcome.result.best);
    if (failed(best))
      return failure();
    outcome.best = *best;
    for (unsigned action : outcome.result.actions)
      outcome.actions.push_back(automap.describeAction(action));
    return outcome;
  }
  switch (options.algorithm) {
  case Algorithm::Random:
    outcome.result = runRandomSearch(space, options.search, progress);
    break;
  case Algorithm::Exhaustive:
    outcome.result = runExhaustive(space, options.search, progress);
    break;
  default:
    outcome.result = runMcts(space, options.search, progress);
  }
  outcome.best = outcome.result.best;
  for (unsigned action : outcome.result.actions)
    outcome.actions.push_back(space.describeAction(action));
  return outcome;
}

/// "cost 0.4699 (51.240 ms step, 2.43 GiB peak)", in the simulator's units;
/// a peak over `memoryBytes` (the device's) says by how much.
static std::string describeCost(const AnalyticCost &cost, int64_t memoryBytes) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("cost %.4g (", cost.rel.total)
     << sim::formatTime(cost.runtime) << " step, "
     << sim::formatBytes(cost.peakBytes, /*exact=*/false) << " peak";
  if (memoryBytes > 0 && cost.peakBytes > memoryBytes)
    os << ": does not fit, "
       << sim::formatBytes(cost.peakBytes - memoryBytes, /*exact=*/false)
       << " over the device's "
       << sim::formatBytes(memoryBytes, /*exact=*/false);
  os << ")";
  return text;
}

/// When MCTS improved its best, for tuning the stopping rules: seconds,
/// states priced, cost and phase of each improvement; "~" marks those below
/// min-gain, which did not count as progress.
static void printImprovements(llvm::raw_ostream &os,
                              const SearchResult &result) {
  if (result.improvements.empty())
    return;
  static constexpr const char *phases[] = {"round", "climb", "restart"};
  os << "auto-partition: improvements (s, states, cost):";
  for (const Improvement &step : result.improvements) {
    os << llvm::format(" %.2f %llu %.5g %s", step.seconds,
                       static_cast<unsigned long long>(step.states), step.cost,
                       phases[step.phase]);
    if (step.restart)
      os << " " << step.restart;
    os << (step.counted ? ";" : "~;");
  }
  os << "\n";
}

/// The options of the search proper: a time budget bounds the whole tactic,
/// so building the space spends part of it (never all: a budget of 0 means
/// none, and a search whose budget is gone still returns its start state).
static AutoOptions withSetupSpent(const AutoOptions &options,
                                  double setupSeconds) {
  AutoOptions searchOptions = options;
  double &budget = searchOptions.search.budgetSeconds;
  if (budget > 0)
    budget = std::max(budget - setupSeconds, 1e-6);
  return searchOptions;
}

/// The search starts from the tactics' state, not from the user's sharding
/// annotations (mhlo.sharding, sdy.sharding, sharding constraints) that
/// --partir-import-shardings turns into tactics: say so where they remain.
static void warnUnreadShardings(func::FuncOp func) {
  // Replicated ones ask for nothing a search could break (JAX marks every
  // value of a one-device export so).
  auto annotated = [](DictionaryAttr attrs) {
    if (!attrs)
      return false;
    auto mhlo = attrs.getAs<StringAttr>("mhlo.sharding");
    if (mhlo && mhlo.getValue() != "{replicated}")
      return true;
    Attribute sdy = attrs.get("sdy.sharding");
    std::string text;
    if (sdy)
      llvm::raw_string_ostream(text) << sdy;
    return StringRef(text).contains('"'); // names an axis
  };
  unsigned count = 0;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    count += annotated(func.getArgAttrDict(i));
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
    count += annotated(func.getResultAttrDict(i));
  func.walk([&](Operation *op) {
    count += op->getName().getStringRef() == "sdy.sharding_constraint";
  });
  if (count)
    func.emitWarning("automatic partition: ")
        << count
        << " sharding annotations (mhlo.sharding, sdy.sharding, "
           "sharding constraints) are not read by the search; run "
           "--partir-import-shardings first to keep them";
}

FailureOr<AutoReport> automaticPartition(partition::ShardingState &state,
                                         const AutoOptions &options) {
  FailureOr<sim::DeviceSpec> device = validateOptions(state, options);
  if (failed(device))
    return failure();
  if (failed(sim::checkCountableBytes(state.getFunction()->getParentOp(),
                                      "automatic partition: ")))
    return failure();
  warnUnreadShardings(state.getFunction());
  auto setupStart = std::chrono::steady_clock::now();
  NdaEnvironmentOptions spaceOptions;
  spaceOptions.minDims = options.minDims;
  spaceOptions.donate = options.donate;
  spaceOptions.tf32 = options.tf32;
  spaceOptions.pad = options.pad;
  spaceOptions.contextActions = options.contextActions;
  FailureOr<std::unique_ptr<NdaEnvironment>> space =
      NdaEnvironment::create(state.getFunction(), state.getMesh(), options.axes,
                             *device, spaceOptions, &state);
  if (failed(space))
    return failure();
  AutoReport report;
  report.algorithm = options.algorithm;
  report.setupSeconds = std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - setupStart)
                            .count();
  llvm::raw_ostream *os = options.progress;
  StringRef name = getAlgorithmName(options.algorithm);
  report.initial = (*space)->analyticCost((*space)->getInitialState());
  if (os)
    *os << "auto-partition: " << name << ", " << (*space)->getNumActions()
        << " NDA actions on " << device->name << " (setup "
        << llvm::format("%.2f", report.setupSeconds) << " s); start "
        << describeCost(report.initial, device->memoryBytes) << "\n";
  if (os && options.listActions)
    for (unsigned a = 0, e = (*space)->getNumActions(); a != e; ++a)
      *os << "auto-partition: action " << a << ": "
          << (*space)->describeAction(a) << "\n";
  ProgressFn progress;
  if (os)
    progress = [&](const RoundInfo &round) {
      *os << llvm::format("auto-partition: round %u: %llu rollouts, best "
                          "cost %.4g, %.2f s\n",
                          round.round,
                          static_cast<unsigned long long>(round.rollouts),
                          round.bestCost, round.seconds);
      os->flush();
    };
  if (options.algorithm == Algorithm::Ilp) {
    if (failed(runIlp(**space, state, options, report)))
      return failure();
  } else {
    FailureOr<Outcome> outcome = runSearch(
        **space, state, withSetupSpent(options, report.setupSeconds), progress);
    if (failed(outcome) || failed((*space)->materialize(outcome->best, state)))
      return failure();
    report.search = std::move(outcome->result);
    report.actions = std::move(outcome->actions);
    report.best = (*space)->analyticCost(outcome->best);
  }
  if (os) {
    const SearchResult &result = report.search;
    if (!result.roundsStopReason.empty() &&
        result.roundsStopReason != result.stopReason) {
      // Where the time went, for benchmarks/search_targets.py.
      *os << "auto-partition: rounds stopped: " << result.roundsStopReason
          << llvm::format(" (after %.3f s, %llu states)", result.roundsSeconds,
                          static_cast<unsigned long long>(result.roundsStates));
      if (result.climbSeconds >= 0)
        *os << llvm::format("; first climb stuck after %.3f s, %llu states; "
                            "%u restarts",
                            result.climbSeconds,
                            static_cast<unsigned long long>(result.climbStates),
                            result.restarts);
      *os << "\n";
    }
    printImprovements(*os, result);
    // benchmarks/search_targets.py parses this line.
    *os << llvm::format("auto-partition: %s chose %zu actions in %.3f s "
                        "(%u rounds, %llu rollouts, %llu states priced; "
                        "best after %.3f s; stopped: %s): ",
                        name.str().c_str(), report.actions.size(),
                        result.seconds, result.rounds,
                        static_cast<unsigned long long>(result.rollouts),
                        static_cast<unsigned long long>(result.evaluations),
                        result.secondsToBest, result.stopReason.c_str())
        << describeCost(report.best, device->memoryBytes) << "\n";
    for (const std::string &action : report.actions)
      *os << "auto-partition:   " << action << "\n";
    for (const std::string &note : report.actionNotes)
      *os << "auto-partition:   " << note << "\n";
    auto [byReference, inLoops] = (*space)->getReferencePricings();
    if (byReference)
      *os << "auto-partition: " << byReference
          << " pricings by the reference path (" << inLoops
          << " in loops or shard_map regions the analytic cost does not "
             "cover, the rest padded; the start and the answer are priced "
             "again for this report, and two threads may price one state, "
             "so pricings can outnumber the states priced)\n";
  }
  return report;
}

/// The schedule hook: an AutomaticTactic as AutoOptions.
static FailureOr<partition::TacticReport>
runAutomaticTactic(partition::ShardingState &state,
                   const partition::AutomaticTactic &tactic) {
  AutoOptions options;
  std::optional<Algorithm> algorithm = parseAlgorithm(tactic.algorithm);
  if (!algorithm)
    return state.getFunction().emitError()
           << "tactic '" << tactic.name << "': unknown algorithm '"
           << tactic.algorithm << "' (expected " << kAlgorithmNames << ")";
  options.algorithm = *algorithm;
  options.axes.assign(tactic.axes.begin(), tactic.axes.end());
  options.device = tactic.device;
  options.minDims = tactic.minDims;
  options.search.seed = tactic.seed;
  options.search.threads = tactic.threads;
  options.search.budgetSeconds = tactic.budgetSeconds;
  options.search.maxRollouts = tactic.rollouts;
  options.search.restartPatience = tactic.restartPatience;
  options.search.patienceWork = tactic.patienceWork;
  options.search.minGain = tactic.minGain;
  options.search.patienceRatio = tactic.patienceRatio;
  options.search.climbMemory = tactic.climbMemory;
  options.search.restartNeighbours = tactic.restartNeighbours;
  options.search.maxStates = tactic.maxStates;
  options.ilpTimeLimitSeconds = tactic.ilpTimeLimitSeconds;
  options.iopddlOut = tactic.iopddlOut;
  options.donate = tactic.donate;
  options.tf32 = tactic.tf32;
  options.pad = tactic.pad;
  options.contextActions = tactic.contextActions;
  options.listActions = tactic.listActions;
  if (!tactic.progress)
    options.progress = nullptr;
  FailureOr<AutoReport> searched = automaticPartition(state, options);
  if (failed(searched))
    return failure();
  partition::TacticReport report;
  report.name = tactic.name;
  report.actions = searched->actions.size();
  report.notes = searched->actions;
  // Ops looping over any axis the tactic searched.
  state.getFunction().walk([&](Operation *op) {
    if (llvm::any_of(state.getLoopNest(op), [&](const auto &level) {
          return options.axes.empty() ||
                 llvm::is_contained(options.axes, level.axis);
        }))
      ++report.opsOnAxis;
  });
  return report;
}

void registerAutomaticTactic() {
  partition::setAutomaticTacticHook(runAutomaticTactic);
}

} // namespace toast::search
