//===- SimulatorTest.cpp - simulate(), relative cost, corpus BP ----------===//
//
// The C++ API the search reuses: simulate() on hand-priced programs, the
// relative cost C(s) = RT(s) + MP(s) through RelativeCostModel, and batch
// parallelism on the corpus models (compute time and activation memory
// divided by the number of devices).
//
//===----------------------------------------------------------------------===//

#include "toast/Simulator/Simulator.h"
#include "toast/InitAllDialects.h"
#include "toast/InitAllPasses.h"
#include "toast/Simulator/Aliasing.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include "../TestSupport.h"

#include <cstdlib>
#include <ostream>

using namespace mlir;
using namespace toast::sim;

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

/// A device with round numbers (the lit tests' unit device).
DeviceSpec unitDevice() {
  DeviceSpec device;
  device.name = "unit";
  device.peakFlops = {{"f32", 1e12}, {"bf16", 4e12}};
  device.memoryBytes = 1e6;
  device.memoryBandwidth = 1e9;
  device.interconnect = {1e9, 1e-6};
  return device;
}

class SimulatorTest : public ::testing::Test {
protected:
  SimulatorTest() {
    static bool registered = [] {
      toast::registerAllPasses();
      return true;
    }();
    (void)registered;
    DialectRegistry registry;
    toast::registerAllDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
    handler = ctx.getDiagEngine().registerHandler([this](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error)
        errors.push_back(d.str());
      if (d.getSeverity() == DiagnosticSeverity::Warning)
        warnings.push_back(d.str());
      return success();
    });
  }
  ~SimulatorTest() override { ctx.getDiagEngine().eraseHandler(handler); }

  OwningOpRef<ModuleOp> parse(StringRef source) {
    return parseSourceString<ModuleOp>(source, &ctx);
  }

  /// Runs --partir-schedule (from JSON text) and --partir-lower-to-hlo.
  LogicalResult partition(ModuleOp module, StringRef scheduleJson) {
    return toast::test_support::scheduleAndLower(ctx, module, scheduleJson);
  }

  MLIRContext ctx;
  DiagnosticEngine::HandlerID handler;
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
};

TEST_F(SimulatorTest, MatmulChainByHand) {
  auto module = parse(kChain);
  ASSERT_TRUE(module);
  FailureOr<SimulationResult> result =
      simulate(*module, unitDevice(), SimulationOptions::legacy());
  ASSERT_TRUE(succeeded(result));
  // Contractions only: 2 * 256*16*8 + 2 * 256*8*16 = 131072 FLOPs at 1e12
  // FLOP/s.
  EXPECT_DOUBLE_EQ(result->flops, 131072);
  EXPECT_DOUBLE_EQ(result->computeTime, 131072 / 1e12);
  EXPECT_DOUBLE_EQ(result->stepTime, 131072 / 1e12);
  EXPECT_EQ(result->commTime, 0);
  // Arguments 8192 + 512 + 512; at dot #1: + x1 16384 + x2 8192.
  EXPECT_EQ(result->argumentBytes, 9216);
  EXPECT_EQ(result->peakMemoryBytes, 9216 + 16384 + 8192);
  EXPECT_EQ(result->peakOpIndex, 1);
  EXPECT_EQ(result->peakOpName, "stablehlo.dot_general");
  EXPECT_EQ(result->numOps, 2);
  EXPECT_TRUE(result->fitsInMemory);
}

