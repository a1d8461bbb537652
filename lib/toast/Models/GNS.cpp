//===- GNS.cpp - Graph network simulator training step -------------------===//
//
// Encode-process-decode graph network (Sanchez-Gonzalez et al. 2020, as a
// jraph GraphNetwork with globals for the molecular variant PartIR uses):
//
//   encoder: MLPs embed node, edge and global features into the latent size
//   processor, `mp-steps` times with unshared weights (residual updates):
//     e' = e + edge_mlp([e, v[senders], v[receivers], u])
//     v' = v + node_mlp([v, segment_sum(e', senders),
//                           segment_sum(e', receivers), u])
//     u' = u + global_mlp([u, sum(v'), sum(e')])
//   decoder: an MLP from node latents to per-node predictions [N, 3]
//   loss: mean squared error against batch.targets; Adam.
//
// Each MLP has `mlp-layers` hidden layers of width `hidden` (relu) and a
// linear output of the latent size followed by LayerNorm (not the decoder).
// Gathers by sender/receiver index are stablehlo.gather, segment sums are
// stablehlo.scatter with an add region.
//
// Names: params.encoder.{node,edge,global}.layer_<j>.{w,b},
// params.encoder.*.norm.{scale,offset},
// params.processor.step_<s>.{edge,node,global}_mlp.layer_<j>.{w,b} / .norm.*,
// params.decoder.layer_<j>.{w,b}; batch.{nodes,edges,globals,senders,
// receivers,targets}.
//
//===----------------------------------------------------------------------===//

#include "ModelsInternal.h"
#include "toast/Models/Layers.h"
#include "toast/Models/Optimizer.h"

using namespace mlir;
using namespace toast;
using namespace toast::models;
using namespace toast::models::gen;

namespace {
struct Config {
  int64_t nodes = 2048, edges = 8192, steps = 24, latent = 2048,
          hidden = 1024, mlpLayers = 3;
  static constexpr int64_t nodeFeatures = 64, edgeFeatures = 16,
                           globalFeatures = 16, outputs = 3;
};

/// A declared MLP: (w, b) per linear layer and an optional LayerNorm.
struct MLP {
  SmallVector<std::pair<Value, Value>> linear;
  Value scale, offset;
};
} // namespace

static MLP declareMLP(GraphBuilder &b, Params &params, const Config &c,
                      StringRef prefix, int64_t in, int64_t out, bool norm,
                      Type elt) {
  MLP mlp;
  int64_t width = in;
  for (int64_t j = 0; j <= c.mlpLayers; ++j) {
    int64_t next = j == c.mlpLayers ? out : c.hidden;
    std::string p = (prefix + ".layer_" + Twine(j)).str();
    Value w = params.add(b, p + ".w", {width, next}, elt);
    Value bias = params.add(b, p + ".b", {next}, elt);
    mlp.linear.push_back({w, bias});
    width = next;
  }
  if (norm) {
    mlp.scale = params.add(b, (prefix + ".norm.scale").str(), {out}, elt);
    mlp.offset = params.add(b, (prefix + ".norm.offset").str(), {out}, elt);
  }
  return mlp;
}

static Value applyMLP(GraphBuilder &b, const MLP &mlp, Value x) {
  for (auto [j, layer] : llvm::enumerate(mlp.linear)) {
    x = dense(b, x, layer.first, layer.second);
    if (j + 1 < mlp.linear.size())
      x = relu(b, x);
  }
  if (mlp.scale)
    x = layerNorm(b, x, mlp.scale, mlp.offset);
  return x;
}

/// Broadcasts the global latent [1, L] to `rows` rows.
static Value broadcastGlobal(GraphBuilder &b, Value u, int64_t rows) {
  int64_t L = GraphBuilder::shapeOf(u)[1];
  return b.broadcastInDim(b.reshape(u, {L}), {rows, L}, {1});
}

