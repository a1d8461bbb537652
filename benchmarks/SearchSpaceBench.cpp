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
//
//===----------------------------------------------------------------------===//

#include "toast/InitAllDialects.h"
#include "toast/Models/Models.h"
#include "toast/Partition/Schedule.h"
#include "toast/Search/ShardingSpace.h"
#include "toast/Simulator/Device.h"

#include "mlir/IR/MLIRContext.h"

#include <benchmark/benchmark.h>

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

/// One environment per program size, built on first use.
Fixture &getFixture(int64_t size) {
  static std::map<int64_t, Fixture> fixtures;
  Fixture &f = fixtures[size];
  if (f.env)
    return f;
  f.module = buildT2b(size);
  func::FuncOp entry = *partition::getEntryFunction(*f.module);
  (void)partition::prepareEntryFunction(entry);
  MLIRContext *ctx = &getContext();
  auto mesh = partir::MeshAttr::get(
      ctx, {StringAttr::get(ctx, "B"), StringAttr::get(ctx, "M")}, {8, 4});
  f.env = std::move(*search::NdaEnvironment::create(
      entry, mesh, {}, *sim::getBuiltinDevice("a100")));
  f.state = f.env->getInitialState();
  std::mt19937 rng(1);
  for (int step = 0; step < 4; ++step) {
    std::vector<unsigned> legal;
    for (unsigned a = 0; a < f.env->getNumActions(); ++a)
      if (f.env->isLegal(f.state, a))
        legal.push_back(a);
    if (legal.empty())
      break;
    f.env->apply(f.state, legal[rng() % legal.size()]);
  }
  return f;
}

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
