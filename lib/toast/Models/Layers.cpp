//===- Layers.cpp - Activations, normalizations, softmax, losses ---------===//

#include "toast/Models/Layers.h"

#include <cmath>

using namespace mlir;
using namespace toast;
using namespace toast::models;
using stablehlo::ComparisonDirection;

Value models::relu(GraphBuilder &b, Value x) {
  return b.max(x, b.fullLike(0.0, x));
}

Value models::gelu(GraphBuilder &b, Value x) {
  Value cube = b.mul(b.mul(x, x), x);
  Value inner = b.add(x, b.mulScalar(cube, 0.044715));
  Value t = b.tanh(b.mulScalar(inner, std::sqrt(2.0 / M_PI)));
  return b.mul(b.mulScalar(x, 0.5), b.addScalar(t, 1.0));
}

Value models::silu(GraphBuilder &b, Value x) {
  return b.mul(x, b.logistic(x));
}

Value models::mean(GraphBuilder &b, Value x, ArrayRef<int64_t> dims) {
  int64_t count = 1;
  for (int64_t d : dims)
    count *= GraphBuilder::shapeOf(x)[d];
  Value sum = b.reduceSum(x, dims);
  return b.div(sum, b.fullLike(static_cast<double>(count), sum));
}

Value models::expandTo(GraphBuilder &b, Value reduced, ArrayRef<int64_t> shape,
                       ArrayRef<int64_t> dims) {
  SmallVector<int64_t> kept;
  for (int64_t d = 0, e = shape.size(); d < e; ++d)
    if (!llvm::is_contained(dims, d))
      kept.push_back(d);
  return b.broadcastInDim(reduced, shape, kept);
}

Value models::broadcastLast(GraphBuilder &b, Value vec, ArrayRef<int64_t> shape) {
  return b.broadcastInDim(vec, shape, {static_cast<int64_t>(shape.size()) - 1});
}

Value models::softmax(GraphBuilder &b, Value x, int64_t axis) {
  Type elt = GraphBuilder::elementTypeOf(x);
  Value x32 = b.upcast(x);
  SmallVector<int64_t> shape(GraphBuilder::shapeOf(x));
  Value maxB;
  {
    // jax.nn.softmax: the shift is a stop_gradient.
    GraphBuilder::NoGradScope noGrad(b);
    maxB = expandTo(b, b.reduceMax(x32, {axis}), shape, {axis});
  }
  Value e = b.exp(b.sub(x32, maxB));
  Value sum = expandTo(b, b.reduceSum(e, {axis}), shape, {axis});
  return b.convert(b.div(e, sum), elt);
}

Value models::logSoftmax(GraphBuilder &b, Value x, int64_t axis) {
  Value x32 = b.upcast(x);
  SmallVector<int64_t> shape(GraphBuilder::shapeOf(x));
  Value maxB;
  {
    GraphBuilder::NoGradScope noGrad(b);
    maxB = expandTo(b, b.reduceMax(x32, {axis}), shape, {axis});
  }
  Value shifted = b.sub(x32, maxB);
  Value lse = b.log(b.reduceSum(b.exp(shifted), {axis}));
  return b.sub(shifted, expandTo(b, lse, shape, {axis}));
}

Value models::rmsNorm(GraphBuilder &b, Value x, Value scale, bool plusOne,
                      double eps) {
  Type elt = GraphBuilder::elementTypeOf(x);
  SmallVector<int64_t> shape(GraphBuilder::shapeOf(x));
  int64_t last = shape.size() - 1;
  Value x32 = b.upcast(x);
  Value ms = mean(b, b.mul(x32, x32), {last});
  Value inv = b.rsqrt(b.addScalar(ms, eps));
  Value normed = b.mul(x32, expandTo(b, inv, shape, {last}));
  Value s = b.convert(scale, b.computeType(x32));
  if (plusOne)
    s = b.addScalar(s, 1.0);
  return b.convert(b.mul(normed, broadcastLast(b, s, shape)), elt);
}

Value models::layerNorm(GraphBuilder &b, Value x, Value scale, Value offset,
                        double eps) {
  Type elt = GraphBuilder::elementTypeOf(x);
  SmallVector<int64_t> shape(GraphBuilder::shapeOf(x));
  int64_t last = shape.size() - 1;
  Value x32 = b.upcast(x);
  Value mu = expandTo(b, mean(b, x32, {last}), shape, {last});
  Value centered = b.sub(x32, mu);
  Value var = mean(b, b.mul(centered, centered), {last});
  Value inv = b.rsqrt(b.addScalar(var, eps));
  Value normed = b.mul(centered, expandTo(b, inv, shape, {last}));
  Type ct = b.computeType(x32);
  Value y = b.mul(normed, broadcastLast(b, b.convert(scale, ct), shape));
  y = b.add(y, broadcastLast(b, b.convert(offset, ct), shape));
  return b.convert(y, elt);
}

