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
// tiling"). An argument or result materializeCore marks `partir.keep_whole`
// (atomic in the sharding state: an imported closed sharding, a schedule's
// "replicated") keeps the caller's layout: the boundary takes only the
// slices and gathers of the other axes, and the reader slices the rest
// inside the function (an all_slice needs no communication).
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/PartIR/HLO/Transforms/Passes.h"
#include "toast/Interfaces/ControlFlow.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace toast::partir_hlo {

/// The all_slices that are the uses of `targets`, but for those `skip`
/// accepts; empty if some use is something else.
static SmallVector<AllSliceOp> slicesOf(ArrayRef<Value> targets,
                                        function_ref<bool(OpOperand &)> skip) {
  SmallVector<AllSliceOp> slices;
  for (Value target : targets)
    for (OpOperand &use : target.getUses()) {
      if (skip(use))
        continue;
      auto slice = dyn_cast<AllSliceOp>(use.getOwner());
      if (!slice)
        return {};
      slices.push_back(slice);
    }
  return slices;
}

/// The all_slice every use of `arg` is, if they agree on the dims; null if
/// some use is something else or no use is a slice.
static AllSliceOp commonSlice(Value arg) {
  SmallVector<AllSliceOp> slices =
      slicesOf(arg, [](OpOperand &) { return false; });
  if (slices.empty())
    return {};
  for (AllSliceOp slice : slices)
    if (slice.getDims() != slices.front().getDims())
      return {};
  return slices.front();
}

/// Per dimension, the longest list of axes every one of `slices` starts
/// with.
static DimAxes sharedPrefix(ArrayRef<AllSliceOp> slices) {
  DimAxes prefix = getDimAxes(AllSliceOp(slices.front()).getDims());
  for (AllSliceOp slice : slices.drop_front()) {
    DimAxes dims = getDimAxes(slice.getDims());
    for (auto [axes, other] : llvm::zip_equal(prefix, dims)) {
      size_t n = 0;
      while (n < axes.size() && n < other.size() && axes[n] == other[n])
        ++n;
      axes.resize(n);
    }
  }
  return prefix;
}

/// `global` tiled by `dims` on `mesh`, or null if some axes do not divide
/// their dimension.
static Type evenlyTiled(Type global, const DimAxes &dims,
                        partir::MeshAttr mesh) {
  auto type = dyn_cast<RankedTensorType>(global);
  if (!mesh || !type || !type.hasStaticShape())
    return {};
  SmallVector<int64_t> shape(type.getShape());
  for (auto [size, axes] : llvm::zip_equal(shape, dims)) {
    int64_t tiles = 1;
    for (const std::string &axis : axes)
      tiles *= mesh.getAxisSize(axis).value_or(1);
    if (size % tiles != 0)
      return {};
    size /= tiles;
  }
  return type.clone(shape);
}

/// What a tied class is localized at: the dims and the local type.
struct TiedSlice {
  ArrayAttr dims;
  Type local;
};

/// The slice a tied class whose targets are `targets` is localized at, if
/// every use of them (but those `skip` accepts) is an all_slice: their
/// dims when they agree; when they do not, the axes every one of them
/// starts with in each dimension (a result read on M then B in one
/// dimension and on M in another by its readers keeps the M both start
/// with; a nested loop's carry read by its body on B and by the enclosing
/// body on B then M keeps B), evenly tiled, with each slice slicing the
/// rest. The search's loop model carries a tied class at its own tiling
/// and refuses the states whose readers share more (AnalyticLoops.cpp).
static std::optional<TiedSlice> tiedSlice(ArrayRef<Value> targets,
                                          function_ref<bool(OpOperand &)> skip,
                                          partir::MeshAttr mesh) {
  SmallVector<AllSliceOp> slices = slicesOf(targets, skip);
  if (slices.empty())
    return std::nullopt;
  AllSliceOp first = slices.front();
  if (llvm::all_of(slices, [&](AllSliceOp slice) {
        return slice.getDims() == first.getDims();
      }))
    return TiedSlice{first.getDims(), first.getType()};
  // Padded slices do not regroup (the collective optimizer's rule).
  for (AllSliceOp slice : slices)
    if (isPadded(slice, slice.getDims(), mesh))
      return std::nullopt;
  DimAxes prefix = sharedPrefix(slices);
  if (llvm::all_of(prefix, [](const auto &axes) { return axes.empty(); }))
    return std::nullopt;
  Type local = evenlyTiled(first.getOperand().getType(), prefix, mesh);
  if (!local)
    return std::nullopt;
  return TiedSlice{buildDimAxes(first.getContext(), prefix), local};
}

