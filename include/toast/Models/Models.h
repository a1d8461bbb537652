//===- Models.h - The papers' benchmark models as StableHLO -----*- C++ -*-===//
//
// A registry of model generators. A name is a model family (`mlp`,
// `transformer`, `itx`, `gns`, `unet`) or one of its presets (`t32`, `t48`,
// `t2b`, `t7b`, ...). Integer options (`layers`, `batch`, `seq`, ...)
// override the preset; each model rejects options it does not take.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_MODELS_MODELS_H
#define TOAST_MODELS_MODELS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace toast::models {

/// Options of one generation request.
struct ModelOptions {
  /// Integer overrides by option name (`layers`, `d-model`, ...).
  llvm::StringMap<int64_t> ints;
  /// Forward pass only (models that have a training step).
  bool inference = false;
  /// Training steps return `loss` and `grad.<path>` per parameter instead of
  /// applying Adam (no optimizer state); for gradient checks.
  bool gradients = false;
  /// Transformer embedding lookup: "gather", "onehot", or "" for the
  /// preset's choice.
  std::string embedding;
  /// Parameter element type: "f32", "bf16" or "f64" (f64 for numerical
  /// tests: no value is computed in a narrower type).
  std::string dtype = "f32";
  /// The repeated layers as one stablehlo.while over parameters stacked on a
  /// leading layer dimension (`params.layers.<path>`), as jax.lax.scan /
  /// Flax's nn.scan emit them (transformer, itx).
  bool scan = false;
  /// With `scan`, a training step's backward loop recomputes each layer from
  /// its saved input (jax.checkpoint on the scanned layer) instead of
  /// reading every residual the forward loop saved (transformer).
  bool remat = false;
  /// The linear layers written the PyTorch way: activations flattened to
  /// (B*S, D) around each linear layer (2-D weights), unflattened after it,
  /// heads split and merged by reshapes (transformer).
  bool flattenLinear = false;
};

/// One integer option a model takes.
struct OptionInfo {
  std::string name;
  std::string help;
};

/// A generator as listed by `toast-models --list`.
struct ModelInfo {
  std::string name;
  /// The model family, equal to `name` for a family itself.
  std::string family;
  std::string summary;
};

/// Every model and preset name, families first.
llvm::ArrayRef<ModelInfo> listModels();
/// Every integer option any model takes.
llvm::ArrayRef<OptionInfo> listOptions();

/// Size of a generated program.
struct ModelStats {
  /// Elements and tensors of the `params.*` arguments.
  int64_t parameters = 0;
  int64_t parameterTensors = 0;
  /// Operations in @main (nested regions included, the return excluded).
  int64_t ops = 0;
  int64_t arguments = 0;
};

/// Generates model `name`. On failure returns null and sets `error`.
mlir::OwningOpRef<mlir::ModuleOp> buildModel(mlir::MLIRContext *ctx,
                                             llvm::StringRef name,
                                             const ModelOptions &options,
                                             std::string &error);

/// Measures a generated module.
ModelStats measureModel(mlir::ModuleOp module);

} // namespace toast::models

#endif // TOAST_MODELS_MODELS_H
