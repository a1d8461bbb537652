//===- KVCacheTest.cpp - ITX decoding agrees with a longer prefill --------===//
//
// Decoding through the KV cache must compute what a prefill of the longer
// prompt computes. With prompt p: itx (decode-steps 2) yields tokens
// [t1, t2, t3] and the logits that predicted t3. itx on the prompt p + [t1]
// (decode-steps 1) must yield [t2, t3] and the same logits.
//
//===----------------------------------------------------------------------===//

#include "toast/Interpreter/Interpreter.h"
#include "toast/Models/Models.h"

#include "toast/Dialect/StableHLO/IR/StablehloDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "gtest/gtest.h"

#include <random>

using namespace mlir;
using namespace toast;
using namespace toast::models;
using toast::interp::Tensor;

namespace {

constexpr int64_t kBatch = 2, kPrompt = 5, kVocab = 13;

OwningOpRef<ModuleOp> buildItx(MLIRContext *ctx, int64_t seq, int64_t steps) {
  ModelOptions options;
  options.dtype = "f64";
  options.ints = {{"layers", 2},  {"batch", kBatch},     {"seq", seq},
                  {"d-model", 8}, {"heads", 4},          {"key-size", 4},
                  {"vocab", kVocab}, {"hidden", 6}, {"decode-steps", steps}};
  std::string error;
  OwningOpRef<ModuleOp> module = buildModel(ctx, "itx", options, error);
  EXPECT_TRUE(module) << error;
  return module;
}

TEST(KVCacheTest, DecodeMatchesLongerPrefill) {
  MLIRContext ctx;
  ctx.loadDialect<stablehlo::StableHLODialect, func::FuncDialect>();
  OwningOpRef<ModuleOp> a = buildItx(&ctx, kPrompt, 2);
  OwningOpRef<ModuleOp> b = buildItx(&ctx, kPrompt + 1, 1);
  ASSERT_TRUE(a && b);
  auto funcA = a->lookupSymbol<func::FuncOp>("main");

  // Random parameters (shared) and prompt (the last argument).
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> uniform(-0.5, 0.5);
  std::uniform_int_distribution<int64_t> token(0, kVocab - 1);
  SmallVector<Tensor> argsA;
  for (Type type : funcA.getArgumentTypes()) {
    Tensor t(cast<RankedTensorType>(type));
    for (int64_t i = 0; i < t.getNumElements(); ++i) {
      if (t.getElementType().isFloat())
        t.setFloat(i, uniform(rng));
      else
        t.setInt(i, token(rng));
    }
    argsA.push_back(t);
  }
  interp::Interpreter interpA(*a);
  auto resA = interpA.runFunction("main", argsA);
  ASSERT_TRUE(succeeded(resA));
  const Tensor &genA = (*resA)[0]; // [B, 3]
  ASSERT_EQ(genA.getShape(), ArrayRef<int64_t>({kBatch, 3}));

  SmallVector<Tensor> argsB(argsA.begin(), argsA.end() - 1);
  const Tensor &prompt = argsA.back();
  Tensor longer(prompt.getElementType(), {kBatch, kPrompt + 1});
  for (int64_t r = 0; r < kBatch; ++r) {
    for (int64_t s = 0; s < kPrompt; ++s)
      longer.setInt(r * (kPrompt + 1) + s, prompt.getInt(r * kPrompt + s));
    longer.setInt(r * (kPrompt + 1) + kPrompt, genA.getInt(r * 3));
  }
  argsB.push_back(longer);
  interp::Interpreter interpB(*b);
  auto resB = interpB.runFunction("main", argsB);
  ASSERT_TRUE(succeeded(resB));
  const Tensor &genB = (*resB)[0]; // [B, 2]
  for (int64_t r = 0; r < kBatch; ++r) {
    EXPECT_EQ(genB.getInt(r * 2), genA.getInt(r * 3 + 1)) << "row " << r;
    EXPECT_EQ(genB.getInt(r * 2 + 1), genA.getInt(r * 3 + 2)) << "row " << r;
  }
  const Tensor &logitsA = (*resA)[1], &logitsB = (*resB)[1];
  ASSERT_EQ(logitsA.getNumElements(), kBatch * kVocab);
  for (int64_t i = 0; i < logitsA.getNumElements(); ++i)
    EXPECT_NEAR(logitsA.getFloat(i), logitsB.getFloat(i), 1e-9) << i;
}

} // namespace
