//===- LocalizeBoundary.cpp - Device-local function and loop boundaries ---===//
//
// Lowering leaves every boundary global: a tiled argument is sliced by its
// users (`all_slice`) and a tiled result gathered (`all_gather`) before the
// return. The same holds for the tied values of loops and conditionals
// (control-flow-design.md §2.3 C): a carried value is gathered at the body's
// return and sliced again at the next iteration. One rule makes both
// device-local: when every use of every target of a boundary is an
// `all_slice` with the same dims, the targets take the slice's local type,
// the slices disappear, and each source passes the local value (the operand
// of a matching `all_gather`, or an `all_slice` of the global value, which
// needs no communication). The function boundary repeats the rule level by
// level: a padded tiling's slices (and gathers) do not merge into one, and
// every level stays device-local (docs/dialects.md, "Padded (uneven)
// tiling").
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/PartIR/HLO/Transforms/Passes.h"
#include "toast/Interfaces/ControlFlow.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace toast::partir_hlo {

/// The all_slice every use of `targets` is, if they agree on the dims; uses
/// `skip` accepts do not count. Null if some use is something else or no
/// use is a slice.
static AllSliceOp commonSlice(
    ArrayRef<Value> targets,
    function_ref<bool(OpOperand &)> skip = [](OpOperand &) { return false; }) {
  AllSliceOp first;
  for (Value target : targets)
    for (OpOperand &use : target.getUses()) {
      if (skip(use))
        continue;
      auto slice = dyn_cast<AllSliceOp>(use.getOwner());
      if (!slice || (first && slice.getDims() != first.getDims()))
        return {};
      if (!first)
        first = slice;
    }
  return first;
}

/// Gives `target` the local type and routes its slices' uses to it.
static void localizeTarget(Value target, Type local) {
  target.setType(local);
  for (OpOperand &use : llvm::make_early_inc_range(target.getUses()))
    if (auto slice = dyn_cast<AllSliceOp>(use.getOwner())) {
      slice.getResult().replaceAllUsesWith(target);
      slice.erase();
    }
}

/// Makes the source `use` pass the local value.
static void localizeSource(OpOperand &use, AllSliceOp slice) {
  Value value = use.get();
  Type local = slice.getType();
  if (value.getType() == local)
    return; // Already local: a target of the same boundary passed on.
  auto gather = value.getDefiningOp<AllGatherOp>();
  if (gather && gather.getDims() == slice.getDims() &&
      gather.getOperand().getType() == local) {
    use.set(gather.getOperand());
    if (gather->use_empty())
      gather.erase();
    return;
  }
  OpBuilder b(use.getOwner());
  use.set(AllSliceOp::create(b, use.getOwner()->getLoc(), local, value,
                             slice.getDims()));
}

/// Localizes one tied class level by level, as the function boundary does:
/// the levels of a padded tiling are slices of their own (the collective
/// optimizer does not merge padded slices), and a level left to the body
/// would be sliced from the carried value and gathered back before the
/// yield on every iteration. True if it changed the IR.
static bool localizeEdge(const TiedValues::Edge &edge) {
  // A target passed on unchanged to a source of its own class (a carried
  // value the body returns as it is) stays consistent either way.
  auto isOwnSource = [&](OpOperand &use) {
    return llvm::is_contained(edge.sources, &use);
  };
  bool changed = false;
  while (AllSliceOp slice = commonSlice(edge.targets, isOwnSource)) {
    Type local = slice.getType();
    for (OpOperand *source : edge.sources)
      localizeSource(*source, slice);
    for (Value target : edge.targets)
      localizeTarget(target, local);
    changed = true;
  }
  return changed;
}

bool localizeTiedValues(func::FuncOp func) {
  if (func.isExternal())
    return false;
  // Localizing rewrites values and their uses but not which operands and
  // block arguments an edge ties, so one index serves the whole function.
  TiedValues tied(func.getBody().front());
  DenseMap<Operation *, SmallVector<const TiedValues::Edge *>> edgesOf;
  for (const TiedValues::Edge &edge : tied.getEdges())
    edgesOf[edge.owner].push_back(&edge);
  // Inner loops first: localizing them turns the outer body's uses of the
  // carried value into slices that the outer loop can then absorb. (Owners
  // are collected before anything is rewritten.)
  SmallVector<Operation *> owners;
  walkProgram(
      func.getBody().front(),
      [&](Operation *op, const Scope &) {
        if (edgesOf.count(op))
          owners.push_back(op);
      },
      WalkOrder::PostOrder);
  bool changed = false;
  for (Operation *op : owners)
    for (const TiedValues::Edge *edge : edgesOf[op])
      changed |= localizeEdge(*edge);
  return changed;
}

