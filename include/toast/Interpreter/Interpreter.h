//===- Interpreter.h - Reference interpreter for Toast programs -*- C++ -*-===//
//
// Executes `func.func` functions of StableHLO, CHLO and PartIR:Core ops on
// Tensor values, with the semantics of the StableHLO specification. Uses:
// running the self-checking StableHLO test programs (`check.expect_*` custom
// calls), differential testing of partitioned programs, and debugging.
//
// Ops are evaluated by handlers looked up by op name in a registry (see
// OpRegistry below). Each op family registers its handlers from its own
// file. Collectives (PartIR:HLO and StableHLO) need an SpmdContext: one
// Interpreter runs per simulated device (Spmd.h).
//
// Errors (unsupported ops or types, bad check calls, elided constants) are
// reported as diagnostics located at the op, and evaluation fails; the
// interpreter never aborts on bad input.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_INTERPRETER_INTERPRETER_H
#define TOAST_INTERPRETER_INTERPRETER_H

#include "toast/Export/HloSharding.h"
#include "toast/Interpreter/Tensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace toast::interp {

class Interpreter;

/// Evaluates one op: `operands` are the values of the op's operands, and the
/// handler appends one tensor per op result to `results`. On failure the
/// handler has emitted a diagnostic at the op.
using OpHandler = mlir::LogicalResult (*)(
    Interpreter &interp, mlir::Operation *op, llvm::ArrayRef<Tensor> operands,
    llvm::SmallVectorImpl<Tensor> &results);

/// The handlers, by op name (`stablehlo.add`). Built-in handlers are added on
/// first use; other libraries may add their own with add().
class OpRegistry {
public:
  /// The process-wide registry, with every built-in handler registered.
  static OpRegistry &get();
  /// Registers (or replaces) the handler of `opName`.
  void add(llvm::StringRef opName, OpHandler handler);
  /// The handler of `opName`, or null.
  OpHandler lookup(llvm::StringRef opName) const;

private:
  llvm::StringMap<OpHandler> handlers;
};

/// Which devices execute a program. The default (no SPMD context) is one
/// device running the global program. PartIR:HLO and exported StableHLO with
/// collectives run one interpreter per device (see Spmd.h), each with an
/// SpmdContext naming its device and giving access to the exchange through
/// which collectives see the operands of the other devices.
struct SpmdContext {
  virtual ~SpmdContext();
  /// This device's linear id (row-major over the mesh axes); for exported
  /// StableHLO, its partition id.
  virtual int64_t getDeviceId() const = 0;
  virtual int64_t getNumDevices() const = 0;
  /// The mesh axes (names and sizes, in device order) that PartIR:HLO
  /// collectives name; empty for exported StableHLO.
  virtual llvm::ArrayRef<toast::xla::MeshAxis> getMeshAxes() const = 0;

  /// The operands of every device at one collective: all[d] holds what
  /// device d contributed.
  using Contributions = llvm::ArrayRef<llvm::ArrayRef<Tensor>>;
  /// Called by every device at the collective `op` with its `operands`:
  /// waits until all devices arrived, calls `compute` with everyone's
  /// operands (which stay valid and unchanged only during the call, so
  /// `compute` must copy what it keeps), then waits until all devices are
  /// done reading. Fails when devices reach different collectives or
  /// another device failed (a diagnostic is emitted once, by one device).
  virtual mlir::LogicalResult
  exchange(mlir::Operation *op, llvm::ArrayRef<Tensor> operands,
           llvm::function_ref<mlir::LogicalResult(Contributions)> compute) = 0;
};

/// Kinds of value checks (`check.expect_*` custom calls).
enum class CheckKind { Eq, Close, AlmostEq };

/// The values of the constant ops a run has evaluated, shared (copy on
/// write) by every device of an SPMD run and every iteration of a loop: an
/// export's weights are constants, which each device would otherwise
/// build (and, with fillElided, draw) again. Safe to use from several
/// threads. Keyed by op: valid for one module, unchanged, and one set of
/// options (a constant filled by fillElided depends on rngSeed); values
/// stay alive until the cache goes.
class ConstantCache {
public:
  std::optional<Tensor> lookup(mlir::Operation *op) const;
  /// Keeps the first value recorded for `op` (threads may race to it).
  void insert(mlir::Operation *op, const Tensor &value);

private:
  mutable std::mutex mutex;
  llvm::DenseMap<mlir::Operation *, Tensor> values;
};

