//===- Layers.h - Neural-network building blocks over GraphBuilder -*- C++ -*-===//
//
// Composite layers written with GraphBuilder's primitive emitters, so that
// their gradients come from the primitives' VJP rules. Each emits the op
// sequence jax.nn / flax would: softmax subtracts a stop-gradient maximum,
// normalizations reduce in f32, GeLU uses the tanh approximation.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_MODELS_LAYERS_H
#define TOAST_MODELS_LAYERS_H

#include "toast/Models/GraphBuilder.h"

namespace toast::models {

/// relu(x) = max(x, 0).
mlir::Value relu(GraphBuilder &b, mlir::Value x);
/// GeLU, tanh approximation: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
mlir::Value gelu(GraphBuilder &b, mlir::Value x);
/// x * logistic(x).
mlir::Value silu(GraphBuilder &b, mlir::Value x);

/// Sum over `dims` divided by the number of summed elements.
mlir::Value mean(GraphBuilder &b, mlir::Value x, llvm::ArrayRef<int64_t> dims);
/// Re-inserts reduced dimensions: broadcasts `reduced` (x with `dims`
/// removed) back to `shape`.
mlir::Value expandTo(GraphBuilder &b, mlir::Value reduced,
                     llvm::ArrayRef<int64_t> shape,
                     llvm::ArrayRef<int64_t> dims);
/// Broadcasts a vector over the last dimension of `shape`.
mlir::Value broadcastLast(GraphBuilder &b, mlir::Value vec,
                          llvm::ArrayRef<int64_t> shape);

/// Softmax along `axis`, computed in f32 and returned in x's element type.
mlir::Value softmax(GraphBuilder &b, mlir::Value x, int64_t axis);
/// log(softmax(x)) along `axis`, in f32.
mlir::Value logSoftmax(GraphBuilder &b, mlir::Value x, int64_t axis);

/// RMS normalization over the last axis: x / sqrt(mean(x^2) + eps) * s,
/// where s = 1 + scale (Gemma) if `plusOne`, else scale.
mlir::Value rmsNorm(GraphBuilder &b, mlir::Value x, mlir::Value scale,
                    bool plusOne = false, double eps = 1e-6);
/// Layer normalization over the last axis with scale and offset.
mlir::Value layerNorm(GraphBuilder &b, mlir::Value x, mlir::Value scale,
                      mlir::Value offset, double eps = 1e-6);
/// Group normalization of an NHWC tensor over (H, W, C/groups), with
/// per-channel scale and offset.
mlir::Value groupNorm(GraphBuilder &b, mlir::Value x, int64_t groups,
                      mlir::Value scale, mlir::Value offset,
                      double eps = 1e-6);

/// x @ w contracting the last dim of x with the first of w, plus an
/// optional bias broadcast over the last dim.
mlir::Value dense(GraphBuilder &b, mlir::Value x, mlir::Value w,
                  mlir::Value bias = nullptr);

/// one_hot(indices, n): compare(iota, indices) converted to `elementType`,
/// shape indices.shape ++ [n].
mlir::Value oneHot(GraphBuilder &b, mlir::Value indices, int64_t n,
                   mlir::Type elementType);
/// Mean softmax cross-entropy of `logits` [..., V] against integer labels
/// [...], as an f32 scalar.
mlir::Value crossEntropy(GraphBuilder &b, mlir::Value logits,
                         mlir::Value labels);

/// Causal mask [T, S] (i1): query t sees keys s <= t + offset, built from
/// iota and compare.
mlir::Value causalMask(GraphBuilder &b, int64_t queries, int64_t keys,
                       int64_t offset = 0);
/// Rotary position embedding of x [B, T, H, K] at positions `positions`
/// ([T], f32): rotates the two halves of the last dimension.
mlir::Value rope(GraphBuilder &b, mlir::Value x, mlir::Value positions,
                 double base = 10000.0);

} // namespace toast::models

#endif // TOAST_MODELS_LAYERS_H
