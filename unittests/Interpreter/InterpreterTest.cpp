//===- InterpreterTest.cpp - Tests of op semantics through the API -------===//
//
// Small programs run through the Interpreter API: the corner cases of the
// StableHLO specification (integer division, NaN propagation, shifts,
// conversions), PartIR:Core loops, tuples and tokens, the rng stream, and
// errors for unsupported input.
//
//===----------------------------------------------------------------------===//

#include "toast/Interpreter/Interpreter.h"
#include "toast/Dialect/StableHLO/IR/StablehloOps.h"
#include "toast/Interpreter/Runner.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"
#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace toast::interp;

namespace {

class InterpreterTest : public ::testing::Test {
protected:
  InterpreterTest() {
    DialectRegistry registry;
    registerInterpreterDialects(registry);
    context.appendDialectRegistry(registry);
    context.printOpOnDiagnostic(false);
  }

  /// Runs @main of `source`; on failure returns failure and keeps the
  /// diagnostics in `errors`.
  FailureOr<SmallVector<Tensor>> run(StringRef source,
                                     ArrayRef<Tensor> args = {}) {
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      errors += diag.str() + "\n";
      return success();
    });
    module = parseSourceString<ModuleOp>(source, ParserConfig(&context));
    if (!module)
      return failure();
    Interpreter interp(*module);
    auto results = interp.runFunction("main", args);
    checks = interp.getCheckSummary();
    return results;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::string errors;
  CheckSummary checks;
};

TEST_F(InterpreterTest, IntegerDivisionCornerCases) {
  auto results = run(R"mlir(
    func.func @main() -> (tensor<4xi32>, tensor<4xi32>, tensor<2xui8>) {
      %a = stablehlo.constant dense<[7, -7, 5, -2147483648]> : tensor<4xi32>
      %b = stablehlo.constant dense<[0, 2, 0, -1]> : tensor<4xi32>
      %q = stablehlo.divide %a, %b : tensor<4xi32>
      %r = stablehlo.remainder %a, %b : tensor<4xi32>
      %c = stablehlo.constant dense<[200, 7]> : tensor<2xui8>
      %z = stablehlo.constant dense<[0, 2]> : tensor<2xui8>
      %u = stablehlo.divide %c, %z : tensor<2xui8>
      return %q, %r, %u : tensor<4xi32>, tensor<4xi32>, tensor<2xui8>
    })mlir");
  ASSERT_TRUE(succeeded(results)) << errors;
  const Tensor &q = (*results)[0], &r = (*results)[1], &u = (*results)[2];
  EXPECT_EQ(q.getInt(0), -1);
  EXPECT_EQ(q.getInt(1), -3);
  EXPECT_EQ(q.getInt(3), -2147483648LL);
  EXPECT_EQ(r.getInt(0), 7);
  EXPECT_EQ(r.getInt(1), -1);
  EXPECT_EQ(r.getInt(2), 5);
  EXPECT_EQ(r.getInt(3), 0);
  EXPECT_EQ(u.getInt(0), 255);
  EXPECT_EQ(u.getInt(1), 3);
}

TEST_F(InterpreterTest, FloatSemantics) {
  auto results = run(R"mlir(
    func.func @main() -> (tensor<3xf32>, tensor<3xf32>, tensor<2xbf16>) {
      %a = stablehlo.constant dense<[0x7FC00000, 1.0, -0.0]> : tensor<3xf32>
      %b = stablehlo.constant dense<[1.0, 0x7FC00000, 0.0]> : tensor<3xf32>
      %m = stablehlo.maximum %a, %b : tensor<3xf32>
      %x = stablehlo.constant dense<[5.5, -5.5, 2.5]> : tensor<3xf32>
      %y = stablehlo.constant dense<[2.0, 2.0, -1.0]> : tensor<3xf32>
      %r = stablehlo.remainder %x, %y : tensor<3xf32>
      %s = stablehlo.constant dense<[1.0, 255.0]> : tensor<2xf32>
      %t = stablehlo.constant dense<[0.00390625, 1.0]> : tensor<2xf32>
      %sum = stablehlo.add %s, %t : tensor<2xf32>
      %bf = stablehlo.convert %sum : (tensor<2xf32>) -> tensor<2xbf16>
      return %m, %r, %bf : tensor<3xf32>, tensor<3xf32>, tensor<2xbf16>
    })mlir");
  ASSERT_TRUE(succeeded(results)) << errors;
  const Tensor &m = (*results)[0], &r = (*results)[1], &bf = (*results)[2];
  EXPECT_TRUE(std::isnan(m.getFloat(0)));
  EXPECT_TRUE(std::isnan(m.getFloat(1)));
  EXPECT_FALSE(std::signbit(m.getFloat(2))); // max(-0, +0) = +0
  EXPECT_EQ(r.getFloat(0), 1.5);
  EXPECT_EQ(r.getFloat(1), -1.5);
  EXPECT_EQ(r.getFloat(2), 0.5);
  EXPECT_EQ(bf.getFloat(0), 1.0); // 1 + 2^-8 ties to even
  EXPECT_EQ(bf.getFloat(1), 256.0);
}

