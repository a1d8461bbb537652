//===- WholeStrategy.cpp - Every value's sharding, out and back in --------===//
//
// See WholeStrategy.h. The export reads the partitioning state; the import
// rebuilds it. Both sides agree on one reading of the annotations, so that
// export -> import -> lowering gives the program the direct lowering gives
// (test/Export/whole-roundtrip*.mlir checks this for every test schedule).
//
//===----------------------------------------------------------------------===//

#include "WholeStrategy.h"
#include "GspmdRegions.h"

#include "toast/Export/ReplicaGroups.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"
#include "toast/Interfaces/ControlFlow.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace toast::xla {

static constexpr StringLiteral kMhloSharding = "mhlo.sharding";

//===----------------------------------------------------------------------===//
// Writing annotations
//===----------------------------------------------------------------------===//

/// The sdy.mesh `attr`: an existing one with that name, or a new one (named
/// `name`, uniqued) at the start of the module.
static sdy::MeshOp getOrCreateSdyMesh(ModuleOp module, sdy::MeshAttr attr,
                                      StringRef name) {
  for (auto op : module.getOps<sdy::MeshOp>())
    if (op.getMesh() == attr && op.getSymName() == name)
      return op;
  OpBuilder b(module.getContext()); // detached: SymbolTable::insert uniques
  auto op = sdy::MeshOp::create(b, module.getLoc(), name, attr);
  SymbolTable(module).insert(op, module.getBody()->begin());
  return op;
}

ShardingWriter::ShardingWriter(ModuleOp module, partir::MeshAttr mesh,
                               const ShardingExportOptions &options)
    : ctx(module.getContext()), options(options), axes(getMeshAxes(mesh)),
      split(AxisSplit::fromPieces(axes)) {
  // Pieces of an axis the import split are written as the user's axis and
  // its sub-axes.
  if (options.sdy)
    sdyMesh =
        getOrCreateSdyMesh(module, split.getUserMesh(ctx), options.meshName);
}

FailureOr<std::string> ShardingWriter::hloString(const DimAxisNames &dims,
                                                 Operation *anchor,
                                                 Block *block) {
  std::string error;
  SmallVector<std::string> manual;
  if (block)
    manual = partition::ShardingState::getManualAxes(block);
  auto sharding = buildHloSharding(axes, dims, error, manual);
  if (failed(sharding))
    return anchor->emitOpError("cannot export a sharding: ") << error;
  return printHloSharding(*sharding);
}

sdy::TensorShardingAttr
ShardingWriter::sdySharding(const DimAxisNames &dims,
                            ArrayRef<std::string> replicated) {
  auto mesh = FlatSymbolRefAttr::get(sdyMesh.getSymNameAttr());
  sdy::TensorShardingAttr closed = sdy::getClosedSharding(mesh, dims);
  // Shardy lists replicated axes in mesh order.
  SmallVector<std::string> inMeshOrder;
  for (const MeshAxis &axis : axes)
    if (llvm::is_contained(replicated, axis.name))
      inMeshOrder.push_back(axis.name);
  if (split.isSplit()) {
    // The closed sharding's axes are pieces; join them into sub-axes.
    SmallVector<sdy::DimensionShardingAttr> joined;
    for (const auto &names : dims)
      joined.push_back(sdy::DimensionShardingAttr::get(
          ctx, split.join(ctx, names), /*isClosed=*/true, /*priority=*/-1));
    return sdy::TensorShardingAttr::get(ctx, mesh, joined,
                                        split.join(ctx, inMeshOrder), {});
  }
  if (replicated.empty())
    return closed;
  SmallVector<sdy::AxisRefAttr> refs;
  for (const std::string &axis : inMeshOrder)
    refs.push_back(sdy::AxisRefAttr::get(StringAttr::get(ctx, axis)));
  return sdy::TensorShardingAttr::get(ctx, mesh, closed.getDimShardings(), refs,
                                      {});
}

