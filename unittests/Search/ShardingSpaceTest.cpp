//===- ShardingSpaceTest.cpp - NDA actions and analytic cost agreement ----===//
//
// The key property of the search space: the analytic cost of a state
// agrees with the simulation of the state materialized through the normal
// path (materializeCore, lowering, collective optimization) within 1%, for
// random legal states and hand-picked strategies on the tiny model zoo.
//
// TOAST_AGREEMENT_MODELS="t2b --layers 4;gns" runs the same check on other
// model configurations (e.g. full size, offline) and prints a table.
//
//===----------------------------------------------------------------------===//

#include "toast/Search/ShardingSpace.h"
#include "toast/Dialect/PartIR/HLO/IR/PartIRHLO.h"
#include "toast/InitAllDialects.h"
#include "toast/Interfaces/ValueNames.h"
#include "toast/Interpreter/Runner.h"
#include "toast/Models/Models.h"
#include "toast/Partition/Schedule.h"
#include "toast/Partition/ShardingState.h"
#include "toast/Simulator/Device.h"
#include "toast/Simulator/Simulator.h"

#include "../TestSupport.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <random>
#include <thread>

using namespace mlir;
using namespace toast;
using namespace toast::search;

namespace {

/// A model generated from "name --opt value ...".
OwningOpRef<ModuleOp> buildModel(MLIRContext &ctx, StringRef spec) {
  return test_support::buildModelFromSpec(ctx, spec);
}

struct Agreement {
  double runtime = 0, peak = 0, rel = 0;
  void add(double a, double b, double &worst) {
    double scale = std::max(std::abs(b), 1e-30);
    worst = std::max(worst, std::abs(a - b) / scale);
  }
};

class AgreementChecker {
public:
  AgreementChecker(MLIRContext &ctx, StringRef spec, partir::MeshAttr mesh,
                   NdaEnvironmentOptions options = {})
      : AgreementChecker(spec, buildModel(ctx, spec), mesh, options) {}

  /// `program` under the name `label`.
  AgreementChecker(StringRef label, OwningOpRef<ModuleOp> program,
                   partir::MeshAttr mesh, NdaEnvironmentOptions options = {})
      : spec(label.str()), module(std::move(program)) {
    if (!module)
      return;
    FailureOr<func::FuncOp> entry = partition::getEntryFunction(*module);
    EXPECT_TRUE(succeeded(entry));
    EXPECT_TRUE(succeeded(partition::prepareEntryFunction(*entry)));
    auto device = sim::getBuiltinDevice("a100");
    EXPECT_TRUE(static_cast<bool>(device));
    auto created = NdaEnvironment::create(*entry, mesh, {}, *device, options);
    EXPECT_TRUE(succeeded(created));
    env = std::move(*created);
    auto base = env->simulateMaterialized(env->getInitialState());
    EXPECT_TRUE(succeeded(base));
    baseline = *base;
  }

  /// Compares one state; returns the worst relative error.
  double check(const SearchState &state, StringRef label) {
    if (getenv("TOAST_ANALYTIC_TRACE"))
      llvm::errs() << "=== " << spec << " [" << label << "]\n";
    AnalyticCost analytic = env->analyticCost(state);
    byReference += analytic.byReference;
    OwningOpRef<ModuleOp> lowered;
    auto simulated = env->simulateMaterialized(state, &lowered);
    EXPECT_TRUE(succeeded(simulated)) << label.str();
    if (failed(simulated))
      return 1;
    sim::RelativeCost rel = sim::computeRelativeCost(baseline, *simulated);
    double worst = 0;
    Agreement a;
    a.add(analytic.runtime, simulated->stepTime, worst);
    a.add(analytic.peakBytes, simulated->peakMemoryBytes, worst);
    a.add(analytic.rel.total, rel.total, worst);
    const char *threshold = getenv("TOAST_AGREEMENT_PRINT_ABOVE");
    if (worst > (threshold ? atof(threshold) : 0.01) ||
        getenv("TOAST_AGREEMENT_VERBOSE")) {
      llvm::errs() << spec << " [" << label << "] "
                   << llvm::count_if(state.nodeAxes,
                                     [](AxisMask m) { return m != 0; })
                   << " nodes sharded\n  runtime " << analytic.runtime << " vs "
                   << simulated->stepTime << "  peak " << analytic.peakBytes
                   << " vs " << simulated->peakMemoryBytes << "  C "
                   << analytic.rel.total << " vs " << rel.total << "\n  counts";
      for (unsigned k = 0; k < sim::kNumCollectiveKinds; ++k)
        llvm::errs() << " " << analytic.collectiveCounts[k] << "/"
                     << simulated->collectives[k].count;
      llvm::errs() << "  comm " << analytic.commTime << " vs "
                   << simulated->commTime << "  sim peak at "
                   << simulated->peakOpIndex << " " << simulated->peakOpName
                   << " " << simulated->peakOpLocation << "\n";
      if (getenv("TOAST_AGREEMENT_DUMP"))
        lowered->print(llvm::errs());
      if (const char *path = getenv("TOAST_AGREEMENT_DUMP_STATE")) {
        // The state as partir.* attributes, for --partir-materialize-core.
        func::FuncOp entry = env->getAnalysis().getEntry();
        if (succeeded(env->materialize(state, entry))) {
          std::error_code ec;
          llvm::raw_fd_ostream os(path, ec);
          module->print(os);
        }
        partition::ShardingState::clearSavedState(entry);
      }
    }
    return worst;
  }

  /// A random legal state: up to `steps` random legal actions. States
  /// that shard inside loop bodies are priced by the reference path itself
  /// (AnalyticCost::byReference), so comparing them would test nothing:
  /// actions that lead there are skipped.
  SearchState randomState(std::mt19937 &rng, unsigned steps) {
    return randomState(rng, steps, env->getInitialState());
  }
  /// The initial state, then per seed 1..numSeeds a random state of each
  /// number of steps.
  std::vector<SearchState> randomStates(unsigned numSeeds,
                                        ArrayRef<unsigned> steps) {
    std::vector<SearchState> states{env->getInitialState()};
    for (unsigned seed = 1; seed <= numSeeds; ++seed) {
      std::mt19937 rng(seed);
      for (unsigned n : steps)
        states.push_back(randomState(rng, n));
    }
    return states;
  }
  /// cost() of each of `states`, in order.
  std::vector<double> costsOf(const std::vector<SearchState> &states) {
    std::vector<double> costs;
    for (const SearchState &state : states)
      costs.push_back(env->cost(state));
    return costs;
  }
  /// The same from `state` on; with `inLoops`, only states that shard
  /// inside loop bodies (the loop model's, AnalyticLoops.cpp).
  SearchState randomState(std::mt19937 &rng, unsigned steps, SearchState state,
                          bool inLoops = false) {
    for (unsigned s = 0; s < steps; ++s) {
      std::vector<unsigned> legal;
      for (unsigned a = 0; a < env->getNumActions(); ++a) {
        if (!env->isLegal(state, a))
          continue;
        SearchState next = state;
        env->apply(next, a);
        if (env->shardsInsideRegions(next) == inLoops)
          legal.push_back(a);
      }
      if (legal.empty())
        break;
      env->apply(state, legal[rng() % legal.size()]);
    }
    return state;
  }

  std::string spec;
  /// States check() saw priced by the reference path.
  unsigned byReference = 0;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<NdaEnvironment> env;
  sim::SimulationResult baseline;
};

class ShardingSpaceTest : public ::testing::Test {
protected:
  void SetUp() override {
    DialectRegistry registry;
    registerAllDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }
  partir::MeshAttr mesh(ArrayRef<std::pair<StringRef, int64_t>> axes) {
    SmallVector<StringAttr> names;
    SmallVector<int64_t> sizes;
    for (auto [name, size] : axes) {
      names.push_back(StringAttr::get(&ctx, name));
      sizes.push_back(size);
    }
    return partir::MeshAttr::get(&ctx, names, sizes);
  }
  MLIRContext ctx;
};

const auto &kTinyModels = test_support::kTinyZoo;

/// The node of dimension `dim` (negative: from the end) of the first entry
/// argument whose partir.name (or jax.arg_info) contains `name`, or -1.
int argDimNode(NdaEnvironment &env, StringRef name, int dim) {
  const NamedDimensionAnalysis &nda = env.getAnalysis();
  func::FuncOp entry = nda.getEntry();
  for (BlockArgument arg : entry.getArguments()) {
    auto argName =
        entry.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "partir.name");
    if (!argName)
      argName = entry.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                   "jax.arg_info");
    if (!argName || !argName.getValue().contains(name))
      continue;
    int site = nda.getDefSite(arg);
    auto rank =
        static_cast<int>(cast<RankedTensorType>(arg.getType()).getRank());
    int d = dim < 0 ? rank + dim : dim;
    if (site < 0 || d < 0 || d >= rank)
      return -1;
    return nda.getNode(nda.getSites()[site].firstName + d);
  }
  return -1;
}

/// Applies the first legal action on `axis` that shards `node`.
bool applyShardingOf(NdaEnvironment &env, SearchState &state, int node,
                     StringRef axis) {
  for (unsigned a = 0; a < env.getNumActions(); ++a) {
    const NdaAction &action = env.getAction(a);
    if (env.getAxisName(action.axis) != axis ||
        !llvm::is_contained(action.nodes, static_cast<unsigned>(node)) ||
        !env.isLegal(state, a))
      continue;
    env.apply(state, a);
    return true;
  }
  return false;
}

