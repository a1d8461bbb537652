//===- ShardingSpace.cpp - The NDA search environment ---------------------===//
//
// Construction of NdaEnvironment and the SearchEnvironment entry points;
// the work is in ActionSpace.cpp, ProgramModel.cpp, AnalyticCost.cpp and
// Materialize.cpp.
//
//===----------------------------------------------------------------------===//

#include "SpaceImpl.h"

#include "toast/Interfaces/ControlFlow.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <limits>
#include <mutex>

using namespace mlir;

namespace toast::search {

NdaEnvironment::Impl::Impl(func::FuncOp entry, partir::MeshAttr mesh,
                           sim::DeviceSpec device,
                           NdaEnvironmentOptions options)
    : entry(entry), mesh(mesh), device(std::move(device)), options(options),
      nda(entry) {}

/// Loops whose trip count is not a constant are priced as one iteration
/// (the simulator's rule), loops that may exit early at their maximum; the
/// search says so once per loop.
static void warnUncountedLoops(func::FuncOp entry) {
  walkProgram(entry.getBody().front(), [](Operation *op, const Scope &scope) {
    if (!isDataFlowRegionOp(op) || scope.uncounted)
      return;
    SmallVector<Scope> inner = getRegionScopes(op, Scope());
    Location at = getLoopConditionLoc(op);
    if (llvm::any_of(inner, [](const Scope &s) { return s.uncounted; }))
      emitWarning(at, "automatic partitioning: this condition gives its loop "
                      "no constant trip count; the loop's body is priced as "
                      "one iteration");
    else if (llvm::any_of(inner, [](const Scope &s) { return s.atMost; }))
      emitRemark(at) << "automatic partitioning: this condition may end its "
                        "loop before "
                     << *getTripCount(op)
                     << " iterations; the loop's body is priced that many "
                        "times";
  });
}

/// Whether a region op of `entry` passes values of another type across one
/// of its edges: a shard_map body's per-device arguments and results. The
/// analytic cost prices such an op whole on its global operands and
/// results, where lowering passes the per-device parts in and out (and
/// gathers, slices or not, by the value's layout outside), so its states
/// take the reference path.
static bool hasPerDeviceBoundaries(func::FuncOp entry) {
  WalkResult walk = entry.getBody().walk([](Operation *op) {
    auto iface = dyn_cast<DataFlowEdgeOpInterface>(op);
    if (!iface || !op->hasTrait<OpTrait::IsIsolatedFromAbove>())
      return WalkResult::advance();
    for (unsigned edge = 0, e = iface.getNumEdges(); edge < e; ++edge) {
      SmallVector<OpOperand *, 2> sources;
      SmallVector<Value, 3> targets;
      iface.getEdgeSources(edge, sources);
      iface.getEdgeTargets(edge, targets);
      for (OpOperand *source : sources)
        for (Value target : targets)
          if (source->get().getType() != target.getType())
            return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// Axes beyond this many would make the per-axis-set tables too large.
static constexpr unsigned kMaxAxes = 16;

LogicalResult
NdaEnvironment::Impl::initialize(ArrayRef<std::string> axes,
                                 partition::ShardingState *start) {
  if (entry.isExternal())
    return entry.emitError("automatic partitioning: external function");
  for (auto [name, size] : llvm::zip_equal(mesh.getNames(), mesh.getSizes())) {
    axisNames.push_back(name.str());
    axisSizes.push_back(size);
  }
  if (axisNames.size() > kMaxAxes)
    return entry.emitError("automatic partitioning: more than ")
           << kMaxAxes << " mesh axes";
  for (const std::string &axis : axes) {
    auto it = llvm::find(axisNames, axis);
    if (it == axisNames.end())
      return entry.emitError("automatic partitioning: axis \"")
             << axis << "\" is not in the mesh " << mesh;
    searchAxes.push_back(it - axisNames.begin());
  }
  if (axes.empty())
    for (unsigned a = 0; a < axisNames.size(); ++a)
      searchAxes.push_back(a);

  unsigned numMasks = 1u << axisNames.size();
  maskProducts.assign(numMasks, 1);
  maskLinks.resize(numMasks);
  for (unsigned m = 0; m < numMasks; ++m) {
    SmallVector<std::string> names;
    for (unsigned a = 0; a < axisNames.size(); ++a)
      if (m >> a & 1) {
        maskProducts[m] *= axisSizes[a];
        names.push_back(axisNames[a]);
      }
    maskLinks[m] = sim::getGroupLink(device, names);
  }

  if (options.reportLoops)
    warnUncountedLoops(entry);
  perDeviceBoundaries = hasPerDeviceBoundaries(entry);
  rules = std::make_unique<partition::ShardingState>(entry, mesh);
  findShardableNodes();
  findAtomicNodes(start);
  findSplitParts();
  buildActions();
  buildProgram();
  initial.nodeAxes.assign(nda.getNumNodes(), 0);
  // The baseline of every relative cost, by the reference path when the
  // analytic cost does not model the program as it is (a collective of
  // the input program).
  unpartitioned = price(initial);
  unpartitioned.rel = sim::computeRelativeCost(
      unpartitioned.runtime, unpartitioned.peakBytes, unpartitioned.runtime,
      unpartitioned.peakBytes, device.memoryBytes, options.memoryPenalty);
  return success();
}

SmallVector<std::pair<unsigned, unsigned>, 4> NdaEnvironment::Impl::getNest(
    const SearchState &state, ArrayRef<int> factorNode,
    ArrayRef<std::pair<unsigned, int>> minorNodes, AxisMask fixed) const {
  SmallVector<std::pair<unsigned, unsigned>, 4> nest;
  auto add = [&](unsigned f, int node) {
    if (node < 0)
      return;
    // A shard_map body is per device on its manual axes: a node sharded
    // on one (the region's operand, outside) is already split there.
    for (AxisMask m = state.nodeAxes[node] & ~fixed; m; m &= m - 1)
      nest.push_back({static_cast<unsigned>(llvm::countr_zero(m)), f});
  };
  for (auto [f, node] : llvm::enumerate(factorNode))
    add(f, node);
  // A split dim's minor parts take later mesh axes than its major part
  // (canTake), so mesh order tiles the factor major part first.
  for (auto [f, node] : minorNodes)
    add(f, node);
  llvm::sort(nest);
  return nest;
}

AxisMask NdaEnvironment::Impl::getAxisMask(ArrayRef<std::string> axes) const {
  AxisMask mask = 0;
  for (const std::string &axis : axes)
    if (auto it = llvm::find(axisNames, axis); it != axisNames.end())
      mask |= AxisMask(1) << (it - axisNames.begin());
  return mask;
}

/// Serializes what builds IR on the reference path when the context does
/// not lock its uniquers (price) and the development check (always).
static std::mutex &referenceMutex() {
  static std::mutex mutex;
  return mutex;
}

bool NdaEnvironment::Impl::needsReference(const SearchState &state) const {
  for (auto [node, mask] : llvm::enumerate(state.nodeAxes))
    if (mask && nodeInRegion[node])
      return true;
  return false;
}

double NdaEnvironment::Impl::priceBelow(const SearchState &state,
                                        double bound) const {
  // The step time relative to the unpartitioned one is at most C(s) (the
  // memory penalty only adds).
  double initial = unpartitioned.runtime > 0 ? unpartitioned.runtime : 1.0;
  return price(state, SearchEnvironment::atLeast(bound) * initial).rel.total;
}

AnalyticCost NdaEnvironment::Impl::price(const SearchState &state,
                                         double runtimeLimit) const {
  bool inLoops = needsReference(state);
  if (!inLoops || coveredByLoopModel(state)) {
    bool unmodeled = false, atRegions = false, stopped = false;
    AnalyticCost cost =
        evaluate(state, &unmodeled, &atRegions, runtimeLimit, &stopped);
    if (stopped)
      return cost; // Its step time so far: a lower bound.
    if (!unmodeled) {
      if (std::getenv("TOAST_CHECK_ANALYTIC"))
        checkAgainstReference(state, cost);
      return cost;
    }
    inLoops |= atRegions;
  } else if (explainUnmodeled()) {
    llvm::errs() << "loop model: a region op it does not cover\n";
  }
  inLoops |= perDeviceBoundaries;
  AnalyticCost cost;
  cost.byReference = true;
  ++numByReference;
  numLoopsByReference += inLoops;
  // Counted by grep on the search's stderr (docs/search.md).
  if (explainUnmodeled())
    llvm::errs() << "unmodeled state: priced by the reference path ("
                 << (perDeviceBoundaries ? "shard_map boundary"
                     : inLoops           ? "loop body"
                                         : "padding")
                 << ")\n";
  // Search threads build IR here concurrently; a context without
  // multithreading does not lock its uniquers, so they take turns.
  std::unique_lock<std::mutex> lock(referenceMutex(), std::defer_lock);
  if (!entry->getContext()->isMultithreadingEnabled())
    lock.lock();
  FailureOr<sim::SimulationResult> sim = simulateMaterialized(state, nullptr);
  if (failed(sim)) {
    cost.runtime = cost.peakBytes = std::numeric_limits<double>::infinity();
  } else {
    cost.runtime = sim->stepTime;
    cost.computeTime = sim->computeTime;
    cost.commTime = sim->commTime;
    cost.flops = sim->flops;
    cost.peakBytes = sim->peakMemoryBytes;
    for (unsigned k = 0; k < sim::kNumCollectiveKinds; ++k)
      cost.collectiveCounts[k] = sim->collectives[k].count;
  }
  cost.rel = sim::computeRelativeCost(
      unpartitioned.runtime, unpartitioned.peakBytes, cost.runtime,
      cost.peakBytes, device.memoryBytes, options.memoryPenalty);
  return cost;
}

/// A development check (docs/search.md, "Agreement"): with
/// TOAST_CHECK_ANALYTIC=bound, every state priced analytically is priced by
/// the reference path too, and a step time or peak off by more than `bound`
/// (relative) is printed; TOAST_CHECK_ANALYTIC_DUMP=prefix writes such a
/// state (prefixN.mlir, for --partir-materialize-core) and its lowered
/// program (prefixN.lowered.mlir).
void NdaEnvironment::Impl::checkAgainstReference(
    const SearchState &state, const AnalyticCost &cost) const {
  // Checks take turns with each other and with the reference path's IR
  // building (price()): one counter, one context.
  static unsigned checked = 0;
  std::lock_guard<std::mutex> lock(referenceMutex());
  unsigned n = checked++;
  OwningOpRef<ModuleOp> lowered;
  FailureOr<sim::SimulationResult> sim = simulateMaterialized(state, &lowered);
  if (failed(sim)) {
    llvm::errs() << "check-analytic: state " << n << " fails to lower\n";
    return;
  }
  auto rel = [](double a, double b) {
    return std::abs(a - b) / std::max(std::abs(b), 1e-30);
  };
  double bound = std::atof(std::getenv("TOAST_CHECK_ANALYTIC"));
  double runtime = rel(cost.runtime, sim->stepTime);
  double peak = rel(cost.peakBytes, sim->peakMemoryBytes);
  if (std::max(runtime, peak) <= (bound > 0 ? bound : 1e-9))
    return;
  llvm::errs() << llvm::formatv(
      "check-analytic: state {0}: runtime {1:e} vs {2:e} ({3:e}), peak {4} "
      "vs {5} ({6:e}; sim peak at op {7} {8})\n",
      n, cost.runtime, sim->stepTime, runtime, cost.peakBytes,
      sim->peakMemoryBytes, peak, sim->peakOpIndex, sim->peakOpName);
  if (const char *prefix = std::getenv("TOAST_CHECK_ANALYTIC_DUMP")) {
    std::string base = prefix + std::to_string(n);
    dumpState(state, base + ".mlir");
    dumpModule(*lowered, base + ".lowered.mlir");
  }
}

NdaEnvironment::NdaEnvironment(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}
NdaEnvironment::~NdaEnvironment() = default;

FailureOr<std::unique_ptr<NdaEnvironment>>
NdaEnvironment::create(func::FuncOp entry, partir::MeshAttr mesh,
                       ArrayRef<std::string> axes, sim::DeviceSpec device,
                       NdaEnvironmentOptions options,
                       partition::ShardingState *start) {
  auto impl = std::make_unique<Impl>(entry, mesh, std::move(device), options);
  if (failed(impl->initialize(axes, start)))
    return failure();
  if (start) {
    FailureOr<SearchState> imported = impl->importState(*start);
    if (failed(imported))
      return failure();
    impl->initial = std::move(*imported);
  }
  entry.walk([&](Operation *) { ++impl->numOps; });
  return std::unique_ptr<NdaEnvironment>(new NdaEnvironment(std::move(impl)));
}

unsigned NdaEnvironment::getNumActions() const { return impl->actions.size(); }
std::string NdaEnvironment::describeAction(unsigned action) const {
  return impl->describeAction(action);
}
SearchState NdaEnvironment::getInitialState() const { return impl->initial; }
bool NdaEnvironment::isLegal(const SearchState &state, unsigned action) const {
  return impl->isLegal(state, action);
}
void NdaEnvironment::apply(SearchState &state, unsigned action) const {
  impl->apply(state, action);
}
double NdaEnvironment::cost(const SearchState &state) const {
  return impl->price(state).rel.total;
}
double NdaEnvironment::costBelow(const SearchState &state, double bound) const {
  return impl->priceBelow(state, bound);
}
unsigned NdaEnvironment::getNumAxes() const { return impl->axisNames.size(); }
uint64_t NdaEnvironment::getStateWork() const { return impl->numOps; }
int NdaEnvironment::getActionOnAxis(unsigned action, unsigned axis) const {
  if (action >= impl->actions.size() || axis >= impl->axisNames.size())
    return -1;
  return impl->actionOnAxis[action][axis];
}
const NdaAction &NdaEnvironment::getAction(unsigned action) const {
  return impl->actions[action];
}
StringRef NdaEnvironment::getAxisName(unsigned axis) const {
  return impl->axisNames[axis];
}

int NdaEnvironment::findAction(unsigned color,
                               ArrayRef<std::pair<unsigned, bool>> bits,
                               StringRef axis) const {
  if (color >= impl->colorFamily.size())
    return -1;
  unsigned family = impl->colorFamily[color];
  for (auto [i, action] : llvm::enumerate(impl->actions)) {
    if (impl->colorFamily[action.colors.front()] != family ||
        impl->axisNames[action.axis] != axis || action.context >= 0)
      continue;
    bool match = llvm::all_of(action.bits, [&](auto bit) {
      auto it =
          llvm::find_if(bits, [&](auto b) { return b.first == bit.first; });
      return (it == bits.end() ? false : it->second) == bit.second;
    });
    if (match)
      return i;
  }
  return -1;
}

AnalyticCost NdaEnvironment::analyticCost(const SearchState &state) const {
  return impl->price(state);
}
bool NdaEnvironment::shardsInsideRegions(const SearchState &state) const {
  return impl->needsReference(state);
}
const AnalyticCost &NdaEnvironment::getUnpartitionedCost() const {
  return impl->unpartitioned;
}
std::pair<uint64_t, uint64_t> NdaEnvironment::getReferencePricings() const {
  return {impl->numByReference.load(), impl->numLoopsByReference.load()};
}
LogicalResult
NdaEnvironment::materialize(const SearchState &state,
                            partition::ShardingState &sharding) const {
  return impl->materialize(state, sharding);
}
LogicalResult NdaEnvironment::materialize(const SearchState &state,
                                          func::FuncOp func) const {
  if (func != impl->entry)
    return func.emitError("materialize: not the analysed entry function");
  partition::ShardingState sharding(func, impl->mesh);
  if (failed(sharding.load()) || failed(impl->materialize(state, sharding)))
    return failure();
  sharding.save();
  return success();
}
FailureOr<SearchState>
NdaEnvironment::importState(partition::ShardingState &sharding) const {
  return impl->importState(sharding);
}
FailureOr<sim::SimulationResult>
NdaEnvironment::simulateMaterialized(const SearchState &state,
                                     OwningOpRef<ModuleOp> *lowered) const {
  return impl->simulateMaterialized(state, lowered);
}
FailureOr<OwningOpRef<ModuleOp>>
NdaEnvironment::emitPlanned(const SearchState &state) const {
  return impl->emitPlanned(state);
}
const NamedDimensionAnalysis &NdaEnvironment::getAnalysis() const {
  return impl->nda;
}
partir::MeshAttr NdaEnvironment::getMesh() const { return impl->mesh; }
const sim::DeviceSpec &NdaEnvironment::getDevice() const {
  return impl->device;
}
const NdaEnvironmentOptions &NdaEnvironment::getOptions() const {
  return impl->options;
}
sim::SimulationOptions NdaEnvironment::getSimulationOptions() const {
  return impl->getSimulationOptions();
}
ArrayRef<unsigned> NdaEnvironment::getSearchAxes() const {
  return impl->searchAxes;
}

std::string NdaEnvironment::describeState(const SearchState &state) const {
  std::string text;
  for (auto [node, mask] : llvm::enumerate(state.nodeAxes)) {
    if (!mask)
      continue;
    text += text.empty() ? "" : " ";
    text += "n" + std::to_string(node) + ":";
    for (unsigned a = 0; a < impl->axisNames.size(); ++a)
      if (mask >> a & 1)
        text += impl->axisNames[a];
  }
  return text.empty() ? "replicated" : text;
}

} // namespace toast::search
