//===- Autodiff.cpp - Tape and reverse sweep ------------------------------===//
//
// Emitters append (inputs, output, VJP rule) to a tape in program order. The
// reverse sweep first marks the values that depend on the requested inputs
// ("active" values), then visits the tape backwards, calling each rule whose
// output has a cotangent and adding up contributions to shared inputs (the
// `add_any` of JAX). Nothing is recorded while the backward pass is emitted.
//
//===----------------------------------------------------------------------===//

#include "toast/Models/GraphBuilder.h"

using namespace mlir;
using namespace toast;
using namespace toast::models;

void GraphBuilder::record(Value output, ArrayRef<Value> inputs, VjpFn vjp) {
  if (!recording)
    return;
  // Only floating-point values carry gradients.
  if (!isa<FloatType>(elementTypeOf(output)))
    return;
  TapeNode node;
  node.inputs.assign(inputs.begin(), inputs.end());
  node.output = output;
  node.vjp = std::move(vjp);
  tape.push_back(std::move(node));
}

SmallVector<Value> GraphBuilder::grad(Value loss, ArrayRef<Value> wrt) {
  assert(rankOf(loss) == 0 && isa<FloatType>(elementTypeOf(loss)) &&
         "loss must be a float scalar");
  Value one;
  {
    NoGradScope noGrad(*this);
    one = fullLike(1.0, loss);
  }
  return vjp({loss}, {one}, wrt);
}

SmallVector<Value> GraphBuilder::vjp(ArrayRef<Value> outputs,
                                     ArrayRef<Value> seeds,
                                     ArrayRef<Value> wrt) {
  assert(outputs.size() == seeds.size() && "one cotangent per output");
  NoGradScope noGrad(*this);

  // Forward: which values depend on `wrt`.
  llvm::DenseSet<Value> active(wrt.begin(), wrt.end());
  for (const TapeNode &node : tape)
    if (llvm::any_of(node.inputs, [&](Value v) { return active.contains(v); }))
      active.insert(node.output);

  // Backward sweep.
  llvm::DenseMap<Value, Value> cotangents;
  auto accumulate = [&](Value v, Value g) {
    auto [it, inserted] = cotangents.try_emplace(v, g);
    if (!inserted)
      it->second = add(it->second, g);
  };
  for (auto [output, seed] : llvm::zip_equal(outputs, seeds))
    accumulate(output, seed);
  for (const TapeNode &node : llvm::reverse(tape)) {
    if (!active.contains(node.output))
      continue;
    auto it = cotangents.find(node.output);
    if (it == cotangents.end())
      continue;
    SmallVector<bool, 3> need;
    for (Value in : node.inputs)
      need.push_back(active.contains(in));
    SmallVector<Value, 3> grads = node.vjp(it->second, need);
    assert(grads.size() == node.inputs.size() && "one cotangent per input");
    for (auto [in, g, needed] : llvm::zip_equal(node.inputs, grads, need))
      if (needed && g)
        accumulate(in, g);
  }

  SmallVector<Value> result;
  for (Value v : wrt) {
    auto it = cotangents.find(v);
    result.push_back(it != cotangents.end() ? it->second : fullLike(0.0, v));
  }
  return result;
}