/// The operands of the contraction tests: values of both signs and varied
/// magnitudes, so that every product and partial sum rounds and a changed
/// summation order shows.
static void fillOperands(Tensor &lhs, Tensor &rhs) {
  for (int64_t i = 0; i < lhs.getNumElements(); ++i)
    lhs.setFloat(i, std::sin(0.37 * i) * 3.1);
  for (int64_t i = 0; i < rhs.getNumElements(); ++i)
    rhs.setFloat(i, std::cos(0.53 * i) / 7.0);
}

// Convolutions go over output positions in tiles (convolve): more
// positions than a tile, a tile cut short, padding, strides, dilations,
// window reversal and feature groups give, bit for bit, the sum over
// (kernel position, input feature) in that order of the direct formula.
TEST_F(InterpreterTest, ConvolutionTilesAgreeWithTheDirectSum) {
  struct Conv {
    int64_t stride, pad, lhsDilation, rhsDilation, groups;
    bool reverse;
  };
  const int64_t n = 2, c = 4, h = 9, w = 11, o = 6, k = 3;
  for (Conv conv : {Conv{1, 1, 1, 1, 2, false}, Conv{2, 2, 2, 1, 1, true},
                    Conv{1, 0, 1, 2, 1, false}}) {
    int64_t inPerGroup = c / conv.groups;
    auto outSize = [&](int64_t in) {
      int64_t dilatedIn = (in - 1) * conv.lhsDilation + 1;
      int64_t window = (k - 1) * conv.rhsDilation + 1;
      return (dilatedIn + 2 * conv.pad - window) / conv.stride + 1;
    };
    int64_t oh = outSize(h), ow = outSize(w);
    std::string source = llvm::formatv(
        R"mlir(
      func.func @main(%x: tensor<{0}x{1}x{2}x{3}xf64>,
                      %k: tensor<{4}x{5}x{6}x{6}xf64>)
          -> tensor<{0}x{4}x{7}x{8}xf64> {
        %0 = stablehlo.convolution(%x, %k)
            dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1],
            window = {stride = [{9}, {9}], pad = [[{10}, {10}], [{10}, {10}]],
                      lhs_dilate = [{11}, {11}], rhs_dilate = [{12}, {12}],
                      reverse = [{13}, false]}
            {batch_group_count = 1 : i64, feature_group_count = {14} : i64}
            : (tensor<{0}x{1}x{2}x{3}xf64>, tensor<{4}x{5}x{6}x{6}xf64>)
            -> tensor<{0}x{4}x{7}x{8}xf64>
        return %0 : tensor<{0}x{4}x{7}x{8}xf64>
      })mlir",
        n, c, h, w, o, inPerGroup, k, oh, ow, conv.stride, conv.pad,
        conv.lhsDilation, conv.rhsDilation, conv.reverse ? "true" : "false",
        conv.groups);
    Builder b(&context);
    ElementType f64 = *ElementType::get(b.getF64Type());
    Tensor x(f64, {n, c, h, w}), kernel(f64, {o, inPerGroup, k, k});
    fillOperands(x, kernel);
    auto results = run(source, {x, kernel});
    ASSERT_TRUE(succeeded(results)) << errors;
    const Tensor &y = (*results)[0];
    int64_t mismatches = 0;
    for (int64_t b0 = 0; b0 < n; ++b0)
      for (int64_t f = 0; f < o; ++f)
        for (int64_t i = 0; i < oh; ++i)
          for (int64_t j = 0; j < ow; ++j) {
            int64_t group = f / (o / conv.groups);
            double sum = 0;
            for (int64_t ki = 0; ki < k; ++ki)
              for (int64_t kj = 0; kj < k; ++kj) {
                int64_t ri = conv.reverse ? k - 1 - ki : ki;
                int64_t pi = i * conv.stride - conv.pad + ri * conv.rhsDilation;
                int64_t pj = j * conv.stride - conv.pad + kj * conv.rhsDilation;
                if (pi < 0 || pj < 0 || pi % conv.lhsDilation ||
                    pj % conv.lhsDilation || pi / conv.lhsDilation >= h ||
                    pj / conv.lhsDilation >= w)
                  continue;
                for (int64_t ci = 0; ci < inPerGroup; ++ci)
                  sum += x.getFloat(x.getFlatIndex({b0, group * inPerGroup + ci,
                                                    pi / conv.lhsDilation,
                                                    pj / conv.lhsDilation})) *
                         kernel.getFloat(kernel.getFlatIndex({f, ci, ki, kj}));
              }
            mismatches += y.getFloat(y.getFlatIndex({b0, f, i, j})) != sum;
          }
    EXPECT_EQ(mismatches, 0) << "stride " << conv.stride << " pad " << conv.pad;
  }
}

