//===- ScannedLayer.cpp - Forward and backward loops of a scanned layer ---===//
//
// The layer and its VJP are traced once into a detached block; the loops
// clone its ops with an IRMapping from the block's arguments (and the
// residuals) to the loop's values. Cloning copies ops verbatim, so the loop
// bodies run the unrolled layer's forward and backward ops.
//
//===----------------------------------------------------------------------===//

#include "toast/Models/ScannedLayer.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace toast;
using namespace toast::models;

/// The type of one row of a stacked [L, ...] value.
static RankedTensorType rowType(Value stacked) {
  RankedTensorType type = GraphBuilder::typeOf(stacked);
  return RankedTensorType::get(type.getShape().drop_front(),
                               type.getElementType());
}

/// Clones `op` after checking that its operands are mapped (an unmapped one
/// would be a value of the scratch block).
static void cloneMapped(OpBuilder &builder, Operation &op, IRMapping &mapping) {
  assert(llvm::all_of(op.getOperands(),
                      [&](Value v) { return mapping.contains(v); }) &&
         "a cloned op reads a value the loop does not provide");
  builder.clone(op, mapping);
}

ScannedLayer::ScannedLayer(GraphBuilder &b, ArrayRef<Value> invariants,
                           ArrayRef<Value> stackedParams,
                           ScanResiduals residuals)
    : b(b), layers(GraphBuilder::shapeOf(stackedParams.front())[0]),
      invariants(invariants), stackedParams(stackedParams), mode(residuals) {}

ScannedLayer::~ScannedLayer() = default;

SmallVector<Value> ScannedLayer::invariantArgs() const {
  return llvm::to_vector_of<Value>(
      scratch->getArguments().slice(1, invariants.size()));
}

SmallVector<Value> ScannedLayer::paramArgs() const {
  return llvm::to_vector_of<Value>(scratch->getArguments().slice(
      1 + invariants.size(), stackedParams.size()));
}

void ScannedLayer::trace(Type xType, LayerFn layer) {
  Location loc = b.getLoc();
  scratch = std::make_unique<Block>();
  scratch->addArgument(xType, loc);
  for (Value v : invariants)
    scratch->addArgument(v.getType(), loc);
  for (Value p : stackedParams)
    scratch->addArgument(rowType(p), loc);
  scratch->addArgument(xType, loc);

  OpBuilder::InsertionGuard guard(b.getBuilder());
  b.getBuilder().setInsertionPointToEnd(scratch.get());
  bool wasRecording = b.isRecording();
  b.setRecording(mode != ScanResiduals::None);
  {
    GraphBuilder::TapeScope tape(b);
    output = layer(xArg(), invariantArgs(), paramArgs());
    for (Operation &op : *scratch)
      forwardOps.insert(&op);
    if (mode != ScanResiduals::None) {
      SmallVector<Value> wrt{xArg()};
      llvm::append_range(wrt, paramArgs());
      cotangents = b.vjp({output}, {dyArg()}, wrt);
      for (Operation &op : *scratch)
        if (!forwardOps.contains(&op))
          backwardOps.push_back(&op);
    }
  }
  b.setRecording(wasRecording);
}

bool ScannedLayer::isForwardValue(Value v) const {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getOwner() == scratch.get() && v != dyArg();
  return forwardOps.contains(v.getDefiningOp());
}

void ScannedLayer::classify(Value v, SmallVectorImpl<Value> &worklist) {
  if (isa<BlockArgument>(v)) {
    // The input is saved; invariants are carried; parameters are read at l.
    if (v == xArg())
      stacked.push_back(v);
    else if (invariantValues.contains(v))
      hoisted.push_back(v);
    return;
  }
  Operation *def = v.getDefiningOp();
  if (mode == ScanResiduals::Inputs || def->getNumOperands() == 0 ||
      isa<stablehlo::BroadcastInDimOp>(def)) {
    if (rebuilt.insert(def))
      llvm::append_range(worklist, def->getOperands());
    return;
  }
  (invariantValues.contains(v) ? hoisted : stacked).push_back(v);
}

void ScannedLayer::findResiduals() {
  // Values computed from the invariants alone (and constants).
  for (Value v : invariantArgs())
    invariantValues.insert(v);
  DenseMap<Operation *, unsigned> position;
  for (auto [k, op] : llvm::enumerate(forwardOps)) {
    position[op] = k;
    if (llvm::all_of(op->getOperands(),
                     [&](Value v) { return invariantValues.contains(v); }))
      invariantValues.insert(op->result_begin(), op->result_end());
  }

  SmallVector<Value> worklist;
  for (Operation *op : backwardOps)
    op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        if (isForwardValue(v))
          worklist.push_back(v);
    });
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (seen.insert(v).second)
      classify(v, worklist);
  }

  // Program order: arguments first, then by defining op.
  auto order = [&](Value v) -> std::pair<unsigned, unsigned> {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return {0, arg.getArgNumber()};
    return {1 + position.lookup(v.getDefiningOp()),
            cast<OpResult>(v).getResultNumber()};
  };
  auto before = [&](Value a, Value b) { return order(a) < order(b); };
  llvm::sort(stacked, before);
  llvm::sort(hoisted, before);
}