/// Hand-picked strategies: batch sharding, Megatron (heads and MLP hidden
/// on M), both; and for the MLP its hidden layer.
TEST_F(ShardingSpaceTest, ExpertStrategiesAgreeWithSimulation) {
  partir::MeshAttr m = mesh({{"B", 2}, {"M", 2}});
  struct Pick {
    const char *arg;
    int dim;
    const char *axis;
  };
  std::vector<std::pair<std::string, std::vector<std::vector<Pick>>>> cases = {
      {kTinyModels[0],
       {{{"batch.x", 0, "B"}},
        {{"layer_0.w", -1, "M"}},
        {{"batch.x", 0, "B"}, {"layer_0.w", -1, "M"}}}},
      {kTinyModels[2],
       {{{"batch", 0, "B"}},
        {{"attn_vec_einsum", 0, "M"}, {"dense_up", -1, "M"}},
        {{"batch", 0, "B"},
         {"attn_vec_einsum", 0, "M"},
         {"dense_up", -1, "M"}}}},
      {kTinyModels[1], {{{"batch", 0, "B"}}}},
      {kTinyModels[3], {{{"batch", 0, "B"}}}},
      {kTinyModels[5], {{{"batch", 0, "B"}}}}};
  for (auto &[spec, strategies] : cases) {
    AgreementChecker checker(ctx, spec, m);
    ASSERT_TRUE(checker.env) << spec;
    for (auto [k, picks] : llvm::enumerate(strategies)) {
      SearchState state = checker.env->getInitialState();
      for (const Pick &pick : picks) {
        int node = argDimNode(*checker.env, pick.arg, pick.dim);
        ASSERT_GE(node, 0) << spec << " " << pick.arg;
        EXPECT_TRUE(applyShardingOf(*checker.env, state, node, pick.axis))
            << spec << " " << pick.arg << " on " << pick.axis;
      }
      EXPECT_LE(checker.check(state, "strategy " + std::to_string(k)), 0.01)
          << spec << " strategy " << k;
    }
  }
}

/// A state left by manual tactics (BP: tile the batch, propagate) imports
/// as the same loop nests, and its analytic cost agrees.
TEST_F(ShardingSpaceTest, ImportsManualTactics) {
  partir::MeshAttr m = mesh({{"B", 2}, {"M", 2}});
  AgreementChecker checker(ctx, kTinyModels[2], m);
  ASSERT_TRUE(checker.env);
  func::FuncOp entry = checker.env->getAnalysis().getEntry();
  partition::ShardingState manual(entry, m);
  for (BlockArgument arg : entry.getArguments()) {
    auto name =
        entry.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "partir.name");
    if (name && name.getValue().starts_with("batch.")) {
      ASSERT_TRUE(succeeded(manual.tile(arg, 0, "B")));
    }
  }
  manual.propagate();
  FailureOr<SearchState> imported = checker.env->importState(manual);
  ASSERT_TRUE(succeeded(imported));
  EXPECT_GT(llvm::count_if(imported->nodeAxes, [](AxisMask a) { return a; }),
            0);
  partition::ShardingState written(entry, m);
  ASSERT_TRUE(succeeded(checker.env->materialize(*imported, written)));
  for (Operation &op : entry.getBody().front()) {
    auto a = manual.getLoopNest(&op), b = written.getLoopNest(&op);
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].axis, b[i].axis);
      EXPECT_EQ(a[i].factor, b[i].factor);
    }
  }
  EXPECT_LE(checker.check(*imported, "imported BP"), 0.01);
  // The environment can start from it.
  auto started = NdaEnvironment::create(entry, m, {"M"},
                                        checker.env->getDevice(), {}, &manual);
  ASSERT_TRUE(succeeded(started));
  EXPECT_EQ((*started)->getInitialState(), *imported);
  EXPECT_GT((*started)->getNumActions(), 0u);
}

/// Repeated layers add no actions: argument colors fold through argument
/// groups, argument-free colors (rotary halves, attention internals)
/// through equal signatures.
TEST_F(ShardingSpaceTest, ActionCountIsConstantInDepth) {
  partir::MeshAttr m = mesh({{"B", 2}, {"M", 2}});
  // Also written the PyTorch way: the parts of split dims (the heads and
  // head size of each layer's 2-D weights) fold like whole dims.
  for (const char *style : {"", "--flatten-linear "}) {
    std::vector<unsigned> counts;
    for (const char *layers : {"2", "3", "5"}) {
      std::string spec = (llvm::Twine("t2b ") + style + "--layers " + layers +
                          " --batch 4 --seq 8 --d-model 16 --heads 4 "
                          "--key-size 4 --vocab 32 --hidden 24")
                             .str();
      AgreementChecker checker(ctx, spec, m);
      ASSERT_TRUE(checker.env);
      counts.push_back(checker.env->getNumActions());
    }
    EXPECT_EQ(counts[0], counts[1]) << style;
    EXPECT_EQ(counts[0], counts[2]) << style;
    EXPECT_GT(counts[0], 0u);
  }
}

/// GNS's MLPs have square hidden layers whose weights form one argument
/// group, so one mirrored family chains every hidden dim of every MLP and
/// collides; its colors are split by role (which layer's dim they are), not
/// into one action per color: message-passing steps add no actions (474
/// actions on the full-size GNS before, 40 after).
TEST_F(ShardingSpaceTest, GnsStepsAddNoActions) {
  partir::MeshAttr m = mesh({{"B", 2}, {"M", 2}});
  std::vector<unsigned> counts;
  for (const char *steps : {"3", "4", "6"}) {
    std::string spec = (llvm::Twine("gns --nodes 8 --edges 16 --mp-steps ") +
                        steps + " --latent 8 --hidden 12 --mlp-layers 3")
                           .str();
    AgreementChecker checker(ctx, spec, m);
    ASSERT_TRUE(checker.env) << spec;
    counts.push_back(checker.env->getNumActions());
  }
  EXPECT_EQ(counts[0], counts[1]);
  EXPECT_EQ(counts[0], counts[2]);
  EXPECT_GT(counts[0], 0u);
}

/// Context actions (NdaEnvironmentOptions::contextActions) come after the
/// family actions, which they leave as they were; each shards a proper
/// subset of its family action's nodes, is linked across axes to the
/// context action of the same family and context, and applies like any
/// action: a state reached through them sets the axis only on the
/// action's nodes, makes the action illegal, and materializes to a program
/// that lowers and simulates.
TEST_F(ShardingSpaceTest, ContextActionsRestrictTheirFamilyAction) {
  partir::MeshAttr m = mesh({{"B", 2}, {"M", 2}});
  const char *spec = "gns --nodes 8 --edges 16 --mp-steps 2 --latent 8 "
                     "--hidden 12 --mlp-layers 2";
  AgreementChecker plain(ctx, spec, m);
  NdaEnvironmentOptions options;
  options.contextActions = true;
  AgreementChecker checker(ctx, spec, m, options);
  ASSERT_TRUE(plain.env && checker.env);
  const NdaEnvironment &env = *checker.env;
  unsigned numFamily = plain.env->getNumActions();
  ASSERT_GT(env.getNumActions(), numFamily);
  for (unsigned a = 0; a < numFamily; ++a) {
    EXPECT_EQ(env.getAction(a).nodes, plain.env->getAction(a).nodes);
    EXPECT_EQ(env.getAction(a).context, -1);
  }
  for (unsigned a = numFamily; a < env.getNumActions(); ++a) {
    const NdaAction &action = env.getAction(a);
    ASSERT_GE(action.context, 0) << env.describeAction(a);
    int family = -1;
    for (unsigned b = 0; b < numFamily && family < 0; ++b)
      if (env.getAction(b).colors == action.colors &&
          env.getAction(b).bits == action.bits &&
          env.getAction(b).axis == action.axis)
        family = b;
    ASSERT_GE(family, 0) << env.describeAction(a);
    const NdaAction &whole = env.getAction(family);
    EXPECT_TRUE(std::includes(whole.nodes.begin(), whole.nodes.end(),
                              action.nodes.begin(), action.nodes.end()));
    EXPECT_LT(action.nodes.size(), whole.nodes.size());
    EXPECT_NE(env.describeAction(a).find("where it meets color"),
              std::string::npos);
    EXPECT_EQ(env.getActionOnAxis(a, action.axis), static_cast<int>(a));
    int other = env.getActionOnAxis(a, 1 - action.axis);
    if (other >= 0)
      EXPECT_EQ(env.getAction(other).context, action.context);
  }
  // Random walks that take a context action first.
  std::mt19937_64 rng(7);
  unsigned priced = 0;
  for (unsigned walk = 0; walk < 6; ++walk) {
    SearchState state = env.getInitialState();
    for (unsigned step = 0; step < 3; ++step) {
      std::vector<unsigned> legal;
      for (unsigned a = step ? 0 : numFamily; a < env.getNumActions(); ++a)
        if (env.isLegal(state, a))
          legal.push_back(a);
      if (legal.empty())
        break;
      unsigned a = legal[rng() % legal.size()];
      const NdaAction &action = env.getAction(a);
      SearchState next = state;
      env.apply(next, a);
      for (unsigned n = 0; n < next.nodeAxes.size(); ++n) {
        AxisMask added = next.nodeAxes[n] & ~state.nodeAxes[n];
        if (added)
          EXPECT_TRUE(added == (AxisMask(1) << action.axis) &&
                      llvm::is_contained(action.nodes, n))
              << env.describeAction(a) << " sets node " << n;
      }
      EXPECT_FALSE(next == state) << env.describeAction(a);
      EXPECT_FALSE(env.isLegal(next, a)) << env.describeAction(a);
      state = std::move(next);
    }
    // The state materializes, lowers and simulates. (The analytic cost of
    // such states counts some all_gathers twice, a value read by one op
    // through two operands, where lowering gathers once: 12-29% over the
    // simulated step here; docs/performance.md, "Context actions".)
    AnalyticCost cost = env.analyticCost(state);
    EXPECT_TRUE(std::isfinite(cost.runtime));
    auto simulated = env.simulateMaterialized(state);
    ASSERT_TRUE(succeeded(simulated)) << "walk " << walk;
    EXPECT_GT(simulated->stepTime, 0);
    ++priced;
  }
  EXPECT_EQ(priced, 6u);
}

