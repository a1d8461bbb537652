//===- AutoPartitionTest.cpp - Searches on the NDA space of tiny models ---===//
//
// MCTS and the baselines on a tiny Gemma-style transformer, priced on a
// slow device (10 MFLOP/s) so that partitioning pays off at this size:
// reproducibility with threads, MCTS against the baselines at equal budget,
// the AutoMap space's mapping to NDA states, and the tactic after BP.
//
//===----------------------------------------------------------------------===//

#include "toast/Search/AutoPartition.h"
#include "toast/InitAllDialects.h"
#include "toast/Models/Models.h"
#include "toast/Partition/Schedule.h"
#include "toast/Search/Baselines.h"
#include "toast/Search/Explain.h"
#include "toast/Simulator/Device.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace toast;
using namespace toast::search;

namespace {

class AutoPartitionTest : public ::testing::Test {
protected:
  void SetUp() override {
    DialectRegistry registry;
    registerAllDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
    models::ModelOptions options;
    options.ints = {{"layers", 2},   {"batch", 8},  {"seq", 8},
                    {"d-model", 16}, {"heads", 4},  {"key-size", 4},
                    {"vocab", 32},   {"hidden", 32}};
    std::string error;
    module = models::buildModel(&ctx, "t2b", options, error);
    ASSERT_TRUE(module) << error;
    auto entry = partition::getEntryFunction(*module);
    ASSERT_TRUE(succeeded(entry));
    func = *entry;
    ASSERT_TRUE(succeeded(partition::prepareEntryFunction(func)));
    mesh = *partition::resolveMesh(*module, {{"B", 4}, {"M", 2}});
    auto a100 = sim::getBuiltinDevice("a100");
    ASSERT_TRUE(static_cast<bool>(a100));
    device = *a100;
    device.name = "slow";
    device.peakFlops = {{"f32", 1e7}};
  }

  std::unique_ptr<NdaEnvironment>
  makeSpace(partition::ShardingState *start = nullptr,
            std::vector<std::string> axes = {}) {
    NdaEnvironmentOptions options;
    options.minDims = 2;
    auto space =
        NdaEnvironment::create(func, mesh, axes, device, options, start);
    EXPECT_TRUE(succeeded(space));
    return succeeded(space) ? std::move(*space) : nullptr;
  }

