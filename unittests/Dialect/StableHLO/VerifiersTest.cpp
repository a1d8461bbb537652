//===- VerifiersTest.cpp - Shape rules of StableHLO ops -------------------===//
//
// The free-function shape rules in StablehloVerifiers.h, called directly.
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/StableHLO/IR/StablehloVerifiers.h"
#include "toast/Dialect/StableHLO/IR/StablehloDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace toast::stablehlo;

namespace {
class VerifiersTest : public ::testing::Test {
protected:
  VerifiersTest() : builder(&ctx) {
    ctx.loadDialect<StableHLODialect>();
    // Collect messages instead of printing them.
    handler = ctx.getDiagEngine().registerHandler([this](Diagnostic &diag) {
      messages.push_back(diag.str());
      return success();
    });
  }
  ~VerifiersTest() override { ctx.getDiagEngine().eraseHandler(handler); }

  RankedTensorType tensor(ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, builder.getF32Type());
  }
  EmitErrorFn emitter() {
    emit = [this]() { return mlir::emitError(builder.getUnknownLoc()); };
    return emit;
  }

  MLIRContext ctx;
  Builder builder;
  DiagnosticEngine::HandlerID handler;
  std::vector<std::string> messages;
  std::function<InFlightDiagnostic()> emit;
};
} // namespace

TEST_F(VerifiersTest, DotGeneralInfersBatchThenFreeDims) {
  auto dims = DotDimensionNumbersAttr::get(&ctx, {0}, {0}, {2}, {1});
  EXPECT_TRUE(succeeded(verifyDotGeneral(emitter(), tensor({8, 2, 3}),
                                         tensor({8, 3, 4}), dims,
                                         tensor({8, 2, 4}))));
  EXPECT_TRUE(failed(verifyDotGeneral(emitter(), tensor({8, 2, 3}),
                                      tensor({8, 3, 4}), dims,
                                      tensor({8, 4, 2}))));
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_NE(messages[0].find("inferred shape [8, 2, 4]"), std::string::npos);
}

TEST_F(VerifiersTest, DotGeneralRejectsMismatchedContraction) {
  auto dims = DotDimensionNumbersAttr::get(&ctx, {}, {}, {1}, {0});
  EXPECT_TRUE(failed(verifyDotGeneral(emitter(), tensor({2, 3}),
                                      tensor({4, 5}), dims, tensor({2, 5}))));
}

TEST_F(VerifiersTest, BroadcastInDim) {
  EXPECT_TRUE(succeeded(
      verifyBroadcastInDim(emitter(), tensor({1, 3}), {0, 2}, tensor({4, 2, 3}))));
  EXPECT_TRUE(failed(
      verifyBroadcastInDim(emitter(), tensor({2, 3}), {0, 2}, tensor({4, 2, 3}))));
  EXPECT_TRUE(failed(
      verifyBroadcastInDim(emitter(), tensor({3}), {3}, tensor({4, 2, 3}))));
}

TEST_F(VerifiersTest, TransposeNeedsAPermutation) {
  EXPECT_TRUE(succeeded(
      verifyTranspose(emitter(), tensor({2, 3, 4}), {2, 0, 1}, tensor({4, 2, 3}))));
  EXPECT_TRUE(failed(
      verifyTranspose(emitter(), tensor({2, 3, 4}), {0, 0, 1}, tensor({2, 2, 3}))));
}

TEST_F(VerifiersTest, ReshapeKeepsElementCount) {
  EXPECT_TRUE(succeeded(verifyReshape(emitter(), tensor({2, 6}), tensor({3, 4}))));
  EXPECT_TRUE(failed(verifyReshape(emitter(), tensor({2, 6}), tensor({5}))));
}

TEST_F(VerifiersTest, ConvolutionOutputShape) {
  // NHWC x HWIO -> NHWC, 7x7 stride 2 pad 3: 224 -> 112.
  auto dims = ConvDimensionNumbersAttr::get(&ctx, 0, 3, {1, 2}, 2, 3, {0, 1},
                                            0, 3, {1, 2});
  EXPECT_TRUE(succeeded(verifyConvolution(
      emitter(), tensor({1, 224, 224, 3}), tensor({7, 7, 3, 64}), dims, {2, 2},
      {3, 3, 3, 3}, {}, {}, 1, 1, tensor({1, 112, 112, 64}))));
  EXPECT_TRUE(failed(verifyConvolution(
      emitter(), tensor({1, 224, 224, 3}), tensor({7, 7, 3, 64}), dims, {1, 1},
      {3, 3, 3, 3}, {}, {}, 1, 1, tensor({1, 112, 112, 64}))));
}

