//===- IlpSearch.cpp - algorithm=ilp of the automatic tactic --------------===//

#include "IlpSearch.h"
#include "toast/Search/Explain.h"

#include "toast/Dialect/PartIR/HLO/Transforms/Passes.h"
#include "toast/Interfaces/ValueNames.h"
#include "toast/Search/Ilp.h"
#include "toast/Simulator/Simulator.h"
#include "toast/Support/OutputFile.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>

using namespace mlir;

namespace toast::search {

/// Simulates `state` (already written) on a materialized copy of its
/// module: the path every strategy takes (materializeCore, then
/// lowerToDeviceLocal as --partir-lower-to-hlo).
static FailureOr<sim::SimulationResult>
simulateState(partition::ShardingState &state, const NdaEnvironment &space) {
  func::FuncOp func = state.getFunction();
  state.save();
  OwningOpRef<ModuleOp> copy(func->getParentOfType<ModuleOp>().clone());
  partition::ShardingState::clearSavedState(func);
  auto clone = copy->lookupSymbol<func::FuncOp>(func.getSymName());
  partition::ShardingState sharding(clone, state.getMesh());
  if (failed(sharding.load()))
    return failure();
  partition::ShardingState::clearSavedState(clone);
  if (failed(sharding.materializeCore()) ||
      failed(partir_hlo::lowerToDeviceLocal(*copy, clone, state.getMesh())))
    return failure();
  sim::SimulationOptions options = space.getSimulationOptions();
  options.function = clone.getSymName().str();
  return sim::simulate(*copy, space.getDevice(), options);
}

/// The argument tilings a solution chose, in words, by the names users know
/// the arguments by; `notes` gets the count of the partitioned ops.
static std::vector<std::string>
describeChoice(const ilp::Formulation &formulation,
               ArrayRef<unsigned> strategies, func::FuncOp func,
               std::vector<std::string> &notes) {
  std::vector<std::string> lines;
  unsigned ops = 0, partitioned = 0;
  for (auto [n, node] : llvm::enumerate(formulation.strategies)) {
    unsigned s = strategies[n];
    if (node.op) {
      ++ops;
      partitioned += !node.nests[s].empty();
      continue;
    }
    if (node.tilings[s].empty())
      continue;
    std::string line;
    llvm::raw_string_ostream os(line);
    os << "tile " << getArgumentDisplayName(func, node.arg.getArgNumber())
       << " (" << node.arg.getType() << "):";
    for (const partition::AxisDim &level : node.tilings[s])
      os << " dim " << level.dim << " on " << level.axis;
    lines.push_back(line);
  }
  notes.push_back(
      llvm::formatv("{0} of {1} ops loop over mesh axes", partitioned, ops));
  return lines;
}

/// The report's cost of a simulated strategy, against the initial one.
static AnalyticCost toCost(const sim::SimulationResult &simulated,
                           const AnalyticCost &initial,
                           const NdaEnvironment &space) {
  AnalyticCost cost;
  cost.runtime = simulated.stepTime;
  cost.computeTime = simulated.computeTime;
  cost.commTime = simulated.commTime;
  cost.flops = simulated.flops;
  cost.peakBytes = simulated.peakMemoryBytes;
  for (unsigned k = 0; k < sim::kNumCollectiveKinds; ++k)
    cost.collectiveCounts[k] = simulated.collectives[k].count;
  cost.rel = sim::computeRelativeCost(
      initial.runtime, initial.peakBytes, cost.runtime, cost.peakBytes,
      space.getDevice().memoryBytes, space.getOptions().memoryPenalty);
  return cost;
}

LogicalResult runIlp(const NdaEnvironment &space,
                     partition::ShardingState &state,
                     const AutoOptions &options, AutoReport &report) {
  func::FuncOp func = state.getFunction();
  auto start = std::chrono::steady_clock::now();
  FailureOr<ilp::Formulation> formulation = ilp::formulate(
      state, options.axes, space.getDevice(), space.getSimulationOptions());
  if (failed(formulation))
    return failure();
  const ilp::Problem &problem = formulation->problem;
  if (!options.iopddlOut.empty() &&
      failed(writeOutputFile(
          func.getLoc(),
          "automatic partition: cannot write the IOPDDL problem to",
          options.iopddlOut,
          [&](llvm::raw_ostream &os) { ilp::writeIopddl(problem, os); })))
    return failure();
  ilp::SolveOptions solveOptions;
  solveOptions.timeLimitSeconds = options.ilpTimeLimitSeconds;
  // C(s) scaled by the initial runtime: MP(s) in cost units per byte.
  if (report.initial.peakBytes > 0)
    solveOptions.penaltyPerByte =
        space.getOptions().memoryPenalty * report.initial.runtime /
        ilp::kSecondsPerCostUnit / report.initial.peakBytes;
  llvm::Expected<ilp::Solution> solution = ilp::solve(problem, solveOptions);
  if (!solution)
    return func.emitError() << llvm::toString(solution.takeError());
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (failed(ilp::applySolution(*formulation, solution->strategies, state)))
    return failure();
  FailureOr<sim::SimulationResult> simulated = simulateState(state, space);
  if (failed(simulated))
    return failure();

  SearchResult &result = report.search;
  result.seconds = result.secondsToBest = seconds;
  result.evaluations = 1;
  // Optimal for the ILP's own model of the program, which the simulator
  // may price otherwise (the line below says by how much).
  result.stopReason =
      solution->optimal ? "optimal in the ILP's model" : solution->note;
  result.complete = solution->optimal;
  report.actions = describeChoice(*formulation, solution->strategies, func,
                                  report.actionNotes);
  report.best = toCost(*simulated, report.initial, space);
  result.initialCost = report.initial.rel.total;
  result.bestCost = report.best.rel.total;
  if (llvm::raw_ostream *os = options.progress) {
    unsigned decisions =
        llvm::count_if(problem.nodes, [](const ilp::Problem::Node &n) {
          return n.follows < 0;
        });
    *os << llvm::format("auto-partition: ilp: %zu nodes (%u decisions), %zu "
                        "edges; %u variables, %u rows; CBC %.3f s; model "
                        "cost ",
                        problem.nodes.size(), decisions, problem.edges.size(),
                        solution->variables, solution->rows, solution->seconds)
        << sim::formatTime(solution->objective * ilp::kSecondsPerCostUnit)
        << " (step + memory penalty; replicated "
        << sim::formatTime(formulation->replicatedCost *
                           ilp::kSecondsPerCostUnit)
        << "), model peak "
        << sim::formatBytes(ilp::peakUsage(problem, solution->strategies),
                            /*exact=*/false)
        << "\n";
    double modelSeconds = solution->objective * ilp::kSecondsPerCostUnit;
    if (report.best.runtime > 0 && modelSeconds > 0) {
      double off = 100 * (report.best.runtime / modelSeconds - 1);
      *os << "auto-partition: ilp: the simulator prices the answer at "
          << sim::formatTime(report.best.runtime)
          << llvm::format(", %+.1f%% from the model's cost\n",
                          std::abs(off) < 0.05 ? 0.0 : off);
    }
    // Where the answer lies in MCTS's action space (docs/search.md).
    if (failed(explainStrategy(space, state, &report.best, *os)))
      return failure();
  }
  return success();
}

} // namespace toast::search
