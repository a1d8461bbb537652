//===- RngOps.cpp - rng_bit_generator and rng -----------------------------===//
//
// THREE_FRY follows XLA's counter-based generator: the state is
// [key, counter] (u64); element i of a 64-bit output is Threefry-2x32-20
// of counter + i (split into low/high 32-bit words) under the key's two
// words, and the new state is [key, counter + elements]. 32-bit outputs
// use one Threefry block per pair of elements: all first words, then all
// second words.
//
// PHILOX (and DEFAULT, which XLA's CPU and GPU backends expand to PHILOX)
// follows XLA's Philox4x32-10 generator: the state is [key, counter_lo,
// counter_hi] (u64; a 2-element state has counter_hi = 0 and keeps only the
// low word); block i is Philox4x32-10 of the 128-bit counter + i, split
// into four 32-bit words low first, under the key's two words (low first).
// 32-bit outputs take the four words of block i as elements 4i..4i+3;
// 64-bit outputs take (w1:w0) and (w3:w2) as elements 2i and 2i+1. The new
// state advances the counter by the number of blocks.
//
// `rng` is implementation-defined in the specification. Here execution k of
// an rng op (counted per interpreter, i.e. per device) draws from
// Philox4x32-10 keyed by InterpreterOptions::rngSeed (low word first), draw
// j being the block at counter (j, k) (two 64-bit words, low first):
//   * UNIFORM floats: u = (w1:w0 >> 11) * 2^-53 in [0, 1), a + (b - a) * u
//     rounded to the element type, drawn again when rounding reaches b;
//   * UNIFORM integers and booleans: a + r mod (b - a) for r = w1:w0,
//     drawn again when r falls below (2^64 - (b - a)) mod (b - a) (no
//     modulo bias);
//   * NORMAL (floats): Box-Muller, a + b * sqrt(-2 ln u1) cos(2 pi u2) with
//     u1 = ((w1:w0 >> 11) + 1) * 2^-53 in (0, 1] and u2 from w3:w2 as above.
// The results are deterministic for a seed, the same on every device and
// in every program that runs the same rng ops in the same order.
//
//===----------------------------------------------------------------------===//

#include "OpImpl.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

#include "llvm/Support/MathExtras.h"

#include <array>
#include <cmath>

using namespace mlir;
using namespace toast::interp;
using namespace toast::interp::detail;
namespace hlo = toast::stablehlo;

namespace {

uint32_t rotl32(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

/// Threefry-2x32 with 20 rounds (Salmon et al., "Parallel random numbers:
/// as easy as 1, 2, 3").
std::pair<uint32_t, uint32_t> threefry2x32(uint32_t k0, uint32_t k1,
                                           uint32_t x0, uint32_t x1) {
  static constexpr int kRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  uint32_t ks[3] = {k0, k1, 0x1BD11BDAu ^ k0 ^ k1};
  x0 += ks[0];
  x1 += ks[1];
  for (uint32_t group = 0; group < 5; ++group) {
    const int *rot = kRotations + (group % 2) * 4;
    for (int r = 0; r < 4; ++r) {
      x0 += x1;
      x1 = rotl32(x1, rot[r]);
      x1 ^= x0;
    }
    x0 += ks[(group + 1) % 3];
    x1 += ks[(group + 2) % 3] + group + 1;
  }
  return {x0, x1};
}

/// Philox4x32 with 10 rounds (Salmon et al.), on counter `x` and key `k`.
std::array<uint32_t, 4> philox4x32(std::array<uint32_t, 4> x, uint32_t k0,
                                   uint32_t k1) {
  constexpr uint64_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
  constexpr uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += kW0;
      k1 += kW1;
    }
    uint64_t p0 = kM0 * x[0], p1 = kM1 * x[2];
    x = {static_cast<uint32_t>(p1 >> 32) ^ x[1] ^ k0,
         static_cast<uint32_t>(p1),
         static_cast<uint32_t>(p0 >> 32) ^ x[3] ^ k1,
         static_cast<uint32_t>(p0)};
  }
  return x;
}