TEST_F(VerifiersTest, GatherResultShape) {
  // Embedding lookup: operand [8, 4], indices [3, 1] -> [3, 4].
  auto dims = GatherDimensionNumbersAttr::get(&ctx, {1}, {0}, {}, {}, {0}, 1);
  EXPECT_TRUE(succeeded(verifyGather(emitter(), tensor({8, 4}),
                                     RankedTensorType::get({3, 1}, builder.getI32Type()),
                                     dims, {1, 4}, tensor({3, 4}))));
  EXPECT_TRUE(failed(verifyGather(emitter(), tensor({8, 4}),
                                  RankedTensorType::get({3, 1}, builder.getI32Type()),
                                  dims, {1, 4}, tensor({4, 3}))));
}

TEST_F(VerifiersTest, BroadcastPrependsSizes) {
  EXPECT_TRUE(succeeded(
      verifyBroadcast(emitter(), tensor({3}), {4, 2}, tensor({4, 2, 3}))));
  EXPECT_TRUE(failed(
      verifyBroadcast(emitter(), tensor({3}), {4, 2}, tensor({3, 4, 2}))));
}

TEST_F(VerifiersTest, TorchIndexSelectShape) {
  auto index = [&](ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, builder.getI32Type());
  };
  // operand[:dim] ++ index[batch_dims:] ++ operand[dim + 1:].
  EXPECT_TRUE(succeeded(verifyTorchIndexSelect(emitter(), tensor({8, 6, 10, 2}),
                                               index({8, 7, 3}), 2, 1,
                                               tensor({8, 6, 7, 3, 2}))));
  EXPECT_TRUE(failed(verifyTorchIndexSelect(emitter(), tensor({8, 6}),
                                            index({7}), 0, 1, tensor({7, 6}))));
  EXPECT_TRUE(failed(verifyTorchIndexSelect(
      emitter(), tensor({8, 6}), index({4, 7}), 1, 1, tensor({8, 7}))));
}

TEST_F(VerifiersTest, BatchNormPerFeatureTensors) {
  EXPECT_TRUE(succeeded(verifyBatchNorm(emitter(), tensor({8, 3, 4}), 1,
                                        {"scale", "offset"},
                                        TypeRange{tensor({3}), tensor({3})})));
  EXPECT_TRUE(failed(verifyBatchNorm(emitter(), tensor({8, 3, 4}), 2, {"scale"},
                                     TypeRange{tensor({3})})));
  ASSERT_FALSE(messages.empty());
  EXPECT_NE(messages.back().find("scale must be a 1-D tensor of 4 elements"),
            std::string::npos)
      << messages.back();
  EXPECT_TRUE(failed(verifyBatchNorm(emitter(), tensor({8, 3}), 2, {}, {})));
}

TEST_F(VerifiersTest, EinsumLabels) {
  // "...ij,...jk->...ik" with a longer ellipsis on the left.
  FailureOr<EinsumLabels> labels = analyzeEinsum(
      emitter(), "...ij,...jk->...ik",
      TypeRange{tensor({5, 4, 2, 3}), tensor({4, 3, 6})}, tensor({5, 4, 2, 6}));
  ASSERT_TRUE(succeeded(labels));
  // Labels in order of appearance: ...[1], ...[0], i, j, k.
  EXPECT_EQ(labels->getNumLabels(), 5);
  EXPECT_EQ(labels->names[0], "...[1]");
  EXPECT_EQ(labels->operands[0], (SmallVector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(labels->operands[1], (SmallVector<int64_t>{1, 3, 4}));
  EXPECT_EQ(labels->result, (SmallVector<int64_t>{0, 1, 2, 4}));
  EXPECT_EQ(labels->sizes, (SmallVector<int64_t>{5, 4, 2, 3, 6}));
  EXPECT_FALSE(labels->isInResult(3));
  // A diagonal repeats a label within an operand.
  labels =
      analyzeEinsum(emitter(), "ii->i", TypeRange{tensor({3, 3})}, tensor({3}));
  ASSERT_TRUE(succeeded(labels));
  EXPECT_EQ(labels->operands[0], (SmallVector<int64_t>{0, 0}));
  // Sizes must agree.
  EXPECT_TRUE(failed(analyzeEinsum(emitter(), "ab,bc->ac",
                                   TypeRange{tensor({2, 3}), tensor({4, 5})},
                                   tensor({2, 5}))));
}
