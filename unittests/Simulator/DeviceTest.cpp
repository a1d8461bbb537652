//===- DeviceTest.cpp - Device registry, JSON files, per-op costs --------===//
//
// The built-in devices, validation of JSON device files, and the pieces of
// the cost model that price one op: ring collectives and contraction FLOPs.
//
//===----------------------------------------------------------------------===//

#include "toast/Simulator/Device.h"
#include "toast/InitAllDialects.h"
#include "toast/Simulator/CostModel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace toast::sim;

namespace {

std::string errorOf(llvm::Expected<DeviceSpec> spec) {
  if (spec)
    return "";
  return llvm::toString(spec.takeError());
}

TEST(DeviceRegistry, BuiltinDevices) {
  EXPECT_EQ(getBuiltinDeviceNames().size(), 4u);
  for (StringRef name : getBuiltinDeviceNames()) {
    llvm::Expected<DeviceSpec> spec = getBuiltinDevice(name);
    ASSERT_TRUE(static_cast<bool>(spec)) << name.str();
    EXPECT_EQ(spec->name, name.str());
    EXPECT_GT(spec->getPeakFlops("f32"), 0);
    EXPECT_GT(spec->getPeakFlops("bf16"), 0);
    EXPECT_GT(spec->memoryBytes, 0);
    EXPECT_GT(spec->memoryBandwidth, 0);
    EXPECT_GT(spec->interconnect.bandwidth, 0);
    EXPECT_GT(spec->interconnect.latency, 0);
  }
  DeviceSpec a100 = cantFail(getBuiltinDevice("a100"));
  EXPECT_DOUBLE_EQ(a100.getPeakFlops("f32"), 19.5e12);
  EXPECT_DOUBLE_EQ(a100.getPeakFlops("bf16"), 312e12);
  EXPECT_DOUBLE_EQ(a100.memoryBytes, 40.0 * 1024 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(a100.memoryBandwidth, 1.555e12);
  EXPECT_DOUBLE_EQ(a100.interconnect.bandwidth, 300e9);
  DeviceSpec h100 = cantFail(getBuiltinDevice("H100"));
  EXPECT_DOUBLE_EQ(h100.getPeakFlops("bf16"), 989e12);
  DeviceSpec p100 = cantFail(getBuiltinDevice("p100"));
  EXPECT_DOUBLE_EQ(p100.getPeakFlops("f16"), 21.2e12);
  DeviceSpec tpu = cantFail(getBuiltinDevice("tpu-v3"));
  EXPECT_EQ(tpu.name, "tpuv3");
  EXPECT_DOUBLE_EQ(tpu.getPeakFlops("bf16"), 123e12);
  // No i8 entry on the TPU: falls back to f32.
  EXPECT_DOUBLE_EQ(tpu.getPeakFlops("i8"), tpu.getPeakFlops("f32"));
}

TEST(DeviceRegistry, UnknownAndFileReferences) {
  std::string error = errorOf(lookupDevice("v100"));
  EXPECT_NE(error.find("unknown device 'v100'"), std::string::npos) << error;
  EXPECT_NE(error.find("a100, h100, p100, tpuv3"), std::string::npos);
  error = errorOf(lookupDevice(""));
  EXPECT_NE(error.find("no device given"), std::string::npos) << error;
  error = errorOf(lookupDevice("file:"));
  EXPECT_NE(error.find("needs a path"), std::string::npos) << error;
  error = errorOf(lookupDevice("file:/nonexistent/device.json"));
  EXPECT_NE(error.find("cannot read device file '/nonexistent/device.json'"),
            std::string::npos)
      << error;
}

TEST(DeviceRegistry, ElementTypeKeys) {
  MLIRContext ctx;
  Builder b(&ctx);
  EXPECT_EQ(getElementTypeKey(b.getF32Type()), "f32");
  EXPECT_EQ(getElementTypeKey(b.getBF16Type()), "bf16");
  EXPECT_EQ(getElementTypeKey(b.getF16Type()), "f16");
  EXPECT_EQ(getElementTypeKey(b.getF64Type()), "f64");
  EXPECT_EQ(getElementTypeKey(b.getType<Float8E4M3FNType>()), "f8");
  EXPECT_EQ(getElementTypeKey(b.getI8Type()), "i8");
  EXPECT_EQ(getElementTypeKey(ComplexType::get(b.getF32Type())), "f32");
}

constexpr const char *kGoodDevice = R"json({
  "name": "mydev", "description": "test device",
  "peak_flops": {"f32": 2e12, "bf16": 8e12, "default": 1e12},
  "memory_bytes": 1e9, "memory_bandwidth": 5e11,
  "interconnect": {"bandwidth": 1e11, "latency": 2e-6},
  "axes": {"slow": {"bandwidth": 1e10}}
})json";