// dot_general reads each operand in its own storage (floats in place,
// doubles) and sums in double in contraction order, then rounds once: rows
// long enough for the vector clones and their remainders, each pair of
// storages, a transposed operand.
TEST_F(InterpreterTest, DotsSumInDoubleOverEitherStorage) {
  const int64_t m = 3, k = 37, n = 45;
  for (auto [lhsType, rhsType] :
       {std::pair{"f32", "f64"}, {"f64", "f32"}, {"bf16", "bf16"}}) {
    std::string source = llvm::formatv(R"mlir(
      func.func @main(%x: tensor<{0}x{1}x{3}>, %y: tensor<{2}x{1}x{4}>)
          -> tensor<{0}x{2}xf64> {
        %0 = stablehlo.dot_general %x, %y, contracting_dims = [1] x [1]
            : (tensor<{0}x{1}x{3}>, tensor<{2}x{1}x{4}>) -> tensor<{0}x{2}xf64>
        return %0 : tensor<{0}x{2}xf64>
      })mlir",
                                       m, k, n, lhsType, rhsType);
    Builder b(&context);
    auto typeOf = [&](StringRef name) -> Type {
      if (name == "f32")
        return b.getF32Type();
      if (name == "f64")
        return b.getF64Type();
      return b.getBF16Type();
    };
    Tensor x(*ElementType::get(typeOf(lhsType)), {m, k});
    Tensor y(*ElementType::get(typeOf(rhsType)), {n, k});
    fillOperands(x, y);
    auto results = run(source, {x, y});
    ASSERT_TRUE(succeeded(results)) << errors;
    const Tensor &z = (*results)[0];
    int64_t mismatches = 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (int64_t c = 0; c < k; ++c)
          sum += x.getFloat(x.getFlatIndex({i, c})) *
                 y.getFloat(y.getFlatIndex({j, c}));
        mismatches += z.getFloat(z.getFlatIndex({i, j})) != sum;
      }
    EXPECT_EQ(mismatches, 0) << lhsType << " x " << rhsType;
  }
}

// Results stored as floats are rounded once, from the double the op
// computes: an f64 value just above a bf16 tie converts up (rounding it to
// a float first would make it a tie, which rounds down to even); a bf16
// sum and an f16 product round from their exact values.
TEST_F(InterpreterTest, NarrowResultsRoundOnceFromTheExactValue) {
  auto results = run(R"mlir(
    func.func @main() -> (tensor<1xbf16>, tensor<1xbf16>, tensor<1xf16>) {
      %x = stablehlo.constant dense<1.0039062509313226> : tensor<1xf64>
      %c = stablehlo.convert %x : (tensor<1xf64>) -> tensor<1xbf16>
      %a = stablehlo.constant dense<1.0> : tensor<1xbf16>
      %e = stablehlo.constant dense<0.003936767578125> : tensor<1xbf16>
      %s = stablehlo.add %a, %e : tensor<1xbf16>
      %h = stablehlo.constant dense<1.0009765625> : tensor<1xf16>
      %p = stablehlo.multiply %h, %h : tensor<1xf16>
      return %c, %s, %p : tensor<1xbf16>, tensor<1xbf16>, tensor<1xf16>
    })mlir");
  ASSERT_TRUE(succeeded(results)) << errors;
  EXPECT_EQ((*results)[0].getFloat(0), 1.0078125);
  // 1 + 2^-8 + 2^-15: above the tie between 1 and 1 + 2^-7.
  EXPECT_EQ((*results)[1].getFloat(0), 1.0078125);
  // (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20: f16 rounds it to 1 + 2^-9.
  EXPECT_EQ((*results)[2].getFloat(0), 1.001953125);
}

