//===- Simulator.h - Analytical simulator of device-local programs -*- C++ -*-===//
//
// PartIR appendix A.5 / TOAST §4.5: an analytical simulator of the
// device-local program that PartIR:HLO lowering produces (one SPMD program,
// identical on every device). It estimates
//   - the step time: per-op roofline (contractions from their FLOPs, other
//     ops optionally from bytes moved) plus ring collectives with α-β terms,
//     accumulated along the critical path of a one-stream (default) or
//     two-stream (compute + communication, overlapping) schedule;
//   - the peak memory per device: live ranges of device-local tensors
//     (arguments live for the whole program, values die after their last
//     use, a loop's carried values share one buffer: Aliasing.h),
//     optionally with fusion of elementwise chains;
//   - loop and branch bodies priced as often as they run (a counted
//     loop's body trip-count times);
//   - collective counts per kind (PartIR tables 2 and 3);
// and the relative cost C(s) = RT(s) + MP(s) of TOAST §4.5 that the search
// minimizes.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_SIMULATOR_SIMULATOR_H
#define TOAST_SIMULATOR_SIMULATOR_H

#include "toast/Simulator/CostModel.h"
#include "toast/Simulator/Device.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <string>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace toast::sim {

/// Knobs of the cost model.
struct SimulationOptions {
  /// Price every non-contraction op by the bytes it moves through HBM and
  /// contractions by max(compute, memory) (roofline). Off: only
  /// contractions and collectives take time (TOAST §4.5).
  bool memoryBound = false;
  /// Fuse elementwise chains: an elementwise (or broadcast_in_dim) result
  /// whose only use is an elementwise op of the same block is never
  /// materialized (no memory, no HBM traffic).
  bool fusion = false;
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
  /// Emit a warning on the first contraction of each element type the
  /// device has no peak for (neither the type's key nor `default`); it is
  /// priced at the f32 peak.
  bool warnMissingPeaks = false;
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
  int64_t peakOpIndex = -1;
  /// Device memory and whether the peak fits in it.
  int64_t deviceMemoryBytes = 0;
  bool fitsInMemory = true;
  /// Ops simulated (calls inlined, each region op's regions walked once).
  int64_t numOps = 0;
  /// While loops whose trip count is not a constant: priced as one
  /// iteration (counted loops are priced trip-count times).
  int64_t uncountedLoops = 0;
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

/// Simulates `func` (calls to other functions of its module are inlined).
/// Collectives over mesh axes need the `partir.mesh` of the module.
/// Errors (PartIR:Core loops left, unknown axes, recursion, dynamic shapes)
/// are emitted on the offending op.
mlir::FailureOr<SimulationResult>
simulate(mlir::func::FuncOp func, const DeviceSpec &device,
         const SimulationOptions &options = {});

/// Simulates the entry function of `module` (see SimulationOptions).
mlir::FailureOr<SimulationResult>
simulate(mlir::ModuleOp module, const DeviceSpec &device,
         const SimulationOptions &options = {});

/// Simulates only the regions of `op` (a while, case or if) as simulate()
/// walks them, for a caller that prices the op itself: values from outside
/// and the op's results take no memory here, and constants in the regions
/// are left out (--partir-optimize-collectives hoists them to the function
/// start). `peakMemoryBytes` is what the regions' own buffers add at their
/// peak, `computeTime`/`flops` include trip counts, `numOps` counts the op.
mlir::FailureOr<SimulationResult>
simulateRegions(mlir::Operation *op, const DeviceSpec &device,
                const SimulationOptions &options = {});

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

/// A human-readable summary.
void printSummary(llvm::raw_ostream &os, const SimulationResult &result,
                  const RelativeCost *relative = nullptr);

} // namespace toast::sim

#endif // TOAST_SIMULATOR_SIMULATOR_H