TEST_F(SimulatorTest, MatmulChainBPMPZ3) {
  auto module = parse(kChain);
  ASSERT_TRUE(module);
  ASSERT_TRUE(succeeded(partition(*module, R"json(
    {"mesh": {"B": 4, "M": 2},
     "tactics": [{"name": "BP", "kind": "manual", "axis": "B", "inputs": {"x": 0}},
                 {"name": "MP", "kind": "manual", "axis": "M", "inputs": {"w1": 1}},
                 {"name": "Z3", "kind": "manual", "axis": "B", "inputs": {"w1": 0, "w2": 1}}]})json")));
  FailureOr<SimulationResult> result =
      simulate(*module, unitDevice(), SimulationOptions::legacy());
  ASSERT_TRUE(succeeded(result));
  // Two all_gathers over B (n=4) of 8x8xf32 (256 B): 3 steps, 192 B each;
  // one all_reduce over M (n=2) of 64x8xf32 (2048 B): 2 steps, 2048 B.
  EXPECT_EQ(result->count(CollectiveKind::AllGather), 2);
  EXPECT_EQ(result->count(CollectiveKind::AllReduce), 1);
  EXPECT_EQ(result->count(CollectiveKind::ReduceScatter), 0);
  EXPECT_EQ(result->count(CollectiveKind::AllToAll), 0);
  EXPECT_DOUBLE_EQ(result->commBytes, 2 * 192 + 2048);
  double ag = 3e-6 + 192 / 1e9, ar = 2e-6 + 2048 / 1e9;
  EXPECT_DOUBLE_EQ(result->get(CollectiveKind::AllGather).time, 2 * ag);
  EXPECT_DOUBLE_EQ(result->commTime, 2 * ag + ar);
  EXPECT_DOUBLE_EQ(result->flops, 16384);
  EXPECT_DOUBLE_EQ(result->stepTime, 2 * ag + ar + 16384 / 1e12);
  EXPECT_EQ(result->peakMemoryBytes, 6528);
}

TEST_F(SimulatorTest, RelativeCostModel) {
  // s0: the unpartitioned chain; s: batch-parallel over 4 devices.
  auto initial = parse(kChain);
  ASSERT_TRUE(initial);
  // Contractions only, so that BP divides the step exactly.
  FailureOr<RelativeCostModel> model = RelativeCostModel::create(
      *initial, unitDevice(), SimulationOptions::legacy());
  ASSERT_TRUE(succeeded(model));
  RelativeCost self = model->evaluate(model->getInitial());
  EXPECT_DOUBLE_EQ(self.runtime, 1);
  EXPECT_EQ(self.memoryPenalty, 0);

  auto bp = parse(kChain);
  ASSERT_TRUE(succeeded(partition(*bp, R"json(
    {"mesh": {"B": 4}, "tactics": [{"name": "BP", "kind": "manual",
      "axis": "B", "inputs": {"x": 0}}]})json")));
  FailureOr<RelativeCost> cost = model->evaluate(*bp);
  ASSERT_TRUE(succeeded(cost));
  EXPECT_DOUBLE_EQ(cost->runtime, 0.25);
  EXPECT_EQ(cost->memoryPenalty, 0);
  EXPECT_DOUBLE_EQ(cost->total, 0.25);
}

TEST_F(SimulatorTest, MemoryPenalty) {
  // MP = C * (peak - DM) / initial peak, only above device memory.
  RelativeCost fits = computeRelativeCost(2.0, 100, 1.0, 80, 90, 10);
  EXPECT_DOUBLE_EQ(fits.runtime, 0.5);
  EXPECT_EQ(fits.memoryPenalty, 0);
  RelativeCost over = computeRelativeCost(2.0, 100, 1.0, 120, 90, 10);
  EXPECT_DOUBLE_EQ(over.memoryPenalty, 10 * 30 / 100.0);
  EXPECT_DOUBLE_EQ(over.total, 0.5 + 3.0);
  RelativeCost gentle = computeRelativeCost(2.0, 100, 1.0, 120, 90, 1);
  EXPECT_DOUBLE_EQ(gentle.memoryPenalty, 0.3);

  // A program that does not fit the unit device (1e6 B): 2 x 1 MiB.
  auto module = parse(R"mlir(
    func.func @main(%x: tensor<256x1024xf32>) -> tensor<256x1024xf32> {
      %e = stablehlo.exponential %x : tensor<256x1024xf32>
      return %e : tensor<256x1024xf32>
    })mlir");
  ASSERT_TRUE(module);
  FailureOr<SimulationResult> result = simulate(*module, unitDevice());
  ASSERT_TRUE(succeeded(result));
  EXPECT_EQ(result->peakMemoryBytes, 2 * 1048576);
  EXPECT_FALSE(result->fitsInMemory);
  EXPECT_EQ(result->getMemoryOverflowBytes(), 2 * 1048576 - 1000000);
  RelativeCost cost = computeRelativeCost(*result, *result, 10);
  EXPECT_GT(cost.memoryPenalty, 0);
  EXPECT_DOUBLE_EQ(cost.memoryPenalty, 10.0 * (2097152 - 1e6) / 2097152);
}

TEST_F(SimulatorTest, MemoryBoundAndFusion) {
  auto module = parse(R"mlir(
    func.func @main(%x: tensor<1024xf32>) -> tensor<1024xf32> {
      %a = stablehlo.exponential %x : tensor<1024xf32>
      %b = stablehlo.exponential %a : tensor<1024xf32>
      %c = stablehlo.add %a, %b : tensor<1024xf32>
      %d = stablehlo.exponential %c : tensor<1024xf32>
      return %d : tensor<1024xf32>
    })mlir");
  ASSERT_TRUE(module);
  SimulationOptions options;
  options.fusion = false;
  FailureOr<SimulationResult> plain = simulate(*module, unitDevice(), options);
  ASSERT_TRUE(succeeded(plain));
  // Unfused, each op reads its distinct operands and writes its result:
  // exp 8192, exp 8192, add 12288, exp 8192 bytes through HBM.
  EXPECT_DOUBLE_EQ(plain->memoryTraffic, 36864);
  EXPECT_DOUBLE_EQ(plain->stepTime, 36864 / 1e9);
  EXPECT_EQ(plain->peakMemoryBytes, 16384);

  // The default: a is read by two ops and exp is not duplicated, so it is
  // materialized; b (read by the add only) and c (read by the last exp)
  // are fused. Two fusions: a (reads x, writes a: 8192 B) and d (reads a,
  // writes d: 8192 B); the peak is x, a and d at the last op.
  FailureOr<SimulationResult> fused = simulate(*module, unitDevice());
  ASSERT_TRUE(succeeded(fused));
  EXPECT_DOUBLE_EQ(fused->memoryTraffic, 16384);
  EXPECT_DOUBLE_EQ(fused->stepTime, 16384 / 1e9);
  EXPECT_EQ(fused->peakMemoryBytes, 12288);
}

TEST_F(SimulatorTest, EntryFunctionErrors) {
  auto module = parse(R"mlir(
    func.func @a(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> }
    func.func @b(%x: tensor<4xf32>) -> tensor<4xf32> { return %x : tensor<4xf32> })mlir");
  ASSERT_TRUE(module);
  EXPECT_TRUE(failed(simulate(*module, unitDevice())));
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors.back().find("several public functions"), std::string::npos);
  SimulationOptions options;
  options.function = "b";
  EXPECT_TRUE(succeeded(simulate(*module, unitDevice(), options)));
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

/// A scan over a stacked [4, 64, 64] weight (carried-loops.mlir's @scan
/// with the stack read from an argument).
constexpr const char *kScan = R"mlir(
func.func @main(%x: tensor<8x64xf32>, %w: tensor<4x64x64xf32>, %n: tensor<i32>) -> tensor<8x64xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %h = %x, %a = %w) : tensor<i32>, tensor<8x64xf32>, tensor<4x64x64xf32>
   cond {
    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %s = stablehlo.dynamic_slice %a, %i, %z, %z, sizes = [1, 64, 64] : (tensor<4x64x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x64xf32>
    %m = stablehlo.reshape %s : (tensor<1x64x64xf32>) -> tensor<64x64xf32>
    %u = stablehlo.dot_general %h, %m, contracting_dims = [1] x [0] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %next, %u, %a : tensor<i32>, tensor<8x64xf32>, tensor<4x64x64xf32>
  }
  return %r#1 : tensor<8x64xf32>
})mlir";

/// The search prices a loop's regions apart from the op (the op's operands,
/// results and captured values are its own to count); constants in the
/// regions are left out as hoisted.
TEST_F(SimulatorTest, SimulateRegionsCountsOnlyTheRegions) {
  auto module = parse(kScan);
  ASSERT_TRUE(module);
  Operation *loop = nullptr;
  module->walk([&](Operation *op) {
    if (op->getName().getStringRef() == "stablehlo.while")
      loop = op;
  });
  ASSERT_TRUE(loop);
  FailureOr<SimulationResult> regions = simulateRegions(loop, unitDevice());
  ASSERT_TRUE(succeeded(regions));
  // compare; dynamic_slice, reshape, dot, add; the while.
  EXPECT_EQ(regions->numOps, 6);
  // The new h (2048 B) and the next counter (4 B): the layer slice is a
  // view of the carried stack (Fusion.h), which is the loop op's to count.
  EXPECT_EQ(regions->peakMemoryBytes, 2048 + 4);
  // The trip count is an argument: one iteration.
  EXPECT_EQ(regions->uncountedLoops, 1);
  EXPECT_DOUBLE_EQ(regions->flops, 2.0 * 8 * 64 * 64);
  EXPECT_TRUE(warnings.empty());

  SmallVector<TiedResult> tied = getTiedResults(loop);
  ASSERT_EQ(tied.size(), 3u);
  EXPECT_EQ(tied[0].init, 0);
  EXPECT_FALSE(tied[0].passThrough);
  EXPECT_FALSE(tied[1].passThrough);
  EXPECT_EQ(tied[2].init, 2);
  EXPECT_TRUE(tied[2].passThrough);
}

/// Only the pass warns about loops without a trip count; the search, which
/// simulates many states of one program, does not.
TEST_F(SimulatorTest, UncountedLoopWarningIsOptIn) {
  auto module = parse(kScan);
  ASSERT_TRUE(module);
  ASSERT_TRUE(succeeded(simulate(*module, unitDevice())));
  EXPECT_TRUE(warnings.empty());
  SimulationOptions options;
  options.warnUncountedLoops = true;
  FailureOr<SimulationResult> result = simulate(*module, unitDevice(), options);
  ASSERT_TRUE(succeeded(result));
  EXPECT_EQ(result->uncountedLoops, 1);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "this condition gives its loop no constant trip "
                         "count; counting one iteration");
}

struct LiveRange {
  int64_t bytes;
  int64_t lastUse;
  /// Where it is defined (< 0: an argument); only donations read it.
  int64_t def = 0;
};

/// The carry rule on bare live ranges: shared storage is followed through
/// a chain of loops, and a carry whose init is read later stays a copy.
TEST(CarryTiesTest, SharesOrCopies) {
  std::vector<LiveRange> buffers = {
      {100, 5},  // 0: init of loop A, last read by A (at 5)
      {100, 9},  // 1: A's carry, init of loop B (at 9)
      {100, 12}, // 2: B's carry, read until 12
      {50, 20},  // 3: init of loop C (at 14), read again later
      {50, 16},  // 4: C's carry
      {50, 16},  // 5: C's pass-through carry of buffer 3
  };
  resolveCarryTies(buffers, {{1, 0, 5, false, false},
                             {2, 1, 9, false, false},
                             {4, 3, 14, false, false},
                             {5, 3, 14, true, false}});
  // A and B run in place in buffer 0, which now lives until 12.
  EXPECT_EQ(buffers[0].lastUse, 12);
  EXPECT_EQ(buffers[1].bytes, 0);
  EXPECT_EQ(buffers[2].bytes, 0);
  // C writes a copy; the value it never writes stays in buffer 3.
  EXPECT_EQ(buffers[4].bytes, 50);
  EXPECT_EQ(buffers[5].bytes, 0);
  EXPECT_EQ(buffers[3].lastUse, 20);

  // Read elsewhere by the loop (another operand or captured): a copy.
  std::vector<LiveRange> captured = {{100, 5}, {100, 9}};
  resolveCarryTies(captured, {{1, 0, 5, false, true}});
  EXPECT_EQ(captured[1].bytes, 100);
}

/// Donations come after the ties: a returned buffer takes a donated
/// argument's storage when the argument is last read where (or before) it
/// is defined, following in-place updates; otherwise the argument lives to
/// the end.
TEST(CarryTiesTest, DonatedArguments) {
  std::vector<LiveRange> buffers = {
      {100, 3, -1}, // 0: argument p, last read at 3
      {100, 10, 3}, // 1: returned p - d, defined at 3
      {100, 5, -1}, // 2: argument q, last read at 5
      {100, 10, 3}, // 3: returned, defined at 3 (q still read at 5)
      {100, 2, 1},  // 4: a temporary updated in place at 2 ...
      {100, 10, 2}, // 5: ... into the returned update
      {100, 2, -1}, // 6: argument donated to 5
  };
  resolveCarryTies(buffers, {{5, 4, 2, false, false}},
                   {{1, 0}, {3, 2}, {5, 6}});
  EXPECT_EQ(buffers[1].bytes, 0);
  EXPECT_EQ(buffers[0].lastUse, 10);
  EXPECT_EQ(buffers[3].bytes, 100);
  EXPECT_EQ(buffers[2].lastUse, 10);
  // 5 is stored in 4 (defined at 1, while 6 is still read at 2): no share.
  EXPECT_EQ(buffers[5].bytes, 0);
  EXPECT_EQ(buffers[4].bytes, 100);
  EXPECT_EQ(buffers[6].lastUse, 10);
}

//===----------------------------------------------------------------------===//
// Batch parallelism on the corpus models
//===----------------------------------------------------------------------===//

/// Batch parallelism over n devices: FLOPs and compute time divide by n
/// exactly (contractions only, no collective needed), and so should the
/// activation memory (peak minus arguments). The batch input is arg0 for
/// the KANs (batch 100) and arg94 for searchless_chess_9m (33 boards);
/// pt_bert and jax_resnet_50 have batch 1 and are not checked.
struct BPCase {
  const char *model;
  const char *input;
  int64_t n;
  /// Lower bound on activation(1) / activation(n), as a fraction of n:
  /// 0.99 where every activation carries the batch, lower for the KANs,
  /// whose weight-shaped intermediates (transposes and reshapes of the
  /// replicated parameter vector) stay whole on every device.
  double activationFraction;
  /// Upper bound, likewise: 1.01 where the batch divides every activation.
  /// The KANs' splat constants of batch size become per-device splats made
  /// where they are read (phlo::getSlicedSplat, as the export writes them),
  /// not whole constants live from the function's start, so activations
  /// divide by more than n (kan1 and kan2 on 2 devices: 2.21 and 2.24).
  double maxActivationFraction = 1.01;
};

void PrintTo(const BPCase &c, std::ostream *os) {
  *os << c.model << " BP over " << c.n << " devices on " << c.input;
}

class CorpusBatchParallelTest : public SimulatorTest,
                                public ::testing::WithParamInterface<BPCase> {};

TEST_P(CorpusBatchParallelTest, DividesComputeAndActivations) {
  const BPCase &c = GetParam();
  const char *dir = std::getenv("TOAST_CORPUS_DIR");
  std::string path =
      std::string(dir ? dir : "") + "/models/" + c.model + ".mlir";
  if (!dir || !llvm::sys::fs::exists(path)) {
    const char *ci = std::getenv("CI");
    if (ci && std::string(ci) == "true")
      FAIL() << "corpus model '" << path << "' missing (required under CI)";
    GTEST_SKIP() << "corpus not found; set TOAST_CORPUS_DIR";
  }
  auto base = parseSourceFile<ModuleOp>(path, &ctx);
  auto split = parseSourceFile<ModuleOp>(path, &ctx);
  ASSERT_TRUE(base && split);
  DeviceSpec a100 = cantFail(getBuiltinDevice("a100"));
  // Contractions only: under the roofline every device still reads the
  // replicated weights, so the step does not divide exactly.
  SimulationOptions options = SimulationOptions::legacy();
  FailureOr<SimulationResult> s0 = simulate(*base, a100, options);
  ASSERT_TRUE(succeeded(s0));

  std::string schedule = "{\"mesh\": {\"B\": " + std::to_string(c.n) +
                         "}, \"tactics\": [{\"name\": \"BP\", \"kind\": "
                         "\"manual\", \"axis\": \"B\", \"inputs\": {\"" +
                         c.input + "\": 0}}]}";
  ASSERT_TRUE(succeeded(partition(*split, schedule)));
  FailureOr<SimulationResult> sn = simulate(*split, a100, options);
  ASSERT_TRUE(succeeded(sn));

  double n = static_cast<double>(c.n);
  EXPECT_EQ(sn->commTime, 0);
  EXPECT_NEAR(s0->flops / sn->flops, n, 1e-9 * n);
  EXPECT_NEAR(s0->computeTime / sn->computeTime, n, 1e-9 * n);
  EXPECT_NEAR(s0->stepTime / sn->stepTime, n, 1e-9 * n);
  double act0 = static_cast<double>(s0->peakMemoryBytes - s0->argumentBytes);
  double actn = static_cast<double>(sn->peakMemoryBytes - sn->argumentBytes);
  ASSERT_GT(actn, 0);
  double ratio = act0 / actn;
  EXPECT_GE(ratio, c.activationFraction * n) << "activation ratio " << ratio;
  EXPECT_LE(ratio, c.maxActivationFraction * n) << "activation ratio " << ratio;
}

INSTANTIATE_TEST_SUITE_P(
    Models, CorpusBatchParallelTest,
    ::testing::Values(BPCase{"searchless_chess_9m", "arg94", 3, 0.99},
                      BPCase{"searchless_chess_9m", "arg94", 11, 0.99},
                      BPCase{"kan1", "arg0", 2, 0.5, 1.15},
                      BPCase{"kan1", "arg0", 4, 0.5, 1.15},
                      BPCase{"kan2", "arg0", 2, 0.5, 1.15},
                      BPCase{"kan2", "arg0", 4, 0.5, 1.15}),
    [](const ::testing::TestParamInfo<BPCase> &info) {
      return std::string(info.param.model) + "_x" +
             std::to_string(info.param.n);
    });

} // namespace
