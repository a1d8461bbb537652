//===- OpImpl.h - Shared helpers of the op handlers -------------*- C++ -*-===//
//
// Private to lib/toast/Interpreter: the registration hooks of each op
// family, and small helpers used by several families (result allocation,
// scalar combiners recognized from reduction regions, element arithmetic).
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_LIB_INTERPRETER_OPIMPL_H
#define TOAST_LIB_INTERPRETER_OPIMPL_H

#include "toast/Interpreter/Interpreter.h"

#include "mlir/IR/Operation.h"

namespace toast::interp::detail {

void registerControlOps(OpRegistry &registry);
void registerElementwiseOps(OpRegistry &registry);
void registerConvertOps(OpRegistry &registry);
void registerChloOps(OpRegistry &registry);
void registerShapeOps(OpRegistry &registry);
void registerGatherScatterOps(OpRegistry &registry);
void registerReductionOps(OpRegistry &registry);
void registerNormOps(OpRegistry &registry);
void registerContractionOps(OpRegistry &registry);
void registerSolveOps(OpRegistry &registry);
void registerRngOps(OpRegistry &registry);
void registerPartIRCoreOps(OpRegistry &registry);
void registerCollectiveOps(OpRegistry &registry);
void registerPartIRHLOOps(OpRegistry &registry);
void registerSdyOps(OpRegistry &registry);

/// A zero-filled tensor of the type of result `i` of `op`.
Tensor makeResult(mlir::Operation *op, unsigned i = 0);

/// The element type of a tensor type (which the verifier guarantees to be
/// supported once makeTensorOfType succeeded on some value of it).
ElementType elementTypeOf(mlir::Type tensorType);

/// Checks that every operand and result of `op` has a supported tensor
/// type; emits an error and fails otherwise.
mlir::LogicalResult checkSupportedTypes(mlir::Operation *op);

/// A binary operation recognized in a region so that reductions and
/// scatters can skip running the region per element.
enum class Combiner { None, Add, Mul, Max, Min, And, Or, Xor };

/// The combiner when `region` takes two scalars and returns one op of them
/// (`stablehlo.add %a, %b` and the like), else Combiner::None.
Combiner detectCombiner(mlir::Region &region);

/// acc[accIndex] = combine(acc[accIndex], x[xIndex]) with the element type's
/// semantics (floats round, integers wrap, max/min propagate NaN).
void applyCombiner(Combiner combiner, Tensor &acc, int64_t accIndex,
                   const Tensor &x, int64_t xIndex);

/// Elementwise binary helpers shared by ops and combiners.
double floatMax(double a, double b);
double floatMin(double a, double b);

/// Runs `region` on scalar operands built from elements of `inputs` at
/// `indices` and returns the scalar results. Used by the generic (slow) paths
/// of sort, reduce, scatter, ... .
mlir::LogicalResult runScalarRegion(Interpreter &interp, mlir::Region &region,
                                    llvm::ArrayRef<const Tensor *> inputs,
                                    llvm::ArrayRef<int64_t> indices,
                                    llvm::SmallVectorImpl<Tensor> &results);

/// A rank-0 tensor holding element `i` of `t`.
Tensor extractScalar(const Tensor &t, int64_t i);

/// Copies `shape`-many elements: dst[dstBase + sum(idx * dstStrides)] =
/// src[srcBase + sum(idx * srcStrides)] for every index `idx` of `shape`.
/// Offsets and strides count elements. Both tensors have one element type.
void copyStrided(const Tensor &src, int64_t srcBase,
                 llvm::ArrayRef<int64_t> srcStrides, Tensor &dst,
                 int64_t dstBase, llvm::ArrayRef<int64_t> dstStrides,
                 llvm::ArrayRef<int64_t> shape);

/// A new tensor holding the block of `x` of shape `shape` starting at
/// `offsets` (which must fit).
Tensor extractBlock(const Tensor &x, llvm::ArrayRef<int64_t> offsets,
                    llvm::ArrayRef<int64_t> shape);
/// Like extractBlock, but the block may run past the end of `x` (a padded
/// chunk, docs/dialects.md): elements outside `x` are zero.
Tensor extractPaddedBlock(const Tensor &x, llvm::ArrayRef<int64_t> offsets,
                          llvm::ArrayRef<int64_t> shape);
/// The part of `block`, placed at `offsets`, that lies within `bounds`
/// (drops the padding of a padded chunk).
Tensor clipBlock(const Tensor &block, llvm::ArrayRef<int64_t> offsets,
                 llvm::ArrayRef<int64_t> bounds);
/// Writes `block` into `dst` (same element type) at `offsets`.
void insertBlock(Tensor &dst, const Tensor &block,
                 llvm::ArrayRef<int64_t> offsets);

/// Converts a value of an integer tensor to int64 (signed or unsigned).
inline int64_t indexValue(const Tensor &t, int64_t i) { return t.getInt(i); }

} // namespace toast::interp::detail

#endif // TOAST_LIB_INTERPRETER_OPIMPL_H
