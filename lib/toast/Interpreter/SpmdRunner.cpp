//===- SpmdRunner.cpp - One thread per simulated device -------------------===//
//
// Every device runs the entry function on its own thread with its own
// Interpreter. Collectives synchronize all devices with two barriers: after
// the first, every device's operands are published and each device computes
// its own result from them; after the second, nobody reads them any more and
// the devices continue. Devices that reach different collectives, or a
// device that fails or returns while others wait, abort the run instead of
// hanging it.
//
//===----------------------------------------------------------------------===//

#include "toast/Interpreter/Spmd.h"

#include "OpImpl.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"

#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <thread>

using namespace mlir;
using namespace toast::interp;

namespace {

/// The meeting point of the devices' collectives.
class Exchange {
public:
  explicit Exchange(int64_t numDevices)
      : numDevices(numDevices), slots(numDevices), ops(numDevices) {}

  LogicalResult
  run(int64_t device, Operation *op, ArrayRef<Tensor> operands,
      function_ref<LogicalResult(SpmdContext::Contributions)> compute);
  /// Called once by every device when its function returned (or failed).
  void finish(bool ok);

private:
  /// Waits until all devices arrived; false when the run was aborted.
  bool arriveAndWait(std::unique_lock<std::mutex> &lock);
  void reportDivergence(Operation *op, int64_t device);

  std::mutex mutex;
  std::condition_variable wakeUp;
  int64_t numDevices;
  int64_t arrived = 0;
  int64_t finished = 0;
  uint64_t phase = 0;
  bool aborted = false;
  /// A device failed (and reported why).
  bool anyFailed = false;
  /// A divergence was reported.
  bool reported = false;
  std::vector<ArrayRef<Tensor>> slots;
  std::vector<Operation *> ops;
};

/// One device's view of the exchange.
class DeviceContext : public SpmdContext {
public:
  DeviceContext(Exchange &exchange, const SpmdProgram &program, int64_t id)
      : exchangePoint(exchange), program(program), id(id) {}
  int64_t getDeviceId() const override { return id; }
  int64_t getNumDevices() const override { return program.numDevices; }
  ArrayRef<toast::xla::MeshAxis> getMeshAxes() const override {
    return program.mesh;
  }
  LogicalResult
  exchange(Operation *op, ArrayRef<Tensor> operands,
           function_ref<LogicalResult(Contributions)> compute) override {
    return exchangePoint.run(id, op, operands, compute);
  }

private:
  Exchange &exchangePoint;
  const SpmdProgram &program;
  int64_t id;
};

} // namespace

bool Exchange::arriveAndWait(std::unique_lock<std::mutex> &lock) {
  if (aborted)
    return false;
  // A device that returned will never arrive.
  if (finished > 0) {
    aborted = true;
    wakeUp.notify_all();
    return false;
  }
  uint64_t myPhase = phase;
  if (++arrived == numDevices) {
    arrived = 0;
    ++phase;
    wakeUp.notify_all();
    return true;
  }
  wakeUp.wait(lock, [&] { return phase != myPhase || aborted; });
  return phase != myPhase;
}

void Exchange::reportDivergence(Operation *op, int64_t device) {
  if (reported)
    return;
  reported = true;
  emitError(op->getLoc())
      << "toast-run: device " << device << " waits at this '" << op->getName()
      << "' but another device returned or is at a different collective "
         "(devices must run the same collectives in the same order)";
}

LogicalResult
Exchange::run(int64_t device, Operation *op, ArrayRef<Tensor> operands,
              function_ref<LogicalResult(SpmdContext::Contributions)> compute) {
  std::unique_lock<std::mutex> lock(mutex);
  slots[device] = operands;
  ops[device] = op;
  if (!arriveAndWait(lock)) {
    if (finished > 0 && !anyFailed)
      reportDivergence(op, device);
    return failure();
  }
  bool same = llvm::all_equal(ops);
  if (!same && device == 0)
    reportDivergence(op, device);
  lock.unlock();
  // Between the barriers the slots are read-only.
  LogicalResult status = same ? compute(slots) : failure();
  lock.lock();
  if (!arriveAndWait(lock))
    return failure();
  return status;
}

void Exchange::finish(bool ok) {
  std::lock_guard<std::mutex> lock(mutex);
  ++finished;
  anyFailed |= !ok;
  if (!ok || arrived > 0) {
    aborted = true;
    wakeUp.notify_all();
  }
}

/// Reassembles result `index` from the devices' values; fails when two
/// devices holding the same tile disagree.
static FailureOr<Tensor> assembleResult(Operation *anchor, StringRef what,
                                        const SpmdProgram &program,
                                        unsigned index,
                                        ArrayRef<SmallVector<Tensor>> values) {
  const ShardLayout &layout = program.results[index];
  Tensor global(cast<RankedTensorType>(program.globalType.getResult(index)));
  // The first device holding each tile, by tile (row-major over tiles).
  std::map<SmallVector<int64_t>, int64_t> owner;
  for (int64_t d = 0; d < program.numDevices; ++d) {
    const Tensor &padded = values[d][index];
    SmallVector<int64_t> offsets;
    for (auto [dim, tile] : llvm::enumerate(layout.deviceTiles[d]))
      offsets.push_back(tile * padded.getDim(dim));
    // The padding of an uneven sharding is no part of the result.
    Tensor local =
        toast::interp::detail::clipBlock(padded, offsets, global.getShape());
    auto [it, first] = owner.try_emplace(layout.deviceTiles[d], d);
    if (first) {
      toast::interp::detail::insertBlock(global, local, offsets);
      continue;
    }
    Tensor other = toast::interp::detail::clipBlock(values[it->second][index],
                                                    offsets, global.getShape());
    for (int64_t i = 0, n = local.getNumElements(); i < n; ++i)
      if (!local.elementEquals(i, other, i))
        return emitError(anchor->getLoc())
               << "toast-run: result #" << index << " of " << what
               << ": devices " << it->second << " and " << d
               << " hold the same part of the result but differ at "
               << local.formatIndex(i) << " (" << other.formatElement(i)
               << " vs " << local.formatElement(i)
               << "); is a collective missing, or the result's sharding "
                  "wrong?";
  }
  return global;
}