Value models::groupNorm(GraphBuilder &b, Value x, int64_t groups, Value scale,
                        Value offset, double eps) {
  Type elt = GraphBuilder::elementTypeOf(x);
  SmallVector<int64_t> shape(GraphBuilder::shapeOf(x));
  assert(shape.size() == 4 && "NHWC input");
  int64_t n = shape[0], h = shape[1], w = shape[2], c = shape[3];
  SmallVector<int64_t> grouped{n, h, w, groups, c / groups};
  Value xg = b.reshape(b.upcast(x), grouped);
  SmallVector<int64_t> dims{1, 2, 4};
  Value mu = expandTo(b, mean(b, xg, dims), grouped, dims);
  Value centered = b.sub(xg, mu);
  Value var = mean(b, b.mul(centered, centered), dims);
  Value inv = b.rsqrt(b.addScalar(var, eps));
  Value normed = b.reshape(b.mul(centered, expandTo(b, inv, grouped, dims)),
                           shape);
  Type ct = b.computeType(xg);
  Value y = b.mul(normed, broadcastLast(b, b.convert(scale, ct), shape));
  y = b.add(y, broadcastLast(b, b.convert(offset, ct), shape));
  return b.convert(y, elt);
}

Value models::dense(GraphBuilder &b, Value x, Value w, Value bias) {
  Value y = b.matmul(x, w);
  if (bias)
    y = b.add(y, broadcastLast(b, bias, GraphBuilder::shapeOf(y)));
  return y;
}

Value models::oneHot(GraphBuilder &b, Value indices, int64_t n,
                     Type elementType) {
  GraphBuilder::NoGradScope noGrad(b);
  SmallVector<int64_t> shape(GraphBuilder::shapeOf(indices));
  SmallVector<int64_t> dims = llvm::to_vector(llvm::seq<int64_t>(0, shape.size()));
  shape.push_back(n);
  Type idxType = GraphBuilder::elementTypeOf(indices);
  Value classes = b.iota(shape, shape.size() - 1, idxType);
  Value eq = b.compare(b.broadcastInDim(indices, shape, dims), classes,
                       ComparisonDirection::EQ);
  return b.convert(eq, elementType);
}

Value models::crossEntropy(GraphBuilder &b, Value logits, Value labels) {
  SmallVector<int64_t> shape(GraphBuilder::shapeOf(logits));
  int64_t last = shape.size() - 1;
  Value logp = logSoftmax(b, logits, last);
  Value target = oneHot(b, labels, shape[last], b.computeType(logp));
  // -sum(onehot * logp) / count
  SmallVector<int64_t> all = llvm::to_vector(llvm::seq<int64_t>(0, shape.size()));
  Value total = b.reduceSum(b.mul(target, logp), all);
  int64_t count = 1;
  for (int64_t d = 0; d < last; ++d)
    count *= shape[d];
  return b.div(b.neg(total), b.fullLike(static_cast<double>(count), total));
}

Value models::causalMask(GraphBuilder &b, int64_t queries, int64_t keys,
                         int64_t offset) {
  GraphBuilder::NoGradScope noGrad(b);
  Value q = b.iota({queries, keys}, 0, b.i32());
  if (offset)
    q = b.add(q, b.full(static_cast<double>(offset), {queries, keys}, b.i32()));
  Value k = b.iota({queries, keys}, 1, b.i32());
  return b.compare(q, k, ComparisonDirection::GE);
}

Value models::rope(GraphBuilder &b, Value x, Value positions, double base) {
  SmallVector<int64_t> shape(GraphBuilder::shapeOf(x));
  assert(shape.size() == 4 && "[B, T, H, K]");
  int64_t t = shape[1], k = shape[3], half = k / 2;
  Type elt = GraphBuilder::elementTypeOf(x);
  Value sinB, cosB;
  {
    GraphBuilder::NoGradScope noGrad(b);
    // timescale = base^(2i/K); angle[t, i] = pos[t] / timescale[i].
    Value fraction =
        b.mulScalar(b.convert(b.iota({half}, 0, b.i32()), b.f32()),
                    2.0 / static_cast<double>(k));
    Value timescale = b.pow(b.full(base, {half}, b.f32()), fraction);
    Value angle = b.div(b.broadcastInDim(positions, {t, half}, {0}),
                        b.broadcastInDim(timescale, {t, half}, {1}));
    SmallVector<int64_t> halfShape{shape[0], t, shape[2], half};
    sinB = b.broadcastInDim(b.convert(b.sin(angle), elt), halfShape, {1, 3});
    cosB = b.broadcastInDim(b.convert(b.cos(angle), elt), halfShape, {1, 3});
  }
  Value x1 = b.slice(x, {0, 0, 0, 0}, {shape[0], t, shape[2], half});
  Value x2 = b.slice(x, {0, 0, 0, half}, shape);
  Value first = b.sub(b.mul(x1, cosB), b.mul(x2, sinB));
  Value second = b.add(b.mul(x2, cosB), b.mul(x1, sinB));
  return b.concatenate({first, second}, 3);
}
