//===- Simulator.cpp - Analytical simulation of a device-local program ----===//
//
// One walk over the entry function produces a *trace*: the ops in execution
// order, with calls inlined and the regions of while/if/case walked once
// each. An op in a region is priced as often as the region runs
// (getRegionScopes: a counted loop's body trip-count times, its condition
// once more; every branch once). Values map to *buffers* (reshapes, call
// results and loop-carried values share them, see Aliasing.h). During the
// walk every op is priced and scheduled on a compute or a communication
// stream (one stream unless `overlap`), and every buffer records where it
// is defined and last used. A sweep over these live ranges then gives the
// peak memory and the op where it is first reached; memory is that of one
// iteration, since a loop reuses its buffers.
//
// The walk is linear in the number of ops (plus operands), so a 100k-op
// program simulates in milliseconds (benchmarks/SimulatorBench.cpp).
//
//===----------------------------------------------------------------------===//

#include "toast/Simulator/Simulator.h"

#include "toast/Dialect/PartIR/Core/IR/PartIRCore.h"
#include "toast/Dialect/PartIR/HLO/IR/PartIRHLO.h"
#include "toast/Dialect/StableHLO/IR/StablehloOps.h"
#include "toast/Interfaces/ControlFlow.h"
#include "toast/Interfaces/ValueNames.h"
#include "toast/Simulator/Aliasing.h"
#include "toast/Simulator/Fusion.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <limits>
#include <map>

using namespace mlir;
using namespace toast::sim;
namespace hlo = toast::stablehlo;
namespace phlo = toast::partir_hlo;

namespace {

/// A device-local allocation.
struct Buffer {
  int64_t bytes = 0;
  /// Trace index of the defining op (-1: function argument, live from the
  /// start).
  int64_t def = -1;
  /// Trace index of the last op that uses it (>= def).
  int64_t lastUse = -1;
  /// Time at which its value is available.
  double ready = 0;
  /// Fused into its readers (Fusion.h): never materialized; the fusions
  /// that read it read what it reads (Simulation::fusedInputs).
  bool fused = false;
  /// What a fusing backend need not store, for the memory floor: a value
  /// the fusion rule fuses (whether or not `fusion` is on).
  bool fusible = false;
  /// Produced by an op a backend recomputes where it is used
  /// (isRecomputable): the floor counts the buffer `recomputeFrom` (-1:
  /// nothing) instead when that is not larger.
  bool recomputable = false;
  int recomputeFrom = -1;
  /// In a carry tie or a donation: its storage may hold what the program
  /// writes into it, so the floor does not count it as recomputed.
  bool tied = false;
  /// Returned by the entry function: materialized where it is computed.
  bool returned = false;
  /// A view (isContiguousSliceView) of this buffer, -1 for none: it holds
  /// no memory; reading it reads its bytes of the buffer it views.
  int viewOf = -1;
};

/// Elements of a statically shaped tensor type (0 for other types).
int64_t getNumElements(Type type) {
  auto shaped = dyn_cast<RankedTensorType>(type);
  return shaped && shaped.hasStaticShape() ? shaped.getNumElements() : 0;
}

/// Whether the fusion rule (Fusion.h) fuses `op`'s result into its
/// readers: the ops of its block that read it (readers elsewhere, in
/// nested regions or the terminator, are boundaries; readers that never
/// run, `dead`, are none). `inputBytes`: what its fusion would read
/// (called only when the rule needs it).
bool isFusibleResult(Operation *op, function_ref<double()> inputBytes,
                     const llvm::DenseSet<Operation *> &dead) {
  if (op->getNumResults() != 1)
    return false;
  Value result = op->getResult(0);
  SmallVector<FusionReader, 4> readers;
  for (OpOperand &use : result.getUses()) {
    Operation *user = use.getOwner();
    if (neverRuns(user, dead))
      continue;
    FusionReader reader;
    if (user->getBlock() == op->getBlock() &&
        !user->hasTrait<OpTrait::IsTerminator>()) {
      reader.op = user;
      reader.resultElements = user->getNumResults()
                                  ? getNumElements(user->getResult(0).getType())
                                  : 0;
    }
    readers.push_back(reader);
  }
  return isFusedIntoReaders(
      op, getNumElements(result.getType()), readers, inputBytes,
      static_cast<double>(getTypeBytes(result.getType())));
}

/// Ops whose result an XLA-like backend computes where it is read instead
/// of storing it (it fuses them into every consumer): broadcasts and
/// converts, from their operand, and iota and splat constants (and even
/// chunks of them), from nothing. The memory floor counts such a value as
/// its operand (when not larger) or as nothing. Sets `fromOperand` when the
/// result is recomputed from operand 0.
bool isRecomputable(Operation *op, bool &fromOperand) {
  fromOperand =
      isa<hlo::BroadcastInDimOp, hlo::BroadcastOp, hlo::ConvertOp>(op) &&
      op->getNumOperands() == 1;
  if (fromOperand)
    return true;
  if (isa<hlo::IotaOp>(op))
    return true;
  if (auto slice = dyn_cast<toast::partir_hlo::AllSliceOp>(op))
    return static_cast<bool>(toast::partir_hlo::getSlicedSplat(slice));
  auto constant = dyn_cast<hlo::ConstantOp>(op);
  return constant && constant.getValue().isSplat();
}

/// The walk over one entry function.
class Simulation {
public:
  Simulation(const DeviceSpec &device, const SimulationOptions &options,
             toast::partir::MeshAttr mesh, SymbolTableCollection &symbols)
      : device(device), options(options), mesh(mesh), symbols(symbols) {}

  /// Per in-place candidate (dynamic_update_slice or scatter result, in
  /// trace order): whether it updated its operand in place. Known after
  /// run(); a second walk given them prices in-place updates by their
  /// slice in memory-bound mode.
  std::vector<char> inPlaceUpdates;
  const std::vector<char> *knownInPlace = nullptr;
  /// Receives the schedule op by op when set.
  Timeline *timeline = nullptr;

