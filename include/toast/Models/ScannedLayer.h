//===- ScannedLayer.h - A layer scanned over stacked params -*- C++ -*-===//
//
// L applications of one layer y = f(x, invariants, params_l) to parameters
// stacked on a leading layer dimension, in the loops jax.lax.scan and its
// gradient lower to: a forward stablehlo.while over the layers and, for a
// training step, a backward while visiting them in reverse.
//
// The layer is traced once into a scratch block together with its
// vector-Jacobian product (GraphBuilder::vjp), which splits it into the
// forward ops and the backward ops. The values the backward ops read from
// the forward ones are the residuals. The loops are clones of the two
// halves:
//
//  * with `ScanResiduals::All` (jax.grad of lax.scan), the forward loop
//    writes every residual into a stacked [L, ...] buffer at the counter
//    (dynamic_update_slice) and the backward loop reads layer l's with
//    dynamic_slice: it runs the layer's backward ops and no forward op. Two
//    kinds of residuals are not stacked: broadcasts and constants are
//    re-emitted in the backward body from their operands (data movement,
//    no arithmetic), and residuals computed only from the loop invariants
//    are computed once between the two loops and carried (JAX hoists such
//    loop-invariant residuals out of the scan);
//  * with `ScanResiduals::Inputs` (jax.checkpoint on the scanned layer),
//    only each layer's input is stacked; the backward body recomputes the
//    forward ops the backward ones need from it.
//
// The layer's parameters are read at the counter, loop invariants (and the
// stacked parameters) go through the carries: no loop region reads a value
// defined outside of it.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_MODELS_SCANNEDLAYER_H
#define TOAST_MODELS_SCANNEDLAYER_H

#include "toast/Models/GraphBuilder.h"

#include "mlir/IR/Block.h"
#include "llvm/ADT/SetVector.h"

#include <memory>

namespace toast::models {

/// What the forward loop of a scanned layer saves for the backward loop.
enum class ScanResiduals {
  /// Nothing: a forward pass only (no `backward`).
  None,
  /// Each layer's input; the backward loop recomputes the layer
  /// (jax.checkpoint on the scanned layer).
  Inputs,
  /// Every value the layer's backward pass reads; the backward loop does
  /// not recompute the layer (jax.grad of lax.scan).
  All,
};

class ScannedLayer {
public:
  /// One layer: its output from its input `x`, the loop invariants and its
  /// parameters (unstacked, in the order of the stacked ones). It must use
  /// only these values.
  using LayerFn = llvm::function_ref<mlir::Value(
      mlir::Value x, llvm::ArrayRef<mlir::Value> invariants,
      llvm::ArrayRef<mlir::Value> params)>;

  /// `stackedParams` are [L, ...] (L the same for all); `invariants` are
  /// the values every layer reads unchanged.
  ScannedLayer(GraphBuilder &b, llvm::ArrayRef<mlir::Value> invariants,
               llvm::ArrayRef<mlir::Value> stackedParams,
               ScanResiduals residuals);
  ~ScannedLayer();

  /// Emits the forward loop over (i, x, residual buffers..., invariants...,
  /// stacked params...) and returns the last layer's output. Not
  /// differentiable (see `backward`).
  mlir::Value forward(mlir::Value x, LayerFn layer);
  /// Emits the backward loop after `forward`, over (i, dx, gradient
  /// buffers..., residual buffers..., hoisted invariants..., stacked
  /// params...), visiting layer l = L-1-i. `dy` is the cotangent of the last
  /// layer's output; returns that of the first layer's input and sets
  /// `grads` to the stacked parameter gradients [L, ...].
  mlir::Value backward(mlir::Value dy,
                       llvm::SmallVectorImpl<mlir::Value> &grads);

  /// The residuals stacked by the forward loop (after `forward`), as
  /// [L, ...] buffers.
  llvm::ArrayRef<mlir::Value> residualBuffers() const { return buffers; }

private:
  /// Traces the layer and, unless `ScanResiduals::None`, its VJP into
  /// `scratch`.
  void trace(mlir::Type xType, LayerFn layer);
  /// Sorts the values the backward ops read from the forward ops into
  /// stacked, hoisted and rebuilt.
  void findResiduals();
  void classify(mlir::Value residual,
                llvm::SmallVectorImpl<mlir::Value> &worklist);
  /// Whether `v` is a forward value of the traced layer (not `dy`).
  bool isForwardValue(mlir::Value v) const;
  /// Scratch arguments: x, invariants..., params..., dy.
  mlir::Value xArg() const { return scratch->getArgument(0); }
  mlir::Value dyArg() const { return scratch->getArguments().back(); }
  llvm::SmallVector<mlir::Value> invariantArgs() const;
  llvm::SmallVector<mlir::Value> paramArgs() const;
  /// Clones the forward ops that are in `ops`, in program order, at the
  /// insertion point.
  void cloneForward(const llvm::SetVector<mlir::Operation *> &ops,
                    mlir::IRMapping &mapping);
  /// Emits the hoisted residuals before the backward loop.
  llvm::SmallVector<mlir::Value> emitHoisted();

  GraphBuilder &b;
  int64_t layers;
  llvm::SmallVector<mlir::Value> invariants, stackedParams;
  ScanResiduals mode;

  /// The traced layer: arguments (x, invariants..., params..., dy).
  std::unique_ptr<mlir::Block> scratch;
  llvm::SetVector<mlir::Operation *> forwardOps;
  llvm::SmallVector<mlir::Operation *> backwardOps;
  mlir::Value output;
  /// The layer's VJP: cotangents of x and of each parameter.
  llvm::SmallVector<mlir::Value> cotangents;
  llvm::DenseSet<mlir::Value> invariantValues;

  /// Residuals, in program order: stacked by the forward loop or hoisted
  /// between the loops; the forward ops re-emitted in the backward body;
  /// every forward value the backward body reads (also through `rebuilt`).
  llvm::SmallVector<mlir::Value> stacked, hoisted;
  llvm::SetVector<mlir::Operation *> rebuilt;
  llvm::DenseSet<mlir::Value> seen;

  /// The forward loop's stacked residual buffers.
  llvm::SmallVector<mlir::Value> buffers;
};

} // namespace toast::models

#endif // TOAST_MODELS_SCANNEDLAYER_H
