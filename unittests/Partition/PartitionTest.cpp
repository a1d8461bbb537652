//===- PartitionTest.cpp - The C++ partition() API and schedules ---------===//
//
// partition(module, schedule) from C++ on the matmul chain of PartIR
// Listing 2: per-tactic reports, the resulting loop structure, and schedule
// parsing errors.
//
//===----------------------------------------------------------------------===//

#include "toast/InitAllDialects.h"
#include "toast/Partition/Schedule.h"
#include "toast/Partition/ScheduleWriter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace toast;
using namespace toast::partition;

namespace {

constexpr const char *kChain = R"mlir(
func.func @main(%x: tensor<256x8xf32> {partir.name = "x"},
                %w1: tensor<8x16xf32> {partir.name = "w1"},
                %w2: tensor<16x8xf32> {partir.name = "w2"}) -> tensor<256x8xf32> {
  %x1 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<256x8xf32>, tensor<8x16xf32>) -> tensor<256x16xf32>
  %x2 = stablehlo.dot_general %x1, %w2, contracting_dims = [1] x [0] : (tensor<256x16xf32>, tensor<16x8xf32>) -> tensor<256x8xf32>
  return %x2 : tensor<256x8xf32>
}
)mlir";

class PartitionTest : public ::testing::Test {
protected:
  PartitionTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
    handler = ctx.getDiagEngine().registerHandler([this](Diagnostic &d) {
      errors.push_back(d.str());
      return success();
    });
  }
  ~PartitionTest() override { ctx.getDiagEngine().eraseHandler(handler); }

  OwningOpRef<ModuleOp> parseChain() {
    return parseSourceString<ModuleOp>(kChain, &ctx);
  }

  static ManualTactic tactic(std::string name, std::string axis,
                             std::vector<std::pair<std::string, int64_t>> in) {
    ManualTactic t{std::move(name), std::move(axis), {}};
    for (auto &[selector, dim] : in)
      t.inputs.push_back({selector, {InputSpec::Kind::Dim, dim}});
    return t;
  }

  /// (axis, action) of every loop, in walk order.
  static std::vector<std::string> loops(ModuleOp module) {
    std::vector<std::string> result;
    module->walk<WalkOrder::PreOrder>([&](partir::LoopOp loop) {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << loop.getAxis() << ":" << loop.getActions()[0];
      result.push_back(s);
    });
    return result;
  }

  MLIRContext ctx;
  DiagnosticEngine::HandlerID handler;
  std::vector<std::string> errors;
};

TEST_F(PartitionTest, BatchParallelismFusesTheChain) {
  auto module = parseChain();
  ASSERT_TRUE(module);
  Schedule schedule;
  schedule.mesh = {{"B", 4}, {"M", 2}};
  schedule.tactics = {tactic("BP", "B", {{"x", 0}})};
  auto reports = toast::partition::partition(*module, schedule);
  ASSERT_TRUE(succeeded(reports));
  ASSERT_EQ(reports->size(), 1u);
  EXPECT_EQ((*reports)[0].actions, 1u);
  EXPECT_EQ((*reports)[0].opsOnAxis, 2u);
  EXPECT_EQ((*reports)[0].stats.conflicts, 0u);
  EXPECT_TRUE(succeeded(verify(*module)));
  // Listing 8: one loop over B.
  EXPECT_EQ(loops(*module), std::vector<std::string>{"B:#partir.tile<0>"});
}

TEST_F(PartitionTest, MegatronInfersTheSecondWeight) {
  auto module = parseChain();
  ASSERT_TRUE(module);
  Schedule schedule;
  schedule.mesh = {{"B", 4}, {"M", 2}};
  schedule.tactics = {tactic("BP", "B", {{"x", 0}}),
                      tactic("MP", "M", {{"w1", 1}})};
  auto reports = toast::partition::partition(*module, schedule);
  ASSERT_TRUE(succeeded(reports));
  EXPECT_EQ((*reports)[1].opsOnAxis, 2u);
  EXPECT_EQ(loops(*module),
            (std::vector<std::string>{"B:#partir.tile<0>", "M:#partir.sum"}));
}

TEST_F(PartitionTest, AnnotatedStateRoundTripsThroughAttributes) {
  // Without materialization the state is saved as attributes; running the
  // next tactic in a second call gives the same result as one schedule.
  auto module = parseChain();
  ASSERT_TRUE(module);
  Schedule first, second;
  first.mesh = {{"B", 4}, {"M", 2}};
  first.tactics = {tactic("BP", "B", {{"x", 0}})};
  second.tactics = {tactic("MP", "M", {{"w1", 1}})};
  ASSERT_TRUE(succeeded(
      toast::partition::partition(*module, first, /*materialize=*/false)));
  ASSERT_TRUE(succeeded(toast::partition::partition(*module, second)));
  EXPECT_EQ(loops(*module),
            (std::vector<std::string>{"B:#partir.tile<0>", "M:#partir.sum"}));
}