  LogicalResult run(func::FuncOp func, SimulationResult &result);
  /// simulateRegions: the regions of `op` and `op` itself; `outerReads` as
  /// simulateRegions documents.
  LogicalResult runRegions(Operation *op, SimulationResult &result,
                           SmallVectorImpl<Value> *outerReads);

private:
  using ValueMap = DenseMap<Value, unsigned>;
  /// Control-flow regions being walked: buffers from outside that are used
  /// inside stay alive until the region op ends (loops re-read them).
  struct RegionScope {
    int64_t start;
    SmallVector<unsigned> outerUses;
  };

  LogicalResult walkBlock(Block &block, ValueMap &values);
  LogicalResult visitOp(Operation *op, ValueMap &values);
  LogicalResult visitCall(func::CallOp call, ValueMap &values);
  LogicalResult visitControlFlow(Operation *op, ValueMap &values);
  /// Binds the block arguments of edges that only enter a region (no
  /// result owns them) to their operand's buffer.
  void bindRegionInputs(Operation *op, ValueMap &values);
  /// Allocates the buffers of `op`'s carried values when its regions start
  /// and binds the block arguments to them; -1 for results without one.
  SmallVector<int> bindCarries(Operation *op, ArrayRef<TiedResult> tied,
                               ValueMap &values);
  /// Records which buffers of the loop `op` (at trace index `at`) may be
  /// one (decided in finishMemory, once later uses are known).
  void tieCarries(Operation *op, ArrayRef<TiedResult> tied,
                  ArrayRef<int> carries, ValueMap &values,
                  const RegionScope &scope, int64_t at);
  /// Counts (and, if asked, warns about) a loop without a trip count.
  void noteUncounted(Operation *op, ArrayRef<toast::Scope> scopes);
  /// Prices `op`, schedules it and allocates its results.
  LogicalResult emit(Operation *op, ValueMap &values);
  /// Seconds of a contraction at the peak for its element type; warns
  /// (if asked) when the device has no peak for that type.
  double contractionTime(Operation *op);
  /// Ties the results of an in-place update to the operands they update;
  /// returns the HBM bytes the op saves when it updates in place (the full
  /// operand read and result written, less the written slice).
  double tieInPlaceUpdates(Operation *op, ArrayRef<unsigned> operandBuffers,
                           ArrayRef<unsigned> resultBuffers, int64_t at);
  /// The donated arguments' buffers and the returned buffers they may
  /// hold; marks the donated ones in `donated`.
  void findDonations(func::FuncOp func, const ValueMap &values,
                     SmallVectorImpl<bool> &donated);
  /// Resolves the carries, sweeps the live ranges of the `end` ops traced
  /// and fills the memory part of the result (the floor too if asked).
  void finishMemory(int64_t end, bool withFloor);
  /// The memory floor over the points between the `end` ops traced, on the
  /// resolved buffers (docs/simulator.md, "Memory floor").
  void computeFloor(int64_t end);

  unsigned newBuffer(int64_t bytes, int64_t def, double ready) {
    Buffer buffer;
    buffer.bytes = bytes;
    buffer.def = buffer.lastUse = def;
    buffer.ready = ready;
    buffers.push_back(buffer);
    fusedInputs.emplace_back();
    return buffers.size() - 1;
  }
  /// A buffer of `bytes` that reads `of`'s: it takes no memory of its
  /// own, and using it uses `of`.
  unsigned newView(unsigned of, int64_t bytes) {
    unsigned id = newBuffer(bytes, buffers[of].def, buffers[of].ready);
    buffers[id].viewOf = static_cast<int>(of);
    return id;
  }
  /// The buffer of `value`; values the walk never defined come from
  /// outside what it simulates (simulateRegions: captured values and
  /// hoisted constants), and get a buffer that lives from the start like
  /// an argument. Ops read its bytes; it takes no memory there
  /// (runRegions empties it before the sweep).
  unsigned lookup(Value value, ValueMap &values) {
    auto it = values.find(value);
    if (it != values.end())
      return it->second;
    // Equal constants are one after hoisting (the folder merges them).
    ConstantKey key{nullptr, nullptr};
    if (hoistConstants && matchPattern(value, m_Constant())) {
      key = getConstantKey(value.getDefiningOp());
      if (auto known = hoistedConstants.find(key);
          known != hoistedConstants.end())
        return values[value] = known->second;
    }
    unsigned id =
        newBuffer(hoistConstants ? getTypeBytes(value.getType()) : 0, -1, 0);
    outsideBuffers.push_back(id);
    if (key.first)
      hoistedConstants[key] = id;
    values[value] = id;
    return id;
  }
  /// Marks the materialized buffers the op at `at` reads through
  /// `operands` (fused ones stand for what they read) used there, and
  /// returns their bytes (each once) and when the last is ready.
  /// Operand `sliced` (getSlicedOperand), when materialized, counts at
  /// most `sliceBytes`.
  std::pair<double, double> readInputs(ArrayRef<unsigned> operands, int64_t at,
                                       int sliced = -1, double sliceBytes = 0) {
    double bytes = 0, ready = 0;
    visitReads(operands, sliced, sliceBytes, [&](unsigned b, double count) {
      use(b, at);
      bytes += count;
      ready = std::max(ready, buffers[b].ready);
    });
    return {bytes, ready};
  }
  /// The bytes readInputs would count, without marking anything used.
  double peekInputBytes(ArrayRef<unsigned> operands, int sliced,
                        double sliceBytes) {
    double bytes = 0;
    visitReads(operands, sliced, sliceBytes,
               [&](unsigned, double count) { bytes += count; });
    return bytes;
  }
  template <typename Visit>
  void visitReads(ArrayRef<unsigned> operands, int sliced, double sliceBytes,
                  Visit visit) {
    SmallVector<int, 4> ids(operands.begin(), operands.end());
    visitReadBuffers(
        ids, sliced, sliceBytes, fusedInputs,
        [&](int b) { return buffers[b].fused; },
        [&](int b) { return static_cast<double>(buffers[b].bytes); }, stamp,
        ++generation, visit);
  }
  /// Marks `buffer` used by the op at trace index `at`.
  void use(unsigned buffer, int64_t at) {
    if (buffers[buffer].viewOf >= 0)
      use(static_cast<unsigned>(buffers[buffer].viewOf), at);
    Buffer &b = buffers[buffer];
    b.lastUse = std::max(b.lastUse, at);
    for (auto &scope : regionScopes)
      if (b.def < scope.start)
        scope.outerUses.push_back(buffer);
  }
  /// The trace index the next op gets.
  int64_t index() const { return static_cast<int64_t>(trace.size()); }

