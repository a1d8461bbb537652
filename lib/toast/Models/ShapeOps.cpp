//===- ShapeOps.cpp - Data-movement emitters and their VJPs --------------===//
//
// broadcast_in_dim, reshape, transpose, slice, pad, concatenate, reverse,
// gather (embedding lookup) and scatter-add (segment sum), dynamic slices.
// The VJPs are the transposes JAX uses: broadcast <-> reduce-sum, slice <->
// pad, gather <-> scatter-add.
//
//===----------------------------------------------------------------------===//

#include "toast/Models/GraphBuilder.h"

using namespace mlir;
using namespace toast;
using namespace toast::models;

Value GraphBuilder::broadcastInDim(Value a, ArrayRef<int64_t> shape,
                                   ArrayRef<int64_t> dims) {
  assert(dims.size() == shapeOf(a).size() && "one result dim per operand dim");
  if (shape == shapeOf(a) && llvm::equal(dims, llvm::seq<int64_t>(0, dims.size())))
    return a;
  Value r = stablehlo::BroadcastInDimOp::create(
      builder, loc, tensorType(shape, elementTypeOf(a)), a,
      builder.getDenseI64ArrayAttr(dims));
  SmallVector<int64_t> dimsCopy(dims);
  record(r, {a}, [this, a, dimsCopy](Value g, ArrayRef<bool>) {
    return SmallVector<Value, 3>{unbroadcast(g, a, dimsCopy)};
  });
  return r;
}

Value GraphBuilder::unbroadcast(Value g, Value like, ArrayRef<int64_t> dims) {
  // Sum over result dimensions that no operand dimension maps to, and over
  // size-1 operand dimensions that were expanded.
  ArrayRef<int64_t> gShape = shapeOf(g);
  ArrayRef<int64_t> likeShape = shapeOf(like);
  SmallVector<int64_t> summed;
  for (int64_t d = 0, e = gShape.size(); d < e; ++d) {
    auto *it = llvm::find(dims, d);
    if (it == dims.end()) {
      summed.push_back(d);
      continue;
    }
    int64_t operandDim = it - dims.begin();
    if (likeShape[operandDim] == 1 && gShape[d] != 1)
      summed.push_back(d);
  }
  Value r = summed.empty() ? g : reduceSum(g, summed);
  if (shapeOf(r) != likeShape)
    r = reshape(r, likeShape);
  return r;
}

Value GraphBuilder::reshape(Value a, ArrayRef<int64_t> shape) {
  if (shapeOf(a) == shape)
    return a;
  Value r = stablehlo::ReshapeOp::create(
      builder, loc, tensorType(shape, elementTypeOf(a)), a);
  SmallVector<int64_t> from(shapeOf(a));
  record(r, {a}, [this, from](Value g, ArrayRef<bool>) {
    return SmallVector<Value, 3>{reshape(g, from)};
  });
  return r;
}

Value GraphBuilder::transpose(Value a, ArrayRef<int64_t> perm) {
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return a;
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(shapeOf(a)[p]);
  Value r = stablehlo::TransposeOp::create(
      builder, loc, tensorType(shape, elementTypeOf(a)), a, perm);
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = i;
  record(r, {a}, [this, inverse](Value g, ArrayRef<bool>) {
    return SmallVector<Value, 3>{transpose(g, inverse)};
  });
  return r;
}

Value GraphBuilder::slice(Value a, ArrayRef<int64_t> start,
                          ArrayRef<int64_t> limit) {
  SmallVector<int64_t> shape, strides(start.size(), 1);
  for (auto [s, l] : llvm::zip_equal(start, limit))
    shape.push_back(l - s);
  Value r = stablehlo::SliceOp::create(
      builder, loc, tensorType(shape, elementTypeOf(a)), a, start, limit,
      strides);
  SmallVector<int64_t> low(start), high;
  for (auto [l, size] : llvm::zip_equal(limit, shapeOf(a)))
    high.push_back(size - l);
  record(r, {a}, [this, low, high](Value g, ArrayRef<bool>) {
    return SmallVector<Value, 3>{pad(g, 0.0, low, high)};
  });
  return r;
}

Value GraphBuilder::index(Value a, int64_t dim, int64_t idx) {
  SmallVector<int64_t> start(rankOf(a), 0), limit(shapeOf(a));
  start[dim] = idx;
  limit[dim] = idx + 1;
  SmallVector<int64_t> shape(shapeOf(a));
  shape.erase(shape.begin() + dim);
  return reshape(slice(a, start, limit), shape);
}

Value GraphBuilder::pad(Value a, double value, ArrayRef<int64_t> low,
                        ArrayRef<int64_t> high) {
  SmallVector<int64_t> shape, interior(low.size(), 0);
  for (auto [s, l, h] : llvm::zip_equal(shapeOf(a), low, high))
    shape.push_back(s + l + h);
  Value padValue = scalar(value, elementTypeOf(a));
  Value r = stablehlo::PadOp::create(builder, loc,
                                     tensorType(shape, elementTypeOf(a)), a,
                                     padValue, low, high, interior);
  SmallVector<int64_t> start(low), limit;
  for (auto [l, s] : llvm::zip_equal(low, shapeOf(a)))
    limit.push_back(l + s);
  record(r, {a}, [this, start, limit](Value g, ArrayRef<bool>) {
    return SmallVector<Value, 3>{slice(g, start, limit)};
  });
  return r;
}