LogicalResult evalThreeFry(Operation *op, const Tensor &state,
                           Tensor &newState, Tensor &output) {
  if (state.getNumElements() != 2)
    return op->emitError("toast-run: THREE_FRY needs a 2-element 64-bit state");
  uint64_t key = state.getUInt(0), counter = state.getUInt(1);
  uint32_t k0 = static_cast<uint32_t>(key),
           k1 = static_cast<uint32_t>(key >> 32);
  int64_t n = output.getNumElements();
  unsigned width = output.getElementType().getBitWidth();
  uint64_t consumed;
  if (width == 64) {
    for (int64_t i = 0; i < n; ++i) {
      uint64_t c = counter + static_cast<uint64_t>(i);
      auto [lo, hi] = threefry2x32(k0, k1, static_cast<uint32_t>(c),
                                   static_cast<uint32_t>(c >> 32));
      output.setBits(i, (uint64_t(hi) << 32) | lo);
    }
    consumed = n;
  } else {
    int64_t pairs = (n + 1) / 2;
    for (int64_t p = 0; p < pairs; ++p) {
      uint64_t c = counter + static_cast<uint64_t>(p);
      auto [first, second] = threefry2x32(k0, k1, static_cast<uint32_t>(c),
                                          static_cast<uint32_t>(c >> 32));
      output.setBits(p, first);
      if (pairs + p < n)
        output.setBits(pairs + p, second);
    }
    consumed = pairs;
  }
  newState.setBits(0, key);
  newState.setBits(1, counter + consumed);
  return success();
}

LogicalResult evalPhilox(Operation *op, const Tensor &state, Tensor &newState,
                         Tensor &output) {
  int64_t size = state.getNumElements();
  if (size != 2 && size != 3)
    return op->emitError("toast-run: PHILOX needs a 2- or 3-element 64-bit "
                         "state");
  uint64_t key = state.getUInt(0), lo = state.getUInt(1),
           hi = size == 3 ? state.getUInt(2) : 0;
  uint32_t k0 = static_cast<uint32_t>(key),
           k1 = static_cast<uint32_t>(key >> 32);
  int64_t n = output.getNumElements();
  bool wide = output.getElementType().getBitWidth() == 64;
  int64_t perBlock = wide ? 2 : 4;
  uint64_t blocks = static_cast<uint64_t>((n + perBlock - 1) / perBlock);
  for (uint64_t b = 0; b < blocks; ++b) {
    uint64_t cLo = lo + b, cHi = hi + (cLo < lo ? 1 : 0);
    std::array<uint32_t, 4> w = philox4x32(
        {static_cast<uint32_t>(cLo), static_cast<uint32_t>(cLo >> 32),
         static_cast<uint32_t>(cHi), static_cast<uint32_t>(cHi >> 32)},
        k0, k1);
    for (int64_t j = 0; j < perBlock; ++j) {
      int64_t i = static_cast<int64_t>(b) * perBlock + j;
      if (i >= n)
        break;
      output.setBits(i, wide ? (uint64_t(w[2 * j + 1]) << 32) | w[2 * j]
                             : w[j]);
    }
  }
  uint64_t newLo = lo + blocks;
  newState.setBits(0, key);
  newState.setBits(1, newLo);
  if (size == 3)
    newState.setBits(2, hi + (newLo < lo ? 1 : 0));
  return success();
}

LogicalResult evalRngBitGenerator(Interpreter &, Operation *op,
                                  ArrayRef<Tensor> operands,
                                  SmallVectorImpl<Tensor> &results) {
  auto rng = cast<hlo::RngBitGeneratorOp>(op);
  hlo::RngAlgorithm algorithm = rng.getRngAlgorithm();
  const Tensor &state = operands[0];
  Tensor newState = makeResult(op, 0);
  Tensor output = makeResult(op, 1);
  if (state.getElementType().getBitWidth() != 64)
    return op->emitError("toast-run: rng_bit_generator needs a 64-bit state");
  unsigned width = output.getElementType().getBitWidth();
  if (width != 32 && width != 64)
    return op->emitError("toast-run: rng_bit_generator supports 32- and "
                         "64-bit outputs only, got ")
           << output.getElementType().getType();
  LogicalResult status =
      algorithm == hlo::RngAlgorithm::THREE_FRY
          ? evalThreeFry(op, state, newState, output)
          : evalPhilox(op, state, newState, output);
  if (failed(status))
    return failure();
  results.push_back(std::move(newState));
  results.push_back(std::move(output));
  return success();
}
//===--- rng -------------------------------------------------------------===//

/// Draws of one rng execution: block `j` of the stream is Philox4x32-10 at
/// counter (j, invocation) under the seed.
class RngStream {
public:
  RngStream(uint64_t seed, uint64_t invocation)
      : k0(static_cast<uint32_t>(seed)), k1(static_cast<uint32_t>(seed >> 32)),
        invocation(invocation) {}

  /// The next block as two 64-bit words (low word first).
  std::pair<uint64_t, uint64_t> next() {
    std::array<uint32_t, 4> w = philox4x32(
        {static_cast<uint32_t>(draw), static_cast<uint32_t>(draw >> 32),
         static_cast<uint32_t>(invocation),
         static_cast<uint32_t>(invocation >> 32)},
        k0, k1);
    ++draw;
    return {(uint64_t(w[1]) << 32) | w[0], (uint64_t(w[3]) << 32) | w[2]};
  }

private:
  uint32_t k0, k1;
  uint64_t invocation;
  uint64_t draw = 0;
};

