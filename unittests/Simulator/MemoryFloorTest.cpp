//===- MemoryFloorTest.cpp - The memory floor and the timeline ------------===//
//
// Issue 16, items 4 and 5: the memory floor (never above the simulated
// peak, on the tiny model zoo under several schedules and every memory
// option; by hand on the tiny MLP training step), and the timeline behind
// the Chrome trace and the memory CSV (its totals are the report's).
//
//===----------------------------------------------------------------------===//

#include "toast/InitAllDialects.h"
#include "toast/InitAllPasses.h"
#include "toast/Models/Models.h"
#include "toast/Simulator/Simulator.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include "../TestSupport.h"

#include <cmath>

using namespace mlir;
using namespace toast::sim;

namespace {

/// Loop programs and a bf16 one, besides the tiny zoo.
const char *kMoreModels[] = {
    "t2b --scan --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 "
    "--key-size 4 --vocab 32 --hidden 24",
    "t2b --scan --remat --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 "
    "--key-size 4 --vocab 32 --hidden 24",
    "t2b --dtype bf16 --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 "
    "--key-size 4 --vocab 32 --hidden 24",
    "itx --scan --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 "
    "--key-size 4 --vocab 32 --hidden 24 --decode-steps 4",
};

/// Expert schedules (benchmarks/search, test/Models/Inputs) per model
/// name; the mesh is replaced by {B:2, M:2}.
const char *kMlpBpMp = R"json({"mesh": {"B": 2, "M": 2}, "tactics": [
  {"kind": "manual", "axis": "B", "inputs": {"re:batch\\..*": 0}},
  {"kind": "manual", "axis": "M", "inputs": {"params.layer_0.w": 1,
                                              "params.layer_1.w": 0}}]})json";
const char *kBp = R"json({"mesh": {"B": 2, "M": 2}, "tactics": [
  {"kind": "manual", "axis": "B", "inputs": {"re:batch\\..*": 0}}]})json";

std::vector<std::string> schedulePaths(StringRef model) {
  std::string root = TOAST_SOURCE_DIR;
  if (model == "t32")
    return {root + "/test/Models/Inputs/t32-bp-mp.json",
            root + "/test/Models/Inputs/t32-bp-mp-z3.json"};
  if (model == "gns")
    return {root + "/benchmarks/search/gns-es-mp.json",
            root + "/benchmarks/search/gns-es-mp-z3.json"};
  if (model == "mlp")
    return {};
  return {root + "/benchmarks/search/" + model.str() + "-bp-mp.json",
          root + "/benchmarks/search/" + model.str() + "-bp-mp-z3.json"};
}

/// The schedule file at `path` with every mesh axis of size 2.
std::string onSmallMesh(StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    ADD_FAILURE() << "cannot read " << path.str();
    return "";
  }
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json) {
    ADD_FAILURE() << path.str() << ": " << llvm::toString(json.takeError());
    return "";
  }
  // Every axis of the mesh (B and M, or t32's batch and model) gets 2.
  llvm::json::Object *mesh = json->getAsObject()->getObject("mesh");
  for (auto &axis : *mesh)
    axis.second = 2;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << *json;
  return text;
}

class MemoryFloorTest : public ::testing::Test {
protected:
  MemoryFloorTest() {
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
      return success();
    });
  }
  ~MemoryFloorTest() override { ctx.getDiagEngine().eraseHandler(handler); }

  OwningOpRef<ModuleOp> buildModel(StringRef spec) {
    return toast::test_support::buildModelFromSpec(ctx, spec);
  }
  LogicalResult partition(ModuleOp module, StringRef scheduleJson) {
    return toast::test_support::scheduleAndLower(ctx, module, scheduleJson);
  }

  /// The tiny zoo unpartitioned and under BP and its expert schedules.
  template <typename Fn> void forEachProgram(Fn fn) {
    std::vector<const char *> specs(std::begin(toast::test_support::kTinyZoo),
                                    std::end(toast::test_support::kTinyZoo));
    specs.insert(specs.end(), std::begin(kMoreModels), std::end(kMoreModels));
    for (const char *spec : specs) {
      StringRef model = StringRef(spec).split(' ').first;
      std::vector<std::pair<std::string, std::string>> schedules = {
          {"none", ""}};
      if (model != "gns") // its batch has graph-level inputs of size 1
        schedules.push_back({"BP", kBp});
      if (model == "mlp")
        schedules.push_back({"BP+MP", kMlpBpMp});
      else if (!StringRef(spec).contains("--scan"))
        for (const std::string &path : schedulePaths(model))
          schedules.push_back(
              {llvm::sys::path::filename(path).str(), onSmallMesh(path)});
      for (auto &[name, schedule] : schedules) {
        OwningOpRef<ModuleOp> module = buildModel(spec);
        ASSERT_TRUE(module) << spec;
        if (!schedule.empty()) {
          ASSERT_TRUE(succeeded(partition(*module, schedule)))
              << spec << " under " << name << ": " << llvm::join(errors, "; ");
        }
        fn(std::string(spec) + " under " + name, *module);
      }
    }
  }

  MLIRContext ctx;
  DiagnosticEngine::HandlerID handler;
  std::vector<std::string> errors;
};

