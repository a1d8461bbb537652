//===- PropagationBench.cpp - Propagation time against program size -----===//
//
// Tiles the first argument of a synthetic layered program (dot_general, add,
// tanh per layer) on a mesh axis and propagates; then materializes
// PartIR:Core. Sizes from 1k to 100k ops show how the cost grows.
//
//===----------------------------------------------------------------------===//

#include "toast/InitAllDialects.h"
#include "toast/Partition/ShardingState.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "benchmark/benchmark.h"

using namespace mlir;

namespace {

/// A chain of `layers` blocks of 3 ops each.
std::string makeProgram(int64_t layers) {
  std::string s = "module attributes {partir.mesh = #partir.mesh<[\"B\"=4, "
                  "\"M\"=2]>} {\nfunc.func @main(%x: tensor<64x32xf32>, %w: "
                  "tensor<32x32xf32>) -> tensor<64x32xf32> {\n";
  std::string prev = "%x";
  for (int64_t i = 0; i < layers; ++i) {
    std::string d = "%d" + std::to_string(i), a = "%a" + std::to_string(i),
                t = "%t" + std::to_string(i);
    s += "  " + d + " = stablehlo.dot_general " + prev +
         ", %w, contracting_dims = [1] x [0] : (tensor<64x32xf32>, "
         "tensor<32x32xf32>) -> tensor<64x32xf32>\n";
    s += "  " + a + " = stablehlo.add " + d + ", " + prev +
         " : tensor<64x32xf32>\n";
    s += "  " + t + " = stablehlo.tanh " + a + " : tensor<64x32xf32>\n";
    prev = t;
  }
  s += "  return " + prev + " : tensor<64x32xf32>\n}\n}\n";
  return s;
}

struct Fixture {
  explicit Fixture(int64_t ops) {
    DialectRegistry registry;
    toast::registerAllDialects(registry);
    ctx = std::make_unique<MLIRContext>(registry,
                                        MLIRContext::Threading::DISABLED);
    text = makeProgram(ops / 3);
  }
  OwningOpRef<ModuleOp> parse() {
    return parseSourceString<ModuleOp>(text, ctx.get());
  }
  std::unique_ptr<MLIRContext> ctx;
  std::string text;
};

void BM_Propagate(benchmark::State &state) {
  Fixture fixture(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    OwningOpRef<ModuleOp> module = fixture.parse();
    auto func = *module->getOps<func::FuncOp>().begin();
    auto mesh = toast::partir::getMesh(*module);
    state.ResumeTiming();
    toast::partition::ShardingState sharding(func, mesh);
    if (failed(sharding.tile(func.getArgument(0), 0, "B")))
      state.SkipWithError("tile failed");
    auto stats = sharding.propagate();
    benchmark::DoNotOptimize(stats.assignments);
  }
  state.counters["ops_per_s"] = benchmark::Counter(
      static_cast<double>(state.range(0)), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_PropagateAndMaterialize(benchmark::State &state) {
  Fixture fixture(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    OwningOpRef<ModuleOp> module = fixture.parse();
    auto func = *module->getOps<func::FuncOp>().begin();
    auto mesh = toast::partir::getMesh(*module);
    state.ResumeTiming();
    toast::partition::ShardingState sharding(func, mesh);
    (void)sharding.tile(func.getArgument(0), 0, "B");
    sharding.propagate();
    if (failed(sharding.materializeCore()))
      state.SkipWithError("materialize failed");
  }
  state.counters["ops_per_s"] = benchmark::Counter(
      static_cast<double>(state.range(0)), benchmark::Counter::kIsIterationInvariantRate);
}

} // namespace

BENCHMARK(BM_Propagate)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PropagateAndMaterialize)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
