//===- NdaBench.cpp - Named dimension analysis construction time ---------===//
//
// Construction time of toast::NamedDimensionAnalysis against program size:
//  * BM_NdaChain/N: a generated chain of N/3 (dot_general, add, tanh)
//    blocks on 2-d tensors, with a transpose feeding back every block so
//    conflicts appear;
//  * BM_NdaModel/<preset>: toast-models programs (tiny transformers with
//    2..32 layers, and the full t32 / t2b / t7b training steps).
// Counters report ops, names, colors, conflicts, sets and bits.
//
//===----------------------------------------------------------------------===//

#include "toast/Analysis/NamedDimensionAnalysis.h"
#include "toast/InitAllDialects.h"
#include "toast/Models/Models.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <benchmark/benchmark.h>

#include <string>

using namespace mlir;

namespace {

MLIRContext &getContext() {
  static MLIRContext *ctx = [] {
    DialectRegistry registry;
    toast::registerAllDialects(registry);
    auto *c = new MLIRContext(registry);
    c->loadAllAvailableDialects();
    return c;
  }();
  return *ctx;
}

std::string chainProgram(int64_t ops) {
  std::string s = "func.func @main(%x: tensor<64x64xf32>, %w: "
                  "tensor<64x64xf32>) -> tensor<64x64xf32> {\n";
  std::string cur = "%x";
  const char *t = "tensor<64x64xf32>";
  for (int64_t i = 0; i < ops / 3; ++i) {
    std::string n = std::to_string(i);
    std::string w = i % 4 == 3 ? "%t" + std::to_string(i - 1) : "%w";
    s += "  %m" + n + " = stablehlo.dot_general " + cur + ", " + w +
         ", contracting_dims = [1] x [0] : (" + t + ", " + t + ") -> " + t +
         "\n";
    s += "  %a" + n + " = stablehlo.add %m" + n + ", " + cur + " : " + t +
         "\n";
    s += "  %t" + n + " = stablehlo.transpose %a" + n +
         ", dims = [1, 0] : (" + t + ") -> " + t + "\n";
    cur = "%t" + n;
  }
  s += "  return " + cur + " : " + std::string(t) + "\n}\n";
  return s;
}

void report(benchmark::State &state, const toast::NamedDimensionAnalysis &nda,
            int64_t ops) {
  state.counters["ops"] = ops;
  state.counters["names"] = nda.getNumNames();
  state.counters["colors"] = nda.getNumColors();
  state.counters["conflicts"] = nda.getNumConflicts();
  state.counters["sets"] = nda.getNumSets();
  state.counters["bits"] = nda.getNumResolutionBits();
  state.counters["groups"] = nda.getArgumentGroups().size();
  state.counters["ns_per_op"] = benchmark::Counter(
      ops, benchmark::Counter::kIsIterationInvariantRate |
               benchmark::Counter::kInvert);
}

void BM_NdaChain(benchmark::State &state) {
  auto module =
      parseSourceString<ModuleOp>(chainProgram(state.range(0)), &getContext());
  if (!module) {
    state.SkipWithError("parse failed");
    return;
  }
  for (auto _ : state) {
    toast::NamedDimensionAnalysis nda(*module);
    benchmark::DoNotOptimize(nda.getNumColors());
  }
  toast::NamedDimensionAnalysis nda(*module);
  report(state, nda, state.range(0) / 3 * 3);
}
BENCHMARK(BM_NdaChain)
    ->RangeMultiplier(10)
    ->Range(300, 300000)
    ->Unit(benchmark::kMillisecond);

void modelBench(benchmark::State &state, std::string name, int64_t layers,
                bool tiny) {
  toast::models::ModelOptions options;
  if (tiny) {
    options.ints["layers"] = layers;
    options.ints["batch"] = 2;
    options.ints["seq"] = 8;
    options.ints["d-model"] = 16;
    options.ints["heads"] = 2;
    options.ints["vocab"] = 32;
    options.ints["hidden"] = 32;
  }
  std::string error;
  auto module =
      toast::models::buildModel(&getContext(), name, options, error);
  if (!module) {
    state.SkipWithError(error.c_str());
    return;
  }
  int64_t ops = toast::models::measureModel(*module).ops;
  for (auto _ : state) {
    toast::NamedDimensionAnalysis nda(*module);
    benchmark::DoNotOptimize(nda.getNumColors());
  }
  toast::NamedDimensionAnalysis nda(*module);
  report(state, nda, ops);
}

} // namespace

BENCHMARK_CAPTURE(modelBench, transformer_L2, "transformer", 2, true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(modelBench, transformer_L8, "transformer", 8, true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(modelBench, transformer_L32, "transformer", 32, true)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(modelBench, mlp, "mlp", 0, false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(modelBench, t32, "t32", 0, false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(modelBench, t2b, "t2b", 0, false)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(modelBench, t7b, "t7b", 0, false)
    ->Unit(benchmark::kMillisecond);