OwningOpRef<ModuleOp> gen::buildGNS(MLIRContext *ctx, StringRef preset,
                                    const ModelOptions &options,
                                    std::string &error) {
  (void)preset;
  Config c;
  if (!applyOptions("gns", options,
                    {{"nodes", &c.nodes},
                     {"edges", &c.edges},
                     {"mp-steps", &c.steps},
                     {"latent", &c.latent},
                     {"hidden", &c.hidden},
                     {"mlp-layers", &c.mlpLayers}},
                    error))
    return nullptr;
  if (!check(!options.inference, "gns has no --inference variant", error))
    return nullptr;

  GraphBuilder b(ctx, "gns_train_step");
  Type elt = paramType(b, options);
  int64_t L = c.latent;
  Params params;
  MLP encNode = declareMLP(b, params, c, "encoder.node", c.nodeFeatures, L,
                           true, elt);
  MLP encEdge = declareMLP(b, params, c, "encoder.edge", c.edgeFeatures, L,
                           true, elt);
  MLP encGlobal = declareMLP(b, params, c, "encoder.global", c.globalFeatures,
                             L, true, elt);
  struct Step {
    MLP edge, node, global;
  };
  SmallVector<Step> steps;
  for (int64_t s = 0; s < c.steps; ++s) {
    std::string p = ("processor.step_" + Twine(s) + ".").str();
    Step step;
    step.edge = declareMLP(b, params, c, p + "edge_mlp", 4 * L, L, true, elt);
    step.node = declareMLP(b, params, c, p + "node_mlp", 4 * L, L, true, elt);
    step.global =
        declareMLP(b, params, c, p + "global_mlp", 3 * L, L, true, elt);
    steps.push_back(step);
  }
  MLP decoder =
      declareMLP(b, params, c, "decoder", L, c.outputs, false, elt);
  AdamState state = declareTrainState(b, params, options);
  Value nodeFeats = b.argument("batch.nodes", {c.nodes, c.nodeFeatures}, elt);
  Value edgeFeats = b.argument("batch.edges", {c.edges, c.edgeFeatures}, elt);
  Value globalFeats =
      b.argument("batch.globals", {1, c.globalFeatures}, elt);
  Value senders = b.argument("batch.senders", {c.edges}, b.i32());
  Value receivers = b.argument("batch.receivers", {c.edges}, b.i32());
  Value targets = b.argument("batch.targets", {c.nodes, c.outputs}, elt);

  Value v = applyMLP(b, encNode, nodeFeats);
  Value e = applyMLP(b, encEdge, edgeFeats);
  Value u = applyMLP(b, encGlobal, globalFeats);
  for (const Step &step : steps) {
    Value edgeIn = b.concatenate({e, b.take(v, senders), b.take(v, receivers),
                                  broadcastGlobal(b, u, c.edges)},
                                 1);
    e = b.add(e, applyMLP(b, step.edge, edgeIn));
    Value sent = b.scatterAdd(e, senders, c.nodes);
    Value received = b.scatterAdd(e, receivers, c.nodes);
    Value nodeIn = b.concatenate(
        {v, sent, received, broadcastGlobal(b, u, c.nodes)}, 1);
    v = b.add(v, applyMLP(b, step.node, nodeIn));
    Value globalIn =
        b.concatenate({u, b.reshape(b.reduceSum(v, {0}), {1, L}),
                       b.reshape(b.reduceSum(e, {0}), {1, L})},
                      1);
    u = b.add(u, applyMLP(b, step.global, globalIn));
  }
  Value predictions = applyMLP(b, decoder, v);
  Value diff = b.upcast(b.sub(predictions, targets));
  Value loss = mean(b, b.mul(diff, diff), {0, 1});
  emitTrainStep(b, params, state, loss, options);
  OwningOpRef<ModuleOp> module = b.finish();
  check(bool(module), "generated gns does not verify", error);
  return module;
}