/// Every action's counterpart on another axis shards the same colors with
/// the same resolution; on its own axis an action is its own counterpart.
TEST_F(ShardingSpaceTest, ActionsAreLinkedAcrossAxes) {
  partir::MeshAttr m = mesh({{"B", 2}, {"M", 2}});
  AgreementChecker checker(ctx, kTinyModels[2], m);
  ASSERT_TRUE(checker.env);
  const NdaEnvironment &env = *checker.env;
  ASSERT_EQ(env.getNumAxes(), 2u);
  unsigned linked = 0;
  for (unsigned a = 0; a < env.getNumActions(); ++a) {
    const NdaAction &action = env.getAction(a);
    EXPECT_EQ(env.getActionOnAxis(a, action.axis), static_cast<int>(a));
    for (unsigned axis = 0; axis < 2; ++axis) {
      int other = env.getActionOnAxis(a, axis);
      if (other < 0 || axis == action.axis)
        continue;
      ++linked;
      const NdaAction &counterpart = env.getAction(other);
      EXPECT_EQ(counterpart.axis, axis);
      EXPECT_EQ(counterpart.colors, action.colors);
      EXPECT_EQ(counterpart.bits, action.bits);
    }
  }
  EXPECT_GT(linked, 0u);
  EXPECT_EQ(env.getActionOnAxis(env.getNumActions(), 0), -1);
  EXPECT_EQ(env.getActionOnAxis(0, 2), -1);
}

/// cost() is safe to call from several threads on distinct states, and
/// gives what one thread computes.
TEST_F(ShardingSpaceTest, ConcurrentCostsAgree) {
  partir::MeshAttr m = mesh({{"B", 2}, {"M", 2}});
  AgreementChecker checker(ctx, kTinyModels[2], m);
  ASSERT_TRUE(checker.env);
  std::mt19937 rng(5);
  std::vector<SearchState> states;
  for (unsigned i = 0; i < 8; ++i)
    states.push_back(checker.randomState(rng, 1 + i % 4));
  std::vector<double> expected, got(states.size());
  for (const SearchState &state : states)
    expected.push_back(checker.env->cost(state));
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < 2; ++t)
    threads.emplace_back([&, t] {
      for (unsigned round = 0; round < 20; ++round)
        for (size_t i = t; i < states.size(); i += 2)
          got[i] = checker.env->cost(states[i]);
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(got, expected);
}

/// An evaluation resets only what the last plan of its program changed
/// (Evaluation::resetPlans; CollectivePlan::plainUses says which uses are
/// reset): a state's price must not depend on the state priced before it
/// on the thread. Random states of the tiny GNS, and of a U-Net whose group
/// norms B:4 does not divide (padded states, replanned uses), priced in
/// order, then in reverse and each right after the initial state: the same
/// bits.
TEST_F(ShardingSpaceTest, PricesDoNotDependOnThePreviousState) {
  std::pair<const char *, partir::MeshAttr> cases[] = {
      {kTinyModels[4], mesh({{"B", 2}, {"M", 2}})},
      {"unet --batch 4 --resolution 8 --channels 12 --heads 3",
       mesh({{"B", 4}, {"M", 2}})},
  };
  for (auto [spec, m] : cases) {
    AgreementChecker checker(ctx, spec, m);
    ASSERT_TRUE(checker.env) << spec;
    std::vector<SearchState> states = checker.randomStates(2, {1, 4, 8, 16});
    std::vector<double> inOrder = checker.costsOf(states);
    for (size_t i = states.size(); i-- > 0;)
      EXPECT_EQ(checker.env->cost(states[i]), inOrder[i])
          << spec << ", state " << i << " in reverse";
    SearchState initial = checker.env->getInitialState();
    for (size_t i = 0; i < states.size(); ++i) {
      checker.env->cost(initial);
      EXPECT_EQ(checker.env->cost(states[i]), inOrder[i])
          << spec << ", state " << i << " after the initial state";
    }
    // A new thread's workspace is fresh: what an evaluation leaves for the
    // next one (the listed values, the reset uses, the chain level pools)
    // changes no bit of a price.
    for (size_t i = 0; i < states.size(); ++i) {
      double fresh = 0;
      std::thread([&] { fresh = checker.env->cost(states[i]); }).join();
      EXPECT_EQ(fresh, inOrder[i])
          << spec << ", state " << i << " on a fresh workspace";
    }
  }
}

/// NdaEnvironment::costBelow: a state whose cost is below the bound gets
/// its cost, bit for bit; one at or above it gets a value between the
/// bound (plus the margin) and its cost, which pricing may find without
/// planning or emitting the whole program (Evaluation::setRuntimeLimit).
/// Stopping leaves the workspace as the next state needs it. The tiny GNS
/// has in-place updates (scatters), whose savings the stop allows for.
TEST_F(ShardingSpaceTest, PricingStopsOnlyAboveTheBound) {
  std::pair<const char *, partir::MeshAttr> cases[] = {
      {kTinyModels[4], mesh({{"B", 2}, {"M", 2}})},
      {kTinyModels[2], mesh({{"B", 4}, {"M", 2}})},
  };
  unsigned stoppedEarly = 0;
  for (auto [spec, m] : cases) {
    AgreementChecker checker(ctx, spec, m);
    ASSERT_TRUE(checker.env) << spec;
    std::vector<SearchState> states = checker.randomStates(3, {1, 2, 4, 8});
    std::vector<double> costs = checker.costsOf(states);
    for (auto [i, state] : llvm::enumerate(states)) {
      double cost = costs[i];
      EXPECT_EQ(checker.env->costBelow(state, cost * 1.01), cost)
          << spec << ", state " << i;
      for (double share : {0.3, 0.6, 0.9}) {
        double bound = cost * share;
        double got = checker.env->costBelow(state, bound);
        EXPECT_GE(got, SearchEnvironment::atLeast(bound))
            << spec << ", state " << i;
        EXPECT_LE(got, cost) << spec << ", state " << i;
        stoppedEarly += got < cost;
        // The next state's price is the same after a stop.
        const SearchState &next = states[(i + 1) % states.size()];
        EXPECT_EQ(checker.env->cost(next), costs[(i + 1) % states.size()])
            << spec << ", after state " << i << " stopped";
      }
    }
  }
  EXPECT_GT(stoppedEarly, 10u);
  // A thread whose first pricing stops at the bound (a fresh workspace)
  // prices the next state as any other thread does.
  AgreementChecker checker(ctx, kTinyModels[2], mesh({{"B", 4}, {"M", 2}}));
  ASSERT_TRUE(checker.env);
  std::vector<SearchState> states = checker.randomStates(2, {2, 4});
  std::vector<double> costs = checker.costsOf(states);
  for (size_t i = 1; i < states.size(); ++i) {
    double next = 0;
    std::thread([&] {
      checker.env->costBelow(states[i], costs[i] * 0.3);
      next = checker.env->cost(states[i - 1]);
    }).join();
    EXPECT_EQ(next, costs[i - 1]) << "state " << i - 1;
  }
}

/// The tiny zoo, or the models of TOAST_AGREEMENT_MODELS (';'-separated).
std::vector<std::string> modelSpecs() {
  std::vector<std::string> specs;
  if (const char *env = getenv("TOAST_AGREEMENT_MODELS")) {
    SmallVector<StringRef> parts;
    StringRef(env).split(parts, ';', -1, false);
    for (StringRef part : parts)
      specs.push_back(part.trim().str());
    return specs;
  }
  for (const char *spec : kTinyModels)
    specs.push_back(spec);
  return specs;
}

/// The mesh of TOAST_AGREEMENT_MESH ("B=2,M=2,S=2"), else {B:2, M:2}.
SmallVector<std::pair<StringRef, int64_t>> meshAxes() {
  SmallVector<std::pair<StringRef, int64_t>> axes;
  const char *env = getenv("TOAST_AGREEMENT_MESH");
  SmallVector<StringRef> parts;
  StringRef(env ? env : "B=2,M=2").split(parts, ',');
  for (StringRef part : parts) {
    auto [name, size] = part.split('=');
    int64_t n = 2;
    (void)size.getAsInteger(10, n);
    axes.push_back({name, n});
  }
  return axes;
}

unsigned envUnsigned(const char *name, unsigned fallback) {
  const char *env = getenv(name);
  unsigned value;
  return env && !StringRef(env).getAsInteger(10, value) ? value : fallback;
}

/// The initial state and random legal states (up to 1, 2, 4, 8 actions)
/// for several seeds agree within `bound`; prints the worst error.
/// `extraSeeds` are checked too when TOAST_AGREEMENT_SEEDS stops short of
/// them (regressions found with more seeds).
void expectRandomStatesAgree(AgreementChecker &checker, double bound = 0.01,
                             ArrayRef<unsigned> extraSeeds = {}) {
  ASSERT_TRUE(checker.env) << checker.spec;
  EXPECT_GT(checker.env->getNumActions(), 0u) << checker.spec;
  unsigned numSeeds = envUnsigned("TOAST_AGREEMENT_SEEDS", 3);
  std::vector<unsigned> seeds;
  for (unsigned seed = 1; seed <= numSeeds; ++seed)
    seeds.push_back(seed);
  for (unsigned seed : extraSeeds)
    if (seed > numSeeds)
      seeds.push_back(seed);
  double worst = checker.check(checker.env->getInitialState(), "initial");
  unsigned states = 1;
  for (unsigned seed : seeds) {
    std::mt19937 rng(seed);
    for (unsigned steps : {1u, 2u, 4u, 8u}) {
      SearchState state = checker.randomState(rng, steps);
      worst =
          std::max(worst, checker.check(state, "seed " + std::to_string(seed)));
      ++states;
    }
  }
  EXPECT_LE(worst, bound) << checker.spec;
  llvm::errs() << llvm::format("%-60s %3u states (%u by reference), worst "
                               "relative error %.2e, %u actions\n",
                               checker.spec.substr(0, 60).c_str(), states,
                               checker.byReference, worst,
                               checker.env->getNumActions());
}

TEST_F(ShardingSpaceTest, RandomStatesAgreeWithSimulation) {
  partir::MeshAttr m = mesh(meshAxes());
  for (const std::string &spec : modelSpecs()) {
    AgreementChecker checker(ctx, spec, m);
    expectRandomStatesAgree(checker);
  }
}

/// A value gathered over two outer levels of one dimension and an inner
/// one, read sliced on another dimension by the outer levels' axes: the
/// optimizer gathers the inner level and turns the outer ones into one
/// all_to_all (ITX's residual stream, sequence on {B, S, M}, read by the
/// last token's norm sliced on d_model by {B, S}; seed 11 on {B:2, S:2,
/// M:2} was 1.1% off before the analytic plan knew it).
TEST_F(ShardingSpaceTest, AllToAllOfOuterGatherLevelsAgrees) {
  partir::MeshAttr m = mesh({{"B", 2}, {"S", 2}, {"M", 2}});
  AgreementChecker checker(ctx, kTinyModels[3], m);
  expectRandomStatesAgree(checker, 0.01, {11});
}

/// The transformer written the PyTorch way (flatten to (B*S, D) around
/// every linear layer, heads split by reshapes): the NDA splits the merged
/// rows into B and S parts, so actions shard the sequence through the
/// flattens. Random states and batch-then-sequence sharding agree; with
/// the batch fully sharded (2 of 2) the sequence takes M on the flattened
/// rows too, with the batch half sharded (2 of 4) it cannot (a strided
/// tiling) and those rows keep the batch axis only.
TEST_F(ShardingSpaceTest, FlattenedTransformerAgreesWithSimulation) {
  partir::MeshAttr m = mesh({{"B", 2}, {"M", 2}});
  for (const char *batch : {"2", "4"}) {
    std::string spec =
        (llvm::Twine("t2b --flatten-linear --layers 2 --batch ") + batch +
         " --seq 8 --d-model 16 --heads 4 --key-size 4 "
         "--vocab 32 --hidden 24")
            .str();
    AgreementChecker checker(ctx, spec, m);
    expectRandomStatesAgree(checker);
    ASSERT_TRUE(checker.env);
    SearchState state = checker.env->getInitialState();
    ASSERT_TRUE(applyShardingOf(
        *checker.env, state, argDimNode(*checker.env, "batch.tokens", 0), "B"));
    ASSERT_TRUE(applyShardingOf(
        *checker.env, state, argDimNode(*checker.env, "batch.tokens", 1), "M"));
    // Minor parts (the S of B*S) carry M only when B is whole on B.
    const NamedDimensionAnalysis &nda = checker.env->getAnalysis();
    unsigned minorSharded = 0;
    for (unsigned n = 0; n < nda.getNumNames(); ++n)
      if (nda.getName(n).part && state.nodeAxes[nda.getNode(n)])
        ++minorSharded;
    if (StringRef(batch) == "2")
      EXPECT_GT(minorSharded, 0u) << spec;
    else
      EXPECT_EQ(minorSharded, 0u) << spec;
    EXPECT_LE(checker.check(state, "batch then sequence"), 0.01) << spec;
  }
}

/// Programs with loops. States that change top-level ops only are priced
/// analytically: the bodies with sim::simulateRegions, loop-carried values
/// placed by the simulator's rules (Simulator/Aliasing.h), so a loop's
/// carried stacks, copies and hoisted body constants must agree as on the
/// zoo. (States that shard inside bodies are priced by the reference path;
/// SearchShardsInsideLoopBodies.)
const char *kLoopModels[] = {
    "t32 --scan --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 "
    "--key-size 4 --vocab 32 --hidden 24",
    "t2b --scan --inference --layers 2 --batch 4 --seq 8 --d-model 16 "
    "--heads 4 --key-size 4 --vocab 32 --hidden 24",
    "itx --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 --key-size 4 "
    "--vocab 32 --hidden 24 --decode-steps 4",
    "itx --scan --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 "
    "--key-size 4 --vocab 32 --hidden 24 --decode-steps 4",
};

/// test/Partition/Inputs/scan-mlp.mlir: a 4-layer MLP the way
/// jax.lax.scan exports it (stacked weights passed through the loop).
const char *kScanMlp = R"mlir(
module @scan_mlp {
  func.func public @main(%x: tensor<32x16xf32> {jax.arg_info = "batch.x"},
                         %w1: tensor<4x16x64xf32> {jax.arg_info = "params.layers.w1"},
                         %w2: tensor<4x64x16xf32> {jax.arg_info = "params.layers.w2"})
      -> (tensor<32x16xf32> {jax.result_info = "result"}) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:4 = stablehlo.while(%i = %c0, %h = %x, %a = %w1, %b = %w2) : tensor<i32>, tensor<32x16xf32>, tensor<4x16x64xf32>, tensor<4x64x16xf32>
     cond {
      %n = stablehlo.constant dense<4> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %s1 = stablehlo.dynamic_slice %a, %i, %z, %z, sizes = [1, 16, 64] : (tensor<4x16x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x64xf32>
      %m1 = stablehlo.reshape %s1 : (tensor<1x16x64xf32>) -> tensor<16x64xf32>
      %u = stablehlo.dot_general %h, %m1, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
      %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %zeros = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
      %relu = stablehlo.maximum %u, %zeros : tensor<32x64xf32>
      %s2 = stablehlo.dynamic_slice %b, %i, %z, %z, sizes = [1, 64, 16] : (tensor<4x64x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x16xf32>
      %m2 = stablehlo.reshape %s2 : (tensor<1x64x16xf32>) -> tensor<64x16xf32>
      %y = stablehlo.dot_general %relu, %m2, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x16xf32>) -> tensor<32x16xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next, %y, %a, %b : tensor<i32>, tensor<32x16xf32>, tensor<4x16x64xf32>, tensor<4x64x16xf32>
    }
    return %r#1 : tensor<32x16xf32>
  }
}
)mlir";

