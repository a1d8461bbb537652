//===- GspmdRegions.cpp - GSPMD manual regions as sdy regions -------------===//
//
// A region is found from its entries: everything reachable from the results
// of an SPMDFullToShardShape, up to the SPMDShardToFullShape calls, is
// device-local; regions that share ops are one region. Constants the
// region reads from outside are copied into the body; any other value from
// outside, or a region value read outside, is an error (JAX never produces
// either). The `@Sharding {manual}` calls inside are identities and go.
//
//===----------------------------------------------------------------------===//

#include "GspmdRegions.h"

#include "toast/Dialect/Sdy/IR/Sdy.h"
#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/EquivalenceClasses.h"

using namespace mlir;
namespace sdy = toast::sdy;

namespace toast::xla {

static constexpr StringLiteral kFullToShard = "SPMDFullToShardShape";
static constexpr StringLiteral kShardToFull = "SPMDShardToFullShape";

bool isCustomCall(Operation *op, StringRef target) {
  auto call = dyn_cast_or_null<stablehlo::CustomCallOp>(op);
  return call && call.getCallTargetName() == target;
}

SmallVector<Operation *> findGspmdBoundaries(func::FuncOp func) {
  SmallVector<Operation *> ops;
  if (func.isExternal())
    return ops;
  for (Operation &op : func.getBody().front())
    if (isCustomCall(&op, kFullToShard) || isCustomCall(&op, kShardToFull))
      ops.push_back(&op);
  return ops;
}

namespace {
/// One region: its entries, exits and the ops between, in block order.
struct Region {
  SmallVector<Operation *> entries, exits, body;
};

/// Builds the sdy.manual_computation of one region.
class RegionLifter {
public:
  RegionLifter(func::FuncOp func, sdy::MeshOp mesh,
               const DenseMap<Operation *, GspmdBoundary> &boundaries)
      : func(func), mesh(mesh), boundaries(boundaries) {}
  LogicalResult lift(Region &region);

private:
  LogicalResult checkClosed(Region &region, DenseSet<Operation *> &inside,
                            SetVector<Operation *> &constants);
  sdy::TensorShardingAttr sharding(Operation *boundary);
  /// The region's manual axes, in mesh order: those its boundaries' manual
  /// subgroups name, all mesh axes when they are `{manual}`.
  FailureOr<SmallVector<StringRef>> manualAxes(Region &region);

  func::FuncOp func;
  sdy::MeshOp mesh;
  const DenseMap<Operation *, GspmdBoundary> &boundaries;
};
} // namespace

/// Groups the ops reachable from each region entry; regions that reach a
/// common op merge.
static SmallVector<Region> findRegions(func::FuncOp func) {
  Block &block = func.getBody().front();
  llvm::EquivalenceClasses<Operation *> classes;
  DenseSet<Operation *> reached;
  for (Operation &entry : block) {
    if (!isCustomCall(&entry, kFullToShard))
      continue;
    classes.insert(&entry);
    SmallVector<Value> worklist(entry.getResults());
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      for (Operation *user : value.getUsers()) {
        Operation *op = block.findAncestorOpInBlock(*user);
        // The function's return is outside every region.
        if (!op || op->hasTrait<OpTrait::IsTerminator>())
          continue;
        classes.unionSets(&entry, op);
        if (isCustomCall(op, kShardToFull) || !reached.insert(op).second)
          continue;
        llvm::append_range(worklist, op->getResults());
      }
    }
  }
  DenseMap<Operation *, unsigned> index;
  SmallVector<Region> regions;
  for (Operation &op : block) {
    if (!classes.contains(&op))
      continue;
    Operation *leader = classes.getLeaderValue(&op);
    auto [it, inserted] = index.try_emplace(leader, regions.size());
    if (inserted)
      regions.emplace_back();
    Region &region = regions[it->second];
    if (isCustomCall(&op, kFullToShard))
      region.entries.push_back(&op);
    else if (isCustomCall(&op, kShardToFull))
      region.exits.push_back(&op);
    else
      region.body.push_back(&op);
  }
  return regions;
}