  const DeviceSpec &device;
  const SimulationOptions &options;
  toast::partir::MeshAttr mesh;
  SymbolTableCollection &symbols;

  SmallVector<Buffer> buffers;
  /// Per buffer: what it reads when it is fused (else empty).
  std::vector<SmallVector<int, 2>> fusedInputs;
  /// Scratch of visitFusionInputs.
  std::vector<unsigned> stamp;
  unsigned generation = 0;
  /// simulateRegions: buffers of values from outside the regions, and of
  /// hoisted constants by value and type.
  SmallVector<unsigned> outsideBuffers;
  std::map<ConstantKey, unsigned> hoistedConstants;
  SmallVector<Operation *> trace;
  SmallVector<RegionScope> regionScopes;
  /// Loop-carried buffers and their inits, and in-place updates, in trace
  /// order.
  SmallVector<CarryTie> carryTies;
  /// Indices in carryTies of the in-place updates.
  SmallVector<unsigned> inPlaceTies;
  /// Returned buffers that may reuse donated arguments.
  SmallVector<BufferDonation> donations;
  /// Element types already warned about (no peak on the device).
  llvm::StringSet<> warnedPeaks;
  /// Functions on the call stack (recursion is an error).
  SmallPtrSet<Operation *, 8> callStack;
  /// Loops already warned about (a callee's loop is walked per call).
  SmallPtrSet<Operation *, 4> warnedLoops;
  /// simulateRegions: leave constants in regions out (hoisted).
  bool hoistConstants = false;
  /// Ops no backend runs (findDeadOps) in the blocks walked so far.
  llvm::DenseSet<Operation *> deadOps;
  void noteDeadOps(Block &block) {
    llvm::DenseSet<Operation *> dead = findDeadOps(block);
    deadOps.insert(dead.begin(), dead.end());
  }
  /// The outer uses of the last top-level region op walked.
  SmallVector<unsigned> topOuterUses;

  /// How many times the op being emitted runs (Scope::repeat of its
  /// region).
  double repeat = 1;
  /// Stream availability (one stream: only `computeFree` is used).
  double computeFree = 0, commFree = 0, finish = 0;
  SimulationResult *result = nullptr;
};

} // namespace

LogicalResult Simulation::run(func::FuncOp func, SimulationResult &res) {
  result = &res;
  if (func.isExternal())
    return func.emitError("cannot simulate external function @")
           << func.getSymName();
  Block &entry = func.getBody().front();
  ValueMap values;
  for (BlockArgument arg : entry.getArguments()) {
    unsigned id = newBuffer(getTypeBytes(arg.getType()), -1, 0);
    values[arg] = id;
    res.argumentBytes += buffers[id].bytes;
  }
  callStack.insert(func);
  noteDeadOps(entry);
  if (failed(walkBlock(entry, values)))
    return failure();

  // Arguments of the entry function (they are owned by the caller, unless
  // donated) and its results live to the end.
  int64_t end = index();
  SmallVector<bool> donated(entry.getNumArguments(), false);
  findDonations(func, values, donated);
  for (BlockArgument arg : entry.getArguments())
    if (!donated[arg.getArgNumber()])
      buffers[values.lookup(arg)].lastUse = end;
  if (Operation *terminator = entry.getTerminator())
    for (Value operand : terminator->getOperands()) {
      Buffer &b = buffers[lookup(operand, values)];
      b.returned = true;
      b.lastUse = std::max(b.lastUse, end);
      finish = std::max(finish, b.ready);
    }
  res.stepTime = finish;
  finishMemory(end, /*withFloor=*/true);
  return success();
}

LogicalResult Simulation::runRegions(Operation *op, SimulationResult &res,
                                     SmallVectorImpl<Value> *outerReads) {
  result = &res;
  hoistConstants = true;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      noteDeadOps(block);
  ValueMap values;
  if (failed(visitControlFlow(op, values)))
    return failure();
  if (outerReads) {
    outerReads->clear();
    for (auto [value, id] : values)
      if (llvm::is_contained(topOuterUses, id))
        outerReads->push_back(value);
  }
  // The op's results and carries, and what comes from outside, are the
  // caller's to count.
  for (unsigned id : outsideBuffers)
    buffers[id].bytes = 0;
  for (Value value : op->getResults())
    buffers[lookup(value, values)].bytes = 0;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Value arg : block.getArguments())
        buffers[lookup(arg, values)].bytes = 0;
  res.stepTime = finish;
  finishMemory(index(), /*withFloor=*/false);
  return success();
}

void Simulation::findDonations(func::FuncOp func, const ValueMap &values,
                               SmallVectorImpl<bool> &donated) {
  Block &entry = func.getBody().front();
  Operation *terminator = entry.getTerminator();
  auto sameType = [&](unsigned argument, unsigned result) {
    return entry.getArgument(argument).getType() ==
           terminator->getOperand(result).getType();
  };
  for (const Donation &d : getDonations(func, options.donate, sameType)) {
    donated[d.argument] = true;
    if (d.result >= 0)
      donations.push_back({values.lookup(terminator->getOperand(d.result)),
                           values.lookup(entry.getArgument(d.argument))});
  }
}

