//===- NamedDimensionAnalysisTest.cpp - NDA queries ----------------------===//

#include "toast/Analysis/NamedDimensionAnalysis.h"
#include "toast/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/AnalysisManager.h"
#include "gtest/gtest.h"

#include <set>

using namespace mlir;
using namespace toast;

namespace {

class NdaTest : public ::testing::Test {
protected:
  NdaTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }
  OwningOpRef<ModuleOp> parse(StringRef text) {
    auto m = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(m);
    return m;
  }
  MLIRContext context;
};

constexpr const char *kAttention = R"mlir(
func.func @attn(%x: tensor<8x4xf32>, %wq: tensor<4x6xf32>, %wk: tensor<4x6xf32>, %wv: tensor<4x5xf32>) -> tensor<8x5xf32> {
  %k = stablehlo.dot_general %x, %wk, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %v = stablehlo.dot_general %x, %wv, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x5xf32>) -> tensor<8x5xf32>
  %q = stablehlo.dot_general %x, %wq, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %qt = stablehlo.transpose %q, dims = [1, 0] : (tensor<8x6xf32>) -> tensor<6x8xf32>
  %a = stablehlo.dot_general %k, %qt, contracting_dims = [1] x [0] : (tensor<8x6xf32>, tensor<6x8xf32>) -> tensor<8x8xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %b = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
  %c = stablehlo.broadcast_in_dim %b, dims = [0] : (tensor<8xf32>) -> tensor<8x8xf32>
  %d = stablehlo.divide %a, %c : tensor<8x8xf32>
  %z = stablehlo.dot_general %d, %v, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x5xf32>) -> tensor<8x5xf32>
  return %z : tensor<8x5xf32>
}
)mlir";

TEST_F(NdaTest, AttentionColorsConflictsAndQueries) {
  auto module = parse(kAttention);
  NamedDimensionAnalysis nda(*module);
  func::FuncOp f = nda.getEntry();
  ASSERT_TRUE(f);
  EXPECT_EQ(nda.getNumColors(), 4u);
  EXPECT_EQ(nda.getNumConflicts(), 5u);
  EXPECT_EQ(nda.getNumSets(), 1u);
  EXPECT_EQ(nda.getNumResolutionBits(), 1u);
  EXPECT_TRUE(nda.getSets()[0].consistent);

  auto x = nda.getColors(f.getArgument(0));
  ASSERT_EQ(x.size(), 2u);
  unsigned s = x[0], d = x[1];
  EXPECT_NE(s, d);
  // Colors of a value and the dims of a color agree.
  for (unsigned n : nda.getNamesOfColor(s))
    EXPECT_EQ(nda.getColorOfName(n), s);
  // Legality from the sizes: S = 8, D = 4.
  EXPECT_TRUE(nda.isLegal(s, 2));
  EXPECT_TRUE(nda.isLegal(s, 8));
  EXPECT_FALSE(nda.isLegal(s, 3));
  EXPECT_FALSE(nda.isLegal(s, 16));
  EXPECT_TRUE(nda.isLegal(d, 4));
  EXPECT_FALSE(nda.isLegal(d, 8));
  // All five conflicts touch S; none touches D.
  EXPECT_EQ(nda.getConflictsOfColor(s).size(), 5u);
  EXPECT_TRUE(nda.getConflictsOfColor(d).empty());
  // Each bit value selects one endpoint of each conflict; the two
  // resolutions differ on every conflict.
  for (unsigned c : nda.getConflictsOfColor(s)) {
    const auto &conflict = nda.getConflicts()[c];
    unsigned r0 = nda.getSelectedNodeForBit(c, false);
    unsigned r1 = nda.getSelectedNodeForBit(c, true);
    EXPECT_NE(r0, r1);
    EXPECT_TRUE(r0 == conflict.a || r0 == conflict.b);
    EXPECT_TRUE(r1 == conflict.a || r1 == conflict.b);
  }
  // Sequence sharding: one resolution shards the last dim of `a`
  // (figure 5b: a : [S, S{s}]), the other its first.
  Operation *a = nullptr;
  f.walk([&](Operation *op) {
    if (op->getName().getStringRef() == "stablehlo.dot_general" &&
        op->getResult(0).getType() ==
            RankedTensorType::get({8, 8}, Float32Type::get(&context)))
      a = op;
  });
  ASSERT_TRUE(a);
  int site = nda.getDefSite(a->getResult(0));
  ASSERT_GE(site, 0);
  unsigned first = nda.getNode(nda.getSites()[site].firstName);
  unsigned second = nda.getNode(nda.getSites()[site].firstName + 1);
  std::set<unsigned> picked;
  for (unsigned c : nda.getConflictsOfColor(s)) {
    const auto &conflict = nda.getConflicts()[c];
    if (std::min(first, second) == conflict.a &&
        std::max(first, second) == conflict.b) {
      picked.insert(nda.getSelectedNodeForBit(c, false));
      picked.insert(nda.getSelectedNodeForBit(c, true));
    }
  }
  EXPECT_EQ(picked, (std::set<unsigned>{first, second}));
}

