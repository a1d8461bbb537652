//===- ShardingRule.h - Factor-based partitioning rules ---------*- C++ -*-===//
//
// The single registry of per-op partitioning knowledge (design.md §2). A
// rule describes an op einsum-style with *factors*: each factor has a size
// and maps to at most one dimension of each operand and result.
//
//   * a factor that appears in a result is *parallel*: tiling it tiles the
//     result (PartIR `#tile<d>`);
//   * a factor that appears only in operands is a *reduction*: tiling it
//     yields partial results to be combined (PartIR `#sum`);
//   * a factor may be *not tileable* (sort dimension, concatenate dimension,
//     sliced or windowed dimensions, ...).
//
// PartIR's tile-mapping registry and TOAST's named-dimension identities are
// both derived from these rules.
//
// Compound dimensions (reshape): a dimension that is split or merged maps
// *several* factors, major first (Shardy's `[ij]`). operandDims/resultDims
// hold a dimension's major factor; minorFactors lists the others. Tiling a
// compound dimension composes its factors' tilings, major factor first: a
// minor factor may be tiled only once every factor before it in each of its
// dimensions is fully tiled, and a factor not once a factor after it is
// tiled (canTileNext). Only then is the dimension's tiling a block tiling;
// any other layout of it (a strided one) cannot be expressed.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_INTERFACES_SHARDINGRULE_H
#define TOAST_INTERFACES_SHARDINGRULE_H

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace toast {

/// How a factor may be partitioned.
enum class FactorKind {
  /// Appears in some result: tiling it tiles the results that map it.
  Parallel,
  /// Appears only in operands: tiling it yields partial results that must be
  /// combined with the op's reduction (`#sum` for addition).
  Reduction,
  /// Must stay whole (sort dimension, concatenated or sliced dimension...).
  NotTileable,
};

/// One einsum-style index of a rule.
struct Factor {
  int64_t size = 1;
  FactorKind kind = FactorKind::Parallel;
};

/// Sentinel: a tensor dimension that no factor maps (e.g. the minor part of
/// a reshaped dimension, or the broadcast part of a size-1 dimension).
inline constexpr int64_t kNoFactor = -1;

/// A factor that maps a dimension after (minor to) the dimension's major
/// factor, itself in operandDims/resultDims. Entries of one dimension are
/// listed major to minor.
struct MinorFactor {
  bool isResult;
  unsigned tensor;
  int64_t dim;
  int64_t factor;
};

/// A factor-based partitioning rule of one op.
struct ShardingRule {
  llvm::SmallVector<Factor> factors;
  /// operandDims[i][d] is the factor of operand i's dimension d, or
  /// kNoFactor. Non-tensor operands have an empty list.
  llvm::SmallVector<llvm::SmallVector<int64_t>> operandDims;
  /// resultDims[i][d], likewise for results.
  llvm::SmallVector<llvm::SmallVector<int64_t>> resultDims;
  /// The minor factors of compound dimensions (empty for most ops).
  llvm::SmallVector<MinorFactor> minorFactors;

  size_t getNumFactors() const { return factors.size(); }

  /// The factors of a dimension, major first: [major, minors...], or empty
  /// when the dimension is unmapped.
  llvm::SmallVector<int64_t, 2> getDimFactors(bool isResult, unsigned tensor,
                                              int64_t dim) const;

  /// Whether `factor` is a minor factor of some compound dimension.
  /// Consumers that model one factor per dimension (the NDA, the search's
  /// program model) treat such factors as unmapped, so a compound
  /// dimension is seen through its major factor only.
  bool isMinorFactor(int64_t factor) const;

  /// Whether one more tiling level on `factor` keeps every compound
  /// dimension that maps it a block tiling, given how many tiles each
  /// factor already has (`tilesOf`): every factor before it in such a
  /// dimension is fully tiled and no factor after it is tiled at all.
  bool canTileNext(int64_t factor,
                   llvm::function_ref<int64_t(int64_t)> tilesOf) const;

  /// The operand dimension mapped to `factor` (as its major or a minor
  /// factor), or kNoFactor.
  int64_t getOperandDim(unsigned operand, int64_t factor) const;
  /// The result dimension mapped to `factor`, or kNoFactor.
  int64_t getResultDim(unsigned result, int64_t factor) const;

  /// Whether every dimension of `op`'s tensors that `factor` maps has the
  /// factor's size (false for the major factor of a reshaped dimension).
  /// Only such a factor may be padded: padding a part of a dimension would
  /// interleave padding with data.
  bool spansDims(mlir::Operation *op, int64_t factor) const;

  /// Checks the invariants: dims point at valid factors, no factor maps to
  /// two dimensions of one tensor, kinds agree with where factors appear.
  mlir::LogicalResult verify(llvm::function_ref<mlir::InFlightDiagnostic()>
                                 emitError) const;

  /// Prints Shardy-like text, factors named i, j, k, ...:
  ///   ([i, k], [k, j])->([i, j]) {i=8, j=16, k=4} reduction={k}
  /// with `not_tileable={...}` when present and `_` for unmapped dims.
  void print(llvm::raw_ostream &os) const;
  std::string str() const;
};

/// Builds rules incrementally. Tensor ranks come from the op; every
/// dimension starts unmapped.
class ShardingRuleBuilder {
public:
  explicit ShardingRuleBuilder(mlir::Operation *op);

  /// Adds a factor of `size` mapped to the given operand and result
  /// dimensions (kNoFactor entries skip a tensor). The kind defaults to
  /// Parallel if some result maps it, else Reduction.
  int64_t addFactor(llvm::ArrayRef<int64_t> operandDims,
                    llvm::ArrayRef<int64_t> resultDims, int64_t size,
                    std::optional<FactorKind> kind = std::nullopt);

  /// One factor per dimension of result 0, mapped to the same dimension of
  /// every operand with the same rank (elementwise ops). Scalar operands of
  /// a non-scalar result stay unmapped.
  ShardingRuleBuilder &addPointwise();

  /// Adds a parallel factor of `size` mapped to operand dimension
  /// `operandDim` of operand 0 and result dimension `resultDim` of result 0
  /// (kNoFactor skips one); on a dimension that already maps a factor it
  /// becomes that dimension's next minor factor (reshape's compound dims).
  int64_t addCompoundFactor(int64_t operandDim, int64_t resultDim,
                            int64_t size);

  ShardingRule build() { return std::move(rule); }

private:
  mlir::Operation *op;
  ShardingRule rule;
};

/// Whether mesh axes whose sizes multiply to `tiles` may cut a dimension
/// (or factor) of `size` into per-device chunks; `axes` is how many axes
/// of size > 1 that takes (an axis of size 1 cuts nothing: its one chunk is
/// the whole dimension, so it never is the padding axis). Either they
/// divide it, or a single axis pads it: ceil(size / tiles) rows per device,
/// the last devices holding padding (docs/dialects.md). Padding over two
/// axes of one dimension is not supported, nor chunks that would be all
/// padding on most devices.
inline bool canTileDim(int64_t size, int64_t tiles, unsigned axes) {
  if (size <= 0 || tiles <= 0)
    return false;
  return size % tiles == 0 || (axes == 1 && size >= tiles);
}

/// The rule of `op`: from ShardingRuleOpInterface (own ops or external
/// models). std::nullopt when the op has no rule: it is opaque.
std::optional<ShardingRule> getShardingRule(mlir::Operation *op);

} // namespace toast

#include "toast/Interfaces/ShardingRuleOpInterface.h.inc"

#endif // TOAST_INTERFACES_SHARDINGRULE_H
