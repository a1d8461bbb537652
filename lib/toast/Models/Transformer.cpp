//===- Transformer.cpp - Decoder-only transformer training step ----------===//
//
// One parameter layout for all presets, so that one schedule (PartIR A.6)
// applies to all of them:
//
//   params.embedder.embedding            [V, D]  (tied input/output)
//   params.layer_<i>.pre_attn_norm.scale [D]     (.offset with LayerNorm)
//   params.layer_<i>.attn.qkv_einsum.w   [3, H, D, K]   (multi-head)
//   params.layer_<i>.attn.q_einsum.w     [H, D, K]      (grouped/multi-query)
//   params.layer_<i>.attn.kv_einsum.w    [2, KV, D, K]  (grouped/multi-query)
//   params.layer_<i>.attn.attn_vec_einsum.w [H, K, D]
//   params.layer_<i>.post_attn_norm.scale [D]    (T32/T48 only)
//   params.layer_<i>.pre_mlp_norm.scale  [D]     (.offset with LayerNorm)
//   params.layer_<i>.mlp.dense_up.w      [2, D, F]  (gate and up, GeLU gated)
//   params.layer_<i>.mlp.dense_down.w    [F, D]
//   params.final_norm.scale              [D]     (Gemma presets only)
//
// The block: x += attn(norm(x)); x += mlp(norm(x)), RoPE on q and k, causal
// mask from iota/compare/select, softmax in f32, loss = mean cross-entropy.
//
// With --scan the block parameters are stacked, `params.layers.<path>`
// [L, ...], and the blocks run as a stablehlo.while over them (jax.lax.scan
// / nn.scan); the training step's backward pass is a second, reverse while
// (ScannedLayer) that reads every residual the forward loop stacked
// (jax.grad of the scan), or with --remat recomputes each block from its
// saved input (a checkpointed scan).
//
//===----------------------------------------------------------------------===//

#include "ModelsInternal.h"
#include "toast/Models/Layers.h"
#include "toast/Models/Optimizer.h"
#include "toast/Models/ScannedLayer.h"

#include <cmath>
#include <optional>

using namespace mlir;
using namespace toast;
using namespace toast::models;
using namespace toast::models::gen;

namespace {
struct Config {
  int64_t layers, batch, seq, dModel, heads, kvHeads, keySize, vocab, hidden;
  /// T32/T48: LayerNorm (scale, offset) plus an extra post-attention RMS
  /// norm; Gemma: RMSNorm with (1 + scale), sqrt(D) embedding scale and a
  /// final norm.
  bool gemma;
  /// Embedding lookup as a one-hot dot_general (T32/T48) instead of a
  /// gather (Gemma); the gradient is then a contraction, not a scatter-add.
  bool oneHotEmbedding;
  /// --flatten-linear: the PyTorch way (linearFlat, projectHeads).
  bool flatten = false;
};

/// Large negative logit of masked positions (Gemma's K_MASK).
constexpr double kMaskValue = -2.3819763e38;

struct LayerParams {
  Value preAttnScale, preAttnOffset, qkv, q, kv, out, postAttnScale,
      preMlpScale, preMlpOffset, up, down;

  /// The members in declaration order (see flattenFields).
  static ArrayRef<Value LayerParams::*> fields() {
    static constexpr Value LayerParams::*all[] = {&LayerParams::preAttnScale,
                                                  &LayerParams::preAttnOffset,
                                                  &LayerParams::qkv,
                                                  &LayerParams::q,
                                                  &LayerParams::kv,
                                                  &LayerParams::out,
                                                  &LayerParams::postAttnScale,
                                                  &LayerParams::preMlpScale,
                                                  &LayerParams::preMlpOffset,
                                                  &LayerParams::up,
                                                  &LayerParams::down};
    return all;
  }
};
} // namespace

static bool presetConfig(StringRef preset, Config &c, std::string &error) {
  if (preset.empty() || preset == "t32")
    c = {32, 48, 2048, 4096, 32, 32, 128, 32000, 7168, false, true};
  else if (preset == "t48")
    c = {48, 64, 2048, 8192, 64, 64, 128, 32000, 28672, false, true};
  else if (preset == "t2b")
    c = {18, 8, 2048, 2048, 8, 1, 256, 256128, 16384, true, false};
  else if (preset == "t7b")
    c = {28, 8, 2048, 3072, 16, 16, 256, 256128, 24576, true, false};
  else
    return check(false, "unknown transformer preset '" + preset + "'", error);
  return true;
}