TEST(DeviceJSON, ParsesAndRoundTrips) {
  llvm::Expected<DeviceSpec> spec = parseDeviceJSON(kGoodDevice, "test");
  ASSERT_TRUE(static_cast<bool>(spec)) << llvm::toString(spec.takeError());
  EXPECT_EQ(spec->name, "mydev");
  EXPECT_DOUBLE_EQ(spec->getPeakFlops("bf16"), 8e12);
  EXPECT_DOUBLE_EQ(spec->getPeakFlops("i8"), 1e12); // "default"
  EXPECT_DOUBLE_EQ(spec->getLink("slow").bandwidth, 1e10);
  // A partial axis entry inherits the interconnect's latency.
  EXPECT_DOUBLE_EQ(spec->getLink("slow").latency, 2e-6);
  EXPECT_DOUBLE_EQ(spec->getLink("other").bandwidth, 1e11);

  llvm::Expected<DeviceSpec> again =
      parseDeviceJSON(deviceToJSON(*spec), "round trip");
  ASSERT_TRUE(static_cast<bool>(again)) << llvm::toString(again.takeError());
  EXPECT_EQ(again->name, spec->name);
  EXPECT_EQ(again->peakFlops, spec->peakFlops);
  EXPECT_DOUBLE_EQ(again->memoryBytes, spec->memoryBytes);
  EXPECT_DOUBLE_EQ(again->getLink("slow").bandwidth, 1e10);

  // Every built-in device round-trips too.
  for (StringRef name : getBuiltinDeviceNames()) {
    DeviceSpec builtin = cantFail(getBuiltinDevice(name));
    llvm::Expected<DeviceSpec> parsed =
        parseDeviceJSON(deviceToJSON(builtin), name);
    ASSERT_TRUE(static_cast<bool>(parsed)) << name.str();
    EXPECT_EQ(parsed->peakFlops, builtin.peakFlops);
  }
}

TEST(DeviceJSON, BaseDevice) {
  llvm::Expected<DeviceSpec> spec = parseDeviceJSON(
      R"({"base": "a100", "name": "a100-80", "memory_bytes": 8e10})", "t");
  ASSERT_TRUE(static_cast<bool>(spec)) << llvm::toString(spec.takeError());
  EXPECT_EQ(spec->name, "a100-80");
  EXPECT_DOUBLE_EQ(spec->memoryBytes, 8e10);
  EXPECT_DOUBLE_EQ(spec->getPeakFlops("bf16"), 312e12);
}

