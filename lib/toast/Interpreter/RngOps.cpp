//===- RngOps.cpp - rng_bit_generator -------------------------------------===//
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
//===----------------------------------------------------------------------===//

#include "OpImpl.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

#include <array>

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
} // namespace

void toast::interp::detail::registerRngOps(OpRegistry &r) {
  r.add("stablehlo.rng_bit_generator", evalRngBitGenerator);
}