static Value norm(GraphBuilder &b, const Config &c, Value x, Value scale,
                  Value offset) {
  if (c.gemma)
    return rmsNorm(b, x, scale, /*plusOne=*/true);
  return layerNorm(b, x, scale, offset);
}

//===----------------------------------------------------------------------===//
// --flatten-linear: the same layer as PyTorch writes it. nn.Linear flattens
// [B, T, In] to [B*T, In], multiplies by a 2-D weight and unflattens; heads
// are split and merged by reshapes of [B, T, N*K]. The parameters keep the
// layout above (reshaped to 2-D here), so schedules apply to both forms. A
// fused attention weight (qkv, kv) is one linear layer whose output is
// split, as the batched form contracts it once: one transpose to 2-D and
// one gradient contraction (one all_reduce under batch sharding).
//===----------------------------------------------------------------------===//

/// x [B, T, In] times w [In, Out] through [B*T, In] and [B*T, Out].
static Value linearFlat(GraphBuilder &b, Value x, Value w) {
  ArrayRef<int64_t> xs = GraphBuilder::shapeOf(x);
  int64_t out = GraphBuilder::shapeOf(w)[1];
  Value flat = b.reshape(x, {xs[0] * xs[1], xs[2]});
  return b.reshape(b.dotGeneral(flat, w, {{}, {}, {1}, {0}}),
                   {xs[0], xs[1], out});
}

/// h [B, T, D] through the weight w: one linear layer whose 2-D weight is
/// w transposed by `order` (D = w's dimension order[0] first) with the
/// other dimensions merged, unflattened to [B, T, those dimensions...].
static Value linearParam(GraphBuilder &b, Value h, Value w,
                         ArrayRef<int64_t> order) {
  ArrayRef<int64_t> ws = GraphBuilder::shapeOf(w);
  ArrayRef<int64_t> hs = GraphBuilder::shapeOf(h);
  SmallVector<int64_t> out{hs[0], hs[1]};
  int64_t width = 1;
  for (int64_t d : order.drop_front()) {
    out.push_back(ws[d]);
    width *= ws[d];
  }
  Value w2d = b.reshape(b.transpose(w, order), {ws[order[0]], width});
  return b.reshape(linearFlat(b, h, w2d), out);
}

/// h [B, T, D] projected to heads [B, T, N, K] by w [N, D, K]: a linear
/// layer with the 2-D weight [D, N*K] (heads major), then the head split.
static Value projectHeads(GraphBuilder &b, Value h, Value w) {
  return linearParam(b, h, w, {1, 0, 2});
}

/// The C projections of a fused weight w [C, N, D, K] (q/k/v or k/v) from
/// one linear layer, as a fused PyTorch projection (Bloom's and GPT-NeoX's
/// query_key_value, Megatron's QKV) writes them: the 2-D weight
/// [D, N*C*K] with the heads major, so that head sharding stays a block of
/// the merged columns, then [B, T, N, C, K] and one slice per projection.
/// One weight, one gradient contraction, as in the batched form.
static SmallVector<Value, 3> projectFusedHeads(GraphBuilder &b, Value h,
                                               Value w) {
  Value all = linearParam(b, h, w, {2, 1, 0, 3});
  SmallVector<Value, 3> parts;
  for (int64_t i = 0, e = GraphBuilder::shapeOf(w)[0]; i < e; ++i)
    parts.push_back(b.index(all, 3, i));
  return parts;
}

/// encoded [B, T, H, K] through the output projection w [H, K, D]: heads
/// merged to [B, T, H*K], then a linear layer with the weight [H*K, D].
static Value mergeHeads(GraphBuilder &b, Value encoded, Value w) {
  ArrayRef<int64_t> es = GraphBuilder::shapeOf(encoded);
  ArrayRef<int64_t> ws = GraphBuilder::shapeOf(w);
  Value merged = b.reshape(encoded, {es[0], es[1], es[2] * es[3]});
  return linearFlat(b, merged, b.reshape(w, {ws[0] * ws[1], ws[2]}));
}

