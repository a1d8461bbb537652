//===- StablehloVerifiers.h - Shape rules of StableHLO ops ------*- C++ -*-===//
//
// The shape rules the op verifiers check, as free functions so that passes
// and unit tests can call them without building ops. Each reports through
// `emitError` and returns failure on the first violation. Dynamic dimensions
// (`?`) are accepted wherever a static size would be compared.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_DIALECT_STABLEHLO_IR_STABLEHLOVERIFIERS_H
#define TOAST_DIALECT_STABLEHLO_IR_STABLEHLOVERIFIERS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeRange.h"
#include "toast/Dialect/StableHLO/IR/StablehloAttrs.h"

namespace toast::stablehlo {

using EmitErrorFn = llvm::function_ref<mlir::InFlightDiagnostic()>;

/// The result shape of dot_general: batch dims, then lhs free dims, then rhs
/// free dims.
mlir::LogicalResult verifyDotGeneral(EmitErrorFn emitError,
                                     mlir::ShapedType lhs, mlir::ShapedType rhs,
                                     DotDimensionNumbersAttr dims,
                                     mlir::ShapedType result);

/// Legacy dot: vector/matrix products.
mlir::LogicalResult verifyDot(EmitErrorFn emitError, mlir::ShapedType lhs,
                              mlir::ShapedType rhs, mlir::ShapedType result);

mlir::LogicalResult verifyBroadcastInDim(EmitErrorFn emitError,
                                         mlir::ShapedType operand,
                                         llvm::ArrayRef<int64_t> dims,
                                         mlir::ShapedType result);

mlir::LogicalResult verifyTranspose(EmitErrorFn emitError,
                                    mlir::ShapedType operand,
                                    llvm::ArrayRef<int64_t> permutation,
                                    mlir::ShapedType result);

mlir::LogicalResult verifyReshape(EmitErrorFn emitError,
                                  mlir::ShapedType operand,
                                  mlir::ShapedType result);

/// Reduced dimensions are in range and unique; `result` (if given) is the
/// input shape without them.
mlir::LogicalResult verifyReduceDims(EmitErrorFn emitError,
                                     mlir::ShapedType input,
                                     llvm::ArrayRef<int64_t> dims,
                                     mlir::ShapedType result);

mlir::LogicalResult verifyConcatenate(EmitErrorFn emitError,
                                      mlir::TypeRange inputs, int64_t dim,
                                      mlir::ShapedType result);

mlir::LogicalResult verifySlice(EmitErrorFn emitError, mlir::ShapedType operand,
                                llvm::ArrayRef<int64_t> start,
                                llvm::ArrayRef<int64_t> limit,
                                llvm::ArrayRef<int64_t> strides,
                                mlir::ShapedType result);

mlir::LogicalResult verifyPad(EmitErrorFn emitError, mlir::ShapedType operand,
                              mlir::ShapedType paddingValue,
                              llvm::ArrayRef<int64_t> low,
                              llvm::ArrayRef<int64_t> high,
                              llvm::ArrayRef<int64_t> interior,
                              mlir::ShapedType result);

/// The result shape of a convolution with the given window and groups.
mlir::LogicalResult verifyConvolution(
    EmitErrorFn emitError, mlir::ShapedType lhs, mlir::ShapedType rhs,
    ConvDimensionNumbersAttr dims, llvm::ArrayRef<int64_t> strides,
    llvm::ArrayRef<int64_t> padding, llvm::ArrayRef<int64_t> lhsDilation,
    llvm::ArrayRef<int64_t> rhsDilation, int64_t featureGroupCount,
    int64_t batchGroupCount, mlir::ShapedType result);

/// The result shape of gather.
mlir::LogicalResult verifyGather(EmitErrorFn emitError,
                                 mlir::ShapedType operand,
                                 mlir::ShapedType startIndices,
                                 GatherDimensionNumbersAttr dims,
                                 llvm::ArrayRef<int64_t> sliceSizes,
                                 mlir::ShapedType result);

/// Dimension numbers of scatter against the operand, indices and updates.
mlir::LogicalResult verifyScatter(EmitErrorFn emitError,
                                  mlir::ShapedType operand,
                                  mlir::ShapedType indices,
                                  mlir::ShapedType updates,
                                  ScatterDimensionNumbersAttr dims);

/// A dimension list whose entries are in [0, rank) and unique.
mlir::LogicalResult verifyDimList(EmitErrorFn emitError, llvm::StringRef what,
                                  llvm::ArrayRef<int64_t> dims, int64_t rank);

/// Window attributes of reduce_window / select_and_scatter, and the shape
/// a window of the given sizes produces.
mlir::LogicalResult
verifyWindow(EmitErrorFn emitError, mlir::ShapedType input,
             llvm::ArrayRef<int64_t> windowDims,
             llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> padding,
             llvm::ArrayRef<int64_t> baseDilations,
             llvm::ArrayRef<int64_t> windowDilations,
             llvm::SmallVectorImpl<int64_t> &resultShape);

/// broadcast: the result shape is `sizes` followed by the operand's shape.
mlir::LogicalResult verifyBroadcast(EmitErrorFn emitError,
                                    mlir::ShapedType operand,
                                    llvm::ArrayRef<int64_t> sizes,
                                    mlir::ShapedType result);

/// torch_index_select: `batchDims` <= `dim` < rank(operand), `batchDims` <=
/// rank(index), equal batch dimensions, and the result shape
/// operand[:dim] ++ index[batchDims:] ++ operand[dim + 1:].
mlir::LogicalResult verifyTorchIndexSelect(EmitErrorFn emitError,
                                           mlir::ShapedType operand,
                                           mlir::ShapedType index, int64_t dim,
                                           int64_t batchDims,
                                           mlir::ShapedType result);

/// batch_norm_*: `featureIndex` is a dimension of `operand`, and each
/// per-feature tensor (`names[i]` has type `perFeature[i]`) is 1-D with the
/// size of that dimension and the operand's element type.
mlir::LogicalResult verifyBatchNorm(EmitErrorFn emitError,
                                    mlir::ShapedType operand,
                                    int64_t featureIndex,
                                    llvm::ArrayRef<llvm::StringRef> names,
                                    mlir::TypeRange perFeature);

/// An einsum config (`"ab,bc->ac"`) resolved against the operand shapes.
/// Every dimension of every operand and of the result carries a label: one
/// per letter, and one per position of `...` counted from the right (so
/// `...` of different lengths align on their minor dimensions).
struct EinsumLabels {
  /// operands[i][d]: the label of dimension d of operand i.
  llvm::SmallVector<llvm::SmallVector<int64_t>> operands;
  /// The label of each result dimension.
  llvm::SmallVector<int64_t> result;
  /// The size of each label (ShapedType::kDynamic when no operand fixes it).
  llvm::SmallVector<int64_t> sizes;
  /// A printable name of each label (`a`, or `...[0]` for the minor
  /// dimension of the ellipsis).
  llvm::SmallVector<std::string> names;

  int64_t getNumLabels() const { return static_cast<int64_t>(sizes.size()); }
  /// Whether `label` is a dimension of the result.
  bool isInResult(int64_t label) const;
};

/// Parses `config` (one term per operand, `->`, the result term) and checks
/// it against the operand and result shapes: terms name as many dimensions
/// as the tensors have, letters of the result appear once and in some
/// operand, a label has one size wherever it appears, and the result
/// dimensions have their labels' sizes. Operand letters may repeat (a
/// diagonal). Letters not in the result are summed over.
mlir::FailureOr<EinsumLabels> analyzeEinsum(EmitErrorFn emitError,
                                            llvm::StringRef config,
                                            mlir::TypeRange operands,
                                            mlir::ShapedType result);

} // namespace toast::stablehlo

#endif // TOAST_DIALECT_STABLEHLO_IR_STABLEHLOVERIFIERS_H