void Simulation::finishMemory(int64_t end, bool withFloor) {
  SimulationResult &res = *result;
  res.numOps = end;
  for (const CarryTie &tie : carryTies)
    buffers[tie.carry].tied = buffers[tie.init].tied = true;
  for (const BufferDonation &donation : donations)
    buffers[donation.result].tied = buffers[donation.argument].tied = true;
  std::vector<char> applied;
  resolveCarryTies(buffers, carryTies, donations, &applied);
  for (unsigned tie : inPlaceTies)
    inPlaceUpdates.push_back(applied[tie]);

  // Peak memory: +bytes where a buffer is defined, -bytes after its last
  // use. Arguments are live from index 0 on, results until the end.
  int64_t n = std::max<int64_t>(end, 1);
  std::vector<int64_t> delta(n + 1, 0);
  for (const Buffer &b : buffers) {
    if (b.fused || b.bytes == 0 || b.viewOf >= 0)
      continue;
    int64_t from = std::max<int64_t>(b.def, 0);
    int64_t to = std::min<int64_t>(std::max(b.lastUse, from), n - 1);
    delta[from] += b.bytes;
    delta[to + 1] -= b.bytes;
  }
  int64_t live = 0;
  res.peakMemoryBytes = -1;
  for (int64_t i = 0; i < n; ++i) {
    live += delta[i];
    if (timeline && i < end)
      timeline->events[i].liveBytes = live;
    if (live > res.peakMemoryBytes) {
      res.peakMemoryBytes = live;
      res.peakOpIndex = i < end ? i : -1;
    }
  }
  if (res.peakOpIndex >= 0) {
    Operation *op = trace[res.peakOpIndex];
    res.peakOpName = op->getName().getStringRef().str();
    std::string loc;
    llvm::raw_string_ostream os(loc);
    op->getLoc().print(os);
    res.peakOpLocation = loc;
    res.peakOpUserName = toast::getOpDisplayName(op);
  }
  res.deviceMemoryBytes = static_cast<int64_t>(device.memoryBytes);
  res.fitsInMemory = res.peakMemoryBytes <= res.deviceMemoryBytes;
  if (withFloor)
    computeFloor(end);
}

// The floor is a sweep like the peak's, over the *points between ops*
// instead of the ops: point c (0 <= c <= end) lies before op c, after op
// c - 1. A buffer is counted at the points after its definition up to its
// last use: defined before c and read at or after c (arguments from point
// 0; arguments the caller keeps and returned values to point `end`). Such
// a buffer holds a value that is still to be read, and no buffer reuse can
// free it; only not storing the value can. So the floor leaves out
//  * what op c - 1 reads for the last time and op c produces and nobody
//    reads later (an op's transient: both of them are live at the op in
//    the peak's sweep, not between ops);
//  * values the fusion rule fuses (Buffer::fusible): a fusing backend never
//    materializes them, and the peak does not count them with fusion=true;
//  * values a backend recomputes where they are read (isRecomputable):
//    they count as the value they are recomputed from (once, however many
//    values share it) when that is not larger, or as nothing. A returned
//    value is materialized where it is computed, and a tied one (a loop's
//    init or carry, an updated operand, a donation) holds what the program
//    writes into it: both count as themselves.
// It works on the resolved buffers, after views, carries, in-place updates
// and donations took their storage: a buffer that gave its storage away
// has no bytes left.
//
// Why peak >= floor: a buffer counted at point c >= 1 has def <= c - 1 <=
// lastUse, so the peak's sweep counts it at op c - 1 (at op 0 for point 0,
// where it counts every argument), unless it is fused, and fused buffers
// are fusible. A recomputed value's stand-in is counted at c only while the
// recomputed value (a different, unfused buffer at least as large, live at
// op c - 1) or the stand-in itself is; several stand-ins never share one
// recomputed value, since each has one operand. So every byte of the floor
// at c is a distinct live byte of the peak's sweep at op c - 1.
void Simulation::computeFloor(int64_t end) {
  SimulationResult &res = *result;
  // unit[b]: the buffer that stands for b (b itself, the buffer it is
  // recomputed from, or -1: nothing). Operands are allocated before their
  // results, so one pass in allocation order sees a unit before its users.
  unsigned numBuffers = buffers.size();
  std::vector<int> unit(numBuffers);
  std::vector<char> standsIn(numBuffers, 0);
  for (unsigned id = 0; id < numBuffers; ++id) {
    const Buffer &b = buffers[id];
    unit[id] = static_cast<int>(id);
    if (!b.recomputable || b.tied || b.returned || b.def < 0)
      continue;
    int from = b.recomputeFrom >= 0 ? unit[b.recomputeFrom] : -1;
    // A larger stand-in saves nothing; one that gave its storage away to
    // a tie (no bytes left) would count nothing.
    // A fusible stand-in is no buffer of the floor's.
    if (from >= 0 && (buffers[from].bytes > b.bytes || buffers[from].fusible ||
                      (buffers[from].tied && buffers[from].bytes == 0)))
      continue;
    unit[id] = from;
    if (from >= 0)
      standsIn[from] = 1;
  }

  // Points [first, last] at which buffer b is counted; none if last <
  // first.
  std::vector<int64_t> delta(end + 2, 0), argumentDelta(end + 2, 0);
  auto add = [&](int u, int64_t first, int64_t last) {
    int64_t bytes = buffers[u].bytes;
    delta[first] += bytes;
    delta[last + 1] -= bytes;
    if (buffers[u].def < 0) {
      argumentDelta[first] += bytes;
      argumentDelta[last + 1] -= bytes;
    }
  };
  struct Interval {
    int unit;
    int64_t first, last;
  };
  std::vector<Interval> shared;
  for (unsigned id = 0; id < numBuffers; ++id) {
    const Buffer &b = buffers[id];
    if (b.bytes == 0 || b.fusible || b.viewOf >= 0 || unit[id] < 0)
      continue;
    int64_t first = b.def < 0 ? 0 : b.def + 1;
    int64_t last = std::min<int64_t>(
        b.def < 0 ? std::max<int64_t>(b.lastUse, 0) : b.lastUse, end);
    if (last < first)
      continue;
    int u = unit[id];
    if (u == static_cast<int>(id) && !standsIn[id])
      add(u, first, last);
    else
      shared.push_back({u, first, last});
  }
  // A stand-in counts once over the union of its intervals.
  llvm::sort(shared, [](const Interval &a, const Interval &b) {
    return std::tie(a.unit, a.first) < std::tie(b.unit, b.first);
  });
  for (size_t i = 0; i < shared.size();) {
    int u = shared[i].unit;
    int64_t first = shared[i].first, last = shared[i].last;
    for (++i; i < shared.size() && shared[i].unit == u; ++i) {
      if (shared[i].first > last + 1) {
        add(u, first, last);
        first = shared[i].first;
      }
      last = std::max(last, shared[i].last);
    }
    add(u, first, last);
  }

  int64_t live = 0, arguments = 0;
  res.memoryFloorBytes = -1;
  for (int64_t c = 0; c <= end; ++c) {
    live += delta[c];
    arguments += argumentDelta[c];
    if (live > res.memoryFloorBytes) {
      res.memoryFloorBytes = live;
      res.memoryFloorArgumentBytes = arguments;
      res.floorOpIndex = c - 1;
    }
  }
  res.floorOpName.clear();
  res.floorOpLocation.clear();
  res.floorOpUserName.clear();
  if (res.floorOpIndex >= 0) {
    Operation *op = trace[res.floorOpIndex];
    res.floorOpName = op->getName().getStringRef().str();
    std::string loc;
    llvm::raw_string_ostream os(loc);
    op->getLoc().print(os);
    res.floorOpLocation = loc;
    res.floorOpUserName = toast::getOpDisplayName(op);
  }
}