/// Shows each distinct diagnostic once: all devices run the same program, so
/// an error usually happens on every device.
class DeduplicatingHandler {
public:
  explicit DeduplicatingHandler(MLIRContext *context)
      : handler(context, [this](Diagnostic &diag) { return filter(diag); }) {}

private:
  LogicalResult filter(Diagnostic &diag) {
    std::string key;
    llvm::raw_string_ostream os(key);
    os << diag.getLocation() << ": " << diag.str();
    std::lock_guard<std::mutex> lock(mutex);
    // Unhandled (failure) diagnostics go on to the previous handler.
    return success(!seen.insert(key).second);
  }
  std::mutex mutex;
  std::set<std::string> seen;
  ScopedDiagnosticHandler handler;
};

/// What one device runs: the entry function or a region, on its shards.
using DeviceBody = function_ref<FailureOr<SmallVector<Tensor>>(
    Interpreter &, ArrayRef<Tensor>)>;

/// Runs `body` on every device of `program` on its own thread, each on its
/// shards of `globalArgs`, and reassembles the results. `anchor` and `what`
/// locate and name the program in errors.
static FailureOr<SpmdRunReport> runOnDevices(Operation *anchor, StringRef what,
                                             const SpmdProgram &program,
                                             ArrayRef<Tensor> globalArgs,
                                             InterpreterOptions options,
                                             DeviceBody body) {
  int64_t n = program.numDevices;
  for (auto [i, arg] : llvm::enumerate(globalArgs))
    if (arg.getType() != program.globalType.getInput(i))
      return emitError(anchor->getLoc())
             << "toast-run: argument #" << i << " of " << what
             << " must have global type " << program.globalType.getInput(i)
             << ", got " << arg.getType();
  // The devices' threads create types (results, scalars) concurrently,
  // which MLIR only makes safe when the context may be multithreaded.
  if (!anchor->getContext()->isMultithreadingEnabled())
    return emitError(anchor->getLoc())
           << "toast-run: SPMD execution runs one thread per device and "
              "needs an MLIRContext with multithreading enabled";
  auto module = anchor->getParentOfType<ModuleOp>();
  DeduplicatingHandler diagnostics(anchor->getContext());
  Exchange exchange(n);
  std::vector<SmallVector<Tensor>> results(n);
  std::vector<CheckSummary> checks(n);
  std::vector<char> ok(n, 0);
  if (!options.constants)
    options.constants = std::make_shared<ConstantCache>();
  auto runDevice = [&](int64_t d) {
    SmallVector<Tensor> args;
    for (auto [arg, layout] : llvm::zip_equal(globalArgs, program.args))
      args.push_back(extractShard(arg, layout, d));
    DeviceContext context(exchange, program, d);
    InterpreterOptions deviceOptions = options;
    deviceOptions.spmd = &context;
    Interpreter interp(module, deviceOptions);
    FailureOr<SmallVector<Tensor>> values = body(interp, args);
    checks[d] = interp.getCheckSummary();
    ok[d] = succeeded(values);
    if (ok[d])
      results[d] = std::move(*values);
    exchange.finish(ok[d]);
  };
  std::vector<std::thread> threads;
  for (int64_t d = 0; d < n; ++d)
    threads.emplace_back(runDevice, d);
  for (std::thread &t : threads)
    t.join();
  if (!llvm::all_of(ok, [](char c) { return c; }))
    return failure();

  SpmdRunReport report;
  for (const CheckSummary &c : checks) {
    report.checks.passed += c.passed;
    report.checks.failed += c.failed;
  }
  for (unsigned i = 0; i < program.results.size(); ++i) {
    FailureOr<Tensor> global =
        assembleResult(anchor, what, program, i, results);
    if (failed(global))
      return failure();
    report.results.push_back(std::move(*global));
  }
  return report;
}

FailureOr<SpmdRunReport> toast::interp::runSpmd(func::FuncOp func,
                                                const SpmdProgram &program,
                                                ArrayRef<Tensor> globalArgs,
                                                InterpreterOptions options) {
  std::string what = "@" + func.getSymName().str();
  return runOnDevices(func, what, program, globalArgs, options,
                      [&](Interpreter &interp, ArrayRef<Tensor> args) {
                        return interp.callFunction(func, args);
                      });
}

FailureOr<SpmdRunReport>
toast::interp::runSpmdRegion(Region &region, const SpmdProgram &program,
                             ArrayRef<Tensor> globalArgs,
                             InterpreterOptions options) {
  Operation *owner = region.getParentOp();
  std::string what = "'" + owner->getName().getStringRef().str() + "'";
  return runOnDevices(owner, what, program, globalArgs, options,
                      [&](Interpreter &interp, ArrayRef<Tensor> args)
                          -> FailureOr<SmallVector<Tensor>> {
                        SmallVector<Tensor> results;
                        if (failed(interp.runRegion(region, args, results)))
                          return failure();
                        return results;
                      });
}