// Transposes whose source's contiguous dimension is not the last one are
// copied in tiles (copyTransposed); sizes that are not multiples of the
// tile and an outer dimension exercise its edges.
TEST_F(InterpreterTest, TransposesAcrossTileEdges) {
  auto results = run(R"(
    func.func @main() -> (tensor<65x2x33xf32>, tensor<33x65x2xf32>,
                          tensor<2x65x33xf32>, tensor<65x33xf32>) {
      %flat = stablehlo.iota dim = 0 : tensor<4290xf32>
      %x = stablehlo.reshape %flat : (tensor<4290xf32>) -> tensor<2x33x65xf32>
      %a = stablehlo.transpose %x, dims = [2, 0, 1]
        : (tensor<2x33x65xf32>) -> tensor<65x2x33xf32>
      %b = stablehlo.transpose %x, dims = [1, 2, 0]
        : (tensor<2x33x65xf32>) -> tensor<33x65x2xf32>
      %c = stablehlo.transpose %x, dims = [0, 2, 1]
        : (tensor<2x33x65xf32>) -> tensor<2x65x33xf32>
      %m = stablehlo.slice %x [0:1, 0:33, 0:65]
        : (tensor<2x33x65xf32>) -> tensor<1x33x65xf32>
      %r = stablehlo.reshape %m : (tensor<1x33x65xf32>) -> tensor<33x65xf32>
      %d = stablehlo.transpose %r, dims = [1, 0]
        : (tensor<33x65xf32>) -> tensor<65x33xf32>
      return %a, %b, %c, %d : tensor<65x2x33xf32>, tensor<33x65x2xf32>,
                              tensor<2x65x33xf32>, tensor<65x33xf32>
    }
  )");
  ASSERT_TRUE(succeeded(results)) << errors;
  int64_t shape[] = {2, 33, 65};
  auto check = [&](const Tensor &t, ArrayRef<int64_t> perm,
                   ArrayRef<int64_t> sourceShape) {
    int64_t n = t.getNumElements();
    for (int64_t flat = 0; flat < n; ++flat) {
      // The result's multi-index, then the source's: x[perm[d]] = r[d].
      SmallVector<int64_t> r(perm.size()), x(perm.size());
      for (int64_t d = perm.size() - 1, rest = flat; d >= 0; --d) {
        r[d] = rest % t.getShape()[d];
        rest /= t.getShape()[d];
      }
      for (size_t d = 0; d < perm.size(); ++d)
        x[perm[d]] = r[d];
      int64_t expected = 0;
      for (size_t d = 0; d < perm.size(); ++d)
        expected = expected * sourceShape[d] + x[d];
      ASSERT_EQ(t.getFloat(flat), static_cast<double>(expected))
          << "element " << flat;
    }
  };
  check((*results)[0], {2, 0, 1}, shape);
  check((*results)[1], {1, 2, 0}, shape);
  check((*results)[2], {0, 2, 1}, shape);
  check((*results)[3], {1, 0}, {33, 65});
}

// A constant op's value is evaluated once and shared by every iteration
// (ConstantCache): an update of it in the body must copy it, or the next
// iteration would start from the updated value.
TEST_F(InterpreterTest, LoopIterationsShareConstantsUnchanged) {
  auto results = run(R"(
    func.func @main() -> tensor<4xf32> {
      %zero = stablehlo.constant dense<0> : tensor<i32>
      %acc0 = stablehlo.constant dense<0.0> : tensor<4xf32>
      %out:2 = stablehlo.while(%i = %zero, %acc = %acc0)
          : tensor<i32>, tensor<4xf32>
        cond {
        %four = stablehlo.constant dense<4> : tensor<i32>
        %p = stablehlo.compare LT, %i, %four : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %p : tensor<i1>
      } do {
        %z = stablehlo.constant dense<0.0> : tensor<4xf32>
        %one = stablehlo.constant dense<[1.0]> : tensor<1xf32>
        %u = stablehlo.dynamic_update_slice %z, %one, %i
          : (tensor<4xf32>, tensor<1xf32>, tensor<i32>) -> tensor<4xf32>
        %acc2 = stablehlo.add %acc, %u : tensor<4xf32>
        %step = stablehlo.constant dense<1> : tensor<i32>
        %i2 = stablehlo.add %i, %step : tensor<i32>
        stablehlo.return %i2, %acc2 : tensor<i32>, tensor<4xf32>
      }
      return %out#1 : tensor<4xf32>
    }
  )");
  ASSERT_TRUE(succeeded(results)) << errors;
  for (int64_t i = 0; i < 4; ++i)
    EXPECT_EQ((*results)[0].getFloat(i), 1.0) << "element " << i;
}

