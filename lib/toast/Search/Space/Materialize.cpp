//===- Materialize.cpp - Search states to and from ShardingState ----------===//
//
// A state is a ShardingState without choices left: each ruled op loops, in
// mesh-axis order, over the factors whose nodes carry the axes; entry
// arguments are tiled, in mesh-axis order, on the dims whose nodes carry
// them. The reference simulation materializes such a state through the
// normal path (materializeCore, lowering, collective optimization, a
// device-local boundary) on a copy of the module.
//
//===----------------------------------------------------------------------===//

#include "SpaceImpl.h"

#include "toast/Dialect/PartIR/HLO/Transforms/Passes.h"
#include "toast/Interfaces/ControlFlow.h"
#include "toast/Support/OutputFile.h"

#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace toast::search {

/// The ops of loop and conditional bodies of `func`, in the order of
/// ProgramModel::nestedOps.
static SmallVector<Operation *> getNestedOps(func::FuncOp func) {
  SmallVector<Operation *> ops;
  walkProgram(func.getBody().front(), [&](Operation *op, const Scope &scope) {
    if (scope.depth > 0)
      ops.push_back(op);
  });
  return ops;
}

static SmallVector<partition::AxisFactor>
namedNest(const NdaEnvironment::Impl &impl,
          ArrayRef<std::pair<unsigned, unsigned>> nest) {
  SmallVector<partition::AxisFactor> named;
  for (auto [axis, factor] : nest)
    named.push_back({impl.axisNames[axis], static_cast<int64_t>(factor)});
  return named;
}

/// Sets `op`'s nest from the nodes of its factors; its results carry no
/// tiling beyond it.
static LogicalResult writeOpNest(const NdaEnvironment::Impl &impl,
                                 const SearchState &state,
                                 partition::ShardingState &sharding,
                                 Operation *op, ArrayRef<int> factorNode,
                                 ArrayRef<std::pair<unsigned, int>> minor,
                                 AxisMask fixed = 0) {
  if (failed(sharding.setLoopNest(
          op, namedNest(impl, impl.getNest(state, factorNode, minor, fixed)))))
    return failure();
  for (Value result : op->getResults())
    if (failed(sharding.setExplicitTiling(result, {})))
      return failure();
  return success();
}

/// Writes the nests of body ops and tied classes.
static LogicalResult writeRegions(const NdaEnvironment::Impl &impl,
                                  const SearchState &state,
                                  partition::ShardingState &sharding) {
  const ProgramModel &program = impl.program;
  SmallVector<Operation *> nested = getNestedOps(sharding.getFunction());
  size_t numEdges = sharding.getTiedValues().getEdges().size();
  if (nested.size() != program.nestedOps.size() ||
      numEdges != program.edgeDimNodes.size())
    return sharding.getFunction().emitError(
        "materialize: the function's loops are not the analysed ones");
  for (auto [op, p] : llvm::zip_equal(nested, program.nestedOps))
    if (p.ruled && failed(writeOpNest(impl, state, sharding, op, p.factorNode,
                                      p.minorNodes, p.fixed)))
      return failure();
  for (auto [e, dimNodes] : llvm::enumerate(program.edgeDimNodes))
    if (failed(sharding.setEdgeNest(
            e, namedNest(impl, impl.getNest(state, dimNodes, {},
                                            program.edgeFixed[e])))))
      return failure();
  return success();
}

/// Writes `state` into `sharding`, whose function has the same ops as the
/// analysed entry (the entry itself or a clone of it).
static LogicalResult writeState(const NdaEnvironment::Impl &impl,
                                const SearchState &state,
                                partition::ShardingState &sharding) {
  func::FuncOp func = sharding.getFunction();
  Block &block = func.getBody().front();
  const ProgramModel &program = impl.program;
  if (block.getNumArguments() != program.numArguments ||
      std::distance(block.begin(), block.end()) !=
          static_cast<ptrdiff_t>(program.ops.size()))
    return func.emitError("materialize: the function is not the analysed one");
  for (BlockArgument arg : block.getArguments()) {
    const ProgramValue &v = program.values[arg.getArgNumber()];
    SmallVector<partition::AxisDim> tiling;
    for (unsigned axis = 0; axis < impl.axisNames.size(); ++axis)
      for (unsigned d = 0; d < v.dimNode.size(); ++d)
        if (v.carriesAxis(state, d, axis))
          tiling.push_back({impl.axisNames[axis], static_cast<int64_t>(d)});
    if (failed(sharding.setExplicitTiling(arg, tiling)))
      return failure();
    // Atomic where its nodes are (ProgramModel::wholeArguments): lowering
    // keeps it whole on those axes at the boundary, as the planner prices.
    for (AxisMask m = program.wholeArguments[arg.getArgNumber()]; m;
         m &= m - 1) {
      StringRef axis = impl.axisNames[llvm::countr_zero(m)];
      if (llvm::none_of(tiling,
                        [&](auto &level) { return level.axis == axis; }) &&
          failed(sharding.atomic(arg, axis)))
        return failure();
    }
  }
  for (auto [op, p] : llvm::zip_equal(block, program.ops))
    if (p.ruled && failed(writeOpNest(impl, state, sharding, &op, p.factorNode,
                                      p.minorNodes)))
      return failure();
  return writeRegions(impl, state, sharding);
}

