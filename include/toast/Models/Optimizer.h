//===- Optimizer.h - Named parameters and the Adam training step -*- C++ -*-===//
//
// `Params` declares the model parameters as named function arguments
// (`params.<path>`). `AdamState` declares the optimizer state as arguments
// named `opt_state.mu.<path>`, `opt_state.nu.<path>` and `opt_state.step`,
// and `emitAdamTrainStep` differentiates the loss, applies one Adam update
// with bias correction, and returns (loss, new params, new optimizer state)
// with `jax.result_info` names.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_MODELS_OPTIMIZER_H
#define TOAST_MODELS_OPTIMIZER_H

#include "toast/Models/GraphBuilder.h"

namespace toast::models {

/// The model parameters in declaration order.
class Params {
public:
  /// Declares argument `params.<path>`.
  mlir::Value add(GraphBuilder &b, llvm::StringRef path,
                  llvm::ArrayRef<int64_t> shape, mlir::Type elementType);
  llvm::ArrayRef<std::string> paths() const { return pathList; }
  llvm::ArrayRef<mlir::Value> values() const { return valueList; }
  size_t size() const { return valueList.size(); }
  /// Total number of scalar parameters.
  int64_t numElements() const;

private:
  llvm::SmallVector<std::string> pathList;
  llvm::SmallVector<mlir::Value> valueList;
};

struct AdamConfig {
  double learningRate = 1e-4;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
};

/// Optimizer-state arguments, one mu and nu per parameter plus a step count.
struct AdamState {
  llvm::SmallVector<mlir::Value> mu, nu;
  mlir::Value step;
};

/// Declares `opt_state.mu.*`, `opt_state.nu.*` (parameter shapes and types)
/// and `opt_state.step` (tensor<i32>).
AdamState declareAdamState(GraphBuilder &b, const Params &params);

/// Results of one Adam update.
struct AdamUpdate {
  llvm::SmallVector<mlir::Value> params, mu, nu;
  mlir::Value step;
};

/// Emits one Adam update from gradients (no results are added).
AdamUpdate emitAdamUpdate(GraphBuilder &b, const Params &params,
                          llvm::ArrayRef<mlir::Value> grads,
                          const AdamState &state, const AdamConfig &config);

/// grad(loss, params) and the function results `loss`, `grad.<path>`...
void emitGradientResults(GraphBuilder &b, const Params &params,
                         mlir::Value loss);
/// The same with the gradients `grads` (one per parameter) given, for a
/// backward pass the model emits itself.
void emitGradientResults(GraphBuilder &b, const Params &params,
                         mlir::Value loss, llvm::ArrayRef<mlir::Value> grads);

/// grad(loss, params), the Adam update, and the function results `loss`,
/// `params.*`, `opt_state.mu.*`, `opt_state.nu.*`, `opt_state.step`.
void emitAdamTrainStep(GraphBuilder &b, const Params &params,
                       const AdamState &state, mlir::Value loss,
                       const AdamConfig &config = {});
/// The same with the gradients `grads` (one per parameter) given.
void emitAdamTrainStep(GraphBuilder &b, const Params &params,
                       const AdamState &state, mlir::Value loss,
                       llvm::ArrayRef<mlir::Value> grads,
                       const AdamConfig &config = {});

} // namespace toast::models

#endif // TOAST_MODELS_OPTIMIZER_H
