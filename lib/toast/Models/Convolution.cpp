//===- Convolution.cpp - 2-D convolution and its VJP ----------------------===//
//
// conv2d(x [N,H,W,Ci], k [KH,KW,Ci,Co]) with a stride and symmetric padding,
// dimension numbers [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f] as flax emits.
// The VJPs are JAX's:
//   dx = conv(g dilated by the stride, reverse(k) with i/o swapped),
//        padding (KH - 1 - p, H + KH - 1 - ((H'-1) s + 1) - (KH - 1 - p))
//   dk = conv(x with batch/feature swapped, g as kernel, rhs dilation s),
//        padding (p, (H'-1) s + 1 - H + KH - p - 1), output [0, 1, b, f].
//
//===----------------------------------------------------------------------===//

#include "toast/Models/GraphBuilder.h"

using namespace mlir;
using namespace toast;
using namespace toast::models;

Value GraphBuilder::convolution(Value lhs, Value rhs,
                                stablehlo::ConvDimensionNumbersAttr dims,
                                ArrayRef<int64_t> resultShape,
                                ArrayRef<int64_t> strides,
                                ArrayRef<int64_t> padding,
                                ArrayRef<int64_t> lhsDilation,
                                ArrayRef<int64_t> rhsDilation) {
  int64_t spatial = strides.size();
  auto padType = RankedTensorType::get({spatial, 2}, builder.getI64Type());
  auto precision =
      stablehlo::PrecisionAttr::get(ctx, stablehlo::Precision::DEFAULT);
  return stablehlo::ConvolutionOp::create(
      builder, loc, tensorType(resultShape, elementTypeOf(lhs)), lhs, rhs,
      builder.getDenseI64ArrayAttr(strides),
      DenseIntElementsAttr::get(padType, padding),
      builder.getDenseI64ArrayAttr(lhsDilation),
      builder.getDenseI64ArrayAttr(rhsDilation), /*window_reversal=*/nullptr,
      dims, /*feature_group_count=*/1, /*batch_group_count=*/1,
      builder.getArrayAttr({precision, precision}));
}

Value GraphBuilder::conv2d(Value input, Value kernel, const Conv2DSpec &spec) {
  ArrayRef<int64_t> xs = shapeOf(input), ks = shapeOf(kernel);
  assert(xs.size() == 4 && ks.size() == 4 && xs[3] == ks[2] &&
         "NHWC input and HWIO kernel");
  int64_t s = spec.stride, p = spec.padding;
  SmallVector<int64_t> outShape{xs[0], (xs[1] + 2 * p - ks[0]) / s + 1,
                                (xs[2] + 2 * p - ks[1]) / s + 1, ks[3]};
  auto nhwc = stablehlo::ConvDimensionNumbersAttr::get(
      ctx, 0, 3, {1, 2}, 2, 3, {0, 1}, 0, 3, {1, 2});
  Value r = convolution(input, kernel, nhwc, outShape, {s, s}, {p, p, p, p},
                        {1, 1}, {1, 1});

  SmallVector<int64_t> inShape(xs), kShape(ks);
  record(r, {input, kernel}, [this, input, kernel, inShape, kShape, outShape,
                              s, p](Value g, ArrayRef<bool> need) {
    SmallVector<Value, 3> grads(2);
    if (need[0]) {
      // Kernel [KH, KW, Ci, Co] read as [0, 1, o, i].
      auto dims = stablehlo::ConvDimensionNumbersAttr::get(
          ctx, 0, 3, {1, 2}, 3, 2, {0, 1}, 0, 3, {1, 2});
      SmallVector<int64_t> pad;
      for (int d = 0; d < 2; ++d) {
        int64_t before = kShape[d] - 1 - p;
        int64_t outDilated = (outShape[1 + d] - 1) * s + 1;
        int64_t after = inShape[1 + d] + kShape[d] - 1 - outDilated - before;
        pad.append({before, after});
      }
      Value flipped = reverse(kernel, {0, 1});
      grads[0] = convolution(g, flipped, dims, inShape, {1, 1}, pad, {s, s},
                             {1, 1});
    }
    if (need[1]) {
      // x as [f, 0, 1, b] (features are the batch), g as the kernel
      // [i=b, 0, 1, o=f], result [0, 1, b, f] = [KH, KW, Ci, Co].
      auto dims = stablehlo::ConvDimensionNumbersAttr::get(
          ctx, 3, 0, {1, 2}, 0, 3, {1, 2}, 2, 3, {0, 1});
      SmallVector<int64_t> pad;
      for (int d = 0; d < 2; ++d) {
        int64_t outDilated = (outShape[1 + d] - 1) * s + 1;
        pad.append({p, outDilated - inShape[1 + d] + kShape[d] - p - 1});
      }
      grads[1] = convolution(input, g, dims, kShape, {1, 1}, pad, {1, 1},
                             {s, s});
    }
    return grads;
  });
  return r;
}
