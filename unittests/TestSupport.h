//===- TestSupport.h - Helpers shared by the gtest suites -------*- C++ -*-===//
//
// Header-only helpers for tests that need a model of the zoo or a
// partitioned program: the same spec strings toast-models takes, and the
// schedule pass followed by lowering, as a user runs them.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_UNITTESTS_TESTSUPPORT_H
#define TOAST_UNITTESTS_TESTSUPPORT_H

#include "toast/Models/Models.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

namespace toast::test_support {

/// The tiny zoo: the smallest configurations of every toast-models model,
/// which the agreement, search and memory-floor tests run on.
inline constexpr const char *kTinyZoo[] = {
    "mlp --batch 8 --d-model 16 --hidden 32",
    "t32 --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 --key-size 4 "
    "--vocab 32 --hidden 24",
    "t2b --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 --key-size 4 "
    "--vocab 32 --hidden 24",
    "itx --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 --key-size 4 "
    "--vocab 32 --hidden 24",
    "gns --nodes 8 --edges 16 --mp-steps 2 --latent 8 --hidden 12 "
    "--mlp-layers 1",
    "unet --batch 4 --resolution 8 --channels 4 --heads 2",
};

/// A model generated from "name --opt value ..." (toast-models' flags:
/// --inference, --scan, --remat, --flatten-linear, --dtype T and integer
/// options).
inline mlir::OwningOpRef<mlir::ModuleOp>
buildModelFromSpec(mlir::MLIRContext &ctx, llvm::StringRef spec) {
  llvm::SmallVector<llvm::StringRef> words;
  llvm::SplitString(spec, words);
  models::ModelOptions options;
  for (size_t i = 1; i < words.size(); ++i) {
    llvm::StringRef flag = words[i].drop_front(2);
    if (bool *on = llvm::StringSwitch<bool *>(flag)
                       .Case("inference", &options.inference)
                       .Case("scan", &options.scan)
                       .Case("remat", &options.remat)
                       .Case("flatten-linear", &options.flattenLinear)
                       .Default(nullptr)) {
      *on = true;
      continue;
    }
    if (flag == "dtype" && i + 1 < words.size()) {
      options.dtype = words[++i].str();
      continue;
    }
    int64_t value = 0;
    if (i + 1 < words.size() && !words[i + 1].getAsInteger(10, value)) {
      options.ints[flag] = value;
      ++i;
    }
  }
  std::string error;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      models::buildModel(&ctx, words.front(), options, error);
  EXPECT_TRUE(module) << error;
  return module;
}

/// Runs --partir-schedule (from JSON text) and --partir-lower-to-hlo on
/// `module` (the passes must be registered).
inline mlir::LogicalResult scheduleAndLower(mlir::MLIRContext &ctx,
                                            mlir::ModuleOp module,
                                            llvm::StringRef scheduleJson) {
  llvm::SmallString<128> path;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("schedule", "json", fd, path))
    return mlir::failure();
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << scheduleJson;
  }
  mlir::PassManager pm(&ctx, mlir::ModuleOp::getOperationName());
  std::string pipeline =
      "partir-schedule{file=" + path.str().str() + "},partir-lower-to-hlo";
  std::string parseErrors;
  llvm::raw_string_ostream errorStream(parseErrors);
  mlir::LogicalResult result =
      mlir::parsePassPipeline(pipeline, pm, errorStream);
  if (mlir::succeeded(result))
    result = pm.run(module);
  else
    ADD_FAILURE() << "bad pipeline '" << pipeline << "': " << parseErrors;
  llvm::sys::fs::remove(path);
  return result;
}

} // namespace toast::test_support

#endif // TOAST_UNITTESTS_TESTSUPPORT_H
