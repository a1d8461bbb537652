//===- InferenceTransformer.cpp - ITX: prefill + KV-cached decoding ------===//
//
// The inference-optimized transformer of TOAST 5.1 (ITX, PartIR's IT32):
// multi-query attention with RoPE, RMS norms, gated GeLU MLP, untied output
// projection. The program
//   1. runs the prompt [B, P] through the model (prefill), writing keys and
//      values into per-layer caches [B, P + S, KV, K] (dynamic_update_slice),
//   2. picks the next token greedily (argmax),
//   3. decodes S tokens, each attending to the cache up to its position;
//      for S > 1 the decode steps are a stablehlo.while loop (a serving loop
//      is a lax.fori_loop, not unrolled), whose carry holds the step, the
//      token, the output buffer, the caches and the parameters (JAX lifts
//      closed-over values into the carry).
// Results: `generated` [B, S + 1] tokens (the prefill's and one per decode
// step) and the last step's `logits` [B, V].
//
// Parameter names follow the transformer's: params.embedder.embedding,
// params.layer_<i>.{pre_attn_norm.scale, attn.q_einsum.w [H,D,K],
// attn.kv_einsum.w [2,KV,D,K], attn.attn_vec_einsum.w [H,K,D],
// pre_mlp_norm.scale, mlp.dense_up.w [2,D,F], mlp.dense_down.w [F,D]},
// params.final_norm.scale, params.unembed.w [D, V].
//
//===----------------------------------------------------------------------===//

#include "ModelsInternal.h"
#include "toast/Models/Layers.h"
#include "toast/Models/Optimizer.h"

#include <cmath>

using namespace mlir;
using namespace toast;
using namespace toast::models;
using namespace toast::models::gen;
using stablehlo::ComparisonDirection;

namespace {
struct Config {
  int64_t layers = 32, batch = 8, seq = 1024, dModel = 2048, heads = 32,
          kvHeads = 1, keySize = 128, vocab = 50257, hidden = 21504,
          decodeSteps = 1;
  /// The layers as a while over stacked parameters (--scan).
  bool scan = false;
};

struct Layer {
  Value preAttnScale, q, kv, out, preMlpScale, up, down;

  /// The members in declaration order (see flattenFields).
  static ArrayRef<Value Layer::*> fields() {
    static constexpr Value Layer::*all[] = {
        &Layer::preAttnScale, &Layer::q,  &Layer::kv,  &Layer::out,
        &Layer::preMlpScale,  &Layer::up, &Layer::down};
    return all;
  }
};

/// The parameters; under --scan `layers` holds one Layer of the stacked
/// [L, ...] parameters.
struct Weights {
  Value embedding, finalScale, unembed;
  SmallVector<Layer> layers;

  SmallVector<Value> flatten() const {
    SmallVector<Value> all{embedding};
    for (const Layer &l : layers)
      llvm::append_range(all, flattenFields(l));
    all.append({finalScale, unembed});
    return all;
  }
  static Weights unflatten(ArrayRef<Value> all) {
    Weights w;
    w.embedding = all.front();
    size_t i = 1;
    while (i + 2 < all.size()) {
      w.layers.push_back({all[i], all[i + 1], all[i + 2], all[i + 3],
                          all[i + 4], all[i + 5], all[i + 6]});
      i += 7;
    }
    w.finalScale = all[i];
    w.unembed = all[i + 1];
    return w;
  }
};

/// Keys and values of every layer, [B, L, KV, K] each; under --scan one
/// stacked [layers, B, L, KV, K] tensor each.
struct Cache {
  SmallVector<Value> keys, values;
};

/// What the layers of one pass share: the cache position `start` (scalar
/// i32) the pass writes at, its tokens' `positions`, the `mask` of what it
/// sees, and whether it attends to its own fresh keys (prefill) or to the
/// cache (decode).
struct Pass {
  Value zero, start, positions, mask;
  bool useFresh;
};
} // namespace

