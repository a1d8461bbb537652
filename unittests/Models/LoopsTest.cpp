//===- LoopsTest.cpp - forLoop, stacked indexing and vjp, run -------------===//
//
// The pieces --scan is built from, executed in the reference interpreter:
// a counted while that reads row i of a stacked tensor and writes row
// n-1-i (with a backward pass emitted inside the body under a TapeScope),
// the VJP of several outputs with given cotangents, and a ScannedLayer's
// forward and backward loops in both residual forms.
//
//===----------------------------------------------------------------------===//

#include "toast/Interpreter/Interpreter.h"
#include "toast/Models/GraphBuilder.h"
#include "toast/Models/ScannedLayer.h"

#include "toast/Dialect/StableHLO/IR/StablehloDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;
using namespace toast;
using namespace toast::models;
using toast::interp::Tensor;

namespace {

class LoopsTest : public ::testing::Test {
protected:
  LoopsTest() {
    ctx.loadDialect<stablehlo::StableHLODialect, func::FuncDialect>();
  }

  /// Finishes `b` and runs @main on f64 arguments whose element k of
  /// argument j is 0.5 + k + 10 j.
  SmallVector<Tensor> run(GraphBuilder &b) {
    OwningOpRef<ModuleOp> module = b.finish();
    EXPECT_TRUE(module) << "module does not verify";
    if (!module)
      return {};
    SmallVector<Tensor> args;
    auto func = module->lookupSymbol<func::FuncOp>("main");
    for (auto [j, type] : llvm::enumerate(func.getArgumentTypes())) {
      Tensor t(cast<RankedTensorType>(type));
      for (int64_t k = 0; k < t.getNumElements(); ++k)
        t.setFloat(k, 0.5 + k + 10.0 * j);
      args.push_back(t);
    }
    inputs = args;
    interp::Interpreter interp(*module);
    auto results = interp.runFunction("main", args);
    EXPECT_TRUE(succeeded(results));
    return succeeded(results) ? *results : SmallVector<Tensor>();
  }

  MLIRContext ctx;
  SmallVector<Tensor> inputs;
};

TEST_F(LoopsTest, ForLoopReversesRowsThroughAVjpInItsBody) {
  GraphBuilder b(&ctx, "t");
  Type f64 = b.getBuilder().getF64Type();
  Value a = b.argument("a", {4, 3}, f64);
  size_t tape = b.tapeSize();
  // out[3 - i] = d(row * row)/d(row) = 2 a[i].
  SmallVector<Value> out = b.forLoop(
      4, {a, b.fullLike(0.0, a)}, [&](Value i, ArrayRef<Value> carry) {
        Value row = b.dynamicIndex(carry[0], i);
        Value grad;
        {
          GraphBuilder::TapeScope scope(b);
          Value square = b.mul(row, row);
          EXPECT_GT(b.tapeSize(), tape);
          grad = b.vjp({square}, {b.fullLike(1.0, row)}, {row})[0];
        }
        Value j = b.sub(b.scalar(3, b.i32()), i);
        return SmallVector<Value>{carry[0],
                                  b.dynamicUpdateIndex(carry[1], grad, j)};
      });
  EXPECT_EQ(b.tapeSize(), tape) << "the body's tape entries were dropped";
  b.result("out", out[1]);
  SmallVector<Tensor> results = run(b);
  ASSERT_EQ(results.size(), 1u);
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t c = 0; c < 3; ++c)
      EXPECT_EQ(results[0].getFloat((3 - r) * 3 + c),
                2 * inputs[0].getFloat(r * 3 + c))
          << r << ", " << c;
}

