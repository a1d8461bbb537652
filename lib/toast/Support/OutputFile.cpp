//===- OutputFile.cpp - Writing reports without aborting ------------------===//

#include "toast/Support/OutputFile.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FileSystem.h"

using namespace mlir;

std::error_code toast::takeWriteError(llvm::raw_fd_ostream &os) {
  // Buffered bytes reach the file only here: flush before asking.
  os.flush();
  std::error_code error = os.error();
  os.clear_error();
  return error;
}

LogicalResult toast::checkWritten(llvm::ToolOutputFile &file, Location loc,
                                  const Twine &context) {
  std::error_code error = takeWriteError(file.os());
  if (!error)
    return success();
  emitError(loc) << context << " '" << file.getFilename()
                 << "': " << error.message();
  return failure();
}

LogicalResult
toast::writeOutputFile(Location loc, const Twine &context, StringRef path,
                       function_ref<void(llvm::raw_ostream &)> emit) {
  std::error_code error;
  llvm::ToolOutputFile file(path, error, llvm::sys::fs::OF_None);
  if (error)
    return emitError(loc) << context << " '" << path
                          << "': " << error.message();
  emit(file.os());
  if (failed(checkWritten(file, loc, context)))
    return failure();
  file.keep();
  return success();
}
