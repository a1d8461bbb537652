//===- Simulator.h - Analytical simulator of device-local programs -*- C++
//-*-===//
//
// PartIR appendix A.5 / TOAST §4.5: an analytical simulator of the
// device-local program that PartIR:HLO lowering produces (one SPMD program,
// identical on every device). It estimates
//   - the step time: per-fusion roofline (FLOPs of contractions against the
//     peak of their element type, bytes at the fusion boundary against HBM
//     bandwidth; Fusion.h) plus ring collectives with α-β terms,
//     accumulated along the critical path of a one-stream (default) or
//     two-stream (compute + communication, overlapping) schedule;
//   - the peak memory per device: live ranges of device-local tensors
//     (arguments live for the whole program, values die after their last
//     use, a loop's carried values share one buffer: Aliasing.h), fused
//     values none;
//   - loop and branch bodies priced as often as they run (a counted
//     loop's body trip-count times);
//   - collective counts per kind (PartIR tables 2 and 3);
//   - a memory floor below the peak: what any buffer assignment of the
//     program in the same order holds, without what fusion avoids;
// and the relative cost C(s) = RT(s) + MP(s) of TOAST §4.5 that the search
// minimizes. A Timeline records the schedule op by op for pictures (a
// Chrome trace, a memory CSV).
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_SIMULATOR_SIMULATOR_H
#define TOAST_SIMULATOR_SIMULATOR_H

#include "toast/Simulator/CostModel.h"
#include "toast/Simulator/Device.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace toast::sim {

/// Knobs of the cost model.
struct SimulationOptions {
  /// The roofline (the default): every op or fusion takes max(FLOPs /
  /// peak for its element type, HBM bytes / bandwidth), where the bytes
  /// are what it reads and writes at its boundary. Off: only contractions
  /// and collectives take time (TOAST §4.5).
  bool memoryBound = true;
  /// The fusion model of Fusion.h (the default): elementwise and data
  /// movement ops fuse into their readers, reduces absorb their producers
  /// and fuse forward as epilogues; a fused value has no buffer and no
  /// traffic. Off: every value is a buffer, every op reads its operands.
  bool fusion = true;
  /// Two streams: collectives run on their own stream and overlap with
  /// independent compute. Off: one stream, step time = compute + comm.
  bool overlap = false;
  /// Price f32 contractions at the device's `tf32` peak (NVIDIA's TF32
  /// tensor-core mode), when it has one. Off: the IEEE f32 peak.
  bool tf32 = false;
  /// Donate every argument of the entry function whose device-local type
  /// matches a result (as JAX training steps donate their state): that
  /// result reuses the argument's buffer. Arguments marked
  /// `tf.aliasing_output` or `jax.buffer_donor` are donated in any case.
  bool donate = false;
  /// Entry function; empty means `main`, else the only public function.
  std::string function;
  /// Emit a warning on every `while` whose trip count is not a constant
  /// (the pass does; the search, which simulates many states, does not).
  bool warnUncountedLoops = false;
  /// The model before fusion and the roofline were the default: only
  /// contractions and collectives take time, every value is a buffer.
  static SimulationOptions legacy() {
    SimulationOptions options;
    options.memoryBound = options.fusion = false;
    return options;
  }
  /// Emit a warning on the first contraction of each element type the
  /// device has no peak for (neither the type's key nor `default`); it is
  /// priced at the f32 peak.
  bool warnMissingPeaks = false;
  /// Emit a warning, once, at the first value with a dynamic dimension:
  /// such values are priced as empty (0 bytes, no time), as
  /// getTypeBytes counts them.
  bool warnDynamicShapes = false;
};

/// Count, time and traffic of one collective kind.
struct CollectiveStats {
  int64_t count = 0;
  double time = 0;
  double bytes = 0;
};