LogicalResult Simulation::walkBlock(Block &block, ValueMap &values) {
  for (Operation &op : block.without_terminator()) {
    if (deadOps.contains(&op) ||
        (hoistConstants && matchPattern(&op, m_Constant())))
      continue;
    if (failed(visitOp(&op, values)))
      return failure();
  }
  return success();
}

LogicalResult Simulation::visitOp(Operation *op, ValueMap &values) {
  if (isa<toast::partir::LoopOp>(op))
    return op->emitError("cannot simulate PartIR:Core loops: lower the "
                         "program to device-local PartIR:HLO first "
                         "(--partir-lower-to-hlo)");
  if (auto call = dyn_cast<func::CallOp>(op))
    return visitCall(call, values);
  if (toast::isDataFlowRegionOp(op))
    return visitControlFlow(op, values);
  return emit(op, values);
}

LogicalResult Simulation::visitCall(func::CallOp call, ValueMap &values) {
  auto callee =
      symbols.lookupNearestSymbolFrom<func::FuncOp>(call, call.getCalleeAttr());
  if (!callee || callee.isExternal())
    return emit(call, values); // Opaque: allocate its results.
  if (!callStack.insert(callee).second)
    return call.emitError("cannot simulate recursive call to @")
           << callee.getSymName();
  // The callee's arguments alias the caller's operands; its results alias
  // the buffers it returns.
  Block &body = callee.getBody().front();
  noteDeadOps(body);
  ValueMap calleeValues;
  for (auto [arg, operand] : llvm::zip(body.getArguments(), call.getOperands()))
    calleeValues[arg] = lookup(operand, values);
  if (failed(walkBlock(body, calleeValues)))
    return failure();
  for (auto [res, operand] :
       llvm::zip(call.getResults(), body.getTerminator()->getOperands()))
    values[res] = lookup(operand, calleeValues);
  callStack.erase(callee);
  return success();
}

LogicalResult Simulation::visitControlFlow(Operation *op, ValueMap &values) {
  // The regions run in sequence, each priced as often as it runs, then the
  // op itself.
  int64_t start = index();
  regionScopes.push_back({start, {}});
  SmallVector<TiedResult> tied = getTiedResults(op);
  SmallVector<int> carries = bindCarries(op, tied, values);
  bindRegionInputs(op, values);
  double outerRepeat = repeat;
  SmallVector<toast::Scope> scopes =
      toast::getRegionScopes(op, toast::Scope{nullptr, repeat});
  noteUncounted(op, scopes);
  for (auto [region, scope] : llvm::zip_equal(op->getRegions(), scopes)) {
    if (region.empty())
      continue;
    repeat = scope.repeat;
    Block &block = region.front();
    if (failed(walkBlock(block, values)))
      return failure();
    // What a region yields is written into the op's result or the next
    // iteration's carry, which have buffers of their own: it dies with the
    // region (values from outside stay alive until the op ends).
    for (Value operand : block.getTerminator()->getOperands())
      use(lookup(operand, values), index() - 1);
  }
  repeat = outerRepeat;
  RegionScope scope = regionScopes.pop_back_val();
  if (regionScopes.empty())
    topOuterUses = scope.outerUses;
  if (failed(emit(op, values)))
    return failure();
  int64_t end = index() - 1;
  if (timeline && !scopes.empty())
    timeline->regionOps.push_back(
        {op, start, end,
         outerRepeat > 0 ? scopes.back().repeat / outerRepeat : 1.0});
  for (unsigned buffer : scope.outerUses)
    use(buffer, end);
  tieCarries(op, tied, carries, values, scope, end);
  return success();
}

void Simulation::tieCarries(Operation *op, ArrayRef<TiedResult> tied,
                            ArrayRef<int> carries, ValueMap &values,
                            const RegionScope &scope, int64_t at) {
  SmallVector<unsigned> operands;
  for (Value operand : op->getOperands())
    operands.push_back(lookup(operand, values));
  for (auto [i, t, carry] : llvm::enumerate(tied, carries)) {
    if (carry < 0)
      continue;
    unsigned init = operands[t.init];
    bool readElsewhere = llvm::count(operands, init) > 1 ||
                         llvm::is_contained(scope.outerUses, init);
    carryTies.push_back(
        {static_cast<unsigned>(carry), init, at, t.passThrough, readElsewhere});
    carryTies.push_back({lookup(op->getResult(i), values),
                         static_cast<unsigned>(carry), at, true, false});
  }
}

void Simulation::bindRegionInputs(Operation *op, ValueMap &values) {
  auto iface = cast<toast::DataFlowEdgeOpInterface>(op);
  for (unsigned edge = 0, e = iface.getNumEdges(); edge < e; ++edge) {
    SmallVector<OpOperand *, 2> sources;
    SmallVector<Value, 3> targets;
    iface.getEdgeSources(edge, sources);
    iface.getEdgeTargets(edge, targets);
    if (sources.size() != 1 || sources.front()->getOwner() != op)
      continue;
    // An operand that only enters the region (a shard_map body's argument,
    // its per-device part): the body reads the operand's buffer, and where
    // its argument is the smaller per-device part, only that part's bytes
    // (a view), as the same body inlined into a device-local program does.
    unsigned buffer = lookup(sources.front()->get(), values);
    for (Value target : targets) {
      if (!isa<BlockArgument>(target) || values.count(target))
        continue;
      int64_t bytes = getTypeBytes(target.getType());
      values[target] =
          bytes < buffers[buffer].bytes ? newView(buffer, bytes) : buffer;
    }
  }
}

