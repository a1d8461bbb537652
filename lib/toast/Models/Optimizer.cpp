//===- Optimizer.cpp - Named parameters and Adam --------------------------===//
//
// Adam as optax.adam computes it:
//   mu'  = b1 mu + (1 - b1) g          nu' = b2 nu + (1 - b2) g^2
//   t    = step + 1                    mu^ = mu' / (1 - b1^t)
//   nu^  = nu' / (1 - b2^t)            p'  = p - lr mu^ / (sqrt(nu^) + eps)
// The bias corrections are scalars computed once and broadcast per tensor.
//
//===----------------------------------------------------------------------===//

#include "toast/Models/Optimizer.h"

using namespace mlir;
using namespace toast;
using namespace toast::models;

Value Params::add(GraphBuilder &b, StringRef path, ArrayRef<int64_t> shape,
                  Type elementType) {
  pathList.push_back(path.str());
  Value v = b.argument(("params." + path).str(), shape, elementType);
  valueList.push_back(v);
  return v;
}

int64_t Params::numElements() const {
  int64_t total = 0;
  for (Value v : valueList)
    total += GraphBuilder::typeOf(v).getNumElements();
  return total;
}

AdamState models::declareAdamState(GraphBuilder &b, const Params &params) {
  AdamState state;
  for (auto [path, v] : llvm::zip_equal(params.paths(), params.values()))
    state.mu.push_back(b.argument("opt_state.mu." + path,
                                  GraphBuilder::shapeOf(v),
                                  GraphBuilder::elementTypeOf(v)));
  for (auto [path, v] : llvm::zip_equal(params.paths(), params.values()))
    state.nu.push_back(b.argument("opt_state.nu." + path,
                                  GraphBuilder::shapeOf(v),
                                  GraphBuilder::elementTypeOf(v)));
  state.step = b.argument("opt_state.step", {}, b.i32());
  return state;
}

AdamUpdate models::emitAdamUpdate(GraphBuilder &b, const Params &params,
                                  ArrayRef<Value> grads,
                                  const AdamState &state,
                                  const AdamConfig &config) {
  GraphBuilder::NoGradScope noGrad(b);
  AdamUpdate update;
  update.step = b.add(state.step, b.scalar(1, b.i32()));
  Value t = b.convert(update.step, b.f32());
  // 1 - beta^t, once per step.
  auto correction = [&](double beta) {
    return b.sub(b.scalar(1.0, b.f32()), b.pow(b.scalar(beta, b.f32()), t));
  };
  Value bc1 = correction(config.beta1), bc2 = correction(config.beta2);

  for (auto [p, g, mu, nu] :
       llvm::zip_equal(params.values(), grads, state.mu, state.nu)) {
    Type elt = GraphBuilder::elementTypeOf(p);
    ArrayRef<int64_t> shape = GraphBuilder::shapeOf(p);
    Value newMu = b.add(b.mulScalar(mu, config.beta1),
                        b.mulScalar(g, 1.0 - config.beta1));
    Value newNu = b.add(b.mulScalar(nu, config.beta2),
                        b.mulScalar(b.mul(g, g), 1.0 - config.beta2));
    Value muHat = b.div(newMu, b.broadcastInDim(b.convert(bc1, elt), shape, {}));
    Value nuHat = b.div(newNu, b.broadcastInDim(b.convert(bc2, elt), shape, {}));
    Value step = b.div(muHat, b.addScalar(b.sqrt(nuHat), config.eps));
    update.params.push_back(b.sub(p, b.mulScalar(step, config.learningRate)));
    update.mu.push_back(newMu);
    update.nu.push_back(newNu);
  }
  return update;
}

void models::emitGradientResults(GraphBuilder &b, const Params &params,
                                 Value loss) {
  emitGradientResults(b, params, loss, b.grad(loss, params.values()));
}

void models::emitGradientResults(GraphBuilder &b, const Params &params,
                                 Value loss, ArrayRef<Value> grads) {
  b.result("loss", loss);
  for (auto [path, g] : llvm::zip_equal(params.paths(), grads))
    b.result("grad." + path, g);
}

void models::emitAdamTrainStep(GraphBuilder &b, const Params &params,
                               const AdamState &state, Value loss,
                               const AdamConfig &config) {
  emitAdamTrainStep(b, params, state, loss, b.grad(loss, params.values()),
                    config);
}

void models::emitAdamTrainStep(GraphBuilder &b, const Params &params,
                               const AdamState &state, Value loss,
                               ArrayRef<Value> grads,
                               const AdamConfig &config) {
  AdamUpdate update = emitAdamUpdate(b, params, grads, state, config);
  b.result("loss", loss);
  for (auto [path, v] : llvm::zip_equal(params.paths(), update.params))
    b.result("params." + path, v);
  for (auto [path, v] : llvm::zip_equal(params.paths(), update.mu))
    b.result("opt_state.mu." + path, v);
  for (auto [path, v] : llvm::zip_equal(params.paths(), update.nu))
    b.result("opt_state.nu." + path, v);
  b.result("opt_state.step", update.step);
}