TEST_F(ShardingSpaceTest, LoopProgramsAgreeWithSimulation) {
  partir::MeshAttr m = mesh({{"B", 2}, {"M", 2}});
  for (const char *spec : kLoopModels) {
    AgreementChecker checker(ctx, spec, m);
    expectRandomStatesAgree(checker);
  }
  AgreementChecker scanMlp("scan-mlp",
                           parseSourceString<ModuleOp>(kScanMlp, &ctx), m);
  expectRandomStatesAgree(scanMlp);
}

/// Random states (seeds 1 to `seeds`) that shard inside loops or
/// conditionals, each compared with the reference path: (states, worst
/// relative error).
std::pair<unsigned, double> checkRegionStates(AgreementChecker &checker,
                                              unsigned seeds) {
  unsigned states = 0;
  double worst = 0;
  for (unsigned seed = 1; seed <= seeds; ++seed) {
    std::mt19937 rng(seed);
    for (unsigned steps : {1u, 2u, 4u}) {
      SearchState state = checker.randomState(
          rng, steps, checker.env->getInitialState(), /*inLoops=*/true);
      if (!checker.env->shardsInsideRegions(state))
        continue;
      worst = std::max(
          worst, checker.check(state, "loops seed " + std::to_string(seed)));
      ++states;
    }
  }
  return {states, worst};
}

/// States that shard inside loop bodies: the loop model prices them
/// analytically (AnalyticLoops.cpp) where lowering keeps every carried
/// value device-local, and they agree with the reference path as the
/// straight-line states do; the rest are priced by the reference path
/// itself (counted, not compared).
TEST_F(ShardingSpaceTest, LoopBodyStatesAgreeWithSimulation) {
  // Training steps too: their backward scans write stacked gradients by
  // dynamic_update_slice into carried buffers.
  const char *moreLoopModels[] = {
      "t2b --scan --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 "
      "--key-size 4 --vocab 32 --hidden 24",
      "transformer --scan --layers 2 --batch 4 --seq 8 --d-model 16 "
      "--heads 4 --key-size 4 --vocab 32 --hidden 24",
      "itx --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 --key-size 4 "
      "--vocab 32 --hidden 24 --decode-steps 2",
      // Loops in loops: the layer scan inside the decode loop.
      "itx --scan --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 "
      "--key-size 4 --vocab 32 --hidden 24 --decode-steps 2",
  };
  std::vector<std::unique_ptr<AgreementChecker>> checkers;
  for (partir::MeshAttr m :
       {mesh({{"B", 2}, {"M", 2}}), mesh({{"B", 4}, {"M", 2}})}) {
    for (const char *spec : kLoopModels)
      checkers.push_back(std::make_unique<AgreementChecker>(ctx, spec, m));
    for (const char *spec : moreLoopModels)
      checkers.push_back(std::make_unique<AgreementChecker>(ctx, spec, m));
    checkers.push_back(std::make_unique<AgreementChecker>(
        "scan-mlp", parseSourceString<ModuleOp>(kScanMlp, &ctx), m));
  }
  for (auto &checker : checkers) {
    ASSERT_TRUE(checker->env) << checker->spec;
    auto [states, worst] =
        checkRegionStates(*checker, envUnsigned("TOAST_AGREEMENT_SEEDS", 3));
    EXPECT_LE(worst, 0.01) << checker->spec;
    // Some of them are the loop model's (the scanned itx's too, whose scan
    // runs inside the decode loop: loops in loops).
    EXPECT_LT(checker->byReference, states) << checker->spec;
    llvm::errs() << llvm::format("%-60s %3u loop states (%u by reference), "
                                 "worst relative error %.2e\n",
                                 checker->spec.substr(0, 60).c_str(), states,
                                 checker->byReference, worst);
  }
}

/// Conditionals as JAX's lax.cond exports them: a stablehlo.case on the
/// predicate converted to an index, its branches reading their operands
/// from above, then an `if`; and (scanCondMlp) the scanned MLP whose body
/// picks its activation by an `if` on the layer counter (a conditional
/// inside a loop).
const char *kCondMlp = R"mlir(
module @cond_mlp {
  func.func public @main(%x: tensor<32x16xf32> {jax.arg_info = "batch.x"},
                         %w1: tensor<16x64xf32> {jax.arg_info = "params.w1"},
                         %w2: tensor<16x64xf32> {jax.arg_info = "params.w2"},
                         %w3: tensor<64x16xf32> {jax.arg_info = "params.w3"},
                         %p: tensor<i1> {jax.arg_info = "flag"})
      -> (tensor<32x16xf32> {jax.result_info = "result"}) {
    %k = stablehlo.convert %p : (tensor<i1>) -> tensor<i32>
    %h = "stablehlo.case"(%k) ({
      %a = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
      %t = stablehlo.tanh %a : tensor<32x64xf32>
      stablehlo.return %t : tensor<32x64xf32>
    }, {
      %b = stablehlo.dot_general %x, %w2, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
      %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %zeros = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
      %r = stablehlo.maximum %b, %zeros : tensor<32x64xf32>
      stablehlo.return %r : tensor<32x64xf32>
    }) : (tensor<i32>) -> tensor<32x64xf32>
    %y = stablehlo.dot_general %h, %w3, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x16xf32>) -> tensor<32x16xf32>
    %s = "stablehlo.if"(%p) ({
      %n = stablehlo.negate %y : tensor<32x16xf32>
      stablehlo.return %n : tensor<32x16xf32>
    }, {
      stablehlo.return %y : tensor<32x16xf32>
    }) : (tensor<i1>) -> tensor<32x16xf32>
    return %s : tensor<32x16xf32>
  }
}
)mlir";