void ShardingWriter::joinRegions(ModuleOp module) {
  if (!split.isSplit())
    return;
  sdy::MeshAttr pieces = split.getPieceMesh(ctx);
  // Without an sdy form, the regions name the user's mesh symbol (which the
  // import kept) or a new one.
  sdy::MeshOp target = sdyMesh
                           ? sdyMesh
                           : getOrCreateSdyMesh(module, split.getUserMesh(ctx),
                                                options.meshName);
  auto mesh = FlatSymbolRefAttr::get(target.getSymNameAttr());
  module.walk([&](sdy::ManualComputationOp op) {
    if (op.getMesh() != pieces)
      return;
    SmallVector<std::string> manual;
    for (StringRef axis : op.getManualAxes().getAsValueRange<StringAttr>())
      manual.push_back(axis.str());
    SmallVector<std::string> axes;
    for (sdy::AxisRefAttr ref : split.join(ctx, manual))
      axes.push_back(ref.getName().str());
    rewriteRegion(
        op,
        [&](sdy::TensorShardingAttr s) { return split.fromPieces(s, mesh); },
        axes);
  });
}

LogicalResult
ShardingWriter::annotate(const DimAxisNames &dims, Operation *anchor,
                         function_ref<void(StringRef, Attribute)> set) {
  if (options.mhlo) {
    FailureOr<std::string> text = hloString(dims, anchor, nullptr);
    if (failed(text))
      return failure();
    set(kMhloSharding, StringAttr::get(ctx, *text));
  }
  if (options.sdy)
    set(sdy::SdyDialect::kShardingAttrName, sdySharding(dims));
  return success();
}

LogicalResult
ShardingWriter::annotateOp(Operation *op, ArrayRef<DimAxisNames> results,
                           ArrayRef<SmallVector<std::string>> replicated) {
  if (options.mhlo) {
    // XLA writes the sharding of a multi-result op as a tuple.
    SmallVector<std::string> strings;
    for (const DimAxisNames &dims : results) {
      FailureOr<std::string> text = hloString(dims, op, op->getBlock());
      if (failed(text))
        return failure();
      strings.push_back(*text);
    }
    std::string text = strings.size() == 1
                           ? strings.front()
                           : "{" + llvm::join(strings, ", ") + "}";
    op->setAttr(kMhloSharding, StringAttr::get(ctx, text));
  }
  if (options.sdy) {
    SmallVector<sdy::TensorShardingAttr> shardings;
    for (auto [dims, axes] : llvm::zip(results, replicated))
      shardings.push_back(sdySharding(dims, axes));
    op->setAttr(sdy::SdyDialect::kShardingAttrName,
                sdy::TensorShardingPerValueAttr::get(ctx, shardings));
  }
  return success();
}

FailureOr<Value> ShardingWriter::constrain(OpBuilder &b, Location loc,
                                           Value value,
                                           const DimAxisNames &dims,
                                           bool held) {
  if (!options.mhlo && held)
    return sdy::ReshardOp::create(b, loc, value, sdySharding(dims)).getResult();
  if (!options.mhlo)
    return sdy::ShardingConstraintOp::create(b, loc, value, sdySharding(dims))
        .getResult();
  FailureOr<std::string> text = hloString(
      dims, value.getParentBlock()->getParentOp(), value.getParentBlock());
  if (failed(text))
    return failure();
  OperationState state(loc, stablehlo::CustomCallOp::getOperationName());
  state.addOperands(value);
  state.addTypes(value.getType());
  state.addAttribute("call_target_name", b.getStringAttr("Sharding"));
  state.addAttribute(kMhloSharding, b.getStringAttr(*text));
  return b.create(state)->getResult(0);
}

//===----------------------------------------------------------------------===//
// Export
//===----------------------------------------------------------------------===//

DimAxisNames toDimAxes(ArrayRef<partition::AxisDim> tiling, Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  DimAxisNames dims(tensor ? tensor.getRank() : 0);
  for (const partition::AxisDim &level : tiling)
    if (level.dim < static_cast<int64_t>(dims.size()))
      dims[level.dim].push_back(level.axis);
  return dims;
}

