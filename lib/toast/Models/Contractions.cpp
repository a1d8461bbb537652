//===- Contractions.cpp - dot_general, reduce, argmax, convolution -------===//
//
// Contractions and reductions with their VJPs. The dot_general VJP is
// JAX's transpose rule: another dot_general of the cotangent with the other
// operand (batching dims kept), followed by a transpose back to the
// operand's layout when needed.
//
//===----------------------------------------------------------------------===//

#include "toast/Models/GraphBuilder.h"

using namespace mlir;
using namespace toast;
using namespace toast::models;

/// Dimensions of a rank-`rank` operand that are in neither list, ascending.
static SmallVector<int64_t> freeDims(int64_t rank, ArrayRef<int64_t> batch,
                                     ArrayRef<int64_t> contract) {
  SmallVector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(batch, d) && !llvm::is_contained(contract, d))
      free.push_back(d);
  return free;
}

/// Position of `v` in the ascending order of `values`.
static int64_t rankAmong(ArrayRef<int64_t> values, int64_t v) {
  return llvm::count_if(values, [&](int64_t x) { return x < v; });
}

Value GraphBuilder::dotGeneral(Value lhs, Value rhs, const DotDims &dims) {
  ArrayRef<int64_t> ls = shapeOf(lhs), rs = shapeOf(rhs);
  SmallVector<int64_t> lhsFree =
      freeDims(ls.size(), dims.lhsBatch, dims.lhsContract);
  SmallVector<int64_t> rhsFree =
      freeDims(rs.size(), dims.rhsBatch, dims.rhsContract);
  SmallVector<int64_t> shape;
  for (int64_t d : dims.lhsBatch)
    shape.push_back(ls[d]);
  for (int64_t d : lhsFree)
    shape.push_back(ls[d]);
  for (int64_t d : rhsFree)
    shape.push_back(rs[d]);
  auto attr = stablehlo::DotDimensionNumbersAttr::get(
      ctx, dims.lhsBatch, dims.rhsBatch, dims.lhsContract, dims.rhsContract);
  auto precision = stablehlo::PrecisionAttr::get(
      ctx, stablehlo::Precision::DEFAULT);
  Value r = stablehlo::DotGeneralOp::create(
      builder, loc, tensorType(shape, elementTypeOf(lhs)), lhs, rhs, attr,
      builder.getArrayAttr({precision, precision}), nullptr);

  record(r, {lhs, rhs},
         [this, lhs, rhs, dims, lhsFree, rhsFree](Value g,
                                                  ArrayRef<bool> need) {
           int64_t nb = dims.lhsBatch.size();
           int64_t nlf = lhsFree.size(), nrf = rhsFree.size();
           SmallVector<int64_t> gBatch = llvm::to_vector(llvm::seq<int64_t>(0, nb));
           SmallVector<Value, 3> grads(2);
           if (need[0]) {
             DotDims d;
             d.lhsBatch = gBatch;
             d.rhsBatch = dims.rhsBatch;
             d.lhsContract = llvm::to_vector(
                 llvm::seq<int64_t>(nb + nlf, nb + nlf + nrf));
             d.rhsContract = rhsFree;
             Value dl = dotGeneral(g, rhs, d);
             SmallVector<int64_t> perm(rankOf(lhs));
             for (auto [i, b] : llvm::enumerate(dims.lhsBatch))
               perm[b] = i;
             for (auto [j, f] : llvm::enumerate(lhsFree))
               perm[f] = nb + j;
             for (auto [m, c] : llvm::enumerate(dims.lhsContract))
               perm[c] = nb + nlf + rankAmong(dims.rhsContract,
                                              dims.rhsContract[m]);
             // perm maps lhs dim -> position in dl; transpose wants, for
             // each result (lhs) dim, the dl dim it comes from.
             grads[0] = convert(transpose(dl, perm), elementTypeOf(lhs));
           }
           if (need[1]) {
             // lhs first, so that `x @ w` gives dw = x^T g without a
             // transpose: [batch, lhs contracting dims, rhs free dims].
             DotDims d;
             d.lhsBatch = dims.lhsBatch;
             d.rhsBatch = gBatch;
             d.lhsContract = lhsFree;
             d.rhsContract = llvm::to_vector(llvm::seq<int64_t>(nb, nb + nlf));
             Value dr = dotGeneral(lhs, g, d);
             int64_t nlc = dims.lhsContract.size();
             SmallVector<int64_t> perm(rankOf(rhs));
             for (auto [i, b] : llvm::enumerate(dims.rhsBatch))
               perm[b] = i;
             for (auto [m, c] : llvm::enumerate(dims.rhsContract))
               perm[c] = nb + rankAmong(dims.lhsContract, dims.lhsContract[m]);
             for (auto [j, f] : llvm::enumerate(rhsFree))
               perm[f] = nb + nlc + j;
             grads[1] = convert(transpose(dr, perm), elementTypeOf(rhs));
           }
           return grads;
         });
  return r;
}

