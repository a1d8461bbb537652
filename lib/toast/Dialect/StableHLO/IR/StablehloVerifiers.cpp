//===- StablehloVerifiers.cpp - Shape rules of StableHLO ops -------------===//
//
// Shape checks shared by the op verifiers. Messages name the attribute and
// the offending value so that one `expected-error` line can match them.
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/StableHLO/IR/StablehloVerifiers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;

namespace toast::stablehlo {

static bool compatible(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (i)
      s += ", ";
    s += ShapedType::isDynamic(d) ? "?" : std::to_string(d);
  }
  return s + "]";
}

/// Compares a computed shape with the result type's shape.
static LogicalResult checkResultShape(EmitErrorFn emitError,
                                      ArrayRef<int64_t> expected,
                                      ShapedType result) {
  if (result.getRank() == static_cast<int64_t>(expected.size()) &&
      llvm::all_of(llvm::zip_equal(expected, result.getShape()), [](auto p) {
        return compatible(std::get<0>(p), std::get<1>(p));
      }))
    return success();
  return emitError() << "inferred shape " << shapeString(expected)
                     << " is incompatible with result type " << result;
}

LogicalResult verifyDimList(EmitErrorFn emitError, StringRef what,
                            ArrayRef<int64_t> dims, int64_t rank) {
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t d : dims) {
    if (d < 0 || d >= rank)
      return emitError() << what << " " << d << " is out of range [0, " << rank
                         << ")";
    if (!seen.insert(d).second)
      return emitError() << what << " " << d << " appears more than once";
  }
  return success();
}

LogicalResult verifyDotGeneral(EmitErrorFn emitError, ShapedType lhs,
                               ShapedType rhs, DotDimensionNumbersAttr dims,
                               ShapedType result) {
  ArrayRef<int64_t> lb = dims.getLhsBatchingDimensions(),
                    rb = dims.getRhsBatchingDimensions(),
                    lc = dims.getLhsContractingDimensions(),
                    rc = dims.getRhsContractingDimensions();
  if (lb.size() != rb.size())
    return emitError() << "lhs and rhs must have the same number of batching "
                          "dimensions";
  if (lc.size() != rc.size())
    return emitError() << "lhs and rhs must have the same number of "
                          "contracting dimensions";
  SmallVector<int64_t> lhsDims(lb), rhsDims(rb);
  lhsDims.append(lc.begin(), lc.end());
  rhsDims.append(rc.begin(), rc.end());
  if (failed(verifyDimList(emitError, "lhs batching/contracting dimension",
                           lhsDims, lhs.getRank())) ||
      failed(verifyDimList(emitError, "rhs batching/contracting dimension",
                           rhsDims, rhs.getRank())))
    return failure();
  for (auto [l, r] : llvm::zip_equal(lb, rb))
    if (!compatible(lhs.getDimSize(l), rhs.getDimSize(r)))
      return emitError() << "batching dimension sizes must match: lhs dim "
                         << l << " has size " << lhs.getDimSize(l)
                         << ", rhs dim " << r << " has size "
                         << rhs.getDimSize(r);
  for (auto [l, r] : llvm::zip_equal(lc, rc))
    if (!compatible(lhs.getDimSize(l), rhs.getDimSize(r)))
      return emitError() << "contracting dimension sizes must match: lhs dim "
                         << l << " has size " << lhs.getDimSize(l)
                         << ", rhs dim " << r << " has size "
                         << rhs.getDimSize(r);
  SmallVector<int64_t> shape;
  for (int64_t d : lb)
    shape.push_back(lhs.getDimSize(d));
  for (int64_t d = 0; d < lhs.getRank(); ++d)
    if (!llvm::is_contained(lhsDims, d))
      shape.push_back(lhs.getDimSize(d));
  for (int64_t d = 0; d < rhs.getRank(); ++d)
    if (!llvm::is_contained(rhsDims, d))
      shape.push_back(rhs.getDimSize(d));
  return checkResultShape(emitError, shape, result);
}

