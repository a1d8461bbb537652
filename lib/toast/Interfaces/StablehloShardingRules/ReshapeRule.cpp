//===- ReshapeRule.cpp - The rule of stablehlo.reshape --------------------===//
//
// reshape pairs the dimensions of both shapes by running products.
//
// Size-1 dimensions are skipped: they stay unmapped. The remaining
// dimensions form groups of consecutive input dimensions and consecutive
// output dimensions with equal products, as small as possible:
//
//   * a group of one input and one output dimension (equal sizes) maps them
//     1:1 to a factor of that size;
//   * a split (B*S -> B, S), a merge (B, S -> B*S) or any group whose
//     running products form a divisibility chain (4x6 -> 2x12: 2 | 4 | 24)
//     gets one factor per step of the chain, major first. Each factor maps
//     exactly one input and one output dimension; a dimension covering
//     several steps is a *compound* dimension mapping them major to minor
//     (the merged B*S maps [B, S], printed `[ij]`). Tiling the merged
//     dimension composes its factors' tilings, B's axes then S's: a block
//     tiling exactly when S is tiled only once B is fully tiled (see
//     ShardingRule::canTileNext). Sharding S while B is partly or not tiled
//     is a strided layout of B*S that PartIR:Core cannot express: such a
//     nest is refused, and propagation moves the axis to B instead, which
//     the lowering turns into one all_to_all (ShardingState::visit);
//   * any other group (6x4 -> 4x6: 4 does not divide 6) maps only its major
//     dimensions, to one factor of size gcd(major input, major output):
//     tiling both major dimensions into n parts selects the same row-major
//     element ranges exactly when n divides that gcd. Its minor dimensions
//     stay unmapped, and so do both major ones when the gcd is 1.
//
// Shapes with a zero-sized dimension get no factors at all.
//
//===----------------------------------------------------------------------===//

#include "RuleModels.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

#include <numeric>

using namespace mlir;

namespace toast::rules {
namespace {

using stablehlo::ReshapeOp;

/// The running products of `sizes` (size-1 dimensions add no step).
SmallVector<int64_t> runningProducts(ArrayRef<int64_t> sizes) {
  SmallVector<int64_t> products;
  int64_t product = 1;
  for (int64_t size : sizes)
    products.push_back(product *= size);
  return products;
}

/// The dimension (offset into `products`) whose range of running products
/// contains the step ending at `end`.
int64_t dimOfStep(ArrayRef<int64_t> products, int64_t end) {
  for (auto [d, product] : llvm::enumerate(products))
    if (product >= end)
      return d;
  return kNoFactor;
}

/// Maps one group: input dims [inBegin, inBegin + in.size()) and output dims
/// [outBegin, outBegin + out.size()), equal products.
void addGroup(ShardingRuleBuilder &builder, ArrayRef<int64_t> in,
              ArrayRef<int64_t> out, int64_t inBegin, int64_t outBegin) {
  SmallVector<int64_t> inProducts = runningProducts(in);
  SmallVector<int64_t> outProducts = runningProducts(out);
  SmallVector<int64_t> steps(inProducts);
  llvm::append_range(steps, outProducts);
  llvm::sort(steps);
  steps.erase(llvm::unique(steps), steps.end());
  bool chain = true;
  for (size_t k = 1; k < steps.size(); ++k)
    chain &= steps[k] % steps[k - 1] == 0;
  if (!chain) {
    int64_t size = std::gcd(in.front(), out.front());
    if (size > 1)
      builder.addCompoundFactor(inBegin, outBegin, size);
    return;
  }
  int64_t previous = 1;
  for (int64_t end : steps) {
    if (end == previous)
      continue; // A size-1 dimension inside the group.
    builder.addCompoundFactor(inBegin + dimOfStep(inProducts, end),
                              outBegin + dimOfStep(outProducts, end),
                              end / previous);
    previous = end;
  }
}

struct ReshapeModel : RuleModel<ReshapeModel, ReshapeOp> {
  static std::optional<ShardingRule> build(ReshapeOp op) {
    ShardingRuleBuilder builder(op);
    ArrayRef<int64_t> in = shapeOf(op.getOperand());
    ArrayRef<int64_t> out = shapeOf(op.getResult());
    if (llvm::is_contained(in, 0) || llvm::is_contained(out, 0))
      return builder.build();
    size_t i = 0, j = 0;
    while (true) {
      while (i < in.size() && in[i] == 1)
        ++i;
      while (j < out.size() && out[j] == 1)
        ++j;
      if (i == in.size() || j == out.size())
        break;
      size_t inBegin = i, outBegin = j;
      int64_t inProduct = in[i++], outProduct = out[j++];
      while (inProduct != outProduct) {
        if (inProduct < outProduct && i < in.size())
          inProduct *= in[i++];
        else if (outProduct < inProduct && j < out.size())
          outProduct *= out[j++];
        else
          return builder.build(); // Element counts differ: invalid IR.
      }
      addGroup(builder, in.slice(inBegin, i - inBegin),
               out.slice(outBegin, j - outBegin), inBegin, outBegin);
    }
    return builder.build();
  }
};

} // namespace

void attachReshapeRule(MLIRContext &ctx) {
  ReshapeOp::attachInterface<ReshapeModel>(ctx);
}

} // namespace toast::rules