/// Gives `target` the local type and routes its slices' uses to it: a
/// slice by `dims` disappears, a longer one (tiedSlice) slices the rest.
static void localizeTarget(Value target, Type local, ArrayAttr dims) {
  target.setType(local);
  DimAxes prefix = getDimAxes(dims);
  for (OpOperand &use : llvm::make_early_inc_range(target.getUses())) {
    auto slice = dyn_cast<AllSliceOp>(use.getOwner());
    if (!slice)
      continue;
    if (slice.getDims() == dims) {
      slice.getResult().replaceAllUsesWith(target);
      slice.erase();
      continue;
    }
    std::optional<DimAxes> rest =
        suffixAfterPrefix(prefix, getDimAxes(slice.getDims()));
    slice.setDimsAttr(buildDimAxes(slice.getContext(), *rest));
  }
}

/// Makes the source `use` pass the value local to `slice`.
static void localizeSource(OpOperand &use, const TiedSlice &slice) {
  Value value = use.get();
  if (value.getType() == slice.local)
    return; // Already local: a target of the same boundary passed on.
  auto gather = value.getDefiningOp<AllGatherOp>();
  if (gather && gather.getDims() == slice.dims &&
      gather.getOperand().getType() == slice.local) {
    use.set(gather.getOperand());
    if (gather->use_empty())
      gather.erase();
    return;
  }
  OpBuilder b(use.getOwner());
  use.set(AllSliceOp::create(b, use.getOwner()->getLoc(), slice.local, value,
                             slice.dims));
}

/// Localizes one tied class level by level, as the function boundary does:
/// the levels of a padded tiling are slices of their own (the collective
/// optimizer does not merge padded slices), and a level left to the body
/// would be sliced from the carried value and gathered back before the
/// yield on every iteration. True if it changed the IR.
static bool localizeEdge(const TiedValues::Edge &edge, partir::MeshAttr mesh) {
  // A target passed on unchanged to a source of its own class (a carried
  // value the body returns as it is) stays consistent either way.
  auto isOwnSource = [&](OpOperand &use) {
    return llvm::is_contained(edge.sources, &use);
  };
  bool changed = false;
  while (std::optional<TiedSlice> slice =
             tiedSlice(edge.targets, isOwnSource, mesh)) {
    for (OpOperand *source : edge.sources)
      localizeSource(*source, *slice);
    for (Value target : edge.targets)
      localizeTarget(target, slice->local, slice->dims);
    changed = true;
  }
  return changed;
}