TEST_F(InterpreterTest, ShiftsAndConversions) {
  auto results = run(R"mlir(
    func.func @main() -> (tensor<3xi8>, tensor<3xi8>, tensor<3xi8>, tensor<2xf32>) {
      %a = stablehlo.constant dense<[1, -8, 64]> : tensor<3xi8>
      %s = stablehlo.constant dense<[9, 10, 1]> : tensor<3xi8>
      %l = stablehlo.shift_left %a, %s : tensor<3xi8>
      %r = stablehlo.shift_right_arithmetic %a, %s : tensor<3xi8>
      %f = stablehlo.constant dense<[300.5, -1.0e10, 0x7FC00000]> : tensor<3xf32>
      %c = stablehlo.convert %f : (tensor<3xf32>) -> tensor<3xi8>
      %big = stablehlo.constant dense<[16777217, 16777219]> : tensor<2xui32>
      %g = stablehlo.convert %big : (tensor<2xui32>) -> tensor<2xf32>
      return %l, %r, %c, %g : tensor<3xi8>, tensor<3xi8>, tensor<3xi8>, tensor<2xf32>
    })mlir");
  ASSERT_TRUE(succeeded(results)) << errors;
  const Tensor &l = (*results)[0], &r = (*results)[1], &c = (*results)[2],
               &g = (*results)[3];
  EXPECT_EQ(l.getInt(0), 0);
  EXPECT_EQ(l.getInt(2), -128);
  EXPECT_EQ(r.getInt(1), -1);
  EXPECT_EQ(r.getInt(2), 32);
  EXPECT_EQ(c.getInt(0), 127);
  EXPECT_EQ(c.getInt(1), -128);
  EXPECT_EQ(c.getInt(2), 0);
  EXPECT_EQ(g.getFloat(0), 16777216.0);
  EXPECT_EQ(g.getFloat(1), 16777220.0);
}

TEST_F(InterpreterTest, PartIRCoreLoops) {
  auto results = run(R"mlir(
    module attributes {partir.mesh = #partir.mesh<["B"=2]>} {
      func.func @main() -> (tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>) {
        %x = stablehlo.iota dim = 0 : tensor<4x2xf32>
        %t = partir.loop "B" [#partir.tile<0>] (%r: !partir.range<2>) {
          %s = partir.slice 0 %x[%r] : tensor<4x2xf32> -> tensor<2x2xf32>
          %d = stablehlo.add %s, %s : tensor<2x2xf32>
          partir.yield %d : tensor<2x2xf32>
        } : tensor<4x2xf32>
        %sum = partir.loop "B" [#partir.sum] (%r: !partir.range<2>) {
          %s = partir.slice 0 %x[%r] : tensor<4x2xf32> -> tensor<2x2xf32>
          %zero = stablehlo.constant dense<0.0> : tensor<f32>
          %red = stablehlo.reduce(%s init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<2x2xf32>, tensor<f32>) -> tensor<2xf32>
          partir.yield %red : tensor<2xf32>
        } : tensor<2xf32>
        %any = partir.loop "B" [#partir.any] (%r: !partir.range<2>) {
          %c = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
          partir.yield %c : tensor<2xf32>
        } : tensor<2xf32>
        return %t, %sum, %any : tensor<4x2xf32>, tensor<2xf32>, tensor<2xf32>
      }
    })mlir");
  ASSERT_TRUE(succeeded(results)) << errors;
  const Tensor &t = (*results)[0], &sum = (*results)[1], &any = (*results)[2];
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_EQ(t.getFloat(i), 2.0 * (i / 2));
  EXPECT_EQ(sum.getFloat(0), 0.0 + 1 + 2 + 3);
  EXPECT_EQ(any.getFloat(1), 2.0);
}