SmallVector<int> Simulation::bindCarries(Operation *op,
                                         ArrayRef<TiedResult> tied,
                                         ValueMap &values) {
  SmallVector<int> carries(op->getNumResults(), -1);
  auto iface = cast<toast::DataFlowEdgeOpInterface>(op);
  for (auto [i, t] : llvm::enumerate(tied)) {
    if (t.init < 0)
      continue;
    unsigned init = lookup(op->getOperand(t.init), values);
    unsigned carry = newBuffer(getTypeBytes(op->getResult(i).getType()),
                               index(), buffers[init].ready);
    // The result gets its own buffer (tieCarries makes it the carry's), so
    // that the carry's uses are the block arguments' only.
    SmallVector<Value, 3> targets;
    iface.getEdgeTargets(i, targets);
    for (Value target : targets)
      if (isa<BlockArgument>(target))
        values[target] = carry;
    carries[i] = static_cast<int>(carry);
  }
  return carries;
}

double Simulation::contractionTime(Operation *op) {
  std::string key = getContractionPeakKey(op, device, options.tf32);
  if (options.warnMissingPeaks && !device.hasPeakFlops(key) &&
      warnedPeaks.insert(key).second)
    op->emitWarning("device '")
        << device.name << "' has no peak FLOP/s for " << key
        << "; pricing this and every " << key << " contraction at its f32 "
        << "peak";
  return getContractionTime(op, device, options.tf32);
}

double Simulation::tieInPlaceUpdates(Operation *op,
                                     ArrayRef<unsigned> operandBuffers,
                                     ArrayRef<unsigned> resultBuffers,
                                     int64_t at) {
  double saved = 0;
  for (auto [i, id] : llvm::enumerate(resultBuffers)) {
    int operand = getInPlaceOperand(op, i);
    if (operand < 0)
      continue;
    unsigned init = operandBuffers[operand];
    bool readElsewhere = llvm::count(operandBuffers, init) > 1;
    // The k-th candidate of this walk is the k-th of the first walk.
    unsigned ordinal = inPlaceTies.size();
    inPlaceTies.push_back(carryTies.size());
    carryTies.push_back({id, init, at, false, readElsewhere});
    if (!knownInPlace || !(*knownInPlace)[ordinal])
      continue;
    // In place: the op reads and writes the updated slice only, not the
    // whole operand and result.
    int update = getUpdateOperand(op, i);
    saved += static_cast<double>(buffers[init].bytes + buffers[id].bytes);
    if (update >= 0) {
      double updateBytes =
          static_cast<double>(buffers[operandBuffers[update]].bytes);
      // An update computed by the program (not a collective or slice the
      // partitioner put in) and read only here is written into the slot by
      // its producer (writesUpdateInPlace); otherwise this op copies it in.
      Value updateValue = op->getOperand(update);
      Operation *producer = updateValue.getDefiningOp();
      bool producerWrites =
          options.fusion && writesUpdateInPlace(op) && producer &&
          !isFreeOp(producer, options.fusion) &&
          !isa<toast::partir_hlo::PartIRHLODialect>(producer->getDialect()) &&
          updateValue.hasOneUse() && !buffers[operandBuffers[update]].fused;
      saved += producerWrites ? updateBytes : -updateBytes;
    }
  }
  return saved;
}

void Simulation::noteUncounted(Operation *op, ArrayRef<toast::Scope> scopes) {
  if (llvm::any_of(scopes, [](const toast::Scope &s) { return s.atMost; })) {
    ++result->atMostLoops;
    std::optional<int64_t> trips = toast::getTripCount(op);
    if (options.warnUncountedLoops && trips && warnedLoops.insert(op).second)
      emitRemark(toast::getLoopConditionLoc(op))
          << "this condition may end its loop before its " << *trips
          << " iterations (it has other terms); priced at " << *trips;
  }
  if (llvm::none_of(scopes, [](const toast::Scope &s) { return s.uncounted; }))
    return;
  ++result->uncountedLoops;
  if (options.warnUncountedLoops && warnedLoops.insert(op).second)
    emitWarning(toast::getLoopConditionLoc(op),
                "this condition gives its loop no constant trip count; "
                "counting one iteration");
}

