//===- SearchSpaceBench.cpp - NDA search space: cost and legality ---------===//
//
// The inner loop of the automatic search (docs/search.md): the analytic
// cost of a state (and the simulation of the materialized state it
// replaces), isLegal over every action, and building the space.
// Programs: the t2b training step, tiny (argument 0: 2 layers, seq 8) and
// full size with as many layers as the argument (18 is the preset), on a
// {B:8, M:4} mesh with the A100 device; states of 4 random legal actions.
// The layer sweep shows how one evaluation and the space's construction
// grow with the depth of the model (issue 9's "grows slowly with layers").
// BM_PriceStates measures what bounds the automatic search on the full-size
// targets (issue 17): states priced per CPU second on a fixed set of random
// states of bf16 GNS, U-Net and t2b; TOAST_BENCH_DUMP=1 prints their costs
// as hex floats, to check that a faster evaluation prices them bit for bit
// alike.
//
//===----------------------------------------------------------------------===//

#include "toast/InitAllDialects.h"
#include "toast/Models/Models.h"
#include "toast/Partition/Schedule.h"
#include "toast/Search/ShardingSpace.h"
#include "toast/Simulator/Device.h"

#include "mlir/IR/MLIRContext.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <random>

using namespace mlir;
using namespace toast;

namespace {

MLIRContext &getContext() {
  static MLIRContext *ctx = [] {
    DialectRegistry registry;
    registerAllDialects(registry);
    auto *c = new MLIRContext(registry);
    c->loadAllAvailableDialects();
    return c;
  }();
  return *ctx;
}

/// 0: tiny t2b; L > 0: full-size t2b with L layers.
OwningOpRef<ModuleOp> buildT2b(int64_t size) {
  models::ModelOptions options;
  if (size == 0)
    options.ints = {{"layers", 2},   {"batch", 8},  {"seq", 8},
                    {"d-model", 16}, {"heads", 4},  {"key-size", 4},
                    {"vocab", 32},   {"hidden", 24}};
  else
    options.ints = {{"layers", size}};
  std::string error;
  return models::buildModel(&getContext(), "t2b", options, error);
}

struct Fixture {
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<search::NdaEnvironment> env;
  search::SearchState state;
};

/// The space of `module`'s entry on a {B:8, M:4} mesh with the A100.
std::unique_ptr<search::NdaEnvironment> makeEnvironment(ModuleOp module) {
  func::FuncOp entry = *partition::getEntryFunction(module);
  (void)partition::prepareEntryFunction(entry);
  MLIRContext *ctx = &getContext();
  auto mesh = partir::MeshAttr::get(
      ctx, {StringAttr::get(ctx, "B"), StringAttr::get(ctx, "M")}, {8, 4});
  return std::move(*search::NdaEnvironment::create(
      entry, mesh, {}, *sim::getBuiltinDevice("a100")));
}

/// Applies up to `depth` random legal actions to `state`.
void randomWalk(const search::NdaEnvironment &env, search::SearchState &state,
                unsigned depth, std::mt19937 &rng) {
  for (unsigned step = 0; step < depth; ++step) {
    std::vector<unsigned> legal;
    for (unsigned a = 0; a < env.getNumActions(); ++a)
      if (env.isLegal(state, a))
        legal.push_back(a);
    if (legal.empty())
      return;
    env.apply(state, legal[rng() % legal.size()]);
  }
}

/// One environment per program size, built on first use.
Fixture &getFixture(int64_t size) {
  static std::map<int64_t, Fixture> fixtures;
  Fixture &f = fixtures[size];
  if (f.env)
    return f;
  f.module = buildT2b(size);
  f.env = makeEnvironment(*f.module);
  f.state = f.env->getInitialState();
  std::mt19937 rng(1);
  randomWalk(*f.env, f.state, 4, rng);
  return f;
}

/// The programs of BM_PriceStates: 0 the tiny t2b (the smoke run), then
/// the full-size bf16 targets of benchmarks/search_targets.py.
const char *const kTargets[] = {"t2b", "gns", "unet", "t2b"};

OwningOpRef<ModuleOp> buildTarget(int64_t target) {
  if (target == 0)
    return buildT2b(0);
  models::ModelOptions options;
  options.dtype = "bf16";
  std::string error;
  return models::buildModel(&getContext(), kTargets[target], options, error);
}

struct TargetFixture {
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<search::NdaEnvironment> env;
  /// Random states of 1 to 12 random legal actions, as rollouts reach.
  std::vector<search::SearchState> states;
};

/// Prints every state's cost bit for bit (TOAST_BENCH_DUMP), and the CPU
/// time it took (the last column).
void dumpCosts(const char *name, TargetFixture &f) {
  for (auto [k, s] : llvm::enumerate(f.states)) {
    std::clock_t start = std::clock();
    search::AnalyticCost c = f.env->analyticCost(s);
    double ms = 1e3 * (std::clock() - start) / CLOCKS_PER_SEC;
    std::fprintf(stderr, "%s state %zu: %a %a %a %a %a %a %d %.1f ms\n", name,
                 k, c.runtime, c.computeTime, c.commTime, c.flops, c.peakBytes,
                 c.rel.total, c.byReference ? 1 : 0, ms);
  }
}

TargetFixture &getTargetFixture(int64_t target) {
  static std::map<int64_t, TargetFixture> fixtures;
  TargetFixture &f = fixtures[target];
  if (f.env)
    return f;
  f.module = buildTarget(target);
  f.env = makeEnvironment(*f.module);
  std::mt19937 rng(1);
  for (unsigned k = 0; k < 32; ++k) {
    search::SearchState state = f.env->getInitialState();
    randomWalk(*f.env, state, 1 + rng() % 12, rng);
    f.states.push_back(std::move(state));
  }
  if (std::getenv("TOAST_BENCH_DUMP"))
    dumpCosts(kTargets[target], f);
  return f;
}

/// States priced per CPU second (items_per_second), the search's inner
/// loop without its tree: the analytic cost of each state, or the
/// reference path where a state shards inside a loop body.
void BM_PriceStates(benchmark::State &state) {
  TargetFixture &f = getTargetFixture(state.range(0));
  for (auto _ : state)
    for (const search::SearchState &s : f.states)
      benchmark::DoNotOptimize(f.env->analyticCost(s).rel.total);
  state.SetItemsProcessed(state.iterations() * f.states.size());
  state.SetLabel(kTargets[state.range(0)]);
  state.counters["actions"] = f.env->getNumActions();
}
BENCHMARK(BM_PriceStates)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);

