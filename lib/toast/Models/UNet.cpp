//===- UNet.cpp - Diffusion U-Net training step --------------------------===//
//
// The DDPM U-Net (Ho et al. 2020) in NHWC, as the papers describe it: three
// resolution levels with channel multipliers (1, 2, 4); 3 residual blocks per
// level on the way down (9 "down-sampling blocks", strided 3x3 convolutions
// between levels) and 4 per level on the way up (12 "up-sampling blocks",
// each concatenating a skip connection; nearest-neighbour upsampling plus a
// 3x3 convolution between levels); in the middle two residual blocks around
// a multi-head self-attention block over the H*W positions.
//
// A residual block (PartIR A.3: "pairs of convolutions have a hidden channel
// size 4 times larger than the input/output channel size"):
//   h = conv3x3(silu(groupnorm(x)))            c_in -> 4 c_out
//   h += dense(silu(t_emb))                    time conditioning
//   h = conv3x3(silu(groupnorm(h)))            4 c_out -> c_out
//   out = h + (x, or conv1x1(x) when c_in != c_out)
// The training step predicts the noise of `batch.noisy_images` at
// `batch.timesteps` (sinusoidal embedding + 2-layer MLP) and minimizes the
// squared error against `batch.noise` with Adam.
//
// Names: params.conv_in.{w,b}, params.time_embed.layer_<j>.{w,b},
// params.{down,up}.level_<l>.conv_residual_block_<j>.{norm1,norm2}.{scale,
// offset} / {conv1,conv2,time_proj,skip}.{w,b},
// params.down.level_<l>.downsample.{w,b}, params.up.level_<l>.upsample.{w,b},
// params.mid.conv_residual_block_<j>.*, params.mid.multi_head_attention.
// {norm.scale, norm.offset, query.w, key.w, value.w [H, C, K], output.w
// [H, K, C]}, params.out.norm.*, params.out.conv.{w,b}.
//
//===----------------------------------------------------------------------===//

#include "ModelsInternal.h"
#include "toast/Models/Layers.h"
#include "toast/Models/Optimizer.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace toast;
using namespace toast::models;
using namespace toast::models::gen;

namespace {
struct Config {
  int64_t batch = 8, resolution = 64, channels = 448, heads = 32;
  static constexpr int64_t levels = 3, downBlocks = 3, imageChannels = 3;
  static constexpr int64_t multipliers[levels] = {1, 2, 4};
};

/// Declares parameters and emits the network in one pass.
class UNetBuilder {
public:
  UNetBuilder(GraphBuilder &b, Params &params, const Config &c, Type elt)
      : b(b), params(params), c(c), elt(elt) {}

  Value param(const Twine &name, ArrayRef<int64_t> shape) {
    return params.add(b, name.str(), shape, elt);
  }

  Value conv(const Twine &name, Value x, int64_t out, int64_t k,
             int64_t stride = 1) {
    int64_t in = GraphBuilder::shapeOf(x)[3];
    Value w = param(name + ".w", {k, k, in, out});
    Value bias = param(name + ".b", {out});
    Value y = b.conv2d(x, w, {stride, k / 2});
    return b.add(y, broadcastLast(b, bias, GraphBuilder::shapeOf(y)));
  }

  Value norm(const Twine &name, Value x) {
    int64_t ch = GraphBuilder::shapeOf(x)[3];
    Value scale = param(name + ".scale", {ch});
    Value offset = param(name + ".offset", {ch});
    return groupNorm(b, x, std::gcd(ch, int64_t(32)), scale, offset);
  }

  Value resBlock(const Twine &name, Value x, Value temb, int64_t out) {
    int64_t in = GraphBuilder::shapeOf(x)[3], hidden = 4 * out;
    Value h = conv(name + ".conv1", silu(b, norm(name + ".norm1", x)), hidden,
                   3);
    Value w = param(name + ".time_proj.w",
                    {GraphBuilder::shapeOf(temb)[1], hidden});
    Value bias = param(name + ".time_proj.b", {hidden});
    Value t = dense(b, silu(b, temb), w, bias); // [N, hidden]
    h = b.add(h, b.broadcastInDim(t, GraphBuilder::shapeOf(h), {0, 3}));
    h = conv(name + ".conv2", silu(b, norm(name + ".norm2", h)), out, 3);
    Value skip = in == out ? x : conv(name + ".skip", x, out, 1);
    return b.add(skip, h);
  }

  Value attention(const Twine &name, Value x) {
    ArrayRef<int64_t> s = GraphBuilder::shapeOf(x);
    int64_t N = s[0], P = s[1] * s[2], C = s[3], H = c.heads, K = C / H;
    Value h = b.reshape(norm(name + ".norm", x), {N, P, C});
    auto project = [&](StringRef which) {
      Value w = param(name + "." + which + ".w", {H, C, K});
      return b.dotGeneral(h, w, {{}, {}, {2}, {1}}); // [N, P, H, K]
    };
    Value q = b.mulScalar(project("query"), 1.0 / std::sqrt(double(K)));
    Value k = project("key"), v = project("value");
    Value logits = b.dotGeneral(q, k, {{0, 2}, {0, 2}, {3}, {3}}); // NHPQ
    Value probs = softmax(b, logits, 3);
    Value enc = b.dotGeneral(probs, v, {{0, 1}, {0, 2}, {3}, {1}}); // NHPK
    enc = b.transpose(enc, {0, 2, 1, 3});
    Value wo = param(name + ".output.w", {H, K, C});
    Value out = b.dotGeneral(enc, wo, {{}, {}, {2, 3}, {0, 1}}); // [N, P, C]
    return b.add(x, b.reshape(out, s));
  }