/// What the simulator reports about one device-local program.
struct SimulationResult {
  std::string device;
  std::string function;
  /// Estimated step time (critical path), seconds.
  double stepTime = 0;
  /// Sum of the compute (resp. communication) times of all ops, seconds.
  double computeTime = 0;
  double commTime = 0;
  /// FLOPs of the contractions (2 x MACs), per device.
  double flops = 0;
  /// Bytes each device sends in collectives.
  double commBytes = 0;
  /// HBM bytes read and written by priced ops (memory-bound mode only).
  double memoryTraffic = 0;
  /// Peak live bytes on one device, the bytes of the arguments, and the op
  /// at which the peak is first reached (empty name: at function entry).
  int64_t peakMemoryBytes = 0;
  int64_t argumentBytes = 0;
  std::string peakOpName;
  std::string peakOpLocation;
  /// The op's name in the user's terms (ValueNames.h), or empty.
  std::string peakOpUserName;
  int64_t peakOpIndex = -1;
  /// The memory floor (docs/simulator.md, "Memory floor"): the largest sum,
  /// over the points between two ops, of the buffers that are defined
  /// before the point and read after it (every entry argument at the
  /// start, those the caller keeps and the returned values to the end),
  /// counting what a fusing backend need not store as nothing (values the
  /// fusion rule fuses, iota, splat constants) or as the smaller value it
  /// recomputes it from (broadcasts, converts). Any buffer assignment of
  /// the program in the simulated order holds it: peakMemoryBytes >=
  /// memoryFloorBytes. It does not depend on memory-bound pricing or
  /// overlap; donation can lower it, and without fusion the inputs of
  /// fusible values die earlier (a lower floor).
  int64_t memoryFloorBytes = 0;
  /// The entry arguments' part of the floor (parameters, optimizer state,
  /// inputs still live there).
  int64_t memoryFloorArgumentBytes = 0;
  /// The op after which the floor is reached (-1 and an empty name: at
  /// function entry, before the first op).
  std::string floorOpName;
  std::string floorOpLocation;
  std::string floorOpUserName;
  int64_t floorOpIndex = -1;
  /// Device memory and whether the peak fits in it.
  int64_t deviceMemoryBytes = 0;
  bool fitsInMemory = true;
  /// Ops simulated (calls inlined, each region op's regions walked once).
  int64_t numOps = 0;
  /// While loops whose trip count is not a constant: priced as one
  /// iteration (counted loops are priced trip-count times).
  int64_t uncountedLoops = 0;
  /// While loops priced at their maximum trip count: their condition has
  /// other terms (an early exit) that may end them sooner.
  int64_t atMostLoops = 0;
  /// Per collective kind, indexed by CollectiveKind.
  std::array<CollectiveStats, kNumCollectiveKinds> collectives{};

  const CollectiveStats &get(CollectiveKind kind) const {
    return collectives[static_cast<unsigned>(kind)];
  }
  int64_t count(CollectiveKind kind) const { return get(kind).count; }
  /// Bytes by which the peak exceeds device memory (0 when it fits).
  int64_t getMemoryOverflowBytes() const {
    return peakMemoryBytes > deviceMemoryBytes
               ? peakMemoryBytes - deviceMemoryBytes
               : 0;
  }
};

/// One op of the simulated schedule.
struct TimelineEvent {
  mlir::Operation *op = nullptr;
  /// Index in the simulated order (SimulationResult::peakOpIndex's).
  int64_t index = 0;
  /// When the op starts on its stream and how long it takes, in seconds;
  /// an op in a loop body takes its region's repeat count times one
  /// iteration (the body is not unrolled).
  double start = 0;
  double duration = 0;
  /// How many times the op runs (a counted loop's trip count, nested loops
  /// multiplied).
  double repeat = 1;
  /// A collective (on the communication stream with `overlap`, else on the
  /// one stream; a trace draws it on its own track either way).
  bool collective = false;
  CollectiveKind kind = CollectiveKind::AllGather;
  /// FLOPs (contractions) or bytes sent (collectives), repeats included.
  double flops = 0;
  double commBytes = 0;
  /// Live bytes while the op runs (the peak is the largest).
  int64_t liveBytes = 0;
};