TEST_F(InterpreterTest, ChloSpecialFunctions) {
  // Functions the StableHLO test data does not cover (polygamma, zeta) and
  // reference values of the others, in f64 (references from mpmath).
  auto results = run(R"mlir(
    func.func @main() -> (tensor<3xf64>, tensor<3xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf32>) {
      %n = stablehlo.constant dense<[1.0, 2.0, 0.0]> : tensor<3xf64>
      %x = stablehlo.constant dense<[1.0, 1.0, 1.0]> : tensor<3xf64>
      %pg = chlo.polygamma %n, %x : tensor<3xf64>, tensor<3xf64> -> tensor<3xf64>
      %s = stablehlo.constant dense<[2.0, 4.0, 3.0]> : tensor<3xf64>
      %q = stablehlo.constant dense<[1.0, 1.0, 2.5]> : tensor<3xf64>
      %z = chlo.zeta %s, %q : tensor<3xf64>, tensor<3xf64> -> tensor<3xf64>
      %e = stablehlo.constant dense<[0.5, -0.999]> : tensor<2xf64>
      %ei = chlo.erf_inv %e : tensor<2xf64> -> tensor<2xf64>
      %b = stablehlo.constant dense<[1.0, -50.0]> : tensor<2xf64>
      %bi = chlo.bessel_i1e %b : tensor<2xf64> -> tensor<2xf64>
      %d = stablehlo.constant dense<[0.5, -1.5]> : tensor<2xf64>
      %dg = chlo.digamma %d : tensor<2xf64> -> tensor<2xf64>
      %na = stablehlo.constant dense<[1.0, 0.0]> : tensor<2xf32>
      %nb = stablehlo.constant dense<[2.0, -1.0]> : tensor<2xf32>
      %nx = chlo.next_after %na, %nb : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
      return %pg, %z, %ei, %bi, %dg, %nx : tensor<3xf64>, tensor<3xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf64>, tensor<2xf32>
    })mlir");
  ASSERT_TRUE(succeeded(results)) << errors;
  const Tensor &pg = (*results)[0], &z = (*results)[1], &ei = (*results)[2],
               &bi = (*results)[3], &dg = (*results)[4], &nx = (*results)[5];
  const double pi2over6 = M_PI * M_PI / 6;
  EXPECT_NEAR(pg.getFloat(0), pi2over6, 1e-13);            // psi'(1)
  EXPECT_NEAR(pg.getFloat(1), -2.4041138063191885, 1e-13); // -2 zeta(3)
  EXPECT_NEAR(pg.getFloat(2), -0.5772156649015329, 1e-13); // psi(1)
  EXPECT_NEAR(z.getFloat(0), pi2over6, 1e-13);
  EXPECT_NEAR(z.getFloat(1), std::pow(M_PI, 4) / 90, 1e-13);
  EXPECT_NEAR(z.getFloat(2), 0.1181020258208637, 1e-13);
  EXPECT_NEAR(ei.getFloat(0), 0.4769362762044699, 1e-14);
  EXPECT_NEAR(ei.getFloat(1), -2.326753765513525, 1e-11);
  EXPECT_NEAR(bi.getFloat(0), 0.2079104153497085, 1e-14);
  EXPECT_NEAR(bi.getFloat(1), -0.0559931238928954, 1e-14);
  EXPECT_NEAR(dg.getFloat(0), -1.9635100260214235, 1e-13);
  EXPECT_NEAR(dg.getFloat(1), 0.7031566406452432, 1e-13);
  EXPECT_EQ(nx.getFloat(0), double(std::nextafter(1.0f, 2.0f)));
  EXPECT_EQ(nx.getFloat(1), -double(std::numeric_limits<float>::denorm_min()));
}

TEST_F(InterpreterTest, ChecksAreCounted) {
  auto results = run(R"mlir(
    func.func @main() {
      %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
      %b = stablehlo.constant dense<[1.0, 2.00001]> : tensor<2xf32>
      stablehlo.custom_call @check.expect_close(%a, %b) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
      stablehlo.custom_call @check.expect_eq(%a, %b) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
      return
    })mlir");
  ASSERT_TRUE(succeeded(results)) << errors;
  EXPECT_EQ(checks.passed, 1);
  EXPECT_EQ(checks.failed, 1);
  EXPECT_NE(errors.find("first at index [1]"), std::string::npos) << errors;
}