bool localizeTiedValues(func::FuncOp func, partir::MeshAttr mesh) {
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
      changed |= localizeEdge(*edge, mesh);
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

/// A boundary level split by the axes the caller keeps whole: per
/// dimension the axes before the first kept one (the outer blocks, which
/// the boundary may take), and the rest.
struct WholeSplit {
  DimAxes outer, rest;
  bool keepsAll() const {
    return llvm::all_of(outer, [](auto &axes) { return axes.empty(); });
  }
  bool keepsNone() const {
    return llvm::all_of(rest, [](auto &axes) { return axes.empty(); });
  }
};

static WholeSplit splitWhole(ArrayAttr level, ArrayRef<std::string> whole) {
  WholeSplit split;
  for (SmallVector<std::string> &axes : getDimAxes(level)) {
    auto kept = llvm::find_if(axes, [&](const std::string &a) {
      return llvm::is_contained(whole, a);
    });
    split.outer.emplace_back(axes.begin(), kept);
    split.rest.emplace_back(kept, axes.end());
  }
  return split;
}

/// The type of `global` tiled by `split.outer` when that and the rest of
/// the level divide it evenly into `local` (the level's local type); null
/// otherwise (a padded level is left whole: its chunks do not compose).
static Type outerType(Type global, Type local, const WholeSplit &split,
                      partir::MeshAttr mesh) {
  auto g = cast<RankedTensorType>(global);
  auto l = cast<RankedTensorType>(local);
  auto product = [&](ArrayRef<std::string> axes) {
    int64_t n = 1;
    for (const std::string &axis : axes)
      n *= mesh.getAxisSize(axis).value_or(1);
    return n;
  };
  SmallVector<int64_t> shape;
  for (auto [d, size] : llvm::enumerate(g.getShape())) {
    int64_t outer = product(split.outer[d]), rest = product(split.rest[d]);
    if (size % (outer * rest) || size / (outer * rest) != l.getDimSize(d))
      return {};
    shape.push_back(size / outer);
  }
  return g.clone(shape);
}

/// Makes `arg` device-local level by level while every use of it is one
/// all_slice: the levels of a padded tiling do not merge into one slice
/// (the collective optimizer leaves padded slices alone), and a level left
/// to a slice of the argument would keep that whole dimension on every
/// device (the vocabulary of an embedding table). A level on axes in
/// `whole` stops there: the argument takes the level's outer part, and its
/// readers slice the rest of it locally. The dims of all levels; empty if
/// the argument stays global.
static DimAxes localizeArgument(BlockArgument arg, ArrayRef<std::string> whole,
                                partir::MeshAttr mesh) {
  DimAxes dims;
  while (AllSliceOp slice = commonSlice(arg)) {
    WholeSplit split = splitWhole(slice.getDims(), whole);
    if (split.keepsNone()) {
      appendLevel(dims, slice.getDims());
      localizeTarget(arg, slice.getType(), slice.getDims());
      continue;
    }
    Type local = split.keepsAll()
                     ? Type()
                     : outerType(arg.getType(), slice.getType(), split, mesh);
    if (!local)
      break;
    ArrayAttr rest = buildDimAxes(arg.getContext(), split.rest);
    for (Operation *user : arg.getUsers())
      cast<AllSliceOp>(user).setDimsAttr(rest);
    arg.setType(local);
    appendLevel(dims, buildDimAxes(arg.getContext(), split.outer));
    break;
  }
  return dims;
}

/// Makes the returned `operand` pass the device-local value, dropping its
/// all_gathers level by level (padded levels do not merge into one
/// gather). A gather on axes in `whole` stays for them: the result keeps
/// only the gather's outer part tiled. The dims of all levels, outermost
/// first; empty if it is not gathered.
static DimAxes localizeResult(OpOperand &operand, ArrayRef<std::string> whole,
                              partir::MeshAttr mesh) {
  DimAxes dims;
  while (auto gather = operand.get().getDefiningOp<AllGatherOp>()) {
    WholeSplit split = splitWhole(gather.getDims(), whole);
    if (split.keepsNone()) {
      appendLevel(dims, gather.getDims());
      operand.set(gather.getOperand());
      if (gather->use_empty())
        gather.erase();
      continue;
    }
    Type local = split.keepsAll()
                     ? Type()
                     : outerType(gather.getType(),
                                 gather.getOperand().getType(), split, mesh);
    if (!local)
      break;
    OpBuilder b(gather);
    operand.set(AllGatherOp::create(b, gather.getLoc(), local,
                                    gather.getOperand(),
                                    buildDimAxes(b.getContext(), split.rest)));
    if (gather->use_empty())
      gather.erase();
    appendLevel(dims, buildDimAxes(b.getContext(), split.outer));
    break;
  }
  return dims;
}

/// The axes argument (or result) `i` of `func` is kept whole on
/// (materializeCore's `partir.keep_whole`), which lowering consumes.
static SmallVector<std::string> takeKeepWhole(func::FuncOp func, unsigned i,
                                              bool result) {
  StringRef name = kKeepWholeAttr;
  Attribute attr =
      result ? func.getResultAttr(i, name) : func.getArgAttr(i, name);
  SmallVector<std::string> axes;
  if (auto list = dyn_cast_or_null<ArrayAttr>(attr))
    for (Attribute axis : list)
      if (auto str = dyn_cast<StringAttr>(axis))
        axes.push_back(str.str());
  if (attr && result)
    func.removeResultAttr(i, StringAttr::get(func.getContext(), name));
  else if (attr)
    func.removeArgAttr(i, StringAttr::get(func.getContext(), name));
  return axes;
}

void dropKeepWhole(func::FuncOp func) {
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    takeKeepWhole(func, i, /*result=*/false);
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
    takeKeepWhole(func, i, /*result=*/true);
}

void makeBoundaryDeviceLocal(func::FuncOp func, partir::MeshAttr mesh) {
  StringRef globalShapeAttr = "toast.global_shape";
  MLIRContext *ctx = func.getContext();
  // A user's sharding annotation that no import read describes the global
  // value on the user's mesh; on a device-local boundary it would be read
  // as that of the shard.
  for (StringRef stale : {"mhlo.sharding", "sdy.sharding"}) {
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      func.removeArgAttr(i, stale);
    for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
      func.removeResultAttr(i, StringAttr::get(ctx, stale));
  }
  StringRef shardingAttr = "partir.sharding";
  for (BlockArgument arg : func.getArguments()) {
    Type global = arg.getType();
    DimAxes levels = localizeArgument(
        arg, takeKeepWhole(func, arg.getArgNumber(), /*result=*/false), mesh);
    if (levels.empty())
      continue;
    ArrayAttr dims = buildDimAxes(ctx, levels);
    if (auto shape = paddedGlobalShape(global, arg.getType(), dims, mesh))
      func.setArgAttr(arg.getArgNumber(), globalShapeAttr, shape);
    func.setArgAttr(arg.getArgNumber(), shardingAttr, dims);
  }
  SmallVector<SmallVector<std::string>> wholeResults;
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
    wholeResults.push_back(takeKeepWhole(func, i, /*result=*/true));
  func.walk([&](func::ReturnOp ret) {
    for (OpOperand &operand : ret->getOpOperands()) {
      Type global = operand.get().getType();
      DimAxes levels = localizeResult(
          operand, wholeResults[operand.getOperandNumber()], mesh);
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
