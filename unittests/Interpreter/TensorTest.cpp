//===- TensorTest.cpp - Tests of the interpreter's value class -----------===//
//
// Rounding to bf16/f16/f32 on write (ties to even, overflow, subnormals),
// bit patterns, integer wraparound and saturation, copy-on-write storage,
// tuple and token values.
//
//===----------------------------------------------------------------------===//

#include "toast/Interpreter/Tensor.h"
#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace mlir;
using namespace toast::interp;

namespace {

class TensorTest : public ::testing::Test {
protected:
  ElementType type(Type t) { return *ElementType::get(t); }
  MLIRContext context;
  Builder b{&context};
};

TEST(FloatRoundingTest, BF16TiesToEven) {
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: the even mantissa wins.
  EXPECT_EQ(roundToFormat(1.0 + std::ldexp(1.0, -8), FloatFormat::BF16), 1.0);
  // 1 + 3 * 2^-8 is halfway between 1 + 2^-7 (odd) and 1 + 2^-6 (even).
  EXPECT_EQ(roundToFormat(1.0 + 3 * std::ldexp(1.0, -8), FloatFormat::BF16),
            1.0 + std::ldexp(1.0, -6));
  // Just above the halfway point rounds up.
  EXPECT_EQ(roundToFormat(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30),
                          FloatFormat::BF16),
            1.0 + std::ldexp(1.0, -7));
  EXPECT_EQ(roundToFormat(-2.0 - std::ldexp(1.0, -7), FloatFormat::BF16), -2.0);
  // A value of f32 that bf16 cannot hold.
  EXPECT_EQ(roundToFormat(3.14159274, FloatFormat::BF16), 3.140625);
}

TEST(FloatRoundingTest, F16OverflowAndSubnormals) {
  EXPECT_EQ(roundToFormat(65504.0, FloatFormat::F16), 65504.0);
  EXPECT_EQ(roundToFormat(65519.0, FloatFormat::F16), 65504.0);
  // 65520 is halfway to 65536, which is past the largest finite value.
  EXPECT_TRUE(std::isinf(roundToFormat(65520.0, FloatFormat::F16)));
  EXPECT_LT(roundToFormat(-1e6, FloatFormat::F16), 0.0);
  EXPECT_TRUE(std::isinf(roundToFormat(-1e6, FloatFormat::F16)));
  double tiny = std::ldexp(1.0, -24); // Smallest f16 subnormal.
  EXPECT_EQ(roundToFormat(tiny, FloatFormat::F16), tiny);
  EXPECT_EQ(roundToFormat(tiny / 2, FloatFormat::F16), 0.0); // Tie to even 0.
  EXPECT_EQ(roundToFormat(tiny * 0.75, FloatFormat::F16), tiny);
  EXPECT_EQ(roundToFormat(tiny * 2.5, FloatFormat::F16), 2 * tiny);
  EXPECT_TRUE(std::signbit(roundToFormat(-tiny / 4, FloatFormat::F16)));
}

/// Rounding as the definition says it: scale x so that the format's last
/// mantissa bit at x's exponent is the units place, round to an integer
/// (ties to even), scale back, and overflow past the largest finite value.
static double roundByScaling(double x, int mantissaBits, int bias,
                             double maxFinite) {
  if (std::isnan(x) || std::isinf(x) || x == 0.0)
    return x;
  int quantum = std::max(std::ilogb(x), 1 - bias) - mantissaBits;
  double r = std::ldexp(std::nearbyint(std::ldexp(x, -quantum)), quantum);
  return std::fabs(r) > maxFinite
             ? std::copysign(std::numeric_limits<double>::infinity(), x)
             : r;
}

