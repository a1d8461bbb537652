//===- ComputeRules.cpp - Rules of contractions and reductions ------------===//
//
// dot, dot_general, einsum, unary_einsum, convolution, reduce,
// reduce_window, select_and_scatter, the batch norms, triangular_solve,
// cholesky, fft, rng and rng_bit_generator.
//
//===----------------------------------------------------------------------===//

#include "RuleModels.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"
#include "toast/Dialect/StableHLO/IR/StablehloVerifiers.h"

using namespace mlir;

namespace toast::rules {
namespace {

using stablehlo::BatchNormGradOp;
using stablehlo::BatchNormInferenceOp;
using stablehlo::BatchNormTrainingOp;
using stablehlo::CholeskyOp;
using stablehlo::ConvolutionOp;
using stablehlo::DotGeneralOp;
using stablehlo::DotOp;
using stablehlo::EinsumOp;
using stablehlo::FftOp;
using stablehlo::ReduceOp;
using stablehlo::ReduceWindowOp;
using stablehlo::RngBitGeneratorOp;
using stablehlo::RngOp;
using stablehlo::SelectAndScatterOp;
using stablehlo::TriangularSolveOp;
using stablehlo::UnaryEinsumOp;

/// Entry `i` of an optional per-dimension attribute, `dflt` when absent.
int64_t entryOr(std::optional<ArrayRef<int64_t>> values, int64_t i,
                int64_t dflt) {
  if (!values || i >= static_cast<int64_t>(values->size()))
    return dflt;
  return (*values)[i];
}

/// Whether an [n, 2] padding attribute pads dimension `i` on either side.
bool isPadded(std::optional<DenseIntElementsAttr> padding, int64_t i) {
  if (!padding)
    return false;
  SmallVector<int64_t> flat = llvm::to_vector(padding->getValues<int64_t>());
  for (int64_t k : {2 * i, 2 * i + 1})
    if (k < static_cast<int64_t>(flat.size()) && flat[k] != 0)
      return true;
  return false;
}

/// The dimensions in [0, rank) not listed in `a` or `b`, in order.
SmallVector<int64_t> freeDims(int64_t rank, ArrayRef<int64_t> a,
                              ArrayRef<int64_t> b) {
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(a, d) && !llvm::is_contained(b, d))
      dims.push_back(d);
  return dims;
}

/// dot_general: result = batch dims, lhs free dims, rhs free dims. Factors
/// in that order: one parallel factor per batching pair (lhs, rhs, result),
/// per lhs free dim (lhs, result), per rhs free dim (rhs, result), then one
/// reduction factor per contracting pair (lhs, rhs).
struct DotGeneralModel : RuleModel<DotGeneralModel, DotGeneralOp> {
  static std::optional<ShardingRule> build(DotGeneralOp op) {
    ShardingRuleBuilder builder(op);
    auto dims = op.getDotDimensionNumbers();
    ArrayRef<int64_t> lhs = shapeOf(op.getLhs()), rhs = shapeOf(op.getRhs());
    ArrayRef<int64_t> lhsBatch = dims.getLhsBatchingDimensions(),
                      rhsBatch = dims.getRhsBatchingDimensions(),
                      lhsContract = dims.getLhsContractingDimensions(),
                      rhsContract = dims.getRhsContractingDimensions();
    int64_t r = 0;
    for (auto [l, rr] : llvm::zip(lhsBatch, rhsBatch))
      builder.addFactor({l, rr}, {r++}, lhs[l], FactorKind::Parallel);
    for (int64_t l : freeDims(lhs.size(), lhsBatch, lhsContract))
      builder.addFactor({l, kNoFactor}, {r++}, lhs[l], FactorKind::Parallel);
    for (int64_t rr : freeDims(rhs.size(), rhsBatch, rhsContract))
      builder.addFactor({kNoFactor, rr}, {r++}, rhs[rr], FactorKind::Parallel);
    for (auto [l, rr] : llvm::zip(lhsContract, rhsContract))
      builder.addFactor({l, rr}, {}, lhs[l], FactorKind::Reduction);
    return builder.build();
  }
};

/// dot (legacy): lhs [m, k] or [k], rhs [k, n] or [k]; the result is
/// [m?, n?]. m and n are parallel, k is a reduction.
struct DotModel : RuleModel<DotModel, DotOp> {
  static std::optional<ShardingRule> build(DotOp op) {
    ShardingRuleBuilder builder(op);
    ArrayRef<int64_t> lhs = shapeOf(op.getLhs()), rhs = shapeOf(op.getRhs());
    if (lhs.empty() || rhs.empty() || lhs.size() > 2 || rhs.size() > 2)
      return std::nullopt;
    int64_t r = 0;
    if (lhs.size() == 2)
      builder.addFactor({0, kNoFactor}, {r++}, lhs[0], FactorKind::Parallel);
    if (rhs.size() == 2)
      builder.addFactor({kNoFactor, 1}, {r++}, rhs[1], FactorKind::Parallel);
    builder.addFactor({static_cast<int64_t>(lhs.size()) - 1, 0}, {}, lhs.back(),
                      FactorKind::Reduction);
    return builder.build();
  }
};

/// einsum and unary_einsum: one factor per label of the config, in order of
/// first appearance, mapped to the first dimension of each operand with
/// that label and to the result dimension with it. A label of the result
/// is parallel, one only in operands a reduction (it is summed over), and
/// one repeated within an operand (a diagonal) not tileable; its further
/// dimensions in that operand stay unmapped.
template <typename OpT> struct EinsumModel : RuleModel<EinsumModel<OpT>, OpT> {
  static std::optional<ShardingRule> build(OpT op) {
    FailureOr<stablehlo::EinsumLabels> labels = stablehlo::analyzeEinsum(
        [&]() { return op.emitOpError(); }, op.getEinsumConfig(),
        op->getOperandTypes(), cast<ShapedType>(op.getType()));
    if (failed(labels))
      return std::nullopt;
    ShardingRuleBuilder builder(op);
    for (int64_t label = 0; label < labels->getNumLabels(); ++label) {
      SmallVector<int64_t> operandDims = noDims(op->getNumOperands());
      bool diagonal = false;
      for (auto [i, dims] : llvm::enumerate(labels->operands)) {
        auto it = llvm::find(dims, label);
        if (it == dims.end())
          continue;
        operandDims[i] = it - dims.begin();
        diagonal |= llvm::count(dims, label) > 1;
      }
      auto it = llvm::find(labels->result, label);
      int64_t resultDim =
          it == labels->result.end() ? kNoFactor : it - labels->result.begin();
      FactorKind kind = diagonal                 ? FactorKind::NotTileable
                        : resultDim != kNoFactor ? FactorKind::Parallel
                                                 : FactorKind::Reduction;
      builder.addFactor(operandDims, {resultDim}, labels->sizes[label], kind);
    }
    return builder.build();
  }
};

/// convolution(input, kernel) -> output. Factors, in this order:
///   * batch: input batch <-> output batch, parallel; only when
///     batch_group_count == 1 (otherwise the input batch also holds the
///     groups and both stay unmapped);
///   * one per spatial dimension: input spatial <-> output spatial. Not
///     tileable (a tile needs a halo of neighbours) unless the window is
///     trivial there: kernel size 1, stride 1, no padding and no dilation,
///     when it is parallel (a 1x1 convolution is pointwise in space). The
///     kernel's spatial dimensions stay unmapped;
///   * kernel output feature <-> output feature, parallel;
///   * input feature <-> kernel input feature, a reduction; only when
///     feature_group_count == 1 (grouped features stay unmapped).
struct ConvolutionModel : RuleModel<ConvolutionModel, ConvolutionOp> {
  static std::optional<ShardingRule> build(ConvolutionOp op) {
    ShardingRuleBuilder builder(op);
    auto dims = op.getDimensionNumbers();
    ArrayRef<int64_t> input = shapeOf(op.getLhs());
    ArrayRef<int64_t> kernel = shapeOf(op.getRhs());
    ArrayRef<int64_t> output = shapeOf(op.getResult());
    if (op.getBatchGroupCount() == 1)
      builder.addFactor({dims.getInputBatchDimension(), kNoFactor},
                        {dims.getOutputBatchDimension()},
                        output[dims.getOutputBatchDimension()],
                        FactorKind::Parallel);
    ArrayRef<int64_t> inSpatial = dims.getInputSpatialDimensions(),
                      kernelSpatial = dims.getKernelSpatialDimensions(),
                      outSpatial = dims.getOutputSpatialDimensions();
    for (auto [s, pair] :
         llvm::enumerate(llvm::zip(inSpatial, kernelSpatial, outSpatial))) {
      auto [in, k, out] = pair;
      int64_t i = s;
      bool trivial = kernel[k] == 1 && input[in] == output[out] &&
                     entryOr(op.getWindowStrides(), i, 1) == 1 &&
                     entryOr(op.getLhsDilation(), i, 1) == 1 &&
                     entryOr(op.getRhsDilation(), i, 1) == 1 &&
                     !isPadded(op.getPadding(), i);
      builder.addFactor({in, kNoFactor}, {out}, output[out],
                        trivial ? FactorKind::Parallel
                                : FactorKind::NotTileable);
    }
    int64_t outFeature = dims.getOutputFeatureDimension();
    builder.addFactor({kNoFactor, dims.getKernelOutputFeatureDimension()},
                      {outFeature}, output[outFeature], FactorKind::Parallel);
    if (op.getFeatureGroupCount() == 1)
      builder.addFactor({dims.getInputFeatureDimension(),
                         dims.getKernelInputFeatureDimension()},
                        {}, input[dims.getInputFeatureDimension()],
                        FactorKind::Reduction);
    return builder.build();
  }
};

/// reduce(inputs..., inits...) -> results...: in input-dimension order, a
/// kept dimension is a parallel factor on every input and result, a reduced
/// one a reduction factor on every input. Init values stay unmapped.
struct ReduceModel : RuleModel<ReduceModel, ReduceOp> {
  static std::optional<ShardingRule> build(ReduceOp op) {
    ShardingRuleBuilder builder(op);
    unsigned n = op.getInputs().size();
    if (n == 0)
      return builder.build();
    ArrayRef<int64_t> input = shapeOf(op.getInputs()[0]);
    ArrayRef<int64_t> reduced = op.getDimensions();
    int64_t r = 0;
    for (int64_t d = 0, e = input.size(); d < e; ++d) {
      bool isReduced = llvm::is_contained(reduced, d);
      SmallVector<int64_t> operandDims = noDims(op->getNumOperands());
      SmallVector<int64_t> resultDims = noDims(op->getNumResults());
      for (unsigned i = 0; i < n; ++i)
        operandDims[i] = d;
      if (!isReduced) {
        for (unsigned i = 0; i < op->getNumResults(); ++i)
          resultDims[i] = r;
        ++r;
      }
      builder.addFactor(operandDims, resultDims, input[d],
                        isReduced ? FactorKind::Reduction
                                  : FactorKind::Parallel);
    }
    return builder.build();
  }
};

/// reduce_window(inputs..., inits...) -> results...: a dimension whose
/// window is trivial (size 1, stride 1, no padding, no dilation) is parallel
/// on every input and result, any other is not tileable on all of them.
struct ReduceWindowModel : RuleModel<ReduceWindowModel, ReduceWindowOp> {
  static std::optional<ShardingRule> build(ReduceWindowOp op) {
    ShardingRuleBuilder builder(op);
    unsigned n = op.getInputs().size();
    if (n == 0)
      return builder.build();
    int64_t rank = shapeOf(op.getInputs()[0]).size();
    ArrayRef<int64_t> window = op.getWindowDimensions();
    auto trivial = [&](int64_t d) {
      return entryOr(window, d, 1) == 1 &&
             entryOr(op.getWindowStrides(), d, 1) == 1 &&
             entryOr(op.getBaseDilations(), d, 1) == 1 &&
             entryOr(op.getWindowDilations(), d, 1) == 1 &&
             !isPadded(op.getPadding(), d);
    };
    ArrayRef<int64_t> out = shapeOf(op->getResult(0));
    addDimwiseFactors(
        builder, op, llvm::to_vector(llvm::seq<unsigned>(0, n)),
        llvm::to_vector(llvm::seq<unsigned>(0, op->getNumResults())), rank,
        [&](int64_t d) -> std::optional<FactorKind> {
          return trivial(d) ? FactorKind::Parallel : FactorKind::NotTileable;
        },
        [&](int64_t d) { return out[d]; });
    return builder.build();
  }
};

/// select_and_scatter(operand, source, init) -> result (operand's shape):
/// the reduce_window rule over operand, source and result.
struct SelectAndScatterModel
    : RuleModel<SelectAndScatterModel, SelectAndScatterOp> {
  static std::optional<ShardingRule> build(SelectAndScatterOp op) {
    ShardingRuleBuilder builder(op);
    ArrayRef<int64_t> out = shapeOf(op.getResult());
    auto trivial = [&](int64_t d) {
      return entryOr(op.getWindowDimensions(), d, 1) == 1 &&
             entryOr(op.getWindowStrides(), d, 1) == 1 &&
             !isPadded(op.getPadding(), d);
    };
    addDimwiseFactors(
        builder, op, {0, 1}, {0}, out.size(),
        [&](int64_t d) -> std::optional<FactorKind> {
          return trivial(d) ? FactorKind::Parallel : FactorKind::NotTileable;
        },
        [&](int64_t d) { return out[d]; });
    return builder.build();
  }
};

/// The batch norms in one scheme: one factor per operand dimension, mapped
/// to that dimension of the full-shape operands and results (`full`). The
/// non-feature dimensions come first, of kind `otherKind`; the feature
/// dimension's factor comes last, is parallel (every feature is normalized
/// on its own) and also maps dimension 0 of the per-feature tensors
/// (`perFeature`).
void addBatchNormFactors(ShardingRuleBuilder &builder, Operation *op,
                         int64_t featureIndex, ArrayRef<unsigned> fullOperands,
                         ArrayRef<unsigned> featureOperands,
                         ArrayRef<unsigned> fullResults,
                         ArrayRef<unsigned> featureResults,
                         FactorKind otherKind) {
  ArrayRef<int64_t> shape = shapeOf(op->getOperand(0));
  addDimwiseFactors(
      builder, op, fullOperands, fullResults, shape.size(),
      [&](int64_t d) -> std::optional<FactorKind> {
        if (d == featureIndex)
          return std::nullopt;
        return otherKind;
      },
      [&](int64_t d) { return shape[d]; });
  SmallVector<int64_t> operandDims = noDims(op->getNumOperands());
  SmallVector<int64_t> resultDims = noDims(op->getNumResults());
  for (unsigned i : fullOperands)
    operandDims[i] = featureIndex;
  for (unsigned i : featureOperands)
    operandDims[i] = 0;
  for (unsigned i : fullResults)
    resultDims[i] = featureIndex;
  for (unsigned i : featureResults)
    resultDims[i] = 0;
  builder.addFactor(operandDims, resultDims, shape[featureIndex],
                    FactorKind::Parallel);
}

/// batch_norm_inference(operand, scale, offset, mean, variance) -> result:
/// elementwise given the per-feature statistics, so every dimension is
/// parallel; the feature factor also maps the four per-feature operands.
struct BatchNormInferenceModel
    : RuleModel<BatchNormInferenceModel, BatchNormInferenceOp> {
  static std::optional<ShardingRule> build(BatchNormInferenceOp op) {
    ShardingRuleBuilder builder(op);
    addBatchNormFactors(builder, op, op.getFeatureIndexAttr().getInt(), {0},
                        {1, 2, 3, 4}, {0}, {}, FactorKind::Parallel);
    return builder.build();
  }
};

/// batch_norm_training(operand, scale, offset) -> (output, batch_mean,
/// batch_var): the statistics are taken over every dimension but the
/// feature dimension, and the output depends on them, so those dimensions
/// are not tileable (the variance of a tile is not a partial sum of the
/// whole's). The feature dimension is parallel on everything.
struct BatchNormTrainingModel
    : RuleModel<BatchNormTrainingModel, BatchNormTrainingOp> {
  static std::optional<ShardingRule> build(BatchNormTrainingOp op) {
    ShardingRuleBuilder builder(op);
    addBatchNormFactors(builder, op, op.getFeatureIndexAttr().getInt(), {0},
                        {1, 2}, {0}, {1, 2}, FactorKind::NotTileable);
    return builder.build();
  }
};

/// batch_norm_grad(operand, scale, mean, variance, grad_output) ->
/// (grad_operand, grad_scale, grad_offset): the gradients of scale and
/// offset are sums over the non-feature dimensions, and grad_operand uses
/// them, so those dimensions are not tileable; the feature dimension is
/// parallel on everything.
struct BatchNormGradModel : RuleModel<BatchNormGradModel, BatchNormGradOp> {
  static std::optional<ShardingRule> build(BatchNormGradOp op) {
    ShardingRuleBuilder builder(op);
    addBatchNormFactors(builder, op, op.getFeatureIndexAttr().getInt(), {0, 4},
                        {1, 2, 3}, {0}, {1, 2}, FactorKind::NotTileable);
    return builder.build();
  }
};

/// Linear algebra on the two minor dimensions: leading (batch) dimensions
/// are parallel on `operands` and the result, the last two not tileable.
void addBatchedMatrixFactors(ShardingRuleBuilder &builder, Operation *op,
                             ArrayRef<unsigned> batchOperands,
                             ArrayRef<unsigned> matrixOperands) {
  ArrayRef<int64_t> out = shapeOf(op->getResult(0));
  int64_t rank = out.size();
  addDimwiseFactors(
      builder, op, batchOperands, {0}, rank - 2,
      [](int64_t) { return FactorKind::Parallel; },
      [&](int64_t d) { return out[d]; });
  for (int64_t d = std::max<int64_t>(rank - 2, 0); d < rank; ++d) {
    SmallVector<int64_t> operandDims = noDims(op->getNumOperands());
    for (unsigned i : matrixOperands)
      operandDims[i] = d;
    builder.addFactor(operandDims, {d}, out[d], FactorKind::NotTileable);
  }
}

/// triangular_solve(a, b) -> x (b's shape): batch dimensions parallel on a,
/// b and x; the matrix dimensions of b and x are not tileable, those of a
/// stay unmapped.
struct TriangularSolveModel
    : RuleModel<TriangularSolveModel, TriangularSolveOp> {
  static std::optional<ShardingRule> build(TriangularSolveOp op) {
    ShardingRuleBuilder builder(op);
    addBatchedMatrixFactors(builder, op, {0, 1}, {1});
    return builder.build();
  }
};

/// cholesky(a) -> l: batch dimensions parallel, matrix dimensions not
/// tileable.
struct CholeskyModel : RuleModel<CholeskyModel, CholeskyOp> {
  static std::optional<ShardingRule> build(CholeskyOp op) {
    ShardingRuleBuilder builder(op);
    addBatchedMatrixFactors(builder, op, {0}, {0});
    return builder.build();
  }
};

/// fft: the transformed (minor, len(fft_length)) dimensions are not
/// tileable; the leading dimensions are parallel.
struct FftModel : RuleModel<FftModel, FftOp> {
  static std::optional<ShardingRule> build(FftOp op) {
    ShardingRuleBuilder builder(op);
    ArrayRef<int64_t> out = shapeOf(op->getResult(0));
    int64_t rank = out.size();
    int64_t firstFft = rank - static_cast<int64_t>(op.getFftLength().size());
    addDimwiseFactors(
        builder, op, {0}, {0}, rank,
        [&](int64_t d) -> std::optional<FactorKind> {
          return d >= firstFft ? FactorKind::NotTileable : FactorKind::Parallel;
        },
        [&](int64_t d) { return out[d]; });
    return builder.build();
  }
};

} // namespace