/// A while/if/case whose regions were walked: the events
/// [firstIndex, lastIndex] are its regions' ops and the op itself.
struct TimelineRegionOp {
  mlir::Operation *op = nullptr;
  int64_t firstIndex = 0;
  int64_t lastIndex = 0;
  /// Runs of its last region per run of the op: a counted `while`'s trip
  /// count (1 for an uncounted loop and for branches).
  double iterations = 1;
};

/// The simulated step op by op, for pictures (writeChromeTrace,
/// writeMemoryCSV). Filled by simulate() when asked for.
struct Timeline {
  std::vector<TimelineEvent> events;
  std::vector<TimelineRegionOp> regionOps;
  /// Collectives ran on their own stream (SimulationOptions::overlap).
  bool overlap = false;
};

/// Simulates `func` (calls to other functions of its module are inlined).
/// Collectives over mesh axes need the `partir.mesh` of the module.
/// Errors (PartIR:Core loops left, unknown axes, recursion, dynamic shapes)
/// are emitted on the offending op. A non-null `timeline` receives the
/// schedule op by op.
mlir::FailureOr<SimulationResult>
simulate(mlir::func::FuncOp func, const DeviceSpec &device,
         const SimulationOptions &options = {}, Timeline *timeline = nullptr);

/// Simulates the entry function of `module` (see SimulationOptions).
mlir::FailureOr<SimulationResult>
simulate(mlir::ModuleOp module, const DeviceSpec &device,
         const SimulationOptions &options = {}, Timeline *timeline = nullptr);

/// Constants that fold to one: equal value and type. simulateRegions hoists
/// region constants and merges them by this key (as the folder does), and
/// the analytic cost and the planned emitter follow it.
using ConstantKey = std::pair<const void *, const void *>;
/// The key of a constant-like op (one matched by m_Constant).
ConstantKey getConstantKey(mlir::Operation *constant);

/// The ops of `block` and of the regions nested in it that no backend
/// runs: free of side effects and with every result read only by ops that
/// never run (the greedy rewriter and XLA's dead code elimination erase
/// them), across region boundaries. An op nested in a dead op may or may
/// not be listed (neverRuns asks its ancestors too). The simulator skips
/// them in every block it walks, they fuse nothing, and the analytic cost
/// and the planned emitter follow it. Ops `keep` answers true for count as
/// run (partitioning keeps a value's partir.tag, a name tactics select by).
llvm::DenseSet<mlir::Operation *>
findDeadOps(mlir::Block &block,
            llvm::function_ref<bool(mlir::Operation *)> keep = nullptr);
/// Whether `op` or an op around it is in `dead` (findDeadOps).
bool neverRuns(mlir::Operation *op,
               const llvm::DenseSet<mlir::Operation *> &dead);
/// Calls `visit` once per value defined outside `op` that an op of its
/// regions reads (ops that never run left out): what the op reads as a
/// whole besides its operands. The simulator and the analytic cost's
/// program model both count these as inputs of the op.
void forEachCapturedValue(mlir::Operation *op,
                          const llvm::DenseSet<mlir::Operation *> &dead,
                          llvm::function_ref<void(mlir::Value)> visit);

/// Simulates only the regions of `op` (a while, case or if) as simulate()
/// walks them, for a caller that prices the op itself: values from outside
/// and the op's results take no memory here, and constants in the regions
/// are left out (--partir-optimize-collectives hoists them to the function
/// start). `peakMemoryBytes` is what the regions' own buffers add at their
/// peak, `computeTime`/`flops` include trip counts, `numOps` counts the op.
/// `outerReads`, when given, receives the values from outside whose buffers
/// the regions read (a region constant stands for its hoisted copy; a view
/// reads no indices): what decides whether a carry's init is read elsewhere.
mlir::FailureOr<SimulationResult>
simulateRegions(mlir::Operation *op, const DeviceSpec &device,
                const SimulationOptions &options = {},
                llvm::SmallVectorImpl<mlir::Value> *outerReads = nullptr);

//===----------------------------------------------------------------------===//
// Relative cost (TOAST §4.5)
//===----------------------------------------------------------------------===//

