//===- GraphBuilderTest.cpp - Autodiff builder shape checks ---------------===//
//
// Every VJP rule must produce a cotangent of its input's type; grad() must
// return one gradient per requested value with that value's type, and the
// resulting module must verify.
//
//===----------------------------------------------------------------------===//

#include "toast/Models/GraphBuilder.h"
#include "toast/Models/Layers.h"

#include "toast/Dialect/StableHLO/IR/StablehloDialect.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace toast;
using namespace toast::models;

namespace {

class GraphBuilderTest : public ::testing::Test {
protected:
  GraphBuilderTest() {
    ctx.loadDialect<stablehlo::StableHLODialect, func::FuncDialect>();
  }

  /// Differentiates `loss` w.r.t. `params`, checks the gradient types and
  /// that the module verifies.
  void checkGrads(GraphBuilder &b, Value loss, ArrayRef<Value> params) {
    SmallVector<Value> grads = b.grad(loss, params);
    ASSERT_EQ(grads.size(), params.size());
    for (auto [p, g] : llvm::zip_equal(params, grads)) {
      ASSERT_TRUE(g);
      EXPECT_EQ(p.getType(), g.getType());
      b.result("grad", g);
    }
    b.result("loss", loss);
    OwningOpRef<ModuleOp> module = b.finish();
    ASSERT_TRUE(module) << "module does not verify";
  }