TEST(DeviceJSON, ValidationErrors) {
  struct Case {
    const char *json;
    const char *message;
  };
  const Case cases[] = {
      {"[1, 2]", "t: expected a JSON object at the top level"},
      {"{\"name\": ", "t: invalid JSON"},
      {R"({"peak_flops": {"f32": 1}, "memory_bytes": 1, "memory_bandwidth": 1})",
       "t: missing required key 'interconnect'"},
      {R"({"peak_flops": {"f32": 0}, "memory_bytes": 1, "memory_bandwidth": 1,
           "interconnect": {"bandwidth": 1, "latency": 0}})",
       "t: 'peak_flops.f32': expected a finite number >= 1"},
      // Positive but tiny: every step time would be infinite.
      {R"({"peak_flops": {"f32": 1}, "memory_bytes": 1,
           "memory_bandwidth": 1e-300,
           "interconnect": {"bandwidth": 1, "latency": 0}})",
       "t: 'memory_bandwidth': expected a finite number >= 1"},
      {R"({"peak_flops": {"f32": 1}, "memory_bytes": "big",
           "memory_bandwidth": 1, "interconnect": {"bandwidth": 1, "latency": 0}})",
       "t: 'memory_bytes': expected a number"},
      {R"({"peak_flops": {"f32": 1}, "memory_bytes": 1, "memory_bandwidth": 1,
           "interconnect": {"bandwidth": 1}})",
       "t: 'interconnect': missing key 'latency'"},
      {R"({"peak_flops": {"f32": 1}, "memory_bytes": 1, "memory_bandwidth": 1,
           "interconnect": {"bandwidth": 1, "latency": -1}})",
       "t: 'interconnect.latency': expected a finite number >= 0"},
      {R"({"peak_flops": {"bf16": 1}, "memory_bytes": 1, "memory_bandwidth": 1,
           "interconnect": {"bandwidth": 1, "latency": 0}})",
       "t: 'peak_flops': missing key 'f32'"},
      {R"({"base": "a100", "axes": {"B": {"bandwith": 1}}})",
       "t: 'axes.B.bandwith': unknown key"},
      {R"({"base": "a100", "flops": 1})", "t: 'flops': unknown key"},
      {R"({"base": 7})", "t: 'base': expected a built-in device name"},
  };
  for (const Case &c : cases) {
    std::string error = errorOf(parseDeviceJSON(c.json, "t"));
    EXPECT_NE(error.find(c.message), std::string::npos)
        << "input: " << c.json << "\nerror: " << error;
  }
}

//===----------------------------------------------------------------------===//
// Ring collectives
//===----------------------------------------------------------------------===//

TEST(CollectiveCost, RingFormulas) {
  LinkSpec link{1e9, 1e-6};
  const double bytes = 4096;
  struct Expect {
    CollectiveKind kind;
    int64_t n;
    int64_t steps;
    double bytes;
  };
  const Expect table[] = {
      {CollectiveKind::AllGather, 2, 1, 2048},
      {CollectiveKind::AllGather, 4, 3, 3072},
      {CollectiveKind::AllGather, 8, 7, 3584},
      {CollectiveKind::ReduceScatter, 2, 1, 2048},
      {CollectiveKind::ReduceScatter, 4, 3, 3072},
      {CollectiveKind::ReduceScatter, 8, 7, 3584},
      {CollectiveKind::AllReduce, 2, 2, 4096},
      {CollectiveKind::AllReduce, 4, 6, 6144},
      {CollectiveKind::AllReduce, 8, 14, 7168},
      {CollectiveKind::AllToAll, 2, 1, 2048},
      {CollectiveKind::AllToAll, 4, 3, 6144},
      {CollectiveKind::AllToAll, 8, 7, 14336},
      {CollectiveKind::CollectivePermute, 2, 1, 4096},
  };
  for (const Expect &e : table) {
    CollectiveCost cost = ringCollectiveCost(e.kind, e.n, bytes, link);
    SCOPED_TRACE(getCollectiveKindName(e.kind).str() +
                 " n=" + std::to_string(e.n));
    EXPECT_EQ(cost.steps, e.steps);
    EXPECT_DOUBLE_EQ(cost.bytes, e.bytes);
    EXPECT_DOUBLE_EQ(cost.time, e.steps * 1e-6 + e.bytes / 1e9);
  }
  // all_reduce = reduce_scatter + all_gather of the same buffer.
  for (int64_t n : {2, 4, 8, 16}) {
    double ar =
        ringCollectiveCost(CollectiveKind::AllReduce, n, bytes, link).time;
    double rs =
        ringCollectiveCost(CollectiveKind::ReduceScatter, n, bytes, link).time;
    double ag =
        ringCollectiveCost(CollectiveKind::AllGather, n, bytes, link).time;
    EXPECT_DOUBLE_EQ(ar, rs + ag);
  }
  // One device, or nothing to move: free.
  EXPECT_EQ(ringCollectiveCost(CollectiveKind::AllReduce, 1, bytes, link).time,
            0);
  EXPECT_EQ(ringCollectiveCost(CollectiveKind::AllGather, 4, 0, link).time, 0);
}