LogicalResult verifyDot(EmitErrorFn emitError, ShapedType lhs, ShapedType rhs,
                        ShapedType result) {
  if (lhs.getRank() < 1 || lhs.getRank() > 2 || rhs.getRank() < 1 ||
      rhs.getRank() > 2)
    return emitError() << "expected operands of rank 1 or 2";
  int64_t lk = lhs.getDimSize(lhs.getRank() - 1), rk = rhs.getDimSize(0);
  if (!compatible(lk, rk))
    return emitError() << "contracting dimension sizes must match: " << lk
                       << " vs " << rk;
  SmallVector<int64_t> shape;
  if (lhs.getRank() == 2)
    shape.push_back(lhs.getDimSize(0));
  if (rhs.getRank() == 2)
    shape.push_back(rhs.getDimSize(1));
  return checkResultShape(emitError, shape, result);
}

LogicalResult verifyBroadcastInDim(EmitErrorFn emitError, ShapedType operand,
                                   ArrayRef<int64_t> dims, ShapedType result) {
  if (static_cast<int64_t>(dims.size()) != operand.getRank())
    return emitError() << "broadcast_dimensions has " << dims.size()
                       << " entries but the operand has rank "
                       << operand.getRank();
  if (failed(verifyDimList(emitError, "broadcast dimension", dims,
                           result.getRank())))
    return failure();
  for (auto [i, d] : llvm::enumerate(dims)) {
    int64_t in = operand.getDimSize(i), out = result.getDimSize(d);
    if (in != 1 && !compatible(in, out))
      return emitError() << "operand dimension " << i << " of size " << in
                         << " cannot be broadcast to result dimension " << d
                         << " of size " << out;
  }
  return success();
}

LogicalResult verifyTranspose(EmitErrorFn emitError, ShapedType operand,
                              ArrayRef<int64_t> permutation,
                              ShapedType result) {
  if (static_cast<int64_t>(permutation.size()) != operand.getRank())
    return emitError() << "permutation has " << permutation.size()
                       << " entries but the operand has rank "
                       << operand.getRank();
  if (failed(verifyDimList(emitError, "permutation entry", permutation,
                           operand.getRank())))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d : permutation)
    shape.push_back(operand.getDimSize(d));
  return checkResultShape(emitError, shape, result);
}

LogicalResult verifyReshape(EmitErrorFn emitError, ShapedType operand,
                            ShapedType result) {
  if (!operand.hasStaticShape() || !result.hasStaticShape())
    return success();
  if (operand.getNumElements() != result.getNumElements())
    return emitError() << "reshape must preserve the number of elements: "
                       << operand.getNumElements() << " vs "
                       << result.getNumElements();
  return success();
}

LogicalResult verifyReduceDims(EmitErrorFn emitError, ShapedType input,
                               ArrayRef<int64_t> dims, ShapedType result) {
  if (failed(verifyDimList(emitError, "reduced dimension", dims,
                           input.getRank())))
    return failure();
  if (!result)
    return success();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < input.getRank(); ++d)
    if (!llvm::is_contained(dims, d))
      shape.push_back(input.getDimSize(d));
  return checkResultShape(emitError, shape, result);
}

LogicalResult verifyConcatenate(EmitErrorFn emitError, TypeRange inputs,
                                int64_t dim, ShapedType result) {
  if (inputs.empty())
    return emitError() << "expects at least one input";
  auto first = cast<ShapedType>(inputs.front());
  if (dim < 0 || dim >= first.getRank())
    return emitError() << "dimension " << dim << " is out of range [0, "
                       << first.getRank() << ")";
  SmallVector<int64_t> shape(first.getShape());
  for (Type t : inputs.drop_front()) {
    auto type = cast<ShapedType>(t);
    if (type.getRank() != first.getRank())
      return emitError() << "all inputs must have the same rank";
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (d == dim) {
        if (ShapedType::isDynamic(shape[d]) || type.isDynamicDim(d))
          shape[d] = ShapedType::kDynamic;
        else
          shape[d] += type.getDimSize(d);
      } else if (!compatible(shape[d], type.getDimSize(d))) {
        return emitError() << "inputs differ in non-concatenated dimension "
                           << d;
      }
    }
  }
  return checkResultShape(emitError, shape, result);
}

