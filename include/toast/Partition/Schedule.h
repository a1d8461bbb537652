//===- Schedule.h - Manual tactics and schedules ----------------*- C++ -*-===//
//
// A schedule is a mesh and an ordered list of tactics (PartIR §3). A manual
// tactic tiles selected inputs along a mesh axis (or keeps them atomic) and
// then propagates; earlier tactics therefore take priority. Schedules come
// from JSON (docs/schedules.md), from pass options, or from C++.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_PARTITION_SCHEDULE_H
#define TOAST_PARTITION_SCHEDULE_H

#include "toast/Partition/ShardingState.h"
#include "toast/Simulator/Simulator.h"

#include "mlir/IR/BuiltinOps.h"

#include <vector>

namespace toast::partition {

/// What to do with a selected input. Dim, FirstDivisible and Replicated
/// act on values; OperandDim, ResultDim and WholeOp act on the op an `#N`
/// selector names: OperandDim makes it loop over the factor that dimension
/// `dim` of its operand `operand` maps (ShardingState::tileOp; e.g. the
/// contracting factor of a dot), ResultDim over the factor of dimension
/// `dim` of its result `operand` (an op without operands, such as iota),
/// WholeOp keeps it from looping over the axis (ShardingState::atomicOp).
struct InputSpec {
  enum class Kind {
    Dim,
    FirstDivisible,
    Replicated,
    OperandDim,
    ResultDim,
    WholeOp
  };
  Kind kind = Kind::Dim;
  int64_t dim = 0;
  /// The operand (OperandDim) or result (ResultDim) index.
  int64_t operand = 0;
  /// OperandDim and ResultDim (`"operand0:1@P"`): the loop's place in the
  /// op's nest, 0 outermost (ShardingState::tileOp).
  std::optional<unsigned> position;
  /// Whether the spec acts on the op an `#N` selector names.
  bool actsOnOp() const {
    return kind == Kind::OperandDim || kind == Kind::ResultDim ||
           kind == Kind::WholeOp;
  }
};

/// ManualPartition(inputs -> dim, axis). A selector is `argN`, a value
/// name (argument attribute `partir.name`, `jax.arg_info`, `tf.name` or
/// `mhlo.name`, or a `partir.tag` name), `#N` or `#N.R` (a result of op N,
/// numberedOps), or `re:` followed by a regular expression matched against
/// whole names.
struct ManualTactic {
  std::string name;
  std::string axis;
  llvm::SmallVector<std::pair<std::string, InputSpec>> inputs;
};

/// AutomaticPartition(axes, options): searches shardings over `axes` (TOAST
/// §4; toast/Search/AutoPartition.h) starting from the state the earlier
/// tactics left. Run by the hook that the search library registers.
struct AutomaticTactic {
  std::string name;
  /// Mesh axes the search may use; empty: all.
  llvm::SmallVector<std::string> axes;
  /// Device whose cost model scores states; empty: the schedule's device,
  /// else "a100".
  std::string device;
  /// "mcts", "random", "automap", "exhaustive" or "ilp".
  std::string algorithm = "mcts";
  uint64_t seed = 1;
  /// Wall-clock budget in seconds (0: none).
  double budgetSeconds = 30;
  unsigned threads = 1;
  /// Rollout budget (0: none).
  uint64_t rollouts = 0;
  /// MCTS stops after this many perturbation restarts in a row fail.
  unsigned restartPatience = 30;
  /// MCTS: the ops those failed restarts must price as well
  /// (SearchOptions::patienceWork); 0: no such rule.
  uint64_t patienceWork = 8000000;
  /// MCTS: the relative gain of the best cost that counts as progress for
  /// its stopping rules (SearchOptions::minGain), in [0, 1).
  double minGain = 0;
  /// MCTS: restarts end after this many times the states that found the
  /// best (SearchOptions::patienceRatio), >= 0; 0: no limit.
  double patienceRatio = 0;
  /// MCTS: climbs try the moves that have not failed first
  /// (SearchOptions::climbMemory).
  bool climbMemory = true;
  /// MCTS: a climb from a perturbation is stuck after a quarter of its
  /// neighbours, at most this many (at least 8 per thread), fail
  /// (SearchOptions::restartNeighbours); 0: a quarter.
  uint64_t restartNeighbours = 128;
  /// Exhaustive enumeration prices at most this many states.
  uint64_t maxStates = 100000;
  /// Actions touching fewer dimensions are pruned.
  unsigned minDims = 10;
  /// algorithm=ilp: CBC's time limit in seconds (> 0) and the IOPDDL
  /// output file (empty: none).
  double ilpTimeLimitSeconds = 600;
  std::string iopddlOut;
  /// Price states as `--partir-simulate` does with `donate=true` (every
  /// argument whose local type matches a result is donated) and
  /// `tf32=true` (f32 contractions at the TF32 peak).
  bool donate = false;
  bool tf32 = false;
  /// Also shard dimensions an axis does not divide, padded (`pad=false`
  /// turns it off).
  bool pad = true;
  /// Also offer context actions (docs/search.md, "Context actions").
  bool contextActions = false;
  /// Print every action of the search space in words before searching.
  bool listActions = false;
  /// Progress and the final report on stderr.
  bool progress = true;
  /// Runs after the first `position` manual tactics of the schedule.
  unsigned position = 0;
};

struct Schedule {
  /// Mesh axes in order (row-major device order); empty: use the module's.
  llvm::SmallVector<std::pair<std::string, int64_t>> mesh;
  llvm::SmallVector<ManualTactic> tactics;
  /// Automatic tactics, each placed among `tactics` by its `position` (in
  /// order for equal positions).
  llvm::SmallVector<AutomaticTactic, 1> automatic;
  /// When set (a device name such as "a100" or "file:PATH"), every tactic's
  /// report includes the simulation of the program partitioned so far.
  std::string device;
};

/// What a tactic did, reported after it ran.
struct TacticReport {
  std::string name;
  unsigned actions = 0;
  PropagationStats stats;
  /// Ops whose loop nest uses the tactic's axis after it ran.
  unsigned opsOnAxis = 0;
  /// The simulated device-local program after this tactic (Schedule::device).
  std::optional<sim::SimulationResult> simulation;
  /// What an automatic tactic chose, in words, one action per entry.
  std::vector<std::string> notes;
};

/// Runs an automatic tactic on a state. The search library (which depends
/// on this one) registers it: toast::search::registerAutomaticTactic(),
/// called by toast::registerAllPasses().
using AutomaticTacticHook = mlir::FailureOr<TacticReport> (*)(
    ShardingState &state, const AutomaticTactic &tactic);
void setAutomaticTacticHook(AutomaticTacticHook hook);

/// Applies an automatic tactic through the registered hook; fails with a
/// diagnostic when no search library registered one.
mlir::FailureOr<TacticReport>
applyAutomaticTactic(ShardingState &state, const AutomaticTactic &tactic);

/// Parses a mesh option such as `B=4,M=2`; an empty string gives no axes.
mlir::FailureOr<llvm::SmallVector<std::pair<std::string, int64_t>>>
parseMeshOption(mlir::ModuleOp module, llvm::StringRef text);

/// Parses the JSON schedule format; on error returns failure and sets
/// `error` to a message with the JSON path of the problem.
mlir::FailureOr<Schedule> parseSchedule(llvm::StringRef json,
                                        std::string &error);

/// Parses `value` of an input spec: an integer, "first_divisible",
/// "replicated", "operandO:D" or "whole_op".
mlir::FailureOr<InputSpec> parseInputSpec(llvm::StringRef value);

/// The text parseInputSpec reads back for a spec that is not a Dim.
std::string printInputSpec(const InputSpec &spec);

/// The function tactics act on: `main` if present, else the only public
/// function. Emits an error and fails otherwise.
mlir::FailureOr<mlir::func::FuncOp> getEntryFunction(mlir::ModuleOp module);

/// The mesh of `module` after applying `axes` (which win when non-empty).
/// Sets the module attribute. Fails with a diagnostic when neither gives a
/// mesh or the axes are invalid.
mlir::FailureOr<partir::MeshAttr>
resolveMesh(mlir::ModuleOp module,
            llvm::ArrayRef<std::pair<std::string, int64_t>> axes);

/// The ops of `func`'s body in pre-order (an op before the ops of its
/// regions): `#N` selects the first result of op N, `#N.R` its result R.
llvm::SmallVector<mlir::Operation *> numberedOps(mlir::func::FuncOp func);

/// Values selected by `selector` in `func` (arguments, tagged values and
/// `#N[.R]` op results). Emits an error naming the known inputs when
/// nothing matches.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
selectValues(mlir::func::FuncOp func, llvm::StringRef selector,
             llvm::StringRef tacticName);

/// Inlines the calls directly in `func`'s body, repeating for calls that
/// inlining exposes, at most `maxRounds` times. Returns how many calls were
/// inlined. Calls that cannot be inlined stay (and are opaque).
mlir::FailureOr<unsigned> inlineCalls(mlir::func::FuncOp func,
                                      unsigned maxRounds = 16);

/// Gives every constant op of `module` whose value is the elided resource
/// `dense_resource<__elided__>` a resource of its own (`__elided___N`, no
/// data). Exporters print every elided weight so; parsed, they are one
/// attribute, which constant folding and deduplication then merge (GPT-2's
/// 148 weights became 9: 149 MiB of weights gone from every price).
/// Returns how many it renamed; keys that are not exactly `__elided__` (a
/// second call, or inlined copies of one constant) stay as they are.
unsigned distinguishElidedConstants(mlir::ModuleOp module);

/// Prepares the entry function for partitioning: keeps elided constants
/// apart (distinguishElidedConstants), inlines its calls (with a remark
/// saying how many) and erases the ops nothing that runs reads (as lowering
/// would; sim::findDeadOps).
mlir::LogicalResult prepareEntryFunction(mlir::func::FuncOp func);

/// Applies one manual tactic's actions, then propagates.
mlir::FailureOr<TacticReport> applyManualTactic(ShardingState &state,
                                                const ManualTactic &tactic);

/// partition(module, mesh, schedule): runs every tactic (manual and
/// automatic, in schedule order) on the entry function and, if
/// `materialize`, rewrites it into PartIR:Core. Returns per-tactic reports.
mlir::FailureOr<std::vector<TacticReport>> partition(mlir::ModuleOp module,
                                                     const Schedule &schedule,
                                                     bool materialize = true);

} // namespace toast::partition

#endif // TOAST_PARTITION_SCHEDULE_H