/// Memory options that move the peak (and the floor with `donate`).
std::vector<std::pair<std::string, SimulationOptions>> memoryOptions() {
  std::vector<std::pair<std::string, SimulationOptions>> all;
  SimulationOptions options;
  all.push_back({"default", options});
  options.fusion = true;
  all.push_back({"fusion", options});
  options = {};
  options.donate = true;
  all.push_back({"donate", options});
  options.fusion = true;
  options.memoryBound = true;
  options.overlap = true;
  all.push_back({"donate+fusion+memory-bound+overlap", options});
  return all;
}

/// The floor is a lower bound of the peak for every program, schedule and
/// option; it holds at least the arguments (all of them are there before
/// the first op) and does not depend on fusion, memory-bound pricing or
/// overlap (only donation changes which buffers live).
TEST_F(MemoryFloorTest, PeakIsNeverBelowTheFloor) {
  DeviceSpec device = *getBuiltinDevice("a100");
  unsigned programs = 0;
  double worst = 0;
  forEachProgram([&](const std::string &label, ModuleOp module) {
    int64_t floorKept = -1, floorDonated = -1;
    for (auto &[name, options] : memoryOptions()) {
      FailureOr<SimulationResult> r = simulate(module, device, options);
      ASSERT_TRUE(succeeded(r)) << label << " " << name;
      EXPECT_LE(r->memoryFloorBytes, r->peakMemoryBytes)
          << label << " " << name;
      EXPECT_GE(r->memoryFloorBytes, r->argumentBytes) << label << " " << name;
      EXPECT_GE(r->memoryFloorBytes, r->memoryFloorArgumentBytes) << label;
      EXPECT_GT(r->memoryFloorArgumentBytes, 0) << label << " " << name;
      EXPECT_GE(r->floorOpIndex, -1) << label;
      EXPECT_LT(r->floorOpIndex, r->numOps) << label;
      int64_t &floor = options.donate ? floorDonated : floorKept;
      if (floor >= 0) {
        EXPECT_EQ(r->memoryFloorBytes, floor) << label << " " << name;
      }
      floor = r->memoryFloorBytes;
      worst = std::max(worst, static_cast<double>(r->peakMemoryBytes) /
                                  r->memoryFloorBytes);
    }
    EXPECT_LE(floorDonated, floorKept) << label;
    ++programs;
  });
  EXPECT_GE(programs, 30u);
  llvm::errs() << programs << " programs, largest peak / floor " << worst
               << "\n";
}