TEST_F(PartitionTest, StateComparisonCountsValueTilingsBeyondTheNest) {
  // Two states with the same loop nests lower differently when one also
  // tiles an intermediate value explicitly on an axis its producer does not
  // loop over (a reshard); the comparison counts that value. Propagated,
  // the state replays exactly from a schedule that pins the value.
  auto original = parseChain();
  ASSERT_TRUE(original);
  Schedule schedule;
  schedule.mesh = {{"B", 4}, {"M", 2}};
  schedule.tactics = {tactic("BP", "B", {{"x", 0}})};
  OwningOpRef<ModuleOp> a = original->clone(), b = original->clone();
  ASSERT_TRUE(succeeded(
      toast::partition::partition(*a, schedule, /*materialize=*/false)));
  ASSERT_TRUE(succeeded(
      toast::partition::partition(*b, schedule, /*materialize=*/false)));
  auto funcA = getEntryFunction(*a), funcB = getEntryFunction(*b);
  ASSERT_TRUE(succeeded(funcA) && succeeded(funcB));
  ShardingState stateA(*funcA, partir::getMesh(*a)),
      stateB(*funcB, partir::getMesh(*b));
  ASSERT_TRUE(succeeded(stateA.load()) && succeeded(stateB.load()));
  EXPECT_EQ(countStateDifferences(stateA, stateB), 0u);
  Operation *dot = numberedOps(*funcB)[0];
  ASSERT_TRUE(
      succeeded(stateB.setExplicitTiling(dot->getResult(0), {{"M", 1}})));
  EXPECT_EQ(countStateDifferences(stateA, stateB), 1u);
  // The partial replay's warning names it (op results as `#N`).
  EXPECT_EQ(describeStateDifferences(stateA, stateB, /*limit=*/8),
            (SmallVector<std::string>{
                "value #0 is tiled [B:0], the replay [B:0, M:1]"}));
  EXPECT_TRUE(describeStateDifferences(stateA, stateB, /*limit=*/0).empty());
  // As a key: after the ops (the two dots and the return) and the three
  // arguments, the first dot's result.
  EXPECT_EQ(stateDifferences(stateA, stateB), (SmallVector<unsigned>{6}));
  // Propagated, the tiling makes both dots loop over M; the writer pins it.
  stateB.propagate();
  FailureOr<WrittenSchedule> written =
      writeScheduleFromState(stateB, *original);
  ASSERT_TRUE(succeeded(written));
  EXPECT_EQ(written->differences, 0u);
  EXPECT_EQ(written->repairs, 1u);
  EXPECT_NE(printScheduleJson(written->schedule).find("\"#0\": 1"),
            std::string::npos);
}

TEST_F(PartitionTest, UnknownInputIsAnError) {
  auto module = parseChain();
  ASSERT_TRUE(module);
  Schedule schedule;
  schedule.mesh = {{"B", 4}};
  schedule.tactics = {tactic("BP", "B", {{"nosuch", 0}})};
  EXPECT_TRUE(failed(toast::partition::partition(*module, schedule)));
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors[0].find("no input matches 'nosuch'"), std::string::npos);
}

TEST(ScheduleParseTest, ReadsMeshInTextOrderAndInputs) {
  std::string error;
  auto schedule = parseSchedule(
      R"({"mesh": {"M": 2, "B": 4}, "tactics": [{"name": "Z3", "kind":
      "manual", "axis": "B", "inputs": {"re:.*w[12]$": "first_divisible",
      "arg5": "replicated", "arg0": 1}}]})",
      error);
  ASSERT_TRUE(succeeded(schedule)) << error;
  ASSERT_EQ(schedule->mesh.size(), 2u);
  EXPECT_EQ(schedule->mesh[0].first, "M");
  EXPECT_EQ(schedule->mesh[1].second, 4);
  ASSERT_EQ(schedule->tactics.size(), 1u);
  const ManualTactic &t = schedule->tactics[0];
  EXPECT_EQ(t.name, "Z3");
  ASSERT_EQ(t.inputs.size(), 3u);
  // Selectors are sorted for a deterministic order.
  EXPECT_EQ(t.inputs[0].first, "arg0");
  EXPECT_EQ(t.inputs[0].second.dim, 1);
  EXPECT_EQ(t.inputs[1].second.kind, InputSpec::Kind::Replicated);
  EXPECT_EQ(t.inputs[2].second.kind, InputSpec::Kind::FirstDivisible);
}

TEST(ScheduleParseTest, ReportsErrorsWithAPath) {
  std::string error;
  EXPECT_TRUE(failed(parseSchedule("{\"tactics\": [", error)));
  EXPECT_NE(error.find("invalid JSON"), std::string::npos);
  EXPECT_TRUE(failed(parseSchedule(
      R"({"tactics": [{"kind": "manual", "inputs": {}}]})", error)));
  EXPECT_EQ(error, "schedule.tactics[0]: missing 'axis'");
  EXPECT_TRUE(failed(parseSchedule(R"({"tactic": []})", error)));
  EXPECT_NE(error.find("unknown key 'tactic'"), std::string::npos);
}

} // namespace
