//===- GatherScatterRules.cpp - Rules of gather, scatter and index_select -===//
//
// Both ops pair the *batch* dimensions of the indices (all but
// index_vector_dim) with the batch dimensions of the gathered result or of
// the scattered updates, and pair slice *window* dimensions with operand
// dimensions. Only window dimensions that cover a whole operand dimension,
// and that no index addresses, are tileable: a tile then reads (or writes)
// exactly its own part of the operand.
//
//===----------------------------------------------------------------------===//

#include "RuleModels.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

using namespace mlir;

namespace toast::rules {
namespace {

using stablehlo::GatherOp;
using stablehlo::ScatterOp;
using stablehlo::TorchIndexSelectOp;

/// The dimensions in [0, rank) that are not in `excluded` (in order).
SmallVector<int64_t> complement(int64_t rank,
                                ArrayRef<ArrayRef<int64_t>> excluded) {
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    if (llvm::none_of(excluded, [&](ArrayRef<int64_t> list) {
          return llvm::is_contained(list, d);
        }))
      dims.push_back(d);
  return dims;
}

/// Position of `value` in `list`, or -1.
int64_t indexOf(ArrayRef<int64_t> list, int64_t value) {
  const auto *it = llvm::find(list, value);
  return it == list.end() ? -1 : it - list.begin();
}

/// gather(operand, indices) -> result.
///   * result batch dimension k (the k-th dimension not in offset_dims) and
///     the k-th batch dimension of the indices share a parallel factor; when
///     that indices dimension is a start_indices_batching_dim, the matching
///     operand_batching_dim joins the factor;
///   * result offset dimension offset_dims[k] maps the k-th operand
///     dimension that is neither collapsed nor a batching dimension, with a
///     parallel factor, when the slice covers that dimension whole and
///     start_index_map does not index it;
///   * every other dimension (indexed operand dimensions, partial windows,
///     index_vector_dim) stays unmapped.
/// Example, an embedding lookup: table[V, D], ids[B, S, 1] -> [B, S, D] is
/// ([_, k], [i, j, _])->([i, j, k]).
struct GatherModel : RuleModel<GatherModel, GatherOp> {
  static std::optional<ShardingRule> build(GatherOp op) {
    ShardingRuleBuilder builder(op);
    auto dims = op.getDimensionNumbers();
    ArrayRef<int64_t> operand = shapeOf(op.getOperand());
    ArrayRef<int64_t> indices = shapeOf(op.getStartIndices());
    ArrayRef<int64_t> result = shapeOf(op.getResult());
    ArrayRef<int64_t> sliceSizes = op.getSliceSizes();
    ArrayRef<int64_t> offsetDims = dims.getOffsetDims();
    int64_t indexVectorDim = dims.getIndexVectorDim();
    SmallVector<int64_t> indexBatchDims =
        complement(indices.size(), {ArrayRef<int64_t>(indexVectorDim)});
    SmallVector<int64_t> operandWindowDims =
        complement(operand.size(), {dims.getCollapsedSliceDims(),
                                    dims.getOperandBatchingDims()});
    int64_t batch = 0;
    for (int64_t r = 0, e = result.size(); r < e; ++r) {
      int64_t offset = indexOf(offsetDims, r);
      if (offset < 0) {
        if (batch >= static_cast<int64_t>(indexBatchDims.size()))
          continue;
        int64_t indexDim = indexBatchDims[batch++];
        int64_t m = indexOf(dims.getStartIndicesBatchingDims(), indexDim);
        int64_t operandDim =
            m < 0 ? kNoFactor : dims.getOperandBatchingDims()[m];
        builder.addFactor({operandDim, indexDim}, {r}, result[r],
                          FactorKind::Parallel);
        continue;
      }
      if (offset >= static_cast<int64_t>(operandWindowDims.size()))
        continue;
      int64_t o = operandWindowDims[offset];
      if (sliceSizes[o] == operand[o] &&
          !llvm::is_contained(dims.getStartIndexMap(), o))
        builder.addFactor({o, kNoFactor}, {r}, result[r], FactorKind::Parallel);
    }
    return builder.build();
  }
};

/// True when `body` is `return add(lhs, rhs)` of its two arguments: the
/// scatter accumulates, so tiling its updates yields partial sums.
bool isAddCombiner(Region &body) {
  if (!body.hasOneBlock() || body.getNumArguments() != 2)
    return false;
  Block &block = body.front();
  if (block.getOperations().size() != 2)
    return false;
  auto add = dyn_cast<stablehlo::AddOp>(block.front());
  if (!add || block.back().getNumOperands() != 1 ||
      block.back().getOperand(0) != add.getResult())
    return false;
  Value a = block.getArgument(0), b = block.getArgument(1);
  return (add.getLhs() == a && add.getRhs() == b) ||
         (add.getLhs() == b && add.getRhs() == a);
}

/// scatter(inputs..., indices, updates...) -> results... (one result per
/// input, of the input's shape). With n inputs, operands are inputs
/// [0, n), indices n, updates [n + 1, 2n + 1). For input dimension d:
///   * an input_batching_dim shares a parallel factor with its
///     scatter_indices_batching_dim, the matching update scatter dimension
///     and result dimension d;
///   * a window dimension (not inserted, not batching) whose update window
///     dimension covers it whole and that scatter_dims_to_operand_dims does
///     not index shares a parallel factor with that update dimension and
///     result dimension d;
///   * any other input dimension gets a not-tileable factor on the inputs
///     and results (results are updated copies of the inputs).
/// The remaining batch dimensions of the indices pair with the update
/// scatter dimensions. They appear in no result: for a single-input
/// scatter whose combiner is an addition they form a reduction factor (each
/// tile adds its updates; like reduce's init values, a consumer must add
/// the input once, not once per tile). For other combiners they stay
/// unmapped.
struct ScatterModel : RuleModel<ScatterModel, ScatterOp> {
  static std::optional<ShardingRule> build(ScatterOp op) {
    ShardingRuleBuilder builder(op);
    auto dims = op.getScatterDimensionNumbers();
    unsigned n = op.getInputs().size();
    if (n == 0)
      return builder.build();
    ArrayRef<int64_t> input = shapeOf(op.getInputs()[0]);
    ArrayRef<int64_t> indices = shapeOf(op.getScatterIndices());
    ArrayRef<int64_t> updates = shapeOf(op.getUpdates()[0]);
    ArrayRef<int64_t> updateWindowDims = dims.getUpdateWindowDims();
    int64_t indexVectorDim = dims.getIndexVectorDim();
    SmallVector<int64_t> indexBatchDims =
        complement(indices.size(), {ArrayRef<int64_t>(indexVectorDim)});
    SmallVector<int64_t> updateScatterDims =
        complement(updates.size(), {updateWindowDims});
    SmallVector<int64_t> inputWindowDims =
        complement(input.size(),
                   {dims.getInsertedWindowDims(), dims.getInputBatchingDims()});
    SmallVector<bool> batchUsed(indexBatchDims.size(), false);

    // Adds a factor on inputs dim `d`, indices dim `indexDim`, updates dim
    // `updateDim` and results dim `d` (any of them kNoFactor).
    auto addFactor = [&](int64_t d, int64_t indexDim, int64_t updateDim,
                         int64_t size, FactorKind kind) {
      SmallVector<int64_t> operandDims = noDims(2 * n + 1);
      SmallVector<int64_t> resultDims = noDims(n);
      for (unsigned i = 0; i < n; ++i) {
        operandDims[i] = d;
        operandDims[n + 1 + i] = updateDim;
        resultDims[i] = d;
      }
      operandDims[n] = indexDim;
      builder.addFactor(operandDims, resultDims, size, kind);
    };

    for (int64_t d = 0, e = input.size(); d < e; ++d) {
      int64_t m = indexOf(dims.getInputBatchingDims(), d);
      if (m >= 0) {
        int64_t indexDim = dims.getScatterIndicesBatchingDims()[m];
        int64_t k = indexOf(indexBatchDims, indexDim);
        int64_t updateDim = kNoFactor;
        if (k >= 0 && k < static_cast<int64_t>(updateScatterDims.size())) {
          batchUsed[k] = true;
          updateDim = updateScatterDims[k];
        }
        addFactor(d, indexDim, updateDim, input[d], FactorKind::Parallel);
        continue;
      }
      int64_t k = indexOf(inputWindowDims, d);
      if (k >= 0 && k < static_cast<int64_t>(updateWindowDims.size())) {
        int64_t u = updateWindowDims[k];
        if (updates[u] == input[d] &&
            !llvm::is_contained(dims.getScatterDimsToOperandDims(), d)) {
          addFactor(d, kNoFactor, u, input[d], FactorKind::Parallel);
          continue;
        }
      }
      addFactor(d, kNoFactor, kNoFactor, input[d], FactorKind::NotTileable);
    }

    if (n != 1 || !isAddCombiner(op.getUpdateComputation()))
      return builder.build();
    for (auto [k, indexDim] : llvm::enumerate(indexBatchDims)) {
      if (batchUsed[k] || k >= updateScatterDims.size())
        continue;
      int64_t u = updateScatterDims[k];
      addFactor(kNoFactor, indexDim, u, updates[u], FactorKind::Reduction);
    }
    return builder.build();
  }
};

/// torch_index_select(operand, index) -> result, with result shape
/// operand[:dim] ++ index[batch_dims:] ++ operand[dim + 1:]. Factors in
/// result-dimension order, all parallel:
///   * a batch dimension (< batch_dims) maps the operand, the index and the
///     result;
///   * another operand dimension maps the operand and the result;
///   * an index dimension past the batch dimensions maps the index and the
///     result.
/// The selected operand dimension `dim` stays unmapped, like the indexed
/// dimensions of gather: every index may read any of its entries.
struct TorchIndexSelectModel
    : RuleModel<TorchIndexSelectModel, TorchIndexSelectOp> {
  static std::optional<ShardingRule> build(TorchIndexSelectOp op) {
    ShardingRuleBuilder builder(op);
    ArrayRef<int64_t> out = shapeOf(op.getResult());
    int64_t dim = op.getDimAttr().getInt();
    int64_t batchDims = op.getBatchDimsAttr().getInt();
    int64_t indexRank = shapeOf(op.getIndex()).size();
    int64_t selected = indexRank - batchDims;
    for (int64_t r = 0, e = out.size(); r < e; ++r) {
      int64_t operandDim = kNoFactor, indexDim = kNoFactor;
      if (r < batchDims)
        operandDim = indexDim = r;
      else if (r < dim)
        operandDim = r;
      else if (r < dim + selected)
        indexDim = batchDims + (r - dim);
      else
        operandDim = r - selected + 1;
      builder.addFactor({operandDim, indexDim}, {r}, out[r],
                        FactorKind::Parallel);
    }
    return builder.build();
  }
};

} // namespace

void attachGatherScatterRules(MLIRContext &ctx) {
  GatherOp::attachInterface<GatherModel>(ctx);
  ScatterOp::attachInterface<ScatterModel>(ctx);
  TorchIndexSelectOp::attachInterface<TorchIndexSelectModel>(ctx);
}

} // namespace toast::rules