std::string scanCondMlp() {
  std::string source = kScanMlp;
  std::string relu = "%relu = stablehlo.maximum %u, %zeros : tensor<32x64xf32>";
  size_t at = source.find(relu);
  EXPECT_NE(at, std::string::npos);
  return source.replace(at, relu.size(), R"mlir(
      %two = stablehlo.constant dense<2> : tensor<i32>
      %early = stablehlo.compare LT, %i, %two : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %relu = "stablehlo.if"(%early) ({
        %m = stablehlo.maximum %u, %zeros : tensor<32x64xf32>
        stablehlo.return %m : tensor<32x64xf32>
      }, {
        %t = stablehlo.tanh %u : tensor<32x64xf32>
        stablehlo.return %t : tensor<32x64xf32>
      }) : (tensor<i1>) -> tensor<32x64xf32>)mlir");
}

/// Loop programs whose sizes the meshes {B:2, M:2} and {B:4, M:2} do not
/// all divide: a decode loop with an odd vocabulary, a scanned inference
/// and training step, loops in loops, and (paddedScanMlp) the scanned MLP
/// with a batch of 6 and a hidden size of 30.
const char *kPaddedLoopModels[] = {
    "itx --layers 2 --batch 3 --seq 5 --d-model 12 --heads 3 --key-size 4 "
    "--vocab 31 --hidden 20 --decode-steps 2",
    "t2b --scan --inference --layers 2 --batch 3 --seq 5 --d-model 12 "
    "--heads 3 --key-size 4 --vocab 30 --hidden 20",
    "t32 --scan --layers 2 --batch 3 --seq 5 --d-model 12 --heads 3 "
    "--key-size 4 --vocab 30 --hidden 20",
    "itx --scan --layers 2 --batch 3 --seq 5 --d-model 12 --heads 3 "
    "--key-size 4 --vocab 31 --hidden 20 --decode-steps 2",
};

std::string paddedScanMlp() {
  std::string source = kScanMlp;
  for (auto [from, to] : {std::pair<std::string, std::string>{"32x", "6x"},
                          {"x64x", "x30x"},
                          {"16x64", "16x30"},
                          {"64x16", "30x16"},
                          {"6x64", "6x30"},
                          {"[1, 16, 64]", "[1, 16, 30]"},
                          {"[1, 64, 16]", "[1, 30, 16]"}})
    for (size_t at = source.find(from); at != std::string::npos;
         at = source.find(from, at + to.size()))
      source.replace(at, from.size(), to);
  return source;
}

/// Padded states inside loops: the loop model prices them with their
/// masks (built in the bodies, their constants hoisted to the entry) and
/// padded carried values, exactly as the reference path; those whose
/// padded collectives the planner does not follow go to the reference path.
TEST_F(ShardingSpaceTest, PaddedLoopBodyStatesAgreeWithSimulation) {
  std::vector<std::unique_ptr<AgreementChecker>> checkers;
  for (partir::MeshAttr m :
       {mesh({{"B", 2}, {"M", 2}}), mesh({{"B", 4}, {"M", 2}})}) {
    for (const char *spec : kPaddedLoopModels)
      checkers.push_back(std::make_unique<AgreementChecker>(ctx, spec, m));
    checkers.push_back(std::make_unique<AgreementChecker>(
        "padded-scan-mlp", parseSourceString<ModuleOp>(paddedScanMlp(), &ctx),
        m));
  }
  unsigned byReference = 0, total = 0;
  for (auto &checker : checkers) {
    ASSERT_TRUE(checker->env) << checker->spec;
    auto [states, worst] =
        checkRegionStates(*checker, envUnsigned("TOAST_AGREEMENT_SEEDS", 3));
    EXPECT_LE(worst, 1e-9) << checker->spec;
    total += states;
    byReference += checker->byReference;
    llvm::errs() << llvm::format("%-60s %3u loop states (%u by reference), "
                                 "worst relative error %.2e\n",
                                 checker->spec.substr(0, 60).c_str(), states,
                                 checker->byReference, worst);
  }
  EXPECT_LT(byReference, total);
}

/// States that shard inside conditionals (and a conditional inside a
/// loop): the loop model prices each branch as a program run once, as the
/// simulator does, its results tied to every branch's yields, and agrees
/// with the reference path. Its coverage is small yet: branches read their
/// operands as captured values, which the loop model reads whole, so a
/// state that shards inside a lax.cond branch slices one and goes to the
/// reference path (all of cond-mlp's; scan-cond-mlp's loop model states
/// are those whose `if` branches slice no captured value).
TEST_F(ShardingSpaceTest, ConditionalStatesAgreeWithSimulation) {
  for (partir::MeshAttr m :
       {mesh({{"B", 2}, {"M", 2}}), mesh({{"B", 4}, {"M", 2}})}) {
    for (auto [label, source] :
         {std::pair<const char *, std::string>{"cond-mlp", kCondMlp},
          {"scan-cond-mlp", scanCondMlp()}}) {
      AgreementChecker checker(label, parseSourceString<ModuleOp>(source, &ctx),
                               m);
      ASSERT_TRUE(checker.env) << label;
      auto [states, worst] = checkRegionStates(
          checker, envUnsigned("TOAST_AGREEMENT_SEEDS", 3) + 3);
      EXPECT_GT(states, 0u) << label;
      EXPECT_LE(worst, 0.01) << label;
      if (StringRef(label) == "scan-cond-mlp")
        EXPECT_LT(checker.byReference, states) << label;
      llvm::errs() << llvm::format("%-16s %3u states (%u by reference), worst "
                                   "relative error %.2e\n",
                                   label, states, checker.byReference, worst);
    }
  }
}

/// One step of a scan written out: a layer of a stacked weight read by a
/// contiguous dynamic_slice (a view, Fusion.h) and a result written into a
/// stacked buffer by dynamic_update_slice (written in place by its
/// producer when the buffer is donated, copied in otherwise).
const char *kSliceUpdate = R"mlir(
module @slice_update {
  func.func public @main(%x: tensor<32x16xf32> {jax.arg_info = "batch.x"},
                         %w: tensor<4x16x64xf32> {jax.arg_info = "params.w"},
                         %acc: tensor<4x32x64xf32> {jax.arg_info = "state.acc", jax.buffer_donor = true},
                         %i: tensor<i32> {jax.arg_info = "step"})
      -> (tensor<4x32x64xf32> {jax.result_info = "acc"}, tensor<32x64xf32> {jax.result_info = "y"}) {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %s = stablehlo.dynamic_slice %w, %i, %z, %z, sizes = [1, 16, 64] : (tensor<4x16x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x64xf32>
    %m = stablehlo.reshape %s : (tensor<1x16x64xf32>) -> tensor<16x64xf32>
    %u = stablehlo.dot_general %x, %m, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
    %t = stablehlo.exponential %u : tensor<32x64xf32>
    %r = stablehlo.reshape %t : (tensor<32x64xf32>) -> tensor<1x32x64xf32>
    %next = stablehlo.dynamic_update_slice %acc, %r, %i, %z, %z : (tensor<4x32x64xf32>, tensor<1x32x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x32x64xf32>
    %y = stablehlo.negate %u : tensor<32x64xf32>
    return %next, %y : tensor<4x32x64xf32>, tensor<32x64xf32>
  }
}
)mlir";

/// Seed 6 shards the activation's batch and feature dimensions and the
/// weight's columns: the activation's tiling loop fuses into the dot's
/// batch loop, so its gather comes before the weight's slice in the dot's
/// column loop (Evaluation::emitInputs; the peak, 1 KiB apart, sits there).
TEST_F(ShardingSpaceTest, SliceViewsAndInPlaceUpdatesAgree) {
  for (partir::MeshAttr m :
       {mesh({{"B", 2}, {"M", 2}}), mesh({{"B", 4}, {"M", 2}})}) {
    AgreementChecker checker(
        "slice-update", parseSourceString<ModuleOp>(kSliceUpdate, &ctx), m);
    expectRandomStatesAgree(checker, 0.01, {6});
  }
}

/// The search shards inside loop bodies (issue 14): the scanned MLP's batch
/// action shards the carried activation, so the body runs on the local
/// batch as the unrolled layers do. The loop model prices such states
/// analytically (AnalyticLoops.cpp), as the reference path (materialize,
/// lower, simulate a copy) does; the
/// stacked layer dimension, which the body only indexes, is never an
/// action; and the state written into a ShardingState (body nests, loop
/// carries) imports back as itself.
TEST_F(ShardingSpaceTest, SearchShardsInsideLoopBodies) {
  AgreementChecker scanMlp("scan-mlp",
                           parseSourceString<ModuleOp>(kScanMlp, &ctx),
                           mesh({{"B", 4}}));
  ASSERT_TRUE(scanMlp.env);
  NdaEnvironment &env = *scanMlp.env;
  SearchState state = env.getInitialState();
  int node = argDimNode(env, "batch.x", 0);
  ASSERT_GE(node, 0);
  ASSERT_TRUE(applyShardingOf(env, state, node, "B"));
  AnalyticCost cost = env.analyticCost(state);
  EXPECT_FALSE(cost.byReference);
  auto simulated = env.simulateMaterialized(state);
  ASSERT_TRUE(succeeded(simulated));
  EXPECT_NEAR(cost.runtime, simulated->stepTime, 1e-12 * cost.runtime);
  EXPECT_EQ(cost.peakBytes, simulated->peakMemoryBytes);
  // Four devices, no communication: a quarter of the FLOPs. Not a quarter
  // of the step: under the roofline every device still reads the whole
  // replicated weight stack.
  EXPECT_NEAR(simulated->flops, env.getUnpartitionedCost().flops / 4,
              1e-9 * simulated->flops);
  EXPECT_LT(cost.runtime, env.getUnpartitionedCost().runtime);
  EXPECT_EQ(cost.count(sim::CollectiveKind::AllGather), 0);

  for (const char *stack : {"params.layers.w1", "params.layers.w2"}) {
    int layerDim = argDimNode(env, stack, 0);
    ASSERT_GE(layerDim, 0) << stack;
    for (unsigned a = 0; a < env.getNumActions(); ++a)
      EXPECT_FALSE(llvm::is_contained(env.getAction(a).nodes,
                                      static_cast<unsigned>(layerDim)))
          << stack << ": " << env.describeAction(a);
  }

  func::FuncOp entry = env.getAnalysis().getEntry();
  partition::ShardingState written(entry, env.getMesh());
  ASSERT_TRUE(succeeded(env.materialize(state, written)));
  FailureOr<SearchState> imported = env.importState(written);
  ASSERT_TRUE(succeeded(imported));
  EXPECT_EQ(imported->nodeAxes, state.nodeAxes);
}

/// Actions name dimensions in the user's terms, but only the entry's own
/// arguments by argument name: a loop body's block argument has a number of
/// its own, which named the entry argument of that number (a scanned t32's
/// carried RoPE table read "params.layers.mlp.dense_up.w[4]", a dimension
/// that rank-4 parameter does not have).
TEST_F(ShardingSpaceTest, ActionsNameOnlyEntryArgumentsByName) {
  AgreementChecker scan(ctx, kLoopModels[0], mesh({{"B", 2}}));
  ASSERT_TRUE(scan.env);
  NdaEnvironment &env = *scan.env;
  func::FuncOp entry = env.getAnalysis().getEntry();
  for (unsigned a = 0; a < env.getNumActions(); ++a) {
    std::string text = env.describeAction(a);
    for (BlockArgument arg : entry.getArguments()) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type)
        continue;
      std::string name = getArgumentDisplayName(entry, arg.getArgNumber());
      for (int64_t d = type.getRank(); d < type.getRank() + 4; ++d)
        EXPECT_EQ(text.find(name + "[" + std::to_string(d) + "]"),
                  std::string::npos)
            << text;
    }
  }
}