/// Options of an interpreter run.
struct InterpreterOptions {
  /// Verify that all iterations of a `#partir.any` loop yield equal values.
  bool verifyAnyLoops = true;
  /// Stop after this many iterations of a single `stablehlo.while` (0: no
  /// limit), to keep a runaway loop from hanging a test.
  int64_t maxWhileIterations = 0;
  /// Emit a remark at every passing tolerance check with the largest
  /// absolute and relative error seen (to tune tolerances).
  bool reportCheckErrors = false;
  /// Non-null when running as one device of an SPMD program.
  SpmdContext *spmd = nullptr;
  /// Key of the Philox stream that `stablehlo.rng` draws from (runEntry and
  /// compareModules set it to their seed).
  uint64_t rngSeed = 0;
  /// Fill constants whose data the exporter elided (`dense_resource
  /// <__elided__>`) with random values drawn from their type and rngSeed,
  /// so constants of one type are equal in both programs of a comparison
  /// (otherwise such a constant is an error).
  bool fillElided = false;
  /// Where constant ops keep their values; null: the interpreter makes its
  /// own (the SPMD runner gives every device the same one).
  std::shared_ptr<ConstantCache> constants;
};

/// Outcome counters of `check.expect_*` calls.
struct CheckSummary {
  int64_t passed = 0;
  int64_t failed = 0;
};

/// Executes the functions of one module.
class Interpreter {
public:
  explicit Interpreter(mlir::ModuleOp module, InterpreterOptions options = {});
  ~Interpreter();

  /// Calls the function named `name` with `args`.
  mlir::FailureOr<llvm::SmallVector<Tensor>>
  runFunction(llvm::StringRef name, llvm::ArrayRef<Tensor> args);
  /// Calls `func` with `args`; `caller` (may be null) locates errors.
  mlir::FailureOr<llvm::SmallVector<Tensor>>
  callFunction(mlir::func::FuncOp func, llvm::ArrayRef<Tensor> args,
               mlir::Operation *caller = nullptr);

  /// Runs the single block of `region` with its arguments bound to `args`;
  /// appends the operands of its terminator to `results`. Values of
  /// enclosing regions stay visible.
  mlir::LogicalResult runRegion(mlir::Region &region,
                                llvm::ArrayRef<Tensor> args,
                                llvm::SmallVectorImpl<Tensor> &results);

  /// The value of `value` in the current frame (must be defined).
  const Tensor &lookup(mlir::Value value) const;

  /// Records the outcome of a check.
  void recordCheck(bool passed) { passed ? ++checks.passed : ++checks.failed; }
  const CheckSummary &getCheckSummary() const { return checks; }
  const InterpreterOptions &getOptions() const { return options; }
  /// Numbers the executions of `stablehlo.rng` (0, 1, ...): each draws from
  /// its own part of the stream keyed by options.rngSeed.
  uint64_t nextRngInvocation() { return rngInvocations++; }
  mlir::ModuleOp getModule() const { return module; }

private:
  struct Frame;
  mlir::LogicalResult runBlock(mlir::Block &block,
                               llvm::SmallVectorImpl<Tensor> &results);
  mlir::LogicalResult runOp(mlir::Operation *op);
  /// Values whose last use in `block` is each op (computed once per block).
  const llvm::DenseMap<mlir::Operation *, llvm::SmallVector<mlir::Value, 2>> &
  getDeadValues(mlir::Block &block);

  mlir::ModuleOp module;
  InterpreterOptions options;
  CheckSummary checks;
  llvm::SmallVector<std::unique_ptr<Frame>> frames;
  llvm::DenseMap<mlir::OperationName, OpHandler> handlerCache;
  // std::map: runBlock keeps a reference to its block's entry while nested
  // blocks add theirs, so entries must not move (a DenseMap rehash would
  // leave that reference dangling).
  std::map<mlir::Block *,
           llvm::DenseMap<mlir::Operation *, llvm::SmallVector<mlir::Value, 2>>>
      deadValues;
  int64_t callDepth = 0;
  uint64_t rngInvocations = 0;
};

/// Builds the tensor for a value of MLIR type `type`, zero-filled; emits an
/// error at `loc` and fails when the type is not supported.
mlir::FailureOr<Tensor> makeTensorOfType(mlir::Type type, mlir::Location loc);

} // namespace toast::interp

#endif // TOAST_INTERPRETER_INTERPRETER_H