LogicalResult RegionLifter::checkClosed(Region &region,
                                        DenseSet<Operation *> &inside,
                                        SetVector<Operation *> &constants) {
  for (Operation *op : region.body) {
    SetVector<Value> used(op->operand_begin(), op->operand_end());
    getUsedValuesDefinedAbove(op->getRegions(), used);
    for (Value value : used) {
      Operation *def = value.getDefiningOp();
      if (def && (inside.contains(def) || isCustomCall(def, kFullToShard)))
        continue;
      if (def && def->hasTrait<OpTrait::ConstantLike>()) {
        constants.insert(def);
        continue;
      }
      return op->emitError("cannot read the GSPMD manual region: this op "
                           "uses a value from outside the region that does "
                           "not come through @SPMDFullToShardShape");
    }
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers()) {
        Operation *top = func.getBody().front().findAncestorOpInBlock(*user);
        if (top && !inside.contains(top) && !isCustomCall(top, kShardToFull))
          return user->emitError("cannot read the GSPMD manual region: this "
                                 "op uses a value of the region that does "
                                 "not go through @SPMDShardToFullShape");
      }
  }
  return success();
}

SmallVector<int64_t> getUnspecifiedDims(Operation *op) {
  SmallVector<int64_t> dims;
  auto config = op ? op->getAttrOfType<StringAttr>("backend_config") : nullptr;
  if (!config)
    return dims;
  StringRef text = config.getValue().trim();
  if (!text.consume_front("unspecified_dims=[") || !text.consume_back("]"))
    return dims;
  SmallVector<StringRef> items;
  text.split(items, ',', -1, /*KeepEmpty=*/false);
  for (StringRef item : items)
    if (int64_t d; !item.trim().getAsInteger(10, d))
      dims.push_back(d);
  return dims;
}

sdy::TensorShardingAttr RegionLifter::sharding(Operation *boundary) {
  const GspmdBoundary &info = boundaries.find(boundary)->second;
  sdy::TensorShardingAttr closed = sdy::getClosedSharding(
      FlatSymbolRefAttr::get(mesh.getSymNameAttr()), info.dims);
  if (info.openDims.empty())
    return closed;
  SmallVector<sdy::DimensionShardingAttr> dims(closed.getDimShardings());
  for (int64_t d : info.openDims)
    if (d >= 0 && d < static_cast<int64_t>(dims.size()))
      dims[d] = sdy::DimensionShardingAttr::get(
          boundary->getContext(), dims[d].getAxes(), /*isClosed=*/false,
          dims[d].getPriority());
  return sdy::TensorShardingAttr::get(boundary->getContext(),
                                      closed.getMeshOrRef(), dims, {}, {});
}

FailureOr<SmallVector<StringRef>> RegionLifter::manualAxes(Region &region) {
  // The first boundary with a manual subgroup sets them; every boundary
  // must say the same (`{manual}` is all axes).
  std::optional<SmallVector<std::string>> axes;
  Operation *first = nullptr;
  for (Operation *op :
       llvm::concat<Operation *>(region.entries, region.exits)) {
    const SmallVector<std::string> &these =
        boundaries.find(op)->second.manualAxes;
    if (axes && *axes != these) {
      auto diag = op->emitError("cannot read the GSPMD manual region: its "
                                "boundaries are manual on different mesh axes");
      diag.attachNote(first->getLoc()) << "another boundary of the region";
      return diag;
    }
    axes = these;
    first = op;
  }
  SmallVector<StringRef> result;
  for (StringAttr axis : mesh.getMesh().getAxisNames())
    if (axes->empty() || llvm::is_contained(*axes, axis.getValue()))
      result.push_back(axis.getValue());
  return result;
}