/// bf16 programs: contractions priced at the bf16 peak, buffers at two
/// bytes per element (the transformers keep f32 where they compute in f32).
TEST_F(ShardingSpaceTest, Bf16ProgramsAgreeWithSimulation) {
  partir::MeshAttr m = mesh({{"B", 2}, {"M", 2}});
  for (const char *spec : kTinyModels) {
    AgreementChecker checker(ctx, std::string(spec) + " --dtype bf16", m);
    expectRandomStatesAgree(checker);
  }
  AgreementChecker scan(ctx, std::string(kLoopModels[0]) + " --dtype bf16", m);
  expectRandomStatesAgree(scan);
}

/// `spec` with every argument marked `jax.buffer_donor`.
OwningOpRef<ModuleOp> buildDonatingModel(MLIRContext &ctx, StringRef spec) {
  OwningOpRef<ModuleOp> module = buildModel(ctx, spec);
  if (!module)
    return module;
  for (auto func : module->getOps<func::FuncOp>())
    if (func.isPublic())
      for (unsigned a = 0; a < func.getNumArguments(); ++a)
        func.setArgAttr(a, "jax.buffer_donor", BoolAttr::get(&ctx, true));
  return module;
}

/// Training steps that donate their state (as JAX's donate_argnums): the
/// updated parameters and optimizer state are written into the donated
/// buffers, in the simulation of the lowered program and in the analytic
/// cost alike, and the peak drops. The scanned step also writes its saved
/// residuals into a carried stack in place.
TEST_F(ShardingSpaceTest, DonatedProgramsAgreeWithSimulation) {
  partir::MeshAttr m = mesh({{"B", 2}, {"M", 2}});
  for (const char *spec : {kTinyModels[0], kTinyModels[1], kLoopModels[0]}) {
    AgreementChecker kept(ctx, spec, m);
    AgreementChecker donated(std::string(spec) + " (donated)",
                             buildDonatingModel(ctx, spec), m);
    expectRandomStatesAgree(donated);
    ASSERT_TRUE(kept.env && donated.env);
    EXPECT_LT(donated.baseline.peakMemoryBytes, kept.baseline.peakMemoryBytes)
        << spec;
  }
}

} // namespace

namespace {
/// The tiny MLP's batch on all five axes of a {2,2,2,2,2} mesh: one tensor
/// dimension carrying more axes than a 32-bit axis list packs (the analytic
/// cost once shifted by a whole word there). Every axis must still be taken
/// and the cost must agree.
TEST_F(ShardingSpaceTest, FiveAxesOnOneDimensionAgree) {
  partir::MeshAttr m = mesh({{"a", 2}, {"b", 2}, {"c", 2}, {"d", 2}, {"e", 2}});
  std::string spec = "mlp --batch 64 --d-model 16 --hidden 32";
  AgreementChecker checker(ctx, spec, m);
  ASSERT_TRUE(checker.env);
  SearchState state = checker.env->getInitialState();
  int node = argDimNode(*checker.env, "batch.x", 0);
  ASSERT_GE(node, 0);
  for (const char *axis : {"a", "b", "c", "d", "e"})
    EXPECT_TRUE(applyShardingOf(*checker.env, state, node, axis)) << axis;
  EXPECT_EQ(llvm::popcount(state.nodeAxes[node]), 5);
  EXPECT_LE(checker.check(state, "five axes"), 0.01);
}
/// The search's `donate` and `tf32` options price as the simulator's: every
/// argument whose local type matches a result donated, f32 contractions at
/// the TF32
/// peak (a100: 156 TF against 19.5, so a compute-bound step gets faster).
TEST_F(ShardingSpaceTest, SimulatorOptionsAgree) {
  partir::MeshAttr m = mesh({{"B", 2}, {"M", 2}});
  NdaEnvironmentOptions donate, tf32;
  donate.donate = true;
  tf32.tf32 = true;
  for (const char *spec : {kTinyModels[0], kTinyModels[1], kLoopModels[0]}) {
    AgreementChecker kept(ctx, spec, m);
    AgreementChecker donated(ctx, spec, m, donate);
    AgreementChecker fast(ctx, spec, m, tf32);
    expectRandomStatesAgree(donated);
    expectRandomStatesAgree(fast);
    ASSERT_TRUE(kept.env && donated.env && fast.env);
    // The MLP peaks at its update, which donation writes in place; the
    // transformers peak at the forward/backward boundary, which it does
    // not change.
    double keptPeak = kept.env->getUnpartitionedCost().peakBytes;
    double donatedPeak = donated.env->getUnpartitionedCost().peakBytes;
    if (spec == kTinyModels[0])
      EXPECT_LT(donatedPeak, keptPeak) << spec;
    else
      EXPECT_LE(donatedPeak, keptPeak) << spec;
    // The tiny models are memory-bound under the roofline (a few KiB per
    // dot): the TF32 peak cannot make them slower, and does not make them
    // faster.
    EXPECT_LE(fast.env->getUnpartitionedCost().computeTime,
              kept.env->getUnpartitionedCost().computeTime)
        << spec;
  }
}

} // namespace

