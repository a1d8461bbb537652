//===- Collectives.h - Data movement shared by collective ops ---*- C++ -*-===//
//
// Private to lib/toast/Interpreter: the primitives from which both the
// PartIR:HLO collectives (groups named by mesh axes) and the StableHLO
// collectives (groups listed as device ids) are evaluated. A group is a
// list of device ids in the order in which a gather concatenates.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_LIB_INTERPRETER_COLLECTIVES_H
#define TOAST_LIB_INTERPRETER_COLLECTIVES_H

#include "OpImpl.h"

namespace toast::interp::detail {

/// The SPMD context of the run, or null after an error at `op` (collectives
/// need one device per mesh coordinate).
SpmdContext *getSpmdContext(Interpreter &interp, mlir::Operation *op);

/// Copies of the operands of every member of `group` at the collective `op`
/// (members[k] holds what group[k] contributed). Every device of the run
/// must call this at `op`, whatever its group.
using GroupOperands = llvm::SmallVector<llvm::SmallVector<Tensor>>;
mlir::FailureOr<GroupOperands> collectGroup(SpmdContext &spmd,
                                            mlir::Operation *op,
                                            llvm::ArrayRef<Tensor> operands,
                                            llvm::ArrayRef<int64_t> group);

/// The position of `device` in `group`, or -1.
int64_t positionIn(llvm::ArrayRef<int64_t> group, int64_t device);

/// Concatenates `parts` along dimension `dim`.
Tensor concatenate(llvm::ArrayRef<Tensor> parts, int64_t dim);

/// Chunk `index` of `x` split into `count` equal chunks along `dim`.
Tensor chunkOf(const Tensor &x, int64_t dim, int64_t count, int64_t index);
/// Like chunkOf, but when `count` does not divide the dimension, chunks of
/// ceil(size / count) rows, zero-padded past the end (a padded all_slice).
Tensor paddedChunkOf(const Tensor &x, int64_t dim, int64_t count,
                     int64_t index);

/// Folds `values` (in order) with `combiner`, or with `region` (two scalars
/// to one) when the combiner is None.
mlir::FailureOr<Tensor> reduceValues(Interpreter &interp, mlir::Region *region,
                                     Combiner combiner,
                                     llvm::ArrayRef<Tensor> values);

/// Fails with an error at `op` when `value`, computed for result `i`, does
/// not have that result's type. The verifier checks an op's types against
/// the op's own view of its groups; `describeGroups` says how the run
/// formed them ("with groups of 4 devices"), for when the two disagree.
mlir::LogicalResult
checkResult(mlir::Operation *op, unsigned i, const Tensor &value,
            llvm::function_ref<std::string()> describeGroups);

/// Computes one result of a collective from the corresponding operand of
/// every member of the executing device's group (`values`, in group order;
/// empty when the device is in no group); `position` is the device's
/// position in the group (-1 when it is in none).
using PerOperandFn = llvm::function_ref<mlir::FailureOr<Tensor>(
    llvm::ArrayRef<Tensor> values, int64_t position)>;

/// Evaluates the collective `op` of the executing device within `group`:
/// exchanges `operands` (collectGroup), computes result j with `compute`
/// from operand j of every member, checks it (checkResult with
/// `describeGroups`) and appends it to `results`. Every device of the run
/// must call this at `op`, whatever its group.
mlir::LogicalResult
evalWithinGroup(SpmdContext &spmd, mlir::Operation *op,
                llvm::ArrayRef<Tensor> operands, llvm::ArrayRef<int64_t> group,
                PerOperandFn compute,
                llvm::function_ref<std::string()> describeGroups,
                llvm::SmallVectorImpl<Tensor> &results);

/// all_to_all for the member at `position` of a group whose operands are
/// `members` (one tensor each): chunk `position` of every member's operand
/// split along `splitDim`, concatenated in group order along `concatDim`.
Tensor allToAll(llvm::ArrayRef<Tensor> members, int64_t splitDim,
                int64_t concatDim, int64_t position);

} // namespace toast::interp::detail

#endif // TOAST_LIB_INTERPRETER_COLLECTIVES_H
