//===- RngOps.cpp - rng_bit_generator -------------------------------------===//
//
// THREE_FRY follows XLA's counter-based generator: the state is
// [key, counter] (u64); element i of a 64-bit output is Threefry-2x32-20
// of counter + i (split into low/high 32-bit words) under the key's two
// words, and the new state is [key, counter + elements]. 32-bit outputs
// use one Threefry block per pair of elements: all first words, then all
// second words. PHILOX and DEFAULT are reported as unsupported.
//
//===----------------------------------------------------------------------===//

#include "OpImpl.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

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

LogicalResult evalRngBitGenerator(Interpreter &, Operation *op,
                                  ArrayRef<Tensor> operands,
                                  SmallVectorImpl<Tensor> &results) {
  auto rng = cast<hlo::RngBitGeneratorOp>(op);
  if (rng.getRngAlgorithm() != hlo::RngAlgorithm::THREE_FRY)
    return op->emitError("toast-run: unsupported rng_bit_generator algorithm ")
           << hlo::stringifyRngAlgorithm(rng.getRngAlgorithm())
           << " (only THREE_FRY is implemented)";
  const Tensor &state = operands[0];
  if (state.getNumElements() != 2 || state.getElementType().getBitWidth() != 64)
    return op->emitError("toast-run: THREE_FRY needs a 2-element 64-bit state");
  Tensor newState = makeResult(op, 0);
  Tensor output = makeResult(op, 1);
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
  } else if (width == 32) {
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
  } else {
    return op->emitError("toast-run: THREE_FRY supports 32- and 64-bit "
                         "outputs only, got ")
           << output.getElementType().getType();
  }
  newState.setBits(0, key);
  newState.setBits(1, counter + consumed);
  results.push_back(std::move(newState));
  results.push_back(std::move(output));
  return success();
}
} // namespace

void toast::interp::detail::registerRngOps(OpRegistry &r) {
  r.add("stablehlo.rng_bit_generator", evalRngBitGenerator);
}
