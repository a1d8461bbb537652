//===- NormOps.cpp - batch_norm_inference, _training and _grad ------------===//
//
// The batch norms with the specification's formulas. For feature c (an
// index of dimension feature_index) with N elements per feature, sums over
// the elements of feature c, and eps = epsilon in the element type:
//
//   inference  y = scale[c] * (x - mean[c]) / sqrt(var[c] + eps) + offset[c]
//   training   mean[c] = sum(x) / N, var[c] = sum((x - mean[c])^2) / N (the
//              biased variance), then the inference formula with them
//   grad       with xc = x - mean[c], stddev = sqrt(var[c] + eps):
//              grad_offset[c] = sum(dy)
//              grad_scale[c]  = sum(dy * xc / stddev)
//              dx = scale[c] / stddev / N
//                   * (N * dy - grad_offset[c] - xc * sum(dy * xc) / (var[c] +
//                   eps))
//
// Values are computed in double precision and rounded once to the element
// type.
//
//===----------------------------------------------------------------------===//

#include "OpImpl.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

#include <cmath>

using namespace mlir;
using namespace toast::interp;
using namespace toast::interp::detail;
namespace hlo = toast::stablehlo;

namespace {

/// Where the features of an operand are: element i belongs to feature
/// (i / inner) % features.
struct FeatureLayout {
  FeatureLayout(const Tensor &x, int64_t featureIndex)
      : features(x.getDim(featureIndex)), numElements(x.getNumElements()) {
    for (int64_t d = featureIndex + 1; d < x.getRank(); ++d)
      inner *= x.getDim(d);
  }
  int64_t featureOf(int64_t i) const { return (i / inner) % features; }
  /// N, the number of elements of one feature.
  double perFeature() const {
    return features ? static_cast<double>(numElements / features) : 0.0;
  }
  /// Per feature, the sum of value(i) over its elements.
  template <typename Fn> std::vector<double> sums(Fn value) const {
    std::vector<double> result(features, 0.0);
    for (int64_t i = 0; i < numElements; ++i)
      result[featureOf(i)] += value(i);
    return result;
  }

  int64_t features;
  int64_t numElements;
  int64_t inner = 1;
};

/// epsilon in the operand's element type.
double epsilonOf(Operation *op, const Tensor &x) {
  APFloat epsilon = op->getAttrOfType<FloatAttr>("epsilon").getValue();
  return roundToFormat(epsilon.convertToDouble(),
                       x.getElementType().getFloatFormat());
}

int64_t featureIndexOf(Operation *op) {
  return op->getAttrOfType<IntegerAttr>("feature_index").getInt();
}

/// The 1-D per-feature tensor of `values`, of the type of `like`.
Tensor perFeatureTensor(const Tensor &like, ArrayRef<double> values) {
  Tensor t(like.getElementType(), {static_cast<int64_t>(values.size())});
  for (auto [c, v] : llvm::enumerate(values))
    t.setFloat(c, v);
  return t;
}

/// scale * (x - mean) / sqrt(var + eps) + offset, per feature.
Tensor normalize(const Tensor &x, const FeatureLayout &layout,
                 const Tensor &scale, const Tensor &offset,
                 ArrayRef<double> mean, ArrayRef<double> var, double eps) {
  Tensor y(x.getElementType(), x.getShape());
  for (int64_t i = 0; i < layout.numElements; ++i) {
    int64_t c = layout.featureOf(i);
    y.setFloat(i, scale.getFloat(c) * (x.getFloat(i) - mean[c]) /
                          std::sqrt(var[c] + eps) +
                      offset.getFloat(c));
  }
  return y;
}

/// The values of a 1-D tensor.
std::vector<double> valuesOf(const Tensor &t) { return t.floatValues(); }

LogicalResult evalBatchNormInference(Interpreter &, Operation *op,
                                     ArrayRef<Tensor> operands,
                                     SmallVectorImpl<Tensor> &results) {
  const Tensor &x = operands[0];
  FeatureLayout layout(x, featureIndexOf(op));
  results.push_back(normalize(x, layout, operands[1], operands[2],
                              valuesOf(operands[3]), valuesOf(operands[4]),
                              epsilonOf(op, x)));
  return success();
}

LogicalResult evalBatchNormTraining(Interpreter &, Operation *op,
                                    ArrayRef<Tensor> operands,
                                    SmallVectorImpl<Tensor> &results) {
  const Tensor &x = operands[0];
  FeatureLayout layout(x, featureIndexOf(op));
  double n = layout.perFeature();
  std::vector<double> mean =
      layout.sums([&](int64_t i) { return x.getFloat(i); });
  for (double &m : mean)
    m /= n;
  std::vector<double> var = layout.sums([&](int64_t i) {
    double centered = x.getFloat(i) - mean[layout.featureOf(i)];
    return centered * centered;
  });
  for (double &v : var)
    v /= n;
  results.push_back(normalize(x, layout, operands[1], operands[2], mean, var,
                              epsilonOf(op, x)));
  results.push_back(perFeatureTensor(x, mean));
  results.push_back(perFeatureTensor(x, var));
  return success();
}

LogicalResult evalBatchNormGrad(Interpreter &, Operation *op,
                                ArrayRef<Tensor> operands,
                                SmallVectorImpl<Tensor> &results) {
  const Tensor &x = operands[0], &scale = operands[1], &dy = operands[4];
  std::vector<double> mean = valuesOf(operands[2]), var = valuesOf(operands[3]);
  FeatureLayout layout(x, featureIndexOf(op));
  double n = layout.perFeature(), eps = epsilonOf(op, x);
  auto centered = [&](int64_t i) {
    return x.getFloat(i) - mean[layout.featureOf(i)];
  };
  std::vector<double> sumDy =
      layout.sums([&](int64_t i) { return dy.getFloat(i); });
  std::vector<double> sumDyCentered =
      layout.sums([&](int64_t i) { return dy.getFloat(i) * centered(i); });
  Tensor dx(x.getElementType(), x.getShape());
  for (int64_t i = 0; i < layout.numElements; ++i) {
    int64_t c = layout.featureOf(i);
    double stddev = std::sqrt(var[c] + eps);
    double inner = n * dy.getFloat(i) - sumDy[c] -
                   centered(i) * sumDyCentered[c] / (var[c] + eps);
    dx.setFloat(i, scale.getFloat(c) / stddev / n * inner);
  }
  std::vector<double> gradScale(layout.features);
  for (int64_t c = 0; c < layout.features; ++c)
    gradScale[c] = sumDyCentered[c] / std::sqrt(var[c] + eps);
  results.push_back(std::move(dx));
  results.push_back(perFeatureTensor(x, gradScale));
  results.push_back(perFeatureTensor(x, sumDy));
  return success();
}

} // namespace

void toast::interp::detail::registerNormOps(OpRegistry &r) {
  r.add("stablehlo.batch_norm_inference", evalBatchNormInference);
  r.add("stablehlo.batch_norm_training", evalBatchNormTraining);
  r.add("stablehlo.batch_norm_grad", evalBatchNormGrad);
}