namespace {
/// Tiny models whose sizes the mesh {B:4, M:2} mostly does not divide
/// (batch 3 or 6, sequence 5, vocabulary 30, hidden 20, 3 heads, 7 nodes).
const char *kPaddedZoo[] = {
    "mlp --batch 6 --d-model 10 --hidden 20",
    "t32 --layers 2 --batch 3 --seq 5 --d-model 12 --heads 3 --key-size 4 "
    "--vocab 30 --hidden 20",
    "t2b --layers 2 --batch 3 --seq 5 --d-model 12 --heads 3 --key-size 4 "
    "--vocab 30 --hidden 20",
    "itx --layers 2 --batch 3 --seq 5 --d-model 12 --heads 3 --key-size 4 "
    "--vocab 30 --hidden 20",
    "gns --nodes 7 --edges 15 --mp-steps 2 --latent 6 --hidden 10 "
    "--mlp-layers 1",
    "unet --batch 3 --resolution 8 --channels 6 --heads 3",
};

/// The tiny t2b of test/Search/padded-vocab.mlir (vocabulary 31) with its
/// vocabulary on M (16 rows per device, one of padding), as the forced
/// search starts: alone, with the batch on B, the sequence on M, the model
/// width on B, and random states from there. The embedding table and its
/// moments are then tiled over a padded and a divisible level, and the
/// logits gathered and sliced over the padded vocabulary.
void expectVocabularyStatesAgree(partir::MeshAttr m) {
  const char *spec = "t2b --layers 1 --batch 2 --seq 4 --d-model 8 --heads 2 "
                     "--key-size 4 --vocab 31 --hidden 16";
  AgreementChecker checker(*m.getContext(), spec, m);
  ASSERT_TRUE(checker.env);
  NdaEnvironment &env = *checker.env;
  SearchState vocab = env.getInitialState();
  ASSERT_TRUE(applyShardingOf(
      env, vocab, argDimNode(env, "params.embedder.embedding", 0), "M"));
  double worst = checker.check(vocab, "vocabulary on M");
  unsigned states = 1;
  struct Pick {
    const char *arg;
    int dim;
    const char *axis;
  };
  for (std::vector<Pick> picks :
       {std::vector<Pick>{{"batch.tokens", 0, "B"}},
        std::vector<Pick>{{"batch.tokens", 1, "M"}},
        std::vector<Pick>{{"params.embedder.embedding", 1, "B"}},
        std::vector<Pick>{{"batch.tokens", 0, "B"}, {"batch.tokens", 1, "M"}},
        std::vector<Pick>{{"batch.tokens", 1, "M"},
                          {"params.embedder.embedding", 1, "B"}}}) {
    SearchState state = vocab;
    std::string label = "vocabulary on M";
    for (const Pick &pick : picks) {
      int node = argDimNode(env, pick.arg, pick.dim);
      ASSERT_GE(node, 0) << pick.arg;
      if (!applyShardingOf(env, state, node, pick.axis))
        continue;
      label += std::string(", ") + pick.arg + "[" + std::to_string(pick.dim) +
               "] on " + pick.axis;
    }
    worst = std::max(worst, checker.check(state, label));
    ++states;
  }
  unsigned numSeeds = envUnsigned("TOAST_AGREEMENT_SEEDS", 3);
  for (unsigned seed = 1; seed <= numSeeds; ++seed) {
    std::mt19937 rng(seed);
    for (unsigned steps : {1u, 2u, 4u, 8u}) {
      SearchState state = checker.randomState(rng, steps, vocab);
      worst = std::max(worst, checker.check(state, "vocabulary on M, seed " +
                                                       std::to_string(seed)));
      ++states;
    }
  }
  EXPECT_LE(worst, 1e-9);
  // Most such states are priced analytically (none of 18 by reference over
  // seeds 1-3 since session 23's reduce_scatters over padded gathers; 2
  // before, 10 before the argument and unmasked-reduce chains).
  EXPECT_LT(4 * checker.byReference, states);
  llvm::errs() << llvm::format("%-60s %3u states (%u by reference), worst "
                               "relative error %.2e\n",
                               "t2b vocabulary 31 on M", states,
                               checker.byReference, worst);
}

/// Padded (uneven) sharding: random states of the padded zoo agree with
/// the simulation of the materialized, lowered and optimized program to
/// rounding, as divisible states do. States whose padded collectives the
/// optimizer leaves unfused in ways the plan does not follow are priced by
/// the reference path (exact by construction, docs/search.md); each model
/// keeps analytic states. Since session 23 (padded readers in operand
/// order, reduce_scatters over a padded tile's gathers) none of the states
/// of 3 seeds takes the reference path (with 10 seeds, 3 of t32's and
/// t2b's 82); the loop tests still exercise it.
TEST_F(ShardingSpaceTest, PaddedStatesAgreeWithSimulation) {
  // The MLP's hidden width 20 on 8 devices: 3 columns each, the last
  // device holding 2 of padding; the masks of both contractions over it.
  AgreementChecker mlp(ctx, "mlp --batch 16 --d-model 16 --hidden 20",
                       mesh({{"B", 8}}));
  ASSERT_TRUE(mlp.env);
  SearchState state = mlp.env->getInitialState();
  int hidden = argDimNode(*mlp.env, "params.layer_0.w", 1);
  ASSERT_GE(hidden, 0);
  EXPECT_TRUE(applyShardingOf(*mlp.env, state, hidden, "B"));
  EXPECT_LE(mlp.check(state, "hidden 20 on 8"), 1e-9);
  EXPECT_EQ(mlp.byReference, 0u);
  partir::MeshAttr m = mesh({{"B", 4}, {"M", 2}});
  unsigned byReference = 0;
  for (const char *spec : kPaddedZoo) {
    AgreementChecker checker(ctx, spec, m);
    expectRandomStatesAgree(checker, 1e-9);
    unsigned states = 1 + 4 * envUnsigned("TOAST_AGREEMENT_SEEDS", 3);
    EXPECT_LT(checker.byReference, states) << spec;
    byReference += checker.byReference;
  }
  llvm::errs() << "padded zoo: " << byReference
               << " states by the reference path\n";
}

/// The same for vocabulary-sharded states (expectVocabularyStatesAgree).
TEST_F(ShardingSpaceTest, PaddedStatesAgreeWithSimulationVocabulary) {
  expectVocabularyStatesAgree(mesh({{"B", 2}, {"M", 2}}));
}

/// Vocabulary sharding is a search action where the vocabulary does not
/// divide the mesh (issue 18): the padded t2b's embedding table (vocabulary
/// 30, tied with the logits projection) belongs to an action, and sharding
/// it on B (8 rows per device, 2 of padding) or M prices as the simulator.
TEST_F(ShardingSpaceTest, PaddedVocabularyIsAnAction) {
  AgreementChecker checker(ctx, kPaddedZoo[2], mesh({{"B", 4}, {"M", 2}}));
  ASSERT_TRUE(checker.env);
  NdaEnvironment &env = *checker.env;
  int vocab = argDimNode(env, "params.embedder.embedding", 0);
  ASSERT_GE(vocab, 0);
  bool offered = false;
  for (unsigned a = 0; a < env.getNumActions(); ++a)
    offered |= llvm::is_contained(env.getAction(a).nodes,
                                  static_cast<unsigned>(vocab));
  EXPECT_TRUE(offered);
  for (const char *axis : {"B", "M"}) {
    SearchState state = env.getInitialState();
    ASSERT_TRUE(applyShardingOf(env, state, vocab, axis)) << axis;
    EXPECT_LE(checker.check(state, std::string("vocabulary on ") + axis), 1e-9);
  }
}

/// The planned program (NdaEnvironment::emitPlanned, built from the
/// planner's CollectivePlan without materializeCore or lowering) of each of
/// `states` of `checker`'s program verifies, computes what the original
/// computes (the reference interpreter, as toast-run --compare) and
/// simulates to the analytic price, to rounding. Every state priced without
/// the reference path is emitted; the others (unmodeled padding, loops the
/// loop model does not cover) are counted, not checked. Returns the number
/// of states emitted.
unsigned expectPlannedStatesAgree(MLIRContext &ctx, AgreementChecker &checker,
                                  ArrayRef<SearchState> states) {
  NdaEnvironment &env = *checker.env;
  unsigned emitted = 0;
  double worst = 0;
  for (auto [n, state] : llvm::enumerate(states)) {
    // Uncovered states explain themselves in a diagnostic: shown with
    // TOAST_AGREEMENT_VERBOSE.
    ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &d) {
      if (getenv("TOAST_AGREEMENT_VERBOSE"))
        llvm::errs() << "not emitted: " << d.str() << "\n";
      return success();
    });
    FailureOr<OwningOpRef<ModuleOp>> planned = env.emitPlanned(state);
    std::string label = checker.spec + " state " + std::to_string(n);
    // The emitter covers every state the pricer prices without the
    // reference path (a coverage regression fails here).
    if (failed(planned)) {
      EXPECT_TRUE(env.analyticCost(state).byReference)
          << label << ": priced analytically but not emitted";
      continue;
    }
    ++emitted;
    EXPECT_TRUE(succeeded(verify(**planned))) << label;
    AnalyticCost analytic = env.analyticCost(state);
    sim::SimulationOptions options;
    options.function = env.getAnalysis().getEntry().getSymName().str();
    auto device = sim::getBuiltinDevice("a100");
    auto simulated = sim::simulate(**planned, *device, options);
    EXPECT_TRUE(succeeded(simulated)) << label;
    if (failed(simulated))
      continue;
    Agreement a;
    a.add(analytic.runtime, simulated->stepTime, worst);
    a.add(analytic.peakBytes, simulated->peakMemoryBytes, worst);
    if (getenv("TOAST_AGREEMENT_VERBOSE"))
      llvm::errs() << label << ": runtime " << analytic.runtime << " vs "
                   << simulated->stepTime << ", peak " << analytic.peakBytes
                   << " vs " << simulated->peakMemoryBytes << "\n";
    std::string out;
    llvm::raw_string_ostream os(out);
    interp::CompareOptions compare;
    compare.entry = options.function;
    compare.seed = 3;
    EXPECT_TRUE(succeeded(
        interp::compareModules(*checker.module, **planned, compare, os)))
        << label << "\n"
        << out;
    if (getenv("TOAST_AGREEMENT_DUMP"))
      (*planned)->print(llvm::errs());
  }
  EXPECT_LE(worst, 1e-9) << checker.spec;
  llvm::errs() << llvm::format("%-60s %3u of %3zu states emitted, worst "
                               "relative error %.2e\n",
                               checker.spec.substr(0, 60).c_str(), emitted,
                               states.size(), worst);
  return emitted;
}

/// expectPlannedStatesAgree on the agreement tests' states (the initial one
/// and random ones of 1, 2, 4 and 8 actions per seed) of `specs` on mesh
/// `m`; returns the number of states emitted.
unsigned expectPlannedProgramsAgree(MLIRContext &ctx,
                                    ArrayRef<std::string> specs,
                                    partir::MeshAttr m) {
  unsigned numSeeds = envUnsigned("TOAST_AGREEMENT_SEEDS", 3);
  unsigned emittedTotal = 0;
  for (const std::string &spec : specs) {
    AgreementChecker checker(ctx, spec, m);
    EXPECT_TRUE(checker.env) << spec;
    if (!checker.env)
      continue;
    emittedTotal += expectPlannedStatesAgree(
        ctx, checker, checker.randomStates(numSeeds, {1, 2, 4, 8}));
  }
  return emittedTotal;
}

TEST_F(ShardingSpaceTest, PlannedProgramsSimulateToTheAnalyticPrice) {
  EXPECT_GT(expectPlannedProgramsAgree(ctx, modelSpecs(), mesh(meshAxes())),
            0u);
}