TEST(FloatRoundingTest, AgreesWithScalingOnEveryKindOfValue) {
  struct Format {
    FloatFormat format;
    int mantissaBits, bias;
    double maxFinite;
  } formats[] = {{FloatFormat::F16, 10, 15, 65504.0},
                 {FloatFormat::BF16, 7, 127, std::ldexp(255.0, 120)}};
  std::mt19937_64 rng(7);
  std::vector<double> values = {std::numeric_limits<double>::denorm_min(),
                                std::numeric_limits<double>::min(),
                                std::numeric_limits<double>::max(),
                                65504.0,
                                65519.99,
                                65520.0,
                                65536.0,
                                std::ldexp(1.0, -24),
                                std::ldexp(1.0, -25),
                                std::ldexp(3.0, -26),
                                std::ldexp(255.0, 120),
                                std::ldexp(511.0, 119),
                                std::ldexp(1.0, -133),
                                std::ldexp(1.0, -134),
                                std::ldexp(3.0, -135)};
  for (int i = 0; i < 200000; ++i) {
    // Random significands at exponents around every format's range, and
    // exact halfway points between neighbours of a format.
    double significand = std::ldexp(static_cast<double>(rng() >> 11), -53);
    int exponent = static_cast<int>(rng() % 320) - 170;
    values.push_back(std::ldexp(1.0 + significand, exponent));
    int64_t k = static_cast<int64_t>(rng() % 4096);
    values.push_back(std::ldexp(static_cast<double>(2 * k + 1), exponent));
  }
  for (double v : values)
    for (double x : {v, -v})
      for (const Format &f : formats) {
        double expected =
            roundByScaling(x, f.mantissaBits, f.bias, f.maxFinite);
        double got = roundToFormat(x, f.format);
        ASSERT_EQ(std::signbit(got), std::signbit(expected)) << x;
        ASSERT_EQ(got, expected) << std::hexfloat << x;
      }
}

TEST(FloatRoundingTest, F32AndF64) {
  EXPECT_EQ(roundToFormat(0.1, FloatFormat::F32), double(0.1f));
  EXPECT_EQ(roundToFormat(0.1, FloatFormat::F64), 0.1);
  EXPECT_TRUE(std::isinf(roundToFormat(1e39, FloatFormat::F32)));
  EXPECT_TRUE(std::isnan(roundToFormat(NAN, FloatFormat::BF16)));
}

TEST(FloatBitsTest, Patterns) {
  EXPECT_EQ(floatToBits(1.0, FloatFormat::BF16), 0x3F80u);
  EXPECT_EQ(floatToBits(1.0, FloatFormat::F16), 0x3C00u);
  EXPECT_EQ(floatToBits(-0.0, FloatFormat::F16), 0x8000u);
  EXPECT_EQ(floatToBits(1.0, FloatFormat::F32), 0x3F800000u);
  EXPECT_EQ(floatToBits(std::ldexp(1.0, -24), FloatFormat::F16), 0x0001u);
  EXPECT_EQ(floatToBits(65504.0, FloatFormat::F16), 0x7BFFu);
  EXPECT_TRUE(std::isinf(bitsToFloat(0x7C00, FloatFormat::F16)));
  EXPECT_EQ(bitsToFloat(0xC000, FloatFormat::BF16), -2.0);
  // NaN payloads survive a round trip.
  double nan = bitsToFloat(0x7E01, FloatFormat::F16);
  EXPECT_TRUE(std::isnan(nan));
  EXPECT_EQ(floatToBits(nan, FloatFormat::F16), 0x7E01u);
  double snan = bitsToFloat(0x7F800001, FloatFormat::F32);
  EXPECT_TRUE(std::isnan(snan));
  EXPECT_EQ(floatToBits(snan, FloatFormat::F32), 0x7F800001u);
  for (uint64_t bits = 0; bits < 0x10000; bits += 7) {
    double v = bitsToFloat(bits, FloatFormat::BF16);
    if (!std::isnan(v)) {
      EXPECT_EQ(floatToBits(v, FloatFormat::BF16), bits);
    }
  }
}

TEST(IntegerWrapTest, Wrap) {
  EXPECT_EQ(wrapInteger(200, 8, true), -56);
  EXPECT_EQ(wrapInteger(-1, 8, false), 255);
  EXPECT_EQ(wrapInteger(65536 + 5, 16, true), 5);
  EXPECT_EQ(wrapInteger(0x80000000LL, 32, true), -2147483648LL);
  EXPECT_EQ(wrapInteger(-1, 64, false), -1); // The uint64 bit pattern.
}