LogicalResult verifySlice(EmitErrorFn emitError, ShapedType operand,
                          ArrayRef<int64_t> start, ArrayRef<int64_t> limit,
                          ArrayRef<int64_t> strides, ShapedType result) {
  int64_t rank = operand.getRank();
  if (static_cast<int64_t>(start.size()) != rank ||
      static_cast<int64_t>(limit.size()) != rank ||
      static_cast<int64_t>(strides.size()) != rank)
    return emitError() << "start, limit and strides must each have one entry "
                          "per operand dimension ("
                       << rank << ")";
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = operand.getDimSize(d);
    if (start[d] < 0 || limit[d] < start[d] ||
        (!ShapedType::isDynamic(size) && limit[d] > size))
      return emitError() << "slice range " << start[d] << ":" << limit[d]
                         << " is invalid for dimension " << d << " of size "
                         << (ShapedType::isDynamic(size)
                                 ? std::string("?")
                                 : std::to_string(size));
    if (strides[d] <= 0)
      return emitError() << "stride " << strides[d] << " must be positive";
    // ceil((limit - start) / stride), without overflow.
    int64_t extent = limit[d] - start[d];
    shape.push_back(extent == 0 ? 0 : (extent - 1) / strides[d] + 1);
  }
  return checkResultShape(emitError, shape, result);
}

LogicalResult verifyPad(EmitErrorFn emitError, ShapedType operand,
                        ShapedType paddingValue, ArrayRef<int64_t> low,
                        ArrayRef<int64_t> high, ArrayRef<int64_t> interior,
                        ShapedType result) {
  int64_t rank = operand.getRank();
  if (paddingValue.getRank() != 0)
    return emitError() << "padding value must be a scalar";
  if (static_cast<int64_t>(low.size()) != rank ||
      static_cast<int64_t>(high.size()) != rank ||
      static_cast<int64_t>(interior.size()) != rank)
    return emitError() << "low, high and interior padding must each have one "
                          "entry per operand dimension ("
                       << rank << ")";
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (interior[d] < 0)
      return emitError() << "interior padding must be non-negative";
    int64_t size = operand.getDimSize(d);
    if (ShapedType::isDynamic(size)) {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    int64_t padded =
        size + low[d] + high[d] + std::max<int64_t>(size - 1, 0) * interior[d];
    if (padded < 0)
      return emitError() << "padding makes dimension " << d << " negative";
    shape.push_back(padded);
  }
  return checkResultShape(emitError, shape, result);
}

/// Output size of one windowed dimension, or nullopt when negative.
static std::optional<int64_t> windowedSize(int64_t size, int64_t window,
                                           int64_t stride, int64_t padLow,
                                           int64_t padHigh, int64_t baseDil,
                                           int64_t windowDil) {
  if (ShapedType::isDynamic(size))
    return ShapedType::kDynamic;
  int64_t dilatedBase = size == 0 ? 0 : (size - 1) * baseDil + 1;
  int64_t padded = dilatedBase + padLow + padHigh;
  int64_t dilatedWindow = window == 0 ? 0 : (window - 1) * windowDil + 1;
  if (padded < dilatedWindow)
    return padded >= 0 ? std::optional<int64_t>(0) : std::nullopt;
  return (padded - dilatedWindow) / stride + 1;
}

