//===- ParsePrintBench.cpp - Parse/verify/print throughput ----------------===//
//
// Google Benchmark measurements of how fast Toast reads and writes StableHLO:
//
//  * BM_Corpus/<model>_<phase>: a real exported model from the corpus
//    (pt_bert, ~2.9k ops, is the headline number). Found through the
//    environment variable TOAST_CORPUS_DIR, else the TOAST_CORPUS_DIR the
//    build was configured with; skipped (with an error) when absent.
//  * BM_Synthetic/<phase>/<ops>: a generated module whose single function is
//    a chain of repeated dot_general/broadcast_in_dim/add/transpose/reshape/
//    reduce/divide/compare/select blocks, for ~1k, 10k and 100k ops, to show
//    how the cost grows with the module size.
//  * BM_SyntheticSplit/<phase>/<ops>: the same chain cut into functions of
//    ~1k ops each (one huge block vs. many ordinary ones).
//
// Phases: `parse` (text -> IR, no verification), `verify` (mlir::verify on a
// parsed module), `print` (IR -> text, custom form) and `all` (parse + verify
// + print + destroy, what `toast-opt in.mlir` does minus process start-up and
// file I/O) and, for pt_bert, `cold` (`all` with a fresh MLIRContext per
// iteration).
//
// Counters: `ops` is the number of operations in the module (every op that
// a walk visits, including func.func, return and reduce bodies, but not the
// builtin.module), `ops_per_s` the ops handled per second, `time_per_op` its
// inverse; items_per_second equals ops_per_s and bytes_per_second is measured
// on the text form.
//
// The context is created once per benchmark (dialects loaded, multithreading
// disabled so that CPU time is the whole cost) and reused across iterations,
// so attribute and type uniquing hit a warm context (except in `cold`).
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "toast/InitAllDialects.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <utility>

#ifndef TOAST_CORPUS_DIR_DEFAULT
#define TOAST_CORPUS_DIR_DEFAULT ""
#endif