static Value attention(GraphBuilder &b, const Config &c, const LayerParams &p,
                       Value h, Value positions, Value mask) {
  int64_t B = c.batch, T = c.seq, H = c.heads, KV = c.kvHeads, K = c.keySize;
  Value q, k, v;
  if (c.flatten && p.qkv) {
    SmallVector<Value, 3> qkv = projectFusedHeads(b, h, p.qkv);
    q = qkv[0];
    k = qkv[1];
    v = qkv[2];
  } else if (c.flatten) {
    q = projectHeads(b, h, p.q);
    SmallVector<Value, 3> kv = projectFusedHeads(b, h, p.kv);
    k = kv[0];
    v = kv[1];
  } else if (p.qkv) {
    // 'BTD,SNDH->BTSNH'
    Value qkv = b.dotGeneral(h, p.qkv, {{}, {}, {2}, {2}});
    q = b.index(qkv, 2, 0);
    k = b.index(qkv, 2, 1);
    v = b.index(qkv, 2, 2);
  } else {
    q = b.dotGeneral(h, p.q, {{}, {}, {2}, {1}});         // [B,T,H,K]
    Value kv = b.dotGeneral(h, p.kv, {{}, {}, {2}, {2}}); // [B,T,2,KV,K]
    k = b.index(kv, 2, 0);
    v = b.index(kv, 2, 1);
  }
  q = rope(b, q, positions);
  k = rope(b, k, positions);
  q = b.mulScalar(q, 1.0 / std::sqrt(static_cast<double>(K)));

  Value encoded;
  if (KV == H) {
    // 'BTNH,BSNH->BNTS'
    Value logits = b.dotGeneral(q, k, {{0, 2}, {0, 2}, {3}, {3}});
    SmallVector<int64_t> shape{B, H, T, T};
    logits =
        b.select(b.broadcastInDim(mask, shape, {2, 3}), logits,
                 b.full(kMaskValue, shape, GraphBuilder::elementTypeOf(q)));
    Value probs = softmax(b, logits, 3);
    // 'BNTS,BSNH->BNTH' then to BTNH.
    encoded = b.dotGeneral(probs, v, {{0, 1}, {0, 2}, {3}, {1}});
    encoded = b.transpose(encoded, {0, 2, 1, 3});
  } else {
    int64_t G = H / KV;
    Value qg = b.reshape(q, {B, T, KV, G, K});
    // 'BTKGH,BSKH->BKTGS'
    Value logits = b.dotGeneral(qg, k, {{0, 2}, {0, 2}, {4}, {3}});
    SmallVector<int64_t> shape{B, KV, T, G, T};
    logits =
        b.select(b.broadcastInDim(mask, shape, {2, 4}), logits,
                 b.full(kMaskValue, shape, GraphBuilder::elementTypeOf(q)));
    Value probs = softmax(b, logits, 4);
    // 'BKTGS,BSKH->BKTGH' then to BTKGH and BTNH.
    encoded = b.dotGeneral(probs, v, {{0, 1}, {0, 2}, {4}, {1}});
    encoded = b.reshape(b.transpose(encoded, {0, 2, 1, 3, 4}), {B, T, H, K});
  }
  if (c.flatten)
    return mergeHeads(b, encoded, p.out);
  // 'BTNH,NHD->BTD'
  return b.dotGeneral(encoded, p.out, {{}, {}, {2, 3}, {0, 1}});
}

static Value mlp(GraphBuilder &b, const Config &c, const LayerParams &p,
                 Value h) {
  if (c.flatten) {
    // Gate and up as two linear layers (gate_proj and up_proj) on the
    // weight's halves [D, F], which are contiguous 2-D weights already. One
    // fused [D, F*2] layer (hidden major, for Megatron's F sharding) would
    // have one gradient all_reduce instead of two but must transpose the
    // whole [2, D, F] weight every step: under batch sharding that copy
    // costs more than the all_reduce it saves (docs/performance.md).
    Value gate = gelu(b, linearFlat(b, h, b.index(p.up, 0, 0)));
    Value up = linearFlat(b, h, b.index(p.up, 0, 1));
    return linearFlat(b, b.mul(gate, up), p.down);
  }
  // 'BTD,CDF->BTCF' with the whole [2, D, F] weight, so that its gradient
  // is a single contraction (one all-reduce under batch parallelism).
  Value both = b.dotGeneral(h, p.up, {{}, {}, {2}, {1}});
  Value gate = gelu(b, b.index(both, 2, 0));
  Value up = b.index(both, 2, 1);
  return dense(b, b.mul(gate, up), p.down);
}