Value GraphBuilder::matmul(Value lhs, Value rhs) {
  DotDims d;
  d.lhsContract = {rankOf(lhs) - 1};
  d.rhsContract = {0};
  return dotGeneral(lhs, rhs, d);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

Value GraphBuilder::reduce(Value a, ArrayRef<int64_t> dims, double init,
                           bool isMax) {
  Type elt = elementTypeOf(a);
  SmallVector<int64_t> shape;
  for (int64_t d = 0, e = rankOf(a); d < e; ++d)
    if (!llvm::is_contained(dims, d))
      shape.push_back(shapeOf(a)[d]);
  Value initValue = scalar(init, elt);
  auto op = stablehlo::ReduceOp::create(
      builder, loc, TypeRange{tensorType(shape, elt)}, ValueRange{a},
      ValueRange{initValue}, builder.getDenseI64ArrayAttr(dims));
  OpBuilder::InsertionGuard guard(builder);
  auto scalarType = tensorType({}, elt);
  Block *block = builder.createBlock(&op.getBody(), {},
                                     {scalarType, scalarType}, {loc, loc});
  Value acc = block->getArgument(0), x = block->getArgument(1);
  Value combined =
      isMax ? stablehlo::MaxOp::create(builder, loc, scalarType, acc, x)
                  .getResult()
            : stablehlo::AddOp::create(builder, loc, scalarType, acc, x)
                  .getResult();
  stablehlo::ReturnOp::create(builder, loc, combined);
  return op->getResult(0);
}

/// The dimensions of a rank-`rank` tensor that survive reducing `dims`.
static SmallVector<int64_t> keptDims(int64_t rank, ArrayRef<int64_t> dims) {
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dims, d))
      kept.push_back(d);
  return kept;
}

Value GraphBuilder::reduceSum(Value a, ArrayRef<int64_t> dims) {
  Value r = reduce(a, dims, 0.0, /*isMax=*/false);
  SmallVector<int64_t> shape(shapeOf(a));
  SmallVector<int64_t> kept = keptDims(shape.size(), dims);
  record(r, {a}, [this, shape, kept](Value g, ArrayRef<bool>) {
    return SmallVector<Value, 3>{broadcastInDim(g, shape, kept)};
  });
  return r;
}

Value GraphBuilder::reduceMax(Value a, ArrayRef<int64_t> dims) {
  Type elt = elementTypeOf(a);
  double lowest = -std::numeric_limits<double>::infinity();
  Value r = reduce(a, dims, lowest, /*isMax=*/true);
  SmallVector<int64_t> shape(shapeOf(a));
  SmallVector<int64_t> kept = keptDims(shape.size(), dims);
  SmallVector<int64_t> dimsCopy(dims);
  record(r, {a}, [this, a, r, elt, shape, kept, dimsCopy](Value g,
                                                        ArrayRef<bool>) {
    // The gradient is split evenly between the maximal elements.
    Value at = compare(a, broadcastInDim(r, shape, kept),
                       stablehlo::ComparisonDirection::EQ);
    Value indicator = convert(at, elt);
    Value counts = reduceSum(indicator, dimsCopy);
    Value share = div(broadcastInDim(g, shape, kept),
                      broadcastInDim(counts, shape, kept));
    return SmallVector<Value, 3>{mul(share, indicator)};
  });
  return r;
}

Value GraphBuilder::argmax(Value a, int64_t dim, Type indexType) {
  Type elt = elementTypeOf(a);
  SmallVector<int64_t> shape;
  for (int64_t d = 0, e = rankOf(a); d < e; ++d)
    if (d != dim)
      shape.push_back(shapeOf(a)[d]);
  NoGradScope noGrad(*this);
  Value indices = iota(shapeOf(a), dim, indexType);
  Value initValue = scalar(-std::numeric_limits<double>::infinity(), elt);
  Value initIndex = scalar(0, indexType);
  auto op = stablehlo::ReduceOp::create(
      builder, loc,
      TypeRange{tensorType(shape, elt), tensorType(shape, indexType)},
      ValueRange{a, indices}, ValueRange{initValue, initIndex},
      builder.getDenseI64ArrayAttr({dim}));
  OpBuilder::InsertionGuard guard(builder);
  auto valueType = tensorType({}, elt), indexScalar = tensorType({}, indexType);
  Block *block = builder.createBlock(
      &op.getBody(), {}, {valueType, indexScalar, valueType, indexScalar},
      {loc, loc, loc, loc});
  Value accV = block->getArgument(0), accI = block->getArgument(1);
  Value xV = block->getArgument(2), xI = block->getArgument(3);
  // Keep the accumulator when it is larger, or equal with a lower index.
  Value gt = compare(accV, xV, stablehlo::ComparisonDirection::GT);
  Value eq = compare(accV, xV, stablehlo::ComparisonDirection::EQ);
  Value lower = compare(accI, xI, stablehlo::ComparisonDirection::LT);
  Type predType = tensorType({}, i1());
  Value tie = stablehlo::AndOp::create(builder, loc, predType, eq, lower);
  Value keep = stablehlo::OrOp::create(builder, loc, predType, gt, tie);
  Value v = stablehlo::SelectOp::create(builder, loc, valueType, keep, accV, xV);
  Value i =
      stablehlo::SelectOp::create(builder, loc, indexScalar, keep, accI, xI);
  stablehlo::ReturnOp::create(builder, loc, ValueRange{v, i});
  return op->getResult(1);
}