/// Attention of q [B,T,H,K] over k, v [B,S,KV,K] where `mask` [T,S] allows.
static Value groupedAttention(GraphBuilder &b, Value q, Value k, Value v,
                              Value mask) {
  ArrayRef<int64_t> qs = GraphBuilder::shapeOf(q);
  int64_t B = qs[0], T = qs[1], H = qs[2], K = qs[3];
  int64_t S = GraphBuilder::shapeOf(k)[1], KV = GraphBuilder::shapeOf(k)[2];
  int64_t G = H / KV;
  Value qg = b.reshape(q, {B, T, KV, G, K});
  Value logits = b.dotGeneral(qg, k, {{0, 2}, {0, 2}, {4}, {3}});
  SmallVector<int64_t> shape{B, KV, T, G, S};
  logits = b.select(b.broadcastInDim(mask, shape, {2, 4}), logits,
                    b.full(-2.3819763e38, shape,
                           GraphBuilder::elementTypeOf(q)));
  Value probs = softmax(b, logits, 4);
  Value encoded = b.dotGeneral(probs, v, {{0, 1}, {0, 2}, {4}, {1}});
  return b.reshape(b.transpose(encoded, {0, 2, 1, 3, 4}), {B, T, H, K});
}

/// One layer on x [B, T, D]: writes its keys and values into the layer's
/// cache `keys`, `values` [B, L, KV, K] at the pass's start, attends, and
/// runs the MLP.
static Value layer(GraphBuilder &b, const Config &c, const Layer &l,
                   const Pass &pass, Value x, Value &keys, Value &values) {
  Value zero = pass.zero;
  Value h = rmsNorm(b, x, l.preAttnScale, /*plusOne=*/true);
  Value q = b.dotGeneral(h, l.q, {{}, {}, {2}, {1}});   // [B,T,H,K]
  Value kv = b.dotGeneral(h, l.kv, {{}, {}, {2}, {2}}); // [B,T,2,KV,K]
  Value k = rope(b, b.index(kv, 2, 0), pass.positions);
  Value v = b.index(kv, 2, 1);
  q = b.mulScalar(rope(b, q, pass.positions),
                  1.0 / std::sqrt(static_cast<double>(c.keySize)));
  keys = b.dynamicUpdateSlice(keys, k, {zero, pass.start, zero, zero});
  values = b.dynamicUpdateSlice(values, v, {zero, pass.start, zero, zero});
  Value attn = pass.useFresh ? groupedAttention(b, q, k, v, pass.mask)
                             : groupedAttention(b, q, keys, values, pass.mask);
  x = b.add(x, b.dotGeneral(attn, l.out, {{}, {}, {2, 3}, {0, 1}}));
  h = rmsNorm(b, x, l.preMlpScale, /*plusOne=*/true);
  Value both = b.dotGeneral(h, l.up, {{}, {}, {2}, {1}}); // [B,T,2,F]
  Value gate = gelu(b, b.index(both, 2, 0));
  Value up = b.index(both, 2, 1);
  return b.add(x, dense(b, b.mul(gate, up), l.down));
}

/// --scan: the layers as a while over (i, x, keys, values, start,
/// positions, mask, stacked params...), with the caches stacked
/// [layers, B, L, KV, K]. Iteration i reads layer i's parameters and cache
/// (dynamic_slice + reshape), runs the layer and writes the cache back
/// (dynamic_update_slice): a fori_loop carrying the cache, updated in place.
static Value scanLayers(GraphBuilder &b, const Config &c, const Layer &stacked,
                        const Pass &pass, Value x, Value &keys, Value &values) {
  SmallVector<Value> carry{x,          keys,           values,
                           pass.start, pass.positions, pass.mask};
  llvm::append_range(carry, flattenFields(stacked));
  SmallVector<Value> out =
      b.forLoop(c.layers, carry, [&](Value i, ArrayRef<Value> args) {
        Pass inner{b.scalar(0, b.i32()), args[3], args[4], args[5],
                   pass.useFresh};
        Layer l = layerAt(b, stacked, args.drop_front(6), i);
        Value k = b.dynamicIndex(args[1], i), v = b.dynamicIndex(args[2], i);
        SmallVector<Value> next(args);
        next[0] = layer(b, c, l, inner, args[0], k, v);
        next[1] = b.dynamicUpdateIndex(args[1], k, i);
        next[2] = b.dynamicUpdateIndex(args[2], v, i);
        return next;
      });
  keys = out[1];
  values = out[2];
  return out[0];
}