LogicalResult verifyWindow(EmitErrorFn emitError, ShapedType input,
                           ArrayRef<int64_t> windowDims,
                           ArrayRef<int64_t> strides, ArrayRef<int64_t> padding,
                           ArrayRef<int64_t> baseDilations,
                           ArrayRef<int64_t> windowDilations,
                           SmallVectorImpl<int64_t> &resultShape) {
  size_t rank = input.getRank();
  auto checkSize = [&](ArrayRef<int64_t> values, StringRef name,
                       size_t factor) -> LogicalResult {
    if (!values.empty() && values.size() != rank * factor)
      return emitError() << name << " must have " << rank * factor
                         << " entries, got " << values.size();
    return success();
  };
  if (failed(checkSize(windowDims, "window_dimensions", 1)) ||
      failed(checkSize(strides, "window_strides", 1)) ||
      failed(checkSize(padding, "padding", 2)) ||
      failed(checkSize(baseDilations, "base_dilations", 1)) ||
      failed(checkSize(windowDilations, "window_dilations", 1)))
    return failure();
  for (size_t d = 0; d < rank; ++d) {
    int64_t window = windowDims.empty() ? 1 : windowDims[d];
    int64_t stride = strides.empty() ? 1 : strides[d];
    int64_t baseDil = baseDilations.empty() ? 1 : baseDilations[d];
    int64_t windowDil = windowDilations.empty() ? 1 : windowDilations[d];
    if (window <= 0 || stride <= 0 || baseDil <= 0 || windowDil <= 0)
      return emitError() << "window sizes, strides and dilations must be "
                            "positive (dimension "
                         << d << ")";
    std::optional<int64_t> size = windowedSize(
        input.getDimSize(d), window, stride,
        padding.empty() ? 0 : padding[2 * d],
        padding.empty() ? 0 : padding[2 * d + 1], baseDil, windowDil);
    if (!size)
      return emitError() << "padding makes dimension " << d << " negative";
    resultShape.push_back(*size);
  }
  return success();
}

LogicalResult verifyConvolution(EmitErrorFn emitError, ShapedType lhs,
                                ShapedType rhs, ConvDimensionNumbersAttr dims,
                                ArrayRef<int64_t> strides,
                                ArrayRef<int64_t> padding,
                                ArrayRef<int64_t> lhsDilation,
                                ArrayRef<int64_t> rhsDilation,
                                int64_t featureGroupCount,
                                int64_t batchGroupCount, ShapedType result) {
  size_t numSpatial = dims.getInputSpatialDimensions().size();
  if (dims.getKernelSpatialDimensions().size() != numSpatial ||
      dims.getOutputSpatialDimensions().size() != numSpatial)
    return emitError() << "input, kernel and output must have the same "
                          "number of spatial dimensions";
  int64_t rank = numSpatial + 2;
  if (lhs.getRank() != rank || rhs.getRank() != rank ||
      result.getRank() != rank)
    return emitError() << "lhs, rhs and result must have rank " << rank
                       << " (2 + number of spatial dimensions)";
  auto collect = [](int64_t a, int64_t b, ArrayRef<int64_t> s) {
    SmallVector<int64_t> all = {a, b};
    all.append(s.begin(), s.end());
    return all;
  };
  if (failed(verifyDimList(emitError, "input dimension",
                           collect(dims.getInputBatchDimension(),
                                   dims.getInputFeatureDimension(),
                                   dims.getInputSpatialDimensions()),
                           rank)) ||
      failed(verifyDimList(emitError, "kernel dimension",
                           collect(dims.getKernelInputFeatureDimension(),
                                   dims.getKernelOutputFeatureDimension(),
                                   dims.getKernelSpatialDimensions()),
                           rank)) ||
      failed(verifyDimList(emitError, "output dimension",
                           collect(dims.getOutputBatchDimension(),
                                   dims.getOutputFeatureDimension(),
                                   dims.getOutputSpatialDimensions()),
                           rank)))
    return failure();
  if (featureGroupCount <= 0 || batchGroupCount <= 0)
    return emitError() << "feature_group_count and batch_group_count must be "
                          "positive";
  if (featureGroupCount > 1 && batchGroupCount > 1)
    return emitError() << "feature_group_count and batch_group_count cannot "
                          "both exceed 1";
  int64_t inFeatures = lhs.getDimSize(dims.getInputFeatureDimension());
  int64_t kernelIn = rhs.getDimSize(dims.getKernelInputFeatureDimension());
  if (!ShapedType::isDynamic(inFeatures) && !ShapedType::isDynamic(kernelIn) &&
      inFeatures != kernelIn * featureGroupCount)
    return emitError() << "input feature dimension (" << inFeatures
                       << ") must equal kernel input features (" << kernelIn
                       << ") times feature_group_count (" << featureGroupCount
                       << ")";
  SmallVector<int64_t> spatialIn, window;
  for (size_t i = 0; i < numSpatial; ++i) {
    spatialIn.push_back(lhs.getDimSize(dims.getInputSpatialDimensions()[i]));
    window.push_back(rhs.getDimSize(dims.getKernelSpatialDimensions()[i]));
  }
  auto spatialType = RankedTensorType::get(spatialIn, lhs.getElementType());
  SmallVector<int64_t> spatialOut;
  if (failed(verifyWindow(emitError, spatialType, window, strides, padding,
                          lhsDilation, rhsDilation, spatialOut)))
    return failure();
  SmallVector<int64_t> shape(rank);
  int64_t batch = lhs.getDimSize(dims.getInputBatchDimension());
  shape[dims.getOutputBatchDimension()] =
      ShapedType::isDynamic(batch) ? batch : batch / batchGroupCount;
  shape[dims.getOutputFeatureDimension()] =
      rhs.getDimSize(dims.getKernelOutputFeatureDimension());
  for (size_t i = 0; i < numSpatial; ++i)
    shape[dims.getOutputSpatialDimensions()[i]] = spatialOut[i];
  return checkResultShape(emitError, shape, result);
}