namespace {

enum class Phase { Parse, Verify, Print, All, Cold };

/// Returns the corpus folder: $TOAST_CORPUS_DIR, else the configured one.
std::string corpusDir() {
  if (const char *env = std::getenv("TOAST_CORPUS_DIR"); env && *env)
    return env;
  return TOAST_CORPUS_DIR_DEFAULT;
}

/// Reads <corpus>/models/<name>.mlir once; returns nullptr if it is missing.
const std::string *corpusModel(const std::string &name) {
  static std::map<std::string, std::unique_ptr<std::string>> cache;
  auto it = cache.find(name);
  if (it != cache.end())
    return it->second.get();
  std::string path = corpusDir() + "/models/" + name + ".mlir";
  auto buffer = llvm::MemoryBuffer::getFile(path);
  std::unique_ptr<std::string> text;
  if (buffer)
    text = std::make_unique<std::string>((*buffer)->getBuffer().str());
  return cache.emplace(name, std::move(text)).first->second.get();
}

/// Generates a module of about `targetOps` ops: chains of blocks of 10
/// top-level ops (plus the 2-op body of the reduce) that feed each other,
/// shaped like the layers of an exported transformer. With `opsPerFunc` == 0
/// everything is in one function @main; otherwise the chain is cut into
/// functions @f0, @f1, ... of about `opsPerFunc` ops each.
std::string generateChain(int64_t targetOps, int64_t opsPerFunc) {
  constexpr int64_t kOpsPerBlock = 12;
  int64_t funcs = opsPerFunc > 0 ? std::max<int64_t>(1, targetOps / opsPerFunc)
                                 : 1;
  int64_t opsEach = targetOps / funcs;
  // Per function: func.func, constant, return, plus the blocks.
  int64_t blocks = std::max<int64_t>(1, (opsEach - 3) / kOpsPerBlock);
  std::string s;
  s.reserve(funcs * blocks * 1200 + 512);
  llvm::raw_string_ostream os(s);
  const char *t = "tensor<16x32xf32>";
  os << "module {\n";
  for (int64_t f = 0; f < funcs; ++f) {
    os << "  func.func @" << (opsPerFunc > 0 ? "f" + std::to_string(f)
                                            : std::string("main"))
       << "(%arg0: " << t
       << ", %arg1: tensor<32x32xf32>, %arg2: tensor<32xf32>) -> " << t
       << " {\n    %cst = stablehlo.constant dense<0.000000e+00> : "
          "tensor<f32>\n";
    int64_t n = 0; // next SSA number
    std::string cur = "%arg0";
    for (int64_t b = 0; b < blocks; ++b) {
      int64_t d = n++, bc = n++, a = n++, tr = n++, rs = n++, rd = n++,
              rb = n++, dv = n++, cmp = n++, sel = n++;
      os << "    %" << d << " = stablehlo.dot_general " << cur
         << ", %arg1, contracting_dims = [1] x [0] : (" << t
         << ", tensor<32x32xf32>) -> " << t << "\n";
      os << "    %" << bc << " = stablehlo.broadcast_in_dim %arg2, dims = [1] "
         << ": (tensor<32xf32>) -> " << t << "\n";
      os << "    %" << a << " = stablehlo.add %" << d << ", %" << bc << " : "
         << t << "\n";
      os << "    %" << tr << " = stablehlo.transpose %" << a
         << ", dims = [1, 0] : (" << t << ") -> tensor<32x16xf32>\n";
      os << "    %" << rs << " = stablehlo.reshape %" << tr
         << " : (tensor<32x16xf32>) -> " << t << "\n";
      os << "    %" << rd << " = stablehlo.reduce(%" << rs
         << " init: %cst) applies stablehlo.add across dimensions = [1] : ("
         << t << ", tensor<f32>) -> tensor<16xf32>\n";
      os << "    %" << rb << " = stablehlo.broadcast_in_dim %" << rd
         << ", dims = [0] : (tensor<16xf32>) -> " << t << "\n";
      os << "    %" << dv << " = stablehlo.divide %" << rs << ", %" << rb
         << " : " << t << "\n";
      os << "    %" << cmp << " = stablehlo.compare  GT, %" << dv << ", %"
         << a << ",  FLOAT : (" << t << ", " << t
         << ") -> tensor<16x32xi1>\n";
      os << "    %" << sel << " = stablehlo.select %" << cmp << ", %" << dv
         << ", %" << a << " : tensor<16x32xi1>, " << t << "\n";
      cur = "%" + std::to_string(sel);
    }
    os << "    return " << cur << " : " << t << "\n  }\n";
  }
  os << "}\n";
  return s;
}

const std::string &syntheticModule(int64_t targetOps, int64_t opsPerFunc) {
  static std::map<std::pair<int64_t, int64_t>, std::string> cache;
  auto key = std::make_pair(targetOps, opsPerFunc);
  auto it = cache.find(key);
  if (it == cache.end())
    it = cache.emplace(key, generateChain(targetOps, opsPerFunc)).first;
  return it->second;
}

std::unique_ptr<mlir::MLIRContext> makeContext() {
  mlir::DialectRegistry registry;
  toast::registerAllDialects(registry);
  auto ctx = std::make_unique<mlir::MLIRContext>(
      registry, mlir::MLIRContext::Threading::DISABLED);
  ctx->loadAllAvailableDialects();
  return ctx;
}

mlir::OwningOpRef<mlir::ModuleOp> parse(mlir::MLIRContext &ctx,
                                        llvm::StringRef text) {
  return mlir::parseSourceString<mlir::ModuleOp>(
      text, mlir::ParserConfig(&ctx, /*verifyAfterParse=*/false));
}

int64_t countOps(mlir::ModuleOp module) {
  int64_t n = 0;
  module->walk([&](mlir::Operation *op) {
    if (op != module.getOperation())
      ++n;
  });
  return n;
}

void print(mlir::ModuleOp module, std::string &out) {
  out.clear();
  llvm::raw_string_ostream os(out);
  module->print(os, mlir::OpPrintingFlags().assumeVerified());
}

void setCounters(benchmark::State &state, int64_t numOps, size_t bytes) {
  auto iters = static_cast<double>(state.iterations());
  state.SetItemsProcessed(numOps * state.iterations());
  state.SetBytesProcessed(static_cast<int64_t>(bytes) * state.iterations());
  state.counters["ops"] = static_cast<double>(numOps);
  // kIsRate divides by the total time of all iterations, so count all ops.
  state.counters["ops_per_s"] =
      benchmark::Counter(numOps * iters, benchmark::Counter::kIsRate);
  // The inverse: seconds per op (printed with an SI prefix, e.g. 2.5us).
  state.counters["time_per_op"] = benchmark::Counter(
      numOps * iters, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

/// Runs one phase on `text`; shared by the corpus and synthetic benchmarks.
void runPhase(benchmark::State &state, const std::string &text, Phase phase) {
  auto ctx = makeContext();
  // Check once, untimed, that the input is valid: never time an error path.
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(*ctx, text);
  if (!module || mlir::failed(mlir::verify(*module))) {
    state.SkipWithError("input does not parse and verify");
    return;
  }
  int64_t numOps = countOps(*module);
  std::string out;
  out.reserve(text.size() + text.size() / 4);

  switch (phase) {
  case Phase::Parse:
    module = nullptr;
    for (auto _ : state) {
      mlir::OwningOpRef<mlir::ModuleOp> m = parse(*ctx, text);
      benchmark::DoNotOptimize(m.get());
      state.PauseTiming(); // don't count the destruction
      m = nullptr;
      state.ResumeTiming();
    }
    break;
  case Phase::Verify:
    for (auto _ : state) {
      bool ok = mlir::succeeded(mlir::verify(*module));
      benchmark::DoNotOptimize(ok);
    }
    break;
  case Phase::Print:
    for (auto _ : state) {
      print(*module, out);
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
    break;
  case Phase::Cold:
    // Like All, but with a fresh context (registry, dialect loading, empty
    // uniquing tables) per iteration: what one toast-opt invocation pays.
    module = nullptr;
    ctx.reset();
    for (auto _ : state) {
      auto fresh = makeContext();
      mlir::OwningOpRef<mlir::ModuleOp> m = parse(*fresh, text);
      if (!m || mlir::failed(mlir::verify(*m))) {
        state.SkipWithError("parse or verify failed");
        break;
      }
      print(*m, out);
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
      m = nullptr;
    }
    break;
  case Phase::All:
    module = nullptr;
    for (auto _ : state) {
      mlir::OwningOpRef<mlir::ModuleOp> m = parse(*ctx, text);
      if (!m || mlir::failed(mlir::verify(*m))) {
        state.SkipWithError("parse or verify failed");
        break;
      }
      print(*m, out);
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
    break;
  }
  setCounters(state, numOps, text.size());
}

void BM_Corpus(benchmark::State &state, const char *model, Phase phase) {
  const std::string *text = corpusModel(model);
  if (!text) {
    std::string msg = std::string("corpus model ") + model +
                      ".mlir not found under '" + corpusDir() +
                      "/models' (set TOAST_CORPUS_DIR)";
    state.SkipWithError(msg.c_str());
    for (auto _ : state) {
    }
    return;
  }
  runPhase(state, *text, phase);
}

void BM_Synthetic(benchmark::State &state, Phase phase) {
  runPhase(state, syntheticModule(state.range(0), /*opsPerFunc=*/0), phase);
}

void BM_SyntheticSplit(benchmark::State &state, Phase phase) {
  runPhase(state, syntheticModule(state.range(0), /*opsPerFunc=*/1000),
           phase);
}

} // namespace

// The headline: BERT-base exported from PyTorch through JAX.
BENCHMARK_CAPTURE(BM_Corpus, pt_bert_all, "pt_bert", Phase::All)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Corpus, pt_bert_cold, "pt_bert", Phase::Cold)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Corpus, pt_bert_parse, "pt_bert", Phase::Parse)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Corpus, pt_bert_verify, "pt_bert", Phase::Verify)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Corpus, pt_bert_print, "pt_bert", Phase::Print)
    ->Unit(benchmark::kMillisecond);