/// The tiny MLP training step by hand (`toast-models mlp --batch 8
/// --d-model 16 --hidden 32`): y = relu(x . w0) . w1, mean squared error,
/// Adam. Its 91 ops (the reduce body is part of the reduce):
///
///   #0  h  = x . w0 [8x32] 1024 B     read by #3 and #21     points 1..21
///   #1-2   zero, broadcast            recomputed: nothing
///   #3  a  = max(h, 0)   1024 B       read by #4 and #18     points 4..18
///   #4  o  = a . w1 [8x16] 512 B      #5                     point 5
///   #5  e  = o - y       512 B        #6, #14, #15           points 6..15
///   #6  sq = e * e       512 B        #8 (a reduce)          points 7..8
///   #8  sum (4 B) #8..#10; #10 loss = sum / 128, returned    points 11..91
///   #12 c  = 1 / 128 (4 B), #13 its broadcast (recomputed: counts as c
///          while it lives, to #15)                          points 13..15
///   #14, #15 c * e, e * c: one elementwise use each: fusible
///   #16 de = sum of both 512 B        #17, #18               points 17..18
///   #17 da = de . w1^T [8x32] 1024 B  #22                    points 18..22
///   #18 g1 = a^T . de [32x16] 2048 B  #65, #70 (Adam)        points 19..70
///   #21 mask (i1, fusible), #22 dh = select 1024 B, #23      point 23
///   #23 g0 = x^T . dh [16x32] 2048 B  #37, #42 (Adam)        points 24..42
///   #25 step + 1 (4 B, returned; #26 converts it)            points 26..91
///   #30 1 - b1^t, #34 1 - b2^t (4 B)  to #78 and #80         31..78, 35..80
///   #41 mu0', #49 nu0', #62 w0', #69 mu1', #77 nu1', #90 w1' (2048 B,
///          returned)                 points 42.., 50.., 63.., 70.., 78.., 91
///   every other value of the update has one elementwise use: fusible.
///
/// Arguments: 6 x 2048 (w0, w1 and their mu, nu) + 4 (step) + 2 x 512
/// (x, y) = 13316 B, at every point. The values peak at point 91, after
/// the last op: loss + step + the six updated tensors = 8 + 6 x 2048 =
/// 12296 B. Floor = 13316 + 12296 = 25612 B: the old and the new state side
/// by side, since the caller keeps the arguments.
///
/// With donate=true each parameter and optimizer state is donated to its
/// update (w0 -> w0', ..., step -> step + 1), which reads it last, so the
/// updates take no memory of their own. The values then peak at points 31
/// and 32 (first after op #30): loss, g1, g0, the converted step (#26, to
/// #32; no longer counted as step + 1, which now lives in the donated
/// argument) and 1 - b1^t = 4 + 2048 + 2048 + 4 + 4 = 4108 B: the
/// gradients while the first Adam update starts. Floor = 13316 + 4108 =
/// 17424 B.
TEST_F(MemoryFloorTest, TinyMlpTrainingStepByHand) {
  OwningOpRef<ModuleOp> module = buildModel(toast::test_support::kTinyZoo[0]);
  ASSERT_TRUE(module);
  DeviceSpec device = *getBuiltinDevice("a100");
  FailureOr<SimulationResult> r = simulate(*module, device, {});
  ASSERT_TRUE(succeeded(r));
  EXPECT_EQ(r->numOps, 91);
  EXPECT_EQ(r->argumentBytes, 13316);
  EXPECT_EQ(r->memoryFloorBytes, 25612);
  EXPECT_EQ(r->memoryFloorArgumentBytes, 13316);
  EXPECT_EQ(r->floorOpIndex, 90);
  EXPECT_EQ(r->floorOpName, "stablehlo.subtract");
  EXPECT_LE(r->memoryFloorBytes, r->peakMemoryBytes);

  SimulationOptions donate;
  donate.donate = true;
  FailureOr<SimulationResult> d = simulate(*module, device, donate);
  ASSERT_TRUE(succeeded(d));
  // The state and both gradients after the second gradient dot (#18),
  // beside the returned loss: 13316 + 2 * 2048 + 4 B. The scalars of the
  // Adam step (bias corrections) are cheap loop ops the fusion rule
  // duplicates into their readers, so no point after holds more.
  EXPECT_EQ(d->memoryFloorBytes, 17416);
  EXPECT_EQ(d->memoryFloorArgumentBytes, 13316);
  EXPECT_EQ(d->floorOpIndex, 18);
  EXPECT_LE(d->memoryFloorBytes, d->peakMemoryBytes);
}

/// The timeline is the walk: one event per op in order, its live bytes
/// peak at the peak, and its durations add up to the report's times.
TEST_F(MemoryFloorTest, TimelineAddsUpToTheReport) {
  DeviceSpec device = *getBuiltinDevice("a100");
  forEachProgram([&](const std::string &label, ModuleOp module) {
    for (auto &[name, options] : memoryOptions()) {
      Timeline timeline;
      FailureOr<SimulationResult> r =
          simulate(module, device, options, &timeline);
      ASSERT_TRUE(succeeded(r)) << label;
      FailureOr<SimulationResult> plain = simulate(module, device, options);
      ASSERT_TRUE(succeeded(plain)) << label;
      EXPECT_EQ(r->stepTime, plain->stepTime) << label;
      EXPECT_EQ(r->peakMemoryBytes, plain->peakMemoryBytes) << label;
      ASSERT_EQ(static_cast<int64_t>(timeline.events.size()), r->numOps)
          << label << " " << name;
      double compute = 0, comm = 0, end = 0;
      int64_t live = 0;
      for (auto [i, e] : llvm::enumerate(timeline.events)) {
        EXPECT_EQ(e.index, static_cast<int64_t>(i));
        EXPECT_GE(e.duration, 0);
        (e.collective ? comm : compute) += e.duration;
        end = std::max(end, e.start + e.duration);
        live = std::max(live, e.liveBytes);
      }
      EXPECT_NEAR(compute, r->computeTime, 1e-9 * r->computeTime) << label;
      EXPECT_NEAR(comm, r->commTime, 1e-9 * r->commTime) << label;
      EXPECT_DOUBLE_EQ(end, r->stepTime) << label << " " << name;
      EXPECT_EQ(live, r->peakMemoryBytes) << label;
      EXPECT_EQ(timeline.events[r->peakOpIndex].liveBytes, r->peakMemoryBytes);
      EXPECT_EQ(timeline.overlap, options.overlap);
    }
  });
}

