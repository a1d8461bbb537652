//===- MLP.cpp - The papers' two-layer MLP ---------------------------------===//
//
// y = relu(x @ w1) @ w2 (PartIR Fig. 2 / TOAST Fig. 2, no biases), with
// `--layers` dense layers in general: widths d_model -> hidden -> ... ->
// d_model and relu between layers. The training step minimizes the mean
// squared error against `batch.y` with Adam.
//
// Arguments: params.layer_<i>.w, [opt_state.*], batch.x, [batch.y].
//
//===----------------------------------------------------------------------===//

#include "ModelsInternal.h"
#include "toast/Models/Layers.h"
#include "toast/Models/Optimizer.h"

using namespace mlir;
using namespace toast;
using namespace toast::models;
using namespace toast::models::gen;

OwningOpRef<ModuleOp> gen::buildMLP(MLIRContext *ctx, StringRef preset,
                                       const ModelOptions &options,
                                       std::string &error) {
  (void)preset;
  int64_t layers = 2, batch = 256, dModel = 1024, hidden = 4096;
  if (!applyOptions("mlp", options,
                    {{"layers", &layers},
                     {"batch", &batch},
                     {"d-model", &dModel},
                     {"hidden", &hidden}},
                    error))
    return nullptr;

  GraphBuilder b(ctx, options.inference ? "mlp_forward" : "mlp_train_step");
  Type elt = paramType(b, options);
  Params params;
  SmallVector<Value> weights;
  for (int64_t i = 0; i < layers; ++i) {
    int64_t in = i == 0 ? dModel : hidden;
    int64_t out = i == layers - 1 ? dModel : hidden;
    weights.push_back(
        params.add(b, ("layer_" + Twine(i) + ".w").str(), {in, out}, elt));
  }
  AdamState state;
  if (!options.inference)
    state = declareTrainState(b, params, options);
  Value x = b.argument("batch.x", {batch, dModel}, elt);

  Value h = x;
  for (auto [i, w] : llvm::enumerate(weights)) {
    h = dense(b, h, w);
    if (static_cast<int64_t>(i) + 1 < layers)
      h = relu(b, h);
  }
  if (options.inference) {
    b.result("y", h);
  } else {
    Value y = b.argument("batch.y", {batch, dModel}, elt);
    Value diff = b.upcast(b.sub(h, y));
    Value loss = mean(b, b.mul(diff, diff), {0, 1});
    emitTrainStep(b, params, state, loss, options);
  }
  OwningOpRef<ModuleOp> module = b.finish();
  check(bool(module), "generated mlp does not verify", error);
  return module;
}
