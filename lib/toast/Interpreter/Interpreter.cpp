//===- Interpreter.cpp - Reference interpreter core -----------------------===//
//
// Frames, block/region execution, function calls and the op registry. Op
// semantics live in the per-family files (ElementwiseOps.cpp, ...).
//
// Memory: values are dropped from the frame right after their last use in
// the block that defines them (uses inside nested regions count as uses by
// the enclosing op of that block), so a long program keeps only live
// tensors.
//
//===----------------------------------------------------------------------===//

#include "toast/Interpreter/Interpreter.h"

#include "OpImpl.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace toast::interp;

/// Deeper call chains than this are reported as errors (recursion).
static constexpr int64_t kMaxCallDepth = 512;

//===----------------------------------------------------------------------===//
// OpRegistry
//===----------------------------------------------------------------------===//

OpRegistry &OpRegistry::get() {
  static OpRegistry *registry = [] {
    auto *r = new OpRegistry();
    detail::registerControlOps(*r);
    detail::registerElementwiseOps(*r);
    detail::registerConvertOps(*r);
    detail::registerChloOps(*r);
    detail::registerShapeOps(*r);
    detail::registerGatherScatterOps(*r);
    detail::registerReductionOps(*r);
    detail::registerNormOps(*r);
    detail::registerContractionOps(*r);
    detail::registerSolveOps(*r);
    detail::registerRngOps(*r);
    detail::registerPartIRCoreOps(*r);
    detail::registerPartIRHLOOps(*r);
    detail::registerCollectiveOps(*r);
    detail::registerSdyOps(*r);
    return r;
  }();
  return *registry;
}

void OpRegistry::add(StringRef opName, OpHandler handler) {
  handlers[opName] = handler;
}

OpHandler OpRegistry::lookup(StringRef opName) const {
  auto it = handlers.find(opName);
  return it == handlers.end() ? nullptr : it->second;
}

SpmdContext::~SpmdContext() = default;

//===----------------------------------------------------------------------===//
// Interpreter
//===----------------------------------------------------------------------===//

struct Interpreter::Frame {
  DenseMap<Value, Tensor> values;
};

Interpreter::Interpreter(ModuleOp module, InterpreterOptions options)
    : module(module), options(options) {
  if (!this->options.constants)
    this->options.constants = std::make_shared<ConstantCache>();
}

std::optional<Tensor> ConstantCache::lookup(Operation *op) const {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = values.find(op);
  if (it == values.end())
    return std::nullopt;
  return it->second;
}

void ConstantCache::insert(Operation *op, const Tensor &value) {
  std::lock_guard<std::mutex> lock(mutex);
  values.try_emplace(op, value);
}

Interpreter::~Interpreter() = default;

FailureOr<Tensor> toast::interp::makeTensorOfType(Type type, Location loc) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType) {
    emitError(loc) << "toast-run: unsupported type " << type
                   << " (only ranked tensors are supported)";
    return failure();
  }
  if (!ElementType::get(tensorType.getElementType())) {
    emitError(loc) << "toast-run: unsupported element type "
                   << tensorType.getElementType();
    return failure();
  }
  if (!tensorType.hasStaticShape()) {
    emitError(loc) << "toast-run: unsupported dynamic shape " << type;
    return failure();
  }
  return Tensor(tensorType);
}

const Tensor &Interpreter::lookup(Value value) const {
  return frames.back()->values.find(value)->second;
}

FailureOr<SmallVector<Tensor>> Interpreter::runFunction(StringRef name,
                                                        ArrayRef<Tensor> args) {
  auto func = module.lookupSymbol<func::FuncOp>(name);
  if (!func) {
    emitError(module.getLoc()) << "toast-run: no function named @" << name;
    return failure();
  }
  return callFunction(func, args);
}

FailureOr<SmallVector<Tensor>> Interpreter::callFunction(func::FuncOp func,
                                                         ArrayRef<Tensor> args,
                                                         Operation *caller) {
  Location loc = caller ? caller->getLoc() : func.getLoc();
  if (func.isExternal()) {
    emitError(loc) << "toast-run: cannot call external function @"
                   << func.getSymName();
    return failure();
  }
  FunctionType type = func.getFunctionType();
  if (type.getNumInputs() != args.size()) {
    emitError(loc) << "toast-run: @" << func.getSymName() << " takes "
                   << type.getNumInputs() << " arguments, got " << args.size();
    return failure();
  }
  for (auto [i, arg] : llvm::enumerate(args)) {
    if (arg.getValueType() != type.getInput(i)) {
      InFlightDiagnostic diag = emitError(loc);
      diag << "toast-run: argument #" << i << " of @" << func.getSymName()
           << " must have type " << type.getInput(i) << ", got ";
      if (arg.getValueType())
        diag << arg.getValueType();
      else
        diag << "no value";
      return failure();
    }
  }
  if (callDepth >= kMaxCallDepth) {
    emitError(loc) << "toast-run: call depth exceeds " << kMaxCallDepth
                   << " (recursive functions are not supported)";
    return failure();
  }
  ++callDepth;
  frames.push_back(std::make_unique<Frame>());
  Block &entry = func.getBody().front();
  for (auto [arg, value] : llvm::zip_equal(entry.getArguments(), args))
    frames.back()->values[arg] = value;
  SmallVector<Tensor> results;
  LogicalResult status = runBlock(entry, results);
  frames.pop_back();
  --callDepth;
  if (failed(status))
    return failure();
  return results;
}