/// Arguments the start state keeps whole on an axis (`partir.atomic`: an
/// imported closed sharding, a schedule's "replicated") keep the caller's
/// layout at the lowered boundary: readers that slice them on that axis
/// slice the device-local argument inside the function (before, lowering
/// passed them sliced). Here the batch inputs are atomic on M and the
/// weights on B, so random states tile batch dims on B and read them sliced
/// on M (a boundary level split into its B part and an M slice inside),
/// and read weights sliced on B; the last result is atomic on M. The
/// analytic price equals the reference path's, every lowered argument's
/// (and that result's) sharding leaves out its atomic axes, the lowered
/// programs compute the original, and the planned programs run as the
/// original and simulate to the price.
TEST_F(ShardingSpaceTest, AtomicArgumentsKeepTheirLayoutAndAgree) {
  // The padded case splits padded levels (the reference path prices it).
  std::pair<const char *, partir::MeshAttr> cases[] = {
      {kTinyModels[2], mesh({{"B", 2}, {"M", 2}})},
      {kTinyModels[3], mesh({{"B", 2}, {"M", 2}})},
      {kPaddedZoo[2], mesh({{"B", 4}, {"M", 2}})},
  };
  for (auto [spec, m] : cases) {
    AgreementChecker checker(ctx, spec, m);
    ASSERT_TRUE(checker.env) << spec;
    func::FuncOp entry = checker.env->getAnalysis().getEntry();
    partition::ShardingState start(entry, m);
    DenseMap<unsigned, StringRef> atomicAxis;
    for (BlockArgument arg : entry.getArguments()) {
      auto name =
          entry.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "partir.name");
      StringRef axis =
          name && name.getValue().starts_with("batch.") ? "M" : "B";
      ASSERT_TRUE(succeeded(start.atomic(arg, axis)));
      atomicAxis[arg.getArgNumber()] = axis;
    }
    // The last result (a gradient) is returned whole on M.
    Value last = entry.getBody().front().getTerminator()->getOperands().back();
    ASSERT_TRUE(succeeded(start.atomic(last, "M")));
    auto started = NdaEnvironment::create(entry, m, {},
                                          checker.env->getDevice(), {}, &start);
    ASSERT_TRUE(succeeded(started)) << spec;
    checker.env = std::move(*started);
    std::vector<SearchState> states = checker.randomStates(3, {2, 4, 8});
    double worst = 0;
    unsigned keptWhole = 0, split = 0;
    for (auto [n, state] : llvm::enumerate(states)) {
      std::string label = std::string(spec) + " state " + std::to_string(n);
      worst = std::max(worst, checker.check(state, label));
      OwningOpRef<ModuleOp> lowered;
      ASSERT_TRUE(
          succeeded(checker.env->simulateMaterialized(state, &lowered)));
      auto func = *partition::getEntryFunction(*lowered);
      // The lowered program (padded splits too) computes the original.
      std::string out;
      llvm::raw_string_ostream os(out);
      interp::CompareOptions compare;
      compare.entry = func.getSymName().str();
      compare.seed = 3;
      EXPECT_TRUE(succeeded(
          interp::compareModules(*checker.module, *lowered, compare, os)))
          << label << "\n"
          << out;
      if (auto dims = func.getResultAttrOfType<ArrayAttr>(
              func.getNumResults() - 1, "partir.sharding"))
        for (const auto &axes : partir_hlo::getDimAxes(dims))
          EXPECT_FALSE(llvm::is_contained(axes, "M")) << label;
      for (BlockArgument arg : func.getArguments()) {
        StringRef axis = atomicAxis[arg.getArgNumber()];
        if (auto dims = func.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(),
                                                         "partir.sharding"))
          for (const auto &axes : partir_hlo::getDimAxes(dims))
            EXPECT_FALSE(llvm::is_contained(axes, axis)) << label;
        // A reader slicing it on its atomic axis, inside the function
        // (a local argument's other axes at the boundary: a split level).
        bool inside = llvm::any_of(arg.getUsers(), [&](Operation *user) {
          auto slice = dyn_cast<partir_hlo::AllSliceOp>(user);
          return slice && llvm::any_of(partir_hlo::getDimAxes(slice.getDims()),
                                       [&](const auto &axes) {
                                         return llvm::is_contained(axes, axis);
                                       });
        });
        keptWhole += inside;
        split +=
            inside && func.getArgAttr(arg.getArgNumber(), "partir.sharding");
      }
    }
    EXPECT_LE(worst, 1e-9) << spec;
    EXPECT_GT(keptWhole, 0u) << spec;
    EXPECT_GT(split, 0u) << spec;
    EXPECT_GT(expectPlannedStatesAgree(ctx, checker, states), 0u) << spec;
    llvm::errs() << llvm::format("%-60s %3zu states (%u by reference), %u "
                                 "atomic arguments sliced inside (%u split), "
                                 "worst relative error %.2e\n",
                                 spec, states.size(), checker.byReference,
                                 keptWhole, split, worst);
  }
}

/// The same for the padded zoo: the masks, padded collectives and the
/// boundary's global shapes are emitted as lowering builds them.
TEST_F(ShardingSpaceTest, PaddedPlannedProgramsSimulateToTheAnalyticPrice) {
  std::vector<std::string> specs(std::begin(kPaddedZoo), std::end(kPaddedZoo));
  EXPECT_GT(expectPlannedProgramsAgree(ctx, specs, mesh({{"B", 4}, {"M", 2}})),
            0u);
}
/// U-Net's group norms reshape the channels into (groups, channels per
/// group): 3, 7 and 9 channels per group here, as 14, 28, 42 and 84 at
/// full size, which B:4 and B:8 do not divide. Values tiled over a group or
/// spatial dimension are read sliced on the padded channels per group, or
/// read whole, so that the optimizer leaves per-level gathers and slices it
/// cannot merge or cancel ("gather and slice left over", "slices cancel
/// other levels than the plan", "several gathers left" with
/// TOAST_UNMODELED_WHY before branch `padfuse`). The planner folds such a
/// use's chain as the optimizer does (Evaluation::replanPaddedUse): random
/// states of 4-16 actions price exactly, few by the reference path,
/// and the planned programs of the others run as the original and simulate
/// to the analytic price.
TEST_F(ShardingSpaceTest, PaddedGroupNormChainsAgree) {
  // (spec, mesh): 3 channels per group over B:4 and M:2. On {B:8, M:4}
  // (and with 7 or 14 channels per group), RandomStatesAgreeWithSimulation
  // with TOAST_AGREEMENT_MODELS / TOAST_AGREEMENT_MESH checks the prices
  // offline: comparing 32-device programs under the interpreter takes
  // minutes.
  std::pair<const char *, partir::MeshAttr> cases[] = {
      {"unet --batch 4 --resolution 8 --channels 12 --heads 3",
       mesh({{"B", 4}, {"M", 2}})},
  };
  for (auto [spec, m] : cases) {
    {
      AgreementChecker checker(ctx, spec, m);
      ASSERT_TRUE(checker.env) << spec;
      std::vector<SearchState> states = checker.randomStates(2, {4, 8, 16});
      double worst = 0;
      for (const SearchState &state : states)
        worst = std::max(worst, checker.check(state, spec));
      EXPECT_LE(worst, 1e-9) << spec;
      // Most are priced analytically (what is left: a padded argument read
      // through a gather and a slice).
      EXPECT_LT(4 * checker.byReference, states.size()) << spec;
      EXPECT_EQ(expectPlannedStatesAgree(ctx, checker, states),
                states.size() - checker.byReference)
          << spec;
      llvm::errs() << llvm::format("%-60s %3zu states (%u by reference), "
                                   "worst relative error %.2e\n",
                                   spec, states.size(), checker.byReference,
                                   worst);
    }
  }
}

/// A loop body with a reduce whose reducer holds a constant: the reducer is
/// part of its op (the simulator does not walk it), not an input of the
/// body's program (test/Search/emit-planned-region-ops.mlir).
const char *kScanReducer = R"mlir(
func.func @main(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, tensor<8x4xf32>
    cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %zero = stablehlo.constant dense<0.0> : tensor<f32>
      %s = stablehlo.reduce(%h init: %zero) across dimensions = [1] : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32>
       reducer(%a: tensor<f32>, %b: tensor<f32>) {
        %two = stablehlo.constant dense<2.0> : tensor<f32>
        %t = stablehlo.multiply %b, %two : tensor<f32>
        %u = stablehlo.add %a, %t : tensor<f32>
        stablehlo.return %u : tensor<f32>
       }
      %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<8xf32>) -> tensor<8x4xf32>
      %y = stablehlo.tanh %sb : tensor<8x4xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next, %y : tensor<i32>, tensor<8x4xf32>
    }
  return %r#1 : tensor<8x4xf32>
}
)mlir";

/// Programs with loops (nested ones too) and conditionals: states that
/// leave the bodies alone (region ops cloned whole, their constants
/// hoisted) and states the loop model prices inside the bodies (each region
/// emitted from its own plan) are emitted,
/// run as the original and simulate to their analytic price, to rounding.
TEST_F(ShardingSpaceTest, LoopPlannedProgramsSimulateToTheAnalyticPrice) {
  unsigned numSeeds = envUnsigned("TOAST_AGREEMENT_SEEDS", 3);
  unsigned emittedInLoops = 0, emittedOutside = 0;
  for (partir::MeshAttr m :
       {mesh({{"B", 2}, {"M", 2}}), mesh({{"B", 4}, {"M", 2}})}) {
    std::vector<std::unique_ptr<AgreementChecker>> checkers;
    for (const char *spec : kLoopModels)
      checkers.push_back(std::make_unique<AgreementChecker>(ctx, spec, m));
    for (const char *spec : kPaddedLoopModels)
      checkers.push_back(std::make_unique<AgreementChecker>(ctx, spec, m));
    for (auto [label, source] :
         {std::pair<const char *, std::string>{"scan-mlp", kScanMlp},
          {"cond-mlp", kCondMlp},
          {"scan-cond-mlp", scanCondMlp()},
          {"scan-reducer", kScanReducer},
          {"padded-scan-mlp", paddedScanMlp()}})
      checkers.push_back(std::make_unique<AgreementChecker>(
          label, parseSourceString<ModuleOp>(source, &ctx), m));
    for (auto &checker : checkers) {
      ASSERT_TRUE(checker->env) << checker->spec;
      NdaEnvironment &env = *checker->env;
      std::vector<SearchState> outside{env.getInitialState()}, inLoops;
      for (unsigned seed = 1; seed <= numSeeds; ++seed) {
        std::mt19937 rng(seed);
        for (unsigned steps : {1u, 2u, 4u, 8u}) {
          outside.push_back(checker->randomState(rng, steps));
          SearchState state = checker->randomState(
              rng, steps, env.getInitialState(), /*inLoops=*/true);
          if (env.shardsInsideRegions(state))
            inLoops.push_back(std::move(state));
        }
      }
      emittedOutside += expectPlannedStatesAgree(ctx, *checker, outside);
      emittedInLoops += expectPlannedStatesAgree(ctx, *checker, inLoops);
    }
  }
  EXPECT_GT(emittedOutside, 0u);
  EXPECT_GT(emittedInLoops, 0u);
  llvm::errs() << emittedInLoops << " states sharding inside loops emitted, "
               << emittedOutside << " others\n";
}
} // namespace
