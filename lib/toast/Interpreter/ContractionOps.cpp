//===- ContractionOps.cpp - dot, dot_general and convolution --------------===//
//
// Contractions run on packed, contiguous buffers:
//   * dot_general transposes its operands into [batch, m, k] and
//     [batch, k, n] and runs an i-k-j loop nest, blocked over k so that a
//     block of the right operand stays in cache while the rows of the left
//     one stream past; the innermost loop is contiguous in both the right
//     operand and the result;
//   * convolution packs the input as [batch, spatial..., feature] and the
//     kernel as [spatial..., in-feature, out-feature], so the innermost loop
//     runs over contiguous output features.
// Floats accumulate in double and round once to the result type, the
// operands read in their own storage (float or double, no widened copy);
// integers accumulate with 64-bit wraparound and wrap to the result width.
//
// einsum and unary_einsum (rare: exporters emit dot_general) run a plain
// loop over every assignment of the config's labels, adding the product of
// the operands' elements to the result element (booleans: or of ands).
//
//===----------------------------------------------------------------------===//

#include "OpImpl.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"
#include "toast/Dialect/StableHLO/IR/StablehloVerifiers.h"

#include <numeric>

using namespace mlir;
using namespace toast::interp;
using namespace toast::interp::detail;
namespace hlo = toast::stablehlo;