  static SearchOptions budget(unsigned threads, uint64_t seed = 1) {
    SearchOptions options;
    options.threads = threads;
    options.seed = seed;
    options.maxRollouts = 1500;
    return options;
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
  partir::MeshAttr mesh;
  sim::DeviceSpec device;
};

TEST_F(AutoPartitionTest, MctsIsReproducibleForAGivenThreadCount) {
  auto space = makeSpace();
  for (unsigned threads : {1u, 2u}) {
    SearchResult first = runMcts(*space, budget(threads, 4));
    SearchResult second = runMcts(*space, budget(threads, 4));
    SCOPED_TRACE(threads);
    EXPECT_EQ(first.actions, second.actions);
    EXPECT_EQ(first.bestCost, second.bestCost);
    EXPECT_EQ(first.rollouts, second.rollouts);
    EXPECT_LT(first.bestCost, first.initialCost);
  }
}

// MCTS against the baselines at equal budget. AutoMap is not asserted
// against: its argument tilings propagate to states (parameters sharded on
// B next to a batch sharded on B and M) that NDA actions cannot reach once
// the batch color uses both axes; here it ends within 1% of MCTS.
TEST_F(AutoPartitionTest, MctsBeatsTheBaselinesAtEqualBudget) {
  auto space = makeSpace();
  partition::ShardingState start(func, mesh);
  AutoMapEnvironment automap(*space, start);
  SearchResult mcts = runMcts(*space, budget(2));
  SearchResult random = runRandomSearch(*space, budget(2));
  SearchResult argumentsOnly = runMcts(automap, budget(2));
  EXPECT_LE(mcts.bestCost, random.bestCost);
  EXPECT_LE(mcts.bestCost, argumentsOnly.bestCost * 1.01);
  EXPECT_LT(argumentsOnly.bestCost, argumentsOnly.initialCost);
  // The AutoMap result prices as the NDA state it propagates to.
  auto mapped = automap.toSpaceState(argumentsOnly.best);
  ASSERT_TRUE(succeeded(mapped));
  EXPECT_EQ(space->cost(*mapped), argumentsOnly.bestCost);
}

TEST_F(AutoPartitionTest, AutoMapStatesPropagateLikeManualTactics) {
  auto space = makeSpace();
  partition::ShardingState start(func, mesh);
  AutoMapEnvironment automap(*space, start);
  // Tile every batch.* argument on dimension 0 over B, as BP does.
  SearchState state = automap.getInitialState();
  unsigned tiled = 0;
  for (unsigned a = 0; a != automap.getNumActions(); ++a) {
    std::string words = automap.describeAction(a);
    for (BlockArgument arg : func.getArguments()) {
      auto name =
          func.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "partir.name");
      std::string prefix = "shard argument " +
                           std::to_string(arg.getArgNumber()) +
                           " dim 0 on axis B";
      if (name && name.getValue().starts_with("batch.") && words == prefix &&
          automap.isLegal(state, a)) {
        automap.apply(state, a);
        ++tiled;
      }
    }
  }
  EXPECT_EQ(tiled, 2u);
  partition::ShardingState manual(func, mesh);
  partition::ManualTactic bp{"BP", "B", {}};
  bp.inputs.push_back({"re:batch\\..*", {}});
  ASSERT_TRUE(succeeded(partition::applyManualTactic(manual, bp)));
  auto expected = space->importState(manual);
  auto mapped = automap.toSpaceState(state);
  ASSERT_TRUE(succeeded(expected));
  ASSERT_TRUE(succeeded(mapped));
  EXPECT_EQ(*mapped, *expected);
}

TEST_F(AutoPartitionTest, TacticAfterBatchParallelismKeepsTheBatchSharding) {
  partition::ShardingState state(func, mesh);
  partition::ManualTactic bp{"BP", "B", {}};
  bp.inputs.push_back({"re:batch\\..*", {}});
  ASSERT_TRUE(succeeded(partition::applyManualTactic(state, bp)));
  auto before = makeSpace(&state);
  SearchState bpState = before->getInitialState();

  AutoOptions options;
  options.axes = {"M"};
  options.device = "a100";
  options.minDims = 2;
  options.search = budget(2);
  options.progress = nullptr;
  FailureOr<AutoReport> report = automaticPartition(state, options);
  ASSERT_TRUE(succeeded(report));
  EXPECT_LE(report->best.rel.total, report->initial.rel.total);
  for (const std::string &action : report->actions)
    EXPECT_NE(action.find("on axis M"), std::string::npos) << action;
  // Every node BP sharded on B still is.
  auto after = before->importState(state);
  ASSERT_TRUE(succeeded(after));
  for (size_t node = 0; node != bpState.nodeAxes.size(); ++node)
    EXPECT_EQ(after->nodeAxes[node] & bpState.nodeAxes[node],
              bpState.nodeAxes[node]);
}

TEST_F(AutoPartitionTest, StatesOfActionsDecomposeBackIntoActions) {
  auto space = makeSpace();
  SearchResult mcts = runMcts(*space, budget(1));
  ASSERT_FALSE(mcts.actions.empty());
  SearchState target = mcts.best;
  // Every state the search reaches is a sequence of actions; the greedy
  // decomposition that adds only the target's bits finds one.
  Decomposition exact = decomposeIntoActions(*space, target, false);
  EXPECT_EQ(exact.reached, target);
  EXPECT_EQ(exact.coveredBits, exact.targetBits);
  EXPECT_EQ(exact.extraBits, 0u);
  EXPECT_LE(exact.actions.size(), mcts.actions.size());
  // Through a ShardingState, as the ILP's answer is explained.
  partition::ShardingState written(func, mesh);
  ASSERT_TRUE(succeeded(space->materialize(target, written)));
  std::string text;
  llvm::raw_string_ostream os(text);
  ASSERT_TRUE(succeeded(explainStrategy(*space, written, nullptr, os)));
  EXPECT_NE(text.find("(reached exactly)"), std::string::npos) << text;
  EXPECT_EQ(text.find("missing"), std::string::npos) << text;
}

/// States reached through context actions (a family action restricted to
/// where it meets a batch-like color) decompose back into actions too:
/// every context action is an action of the space like the others.
TEST_F(AutoPartitionTest, StatesOfContextActionsDecomposeBackIntoActions) {
  NdaEnvironmentOptions options;
  options.minDims = 2;
  options.contextActions = true;
  auto created = NdaEnvironment::create(func, mesh, {}, device, options);
  ASSERT_TRUE(succeeded(created));
  NdaEnvironment &space = **created;
  unsigned tried = 0;
  for (unsigned a = 0; a < space.getNumActions(); ++a) {
    if (space.getAction(a).context < 0)
      continue;
    // The context action, then the first legal family action on the other
    // axis.
    SearchState target = space.getInitialState();
    space.apply(target, a);
    for (unsigned b = 0; b < space.getNumActions(); ++b)
      if (space.getAction(b).context < 0 &&
          space.getAction(b).axis != space.getAction(a).axis &&
          space.isLegal(target, b)) {
        space.apply(target, b);
        break;
      }
    Decomposition exact = decomposeIntoActions(space, target, false);
    EXPECT_EQ(exact.reached, target) << space.describeAction(a);
    EXPECT_EQ(exact.extraBits, 0u);
    ++tried;
  }
  EXPECT_GT(tried, 0u);
}

} // namespace