// The other models, end to end.
BENCHMARK_CAPTURE(BM_Corpus, searchless_chess_9m_all, "searchless_chess_9m",
                  Phase::All)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Corpus, jax_resnet_50_all, "jax_resnet_50", Phase::All)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Corpus, kan1_all, "kan1", Phase::All)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Corpus, kan2_all, "kan2", Phase::All)
    ->Unit(benchmark::kMillisecond);

// Scaling: ~1k, 10k and 100k ops; time per op should stay flat.
#define TOAST_SYNTHETIC_SIZES(phase, name)                                     \
  BENCHMARK_CAPTURE(BM_Synthetic, name, phase)                                 \
      ->Arg(1000)                                                              \
      ->Arg(10000)                                                             \
      ->Arg(100000)                                                            \
      ->Unit(benchmark::kMillisecond)
TOAST_SYNTHETIC_SIZES(Phase::All, all);
TOAST_SYNTHETIC_SIZES(Phase::Parse, parse);
TOAST_SYNTHETIC_SIZES(Phase::Verify, verify);
TOAST_SYNTHETIC_SIZES(Phase::Print, print);

// The same ops cut into functions of ~1k ops: separates the cost of the
// module size from the cost of one huge block.
BENCHMARK_CAPTURE(BM_SyntheticSplit, all, Phase::All)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SyntheticSplit, verify, Phase::Verify)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);
