//===- ExhaustiveTest.cpp - Exhaustive enumeration as the search's oracle -===//
//
// Exhaustive enumeration of NDA spaces small enough to count by hand, and
// MCTS, stopping by itself, against the enumerated optimum on a few tiny
// programs (seconds in CI; docs/search.md).
//
//===----------------------------------------------------------------------===//

#include "toast/InitAllDialects.h"
#include "toast/Models/Models.h"
#include "toast/Partition/Schedule.h"
#include "toast/Search/Baselines.h"
#include "toast/Search/ShardingSpace.h"
#include "toast/Simulator/Device.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace toast;
using namespace toast::search;

namespace {

/// PartIR Listing 2, the matmul chain (x @ w1) @ w2, and the two-layer MLP
/// of the papers, as the repository has them.
constexpr const char *kMatmulChain = "test/Partition/Inputs/matmul-chain.mlir";
constexpr const char *kMlp = "examples/mlp.mlir";

using Mesh = llvm::SmallVector<std::pair<std::string, int64_t>>;

class ExhaustiveTest : public ::testing::Test {
protected:
  void SetUp() override {
    DialectRegistry registry;
    registerAllDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  /// Parses a file of the source tree.
  ModuleOp parse(const char *path) {
    modules.push_back(parseSourceFile<ModuleOp>(
        std::string(TOAST_SOURCE_DIR) + "/" + path, ParserConfig(&ctx)));
    EXPECT_TRUE(modules.back()) << path;
    return modules.back().get();
  }

  /// The tiny MLP of the agreement tests (ShardingSpaceTest.cpp).
  ModuleOp tinyMlp() {
    models::ModelOptions options;
    options.ints = {{"batch", 8}, {"d-model", 16}, {"hidden", 32}};
    std::string error;
    modules.push_back(models::buildModel(&ctx, "mlp", options, error));
    EXPECT_TRUE(modules.back()) << error;
    return modules.back().get();
  }

  /// The NDA space of `module`'s entry function on `mesh`, priced on
  /// `device` ("slow": an a100 at 10 MFLOP/s, where partitioning tiny
  /// programs pays off).
  std::unique_ptr<NdaEnvironment> space(ModuleOp module, const Mesh &mesh,
                                        StringRef device,
                                        unsigned minDims = 2) {
    auto entry = partition::getEntryFunction(module);
    EXPECT_TRUE(succeeded(entry));
    EXPECT_TRUE(succeeded(partition::prepareEntryFunction(*entry)));
    auto spec = sim::getBuiltinDevice(device == "slow" ? "a100" : device);
    EXPECT_TRUE(static_cast<bool>(spec));
    if (device == "slow")
      spec->peakFlops = {{"f32", 1e7}};
    NdaEnvironmentOptions options;
    options.minDims = minDims;
    auto env = NdaEnvironment::create(
        *entry, *partition::resolveMesh(module, mesh), {}, *spec, options);
    EXPECT_TRUE(succeeded(env));
    return succeeded(env) ? std::move(*env) : nullptr;
  }

  MLIRContext ctx;
  std::vector<OwningOpRef<ModuleOp>> modules;
};

// The chain has four colors: the batch (x[0] and both matmuls' rows), k
// (x[1], w1[0], the first contraction), h (w1[1], w2[0], the first
// matmul's columns, the second contraction) and n (w2[1], the second
// matmul's columns). On one axis, an action shards the nodes of its color
// that share no value or op with a node already on the axis, and every
// pair of colors meets at a value or a matmul except k and n. Applying the
// colors in every order gives 24 distinct sets of nodes on the axis (the
// empty set, n alone, batch alone, k alone, then partial combinations such
// as batch followed by w1[0] alone). Every dimension divides by 8, so on
// two axes the choices do not interact: 24 x 24 states.
TEST_F(ExhaustiveTest, MatmulChainStatesCanBeCountedByHand) {
  ModuleOp module = parse(kMatmulChain);
  SearchResult oneAxis =
      runExhaustive(*space(module, {{"B", 4}}, "a100"), SearchOptions());
  EXPECT_TRUE(oneAxis.complete);
  EXPECT_EQ(oneAxis.evaluations, 24u);
  EXPECT_EQ(oneAxis.stopReason, "optimal over the actions: every state priced");

  auto env = space(module, {{"B", 4}, {"M", 2}}, "a100");
  SearchResult twoAxes = runExhaustive(*env, SearchOptions());
  EXPECT_TRUE(twoAxes.complete);
  EXPECT_EQ(twoAxes.evaluations, 576u);
  // Without gradients nothing needs communication once the batch is split
  // over all 8 devices: an eighth of the work and of the activations. The
  // dots are memory-bound on a100 (the roofline): each reads its operands
  // and writes its result, 8192 + 512 + 16384 B and 16384 + 512 + 8192 B
  // whole, 1024 + 512 + 2048 B twice on each of 8 devices, which still
  // reads both weights: 7168 / 50176 = 1/7.
  EXPECT_DOUBLE_EQ(twoAxes.bestCost, 1.0 / 7);
  ASSERT_EQ(twoAxes.actions.size(), 2u);
  for (unsigned action : twoAxes.actions)
    EXPECT_NE(env->describeAction(action).find("x[0]"), std::string::npos)
        << env->describeAction(action);
}

TEST_F(ExhaustiveTest, StateLimitGivesTheBestOfTheStatesSeen) {
  auto env = space(parse(kMatmulChain), {{"B", 4}, {"M", 2}}, "a100");
  SearchOptions options;
  options.maxStates = 9;
  SearchResult result = runExhaustive(*env, options);
  EXPECT_FALSE(result.complete);
  EXPECT_EQ(result.evaluations, 9u);
  EXPECT_EQ(result.stopReason, "best of 9 states: state limit");
  // The initial state and the 8 single actions: batch on one axis.
  EXPECT_EQ(result.actions.size(), 1u);
}

// The CI subset of the tiny zoo: MCTS with its default options (no
// budget: it stops by itself) reaches the exhaustive optimum within 0.1%.
TEST_F(ExhaustiveTest, MctsReachesTheOptimumOnTinyPrograms) {
  struct Case {
    const char *name;
    ModuleOp module;
    Mesh mesh;
    const char *device;
    unsigned minDims;
  } cases[] = {
      {"examples/mlp.mlir", parse(kMlp), {{"B", 4}, {"M", 2}}, "a100", 10},
      {"matmul chain", parse(kMatmulChain), {{"B", 2}, {"M", 2}}, "tpuv3", 2},
      {"tiny mlp", tinyMlp(), {{"B", 2}, {"M", 2}}, "slow", 2},
      {"tiny mlp", tinyMlp(), {{"B", 4}, {"M", 2}}, "slow", 2},
      {"tiny mlp", tinyMlp(), {{"B", 2}, {"S", 2}, {"M", 2}}, "slow", 2},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(std::string(c.name) + " on " + std::to_string(c.mesh.size()) +
                 " axes, " + c.device);
    auto env = space(c.module, c.mesh, c.device, c.minDims);
    SearchResult optimum = runExhaustive(*env, SearchOptions());
    ASSERT_TRUE(optimum.complete);
    for (uint64_t seed : {1, 2}) {
      SearchOptions options;
      options.seed = seed;
      SearchResult mcts = runMcts(*env, options);
      EXPECT_LE(mcts.bestCost, optimum.bestCost * 1.001) << "seed " << seed;
      EXPECT_GE(mcts.bestCost, optimum.bestCost) << "seed " << seed;
    }
  }
}

} // namespace