/// One block: x += attn(norm(x)); x += mlp(norm(x)).
static Value block(GraphBuilder &b, const Config &c, const LayerParams &p,
                   Value x, Value positions, Value mask) {
  Value attn = attention(
      b, c, p, norm(b, c, x, p.preAttnScale, p.preAttnOffset), positions, mask);
  if (p.postAttnScale)
    attn = rmsNorm(b, attn, p.postAttnScale);
  x = b.add(x, attn);
  return b.add(x, mlp(b, c, p, norm(b, c, x, p.preMlpScale, p.preMlpOffset)));
}

static LayerParams declareLayer(GraphBuilder &b, Params &params,
                                const Config &c, const LayerPrefix &prefix,
                                Type elt) {
  int64_t D = c.dModel, H = c.heads, K = c.keySize;
  auto add = [&](StringRef name, ArrayRef<int64_t> shape) {
    return prefix.declare(b, params, name, shape, elt);
  };
  LayerParams p;
  p.preAttnScale = add("pre_attn_norm.scale", {D});
  if (!c.gemma)
    p.preAttnOffset = add("pre_attn_norm.offset", {D});
  if (c.kvHeads == H) {
    p.qkv = add("attn.qkv_einsum.w", {3, H, D, K});
  } else {
    p.q = add("attn.q_einsum.w", {H, D, K});
    p.kv = add("attn.kv_einsum.w", {2, c.kvHeads, D, K});
  }
  p.out = add("attn.attn_vec_einsum.w", {H, K, D});
  if (!c.gemma)
    p.postAttnScale = add("post_attn_norm.scale", {D});
  p.preMlpScale = add("pre_mlp_norm.scale", {D});
  if (!c.gemma)
    p.preMlpOffset = add("pre_mlp_norm.offset", {D});
  p.up = add("mlp.dense_up.w", {2, D, c.hidden});
  p.down = add("mlp.dense_down.w", {c.hidden, D});
  return p;
}

//===----------------------------------------------------------------------===//
// --scan: the blocks as loops over stacked parameters
//===----------------------------------------------------------------------===//

/// What the scanned blocks' forward loop saves for the backward loop:
/// nothing for a forward pass, each block's input with --remat (the
/// backward loop recomputes the block), else every residual.
static ScanResiduals scanResiduals(const ModelOptions &options) {
  if (options.inference)
    return ScanResiduals::None;
  return options.remat ? ScanResiduals::Inputs : ScanResiduals::All;
}

/// The gradients of the scanned training step in parameter order
/// (embedding, stacked block parameters, final norm): the head's from the
/// loss back to the last block's output `last`, the backward loop from
/// there to the first block's input `embedded`, and the embedding lookup's
/// contribution from that, added to the tied output projection's.
static SmallVector<Value> scanGradients(GraphBuilder &b, ScannedLayer &blocks,
                                        Value loss, Value embedded, Value last,
                                        Value embedding, Value finalScale) {
  SmallVector<Value> wrt{last, embedding};
  if (finalScale)
    wrt.push_back(finalScale);
  SmallVector<Value> head = b.grad(loss, wrt);
  SmallVector<Value> blockGrads;
  Value dx = blocks.backward(head[0], blockGrads);
  GraphBuilder::NoGradScope noGrad(b);
  SmallVector<Value> grads{
      b.add(head[1], b.vjp({embedded}, {dx}, {embedding})[0])};
  llvm::append_range(grads, blockGrads);
  if (finalScale)
    grads.push_back(head[2]);
  return grads;
}