void ScannedLayer::cloneForward(const SetVector<Operation *> &ops,
                                IRMapping &mapping) {
  for (Operation *op : forwardOps)
    if (ops.contains(op))
      cloneMapped(b.getBuilder(), *op, mapping);
}

Value ScannedLayer::forward(Value x, LayerFn layer) {
  trace(x.getType(), layer);
  if (mode != ScanResiduals::None)
    findResiduals();
  GraphBuilder::NoGradScope noGrad(b);
  SmallVector<Value> carry{x};
  for (Value r : stacked) {
    SmallVector<int64_t> shape{layers};
    llvm::append_range(shape, GraphBuilder::shapeOf(r));
    carry.push_back(b.full(0.0, shape, GraphBuilder::elementTypeOf(r)));
  }
  size_t numInvariants = invariants.size(), numStacked = stacked.size();
  llvm::append_range(carry, invariants);
  llvm::append_range(carry, stackedParams);
  SmallVector<Value> out =
      b.forLoop(layers, carry, [&](Value i, ArrayRef<Value> args) {
        IRMapping mapping;
        mapping.map(xArg(), args[0]);
        mapping.map(invariantArgs(), args.slice(1 + numStacked, numInvariants));
        for (auto [arg, p] :
             llvm::zip_equal(paramArgs(), args.take_back(stackedParams.size())))
          mapping.map(arg, b.dynamicIndex(p, i));
        cloneForward(forwardOps, mapping);
        SmallVector<Value> next(args);
        next[0] = mapping.lookup(output);
        for (auto [k, r] : llvm::enumerate(stacked))
          next[1 + k] = b.dynamicUpdateIndex(args[1 + k], mapping.lookup(r), i);
        return next;
      });
  buffers.assign(out.begin() + 1, out.begin() + 1 + numStacked);
  return out[0];
}

SmallVector<Value> ScannedLayer::emitHoisted() {
  SetVector<Operation *> slice;
  SmallVector<Value> worklist(hoisted);
  while (!worklist.empty())
    if (Operation *def = worklist.pop_back_val().getDefiningOp())
      if (slice.insert(def))
        llvm::append_range(worklist, def->getOperands());
  IRMapping mapping;
  mapping.map(invariantArgs(), invariants);
  cloneForward(slice, mapping);
  return llvm::map_to_vector(hoisted,
                             [&](Value v) { return mapping.lookup(v); });
}

Value ScannedLayer::backward(Value dy, SmallVectorImpl<Value> &grads) {
  assert(mode != ScanResiduals::None && scratch &&
         "backward needs a forward loop that saved residuals");
  GraphBuilder::NoGradScope noGrad(b);
  size_t numParams = stackedParams.size(), numStacked = buffers.size();
  SmallVector<Value> carry{dy};
  for (Value p : stackedParams)
    carry.push_back(b.fullLike(0.0, p));
  llvm::append_range(carry, buffers);
  SmallVector<Value> hoistedValues = emitHoisted();
  llvm::append_range(carry, hoistedValues);
  llvm::append_range(carry, stackedParams);
  SmallVector<Value> out =
      b.forLoop(layers, carry, [&](Value i, ArrayRef<Value> args) {
        Value l = b.sub(b.scalar(static_cast<double>(layers - 1), b.i32()), i);
        ArrayRef<Value> gradBuffers = args.slice(1, numParams);
        IRMapping mapping;
        mapping.map(dyArg(), args[0]);
        for (auto [k, r] : llvm::enumerate(stacked))
          mapping.map(r, b.dynamicIndex(args[1 + numParams + k], l));
        mapping.map(hoisted, args.slice(1 + numParams + numStacked,
                                        hoistedValues.size()));
        for (auto [arg, p] :
             llvm::zip_equal(paramArgs(), args.take_back(numParams)))
          if (seen.contains(arg))
            mapping.map(arg, b.dynamicIndex(p, l));
        cloneForward(rebuilt, mapping);
        for (Operation *op : backwardOps)
          cloneMapped(b.getBuilder(), *op, mapping);
        SmallVector<Value> next(args);
        next[0] = mapping.lookup(cotangents[0]);
        for (auto [k, buffer] : llvm::enumerate(gradBuffers))
          next[1 + k] = b.dynamicUpdateIndex(
              buffer, mapping.lookup(cotangents[1 + k]), l);
        return next;
      });
  grads.assign(out.begin() + 1, out.begin() + 1 + numParams);
  return out[0];
}