/// The index vector (dimension `indexVectorDim` of `indices`, or an implicit
/// trailing 1) has one entry per element of the `name` map.
static LogicalResult verifyIndexVector(EmitErrorFn emitError,
                                       ShapedType indices,
                                       int64_t indexVectorDim, StringRef name,
                                       size_t mapSize) {
  int64_t size = indexVectorDim == indices.getRank()
                     ? 1
                     : indices.getDimSize(indexVectorDim);
  if (!ShapedType::isDynamic(size) && size != static_cast<int64_t>(mapSize))
    return emitError() << name << " has " << mapSize
                       << " entries but the index vector has size " << size;
  return success();
}

LogicalResult verifyGather(EmitErrorFn emitError, ShapedType operand,
                           ShapedType startIndices,
                           GatherDimensionNumbersAttr dims,
                           ArrayRef<int64_t> sliceSizes, ShapedType result) {
  int64_t rank = operand.getRank();
  if (static_cast<int64_t>(sliceSizes.size()) != rank)
    return emitError() << "slice_sizes must have one entry per operand "
                          "dimension ("
                       << rank << ")";
  for (int64_t d = 0; d < rank; ++d)
    if (sliceSizes[d] < 0 || (!operand.isDynamicDim(d) &&
                              sliceSizes[d] > operand.getDimSize(d)))
      return emitError() << "slice size " << sliceSizes[d]
                         << " is out of bounds for operand dimension " << d;
  SmallVector<int64_t> collapsedAndBatch(dims.getCollapsedSliceDims());
  llvm::append_range(collapsedAndBatch, dims.getOperandBatchingDims());
  if (failed(verifyDimList(emitError, "collapsed/batching slice dimension",
                           collapsedAndBatch, rank)) ||
      failed(verifyDimList(emitError, "start_index_map entry",
                           dims.getStartIndexMap(), rank)))
    return failure();
  int64_t indexVectorDim = dims.getIndexVectorDim();
  if (indexVectorDim < 0 || indexVectorDim > startIndices.getRank())
    return emitError() << "index_vector_dim " << indexVectorDim
                       << " is out of range";
  if (failed(verifyIndexVector(emitError, startIndices, indexVectorDim,
                               "start_index_map",
                               dims.getStartIndexMap().size())))
    return failure();
  if (dims.getOperandBatchingDims().size() !=
      dims.getStartIndicesBatchingDims().size())
    return emitError() << "operand_batching_dims and "
                          "start_indices_batching_dims must have the same "
                          "size";
  for (int64_t d : collapsedAndBatch)
    if (sliceSizes[d] > 1)
      return emitError() << "collapsed/batching dimension " << d
                         << " must have slice size 0 or 1";
  // Result: batch dims of the indices (all but index_vector_dim) interleaved
  // with the offset dims at the positions offset_dims names.
  SmallVector<int64_t> batchShape;
  for (int64_t d = 0; d < startIndices.getRank(); ++d)
    if (d != indexVectorDim)
      batchShape.push_back(startIndices.getDimSize(d));
  SmallVector<int64_t> offsetShape;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(collapsedAndBatch, d))
      offsetShape.push_back(sliceSizes[d]);
  ArrayRef<int64_t> offsetDims = dims.getOffsetDims();
  if (offsetDims.size() != offsetShape.size())
    return emitError() << "offset_dims has " << offsetDims.size()
                       << " entries, expected " << offsetShape.size();
  int64_t resultRank = batchShape.size() + offsetShape.size();
  if (failed(verifyDimList(emitError, "offset dimension", offsetDims,
                           resultRank)))
    return failure();
  SmallVector<int64_t> shape;
  size_t b = 0, o = 0;
  for (int64_t d = 0; d < resultRank; ++d)
    shape.push_back(llvm::is_contained(offsetDims, d) ? offsetShape[o++]
                                                      : batchShape[b++]);
  return checkResultShape(emitError, shape, result);
}