namespace {

/// `x` with its dimensions permuted by `perm` into a contiguous tensor.
Tensor transposed(const Tensor &x, ArrayRef<int64_t> perm) {
  bool identity = true;
  for (auto [i, p] : llvm::enumerate(perm))
    identity &= static_cast<int64_t>(i) == p;
  if (identity)
    return x;
  SmallVector<int64_t> shape, srcStrides;
  SmallVector<int64_t> strides = x.getStrides();
  for (int64_t p : perm) {
    shape.push_back(x.getDim(p));
    srcStrides.push_back(strides[p]);
  }
  Tensor result(x.getElementType(), shape);
  copyStrided(x, 0, srcStrides, result, 0, result.getStrides(), shape);
  return result;
}

/// The storage of a real tensor as values of type T (double or int64_t).
template <typename T> std::vector<T> valuesAs(const Tensor &x) {
  if constexpr (std::is_same_v<T, double>) {
    if (x.getElementType().isFloat())
      return x.floatValues();
    std::vector<double> values(x.getNumElements());
    for (int64_t i = 0, n = x.getNumElements(); i < n; ++i)
      values[i] = x.getAsDouble(i);
    return values;
  } else {
    return std::vector<int64_t>(x.ints().begin(), x.ints().end());
  }
}

/// Writes `values` (in the result's layout) into `result`, rounding.
template <typename T>
void storeValues(Tensor &result, const std::vector<T> &values) {
  if constexpr (std::is_same_v<T, double>) {
    result.generateFloats([&](int64_t i) { return values[i]; });
  } else {
    llvm::copy(values, result.mutableInts().begin());
    result.normalize();
  }
}

// The inner loop of every float contraction, y[j] += a * x[j], is cloned
// for AVX2 where the CPU has it: four doubles a step instead of SSE2's
// two. Without FMA (AVX2 alone does not enable it, and the library builds
// with -ffp-contract=off), so every product and sum rounds exactly as in
// the default clone and the results do not depend on the machine.
#if defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define TOAST_VECTOR_CLONES                                                    \
  __attribute__((target_clones("avx512f", "avx2", "default")))
#endif
#endif
#ifndef TOAST_VECTOR_CLONES
#define TOAST_VECTOR_CLONES
#endif

TOAST_VECTOR_CLONES
void axpy(double *y, double a, const double *x, int64_t n) {
  for (int64_t j = 0; j < n; ++j)
    y[j] += a * x[j];
}

TOAST_VECTOR_CLONES
void axpy(double *y, double a, const float *x, int64_t n) {
  for (int64_t j = 0; j < n; ++j)
    y[j] += a * double(x[j]);
}

/// C[b] += A[b] * B[b] for row-major A: [batch, m, k], B: [batch, k, n],
/// read in their storage type (float or double: widening is exact, so
/// reading floats in place sums the same doubles as a widened copy would,
/// without one; int64_t for integers).
template <typename TA, typename TB, typename TC>
void batchedMatmul(const TA *a, const TB *b, TC *c, int64_t batch, int64_t m,
                   int64_t k, int64_t n) {
  // Keep a block of about 256 KiB of B in cache.
  int64_t kBlock =
      std::max<int64_t>(1, (256 * 1024 / sizeof(TB)) / std::max<int64_t>(n, 1));
  for (int64_t bi = 0; bi < batch; ++bi) {
    const TA *ab = a + bi * m * k;
    const TB *bb = b + bi * k * n;
    TC *cb = c + bi * m * n;
    for (int64_t k0 = 0; k0 < k; k0 += kBlock) {
      int64_t k1 = std::min(k, k0 + kBlock);
      for (int64_t i = 0; i < m; ++i) {
        TC *crow = cb + i * n;
        const TA *arow = ab + i * k;
        for (int64_t kk = k0; kk < k1; ++kk) {
          TC av = arow[kk];
          const TB *brow = bb + kk * n;
          if constexpr (std::is_same_v<TC, int64_t>) {
            for (int64_t j = 0; j < n; ++j)
              crow[j] =
                  int64_t(uint64_t(crow[j]) + uint64_t(av) * uint64_t(brow[j]));
          } else {
            axpy(crow, av, brow, n);
          }
        }
      }
    }
  }
}

/// Calls `fn` with the elements of real tensor `x` as an ArrayRef of
/// float or double: its own storage for floats, widened values otherwise
/// (integer operands of a float contraction).
template <typename Fn> void withFloats(const Tensor &x, Fn &&fn) {
  if (x.getElementType().isFloat())
    return x.visitFloats(fn);
  std::vector<double> values = valuesAs<double>(x);
  fn(ArrayRef<double>(values));
}

/// Calls `fn` with both operands' float data (withFloats).
template <typename Fn>
void withFloats(const Tensor &x, const Tensor &y, Fn &&fn) {
  withFloats(x, [&](auto xs) {
    withFloats(y, [&](auto ys) { fn(xs.data(), ys.data()); });
  });
}

LogicalResult dotGeneral(Operation *op, const Tensor &lhs, const Tensor &rhs,
                         ArrayRef<int64_t> lhsBatch, ArrayRef<int64_t> rhsBatch,
                         ArrayRef<int64_t> lhsContract,
                         ArrayRef<int64_t> rhsContract,
                         SmallVectorImpl<Tensor> &results) {
  Tensor result = makeResult(op);
  const ElementType &type = result.getElementType();
  if (type.isComplex() || lhs.getElementType().isComplex() ||
      rhs.getElementType().isComplex())
    return op->emitError("toast-run: complex dot_general is not supported");
  auto freeDims = [](const Tensor &t, ArrayRef<int64_t> batch,
                     ArrayRef<int64_t> contract) {
    SmallVector<int64_t> dims;
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (!llvm::is_contained(batch, d) && !llvm::is_contained(contract, d))
        dims.push_back(d);
    return dims;
  };
  SmallVector<int64_t> lhsFree = freeDims(lhs, lhsBatch, lhsContract);
  SmallVector<int64_t> rhsFree = freeDims(rhs, rhsBatch, rhsContract);
  auto product = [](const Tensor &t, ArrayRef<int64_t> dims) {
    int64_t p = 1;
    for (int64_t d : dims)
      p *= t.getDim(d);
    return p;
  };
  int64_t b = product(lhs, lhsBatch), m = product(lhs, lhsFree),
          k = product(lhs, lhsContract), n = product(rhs, rhsFree);
  if (b * m * n != result.getNumElements() || b != product(rhs, rhsBatch) ||
      k != product(rhs, rhsContract))
    return op->emitError("toast-run: inconsistent dot_general shapes");
  SmallVector<int64_t> lhsPerm(lhsBatch.begin(), lhsBatch.end());
  lhsPerm.append(lhsFree);
  lhsPerm.append(lhsContract.begin(), lhsContract.end());
  SmallVector<int64_t> rhsPerm(rhsBatch.begin(), rhsBatch.end());
  rhsPerm.append(rhsContract.begin(), rhsContract.end());
  rhsPerm.append(rhsFree);
  Tensor a = transposed(lhs, lhsPerm), bm = transposed(rhs, rhsPerm);
  if (type.isFloat()) {
    std::vector<double> c(b * m * n, 0.0);
    withFloats(a, bm, [&](const auto *av, const auto *bv) {
      batchedMatmul(av, bv, c.data(), b, m, k, n);
    });
    storeValues(result, c);
  } else {
    if (!a.getElementType().isIntegerLike() ||
        !bm.getElementType().isIntegerLike())
      return op->emitError("toast-run: dot_general of floats with an integer "
                           "result is not supported");
    std::vector<int64_t> av = valuesAs<int64_t>(a), bv = valuesAs<int64_t>(bm);
    std::vector<int64_t> c(b * m * n, 0);
    batchedMatmul(av.data(), bv.data(), c.data(), b, m, k, n);
    storeValues(result, c);
  }
  results.push_back(std::move(result));
  return success();
}

LogicalResult evalDotGeneral(Interpreter &, Operation *op,
                             ArrayRef<Tensor> operands,
                             SmallVectorImpl<Tensor> &results) {
  hlo::DotDimensionNumbersAttr dn =
      cast<hlo::DotGeneralOp>(op).getDotDimensionNumbers();
  return dotGeneral(op, operands[0], operands[1], dn.getLhsBatchingDimensions(),
                    dn.getRhsBatchingDimensions(),
                    dn.getLhsContractingDimensions(),
                    dn.getRhsContractingDimensions(), results);
}

/// stablehlo.dot: vector/matrix products contracting lhs's last dimension
/// with rhs's first.
LogicalResult evalDot(Interpreter &, Operation *op, ArrayRef<Tensor> operands,
                      SmallVectorImpl<Tensor> &results) {
  int64_t lhsContract[] = {operands[0].getRank() - 1};
  int64_t rhsContract[] = {0};
  return dotGeneral(op, operands[0], operands[1], {}, {}, lhsContract,
                    rhsContract, results);
}

//===--- convolution -----------------------------------------------------===//

struct ConvGeometry {
  int64_t batch, inFeatures, outFeatures, kernelInFeatures;
  int64_t featureGroups, batchGroups;
  SmallVector<int64_t> inSpatial, kernelSpatial, outSpatial;
  SmallVector<int64_t> strides, padLow, lhsDilation, rhsDilation;
  SmallVector<bool> reversal;
};

/// The input position (flat over the spatial dims) output position
/// `outIdx` reads at kernel position `kIdx`, or -1 where that is padding
/// or between dilated input elements.
static int64_t inputPosition(const ConvGeometry &g, ArrayRef<int64_t> outIdx,
                             ArrayRef<int64_t> kIdx) {
  int64_t inFlat = 0;
  for (size_t d = 0; d < outIdx.size(); ++d) {
    int64_t k = g.reversal[d] ? g.kernelSpatial[d] - 1 - kIdx[d] : kIdx[d];
    int64_t pos = outIdx[d] * g.strides[d] - g.padLow[d] + k * g.rhsDilation[d];
    if (pos < 0 || pos % g.lhsDilation[d] != 0 ||
        pos / g.lhsDilation[d] >= g.inSpatial[d])
      return -1;
    inFlat = inFlat * g.inSpatial[d] + pos / g.lhsDilation[d];
  }
  return inFlat;
}

/// Row-major multi-index of `flat` in `shape`.
static void unflatten(int64_t flat, ArrayRef<int64_t> shape,
                      MutableArrayRef<int64_t> index) {
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
}

/// out[n', o..., f] += sum lhs[n, i..., c] * rhs[k..., c', f] over the
/// packed layouts described in the file comment. Output positions go in
/// tiles, each kernel row (one input feature's output features) serving a
/// tile before the next row is read: with a row per output position, a
/// ResNet layer streamed its whole kernel from memory for every position.
/// Every output element still sums over (kernel position, group, input
/// feature) in that order, so the result is the same to the bit.
template <typename TL, typename TR, typename T>
void convolve(const ConvGeometry &g, const TL *lhs, const TR *rhs, T *out) {
  constexpr int64_t kTile = 32;
  int64_t rank = g.inSpatial.size();
  int64_t outBatch = g.batch / g.batchGroups;
  int64_t outSpatialSize = 1, kernelSize = 1;
  for (int64_t d = 0; d < rank; ++d) {
    outSpatialSize *= g.outSpatial[d];
    kernelSize *= g.kernelSpatial[d];
  }
  int64_t inSpatialSize = 1;
  for (int64_t s : g.inSpatial)
    inSpatialSize *= s;
  int64_t groups = std::max(g.featureGroups, g.batchGroups);
  int64_t outPerGroup = g.outFeatures / groups;
  int64_t inPerGroup = g.kernelInFeatures;
  int64_t kernelRow = g.kernelInFeatures * g.outFeatures;
  SmallVector<int64_t> outIdx(kTile * rank), kIdx(rank);
  int64_t inFlat[kTile];
  for (int64_t n = 0; n < outBatch; ++n) {
    for (int64_t t0 = 0; t0 < outSpatialSize; t0 += kTile) {
      int64_t tile = std::min(kTile, outSpatialSize - t0);
      for (int64_t p = 0; p < tile; ++p)
        unflatten(t0 + p, g.outSpatial,
                  MutableArrayRef<int64_t>(outIdx).slice(p * rank, rank));
      T *outTile = out + (n * outSpatialSize + t0) * g.outFeatures;
      for (int64_t ks = 0; ks < kernelSize; ++ks) {
        unflatten(ks, g.kernelSpatial, kIdx);
        bool any = false;
        for (int64_t p = 0; p < tile; ++p) {
          inFlat[p] = inputPosition(
              g, ArrayRef<int64_t>(outIdx).slice(p * rank, rank), kIdx);
          any |= inFlat[p] >= 0;
        }
        if (!any)
          continue;
        const TR *kernel = rhs + ks * kernelRow;
        for (int64_t grp = 0; grp < groups; ++grp) {
          // Feature groups split input and output features; batch groups
          // split the batch and the output features.
          int64_t inBatch = g.batchGroups > 1 ? grp * outBatch + n : n;
          int64_t inBase = g.featureGroups > 1 ? grp * inPerGroup : 0;
          const TL *inImage = lhs + inBatch * inSpatialSize * g.inFeatures;
          int64_t o0 = grp * outPerGroup;
          for (int64_t c = 0; c < inPerGroup; ++c) {
            const TR *krow = kernel + c * g.outFeatures + o0;
            for (int64_t p = 0; p < tile; ++p) {
              if (inFlat[p] < 0)
                continue;
              T a = inImage[inFlat[p] * g.inFeatures + inBase + c];
              T *orow = outTile + p * g.outFeatures + o0;
              if constexpr (std::is_same_v<T, int64_t>) {
                for (int64_t o = 0; o < outPerGroup; ++o)
                  orow[o] = int64_t(uint64_t(orow[o]) +
                                    uint64_t(a) * uint64_t(krow[o]));
              } else {
                axpy(orow, a, krow, outPerGroup);
              }
            }
          }
        }
      }
    }
  }
}

LogicalResult evalConvolution(Interpreter &, Operation *op,
                              ArrayRef<Tensor> operands,
                              SmallVectorImpl<Tensor> &results) {
  auto conv = cast<hlo::ConvolutionOp>(op);
  hlo::ConvDimensionNumbersAttr dn = conv.getDimensionNumbers();
  const Tensor &lhs = operands[0], &rhs = operands[1];
  Tensor result = makeResult(op);
  const ElementType &type = result.getElementType();
  if (type.isComplex() || lhs.getElementType() != rhs.getElementType() ||
      lhs.getElementType().isFloat() != type.isFloat())
    return op->emitError("toast-run: unsupported convolution element types");
  int64_t rank = dn.getInputSpatialDimensions().size();
  ConvGeometry g;
  g.batch = lhs.getDim(dn.getInputBatchDimension());
  g.inFeatures = lhs.getDim(dn.getInputFeatureDimension());
  g.kernelInFeatures = rhs.getDim(dn.getKernelInputFeatureDimension());
  g.outFeatures = rhs.getDim(dn.getKernelOutputFeatureDimension());
  g.featureGroups = conv.getFeatureGroupCount();
  g.batchGroups = conv.getBatchGroupCount();
  for (int64_t d = 0; d < rank; ++d) {
    g.inSpatial.push_back(lhs.getDim(dn.getInputSpatialDimensions()[d]));
    g.kernelSpatial.push_back(rhs.getDim(dn.getKernelSpatialDimensions()[d]));
    g.outSpatial.push_back(result.getDim(dn.getOutputSpatialDimensions()[d]));
  }
  auto orOnes = [&](std::optional<ArrayRef<int64_t>> v) {
    return v ? SmallVector<int64_t>(v->begin(), v->end())
             : SmallVector<int64_t>(rank, 1);
  };
  g.strides = orOnes(conv.getWindowStrides());
  g.lhsDilation = orOnes(conv.getLhsDilation());
  g.rhsDilation = orOnes(conv.getRhsDilation());
  g.padLow.assign(rank, 0);
  if (auto padding = conv.getPadding()) {
    SmallVector<int64_t> flat(padding->getValues<int64_t>());
    for (int64_t d = 0; d < rank && 2 * d < int64_t(flat.size()); ++d)
      g.padLow[d] = flat[2 * d];
  }
  g.reversal.assign(rank, false);
  if (auto reversal = conv.getWindowReversal())
    for (int64_t d = 0; d < rank && d < int64_t(reversal->size()); ++d)
      g.reversal[d] = (*reversal)[d];
  if (g.featureGroups < 1 || g.batchGroups < 1 ||
      g.outFeatures % std::max(g.featureGroups, g.batchGroups) != 0 ||
      g.batch % g.batchGroups != 0 ||
      g.inFeatures != g.kernelInFeatures * g.featureGroups ||
      result.getDim(dn.getOutputBatchDimension()) != g.batch / g.batchGroups ||
      result.getDim(dn.getOutputFeatureDimension()) != g.outFeatures ||
      static_cast<int64_t>(g.strides.size()) != rank ||
      static_cast<int64_t>(g.lhsDilation.size()) != rank ||
      static_cast<int64_t>(g.rhsDilation.size()) != rank)
    return op->emitError("toast-run: inconsistent convolution shapes or "
                         "group counts");
  for (int64_t d = 0; d < rank; ++d)
    if (g.strides[d] < 1 || g.lhsDilation[d] < 1 || g.rhsDilation[d] < 1)
      return op->emitError("toast-run: convolution strides and dilations "
                           "must be positive");

  // Packed layouts: lhs [N, spatial..., C], rhs [spatial..., I, O],
  // out [N', spatial..., O].
  SmallVector<int64_t> lhsPerm{dn.getInputBatchDimension()};
  llvm::append_range(lhsPerm, dn.getInputSpatialDimensions());
  lhsPerm.push_back(dn.getInputFeatureDimension());
  SmallVector<int64_t> rhsPerm(dn.getKernelSpatialDimensions());
  rhsPerm.push_back(dn.getKernelInputFeatureDimension());
  rhsPerm.push_back(dn.getKernelOutputFeatureDimension());
  Tensor a = transposed(lhs, lhsPerm), k = transposed(rhs, rhsPerm);
  SmallVector<int64_t> outShape{g.batch / g.batchGroups};
  llvm::append_range(outShape, g.outSpatial);
  outShape.push_back(g.outFeatures);
  Tensor packed(type, outShape);
  if (type.isFloat()) {
    std::vector<double> ov(packed.getNumElements(), 0.0);
    withFloats(a, k, [&](const auto *av, const auto *kv) {
      convolve(g, av, kv, ov.data());
    });
    storeValues(packed, ov);
  } else {
    std::vector<int64_t> av = valuesAs<int64_t>(a), kv = valuesAs<int64_t>(k);
    std::vector<int64_t> ov(packed.getNumElements(), 0);
    convolve(g, av.data(), kv.data(), ov.data());
    storeValues(packed, ov);
  }
  // Back to the result layout: result dim r is packed dim inv[r].
  SmallVector<int64_t> outPerm(result.getRank());
  outPerm[dn.getOutputBatchDimension()] = 0;
  for (int64_t d = 0; d < rank; ++d)
    outPerm[dn.getOutputSpatialDimensions()[d]] = d + 1;
  outPerm[dn.getOutputFeatureDimension()] = rank + 1;
  results.push_back(transposed(packed, outPerm));
  return success();
}

//===--- einsum
//------------------------------------------------------------===//

/// Runs an einsum over `operands` with the labels of `config`.
LogicalResult evalEinsumConfig(Operation *op, StringRef config,
                               ArrayRef<Tensor> operands,
                               SmallVectorImpl<Tensor> &results) {
  Tensor result = makeResult(op);
  FailureOr<hlo::EinsumLabels> labels =
      hlo::analyzeEinsum([op]() { return op->emitError("toast-run: "); },
                         config, op->getOperandTypes(), result.getType());
  if (failed(labels))
    return failure();
  // A label's stride in a tensor: the sum of the strides of its dimensions
  // (several for a diagonal).
  auto labelStrides = [&](ArrayRef<int64_t> dims, ArrayRef<int64_t> strides) {
    SmallVector<int64_t> byLabel(labels->getNumLabels(), 0);
    for (auto [label, stride] : llvm::zip_equal(dims, strides))
      byLabel[label] += stride;
    return byLabel;
  };
  SmallVector<SmallVector<int64_t>> operandStrides;
  for (auto [dims, x] : llvm::zip_equal(labels->operands, operands))
    operandStrides.push_back(labelStrides(dims, x.getStrides()));
  SmallVector<int64_t> resultStrides =
      labelStrides(labels->result, result.getStrides());
  const ElementType &type = result.getElementType();
  int64_t n = result.getNumElements();
  std::vector<std::complex<double>> sums(n);
  std::vector<int64_t> intSums(n, 0);
  for (IndexIterator it(labels->sizes); !it.done(); it.next()) {
    auto flat = [&](ArrayRef<int64_t> strides) {
      int64_t i = 0;
      for (auto [index, stride] : llvm::zip_equal(it.index(), strides))
        i += index * stride;
      return i;
    };
    int64_t r = flat(resultStrides);
    if (type.isIntegerLike()) {
      uint64_t product = 1;
      for (auto [x, strides] : llvm::zip_equal(operands, operandStrides)) {
        int64_t i = flat(strides);
        product *=
            static_cast<uint64_t>(x.getElementType().isIntegerLike()
                                      ? x.getInt(i)
                                      : static_cast<int64_t>(x.getAsDouble(i)));
      }
      if (type.isBool())
        intSums[r] |= product != 0;
      else
        intSums[r] = static_cast<int64_t>(uint64_t(intSums[r]) + product);
      continue;
    }
    std::complex<double> product = 1;
    for (auto [x, strides] : llvm::zip_equal(operands, operandStrides)) {
      int64_t i = flat(strides);
      product *=
          x.getElementType().isComplex() ? x.getComplex(i) : x.getAsDouble(i);
    }
    sums[r] += product;
  }
  for (int64_t i = 0; i < n; ++i) {
    if (type.isIntegerLike())
      result.setInt(i, intSums[i]);
    else if (type.isComplex())
      result.setComplex(i, sums[i]);
    else
      result.setFloat(i, sums[i].real());
  }
  results.push_back(std::move(result));
  return success();
}

LogicalResult evalEinsum(Interpreter &, Operation *op,
                         ArrayRef<Tensor> operands,
                         SmallVectorImpl<Tensor> &results) {
  return evalEinsumConfig(op, cast<hlo::EinsumOp>(op).getEinsumConfig(),
                          operands, results);
}

LogicalResult evalUnaryEinsum(Interpreter &, Operation *op,
                              ArrayRef<Tensor> operands,
                              SmallVectorImpl<Tensor> &results) {
  return evalEinsumConfig(op, cast<hlo::UnaryEinsumOp>(op).getEinsumConfig(),
                          operands, results);
}
} // namespace

void toast::interp::detail::registerContractionOps(OpRegistry &r) {
  r.add("stablehlo.einsum", evalEinsum);
  r.add("stablehlo.unary_einsum", evalUnaryEinsum);
  r.add("stablehlo.dot", evalDot);
  r.add("stablehlo.dot_general", evalDotGeneral);
  r.add("stablehlo.convolution", evalConvolution);
}
