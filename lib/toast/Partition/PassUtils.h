//===- PassUtils.h - Shared plumbing of the partition passes ----*- C++ -*-===//
#ifndef TOAST_LIB_PARTITION_PASSUTILS_H
#define TOAST_LIB_PARTITION_PASSUTILS_H

#include "toast/Partition/Schedule.h"

namespace toast::partition {

/// Parses `B=4,M=2`; an empty string gives no axes.
mlir::FailureOr<llvm::SmallVector<std::pair<std::string, int64_t>>>
parseMeshOption(mlir::ModuleOp module, llvm::StringRef text);

/// Resolves the mesh and entry function, loads the saved state, runs `fn`
/// on it and saves the state back. Fails (with diagnostics) at any step.
mlir::LogicalResult
withSavedState(mlir::ModuleOp module, llvm::StringRef meshOption,
               llvm::function_ref<mlir::LogicalResult(ShardingState &)> fn);

} // namespace toast::partition

#endif // TOAST_LIB_PARTITION_PASSUTILS_H