/// The global shape of a value of local type `local` sharded by `dims`,
/// when the local type does not imply it: a padded (uneven) sharding,
/// whose devices hold ceil(size / tiles) rows. Null for even shardings.
static DenseI64ArrayAttr paddedGlobalShape(Type global, Type local,
                                           ArrayAttr dims,
                                           partir::MeshAttr mesh) {
  auto g = cast<RankedTensorType>(global);
  auto l = cast<RankedTensorType>(local);
  for (auto [d, axes] : llvm::enumerate(getDimAxes(dims))) {
    int64_t tiles = 1;
    for (const std::string &axis : axes)
      tiles *= mesh.getAxisSize(axis).value_or(1);
    if (l.getDimSize(d) * tiles != g.getDimSize(d))
      return DenseI64ArrayAttr::get(g.getContext(), g.getShape());
  }
  return {};
}

/// Appends `level`'s axes to `dims` per dimension: levels come outermost
/// first, and a dimension's axes are listed outermost first.
static void appendLevel(DimAxes &dims, ArrayAttr level) {
  DimAxes axes = getDimAxes(level);
  if (dims.empty()) {
    dims = std::move(axes);
    return;
  }
  for (auto [d, names] : llvm::enumerate(axes))
    dims[d].append(names.begin(), names.end());
}

/// Makes `arg` device-local level by level while every use of it is one
/// all_slice: the levels of a padded tiling do not merge into one slice
/// (the collective optimizer leaves padded slices alone), and a level left
/// to a slice of the argument would keep that whole dimension on every
/// device (the vocabulary of an embedding table). The dims of all levels;
/// empty if the argument stays global.
static DimAxes localizeArgument(BlockArgument arg) {
  DimAxes dims;
  while (AllSliceOp slice = commonSlice(arg)) {
    appendLevel(dims, slice.getDims());
    localizeTarget(arg, slice.getType());
  }
  return dims;
}

/// Makes the returned `operand` pass the device-local value, dropping its
/// all_gathers level by level (padded levels do not merge into one
/// gather). The dims of all levels, outermost first; empty if it is not
/// gathered.
static DimAxes localizeResult(OpOperand &operand) {
  DimAxes dims;
  while (auto gather = operand.get().getDefiningOp<AllGatherOp>()) {
    appendLevel(dims, gather.getDims());
    operand.set(gather.getOperand());
    if (gather->use_empty())
      gather.erase();
  }
  return dims;
}

void makeBoundaryDeviceLocal(func::FuncOp func, partir::MeshAttr mesh) {
  StringRef globalShapeAttr = "toast.global_shape";
  MLIRContext *ctx = func.getContext();
  StringRef shardingAttr = "partir.sharding";
  for (BlockArgument arg : func.getArguments()) {
    Type global = arg.getType();
    DimAxes levels = localizeArgument(arg);
    if (levels.empty())
      continue;
    ArrayAttr dims = buildDimAxes(ctx, levels);
    if (auto shape = paddedGlobalShape(global, arg.getType(), dims, mesh))
      func.setArgAttr(arg.getArgNumber(), globalShapeAttr, shape);
    func.setArgAttr(arg.getArgNumber(), shardingAttr, dims);
  }
  func.walk([&](func::ReturnOp ret) {
    for (OpOperand &operand : ret->getOpOperands()) {
      Type global = operand.get().getType();
      DimAxes levels = localizeResult(operand);
      if (levels.empty())
        continue;
      ArrayAttr dims = buildDimAxes(ctx, levels);
      unsigned result = operand.getOperandNumber();
      func.setResultAttr(result, shardingAttr, dims);
      if (auto shape =
              paddedGlobalShape(global, operand.get().getType(), dims, mesh))
        func.setResultAttr(result, globalShapeAttr, shape);
    }
  });
  SmallVector<Type> results;
  func.walk([&](func::ReturnOp ret) {
    results.assign(ret->getOperandTypes().begin(),
                   ret->getOperandTypes().end());
  });
  func.setFunctionType(FunctionType::get(
      ctx, func.getBody().front().getArgumentTypes(), results));
  func->setAttr("partir.mesh", mesh);
}

} // namespace toast::partir_hlo