/// Marks the results of the materialized `func` kept whole where the
/// start state's atomic values would (ProgramModel::wholeResults): a state
/// cannot make a result atomic on an axis its producer loops over, which a
/// shard_map body's loops may do.
static void keepResultsWhole(const NdaEnvironment::Impl &impl,
                             func::FuncOp func) {
  Builder b(func.getContext());
  for (auto [k, mask] : llvm::enumerate(impl.program.wholeResults)) {
    SmallVector<StringRef> axes;
    if (auto kept =
            func.getResultAttrOfType<ArrayAttr>(k, partir_hlo::kKeepWholeAttr))
      for (auto axis : kept.getAsValueRange<StringAttr>())
        axes.push_back(axis);
    for (AxisMask m = mask; m; m &= m - 1)
      if (!llvm::is_contained(axes, impl.axisNames[llvm::countr_zero(m)]))
        axes.push_back(impl.axisNames[llvm::countr_zero(m)]);
    if (!axes.empty())
      func.setResultAttr(k, partir_hlo::kKeepWholeAttr,
                         b.getStrArrayAttr(axes));
  }
}

LogicalResult
NdaEnvironment::Impl::materialize(const SearchState &state,
                                  partition::ShardingState &sharding) const {
  if (sharding.getFunction() != entry)
    return entry.emitError("materialize: the sharding state is not of the "
                           "analysed function");
  return writeState(*this, state, sharding);
}

/// Where NDA name `name` sits: its use's op, or its value.
static Location getNameLoc(const NamedDimensionAnalysis &nda, unsigned name) {
  const NamedDimensionAnalysis::Site &site =
      nda.getSites()[nda.getName(name).site];
  return site.isUse() ? site.use->getOwner()->getLoc() : site.value.getLoc();
}

bool NdaEnvironment::Impl::noteUnshardable(InFlightDiagnostic &diag,
                                           unsigned name) const {
  unsigned node = nda.getNode(name);
  if (nodeShardable[node])
    return false;
  int blocker = nodeBlocker[node];
  if (blocker < 0) {
    diag.attachNote(getNameLoc(nda, name))
        << "dimension " << nda.describeName(name)
        << " is stacked: the layer index of values a loop reads by its "
           "counter, which the search never shards";
    return true;
  }
  Diagnostic &note = diag.attachNote(getNameLoc(nda, blocker));
  if (static_cast<unsigned>(blocker) != name)
    note << "dimension " << nda.describeName(name) << " is sharded alike with ";
  else
    note << "dimension ";
  note << nda.describeName(blocker)
       << (nda.getName(blocker).blocked
               ? ", which its op maps by no factor it can tile, or splits "
                 "into parts its other dimensions do not have"
               : ", which the partitioner cannot loop over there");
  return true;
}

/// The NDA names of the dims of `op` that its rule's `factor` maps: the
/// part the factor is of a compound dim, the major part otherwise.
static SmallVector<unsigned> getFactorNames(const NamedDimensionAnalysis &nda,
                                            const ShardingRule &rule,
                                            Operation *op, int64_t factor) {
  SmallVector<unsigned> names;
  auto visit = [&](int site, bool isResult, unsigned tensor) {
    if (site < 0)
      return;
    for (unsigned d = 0; d < nda.getSites()[site].rank; ++d) {
      SmallVector<int64_t, 2> fs = rule.getDimFactors(isResult, tensor, d);
      SmallVector<unsigned, 2> parts = nda.getDimNames(site, d);
      for (auto [k, f] : llvm::enumerate(fs))
        if (f == factor)
          names.push_back(fs.size() == parts.size() ? parts[k] : parts[0]);
    }
  };
  for (OpOperand &use : op->getOpOperands())
    visit(nda.getUseSite(use), false, use.getOperandNumber());
  for (OpResult result : op->getResults())
    visit(nda.getDefSite(result), true, result.getResultNumber());
  return names;
}