  MLIRContext ctx;
};

/// Scalar f32 loss: the sum of all elements.
Value sumAll(GraphBuilder &b, Value x) {
  Value x32 = b.convert(x, b.f32());
  return b.reduceSum(
      x32, llvm::to_vector(llvm::seq<int64_t>(0, GraphBuilder::rankOf(x32))));
}

TEST_F(GraphBuilderTest, DotGeneralWithBatchingAndMultipleContractions) {
  GraphBuilder b(&ctx, "t");
  // lhs [B=2, X=3, H=4, K=5], rhs [H=4, K=5, B=2, Y=6]: batch (0|2),
  // contract (2,3|0,1): result [2, 3, 6].
  Value lhs = b.argument("params.lhs", {2, 3, 4, 5}, b.f32());
  Value rhs = b.argument("params.rhs", {4, 5, 2, 6}, b.f32());
  Value r = b.dotGeneral(lhs, rhs, {{0}, {2}, {2, 3}, {0, 1}});
  EXPECT_EQ(GraphBuilder::shapeOf(r), ArrayRef<int64_t>({2, 3, 6}));
  checkGrads(b, sumAll(b, b.mul(r, r)), {lhs, rhs});
}

TEST_F(GraphBuilderTest, DotGeneralUnsortedContractingDims) {
  GraphBuilder b(&ctx, "t");
  // Contract lhs dims (2, 1) with rhs dims (0, 2): the permutations back to
  // the operand layouts are not the identity.
  Value lhs = b.argument("params.lhs", {7, 3, 4}, b.f32());
  Value rhs = b.argument("params.rhs", {4, 5, 3}, b.f32());
  Value r = b.dotGeneral(lhs, rhs, {{}, {}, {2, 1}, {0, 2}});
  EXPECT_EQ(GraphBuilder::shapeOf(r), ArrayRef<int64_t>({7, 5}));
  checkGrads(b, sumAll(b, r), {lhs, rhs});
}

TEST_F(GraphBuilderTest, ElementwiseAndShapeOps) {
  GraphBuilder b(&ctx, "t");
  Value x = b.argument("params.x", {2, 6}, b.f32());
  Value y = b.argument("params.y", {2, 6}, b.f32());
  Value v = b.argument("params.v", {6}, b.f32());
  Value t = b.add(x, b.broadcastInDim(v, {2, 6}, {1}));
  t = b.div(b.exp(t), b.addScalar(b.mul(y, y), 1.0));
  t = b.sub(b.tanh(t), b.logistic(y));
  t = b.mul(t, b.rsqrt(b.addScalar(b.mul(x, x), 1.0)));
  t = b.add(t, b.log(b.addScalar(b.exp(y), 1.0)));
  t = b.max(t, b.neg(y));
  t = b.add(t, b.sqrt(b.addScalar(b.mul(x, x), 2.0)));
  Value r = b.reshape(b.transpose(t, {1, 0}), {3, 2, 2});
  Value s = b.concatenate({b.slice(r, {0, 0, 0}, {1, 2, 2}),
                           b.pad(b.slice(r, {1, 0, 0}, {3, 2, 1}), 0.0,
                                 {0, 0, 0}, {0, 0, 1})},
                          0);
  Value mask = b.compare(s, b.fullLike(0.0, s),
                         stablehlo::ComparisonDirection::GT);
  s = b.select(mask, s, b.mulScalar(s, 0.1));
  s = b.reverse(s, {2});
  checkGrads(b, sumAll(b, b.reduceMax(s, {1})), {x, y, v});
}

TEST_F(GraphBuilderTest, LayersAndEmbedding) {
  GraphBuilder b(&ctx, "t");
  Value table = b.argument("params.embedding", {10, 8}, b.bf16());
  Value scale = b.argument("params.scale", {8}, b.bf16());
  Value offset = b.argument("params.offset", {8}, b.bf16());
  Value tokens = b.argument("batch.tokens", {2, 3}, b.i32());
  Value labels = b.argument("batch.labels", {2, 3}, b.i32());
  Value x = b.take(table, tokens); // [2, 3, 8]
  EXPECT_EQ(GraphBuilder::shapeOf(x), ArrayRef<int64_t>({2, 3, 8}));
  x = layerNorm(b, x, scale, offset);
  x = gelu(b, rmsNorm(b, x, scale, /*plusOne=*/true));
  x = b.add(x, softmax(b, x, 2));
  Value logits = b.dotGeneral(x, table, {{}, {}, {2}, {1}}); // [2, 3, 10]
  checkGrads(b, crossEntropy(b, logits, labels), {table, scale, offset});
}

TEST_F(GraphBuilderTest, ScatterAddAndGroupNorm) {
  GraphBuilder b(&ctx, "t");
  Value edges = b.argument("params.edges", {5, 4}, b.f32());
  Value image = b.argument("params.image", {1, 2, 2, 4}, b.f32());
  Value scale = b.argument("params.scale", {4}, b.f32());
  Value offset = b.argument("params.offset", {4}, b.f32());
  Value receivers = b.argument("batch.receivers", {5}, b.i32());
  Value nodes = b.scatterAdd(edges, receivers, 3);
  EXPECT_EQ(GraphBuilder::shapeOf(nodes), ArrayRef<int64_t>({3, 4}));
  Value gn = groupNorm(b, image, 2, scale, offset);
  Value loss = b.add(sumAll(b, b.mul(nodes, nodes)), sumAll(b, silu(b, gn)));
  checkGrads(b, loss, {edges, image, scale, offset});
}

TEST_F(GraphBuilderTest, StridedConvolution) {
  GraphBuilder b(&ctx, "t");
  // 7x7 input, 3x3 kernel, stride 2, padding 1: 4x4 output; the input
  // gradient needs uneven padding.
  Value x = b.argument("params.x", {2, 7, 7, 3}, b.f32());
  Value k = b.argument("params.k", {3, 3, 3, 5}, b.f32());
  Value y = b.conv2d(x, k, {2, 1});
  EXPECT_EQ(GraphBuilder::shapeOf(y), ArrayRef<int64_t>({2, 4, 4, 5}));
  Value k1 = b.argument("params.k1", {1, 1, 5, 4}, b.f32());
  Value z = b.conv2d(y, k1, {1, 0});
  checkGrads(b, sumAll(b, b.mul(z, z)), {x, k, k1});
}

TEST_F(GraphBuilderTest, UnrelatedParameterGetsZeros) {
  GraphBuilder b(&ctx, "t");
  Value x = b.argument("params.x", {3}, b.f32());
  Value unused = b.argument("params.unused", {4, 2}, b.f32());
  SmallVector<Value> grads = b.grad(sumAll(b, b.mul(x, x)), {x, unused});
  ASSERT_EQ(grads.size(), 2u);
  EXPECT_EQ(grads[1].getType(), unused.getType());
  EXPECT_TRUE(grads[1].getDefiningOp<stablehlo::BroadcastInDimOp>());
}

TEST_F(GraphBuilderTest, StopGradientScope) {
  GraphBuilder b(&ctx, "t");
  Value x = b.argument("params.x", {3}, b.f32());
  Value stopped;
  {
    GraphBuilder::NoGradScope noGrad(b);
    stopped = b.mul(x, x);
  }
  EXPECT_TRUE(b.isRecording());
  // d/dx sum(stopped + x) = 1: only the `add` contributes.
  SmallVector<Value> grads = b.grad(sumAll(b, b.add(stopped, x)), {x});
  ASSERT_EQ(grads.size(), 1u);
  // The cotangent is the broadcast of the seed, not a sum of two terms.
  EXPECT_FALSE(grads[0].getDefiningOp<stablehlo::AddOp>());
}

TEST_F(GraphBuilderTest, ArgumentNames) {
  GraphBuilder b(&ctx, "t");
  b.argument("params.layer_3.attn.wq", {2}, b.f32());
  b.result("out", b.argument("batch.x", {2}, b.f32()));
  OwningOpRef<ModuleOp> module = b.finish();
  ASSERT_TRUE(module);
  auto func = module->lookupSymbol<func::FuncOp>("main");
  ASSERT_TRUE(func);
  EXPECT_EQ(func.getArgAttrOfType<StringAttr>(0, "partir.name").getValue(),
            "params.layer_3.attn.wq");
  EXPECT_EQ(func.getArgAttrOfType<StringAttr>(0, "jax.arg_info").getValue(),
            "params.layer_3.attn.wq");
  EXPECT_EQ(func.getResultAttrOfType<StringAttr>(0, "jax.result_info")
                .getValue(),
            "out");
}

} // namespace
