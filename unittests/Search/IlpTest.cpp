//===- IlpTest.cpp - The ILP baseline: solver, IOPDDL, formulation --------===//
//
// CBC against brute force on small random problems, the IOPDDL writer read
// back, the time limit, and the strategies formulated for the MLP.
//
//===----------------------------------------------------------------------===//

#include "toast/Search/Ilp.h"
#include "../TestSupport.h"
#include "toast/Dialect/StableHLO/IR/StablehloOps.h"
#include "toast/InitAllDialects.h"
#include "toast/Partition/Schedule.h"
#include "toast/Search/AutoPartition.h"
#include "toast/Simulator/Device.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include <optional>
#include <random>

using namespace mlir;
using namespace toast;
using namespace toast::search;

namespace {

/// A random problem: `n` nodes of `s` strategies, a chain of edges plus
/// `extra` random ones, every third node following its predecessor; with
/// `buffers`, every other edge holds a buffer at its consumer's start.
ilp::Problem randomProblem(unsigned n, unsigned s, unsigned extra,
                           unsigned seed, bool followers = true,
                           bool buffers = false) {
  std::mt19937 rng(seed);
  auto below = [&](int64_t bound) {
    return std::uniform_int_distribution<int64_t>(0, bound - 1)(rng);
  };
  ilp::Problem problem;
  problem.name = "random";
  for (unsigned i = 0; i < n; ++i) {
    ilp::Problem::Node node;
    node.start = below(10);
    node.end = node.start + 1 + below(10);
    for (unsigned k = 0; k < s; ++k) {
      node.costs.push_back(below(1000));
      node.usages.push_back(below(100));
    }
    if (followers && i % 3 == 2)
      node.follows = i - 1;
    problem.nodes.push_back(node);
  }
  auto addEdge = [&](unsigned from, unsigned to) {
    ilp::Problem::Edge edge{from, to, {}};
    for (unsigned k = 0; k < s * s; ++k)
      edge.costs.push_back(below(1000));
    if (buffers && problem.edges.size() % 2 == 0) {
      for (unsigned k = 0; k < s * s; ++k)
        edge.usages.push_back(below(60));
      edge.start = problem.nodes[to].start;
      edge.end = edge.start + 1;
    }
    problem.edges.push_back(edge);
  };
  for (unsigned i = 1; i < n; ++i)
    addEdge(i - 1, i);
  for (unsigned k = 0; k < extra; ++k) {
    unsigned a = below(n), b = below(n);
    if (a != b)
      addEdge(std::min(a, b), std::max(a, b));
  }
  problem.usageLimit = 150;
  return problem;
}

/// The optimum by enumeration of the leaders' strategies.
double bruteForce(const ilp::Problem &problem, double penaltyPerByte) {
  std::vector<unsigned> leaders;
  for (unsigned n = 0; n < problem.nodes.size(); ++n)
    if (problem.nodes[n].follows < 0)
      leaders.push_back(n);
  std::vector<unsigned> choice(problem.nodes.size(), 0);
  double best = INFINITY;
  while (true) {
    for (unsigned n = 0; n < problem.nodes.size(); ++n)
      choice[n] = choice[problem.getLeader(n)];
    best = std::min(best, ilp::evaluate(problem, choice, penaltyPerByte));
    size_t k = 0;
    for (; k < leaders.size(); ++k) {
      unsigned &c = choice[leaders[k]];
      if (++c < problem.nodes[leaders[k]].costs.size())
        break;
      c = 0;
    }
    if (k == leaders.size())
      return best;
  }
}

TEST(IlpSolver, MatchesBruteForceOnRandomProblems) {
  if (!ilp::haveSolver())
    GTEST_SKIP() << "built without CBC";
  for (unsigned seed = 1; seed <= 5; ++seed)
    for (double penalty : {0.0, 50.0}) {
      ilp::Problem problem = randomProblem(9, 3, 4, seed);
      ilp::SolveOptions options;
      options.penaltyPerByte = penalty;
      llvm::Expected<ilp::Solution> solution = ilp::solve(problem, options);
      ASSERT_TRUE(static_cast<bool>(solution));
      EXPECT_TRUE(solution->optimal) << solution->note;
      EXPECT_EQ(solution->note, "optimal");
      for (unsigned n = 0; n < problem.nodes.size(); ++n)
        EXPECT_EQ(solution->strategies[n],
                  solution->strategies[problem.getLeader(n)]);
      EXPECT_NEAR(solution->objective, bruteForce(problem, penalty), 1e-6)
          << "seed " << seed << " penalty " << penalty;
    }
}

// Edge buffers count in the memory rows (through the edges' linearization,
// or the indicators when both ends follow one decision) exactly as
// `evaluate` counts them.
TEST(IlpSolver, MatchesBruteForceWithEdgeBuffers) {
  if (!ilp::haveSolver())
    GTEST_SKIP() << "built without CBC";
  for (unsigned seed = 1; seed <= 5; ++seed) {
    ilp::Problem problem =
        randomProblem(9, 3, 4, seed, /*followers=*/true, /*buffers=*/true);
    // Both ends of one edge on one decision: only its diagonal happens.
    problem.edges.push_back(
        {1, 2, std::vector<int64_t>(9, 0), {70, 1, 1, 1, 0, 1, 1, 1, 5}, 3, 5});
    ilp::SolveOptions options;
    options.penaltyPerByte = 50;
    llvm::Expected<ilp::Solution> solution = ilp::solve(problem, options);
    ASSERT_TRUE(static_cast<bool>(solution));
    EXPECT_TRUE(solution->optimal) << solution->note;
    EXPECT_NEAR(solution->objective, bruteForce(problem, 50), 1e-6)
        << "seed " << seed;
  }
}

TEST(IlpLocalSearch, ImprovesAndStopsAtALocalOptimum) {
  for (unsigned seed = 1; seed <= 10; ++seed) {
    // Half of them with edge buffers, which the moves price incrementally.
    ilp::Problem problem =
        randomProblem(9, 3, 4, seed, /*followers=*/true, seed > 5);
    std::vector<unsigned> start(problem.nodes.size(), 0);
    std::vector<unsigned> result = ilp::improveLocally(problem, start, 50, 10);
    double cost = ilp::evaluate(problem, result, 50);
    EXPECT_LE(cost, ilp::evaluate(problem, start, 50));
    EXPECT_GE(cost, bruteForce(problem, 50));
    // No single decision can improve it.
    for (unsigned n = 0; n < problem.nodes.size(); ++n) {
      if (problem.nodes[n].follows >= 0)
        continue;
      for (unsigned s = 0; s < problem.nodes[n].costs.size(); ++s) {
        std::vector<unsigned> moved = result;
        for (unsigned m = 0; m < problem.nodes.size(); ++m)
          if (problem.getLeader(m) == n)
            moved[m] = s;
        EXPECT_GE(ilp::evaluate(problem, moved, 50), cost - 1e-9);
      }
    }
  }
}

TEST(IlpSolver, TimeLimitReturnsTheBestSolutionFoundWithANote) {
  if (!ilp::haveSolver())
    GTEST_SKIP() << "built without CBC";
  // Dense random edges make a relaxation far from integral: branch and
  // bound cannot finish in a millisecond.
  ilp::Problem problem = randomProblem(60, 6, 400, 7, /*followers=*/false);
  ilp::SolveOptions options;
  options.timeLimitSeconds = 0.001;
  llvm::Expected<ilp::Solution> solution = ilp::solve(problem, options);
  ASSERT_TRUE(static_cast<bool>(solution));
  EXPECT_TRUE(solution->timedOut);
  EXPECT_FALSE(solution->optimal);
  EXPECT_NE(solution->note.find("time limit"), std::string::npos)
      << solution->note;
  ASSERT_EQ(solution->strategies.size(), problem.nodes.size());
  EXPECT_DOUBLE_EQ(solution->objective,
                   ilp::evaluate(problem, solution->strategies, 0));
}

/// `problem` written as IOPDDL and read back (nullopt, with a failure,
/// when the reader rejects it).
std::optional<ilp::Problem> writeAndReadBack(const ilp::Problem &problem) {
  std::string text;
  llvm::raw_string_ostream os(text);
  ilp::writeIopddl(problem, os);
  llvm::Expected<ilp::Problem> read = ilp::readIopddl(text);
  if (!read) {
    ADD_FAILURE() << llvm::toString(read.takeError());
    return std::nullopt;
  }
  return std::move(*read);
}

TEST(Iopddl, ReadsBackWhatItWrites) {
  ilp::Problem problem = randomProblem(12, 4, 6, 3);
  std::optional<ilp::Problem> read = writeAndReadBack(problem);
  ASSERT_TRUE(read);
  EXPECT_TRUE(*read == problem);
  EXPECT_EQ(read->nodes[2].follows, 1);
  // Edge buffers travel in the edges' "intervals" and "usages".
  ilp::Problem buffered =
      randomProblem(12, 4, 6, 3, /*followers=*/true, /*buffers=*/true);
  read = writeAndReadBack(buffered);
  ASSERT_TRUE(read);
  EXPECT_TRUE(*read == buffered);
  EXPECT_EQ(read->nodes[2].follows, 1);
}

TEST(Iopddl, ReadsTheFormatsExample) {
  // The shape of the example in the IOPDDL problem statement.
  const char *text = R"({"problem": {"name": "example",
    "nodes": {"intervals": [[30, 70], [40, 70], [10, 40]],
              "costs": [[15], [55, 65], [25, 45, 35]],
              "usages": [[10], [25, 25], [15, 20, 15]]},
    "edges": {"nodes": [[0, 1], [0, 2], [1, 2]],
              "costs": [[30, 40], [50, 10, 40], [90, 10, 60, 20, 80, 30]]},
    "usage_limit": 50}})";
  llvm::Expected<ilp::Problem> problem = ilp::readIopddl(text);
  ASSERT_TRUE(static_cast<bool>(problem))
      << llvm::toString(problem.takeError());
  EXPECT_EQ(problem->nodes.size(), 3u);
  EXPECT_EQ(problem->edges.size(), 3u);
  EXPECT_EQ(problem->usageLimit, 50);
  EXPECT_EQ(problem->nodes[2].end, 40);
  // Node 0 takes strategy 0, node 1 strategy 1, node 2 strategy 2:
  // 15 + 65 + 35 + 40 + 40 + 30 = 225. Intervals are half-open: node 2
  // ([10, 40)) never meets node 1 ([40, 70)), so the peak is 10 + 25.
  EXPECT_DOUBLE_EQ(ilp::evaluate(*problem, {0, 1, 2}, 1), 225);
  EXPECT_EQ(ilp::peakUsage(*problem, {0, 1, 2}), 35);
}