TEST_F(TensorTest, WritesRoundAndWrap) {
  Tensor bf(type(b.getBF16Type()), {3});
  bf.setFloat(0, 1.00390625); // 1 + 2^-8
  bf.setFloat(1, 1e39);
  bf.setFloat(2, -0.0);
  EXPECT_EQ(bf.getFloat(0), 1.0);
  EXPECT_TRUE(std::isinf(bf.getFloat(1))); // bf16 ends at 3.39e38.
  EXPECT_TRUE(std::signbit(bf.getFloat(2)));

  Tensor i8(type(b.getIntegerType(8)), {2});
  i8.setInt(0, 200);
  i8.setInt(1, -129);
  EXPECT_EQ(i8.getInt(0), -56);
  EXPECT_EQ(i8.getInt(1), 127);

  Tensor u8(type(b.getIntegerType(8, /*isSigned=*/false)), {1});
  u8.setInt(0, -1);
  EXPECT_EQ(u8.getInt(0), 255);
  Tensor u64(type(b.getIntegerType(64, false)), {1});
  u64.setInt(0, -1);
  EXPECT_EQ(u64.getUInt(0), std::numeric_limits<uint64_t>::max());

  Tensor i1(type(b.getI1Type()), {2});
  i1.setInt(0, 2);
  EXPECT_TRUE(i1.getBool(0));
  EXPECT_FALSE(i1.getBool(1));
}

// f16, bf16 and f32 are stored as floats (every value of theirs is one),
// f64 and complex numbers as doubles. A write rounds from the double it is
// given, once: 1 + 2^-8 + 2^-30 rounds up to bf16's 1 + 2^-7, where
// rounding to a float first (1 + 2^-8, a tie) would give 1.
TEST_F(TensorTest, NarrowFloatsAreStoredAsFloatsAndRoundOnce) {
  EXPECT_TRUE(type(b.getF16Type()).storesSingle());
  EXPECT_TRUE(type(b.getBF16Type()).storesSingle());
  EXPECT_TRUE(type(b.getF32Type()).storesSingle());
  EXPECT_FALSE(type(b.getF64Type()).storesSingle());
  EXPECT_FALSE(type(ComplexType::get(b.getF32Type())).storesSingle());
  EXPECT_FALSE(type(b.getIntegerType(32)).storesSingle());

  double justAboveATie = 1 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30);
  double up = 1 + std::ldexp(1.0, -7);
  Tensor bf(type(b.getBF16Type()), {3});
  EXPECT_EQ(bf.floatsAs<float>().size(), 3u);
  bf.setFloat(0, justAboveATie);
  EXPECT_EQ(bf.getFloat(0), up);
  bf.generateFloats([&](int64_t i) { return i == 2 ? 1e39 : justAboveATie; });
  EXPECT_EQ(bf.getFloat(1), up);
  EXPECT_TRUE(std::isinf(bf.getFloat(2)));
  Tensor f16(type(b.getF16Type()), {1});
  f16.setFloat(0, 1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40));
  EXPECT_EQ(f16.getFloat(0), 1 + std::ldexp(1.0, -10));
  // f32 keeps a float's bits; f64 keeps a double's.
  Tensor f32(type(b.getF32Type()), {1}), f64(type(b.getF64Type()), {1});
  f32.setFloat(0, 0.1);
  f64.setFloat(0, 0.1);
  EXPECT_EQ(f32.getFloat(0), static_cast<double>(0.1f));
  EXPECT_EQ(f64.getFloat(0), 0.1);
  EXPECT_EQ(f64.floatsAs<double>().size(), 1u);
  // NaNs keep their bits in the float storage, signaling ones too (a
  // conversion to float and back would set their quiet bit).
  Tensor nan(type(b.getF16Type()), {2});
  nan.setBits(0, 0x7e01);
  nan.setBits(1, 0xfd01);
  EXPECT_EQ(nan.getBits(0), 0x7e01u);
  EXPECT_EQ(nan.getBits(1), 0xfd01u);
  Tensor snan(type(b.getF32Type()), {1});
  snan.setBits(0, 0x7F800001);
  EXPECT_EQ(snan.getBits(0), 0x7F800001u);
  Tensor copy(type(b.getF32Type()), {1});
  copy.copyElement(0, snan, 0);
  EXPECT_EQ(copy.getBits(0), 0x7F800001u);
}