OwningOpRef<ModuleOp> gen::buildTransformer(MLIRContext *ctx, StringRef preset,
                                            const ModelOptions &options,
                                            std::string &error) {
  Config c;
  if (!presetConfig(preset, c, error))
    return nullptr;
  StringRef name = preset.empty() ? "transformer" : preset;
  if (!applyOptions(name, options,
                    {{"layers", &c.layers},
                     {"batch", &c.batch},
                     {"seq", &c.seq},
                     {"d-model", &c.dModel},
                     {"heads", &c.heads},
                     {"kv-heads", &c.kvHeads},
                     {"key-size", &c.keySize},
                     {"vocab", &c.vocab},
                     {"hidden", &c.hidden}},
                    error, {"scan", "remat", "flatten-linear"}))
    return nullptr;
  c.flatten = options.flattenLinear;
  // Presets with kv-heads == heads keep that when only --heads changes.
  if (options.ints.count("heads") && !options.ints.count("kv-heads") &&
      c.kvHeads != 1)
    c.kvHeads = c.heads;
  if (!check(c.heads % c.kvHeads == 0,
             "--heads (" + Twine(c.heads) +
                 ") must be a multiple of --kv-heads (" + Twine(c.kvHeads) +
                 ")",
             error) ||
      !check(c.keySize % 2 == 0,
             "--key-size must be even (RoPE rotates halves)", error) ||
      !check(!options.remat || !options.inference,
             "--remat applies to training steps (not --inference)", error))
    return nullptr;

  GraphBuilder b(
      ctx, (name + (options.inference ? "_forward" : "_train_step")).str());
  Type elt = paramType(b, options);
  Params params;
  Value embedding =
      params.add(b, "embedder.embedding", {c.vocab, c.dModel}, elt);
  // Unrolled: one LayerParams per block; --scan: one of stacked parameters.
  SmallVector<LayerParams> layers;
  if (options.scan)
    layers.push_back(
        declareLayer(b, params, c, LayerPrefix::stacked(c.layers), elt));
  else
    for (int64_t i = 0; i < c.layers; ++i)
      layers.push_back(
          declareLayer(b, params, c, LayerPrefix::unrolled(i), elt));
  Value finalScale;
  if (c.gemma)
    finalScale = params.add(b, "final_norm.scale", {c.dModel}, elt);
  AdamState state;
  if (!options.inference)
    state = declareTrainState(b, params, options);
  Value tokens = b.argument("batch.tokens", {c.batch, c.seq}, b.i32());
  Value targets;
  if (!options.inference)
    targets = b.argument("batch.targets", {c.batch, c.seq}, b.i32());

  Value positions, mask;
  {
    GraphBuilder::NoGradScope noGrad(b);
    positions = b.convert(b.iota({c.seq}, 0, b.i32()), b.f32());
    mask = causalMask(b, c.seq, c.seq);
  }
  if (!options.embedding.empty())
    c.oneHotEmbedding = options.embedding == "onehot";
  // 'BTV,VD->BTD' or embedding[tokens].
  Value x = c.oneHotEmbedding ? b.dotGeneral(oneHot(b, tokens, c.vocab, elt),
                                             embedding, {{}, {}, {2}, {0}})
                              : b.take(embedding, tokens);
  if (c.gemma)
    x = b.mulScalar(x, std::sqrt(static_cast<double>(c.dModel)));
  Value embedded = x;
  // --scan: the blocks as a loop over the stacked parameters.
  std::optional<ScannedLayer> blocks;
  if (options.scan) {
    const LayerParams &stacked = layers.front();
    blocks.emplace(b, ArrayRef<Value>{positions, mask}, flattenFields(stacked),
                   scanResiduals(options));
    x = blocks->forward(
        x, [&](Value x, ArrayRef<Value> invariants, ArrayRef<Value> params) {
          return block(b, c, fromFields(stacked, params), x, invariants[0],
                       invariants[1]);
        });
  } else {
    for (const LayerParams &p : layers)
      x = block(b, c, p, x, positions, mask);
  }
  Value last = x;
  if (finalScale)
    x = rmsNorm(b, x, finalScale, /*plusOne=*/true);
  // 'BTD,VD->BTV' with the tied embedding.
  Value logits = b.dotGeneral(x, embedding, {{}, {}, {2}, {1}});
  if (options.inference) {
    b.result("logits", logits);
  } else if (options.scan) {
    Value loss = crossEntropy(b, logits, targets);
    emitTrainStep(
        b, params, state, loss,
        scanGradients(b, *blocks, loss, embedded, last, embedding, finalScale),
        options);
  } else {
    Value loss = crossEntropy(b, logits, targets);
    emitTrainStep(b, params, state, loss, options);
  }
  OwningOpRef<ModuleOp> module = b.finish();
  check(bool(module), "generated transformer does not verify", error);
  return module;
}