LogicalResult Simulation::emit(Operation *op, ValueMap &values) {
  int64_t at = index();
  trace.push_back(op);

  SmallVector<unsigned, 4> operandBuffers;
  for (Value operand : op->getOperands())
    operandBuffers.push_back(lookup(operand, values));
  // What a reducer's or comparator's body reads from outside is an input
  // of the op as a whole (the walk does not enter such bodies): it stays
  // alive until the op and is read there, as the analytic cost's program
  // model has it (a torch-xla export's reduce whose body selects between
  // two i1 constants was a byte below the analytic peak).
  if (op->getNumRegions() && !toast::isDataFlowRegionOp(op))
    forEachCapturedValue(op, deadOps, [&](Value v) {
      operandBuffers.push_back(lookup(v, values));
    });
  // An even chunk of a splat constant is a constant of its own (the
  // export writes it so): it reads nothing.
  if (auto slice = dyn_cast<toast::partir_hlo::AllSliceOp>(op);
      slice && toast::partir_hlo::getSlicedSplat(slice))
    operandBuffers.clear();
  // A reshape is a view of its operand unless that is fused: it is then a
  // loop op like any other.
  bool aliasing = isAliasingOp(op) && !buffers[operandBuffers.front()].fused;
  // A contiguous slice of a materialized buffer is read where it lies.
  bool view = options.fusion && isContiguousSliceView(op) &&
              !buffers[operandBuffers.front()].fused;
  bool fusible =
      !aliasing && !view &&
      isFusibleResult(
          op,
          [&] {
            return peekInputBytes(operandBuffers, getSlicedOperand(op),
                                  op->getNumResults()
                                      ? getTypeBytes(op->getResult(0).getType())
                                      : 0);
          },
          deadOps);
  bool fused = fusible && options.fusion;

  // A fused op runs inside its readers' fusions, which read its inputs; a
  // materialized one reads its inputs here, each once; a view reads
  // nothing until its readers read it.
  double ready = 0, trafficBytes = 0;
  if (view) {
    use(operandBuffers.front(), at);
    ready = buffers[operandBuffers.front()].ready;
  } else if (!fused)
    std::tie(trafficBytes, ready) = readInputs(
        operandBuffers, at, getSlicedOperand(op),
        op->getNumResults() ? getTypeBytes(op->getResult(0).getType()) : 0);

  // Price the op.
  double computeTime = 0, commTime = 0, opFlops = 0, opCommBytes = 0;
  std::string error;
  std::optional<CollectiveInfo> collective =
      getCollectiveInfo(op, mesh, &error);
  if (!error.empty())
    return op->emitError(error);

  // Results.
  bool fromOperand = false;
  bool recomputable = isRecomputable(op, fromOperand);
  SmallVector<unsigned, 2> resultBuffers;
  for (OpResult res : op->getResults()) {
    if (aliasing) {
      resultBuffers.push_back(operandBuffers.front());
      continue;
    }
    unsigned id = newBuffer(getTypeBytes(res.getType()), at, 0);
    if (view) {
      buffers[id].viewOf = static_cast<int>(operandBuffers.front());
      buffers[id].ready = ready;
      resultBuffers.push_back(id);
      continue;
    }
    buffers[id].fusible = fusible;
    buffers[id].fused = fused;
    if (fused)
      fusedInputs[id].assign(operandBuffers.begin(), operandBuffers.end());
    buffers[id].recomputable = recomputable;
    buffers[id].recomputeFrom =
        fromOperand ? static_cast<int>(operandBuffers.front()) : -1;
    if (!fused)
      trafficBytes += static_cast<double>(buffers[id].bytes);
    resultBuffers.push_back(id);
  }
  trafficBytes -= tieInPlaceUpdates(op, operandBuffers, resultBuffers, at);
  // Views, fused ops, loops and calls (their bodies are priced) take no
  // time of their own.
  bool priced = !aliasing && !view && !fused && !isFreeOp(op, options.fusion) &&
                !toast::isDataFlowRegionOp(op) && !isa<func::CallOp>(op);

  if (collective) {
    CollectiveCost cost = ringCollectiveCost(
        collective->kind, collective->groupSize, collective->localBytes,
        getGroupLink(device, collective->axes));
    commTime = repeat * cost.time;
    CollectiveStats &stats =
        result->collectives[static_cast<unsigned>(collective->kind)];
    stats.count += static_cast<int64_t>(repeat);
    stats.time += commTime;
    stats.bytes += repeat * cost.bytes;
    result->commBytes += repeat * cost.bytes;
    opCommBytes = repeat * cost.bytes;
  } else if (isContraction(op)) {
    opFlops = repeat * getContractionFlops(op);
    result->flops += opFlops;
    computeTime = contractionTime(op);
    if (options.memoryBound) {
      computeTime =
          std::max(computeTime, trafficBytes / device.memoryBandwidth);
      result->memoryTraffic += repeat * trafficBytes;
    }
    computeTime *= repeat;
  } else if (options.memoryBound && priced) {
    computeTime = repeat * trafficBytes / device.memoryBandwidth;
    result->memoryTraffic += repeat * trafficBytes;
  }
  result->computeTime += computeTime;
  result->commTime += commTime;

  // Schedule: after the operands are ready and the stream is free.
  double &stream = (collective && options.overlap) ? commFree : computeFree;
  double start = std::max(ready, stream);
  double end = start + computeTime + commTime;
  stream = end;
  finish = std::max(finish, end);
  if (timeline) {
    TimelineEvent event;
    event.op = op;
    event.index = at;
    event.start = start;
    event.duration = computeTime + commTime;
    event.repeat = repeat;
    event.collective = collective.has_value();
    if (collective)
      event.kind = collective->kind;
    event.flops = opFlops;
    event.commBytes = opCommBytes;
    timeline->events.push_back(event);
  }

  for (auto [res, id] : llvm::zip(op->getResults(), resultBuffers)) {
    if (!aliasing && !view)
      buffers[id].ready = end;
    values[res] = id;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

/// Runs `walk` on a fresh Simulation. Whether an update is in place is
/// known only once every buffer's last use is; the roofline prices an
/// in-place update by its slice while walking, so walk again with the
/// first walk's decisions (quietly: the first walk warned).
static FailureOr<SimulationResult> walkTwice(
    const DeviceSpec &device, const SimulationOptions &options,
    toast::partir::MeshAttr mesh, const SimulationResult &init,
    Timeline *timeline,
    llvm::function_ref<LogicalResult(Simulation &, SimulationResult &)> walk) {
  SymbolTableCollection symbols;
  auto start = [&](Simulation &simulation) {
    if (timeline) {
      *timeline = Timeline();
      timeline->overlap = options.overlap;
    }
    simulation.timeline = timeline;
  };
  SimulationResult result = init;
  Simulation simulation(device, options, mesh, symbols);
  start(simulation);
  if (failed(walk(simulation, result)))
    return failure();
  if (!options.memoryBound ||
      llvm::none_of(simulation.inPlaceUpdates, [](char in) { return in; }))
    return result;
  SimulationOptions quiet = options;
  quiet.warnUncountedLoops = quiet.warnMissingPeaks = false;
  SimulationResult priced = init;
  Simulation second(device, quiet, mesh, symbols);
  second.knownInPlace = &simulation.inPlaceUpdates;
  start(second);
  if (failed(walk(second, priced)))
    return failure();
  return priced;
}

FailureOr<SimulationResult>
toast::sim::simulate(func::FuncOp func, const DeviceSpec &device,
                     const SimulationOptions &options, Timeline *timeline) {
  SimulationResult init;
  init.device = device.name;
  init.function = func.getSymName().str();
  return walkTwice(device, options, toast::partir::getMesh(func), init,
                   timeline, [&](Simulation &simulation, SimulationResult &r) {
                     return simulation.run(func, r);
                   });
}

/// Marks the dead ops of `block`, deciding those nested in an op before
/// the op and every op before the ones after it: a value's readers (later
/// in the block, or nested in later ops) are decided before its producer.
static void markDeadOps(Block &block, llvm::DenseSet<Operation *> &dead,
                        llvm::function_ref<bool(Operation *)> keep) {
  for (Operation &op : llvm::reverse(block)) {
    for (Region &region : op.getRegions())
      for (Block &nested : llvm::reverse(region))
        markDeadOps(nested, dead, keep);
    if (op.hasTrait<OpTrait::IsTerminator>() || !isMemoryEffectFree(&op))
      continue;
    // `keep` last: it may walk op's regions.
    if (llvm::all_of(op.getUsers(),
                     [&](Operation *user) {
                       return toast::sim::neverRuns(user, dead);
                     }) &&
        !(keep && keep(&op)))
      dead.insert(&op);
  }
}

llvm::DenseSet<Operation *>
toast::sim::findDeadOps(Block &block,
                        llvm::function_ref<bool(Operation *)> keep) {
  llvm::DenseSet<Operation *> dead;
  markDeadOps(block, dead, keep);
  return dead;
}

void toast::sim::forEachCapturedValue(Operation *op,
                                      const llvm::DenseSet<Operation *> &dead,
                                      llvm::function_ref<void(Value)> visit) {
  llvm::SmallPtrSet<Value, 8> seen;
  op->walk([&](Operation *inner) {
    if (inner == op || neverRuns(inner, dead))
      return;
    for (Value v : inner->getOperands())
      if (!op->isAncestor(v.getParentRegion()->getParentOp()) &&
          seen.insert(v).second)
        visit(v);
  });
}

bool toast::sim::neverRuns(Operation *op,
                           const llvm::DenseSet<Operation *> &dead) {
  for (; op; op = op->getParentOp())
    if (dead.contains(op))
      return true;
  return false;
}

ConstantKey toast::sim::getConstantKey(Operation *constant) {
  Attribute value;
  matchPattern(constant, m_Constant(&value));
  return {value.getAsOpaquePointer(),
          constant->getResult(0).getType().getAsOpaquePointer()};
}

FailureOr<SimulationResult>
toast::sim::simulateRegions(Operation *op, const DeviceSpec &device,
                            const SimulationOptions &options,
                            SmallVectorImpl<Value> *outerReads) {
  if (!toast::isDataFlowRegionOp(op))
    return op->emitError("simulateRegions: not a loop or conditional");
  SimulationResult init;
  init.device = device.name;
  return walkTwice(device, options, toast::partir::getMesh(op), init, nullptr,
                   [&](Simulation &simulation, SimulationResult &r) {
                     return simulation.runRegions(op, r, outerReads);
                   });
}

FailureOr<SimulationResult>
toast::sim::simulate(ModuleOp module, const DeviceSpec &device,
                     const SimulationOptions &options, Timeline *timeline) {
  func::FuncOp entry;
  if (!options.function.empty()) {
    entry = module.lookupSymbol<func::FuncOp>(options.function);
    if (!entry)
      return module.emitError("no function @")
             << options.function << " to simulate";
  } else {
    entry = module.lookupSymbol<func::FuncOp>("main");
    if (!entry || entry.isExternal()) {
      entry = {};
      for (auto func : module.getOps<func::FuncOp>()) {
        if (func.isPrivate() || func.isExternal())
          continue;
        if (entry)
          return module.emitError("several public functions: name the one "
                                  "to simulate (function=NAME)");
        entry = func;
      }
    }
    if (!entry)
      return module.emitError("no function to simulate (expected @main or "
                              "one public function)");
  }
  if (failed(checkCountableBytes(module, "")))
    return failure();
  // Loops the cost model does not know (scf.for of PartIR's temporal
  // reading) would be priced as one op, their bodies never.
  WalkResult loops = module.walk([](LoopLikeOpInterface loop) {
    if (toast::isDataFlowRegionOp(loop))
      return WalkResult::advance();
    loop->emitError("'")
        << loop->getName()
        << "' is not priced (the simulator models stablehlo loops and "
           "conditionals); simulate the device-local PartIR:HLO form "
           "(--partir-lower-to-hlo)";
    return WalkResult::interrupt();
  });
  if (loops.wasInterrupted())
    return failure();
  // Not an error, as a loop without a trip count is not: the program is
  // valid, only its price is not known.
  if (options.warnDynamicShapes)
    if (Value dynamic = findDynamicallyShapedValue(module))
      emitWarning(dynamic.getLoc())
          << "dynamic shape " << dynamic.getType()
          << ": the simulator prices dynamic dimensions as size 0 (this and "
             "every other dynamically shaped value count no bytes and take "
             "no time)";
  return simulate(entry, device, options, timeline);
}

//===----------------------------------------------------------------------===//
// Relative cost
//===----------------------------------------------------------------------===//

RelativeCost
toast::sim::computeRelativeCost(double initialRuntime, double initialPeak,
                                double currentRuntime, double currentPeak,
                                double deviceMemory, double penalty) {
  RelativeCost cost;
  cost.runtime = currentRuntime / (initialRuntime > 0 ? initialRuntime : 1.0);
  if (currentPeak > deviceMemory)
    cost.memoryPenalty = penalty * (currentPeak - deviceMemory) /
                         (initialPeak > 0 ? initialPeak : 1.0);
  cost.total = cost.runtime + cost.memoryPenalty;
  return cost;
}

RelativeCost toast::sim::computeRelativeCost(const SimulationResult &initial,
                                             const SimulationResult &current,
                                             double penalty) {
  return computeRelativeCost(
      initial.stepTime, static_cast<double>(initial.peakMemoryBytes),
      current.stepTime, static_cast<double>(current.peakMemoryBytes),
      static_cast<double>(current.deviceMemoryBytes), penalty);
}

FailureOr<RelativeCostModel>
RelativeCostModel::create(ModuleOp initialModule, DeviceSpec device,
                          SimulationOptions options, double penalty) {
  FailureOr<SimulationResult> initial =
      simulate(initialModule, device, options);
  if (failed(initial))
    return failure();
  return RelativeCostModel(std::move(device), std::move(*initial),
                           std::move(options), penalty);
}

FailureOr<RelativeCost> RelativeCostModel::evaluate(ModuleOp module) const {
  FailureOr<SimulationResult> current = simulate(module, device, options);
  if (failed(current))
    return failure();
  return evaluate(*current);
}