TEST_F(InterpreterTest, UnsupportedInputIsAnError) {
  EXPECT_TRUE(failed(run(R"mlir(
    func.func @main() -> tensor<2xf32> {
      %a = stablehlo.constant dense<1.0> : tensor<2xf32>
      %b = stablehlo.custom_call @foo(%a) : (tensor<2xf32>) -> tensor<2xf32>
      return %b : tensor<2xf32>
    })mlir")));
  EXPECT_NE(errors.find("unsupported custom_call target @foo"),
            std::string::npos)
      << errors;
  errors.clear();
  EXPECT_TRUE(failed(run(R"mlir(
    func.func @main() -> tensor<2xf8E4M3FN> {
      %a = stablehlo.constant dense<1.0> : tensor<2xf32>
      %b = stablehlo.convert %a : (tensor<2xf32>) -> tensor<2xf8E4M3FN>
      return %b : tensor<2xf8E4M3FN>
    })mlir")));
  EXPECT_NE(errors.find("unsupported element type"), std::string::npos)
      << errors;
}

TEST_F(InterpreterTest, RngStreamFollowsTheSeed) {
  // Two interpreters with one seed draw the same numbers; the two rng
  // executions of one run, and another seed, draw others.
  StringRef source = R"mlir(
    func.func @main() -> (tensor<8xf32>, tensor<8xf32>) {
      %lo = stablehlo.constant dense<0.0> : tensor<f32>
      %hi = stablehlo.constant dense<1.0> : tensor<f32>
      %n = stablehlo.constant dense<[8]> : tensor<1xi64>
      %0 = stablehlo.rng %lo, %hi, %n, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<8xf32>
      %1 = stablehlo.rng %lo, %hi, %n, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<8xf32>
      return %0, %1 : tensor<8xf32>, tensor<8xf32>
    })mlir";
  module = parseSourceString<ModuleOp>(source, ParserConfig(&context));
  ASSERT_TRUE(module);
  auto runWithSeed = [&](uint64_t seed) {
    InterpreterOptions options;
    options.rngSeed = seed;
    Interpreter interp(*module, options);
    return interp.runFunction("main", {});
  };
  auto a = runWithSeed(1), b = runWithSeed(1), c = runWithSeed(2);
  ASSERT_TRUE(succeeded(a) && succeeded(b) && succeeded(c));
  auto same = [](const Tensor &x, const Tensor &y) {
    return llvm::equal(x.floatsAs<float>(), y.floatsAs<float>());
  };
  EXPECT_TRUE(same((*a)[0], (*b)[0]));
  EXPECT_TRUE(same((*a)[1], (*b)[1]));
  EXPECT_FALSE(same((*a)[0], (*a)[1]));
  EXPECT_FALSE(same((*a)[0], (*c)[0]));
  for (double v : (*a)[0].floatsAs<float>()) {
    EXPECT_GE(v, 0.0);
    EXPECT_LT(v, 1.0);
  }
}

TEST_F(InterpreterTest, TuplesAreValues) {
  context.loadDialect<toast::stablehlo::StableHLODialect>();
  auto results =
      run(R"mlir(
    func.func @main(%t: !stablehlo.token) -> (tuple<tensor<i32>, !stablehlo.token>, tensor<i32>) {
      %i = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.tuple %i, %t : tuple<tensor<i32>, !stablehlo.token>
      %e = stablehlo.get_tuple_element %p[0] : (tuple<tensor<i32>, !stablehlo.token>) -> tensor<i32>
      return %p, %e : tuple<tensor<i32>, !stablehlo.token>, tensor<i32>
    })mlir",
          {Tensor::makeToken(toast::stablehlo::TokenType::get(&context))});
  ASSERT_TRUE(succeeded(results)) << errors;
  ASSERT_TRUE((*results)[0].isTuple());
  EXPECT_TRUE((*results)[0].getTupleElements()[1].isToken());
  EXPECT_EQ((*results)[1].getInt(0), 3);
  // A tensor where the function takes a token is an argument error.
  Tensor notAToken(*ElementType::get(IntegerType::get(&context, 32)), {});
  EXPECT_TRUE(failed(run(R"mlir(
    func.func @main(%t: !stablehlo.token) -> !stablehlo.token {
      return %t : !stablehlo.token
    })mlir",
                         {notAToken})));
  EXPECT_NE(errors.find("argument #0 of @main must have type "
                        "'!stablehlo.token', got 'tensor<i32>'"),
            std::string::npos)
      << errors;
}

} // namespace