LogicalResult verifyScatter(EmitErrorFn emitError, ShapedType operand,
                            ShapedType indices, ShapedType updates,
                            ScatterDimensionNumbersAttr dims) {
  int64_t rank = operand.getRank();
  SmallVector<int64_t> insertedAndBatch(dims.getInsertedWindowDims());
  llvm::append_range(insertedAndBatch, dims.getInputBatchingDims());
  if (failed(verifyDimList(emitError, "inserted/batching window dimension",
                           insertedAndBatch, rank)) ||
      failed(verifyDimList(emitError, "scatter_dims_to_operand_dims entry",
                           dims.getScatterDimsToOperandDims(), rank)) ||
      failed(verifyDimList(emitError, "update window dimension",
                           dims.getUpdateWindowDims(), updates.getRank())))
    return failure();
  int64_t indexVectorDim = dims.getIndexVectorDim();
  if (indexVectorDim < 0 || indexVectorDim > indices.getRank())
    return emitError() << "index_vector_dim " << indexVectorDim
                       << " is out of range";
  if (failed(verifyIndexVector(emitError, indices, indexVectorDim,
                               "scatter_dims_to_operand_dims",
                               dims.getScatterDimsToOperandDims().size())))
    return failure();
  if (dims.getInputBatchingDims().size() !=
      dims.getScatterIndicesBatchingDims().size())
    return emitError() << "input_batching_dims and "
                          "scatter_indices_batching_dims must have the same "
                          "size";
  int64_t windowRank = dims.getUpdateWindowDims().size();
  if (windowRank + static_cast<int64_t>(insertedAndBatch.size()) != rank)
    return emitError() << "update_window_dims (" << windowRank
                       << ") plus inserted and batching dims ("
                       << insertedAndBatch.size()
                       << ") must equal the operand rank (" << rank << ")";
  int64_t scatterRank = indices.getRank() -
                        (indexVectorDim < indices.getRank() ? 1 : 0);
  if (updates.getRank() != windowRank + scatterRank)
    return emitError() << "updates must have rank " << windowRank + scatterRank
                       << ", got " << updates.getRank();
  return success();
}

LogicalResult verifyBroadcast(EmitErrorFn emitError, ShapedType operand,
                              ArrayRef<int64_t> sizes, ShapedType result) {
  for (int64_t size : sizes)
    if (size < 0)
      return emitError() << "broadcast_sizes must not be negative, got "
                         << size;
  SmallVector<int64_t> shape(sizes);
  llvm::append_range(shape, operand.getShape());
  return checkResultShape(emitError, shape, result);
}