TEST(Iopddl, RejectsMalformedProblems) {
  for (const char *text :
       {"[", R"({"problem": {}})",
        R"({"problem": {"nodes": {"intervals": [[0, 1]], "costs": [[1, 2]],
            "usages": [[1]]}, "edges": {"nodes": [], "costs": []}}})",
        R"({"problem": {"nodes": {"intervals": [[0, 1]], "costs": [[1]],
            "usages": [[1]]}, "edges": {"nodes": [[0, 3]],
            "costs": [[1]]}}})"}) {
    llvm::Expected<ilp::Problem> problem = ilp::readIopddl(text);
    ASSERT_FALSE(static_cast<bool>(problem)) << text;
    EXPECT_NE(llvm::toString(problem.takeError()).find("invalid IOPDDL"),
              std::string::npos);
  }
}

class IlpFormulation : public ::testing::Test {
protected:
  void SetUp() override {
    DialectRegistry registry;
    registerAllDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  /// A program of the source tree on {B:4, M:2}, formulated for the a100.
  struct Formulated {
    OwningOpRef<ModuleOp> module;
    func::FuncOp entry;
    std::unique_ptr<partition::ShardingState> state;
    std::optional<sim::DeviceSpec> device;
    std::optional<ilp::Formulation> formulation;
  };
  void formulateFile(StringRef path, Formulated &out) {
    out.module = parseSourceFile<ModuleOp>(
        std::string(TOAST_SOURCE_DIR) + "/" + path.str(), ParserConfig(&ctx));
    ASSERT_TRUE(out.module);
    auto entry = partition::getEntryFunction(*out.module);
    ASSERT_TRUE(succeeded(entry));
    out.entry = *entry;
    auto mesh = partition::resolveMesh(*out.module, {{"B", 4}, {"M", 2}});
    ASSERT_TRUE(succeeded(mesh));
    out.state = std::make_unique<partition::ShardingState>(*entry, *mesh);
    auto device = sim::getBuiltinDevice("a100");
    ASSERT_TRUE(static_cast<bool>(device));
    out.device = *device;
    FailureOr<ilp::Formulation> formulation =
        ilp::formulate(*out.state, {}, *device);
    ASSERT_TRUE(succeeded(formulation));
    out.formulation = std::move(*formulation);
  }

  MLIRContext ctx;
};

// examples/mlp.mlir on {B:4, M:2}: 3 arguments, 2 matmuls and the relu,
// which follows the first matmul; the broadcast of the zero constant reads
// no node and is computed as the relu reads it (a node following the relu). The
// problem survives IOPDDL, and CBC's choice is batch parallelism on all 8
// devices (the exhaustive optimum, ExhaustiveTest).
TEST_F(IlpFormulation, MlpIsBatchParallelAndSurvivesIopddl) {
  Formulated mlp;
  ASSERT_NO_FATAL_FAILURE(formulateFile("examples/mlp.mlir", mlp));
  const std::optional<ilp::Formulation> &formulation = mlp.formulation;
  const ilp::Problem &problem = formulation->problem;
  // The broadcast of the zero constant is a follower node too: its buffer
  // counts in the memory model.
  ASSERT_EQ(problem.nodes.size(), 7u);
  EXPECT_EQ(llvm::count_if(problem.nodes,
                           [](auto &node) { return node.follows >= 0; }),
            2);
  EXPECT_EQ(problem.usageLimit, mlp.device->memoryBytes);
  ASSERT_EQ(formulation->userFollowers.size(), 1u);

  std::optional<ilp::Problem> read = writeAndReadBack(problem);
  ASSERT_TRUE(read);
  EXPECT_TRUE(*read == problem);

  if (!ilp::haveSolver())
    GTEST_SKIP() << "built without CBC";
  llvm::Expected<ilp::Solution> solution = ilp::solve(problem, {});
  ASSERT_TRUE(static_cast<bool>(solution));
  EXPECT_TRUE(solution->optimal);
  ASSERT_TRUE(succeeded(
      ilp::applySolution(*formulation, solution->strategies, *mlp.state)));
  for (Operation &op : mlp.entry.getBody().front()) {
    if (!isa<stablehlo::DotGeneralOp>(op))
      continue;
    auto nest = mlp.state->getLoopNest(&op);
    ASSERT_EQ(nest.size(), 2u);
    EXPECT_EQ(nest[0].axis, "B");
    EXPECT_EQ(nest[0].factor, 0);
    EXPECT_EQ(nest[1].axis, "M");
    EXPECT_EQ(nest[1].factor, 0);
  }
}

/// `problem` without its edge buffers (the memory model before them).
ilp::Problem withoutEdgeBuffers(ilp::Problem problem) {
  for (ilp::Problem::Edge &edge : problem.edges) {
    edge.usages.clear();
    edge.start = edge.end = 0;
  }
  return problem;
}

// The MLP with a batch of 4 on {B:4, M:2} (ilp.mlir): resharding an
// operand (gathering it, or slicing a replicated weight with all_slice)
// makes a buffer that lives at its consumer. With the device memory set to
// the smallest peak the model allows, the ILP that counts these buffers
// finds a strategy that fits (4220928 B); the ILP blind to them (the
// memory model before edge buffers) picks a faster one that it believes
// fits and that holds 4286464 B.
TEST_F(IlpFormulation, EdgeBuffersChangeTheChoiceUnderAMemoryLimit) {
  if (!ilp::haveSolver())
    GTEST_SKIP() << "built without CBC";
  Formulated mlp;
  ASSERT_NO_FATAL_FAILURE(
      formulateFile("test/Search/Inputs/mlp-batch4.mlir", mlp));
  ilp::Problem problem = mlp.formulation->problem;
  EXPECT_TRUE(llvm::any_of(problem.edges, [](const ilp::Problem::Edge &e) {
    return !e.usages.empty();
  }));
  // The edge buffers survive IOPDDL.
  std::optional<ilp::Problem> read = writeAndReadBack(problem);
  ASSERT_TRUE(read);
  EXPECT_TRUE(*read == problem);

  // The smallest peak: everything priced below a byte of excess.
  ilp::SolveOptions options;
  options.penaltyPerByte = 1e9;
  problem.usageLimit = 0;
  llvm::Expected<ilp::Solution> smallest = ilp::solve(problem, options);
  ASSERT_TRUE(static_cast<bool>(smallest));
  problem.usageLimit = ilp::peakUsage(problem, smallest->strategies);

  ilp::Problem blind = withoutEdgeBuffers(problem);
  llvm::Expected<ilp::Solution> unaware = ilp::solve(blind, options);
  ASSERT_TRUE(static_cast<bool>(unaware));
  EXPECT_LE(ilp::peakUsage(blind, unaware->strategies), problem.usageLimit);
  EXPECT_GT(ilp::peakUsage(problem, unaware->strategies), problem.usageLimit);
  llvm::Expected<ilp::Solution> aware = ilp::solve(problem, options);
  ASSERT_TRUE(static_cast<bool>(aware));
  EXPECT_TRUE(aware->optimal) << aware->note;
  EXPECT_NE(aware->strategies, unaware->strategies);
  EXPECT_LE(ilp::peakUsage(problem, aware->strategies), problem.usageLimit);
}

// The ILP prices what lowering produces: the strategy MCTS finds on a tiny
// training step (not the ILP's own), looked up in the formulation, costs
// in the ILP's model what the simulator says it costs after
// materialization and lowering. Reductions are nodes like other ruled ops
// and broadcasts that add dimensions decide for themselves: without that
// the formulation could not express MCTS's strategies (full-size ITX
// priced at 380 ms against 134 ms simulated).
TEST_F(IlpFormulation, PricesTheSearchsStrategyAsTheSimulatorDoes) {
  OwningOpRef<ModuleOp> module = test_support::buildModelFromSpec(
      ctx, "t2b --layers 2 --batch 8 --seq 16 --d-model 32 --heads 4 "
           "--key-size 8 --vocab 64 --hidden 64");
  ASSERT_TRUE(module);
  auto entry = partition::getEntryFunction(*module);
  ASSERT_TRUE(succeeded(entry));
  auto mesh = partition::resolveMesh(*module, {{"B", 4}, {"M", 2}});
  ASSERT_TRUE(succeeded(mesh));
  // Compute slow enough that partitioning pays on a tiny model.
  std::string slow =
      "file:" + std::string(TOAST_SOURCE_DIR) + "/test/Search/Inputs/slow.json";
  auto device = sim::lookupDevice(slow);
  ASSERT_TRUE(static_cast<bool>(device));
  partition::ShardingState fresh(*entry, *mesh);
  FailureOr<ilp::Formulation> formulation = ilp::formulate(fresh, {}, *device);
  ASSERT_TRUE(succeeded(formulation));

  partition::ShardingState searched(*entry, *mesh);
  search::AutoOptions options;
  options.device = slow;
  options.search.seed = 1;
  options.search.budgetSeconds = 20;
  options.progress = nullptr;
  FailureOr<search::AutoReport> report =
      search::automaticPartition(searched, options);
  ASSERT_TRUE(succeeded(report));
  ASSERT_FALSE(report->actions.empty());
  FailureOr<std::vector<unsigned>> strategies =
      ilp::findStrategies(*formulation, searched);
  ASSERT_TRUE(succeeded(strategies));
  double modelSeconds = ilp::evaluate(formulation->problem, *strategies, 0) *
                        ilp::kSecondsPerCostUnit;
  // The search's best cost is the simulator's step time (agreement test).
  EXPECT_NEAR(modelSeconds, report->best.runtime, 0.01 * report->best.runtime);
}

} // namespace
