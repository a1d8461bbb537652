//===- ModelsInternal.h - Model generators behind the registry --*- C++ -*-===//
//
// Each model family implements one generator. Generators read their sizes
// from a preset, apply the integer overrides through `applyOptions`, and
// return a verified module or set `error`.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_LIB_MODELS_MODELSINTERNAL_H
#define TOAST_LIB_MODELS_MODELSINTERNAL_H

#include "toast/Models/GraphBuilder.h"
#include "toast/Models/Models.h"
#include "toast/Models/Optimizer.h"

namespace toast::models::gen {

/// An integer option a generator takes, bound to the config field it sets.
struct IntOption {
  llvm::StringRef name;
  int64_t *field;
};

/// Copies `options.ints` into `fields`. Fails (setting `error`) when an
/// option is not among `fields` or a value is not positive.
bool applyOptions(llvm::StringRef model, const ModelOptions &options,
                  llvm::ArrayRef<IntOption> fields, std::string &error);

/// Parameter element type from `options.dtype`.
mlir::Type paramType(GraphBuilder &b, const ModelOptions &options);

/// The optimizer state arguments, unless `options.gradients`.
AdamState declareTrainState(GraphBuilder &b, const Params &params,
                            const ModelOptions &options);
/// The Adam step, or the gradients when `options.gradients`.
void emitTrainStep(GraphBuilder &b, const Params &params,
                   const AdamState &state, mlir::Value loss,
                   const ModelOptions &options);

/// Sets `error` and returns false unless `cond`.
bool check(bool cond, const llvm::Twine &message, std::string &error);

using Generator = mlir::OwningOpRef<mlir::ModuleOp> (*)(
    mlir::MLIRContext *, llvm::StringRef preset, const ModelOptions &,
    std::string &error);

mlir::OwningOpRef<mlir::ModuleOp> buildMLP(mlir::MLIRContext *ctx,
                                           llvm::StringRef preset,
                                           const ModelOptions &options,
                                           std::string &error);
mlir::OwningOpRef<mlir::ModuleOp> buildTransformer(mlir::MLIRContext *ctx,
                                                   llvm::StringRef preset,
                                                   const ModelOptions &options,
                                                   std::string &error);
mlir::OwningOpRef<mlir::ModuleOp>
buildInferenceTransformer(mlir::MLIRContext *ctx, llvm::StringRef preset,
                          const ModelOptions &options, std::string &error);

mlir::OwningOpRef<mlir::ModuleOp> buildGNS(mlir::MLIRContext *ctx,
                                           llvm::StringRef preset,
                                           const ModelOptions &options,
                                           std::string &error);

mlir::OwningOpRef<mlir::ModuleOp> buildUNet(mlir::MLIRContext *ctx,
                                            llvm::StringRef preset,
                                            const ModelOptions &options,
                                            std::string &error);

} // namespace toast::models::gen

#endif // TOAST_LIB_MODELS_MODELSINTERNAL_H