LogicalResult verifyTorchIndexSelect(EmitErrorFn emitError, ShapedType operand,
                                     ShapedType index, int64_t dim,
                                     int64_t batchDims, ShapedType result) {
  if (batchDims < 0 || batchDims > index.getRank())
    return emitError() << "batch_dims " << batchDims << " is out of range [0, "
                       << index.getRank() << "] (the index rank)";
  if (dim < batchDims || dim >= operand.getRank())
    return emitError() << "dim " << dim << " is out of range [" << batchDims
                       << ", " << operand.getRank() << ")";
  for (int64_t d = 0; d < batchDims; ++d)
    if (!compatible(operand.getDimSize(d), index.getDimSize(d)))
      return emitError() << "batch dimension " << d << " has size "
                         << operand.getDimSize(d) << " in the operand but "
                         << index.getDimSize(d) << " in the index";
  SmallVector<int64_t> shape(operand.getShape().take_front(dim));
  llvm::append_range(shape, index.getShape().drop_front(batchDims));
  llvm::append_range(shape, operand.getShape().drop_front(dim + 1));
  return checkResultShape(emitError, shape, result);
}

LogicalResult verifyBatchNorm(EmitErrorFn emitError, ShapedType operand,
                              int64_t featureIndex, ArrayRef<StringRef> names,
                              TypeRange perFeature) {
  if (featureIndex < 0 || featureIndex >= operand.getRank())
    return emitError() << "feature_index " << featureIndex
                       << " is out of range [0, " << operand.getRank() << ")";
  int64_t features = operand.getDimSize(featureIndex);
  for (auto [name, type] : llvm::zip_equal(names, perFeature)) {
    auto shaped = cast<ShapedType>(type);
    if (shaped.getElementType() != operand.getElementType())
      return emitError() << name << " must have the operand's element type "
                         << operand.getElementType() << ", got " << type;
    if (shaped.getRank() != 1 || !compatible(shaped.getDimSize(0), features))
      return emitError() << name << " must be a 1-D tensor of "
                         << (ShapedType::isDynamic(features)
                                 ? std::string("?")
                                 : std::to_string(features))
                         << " elements (dimension " << featureIndex
                         << " of the operand), got " << type;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Einsum configs
//===----------------------------------------------------------------------===//

bool EinsumLabels::isInResult(int64_t label) const {
  return llvm::is_contained(result, label);
}

namespace {
/// One term of a config: its letters in order, with the position of `...`
/// (std::nullopt when there is none).
struct EinsumTerm {
  std::string letters;
  std::optional<size_t> ellipsisAt;
};

/// Builds EinsumLabels term by term.
class EinsumResolver {
public:
  explicit EinsumResolver(EmitErrorFn emitError) : emitError(emitError) {}

  FailureOr<EinsumTerm> parseTerm(StringRef text) {
    StringRef whole = text;
    EinsumTerm term;
    while (!text.empty()) {
      if (text.consume_front("...")) {
        if (term.ellipsisAt)
          return emitError() << "einsum config term '" << whole
                             << "' has more than one '...'";
        term.ellipsisAt = term.letters.size();
        continue;
      }
      char c = text.front();
      text = text.drop_front();
      if (c == ' ')
        continue;
      if (!llvm::isAlpha(c))
        return emitError() << "unexpected character '" << c
                           << "' in einsum config";
      term.letters.push_back(c);
    }
    return term;
  }

  /// The labels of the dimensions of a tensor of `rank` that `term` names;
  /// `what` names the tensor in messages.
  FailureOr<SmallVector<int64_t>> resolve(const EinsumTerm &term, int64_t rank,
                                          StringRef what, int64_t ellipsis) {
    int64_t named = term.letters.size();
    if (!term.ellipsisAt && named != rank)
      return emitError() << "einsum config term '" << term.letters << "' names "
                         << named << " dimensions but " << what << " has rank "
                         << rank;
    if (term.ellipsisAt && named > rank)
      return emitError() << "einsum config term '" << term.letters
                         << "...' names " << named << " dimensions but " << what
                         << " has rank " << rank;
    SmallVector<int64_t> dims;
    for (size_t i = 0; i <= term.letters.size(); ++i) {
      if (term.ellipsisAt == i)
        for (int64_t k = ellipsis - 1; k >= 0; --k)
          dims.push_back(label("...[" + std::to_string(k) + "]"));
      if (i < term.letters.size())
        dims.push_back(label(std::string(1, term.letters[i])));
    }
    return dims;
  }

  /// The label named `name`, created on first use.
  int64_t label(const std::string &name) {
    auto [it, inserted] = ids.try_emplace(name, labels.names.size());
    if (inserted) {
      labels.names.push_back(name);
      labels.sizes.push_back(ShapedType::kDynamic);
    }
    return it->second;
  }

  /// Records that `label` has `size` in some operand.
  LogicalResult setSize(int64_t label, int64_t size) {
    int64_t &known = labels.sizes[label];
    if (!compatible(known, size))
      return emitError() << "einsum label '" << labels.names[label]
                         << "' has sizes " << known << " and " << size;
    if (ShapedType::isDynamic(known))
      known = size;
    return success();
  }

  EmitErrorFn emitError;
  EinsumLabels labels;
  llvm::StringMap<int64_t> ids;
};
} // namespace

FailureOr<EinsumLabels> analyzeEinsum(EmitErrorFn emitError, StringRef config,
                                      TypeRange operands, ShapedType result) {
  auto [inputs, output] = config.split("->");
  if (inputs.size() == config.size() || output.contains("->"))
    return emitError() << "einsum config '" << config
                       << "' must contain '->' once";
  SmallVector<StringRef> terms;
  inputs.split(terms, ',');
  if (terms.size() != operands.size())
    return emitError() << "einsum config '" << config << "' has "
                       << terms.size() << " operand terms, expected "
                       << operands.size();
  EinsumResolver resolver(emitError);
  int64_t maxEllipsis = 0;
  for (auto [i, text, type] : llvm::enumerate(terms, operands)) {
    FailureOr<EinsumTerm> term = resolver.parseTerm(text);
    if (failed(term))
      return failure();
    auto shaped = cast<ShapedType>(type);
    int64_t ellipsis =
        term->ellipsisAt
            ? shaped.getRank() - static_cast<int64_t>(term->letters.size())
            : 0;
    maxEllipsis = std::max(maxEllipsis, ellipsis);
    FailureOr<SmallVector<int64_t>> dims = resolver.resolve(
        *term, shaped.getRank(), "operand #" + std::to_string(i), ellipsis);
    if (failed(dims))
      return failure();
    for (auto [d, label] : llvm::enumerate(*dims))
      if (failed(resolver.setSize(label, shaped.getDimSize(d))))
        return failure();
    resolver.labels.operands.push_back(std::move(*dims));
  }
  FailureOr<EinsumTerm> term = resolver.parseTerm(output);
  if (failed(term))
    return failure();
  for (auto [i, c] : llvm::enumerate(term->letters)) {
    if (term->letters.find(c, i + 1) != std::string::npos)
      return emitError() << "einsum result label '" << c
                         << "' appears more than once";
    if (!resolver.ids.count(std::string(1, c)))
      return emitError() << "einsum result label '" << c
                         << "' is not in any operand";
  }
  if (term->ellipsisAt &&
      result.getRank() !=
          static_cast<int64_t>(term->letters.size()) + maxEllipsis)
    return emitError() << "the result's '...' must stand for " << maxEllipsis
                       << " dimensions, the longest operand '...'";
  FailureOr<SmallVector<int64_t>> dims =
      resolver.resolve(*term, result.getRank(), "the result", maxEllipsis);
  if (failed(dims))
    return failure();
  EinsumLabels labels = std::move(resolver.labels);
  labels.result = std::move(*dims);
  SmallVector<int64_t> shape;
  for (int64_t label : labels.result)
    shape.push_back(labels.sizes[label]);
  if (failed(checkResultShape(emitError, shape, result)))
    return failure();
  return labels;
}

} // namespace toast::stablehlo