/// The Chrome trace parses as JSON of the documented shape, and its slices
/// and counters give the report's totals.
TEST_F(MemoryFloorTest, ChromeTraceTotalsEqualTheReport) {
  DeviceSpec device = *getBuiltinDevice("a100");
  unsigned regions = 0;
  forEachProgram([&](const std::string &label, ModuleOp module) {
    SimulationOptions options;
    options.overlap = label.find("mlp") != std::string::npos;
    Timeline timeline;
    FailureOr<SimulationResult> r =
        simulate(module, device, options, &timeline);
    ASSERT_TRUE(succeeded(r)) << label;
    std::string text;
    llvm::raw_string_ostream os(text);
    writeChromeTrace(os, *r, timeline);
    llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
    ASSERT_TRUE(bool(json))
        << label << ": " << llvm::toString(json.takeError());
    const llvm::json::Object *root = json->getAsObject();
    ASSERT_TRUE(root);
    const llvm::json::Array *events = root->getArray("traceEvents");
    ASSERT_TRUE(events) << label;
    ASSERT_TRUE(root->getObject("otherData")) << label;
    double compute = 0, comm = 0;
    int64_t maxLive = -1, peakMarker = -1;
    bool computeTrack = false, collectiveTrack = false;
    for (const llvm::json::Value &value : *events) {
      const llvm::json::Object *e = value.getAsObject();
      ASSERT_TRUE(e);
      std::optional<StringRef> ph = e->getString("ph");
      std::optional<StringRef> name = e->getString("name");
      ASSERT_TRUE(ph && name) << label;
      EXPECT_EQ(e->getInteger("pid"), 1);
      const llvm::json::Object *args = e->getObject("args");
      ASSERT_TRUE(args) << label;
      if (*ph == "M") {
        if (*name == "thread_name" && e->getInteger("tid") == 1)
          computeTrack = args->getString("name") == StringRef("compute");
        if (*name == "thread_name" && e->getInteger("tid") == 2)
          collectiveTrack = args->getString("name")->starts_with("collectives");
        continue;
      }
      std::optional<double> ts = e->getNumber("ts");
      ASSERT_TRUE(ts && *ts >= 0) << label;
      if (*ph == "X") {
        std::optional<double> dur = e->getNumber("dur");
        ASSERT_TRUE(dur && *dur > 0) << label;
        EXPECT_TRUE(args->getString("loc")) << label;
        EXPECT_TRUE(args->getInteger("op_index")) << label;
        std::optional<StringRef> cat = e->getString("cat");
        ASSERT_TRUE(cat) << label;
        if (*cat == "compute")
          compute += *dur;
        else if (*cat == "collective")
          comm += *dur;
        else if (*cat == "region")
          ++regions;
        else
          ADD_FAILURE() << "category " << cat->str();
      } else if (*ph == "C") {
        if (*name == "live memory")
          maxLive = std::max(maxLive, *args->getInteger("bytes"));
        else
          EXPECT_EQ(args->getInteger("bytes"), r->memoryFloorBytes) << label;
      } else if (*ph == "i") {
        peakMarker = *args->getInteger("bytes");
      } else {
        ADD_FAILURE() << "phase " << ph->str();
      }
    }
    EXPECT_TRUE(computeTrack && collectiveTrack) << label;
    EXPECT_NEAR(compute / 1e6, r->computeTime, 1e-9 * r->computeTime) << label;
    EXPECT_NEAR(comm / 1e6, r->commTime, 1e-9 * r->commTime) << label;
    EXPECT_EQ(maxLive, r->peakMemoryBytes) << label;
    EXPECT_EQ(peakMarker, r->peakMemoryBytes) << label;

    std::string csv;
    llvm::raw_string_ostream csvStream(csv);
    writeMemoryCSV(csvStream, *r, timeline);
    SmallVector<StringRef> lines;
    StringRef(csv).split(lines, '\n', -1, /*KeepEmpty=*/false);
    ASSERT_EQ(static_cast<int64_t>(lines.size()), r->numOps + 1) << label;
    EXPECT_EQ(lines.front(), "time_s,live_bytes,op_index,op");
  });
  // The loop models' loops take time.
  EXPECT_GT(regions, 0u);
}

} // namespace