/// One pass of `tokens` [B, T] at positions start..start+T-1 (`start` a
/// scalar i32), writing the layers' keys and values into `cache` at `start`.
/// `mask` [T, L] selects the visible cache entries (the prefill passes
/// `useFresh` to attend to its own keys, [T, T]). Returns logits of the last
/// position, [B, V].
static Value forward(GraphBuilder &b, const Config &c, const Weights &w,
                     Value tokens, Value start, Value positions, Value mask,
                     Cache &cache, bool useFresh) {
  int64_t B = c.batch, T = GraphBuilder::shapeOf(tokens)[1];
  Pass pass{b.scalar(0, b.i32()), start, positions, mask, useFresh};
  Value x = b.take(w.embedding, tokens);
  x = b.mulScalar(x, std::sqrt(static_cast<double>(c.dModel)));
  if (c.scan)
    x = scanLayers(b, c, w.layers.front(), pass, x, cache.keys.front(),
                   cache.values.front());
  else
    for (auto [i, l] : llvm::enumerate(w.layers))
      x = layer(b, c, l, pass, x, cache.keys[i], cache.values[i]);
  Value last = b.index(b.slice(x, {0, T - 1, 0}, {B, T, c.dModel}), 1, 0);
  last = rmsNorm(b, last, w.finalScale, /*plusOne=*/true);
  return b.matmul(last, w.unembed);
}

/// One decode step of `token` [B] at position `pos` (scalar i32).
static Value decodeStep(GraphBuilder &b, const Config &c, const Weights &w,
                        Value token, Value pos, Cache &cache) {
  int64_t L = c.seq + c.decodeSteps;
  Value positions = b.reshape(b.convert(pos, b.f32()), {1});
  Value visible = b.compare(b.iota({1, L}, 1, b.i32()),
                            b.broadcastInDim(pos, {1, L}, {}),
                            ComparisonDirection::LE);
  return forward(b, c, w, b.reshape(token, {c.batch, 1}), pos, positions,
                 visible, cache, /*useFresh=*/false);
}

/// The decode loop for S > 1 steps, as a stablehlo.while.
static Value decodeLoop(GraphBuilder &b, const Config &c, const Weights &w,
                        Value firstToken, Cache &cache, Value &logits) {
  int64_t S = c.decodeSteps, n = cache.keys.size();
  Value zero = b.scalar(0, b.i32());
  Value buffer = b.dynamicUpdateSlice(b.full(0, {c.batch, S + 1}, b.i32()),
                                      b.reshape(firstToken, {c.batch, 1}),
                                      {zero, zero});
  logits = b.full(0.0, {c.batch, c.vocab}, GraphBuilder::elementTypeOf(w.unembed));
  // Carry: step (the counter), token, buffer, logits, keys..., values...,
  // weights...
  SmallVector<Value> carry{firstToken, buffer, logits};
  llvm::append_range(carry, cache.keys);
  llvm::append_range(carry, cache.values);
  llvm::append_range(carry, w.flatten());
  SmallVector<Value> out =
      b.forLoop(S, carry, [&](Value step, ArrayRef<Value> args) {
        Value token = args[0], out = args[1];
        Cache inner;
        for (int64_t i = 0; i < n; ++i) {
          inner.keys.push_back(args[3 + i]);
          inner.values.push_back(args[3 + n + i]);
        }
        SmallVector<Value> flat(args.begin() + 3 + 2 * n, args.end());
        Weights wi = Weights::unflatten(flat);
        Value pos = b.add(step, b.scalar(static_cast<double>(c.seq), b.i32()));
        Value stepLogits = decodeStep(b, c, wi, token, pos, inner);
        Value next = b.argmax(stepLogits, 1, b.i32());
        out = b.dynamicUpdateSlice(
            out, b.reshape(next, {c.batch, 1}),
            {b.scalar(0, b.i32()), b.add(step, b.scalar(1, b.i32()))});
        SmallVector<Value> yield{next, out, stepLogits};
        llvm::append_range(yield, inner.keys);
        llvm::append_range(yield, inner.values);
        llvm::append_range(yield, flat);
        return yield;
      });
  logits = out[2];
  for (int64_t i = 0; i < n; ++i) {
    cache.keys[i] = out[3 + i];
    cache.values[i] = out[3 + n + i];
  }
  return out[1];
}