void attachComputeRules(MLIRContext &ctx) {
  DotOp::attachInterface<DotModel>(ctx);
  DotGeneralOp::attachInterface<DotGeneralModel>(ctx);
  EinsumOp::attachInterface<EinsumModel<EinsumOp>>(ctx);
  UnaryEinsumOp::attachInterface<EinsumModel<UnaryEinsumOp>>(ctx);
  ConvolutionOp::attachInterface<ConvolutionModel>(ctx);
  ReduceOp::attachInterface<ReduceModel>(ctx);
  ReduceWindowOp::attachInterface<ReduceWindowModel>(ctx);
  SelectAndScatterOp::attachInterface<SelectAndScatterModel>(ctx);
  TriangularSolveOp::attachInterface<TriangularSolveModel>(ctx);
  CholeskyOp::attachInterface<CholeskyModel>(ctx);
  FftOp::attachInterface<FftModel>(ctx);
  BatchNormInferenceOp::attachInterface<BatchNormInferenceModel>(ctx);
  BatchNormTrainingOp::attachInterface<BatchNormTrainingModel>(ctx);
  BatchNormGradOp::attachInterface<BatchNormGradModel>(ctx);
  // Random bits depend on the generator state as a whole and on the
  // positions of the output elements: splitting the output would change
  // the stream. Opaque; so is rng, whose stream is the interpreter's.
  RngBitGeneratorOp::attachInterface<OpaqueModel<RngBitGeneratorOp>>(ctx);
  RngOp::attachInterface<OpaqueModel<RngOp>>(ctx);
}

} // namespace toast::rules