FailureOr<SearchState>
NdaEnvironment::Impl::importState(partition::ShardingState &sharding) const {
  SearchState state = initial;
  state.nodeAxes.assign(nda.getNumNodes(), 0);
  auto axisIndex = [&](StringRef axis) -> int {
    auto it = llvm::find(axisNames, axis);
    return it == axisNames.end() ? -1 : it - axisNames.begin();
  };
  // Levels tile a split dim major part first: an axis goes to the first
  // part not yet fully tiled.
  auto nextPart = [&](ArrayRef<int> parts) {
    for (int node : parts)
      if (node < 0 || maskProduct(state.nodeAxes[node]) < nodeGcd[node])
        return node;
    return parts.back();
  };
  Block &block = entry.getBody().front();
  // `names`: the NDA names of the dims in question, whose node may be
  // one the search leaves out.
  auto fail = [&](Location loc, const Twine &why,
                  ArrayRef<unsigned> names = {}) {
    InFlightDiagnostic diag = emitError(loc, "automatic partitioning cannot "
                                             "start from this state: ")
                              << why;
    // The first name whose node the search leaves out.
    for (unsigned name : names)
      if (noteUnshardable(diag, name))
        break;
    diag.attachNote()
        << "a search state gives every dimension-graph node (the dims "
           "that are sharded alike) one set of mesh axes, and the imported "
           "shardings or earlier tactics shard this one apart from its "
           "node; search from the program without them, or finish the "
           "strategy with manual tactics";
    return diag;
  };
  for (BlockArgument arg : block.getArguments()) {
    const ProgramValue &v = program.values[arg.getArgNumber()];
    for (const partition::AxisDim &level : sharding.getExplicitTiling(arg)) {
      int axis = axisIndex(level.axis);
      SmallVector<int, 2> parts{v.dimNode[level.dim]};
      for (auto [d, minor] : v.minorNodes)
        if (d == level.dim)
          parts.push_back(minor);
      int node = nextPart(parts);
      int site = nda.getDefSite(arg);
      if (axis < 0 || node < 0)
        return fail(arg.getLoc(),
                    "argument tiled on a dimension the search cannot express",
                    site < 0 ? SmallVector<unsigned, 2>{}
                             : nda.getDimNames(site, level.dim));
      state.nodeAxes[node] |= AxisMask(1) << axis;
    }
  }
  // The nodes an op's (or a tied class's) loops put axes on.
  auto addLevels =
      [&](Operation *op, ArrayRef<partition::AxisFactor> nest,
          ArrayRef<int> factorNode,
          ArrayRef<std::pair<unsigned, int>> minor = {}) -> LogicalResult {
    for (const partition::AxisFactor &level : nest) {
      int axis = axisIndex(level.axis);
      SmallVector<int, 2> parts{level.factor <
                                        static_cast<int64_t>(factorNode.size())
                                    ? factorNode[level.factor]
                                    : -1};
      for (auto [f, node] : minor)
        if (f == level.factor)
          parts.push_back(node);
      int node = nextPart(parts);
      const ShardingRule *rule = rules->getRule(op);
      if (axis < 0 || node < 0)
        return fail(op->getLoc(),
                    "op loops over a factor the search cannot express",
                    rule ? getFactorNames(nda, *rule, op, level.factor)
                         : SmallVector<unsigned>{});
      state.nodeAxes[node] |= AxisMask(1) << axis;
    }
    return success();
  };
  for (auto [op, p] : llvm::zip_equal(block, program.ops))
    if (p.ruled && failed(addLevels(&op, sharding.getLoopNest(&op),
                                    p.factorNode, p.minorNodes)))
      return failure();
  // Body ops and tied classes.
  SmallVector<Operation *> nested = getNestedOps(entry);
  if (nested.size() != program.nestedOps.size())
    return fail(entry.getLoc(), "the function's loops changed");
  for (auto [op, p] : llvm::zip_equal(nested, program.nestedOps))
    if (p.ruled && failed(addLevels(op, sharding.getLoopNest(op), p.factorNode,
                                    p.minorNodes)))
      return failure();
  for (auto [e, edge] : llvm::enumerate(sharding.getTiedValues().getEdges()))
    if (failed(addLevels(edge.owner, sharding.getEdgeNest(edge),
                         program.edgeDimNodes[e])))
      return failure();
  for (auto [op, p] : llvm::zip_equal(nested, program.nestedOps))
    if (p.ruled && getNest(state, p.factorNode, p.minorNodes, p.fixed).size() !=
                       sharding.getLoopNest(op).size())
      return fail(op->getLoc(), "ops of one dimension-graph node loop "
                                "differently");
  // Every op and argument must see exactly what the state says.
  for (auto [i, op] : llvm::enumerate(block)) {
    const ProgramOp &p = program.ops[i];
    if (!p.ruled)
      continue;
    auto nest = getNest(state, i);
    if (nest.size() != sharding.getLoopNest(&op).size())
      return fail(op.getLoc(), "ops of one dimension-graph node loop "
                               "differently");
    for (Value result : op.getResults())
      for (const partition::AxisDim &level : sharding.getExplicitTiling(result))
        if (!llvm::any_of(nest, [&](auto &l) {
              return axisNames[l.first] == level.axis;
            }))
          return fail(op.getLoc(), "an intermediate value is tiled beyond "
                                   "its op's loop nest");
  }
  for (BlockArgument arg : block.getArguments()) {
    const ProgramValue &v = program.values[arg.getArgNumber()];
    size_t levels = 0;
    for (int node : v.dimNode)
      if (node >= 0)
        levels += llvm::popcount(state.nodeAxes[node]);
    for (auto [d, node] : v.minorNodes)
      levels += llvm::popcount(state.nodeAxes[node]);
    if (levels != sharding.getExplicitTiling(arg).size())
      return fail(arg.getLoc(), "an argument is tiled differently from the "
                                "ops that read it");
  }
  return state;
}