/// Default penalty constant C of MP(s).
constexpr double kDefaultMemoryPenalty = 10.0;

/// C(s) = RT(s) + MP(s) with
///   RT(s) = runtime(s) / runtime(s0),
///   MP(s) = C * (peak(s) - DM) / peak(s0)   if peak(s) > DM, else 0,
/// where s0 is the initial (unpartitioned) state and DM the device memory.
struct RelativeCost {
  double runtime = 0;
  double memoryPenalty = 0;
  double total = 0;
};

/// C(s) from raw numbers. A zero initial runtime (peak) makes RT (MP)
/// relative to 1 second (byte) instead.
RelativeCost computeRelativeCost(double initialRuntime, double initialPeak,
                                 double currentRuntime, double currentPeak,
                                 double deviceMemory,
                                 double penalty = kDefaultMemoryPenalty);

/// C(s) of `current` against `initial`, with DM = current.deviceMemoryBytes.
RelativeCost computeRelativeCost(const SimulationResult &initial,
                                 const SimulationResult &current,
                                 double penalty = kDefaultMemoryPenalty);

/// A cost function for search: remembers the initial state's simulation
/// and scores later states of the same program.
class RelativeCostModel {
public:
  RelativeCostModel(DeviceSpec device, SimulationResult initial,
                    SimulationOptions options = {},
                    double penalty = kDefaultMemoryPenalty)
      : device(std::move(device)), initial(std::move(initial)),
        options(std::move(options)), penalty(penalty) {}

  /// Simulates `initialModule` as s0.
  static mlir::FailureOr<RelativeCostModel>
  create(mlir::ModuleOp initialModule, DeviceSpec device,
         SimulationOptions options = {},
         double penalty = kDefaultMemoryPenalty);

  RelativeCost evaluate(const SimulationResult &current) const {
    return computeRelativeCost(initial, current, penalty);
  }
  /// Simulates `module` and scores it.
  mlir::FailureOr<RelativeCost> evaluate(mlir::ModuleOp module) const;

  const DeviceSpec &getDevice() const { return device; }
  const SimulationResult &getInitial() const { return initial; }
  const SimulationOptions &getOptions() const { return options; }
  double getPenalty() const { return penalty; }

private:
  DeviceSpec device;
  SimulationResult initial;
  SimulationOptions options;
  double penalty;
};

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

/// The JSON report: step_time_s, compute_time_s, comm_time_s, flops,
/// comm_bytes, peak_memory_bytes, collectives{...}, and more (see
/// docs/simulator.md). `relative` adds a "relative_cost" object.
std::string toJSON(const SimulationResult &result,
                   const RelativeCost *relative = nullptr,
                   double penalty = kDefaultMemoryPenalty);

/// A duration as every report prints one: `1.500 ms`, `320.000 us`, ...
std::string formatTime(double seconds);

/// Bytes as every report prints them: `12.00 MiB (12582912 B)`; without
/// `exact`, `12.00 MiB` (one-line summaries such as the search's).
std::string formatBytes(double bytes, bool exact = true);

/// A human-readable summary.
void printSummary(llvm::raw_ostream &os, const SimulationResult &result,
                  const RelativeCost *relative = nullptr);

/// The timeline as a Chrome trace event file (Perfetto, chrome://tracing;
/// docs/simulator.md, "Timeline"): a `compute` and a `collectives` track of
/// complete events, one per op that takes time (name, location and op
/// index in `args`), loops and conditionals as slices around their
/// regions, counters of live memory and of the floor, and an instant event
/// at the peak. `otherData` repeats the report's totals.
void writeChromeTrace(llvm::raw_ostream &os, const SimulationResult &result,
                      const Timeline &timeline);

/// The memory curve as CSV: the header `time_s,live_bytes,op_index,op`,
/// then one row per op in the simulated order (its start time in seconds,
/// the live bytes while it runs, its index and its name).
void writeMemoryCSV(llvm::raw_ostream &os, const SimulationResult &result,
                    const Timeline &timeline);

} // namespace toast::sim

#endif // TOAST_SIMULATOR_SIMULATOR_H