TEST_F(NdaTest, FuncAndModuleAndAnalysisManagerAgree) {
  auto module = parse(kAttention);
  auto f = *module->getOps<func::FuncOp>().begin();
  NamedDimensionAnalysis fromFunc(f);
  NamedDimensionAnalysis fromOp(module->getOperation());
  EXPECT_EQ(fromFunc.getNumNames(), fromOp.getNumNames());
  EXPECT_EQ(fromFunc.getNumConflicts(), fromOp.getNumConflicts());
  ModuleAnalysisManager mam(*module, nullptr);
  AnalysisManager am = mam;
  auto &cached = am.getAnalysis<NamedDimensionAnalysis>();
  EXPECT_EQ(&cached, &am.getAnalysis<NamedDimensionAnalysis>());
  EXPECT_EQ(cached.getNumColors(), 4u);
}

TEST_F(NdaTest, WhileLoopCarriedValuesShareNames) {
  auto module = parse(R"mlir(
func.func @loop(%x: tensor<8x4xf32>, %w: tensor<4x4xf32>) -> tensor<8x4xf32> {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%it = %i0, %h = %x) : tensor<i32>, tensor<8x4xf32>
   cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %it, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %y = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %it, %one : tensor<i32>
    stablehlo.return %j, %y : tensor<i32>, tensor<8x4xf32>
  }
  return %r#1 : tensor<8x4xf32>
}
)mlir");
  NamedDimensionAnalysis nda(*module);
  func::FuncOp f = nda.getEntry();
  auto x = nda.getColors(f.getArgument(0));
  auto w = nda.getColors(f.getArgument(1));
  ASSERT_EQ(x.size(), 2u);
  ASSERT_EQ(w.size(), 2u);
  // Batch dim flows around the loop; the loop-carried feature dim is the
  // contraction of the body's matmul and its result, so x's feature dim,
  // both dims of w join one color (the recurrent weight conflicts).
  EXPECT_NE(x[0], x[1]);
  EXPECT_EQ(w[0], x[1]);
  EXPECT_EQ(w[1], x[1]);
  Operation *loop = nullptr;
  f.walk([&](Operation *op) {
    if (op->getName().getStringRef() == "stablehlo.while")
      loop = op;
  });
  ASSERT_TRUE(loop);
  EXPECT_EQ(nda.getColors(loop->getResult(1)), x);
  // w : [F, F] on its definition and on its use in the body, a box.
  EXPECT_EQ(nda.getNumConflicts(), 2u);
  EXPECT_EQ(nda.getNumSets(), 1u);
}

TEST_F(NdaTest, OpaqueOpsGetFreshNames) {
  auto module = parse(R"mlir(
func.func @f(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %y = stablehlo.custom_call @foo(%x) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %z = stablehlo.add %y, %y : tensor<8x4xf32>
  return %z : tensor<8x4xf32>
}
)mlir");
  NamedDimensionAnalysis nda(*module);
  EXPECT_EQ(nda.getNumOpaqueOps(), 1u);
  // x's two dims, y/z's two dims: four colors.
  EXPECT_EQ(nda.getNumColors(), 4u);
  EXPECT_EQ(nda.getNumConflicts(), 0u);
}

} // namespace
