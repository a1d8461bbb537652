//===- AxisRefTest.cpp - Axis references and sharding helpers of sdy ------===//
//
// Sub-axis arithmetic (size, overlap, a device's index along a sub-axis),
// the shard count of a dimension, and the sharding known for a value.
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/Sdy/IR/Sdy.h"
#include "toast/InitAllDialects.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace toast::sdy;

namespace {
class AxisRefTest : public ::testing::Test {
protected:
  AxisRefTest() { ctx.loadDialect<SdyDialect>(); }

  AxisRefAttr ref(StringRef name, int64_t pre = 0, int64_t size = 0) {
    return AxisRefAttr::get(&ctx, StringAttr::get(&ctx, name), pre, size);
  }
  MeshAttr mesh8() {
    return MeshAttr::get(&ctx, {StringAttr::get(&ctx, "x")}, {8}, {});
  }

  MLIRContext ctx;
};
} // namespace

TEST_F(AxisRefTest, SizeOnMesh) {
  EXPECT_EQ(ref("x").getSize(mesh8()), 8);
  EXPECT_EQ(ref("x", 2, 4).getSize(mesh8()), 4);
  EXPECT_EQ(ref("y").getSize(mesh8()), 0);
}

TEST_F(AxisRefTest, Overlap) {
  // On "x"=8: (1)2 is the major half, (2)4 the minor quarter-sized parts.
  EXPECT_FALSE(ref("x", 1, 2).overlaps(ref("x", 2, 4)));
  EXPECT_TRUE(ref("x", 1, 4).overlaps(ref("x", 2, 4)));
  EXPECT_TRUE(ref("x").overlaps(ref("x", 4, 2)));
  EXPECT_FALSE(ref("x").overlaps(ref("y")));
}

TEST_F(AxisRefTest, IndexAlongSubAxis) {
  // Coordinate c on "x"=8: the major sub-axis (1)2 is c / 4, the middle
  // (2)2 is (c / 2) % 2, the minor (4)2 is c % 2.
  for (int64_t c = 0; c < 8; ++c) {
    EXPECT_EQ(ref("x").getIndex(c, 8), c);
    EXPECT_EQ(ref("x", 1, 2).getIndex(c, 8), c / 4);
    EXPECT_EQ(ref("x", 2, 2).getIndex(c, 8), (c / 2) % 2);
    EXPECT_EQ(ref("x", 4, 2).getIndex(c, 8), c % 2);
  }
}

TEST_F(AxisRefTest, ShardCountAndKnownSharding) {
  DialectRegistry registry;
  toast::registerAllDialects(registry);
  ctx.appendDialectRegistry(registry);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    sdy.mesh @mesh = <["x"=8, "y"=2]>
    func.func @f(%a: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, "y"}, {}]>},
                 %b: tensor<16x8xf32>) -> tensor<16x8xf32> {
      %0 = sdy.reshard %b <@mesh, [{}, {"x"}]> : tensor<16x8xf32>
      %1 = stablehlo.add %a, %0 : tensor<16x8xf32>
      return %1 : tensor<16x8xf32>
    })mlir",
                                                             &ctx);
  ASSERT_TRUE(module);
  auto func = *module->getOps<func::FuncOp>().begin();
  TensorShardingAttr a = getSharding(func.getArgument(0));
  ASSERT_TRUE(a);
  MeshAttr mesh = a.getMesh(func);
  ASSERT_TRUE(mesh);
  EXPECT_EQ(getShardCount(a, 0, mesh), 4);
  EXPECT_EQ(getShardCount(a, 0, mesh,
                          [](AxisRefAttr r) { return r.getAxisName() == "y"; }),
            2);
  EXPECT_EQ(getShardCount(a, 1, mesh), 1);
  EXPECT_TRUE(a.hasSubAxes());
  EXPECT_FALSE(getSharding(func.getArgument(1)));
  Operation &reshard = func.getBody().front().front();
  TensorShardingAttr r = getSharding(reshard.getResult(0));
  ASSERT_TRUE(r);
  EXPECT_EQ(r.getDimAxes(1), SmallVector<std::string>{"x"});
  EXPECT_EQ(r.str(), "#sdy.sharding<@mesh, [{}, {\"x\"}]>");
}