FailureOr<sim::SimulationResult> NdaEnvironment::Impl::simulateMaterialized(
    const SearchState &state, OwningOpRef<ModuleOp> *lowered) const {
  auto module = entry->getParentOfType<ModuleOp>();
  if (!module)
    return entry.emitError("simulateMaterialized: no enclosing module");
  OwningOpRef<ModuleOp> copy(module.clone());
  // The collective optimizer tells padded collectives by the mesh it finds
  // on the module (partir::getMesh), as the pipeline's module has it:
  // without one, a chunk that divides the padded size (6 rows on 4
  // devices, 2 each) looked even and its slices merged.
  if (!partir::getMesh(*copy))
    (*copy)->setAttr(partir::PartIRDialect::kMeshAttrName, mesh);
  auto func = copy->lookupSymbol<func::FuncOp>(entry.getSymName());
  partition::ShardingState sharding(func, mesh);
  if (failed(writeState(*this, state, sharding)) ||
      failed(sharding.materializeCore()))
    return failure();
  keepResultsWhole(*this, func);
  if (failed(partir_hlo::lowerToDeviceLocal(*copy, func, mesh)))
    return failure();
  sim::SimulationOptions simOptions = getSimulationOptions();
  simOptions.function = func.getSymName().str();
  auto result = sim::simulate(*copy, device, simOptions);
  if (lowered)
    *lowered = std::move(copy);
  return result;
}

void NdaEnvironment::Impl::dumpState(const SearchState &state,
                                     StringRef path) const {
  auto module = entry->getParentOfType<ModuleOp>();
  if (!module)
    return;
  OwningOpRef<ModuleOp> copy(module.clone());
  if (!partir::getMesh(*copy))
    (*copy)->setAttr(partir::PartIRDialect::kMeshAttrName, mesh);
  auto func = copy->lookupSymbol<func::FuncOp>(entry.getSymName());
  partition::ShardingState sharding(func, mesh);
  if (failed(writeState(*this, state, sharding)))
    return;
  sharding.save();
  dumpModule(*copy, path);
}

void NdaEnvironment::Impl::dumpModule(ModuleOp module, StringRef path) {
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  if (!error) {
    module.print(os);
    error = takeWriteError(os);
  }
  if (error)
    llvm::errs() << "check-analytic: cannot write '" << path
                 << "': " << error.message() << "\n";
}

} // namespace toast::search