/// A double in [0, 1) from the top 53 bits of `bits`.
double unitInterval(uint64_t bits) {
  return std::ldexp(double(bits >> 11), -53);
}

/// The error of an rng whose bounds `a`, `b` break `rule`.
LogicalResult boundsError(Operation *op, StringRef rule, const Tensor &a,
                          const Tensor &b) {
  return op->emitError("toast-run: rng ")
         << rule << ", got a = " << a.formatElement(0)
         << ", b = " << b.formatElement(0);
}

LogicalResult fillUniformFloat(Operation *op, RngStream &stream,
                               const Tensor &lo, const Tensor &hi,
                               Tensor &result) {
  double a = lo.getFloat(0), b = hi.getFloat(0);
  if (!std::isfinite(a) || !std::isfinite(b) || !(a < b))
    return boundsError(op, "UNIFORM needs finite bounds a < b", lo, hi);
  for (int64_t i = 0, n = result.getNumElements(); i < n; ++i) {
    // Rounding to a narrow type can reach b; draw again then.
    do
      result.setFloat(i, a + (b - a) * unitInterval(stream.next().first));
    while (result.getFloat(i) >= b);
  }
  return success();
}

LogicalResult fillUniformInt(Operation *op, RngStream &stream, const Tensor &a,
                             const Tensor &b, Tensor &result) {
  bool isSigned = a.getElementType().isSignedInt();
  bool ordered =
      isSigned ? a.getInt(0) < b.getInt(0) : a.getUInt(0) < b.getUInt(0);
  if (!ordered)
    return boundsError(op, "UNIFORM needs a < b", a, b);
  uint64_t range = b.getUInt(0) - a.getUInt(0);
  uint64_t threshold = (0 - range) % range;
  for (int64_t i = 0, n = result.getNumElements(); i < n; ++i) {
    uint64_t r;
    do
      r = stream.next().first;
    while (r < threshold);
    result.setInt(i, static_cast<int64_t>(a.getUInt(0) + r % range));
  }
  return success();
}

LogicalResult fillNormal(Operation *op, RngStream &stream, const Tensor &a,
                         const Tensor &b, Tensor &result) {
  double mean = a.getFloat(0), stddev = b.getFloat(0);
  if (!std::isfinite(mean) || !std::isfinite(stddev) || stddev < 0)
    return boundsError(op,
                       "NORMAL needs a finite mean a and a finite standard "
                       "deviation b >= 0",
                       a, b);
  for (int64_t i = 0, n = result.getNumElements(); i < n; ++i) {
    auto [w0, w1] = stream.next();
    double u1 = std::ldexp(double((w0 >> 11) + 1), -53);
    double u2 = unitInterval(w1);
    result.setFloat(i, mean + stddev * std::sqrt(-2.0 * std::log(u1)) *
                                  std::cos(2.0 * llvm::numbers::pi * u2));
  }
  return success();
}

LogicalResult evalRng(Interpreter &interp, Operation *op,
                      ArrayRef<Tensor> operands,
                      SmallVectorImpl<Tensor> &results) {
  auto rng = cast<hlo::RngOp>(op);
  const Tensor &a = operands[0], &b = operands[1], &shape = operands[2];
  Tensor result = makeResult(op);
  bool sameShape = shape.getNumElements() == result.getRank();
  for (int64_t d = 0; sameShape && d < result.getRank(); ++d)
    sameShape = shape.getInt(d) == result.getDim(d);
  if (!sameShape)
    return op->emitError("toast-run: rng shape operand differs from the "
                         "result type ")
           << result.getType();
  RngStream stream(interp.getOptions().rngSeed, interp.nextRngInvocation());
  const ElementType &type = result.getElementType();
  LogicalResult status = success();
  if (rng.getRngDistribution() == hlo::RngDistribution::NORMAL)
    status = fillNormal(op, stream, a, b, result);
  else if (type.isFloat())
    status = fillUniformFloat(op, stream, a, b, result);
  else if (type.isIntegerLike())
    status = fillUniformInt(op, stream, a, b, result);
  else
    return op->emitError("toast-run: unsupported rng element type ")
           << type.getType();
  if (failed(status))
    return failure();
  results.push_back(std::move(result));
  return success();
}
} // namespace

void toast::interp::detail::registerRngOps(OpRegistry &r) {
  r.add("stablehlo.rng_bit_generator", evalRngBitGenerator);
  r.add("stablehlo.rng", evalRng);
}