TEST_F(TensorTest, FloatToIntegerSaturates) {
  Tensor i8(type(b.getIntegerType(8)), {5});
  i8.setFromDouble(0, 300.7);
  i8.setFromDouble(1, -1e9);
  i8.setFromDouble(2, NAN);
  i8.setFromDouble(3, -2.9);
  i8.setFromDouble(4, 127.9);
  EXPECT_EQ(i8.getInt(0), 127);
  EXPECT_EQ(i8.getInt(1), -128);
  EXPECT_EQ(i8.getInt(2), 0);
  EXPECT_EQ(i8.getInt(3), -2);
  EXPECT_EQ(i8.getInt(4), 127);
  Tensor u16(type(b.getIntegerType(16, false)), {2});
  u16.setFromDouble(0, -5.0);
  u16.setFromDouble(1, 1e9);
  EXPECT_EQ(u16.getInt(0), 0);
  EXPECT_EQ(u16.getInt(1), 65535);
}

TEST_F(TensorTest, CopyOnWriteAndReshape) {
  Tensor a(type(b.getF32Type()), {2, 3});
  a.setFloat(4, 1.5);
  Tensor c = a;
  c.setFloat(4, 2.5);
  EXPECT_EQ(a.getFloat(4), 1.5);
  EXPECT_EQ(c.getFloat(4), 2.5);
  Tensor r = a.reshaped({3, 2});
  EXPECT_EQ(r.getShape()[0], 3);
  EXPECT_EQ(r.getFloat(4), 1.5);
  EXPECT_EQ(a.getFlatIndex({1, 1}), 4);
  EXPECT_EQ(a.formatIndex(4), "[1, 1]");
  EXPECT_EQ(a.getType(), RankedTensorType::get({2, 3}, b.getF32Type()));
}

TEST_F(TensorTest, ElementFormatting) {
  Tensor f(type(b.getF32Type()), {3});
  f.setFloat(0, 0.1);
  f.setFloat(1, NAN);
  f.setFloat(2, -INFINITY);
  EXPECT_EQ(f.formatElement(0), "0.100000001");
  EXPECT_EQ(f.formatElement(1), "nan");
  EXPECT_EQ(f.formatElement(2), "-inf");
  EXPECT_FALSE(ElementType::get(b.getIndexType()).has_value());
  EXPECT_FALSE(ElementType::get(b.getType<Float8E4M3FNType>()).has_value());
}

TEST_F(TensorTest, TuplesAndTokens) {
  context.loadDialect<toast::stablehlo::StableHLODialect>();
  auto tokenType = toast::stablehlo::TokenType::get(&context);
  Tensor token = Tensor::makeToken(tokenType);
  EXPECT_TRUE(token.isToken());
  EXPECT_FALSE(token.isValid());
  EXPECT_EQ(token.getValueType(), Type(tokenType));
  Tensor x(type(b.getF32Type()), {2});
  x.setFloat(1, 1.5);
  auto tupleType = TupleType::get(&context, {x.getType(), tokenType});
  Tensor tuple = Tensor::makeTuple(tupleType, {x, token});
  EXPECT_TRUE(tuple.isTuple());
  EXPECT_FALSE(tuple.isToken());
  EXPECT_EQ(tuple.getValueType(), Type(tupleType));
  ASSERT_EQ(tuple.getTupleElements().size(), 2u);
  EXPECT_EQ(tuple.getTupleElements()[0].getFloat(1), 1.5);
  EXPECT_TRUE(tuple.getTupleElements()[1].isToken());
  std::string text;
  llvm::raw_string_ostream os(text);
  tuple.print(os);
  EXPECT_EQ(text, "tuple(tensor<2xf32> [0, 1.5], !stablehlo.token)");
  EXPECT_FALSE(Tensor().getValueType());
}

} // namespace