LogicalResult RegionLifter::lift(Region &region) {
  MLIRContext *ctx = func.getContext();
  if (region.exits.empty())
    return region.entries.front()->emitError(
        "cannot read the GSPMD manual region: no @SPMDShardToFullShape "
        "leaves it");
  DenseSet<Operation *> inside(region.body.begin(), region.body.end());
  SetVector<Operation *> constants;
  if (failed(checkClosed(region, inside, constants)))
    return failure();
  Operation *insertion = region.exits.front();
  SmallVector<Value> operands;
  SmallVector<Type> localTypes;
  SmallVector<sdy::TensorShardingAttr> in, out;
  for (Operation *entry : region.entries) {
    // The `@Sharding` call in front of the entry only carries the sharding,
    // which becomes the in_sharding.
    Value global = entry->getOperand(0);
    if (Operation *def = global.getDefiningOp();
        isCustomCall(def, "Sharding") && def->getNumOperands() == 1)
      global = def->getOperand(0);
    if (Operation *def = global.getDefiningOp();
        def && !def->isBeforeInBlock(insertion))
      return entry->emitError("cannot read the GSPMD manual region: its "
                              "operand is computed after the region's first "
                              "@SPMDShardToFullShape");
    operands.push_back(global);
    localTypes.push_back(entry->getResult(0).getType());
    in.push_back(sharding(entry));
  }
  SmallVector<Type> resultTypes;
  for (Operation *exit : region.exits) {
    resultTypes.push_back(exit->getResult(0).getType());
    out.push_back(sharding(exit));
  }
  FailureOr<SmallVector<StringRef>> axes = manualAxes(region);
  if (failed(axes))
    return failure();
  OpBuilder b(insertion);
  Location loc = region.entries.front()->getLoc();
  auto manual = sdy::ManualComputationOp::create(
      b, loc, resultTypes, operands,
      sdy::TensorShardingPerValueAttr::get(ctx, in),
      sdy::TensorShardingPerValueAttr::get(ctx, out), b.getStrArrayAttr(*axes));
  SmallVector<Location> locs(localTypes.size(), loc);
  Block *body = b.createBlock(&manual.getBody(), {}, localTypes, locs);
  IRMapping map;
  for (auto [entry, arg] :
       llvm::zip_equal(region.entries, body->getArguments()))
    map.map(entry->getResult(0), arg);
  for (Operation *constant : constants)
    b.clone(*constant, map);
  for (Operation *op : region.body) {
    // `@Sharding {manual}` only marks values as local: an identity.
    if (isCustomCall(op, "Sharding") && op->getNumOperands() == 1) {
      map.map(op->getResult(0), map.lookupOrDefault(op->getOperand(0)));
      continue;
    }
    b.clone(*op, map);
  }
  SmallVector<Value> returned;
  for (Operation *exit : region.exits)
    returned.push_back(map.lookupOrDefault(exit->getOperand(0)));
  sdy::ReturnOp::create(b, loc, returned);
  // The verifier locates what GSPMD's form cannot mean as a shard_map: a
  // free axis before a manual one, local shapes that are not the shards.
  SymbolTableCollection tables;
  if (failed(manual.verifySymbolUses(tables)))
    return failure();
  for (auto [exit, result] : llvm::zip_equal(region.exits, manual.getResults()))
    exit->getResult(0).replaceAllUsesWith(result);
  for (Operation *exit : region.exits)
    exit->erase();
  for (Operation *op : llvm::reverse(region.body))
    op->erase();
  for (Operation *entry : region.entries) {
    Operation *def = entry->getOperand(0).getDefiningOp();
    entry->erase();
    // The global `@Sharding` in front of the region was read into the
    // in_sharding; it goes when nothing else uses it.
    if (def && isCustomCall(def, "Sharding") && def->use_empty())
      def->erase();
  }
  return success();
}

/// The sdy.mesh with `mesh`'s axes: an existing one, or a new one.
static sdy::MeshOp getSdyMesh(ModuleOp module, partir::MeshAttr mesh) {
  MLIRContext *ctx = module.getContext();
  auto attr = sdy::MeshAttr::get(ctx, mesh.getNames(), mesh.getSizes(), {});
  for (auto op : module.getOps<sdy::MeshOp>())
    if (op.getMesh() == attr)
      return op;
  OpBuilder b(ctx); // detached: SymbolTable::insert uniques the name
  auto op = sdy::MeshOp::create(b, module.getLoc(), "mesh", attr);
  SymbolTable(module).insert(op, module.getBody()->begin());
  return op;
}

LogicalResult
liftGspmdRegions(func::FuncOp func, partir::MeshAttr mesh,
                 const DenseMap<Operation *, GspmdBoundary> &boundaries) {
  SmallVector<Region> regions = findRegions(func);
  if (regions.empty())
    return success();
  RegionLifter lifter(func, getSdyMesh(func->getParentOfType<ModuleOp>(), mesh),
                      boundaries);
  for (Region &region : regions)
    if (failed(lifter.lift(region)))
      return failure();
  return success();
}

} // namespace toast::xla
