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
/// option is not among `fields`, a value is not positive, or a flag that is
/// set (`scan`, `remat`) is not among `flags`, or --remat is set without
/// --scan.
bool applyOptions(llvm::StringRef model, const ModelOptions &options,
                  llvm::ArrayRef<IntOption> fields, std::string &error,
                  llvm::ArrayRef<llvm::StringRef> flags = {});

/// Parameter element type from `options.dtype`.
mlir::Type paramType(GraphBuilder &b, const ModelOptions &options);

/// The optimizer state arguments, unless `options.gradients`.
AdamState declareTrainState(GraphBuilder &b, const Params &params,
                            const ModelOptions &options);
/// The Adam step, or the gradients when `options.gradients`.
void emitTrainStep(GraphBuilder &b, const Params &params,
                   const AdamState &state, mlir::Value loss,
                   const ModelOptions &options);
/// The same with the gradients `grads` (one per parameter) given.
void emitTrainStep(GraphBuilder &b, const Params &params,
                   const AdamState &state, mlir::Value loss,
                   llvm::ArrayRef<mlir::Value> grads,
                   const ModelOptions &options);

/// Where a layer's parameters are declared: `params.layer_<i>.<path>` with
/// the layer's shapes (unrolled), or, under --scan, all layers at once as
/// `params.layers.<path>` with a leading layer dimension [L, ...] (the names
/// Flax's nn.scan over a submodule `layers` gives the stacked variables).
struct LayerPrefix {
  std::string path;
  llvm::SmallVector<int64_t> leading;

  static LayerPrefix unrolled(int64_t layer);
  static LayerPrefix stacked(int64_t layers);
  /// Declares `params.<path><name>` of shape `leading ++ shape`.
  mlir::Value declare(GraphBuilder &b, Params &params, llvm::StringRef name,
                      llvm::ArrayRef<int64_t> shape,
                      mlir::Type elementType) const;
};

/// A layer's parameters are a struct of Values whose static `fields()`
/// lists its members in declaration order; absent members are null. These
/// flatten the present members (for a loop carry) and rebuild the struct.
template <typename T> llvm::SmallVector<mlir::Value> flattenFields(const T &s) {
  llvm::SmallVector<mlir::Value> all;
  for (mlir::Value T::*field : T::fields())
    if (s.*field)
      all.push_back(s.*field);
  return all;
}
/// `s` with every present member `v` replaced by `f(v)`, in `fields()` order.
template <typename T, typename F> T mapFields(const T &s, F f) {
  T result = s;
  for (mlir::Value T::*field : T::fields())
    if (result.*field)
      result.*field = f(result.*field);
  return result;
}
/// `like` with its present members replaced by `values`, in `fields()`
/// order (the inverse of `flattenFields`).
template <typename T>
T fromFields(const T &like, llvm::ArrayRef<mlir::Value> values) {
  const mlir::Value *next = values.begin();
  return mapFields(like, [&](mlir::Value) { return *next++; });
}
/// Layer `i` (a scalar i32) of the stacked parameters `stacked`, whose
/// members are read from `carried` (the loop's block arguments, flattened
/// like `flattenFields(stacked)`) with `dynamicIndex`.
template <typename T>
T layerAt(GraphBuilder &b, const T &stacked,
          llvm::ArrayRef<mlir::Value> carried, mlir::Value i) {
  const mlir::Value *next = carried.begin();
  return mapFields(stacked,
                   [&](mlir::Value) { return b.dynamicIndex(*next++, i); });
}

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