TEST_F(LoopsTest, VjpAddsTheCotangentsOfSeveralOutputs) {
  GraphBuilder b(&ctx, "t");
  Type f64 = b.getBuilder().getF64Type();
  Value x = b.argument("x", {3}, f64), w = b.argument("w", {3}, f64);
  Value g1 = b.argument("g1", {3}, f64), g2 = b.argument("g2", {3}, f64);
  // y1 = x x, y2 = x w: dx = 2 x g1 + w g2, dw = x g2.
  SmallVector<Value> grads =
      b.vjp({b.mul(x, x), b.mul(x, w)}, {g1, g2}, {x, w});
  b.result("dx", grads[0]);
  b.result("dw", grads[1]);
  SmallVector<Tensor> results = run(b);
  ASSERT_EQ(results.size(), 2u);
  for (int64_t k = 0; k < 3; ++k) {
    double xv = inputs[0].getFloat(k), wv = inputs[1].getFloat(k);
    double g1v = inputs[2].getFloat(k), g2v = inputs[3].getFloat(k);
    EXPECT_DOUBLE_EQ(results[0].getFloat(k), 2 * xv * g1v + wv * g2v);
    EXPECT_DOUBLE_EQ(results[1].getFloat(k), xv * g2v);
  }
}

/// x_{l+1} = tanh(x_l w_l k) with k = c / 1000 for l < 4, then
/// d(sum x_4)/d(x_0, w): the loops against the same recursion in C++.
/// Saving every residual, the backward body runs only the VJP's 5
/// multiplies: it reads x_l and tanh's output from the forward loop and k,
/// a loop invariant, is computed once before it. Saving the inputs, it
/// recomputes the layer (1 tanh, 3 more multiplies).
class ScannedLayerTest : public LoopsTest,
                         public ::testing::WithParamInterface<ScanResiduals> {};

TEST_P(ScannedLayerTest, GradientsOfATanhRecursion) {
  constexpr int64_t L = 4, N = 3;
  GraphBuilder b(&ctx, "t");
  Type f64 = b.getBuilder().getF64Type();
  Value x = b.argument("x", {N}, f64), w = b.argument("w", {L, N}, f64);
  Value c = b.argument("c", {N}, f64);
  ScannedLayer scanned(b, {c}, {w}, GetParam());
  Value y = scanned.forward(
      x, [&](Value x, ArrayRef<Value> invariants, ArrayRef<Value> params) {
        Value k = b.mulScalar(invariants[0], 1e-3);
        return b.tanh(b.mul(b.mul(x, params[0]), k));
      });
  SmallVector<Value> grads;
  Value dx = scanned.backward(b.fullLike(1.0, y), grads);
  b.result("y", y);
  b.result("dx", dx);
  b.result("dw", grads[0]);
  bool all = GetParam() == ScanResiduals::All;
  EXPECT_EQ(scanned.residualBuffers().size(), all ? 2u : 1u);
  SmallVector<stablehlo::WhileOp> loops;
  b.getFunction().walk([&](stablehlo::WhileOp loop) { loops.push_back(loop); });
  ASSERT_EQ(loops.size(), 2u);
  unsigned tanhs = 0, muls = 0;
  loops[1].walk([&](Operation *op) {
    tanhs += isa<stablehlo::TanhOp>(op);
    muls += isa<stablehlo::MulOp>(op);
  });
  EXPECT_EQ(tanhs, all ? 0u : 1u);
  EXPECT_EQ(muls, all ? 5u : 8u);

  SmallVector<Tensor> results = run(b);
  ASSERT_EQ(results.size(), 3u);
  // Element n of x, row l of w, element n of c.
  for (int64_t n = 0; n < N; ++n) {
    double k = (20.5 + n) * 1e-3;
    SmallVector<double> xs{0.5 + n}, ws;
    for (int64_t l = 0; l < L; ++l) {
      ws.push_back(10.5 + l * N + n);
      xs.push_back(std::tanh(xs.back() * ws.back() * k));
    }
    EXPECT_DOUBLE_EQ(results[0].getFloat(n), xs[L]);
    double g = 1.0;
    for (int64_t l = L - 1; l >= 0; --l) {
      double t = g * (1 - xs[l + 1] * xs[l + 1]) * k;
      EXPECT_NEAR(results[2].getFloat(l * N + n), t * xs[l], 1e-12) << l;
      g = t * ws[l];
    }
    EXPECT_NEAR(results[1].getFloat(n), g, 1e-12);
  }
}

INSTANTIATE_TEST_SUITE_P(Forms, ScannedLayerTest,
                         ::testing::Values(ScanResiduals::All,
                                           ScanResiduals::Inputs),
                         [](const ::testing::TestParamInfo<ScanResiduals> &i) {
                           return i.param == ScanResiduals::All ? "All"
                                                                : "Inputs";
                         });

} // namespace