Value GraphBuilder::concatenate(ArrayRef<Value> values, int64_t dim) {
  SmallVector<int64_t> shape(shapeOf(values.front()));
  shape[dim] = 0;
  for (Value v : values)
    shape[dim] += shapeOf(v)[dim];
  Value r = stablehlo::ConcatenateOp::create(
      builder, loc, tensorType(shape, elementTypeOf(values.front())), values,
      dim);
  SmallVector<Value> inputs(values);
  record(r, inputs, [this, inputs, dim](Value g, ArrayRef<bool> need) {
    SmallVector<Value, 3> grads;
    int64_t offset = 0;
    for (auto [v, needed] : llvm::zip_equal(inputs, need)) {
      SmallVector<int64_t> start(rankOf(g), 0), limit(shapeOf(g));
      start[dim] = offset;
      limit[dim] = offset + shapeOf(v)[dim];
      offset = limit[dim];
      grads.push_back(needed ? slice(g, start, limit) : Value());
    }
    return grads;
  });
  return r;
}

Value GraphBuilder::reverse(Value a, ArrayRef<int64_t> dims) {
  Value r = stablehlo::ReverseOp::create(builder, loc, a.getType(), a, dims);
  SmallVector<int64_t> dimsCopy(dims);
  record(r, {a}, [this, dimsCopy](Value g, ArrayRef<bool>) {
    return SmallVector<Value, 3>{reverse(g, dimsCopy)};
  });
  return r;
}

/// Region `(a, b) -> a + b` over rank-0 tensors of `elt`.
static void buildAddRegion(OpBuilder &builder, Location loc, Region &region,
                           Type elt) {
  OpBuilder::InsertionGuard guard(builder);
  auto scalarType = RankedTensorType::get({}, elt);
  Block *block = builder.createBlock(&region, {}, {scalarType, scalarType},
                                     {loc, loc});
  Value sum = stablehlo::AddOp::create(builder, loc, scalarType,
                                       block->getArgument(0),
                                       block->getArgument(1));
  stablehlo::ReturnOp::create(builder, loc, sum);
}

Value GraphBuilder::take(Value table, Value indices) {
  // JAX: idx[..., None] then gather of one row per index.
  int64_t batchRank = rankOf(indices);
  SmallVector<int64_t> idxShape(shapeOf(indices));
  idxShape.push_back(1);
  Value idx;
  {
    NoGradScope noGrad(*this);
    idx = reshape(indices, idxShape);
  }
  SmallVector<int64_t> resultShape(shapeOf(indices));
  SmallVector<int64_t> sliceSizes{1}, offsetDims;
  for (int64_t d = 1, e = rankOf(table); d < e; ++d) {
    resultShape.push_back(shapeOf(table)[d]);
    sliceSizes.push_back(shapeOf(table)[d]);
    offsetDims.push_back(batchRank + d - 1);
  }
  auto dims = stablehlo::GatherDimensionNumbersAttr::get(
      ctx, offsetDims, /*collapsedSliceDims=*/{0}, {}, {},
      /*startIndexMap=*/{0}, /*indexVectorDim=*/batchRank);
  Value r = stablehlo::GatherOp::create(
      builder, loc, tensorType(resultShape, elementTypeOf(table)), table, idx,
      dims, sliceSizes, /*indices_are_sorted=*/false);
  int64_t rows = shapeOf(table)[0];
  record(r, {table, indices}, [this, indices, rows](Value g, ArrayRef<bool>) {
    // Flatten the index dimensions and scatter-add the rows back.
    int64_t n = 1;
    for (int64_t s : shapeOf(indices))
      n *= s;
    SmallVector<int64_t> flat{n};
    llvm::append_range(flat, shapeOf(g).drop_front(rankOf(indices)));
    Value flatIdx;
    {
      NoGradScope noGrad(*this);
      flatIdx = reshape(indices, {n});
    }
    return SmallVector<Value, 3>{scatterAdd(reshape(g, flat), flatIdx, rows),
                                 Value()};
  });
  return r;
}

Value GraphBuilder::scatterAdd(Value updates, Value indices,
                               int64_t numSegments) {
  SmallVector<int64_t> shape(shapeOf(updates));
  shape[0] = numSegments;
  Type elt = elementTypeOf(updates);
  Value zeros, idx;
  {
    NoGradScope noGrad(*this);
    zeros = full(0.0, shape, elt);
    idx = reshape(indices, {shapeOf(indices)[0], 1});
  }
  SmallVector<int64_t> windowDims;
  for (int64_t d = 1, e = shape.size(); d < e; ++d)
    windowDims.push_back(d);
  auto dims = stablehlo::ScatterDimensionNumbersAttr::get(
      ctx, windowDims, /*insertedWindowDims=*/{0}, {}, {},
      /*scatterDimsToOperandDims=*/{0}, /*indexVectorDim=*/1);
  auto op = stablehlo::ScatterOp::create(
      builder, loc, TypeRange{tensorType(shape, elt)}, ValueRange{zeros}, idx,
      ValueRange{updates}, dims, /*indices_are_sorted=*/false,
      /*unique_indices=*/false);
  buildAddRegion(builder, loc, op.getUpdateComputation(), elt);
  Value r = op->getResult(0);
  record(r, {updates, indices}, [this, indices](Value g, ArrayRef<bool>) {
    return SmallVector<Value, 3>{take(g, indices), Value()};
  });
  return r;
}

Value GraphBuilder::dynamicSlice(Value a, ArrayRef<Value> starts,
                                 ArrayRef<int64_t> sizes) {
  return stablehlo::DynamicSliceOp::create(
      builder, loc, tensorType(sizes, elementTypeOf(a)), a, starts,
      builder.getDenseI64ArrayAttr(sizes));
}

Value GraphBuilder::dynamicUpdateSlice(Value a, Value update,
                                       ArrayRef<Value> starts) {
  return stablehlo::DynamicUpdateSliceOp::create(builder, loc, a.getType(), a,
                                                 update, starts);
}