/// A rollout's legality scans: every action's isLegal in each state.
void BM_TargetLegalActions(benchmark::State &state) {
  TargetFixture &f = getTargetFixture(state.range(0));
  for (auto _ : state)
    for (const search::SearchState &s : f.states) {
      unsigned legal = 0;
      for (unsigned a = 0; a < f.env->getNumActions(); ++a)
        legal += f.env->isLegal(s, a);
      benchmark::DoNotOptimize(legal);
    }
  state.SetItemsProcessed(state.iterations() * f.states.size());
  state.SetLabel(kTargets[state.range(0)]);
}
BENCHMARK(BM_TargetLegalActions)
    ->DenseRange(0, 3)
    ->Unit(benchmark::kMillisecond);

/// The tiny program, then full-size t2b with 2 to 36 layers.
void layerSweep(benchmark::internal::Benchmark *b) {
  for (int64_t layers : {0, 2, 6, 18, 36})
    b->Arg(layers);
  b->Unit(benchmark::kMillisecond);
}

void BM_AnalyticCost(benchmark::State &state) {
  Fixture &f = getFixture(state.range(0));
  for (auto _ : state)
    benchmark::DoNotOptimize(f.env->analyticCost(f.state).rel.total);
  state.counters["ops"] = static_cast<double>(
      std::distance(f.env->getAnalysis().getEntry().getBody().front().begin(),
                    f.env->getAnalysis().getEntry().getBody().front().end()));
  state.counters["nodes"] = f.env->getAnalysis().getNumNodes();
  state.counters["actions"] = f.env->getNumActions();
}
BENCHMARK(BM_AnalyticCost)->Apply(layerSweep);

/// The reference the analytic cost replaces: materialize, lower, optimize
/// and simulate a copy of the module.
void BM_SimulateMaterialized(benchmark::State &state) {
  Fixture &f = getFixture(state.range(0));
  for (auto _ : state)
    benchmark::DoNotOptimize(f.env->simulateMaterialized(f.state));
}
BENCHMARK(BM_SimulateMaterialized)
    ->Arg(0)
    ->Arg(18)
    ->Unit(benchmark::kMillisecond);

void BM_LegalActions(benchmark::State &state) {
  Fixture &f = getFixture(state.range(0));
  for (auto _ : state) {
    unsigned legal = 0;
    for (unsigned a = 0; a < f.env->getNumActions(); ++a)
      legal += f.env->isLegal(f.state, a);
    benchmark::DoNotOptimize(legal);
  }
  state.counters["actions"] = f.env->getNumActions();
}
BENCHMARK(BM_LegalActions)->Arg(0)->Arg(18)->Unit(benchmark::kMicrosecond);

void BM_BuildSpace(benchmark::State &state) {
  Fixture &f = getFixture(state.range(0));
  func::FuncOp entry = f.env->getAnalysis().getEntry();
  for (auto _ : state) {
    auto env = search::NdaEnvironment::create(entry, f.env->getMesh(), {},
                                              f.env->getDevice());
    benchmark::DoNotOptimize(env);
  }
}
BENCHMARK(BM_BuildSpace)->Apply(layerSweep);

} // namespace