TEST(CollectiveCost, GroupLinkIsTheSlowestAxis) {
  DeviceSpec device = cantFail(getBuiltinDevice("a100"));
  device.axisLinks["DP"] = {25e9, 5e-6};
  LinkSpec link = getGroupLink(device, {"MP", "DP"});
  EXPECT_DOUBLE_EQ(link.bandwidth, 25e9);
  EXPECT_DOUBLE_EQ(link.latency, 5e-6);
  link = getGroupLink(device, {"MP"});
  EXPECT_DOUBLE_EQ(link.bandwidth, 300e9);
  link = getGroupLink(device, {});
  EXPECT_DOUBLE_EQ(link.bandwidth, 300e9);
}

//===----------------------------------------------------------------------===//
// Contraction FLOPs and sizes
//===----------------------------------------------------------------------===//

class OpCostTest : public ::testing::Test {
protected:
  OpCostTest() {
    DialectRegistry registry;
    toast::registerAllDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }
  /// The first op of @main other than the terminator.
  Operation *firstOp(ModuleOp module) {
    auto main = module.lookupSymbol<func::FuncOp>("main");
    return &main.getBody().front().front();
  }
  MLIRContext ctx;
};

TEST_F(OpCostTest, DotGeneralWithBatchDims) {
  // [b=4, m=32, k=16] x [b=4, k=16, n=8]: 2 * 4*32*8 * 16 = 32768.
  auto module = parseSourceString<ModuleOp>(R"mlir(
    func.func @main(%a: tensor<4x32x16xbf16>, %b: tensor<4x16x8xbf16>) -> tensor<4x32x8xf32> {
      %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x32x16xbf16>, tensor<4x16x8xbf16>) -> tensor<4x32x8xf32>
      return %0 : tensor<4x32x8xf32>
    })mlir",
                                            &ctx);
  ASSERT_TRUE(module);
  Operation *op = firstOp(*module);
  EXPECT_TRUE(isContraction(op));
  EXPECT_DOUBLE_EQ(getContractionFlops(op), 32768);
  EXPECT_EQ(getTypeBytes(op->getOperand(0).getType()), 4 * 32 * 16 * 2);
}

TEST_F(OpCostTest, Convolution) {
  // NHWC 1x8x8x3 input, HWIO 3x3x3x16 kernel, stride 1, no padding:
  // output 1x6x6x16; each output element sums 3*3 window x 3 features:
  // 2 * 576 * 27 = 31104.
  auto module = parseSourceString<ModuleOp>(R"mlir(
    func.func @main(%x: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32> {
      %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
      return %0 : tensor<1x6x6x16xf32>
    })mlir",
                                            &ctx);
  ASSERT_TRUE(module);
  EXPECT_DOUBLE_EQ(getContractionFlops(firstOp(*module)), 31104);
}

TEST_F(OpCostTest, ElementwiseIsNotAContraction) {
  auto module = parseSourceString<ModuleOp>(R"mlir(
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = stablehlo.exponential %x : tensor<4xf32>
      return %0 : tensor<4xf32>
    })mlir",
                                            &ctx);
  ASSERT_TRUE(module);
  EXPECT_FALSE(isContraction(firstOp(*module)));
  EXPECT_EQ(getContractionFlops(firstOp(*module)), 0);
}

} // namespace