/// Whether the export annotates the results of `op`: ops of the program
/// with tensor results, not Shardy's own ops (a manual_computation says its
/// layouts itself).
static bool isAnnotated(Operation *op) {
  return op->getNumResults() > 0 && !op->hasTrait<OpTrait::IsTerminator>() &&
         !isa<sdy::SdyDialect, partir::PartIRDialect>(op->getDialect()) &&
         llvm::all_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>);
}

namespace {
/// A reader that needs its operand in another layout.
struct Reshard {
  OpOperand *use;
  DimAxisNames dims;
};
} // namespace

LogicalResult annotateWholeProgram(func::FuncOp func,
                                   partition::ShardingState &state,
                                   ArrayRef<DimAxisNames> args,
                                   ShardingWriter &writer) {
  Block &entry = func.getBody().front();
  // The layout each value is held in: arguments as exported, op results as
  // their producers compute them plus any explicit tiling on top.
  DenseMap<Value, DimAxisNames> held;
  for (auto [arg, dims] : llvm::zip(func.getArguments(), args))
    held[arg] = dims;
  SmallVector<Operation *> ops;
  walkProgram(entry, [&](Operation *op, const Scope &) {
    if (isDataFlowRegionOp(op))
      for (Region &region : op->getRegions())
        for (BlockArgument arg : region.getArguments())
          held[arg] = toDimAxes(state.getTiling(arg), arg.getType());
    if (isAnnotated(op))
      ops.push_back(op);
  });
  // Readers are compared before the IR changes (the state is keyed by ops
  // and uses, which stay valid).
  SmallVector<Reshard> reshards;
  SmallVector<std::pair<Value, DimAxisNames>> extensions;
  for (Operation *op : ops)
    for (Value result : op->getResults()) {
      held[result] = toDimAxes(state.getNestTiling(result), result.getType());
      DimAxisNames full = toDimAxes(state.getTiling(result), result.getType());
      if (full != held[result])
        extensions.push_back({result, full});
    }
  auto heldAfter = [&](Value value) -> const DimAxisNames & {
    for (auto &[extended, dims] : extensions)
      if (extended == value)
        return dims;
    return held[value];
  };
  walkProgram(entry, [&](Operation *op, const Scope &) {
    if (isa<sdy::SdyDialect>(op->getDialect()))
      return;
    for (OpOperand &use : op->getOpOperands()) {
      if (!held.count(use.get()))
        continue;
      std::optional<SmallVector<partition::AxisDim>> slicing =
          state.getUseSlicing(use);
      // Ops without a rule read whole values; terminators other than a
      // tied class's sources (the function's return) are boundaries.
      if (!slicing && op->hasTrait<OpTrait::IsTerminator>())
        continue;
      DimAxisNames dims =
          toDimAxes(slicing ? *slicing : ArrayRef<partition::AxisDim>(),
                    use.get().getType());
      if (dims != heldAfter(use.get()))
        reshards.push_back({&use, dims});
    }
  });

  for (Operation *op : ops) {
    SmallVector<DimAxisNames> results;
    SmallVector<SmallVector<std::string>> atomic;
    for (Value result : op->getResults()) {
      results.push_back(held[result]);
      atomic.emplace_back(state.getAtomicAxes(result));
    }
    if (failed(writer.annotateOp(op, results, atomic)))
      return failure();
  }
  OpBuilder b(func.getContext());
  for (auto &[value, dims] : extensions) {
    b.setInsertionPointAfterValue(value);
    FailureOr<Value> constrained =
        writer.constrain(b, value.getLoc(), value, dims, /*held=*/true);
    if (failed(constrained))
      return failure();
    value.replaceAllUsesExcept(*constrained, constrained->getDefiningOp());
  }
  for (Reshard &reshard : reshards) {
    b.setInsertionPoint(reshard.use->getOwner());
    FailureOr<Value> constrained =
        writer.constrain(b, reshard.use->getOwner()->getLoc(),
                         reshard.use->get(), reshard.dims, /*held=*/false);
    if (failed(constrained))
      return failure();
    reshard.use->set(*constrained);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Import
//===----------------------------------------------------------------------===//

bool hasOpShardings(func::FuncOp func) {
  WalkResult found = func.walk([](Operation *op) {
    if (isa<func::FuncOp>(op) || isa<sdy::SdyDialect>(op->getDialect()) ||
        op->getParentOfType<sdy::ManualComputationOp>() ||
        isCustomCall(op, "Sharding") ||
        isCustomCall(op, "SPMDFullToShardShape") ||
        isCustomCall(op, "SPMDShardToFullShape"))
      return WalkResult::advance();
    if (op->hasAttr(sdy::SdyDialect::kShardingAttrName) ||
        op->hasAttr(kMhloSharding))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// Whether `wide` is `narrow` with axes added at the minor end of
/// dimensions.
static bool extendsSharding(const DimAxisNames &wide,
                            const DimAxisNames &narrow) {
  if (wide.size() != narrow.size() || wide == narrow)
    return false;
  for (auto [w, n] : llvm::zip(wide, narrow))
    if (w.size() < n.size() || !std::equal(n.begin(), n.end(), w.begin()))
      return false;
  return true;
}

void recordConstraint(Operation *op, Value input, const DimAxisNames &dims,
                      WholeShardings &whole) {
  auto it = whole.held.find(input);
  if (isa<sdy::ReshardOp>(op) && input.hasOneUse() && it != whole.held.end() &&
      extendsSharding(dims, it->second)) {
    whole.extended[input] = dims;
    return;
  }
  for (OpOperand &use : op->getResult(0).getUses())
    whole.asRead[&use] = dims;
}

static SmallVector<partition::AxisDim> toTiling(const DimAxisNames &dims) {
  SmallVector<partition::AxisDim> tiling;
  for (auto [d, axes] : llvm::enumerate(dims))
    for (const std::string &axis : axes)
      tiling.push_back({axis, int64_t(d)});
  return tiling;
}

/// A loop nest over (axis, factor) levels: in mesh axis order, except that
/// the axes of one factor keep their order (major first).
static SmallVector<partition::AxisFactor>
orderNest(ArrayRef<partition::AxisFactor> levels, partir::MeshAttr mesh) {
  auto rank = [&](const partition::AxisFactor &level) {
    return llvm::find_if(mesh.getNames(),
                         [&](StringAttr n) { return n == level.axis; }) -
           mesh.getNames().begin();
  };
  SmallVector<partition::AxisFactor> sorted(levels);
  llvm::stable_sort(sorted,
                    [&](auto &a, auto &b) { return rank(a) < rank(b); });
  // Each position keeps its factor; the factor's axes fill its positions in
  // their given order.
  DenseMap<int64_t, unsigned> next;
  for (partition::AxisFactor &level : sorted) {
    unsigned k = next[level.factor]++;
    unsigned seen = 0;
    for (const partition::AxisFactor &given : levels)
      if (given.factor == level.factor && seen++ == k) {
        level.axis = given.axis;
        break;
      }
  }
  return sorted;
}

/// The layout in which `use` is read: a constraint's, or its producer's.
static DimAxisNames readLayout(OpOperand &use, partition::ShardingState &state,
                               const WholeShardings &whole) {
  if (auto it = whole.asRead.find(&use); it != whole.asRead.end())
    return it->second;
  Value value = use.get();
  if (auto it = whole.extended.find(value); it != whole.extended.end())
    return it->second;
  return toDimAxes(state.getTiling(value), value.getType());
}

/// The factor of dimension `d` of operand or result `i`, or kNoFactor.
static int64_t factorOf(ArrayRef<SmallVector<int64_t>> dims, unsigned i,
                        size_t d) {
  return i < dims.size() && d < dims[i].size() ? dims[i][d] : kNoFactor;
}

/// Rebuilds the nest of `op` from its results' shardings (parallel factors)
/// and its operands as read (reduction factors).
static LogicalResult applyOpNest(Operation *op, partition::ShardingState &state,
                                 const WholeShardings &whole) {
  const ShardingRule *rule = state.getRule(op);
  SmallVector<partition::AxisFactor> levels;
  auto add = [&](StringRef axis, int64_t factor, StringRef what, unsigned i,
                 int64_t d) -> LogicalResult {
    if (llvm::any_of(levels, [&](auto &l) { return l.axis == axis; }))
      return success();
    if (factor == kNoFactor)
      return op->emitError("cannot follow the sharding of ")
             << what << " " << i << ": dimension " << d
             << " cannot be split on axis \"" << axis << "\"";
    levels.push_back({axis.str(), factor});
    return success();
  };
  for (OpResult result : op->getResults()) {
    auto it = whole.held.find(result);
    if (it == whole.held.end())
      continue;
    for (auto [d, axes] : llvm::enumerate(it->second))
      for (const std::string &axis : axes)
        if (failed(add(axis,
                       factorOf(rule->resultDims, result.getResultNumber(), d),
                       "result", result.getResultNumber(), d)))
          return failure();
  }
  for (OpOperand &use : op->getOpOperands()) {
    unsigned i = use.getOperandNumber();
    for (auto [d, axes] : llvm::enumerate(readLayout(use, state, whole)))
      for (const std::string &axis : axes)
        if (failed(
                add(axis, factorOf(rule->operandDims, i, d), "operand", i, d)))
          return failure();
  }
  return state.setLoopNest(op, orderNest(levels, state.getMesh()));
}

LogicalResult applyWholeShardings(partition::ShardingState &state,
                                  const WholeShardings &whole) {
  func::FuncOp func = state.getFunction();
  // Tied classes first: the body's block arguments are read by its ops.
  for (const TiedValues::Edge &edge : state.getTiedValues().getEdges()) {
    auto it = whole.held.find(edge.targets.front());
    if (it == whole.held.end())
      continue;
    // A shard_map edge's global side is split on the manual axes by the
    // region itself; its nest holds the free axes only.
    Region &body = edge.owner->getRegion(0);
    SmallVector<std::string> manual =
        body.empty() ? SmallVector<std::string>()
                     : partition::ShardingState::getManualAxes(&body.front());
    SmallVector<partition::AxisFactor> nest;
    for (const partition::AxisDim &level : toTiling(it->second))
      if (!llvm::is_contained(manual, level.axis))
        nest.push_back({level.axis, level.dim});
    if (failed(state.setEdgeNest(state.getTiedValues().getIndex(edge),
                                 orderNest(nest, state.getMesh()))))
      return failure();
  }
  for (BlockArgument arg : func.getArguments())
    if (auto it = whole.held.find(arg); it != whole.held.end())
      if (failed(state.setExplicitTiling(arg, toTiling(it->second))))
        return failure();
  // Producers before readers: an operand's layout is its producer's.
  SmallVector<Operation *> ops;
  bool complete = true;
  walkProgram(func.getBody().front(), [&](Operation *op, const Scope &) {
    if (!state.getRule(op) || !isAnnotated(op))
      return;
    if (llvm::any_of(op->getResults(),
                     [&](Value v) { return whole.held.count(v); }))
      ops.push_back(op);
    else
      complete = false;
  });
  for (Operation *op : ops)
    if (failed(applyOpNest(op, state, whole)))
      return failure();
  for (auto &[value, dims] : whole.extended) {
    // Only the levels beyond what the producer computes are explicit.
    SmallVector<partition::AxisDim> computed = state.getTiling(value);
    SmallVector<partition::AxisDim> explicitTiling(
        state.getExplicitTiling(value));
    for (const partition::AxisDim &level : toTiling(dims))
      if (!llvm::is_contained(computed, level))
        explicitTiling.push_back(level);
    if (failed(state.setExplicitTiling(value, explicitTiling)))
      return failure();
  }
  for (auto &[value, axes] : whole.atomic)
    for (const std::string &axis : axes)
      if (failed(state.atomic(value, axis)))
        return failure();
  // A program annotated only in part (some ops without a sharding):
  // propagation partitions the rest around the fixed nests.
  if (!complete)
    state.propagate();
  return success();
}

} // namespace toast::xla