LogicalResult Interpreter::runRegion(Region &region, ArrayRef<Tensor> args,
                                     SmallVectorImpl<Tensor> &results) {
  if (!region.hasOneBlock()) {
    emitError(region.getLoc())
        << "toast-run: regions must have exactly one block";
    return failure();
  }
  Block &block = region.front();
  if (block.getNumArguments() != args.size()) {
    emitError(region.getLoc())
        << "toast-run: region takes " << block.getNumArguments()
        << " arguments, got " << args.size();
    return failure();
  }
  // A region run on its own (an isolated body, on a device of its own)
  // gets a frame of its own.
  bool ownFrame = frames.empty();
  if (ownFrame)
    frames.push_back(std::make_unique<Frame>());
  DenseMap<Value, Tensor> &values = frames.back()->values;
  for (auto [arg, value] : llvm::zip_equal(block.getArguments(), args))
    values[arg] = value;
  LogicalResult status = runBlock(block, results);
  if (ownFrame)
    frames.pop_back();
  return status;
}

LogicalResult Interpreter::runBlock(Block &block,
                                    SmallVectorImpl<Tensor> &results) {
  const auto &dead = getDeadValues(block);
  DenseMap<Value, Tensor> &values = frames.back()->values;
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      for (Value v : op.getOperands())
        results.push_back(values.lookup(v));
    } else if (failed(runOp(&op))) {
      return failure();
    }
    auto it = dead.find(&op);
    if (it != dead.end())
      for (Value v : it->second)
        values.erase(v);
  }
  return success();
}

LogicalResult Interpreter::runOp(Operation *op) {
  DenseMap<Value, Tensor> &values = frames.back()->values;
  SmallVector<Tensor, 4> operands;
  operands.reserve(op->getNumOperands());
  for (Value v : op->getOperands()) {
    auto it = values.find(v);
    if (it == values.end()) {
      op->emitError("toast-run: internal error: operand has no value");
      return failure();
    }
    operands.push_back(it->second);
  }

  auto cached = handlerCache.find(op->getName());
  OpHandler handler;
  if (cached != handlerCache.end()) {
    handler = cached->second;
  } else {
    handler = OpRegistry::get().lookup(op->getName().getStringRef());
    handlerCache[op->getName()] = handler;
  }
  if (!handler)
    return op->emitError("toast-run: unsupported op '") << op->getName() << "'";
  if (failed(detail::checkSupportedTypes(op)))
    return failure();

  SmallVector<Tensor, 2> results;
  if (failed(handler(*this, op, operands, results)))
    return failure();
  if (results.size() != op->getNumResults())
    return op->emitError("toast-run: internal error: evaluation produced ")
           << results.size() << " values for " << op->getNumResults()
           << " results";
  for (auto [result, value] : llvm::zip_equal(op->getResults(), results)) {
    if (value.getValueType() != result.getType())
      return op->emitError("toast-run: internal error: result #")
             << result.getResultNumber() << " evaluated to "
             << value.getValueType() << ", expected " << result.getType();
    values[result] = std::move(value);
  }
  return success();
}

const DenseMap<Operation *, SmallVector<Value, 2>> &
Interpreter::getDeadValues(Block &block) {
  auto it = deadValues.find(&block);
  if (it != deadValues.end())
    return it->second;
  // The last op of `block` (or the op of `block` enclosing the use) that
  // uses each value defined in `block`.
  DenseMap<Value, Operation *> lastUse;
  for (Operation &top : block) {
    top.walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        if (v.getParentBlock() == &block)
          lastUse[v] = &top;
    });
    for (Value result : top.getResults())
      if (result.use_empty())
        lastUse[result] = &top;
  }
  auto &dead = deadValues[&block];
  for (auto [value, op] : lastUse)
    dead[op].push_back(value);
  return dead;
}