  Value upsample(Value x) {
    ArrayRef<int64_t> s = GraphBuilder::shapeOf(x);
    Value wide = b.broadcastInDim(x, {s[0], s[1], 2, s[2], 2, s[3]},
                                  {0, 1, 3, 5});
    return b.reshape(wide, {s[0], 2 * s[1], 2 * s[2], s[3]});
  }

  /// Sinusoidal embedding of timesteps [N] into [N, dim].
  Value timestepEmbedding(Value t, int64_t dim) {
    int64_t half = dim / 2, N = GraphBuilder::shapeOf(t)[0];
    GraphBuilder::NoGradScope noGrad(b);
    Value i = b.convert(b.iota({half}, 0, b.i32()), b.f32());
    Value freqs = b.exp(b.mulScalar(i, -std::log(10000.0) / double(half)));
    Value angles = b.mul(b.broadcastInDim(b.convert(t, b.f32()), {N, half}, {0}),
                         b.broadcastInDim(freqs, {N, half}, {1}));
    return b.convert(b.concatenate({b.sin(angles), b.cos(angles)}, 1), elt);
  }

  Value build(Value images, Value timesteps) {
    int64_t C = c.channels;
    Value temb = timestepEmbedding(timesteps, C);
    temb = dense(b, temb, param("time_embed.layer_0.w", {C, 4 * C}),
                 param("time_embed.layer_0.b", {4 * C}));
    temb = dense(b, silu(b, temb), param("time_embed.layer_1.w", {4 * C, 4 * C}),
                 param("time_embed.layer_1.b", {4 * C}));

    Value h = conv("conv_in", images, C, 3);
    SmallVector<Value> skips{h};
    for (int64_t l = 0; l < c.levels; ++l) {
      std::string level = ("down.level_" + Twine(l)).str();
      for (int64_t j = 0; j < c.downBlocks; ++j) {
        h = resBlock(level + ".conv_residual_block_" + Twine(j), h, temb,
                     C * c.multipliers[l]);
        skips.push_back(h);
      }
      if (l + 1 < c.levels) {
        h = conv(level + ".downsample", h, C * c.multipliers[l], 3, 2);
        skips.push_back(h);
      }
    }
    int64_t top = C * c.multipliers[c.levels - 1];
    h = resBlock("mid.conv_residual_block_0", h, temb, top);
    h = attention("mid.multi_head_attention", h);
    h = resBlock("mid.conv_residual_block_1", h, temb, top);
    for (int64_t l = c.levels - 1; l >= 0; --l) {
      std::string level = ("up.level_" + Twine(l)).str();
      for (int64_t j = 0; j <= c.downBlocks; ++j) {
        h = b.concatenate({h, skips.pop_back_val()}, 3);
        h = resBlock(level + ".conv_residual_block_" + Twine(j), h, temb,
                     C * c.multipliers[l]);
      }
      if (l > 0)
        h = conv(level + ".upsample", upsample(h), C * c.multipliers[l], 3);
    }
    h = silu(b, norm("out.norm", h));
    return conv("out.conv", h, c.imageChannels, 3);
  }

private:
  GraphBuilder &b;
  Params &params;
  const Config &c;
  Type elt;
};
} // namespace

OwningOpRef<ModuleOp> gen::buildUNet(MLIRContext *ctx, StringRef preset,
                                     const ModelOptions &options,
                                     std::string &error) {
  (void)preset;
  Config c;
  if (!applyOptions("unet", options,
                    {{"batch", &c.batch},
                     {"resolution", &c.resolution},
                     {"channels", &c.channels},
                     {"heads", &c.heads}},
                    error))
    return nullptr;
  int64_t top = c.channels * Config::multipliers[Config::levels - 1];
  int64_t factor = int64_t(1) << (Config::levels - 1);
  if (!check(!options.inference, "unet has no --inference variant", error) ||
      !check(c.resolution % factor == 0,
             "--resolution must be a multiple of " + Twine(factor), error) ||
      !check(c.channels % 2 == 0, "--channels must be even", error) ||
      !check(top % c.heads == 0,
             "--heads (" + Twine(c.heads) + ") must divide the middle "
             "channel count (" + Twine(top) + ")", error))
    return nullptr;

  GraphBuilder b(ctx, "unet_train_step");
  Type elt = paramType(b, options);
  // Parameters are declared while the network is emitted, after the batch
  // inputs exist; trailing arguments keep the batch last in the signature.
  Params params;
  UNetBuilder net(b, params, c, elt);
  int64_t R = c.resolution;
  SmallVector<int64_t> imageShape{c.batch, R, R, Config::imageChannels};
  Value images = b.trailingArgument("batch.noisy_images", imageShape, elt);
  Value timesteps = b.trailingArgument("batch.timesteps", {c.batch}, b.f32());
  Value noise = b.trailingArgument("batch.noise", imageShape, elt);
  Value predicted = net.build(images, timesteps);
  AdamState state = declareTrainState(b, params, options);
  Value diff = b.upcast(b.sub(predicted, noise));
  Value loss = mean(b, b.mul(diff, diff), {0, 1, 2, 3});
  emitTrainStep(b, params, state, loss, options);
  OwningOpRef<ModuleOp> module = b.finish();
  check(bool(module), "generated unet does not verify", error);
  return module;
}