OwningOpRef<ModuleOp> gen::buildInferenceTransformer(
    MLIRContext *ctx, StringRef preset, const ModelOptions &options,
    std::string &error) {
  (void)preset;
  Config c;
  if (!applyOptions("itx", options,
                    {{"layers", &c.layers},
                     {"batch", &c.batch},
                     {"seq", &c.seq},
                     {"d-model", &c.dModel},
                     {"heads", &c.heads},
                     {"kv-heads", &c.kvHeads},
                     {"key-size", &c.keySize},
                     {"vocab", &c.vocab},
                     {"hidden", &c.hidden},
                     {"decode-steps", &c.decodeSteps}},
                    error, {"scan"}))
    return nullptr;
  c.scan = options.scan;
  if (!check(c.heads % c.kvHeads == 0,
             "--heads (" + Twine(c.heads) + ") must be a multiple of "
             "--kv-heads (" + Twine(c.kvHeads) + ")", error) ||
      !check(c.keySize % 2 == 0,
             "--key-size must be even (RoPE rotates halves)", error))
    return nullptr;

  GraphBuilder b(ctx, "itx_generate");
  b.setRecording(false);
  Type elt = paramType(b, options);
  int64_t D = c.dModel, H = c.heads, K = c.keySize, KV = c.kvHeads;
  Params params;
  Weights w;
  w.embedding = params.add(b, "embedder.embedding", {c.vocab, D}, elt);
  // Unrolled: one Layer per layer; --scan: one of stacked parameters.
  SmallVector<LayerPrefix> prefixes;
  if (c.scan)
    prefixes.push_back(LayerPrefix::stacked(c.layers));
  else
    for (int64_t i = 0; i < c.layers; ++i)
      prefixes.push_back(LayerPrefix::unrolled(i));
  for (const LayerPrefix &prefix : prefixes) {
    auto add = [&](StringRef name, ArrayRef<int64_t> shape) {
      return prefix.declare(b, params, name, shape, elt);
    };
    Layer l;
    l.preAttnScale = add("pre_attn_norm.scale", {D});
    l.q = add("attn.q_einsum.w", {H, D, K});
    l.kv = add("attn.kv_einsum.w", {2, KV, D, K});
    l.out = add("attn.attn_vec_einsum.w", {H, K, D});
    l.preMlpScale = add("pre_mlp_norm.scale", {D});
    l.up = add("mlp.dense_up.w", {2, D, c.hidden});
    l.down = add("mlp.dense_down.w", {c.hidden, D});
    w.layers.push_back(l);
  }
  w.finalScale = params.add(b, "final_norm.scale", {D}, elt);
  w.unembed = params.add(b, "unembed.w", {D, c.vocab}, elt);
  Value prompt = b.argument("batch.prompt", {c.batch, c.seq}, b.i32());

  // Prefill.
  int64_t L = c.seq + c.decodeSteps;
  Cache cache;
  for (const LayerPrefix &prefix : prefixes) {
    SmallVector<int64_t> shape(prefix.leading);
    shape.append({c.batch, L, KV, K});
    cache.keys.push_back(b.full(0.0, shape, elt));
    cache.values.push_back(b.full(0.0, shape, elt));
  }
  Value positions = b.convert(b.iota({c.seq}, 0, b.i32()), b.f32());
  Value logits = forward(b, c, w, prompt, b.scalar(0, b.i32()), positions,
                         causalMask(b, c.seq, c.seq), cache,
                         /*useFresh=*/true);
  Value token = b.argmax(logits, 1, b.i32());

  // Decode.
  Value generated;
  if (c.decodeSteps == 1) {
    logits = decodeStep(b, c, w, token,
                        b.scalar(static_cast<double>(c.seq), b.i32()), cache);
    Value next = b.argmax(logits, 1, b.i32());
    generated = b.concatenate({b.reshape(token, {c.batch, 1}),
                               b.reshape(next, {c.batch, 1})},
                              1);
  } else {
    generated = decodeLoop(b, c, w, token, cache, logits);
  }
  b.result("generated", generated);
  b.result("logits", logits);
  OwningOpRef<ModuleOp> module = b.finish();
  check(bool(module), "generated itx does not verify", error);
  return module;
}
