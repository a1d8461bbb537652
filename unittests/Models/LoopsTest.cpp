//===- LoopsTest.cpp - forLoop, stacked indexing and vjp, run -------------===//
//
// The pieces --scan is built from, executed in the reference interpreter:
// a counted while that reads row i of a stacked tensor and writes row
// n-1-i (with a backward pass emitted inside the body under a TapeScope),
// and the VJP of several outputs with given cotangents.
//
//===----------------------------------------------------------------------===//

#include "toast/Interpreter/Interpreter.h"
#include "toast/Models/GraphBuilder.h"

#include "toast/Dialect/StableHLO/IR/StablehloDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "gtest/gtest.h"

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

  /// Finishes `b` and runs @main on `args` (f64 tensors of `shape` with
  /// elements 0.5 + k + 10 j for argument j).
  SmallVector<Tensor> run(GraphBuilder &b, unsigned numArgs,
                          ArrayRef<int64_t> shape) {
    OwningOpRef<ModuleOp> module = b.finish();
    EXPECT_TRUE(module) << "module does not verify";
    if (!module)
      return {};
    SmallVector<Tensor> args;
    for (unsigned j = 0; j < numArgs; ++j) {
      Tensor t(RankedTensorType::get(shape, Float64Type::get(&ctx)));
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
  SmallVector<Tensor> results = run(b, 1, {4, 3});
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
  SmallVector<Tensor> results = run(b, 4, {3});
  ASSERT_EQ(results.size(), 2u);
  for (int64_t k = 0; k < 3; ++k) {
    double xv = inputs[0].getFloat(k), wv = inputs[1].getFloat(k);
    double g1v = inputs[2].getFloat(k), g2v = inputs[3].getFloat(k);
    EXPECT_DOUBLE_EQ(results[0].getFloat(k), 2 * xv * g1v + wv * g2v);
    EXPECT_DOUBLE_EQ(results[1].getFloat(k), xv * g2v);
  }
}

} // namespace
