//===- OutputFile.h - Writing reports without aborting ----------*- C++ -*-===//
//
// A raw_fd_ostream whose write failed (a full disk, /dev/full, a closed
// pipe) calls report_fatal_error when it is destroyed with the error still
// set. Every file Toast writes for the user goes through these helpers, so
// that such a failure becomes a located error and a non-zero exit instead.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_SUPPORT_OUTPUTFILE_H
#define TOAST_SUPPORT_OUTPUTFILE_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/ToolOutputFile.h"

#include <system_error>

namespace toast {

/// Flushes `os` and returns the error of its writes (success if all went
/// through), clearing it so that destroying `os` does not abort.
std::error_code takeWriteError(llvm::raw_fd_ostream &os);

/// Flushes `file`; if a write to it failed, emits
/// "<context> '<path>': <reason>" at `loc` and clears the error.
mlir::LogicalResult checkWritten(llvm::ToolOutputFile &file, mlir::Location loc,
                                 const llvm::Twine &context);

/// Writes `emit`'s output to `path` ("-": stdout) and keeps the file only if
/// every write went through. Opening or writing failures are reported at
/// `loc` as "<context> '<path>': <reason>".
mlir::LogicalResult
writeOutputFile(mlir::Location loc, const llvm::Twine &context,
                llvm::StringRef path,
                llvm::function_ref<void(llvm::raw_ostream &)> emit);

} // namespace toast

#endif // TOAST_SUPPORT_OUTPUTFILE_H
