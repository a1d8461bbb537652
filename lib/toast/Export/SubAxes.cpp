//===- SubAxes.cpp - Mesh axes split where sub-axes cut them --------------===//
//
// See SubAxes.h.
//
//===----------------------------------------------------------------------===//

#include "SubAxes.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace toast::xla {

std::string getPieceName(StringRef axis, int64_t lo, int64_t hi) {
  return (axis + ":(" + Twine(lo) + ")" + Twine(hi / lo)).str();
}

FailureOr<AxisSplit> AxisSplit::build(sdy::MeshAttr mesh,
                                      ArrayRef<sdy::AxisRefAttr> refs,
                                      std::string &error) {
  AxisSplit split;
  for (auto [name, size] :
       llvm::zip_equal(mesh.getAxisNames(), mesh.getAxisSizes())) {
    Axis &axis = split.axes.emplace_back();
    axis.name = name.str();
    axis.size = size;
    axis.cuts = {1, size};
  }
  for (sdy::AxisRefAttr ref : refs) {
    if (!ref.isSubAxis())
      continue;
    auto *axis = llvm::find_if(
        split.axes, [&](const Axis &a) { return a.name == ref.getAxisName(); });
    if (axis == split.axes.end())
      continue; // the sdy verifier reports unknown axes
    axis->cuts.push_back(ref.getPreSize());
    axis->cuts.push_back(ref.getPreSize() * ref.getSubSize());
  }
  for (Axis &axis : split.axes) {
    llvm::sort(axis.cuts);
    axis.cuts.erase(llvm::unique(axis.cuts), axis.cuts.end());
    // Each piece is a factor of the axis only if every cut divides the next.
    for (auto [lo, hi] : llvm::zip(axis.cuts, llvm::drop_begin(axis.cuts)))
      if (hi % lo != 0)
        return error = "the sub-axes of axis \"" + axis.name +
                       "\" split it in ways that do not nest (at " +
                       std::to_string(lo) + " and " + std::to_string(hi) +
                       " devices)",
               failure();
  }
  return split;
}

/// Parses a piece name `x:(m)k`.
static bool parsePiece(StringRef name, StringRef &axis, int64_t &pre,
                       int64_t &size) {
  size_t colon = name.rfind(":(");
  if (colon == StringRef::npos)
    return false;
  axis = name.take_front(colon);
  StringRef rest = name.drop_front(colon + 2);
  auto [preText, sizeText] = rest.split(')');
  return !axis.empty() && !preText.getAsInteger(10, pre) &&
         !sizeText.getAsInteger(10, size) && pre >= 1 && size > 1;
}

AxisSplit AxisSplit::fromPieces(ArrayRef<MeshAxis> pieces) {
  AxisSplit split;
  // The piece name of each axis started by a piece `x:(1)k`, which the next
  // pieces of "x" continue; an axis of one piece keeps that name.
  SmallVector<std::string> firstPiece;
  for (const MeshAxis &piece : pieces) {
    StringRef axis;
    int64_t pre = 0, size = 0;
    bool isPiece =
        parsePiece(piece.name, axis, pre, size) && size == piece.size;
    if (isPiece && !firstPiece.empty() && !firstPiece.back().empty() &&
        split.axes.back().name == axis &&
        split.axes.back().cuts.back() == pre) {
      Axis &last = split.axes.back();
      last.cuts.push_back(pre * size);
      last.size = pre * size;
      continue;
    }
    bool starts = isPiece && pre == 1;
    firstPiece.push_back(starts ? piece.name : "");
    split.axes.push_back(
        {starts ? axis.str() : piece.name, piece.size, {1, piece.size}});
  }
  for (auto [axis, first] : llvm::zip_equal(split.axes, firstPiece))
    if (axis.cuts.size() == 2 && !first.empty())
      axis.name = first;
  return split;
}

bool AxisSplit::isSplit() const {
  return llvm::any_of(axes, [](const Axis &a) { return a.cuts.size() > 2; });
}

SmallVector<MeshAxis> AxisSplit::getPieces() const {
  SmallVector<MeshAxis> pieces;
  for (const Axis &axis : axes) {
    if (axis.cuts.size() <= 2) {
      pieces.push_back({axis.name, axis.size});
      continue;
    }
    for (auto [lo, hi] : llvm::zip(axis.cuts, llvm::drop_begin(axis.cuts)))
      pieces.push_back({getPieceName(axis.name, lo, hi), hi / lo});
  }
  return pieces;
}

static sdy::MeshAttr toSdyMesh(MLIRContext *ctx, ArrayRef<MeshAxis> axes) {
  SmallVector<StringAttr> names;
  SmallVector<int64_t> sizes;
  for (const MeshAxis &axis : axes) {
    names.push_back(StringAttr::get(ctx, axis.name));
    sizes.push_back(axis.size);
  }
  return sdy::MeshAttr::get(ctx, names, sizes, {});
}

sdy::MeshAttr AxisSplit::getUserMesh(MLIRContext *ctx) const {
  SmallVector<MeshAxis> whole;
  for (const Axis &axis : axes)
    whole.push_back({axis.name, axis.size});
  return toSdyMesh(ctx, whole);
}

sdy::MeshAttr AxisSplit::getPieceMesh(MLIRContext *ctx) const {
  return toSdyMesh(ctx, getPieces());
}

const AxisSplit::Axis *AxisSplit::find(StringRef name) const {
  auto *it = llvm::find_if(axes, [&](const Axis &a) { return a.name == name; });
  return it == axes.end() ? nullptr : it;
}

SmallVector<std::string> AxisSplit::expand(sdy::AxisRefAttr ref) const {
  const Axis *axis = find(ref.getAxisName());
  if (!axis)
    return {};
  if (axis->cuts.size() <= 2)
    return {axis->name};
  int64_t from = ref.isSubAxis() ? ref.getPreSize() : 1;
  int64_t to = ref.isSubAxis() ? from * ref.getSubSize() : axis->size;
  SmallVector<std::string> pieces;
  for (auto [lo, hi] : llvm::zip(axis->cuts, llvm::drop_begin(axis->cuts)))
    if (lo >= from && hi <= to)
      pieces.push_back(getPieceName(axis->name, lo, hi));
  return pieces;
}

SmallVector<sdy::AxisRefAttr>
AxisSplit::join(MLIRContext *ctx, ArrayRef<std::string> pieces) const {
  // Runs of consecutive pieces of one axis: (axis, lo, hi).
  struct Run {
    const Axis *axis;
    std::string name;
    int64_t lo, hi;
  };
  SmallVector<Run> runs;
  for (const std::string &name : pieces) {
    StringRef base;
    int64_t pre = 0, size = 0;
    const Axis *axis = nullptr;
    if (parsePiece(name, base, pre, size))
      axis = find(base);
    if (!axis || axis->cuts.size() <= 2) {
      runs.push_back({nullptr, name, 0, 0});
      continue;
    }
    if (!runs.empty() && runs.back().axis == axis && runs.back().hi == pre) {
      runs.back().hi = pre * size;
      continue;
    }
    runs.push_back({axis, axis->name, pre, pre * size});
  }
  SmallVector<sdy::AxisRefAttr> refs;
  for (const Run &run : runs) {
    auto name = StringAttr::get(ctx, run.name);
    if (!run.axis || (run.lo == 1 && run.hi == run.axis->size))
      refs.push_back(sdy::AxisRefAttr::get(name));
    else
      refs.push_back(sdy::AxisRefAttr::get(ctx, name, run.lo, run.hi / run.lo));
  }
  return refs;
}

SmallVector<sdy::AxisRefAttr>
AxisSplit::expandRefs(MLIRContext *ctx, ArrayRef<sdy::AxisRefAttr> refs) const {
  SmallVector<sdy::AxisRefAttr> result;
  for (sdy::AxisRefAttr ref : refs)
    for (const std::string &piece : expand(ref))
      result.push_back(sdy::AxisRefAttr::get(StringAttr::get(ctx, piece)));
  return result;
}

SmallVector<sdy::AxisRefAttr>
AxisSplit::joinRefs(MLIRContext *ctx, ArrayRef<sdy::AxisRefAttr> refs) const {
  SmallVector<std::string> names;
  for (sdy::AxisRefAttr ref : refs)
    names.push_back(ref.getAxisName().str());
  return join(ctx, names);
}

/// `sharding` with every axis list mapped by `map`, on the mesh `mesh`.
template <typename Map>
static sdy::TensorShardingAttr mapSharding(sdy::TensorShardingAttr sharding,
                                           Attribute mesh, Map map) {
  MLIRContext *ctx = sharding.getContext();
  SmallVector<sdy::DimensionShardingAttr> dims;
  for (sdy::DimensionShardingAttr dim : sharding.getDimShardings())
    dims.push_back(sdy::DimensionShardingAttr::get(
        ctx, map(dim.getAxes()), dim.getIsClosed(), dim.getPriority()));
  return sdy::TensorShardingAttr::get(ctx, mesh, dims,
                                      map(sharding.getReplicatedAxes()),
                                      map(sharding.getUnreducedAxes()));
}

sdy::TensorShardingAttr
AxisSplit::toPieces(sdy::TensorShardingAttr sharding) const {
  MLIRContext *ctx = sharding.getContext();
  return mapSharding(
      sharding, getPieceMesh(ctx),
      [&](ArrayRef<sdy::AxisRefAttr> refs) { return expandRefs(ctx, refs); });
}

sdy::TensorShardingAttr AxisSplit::fromPieces(sdy::TensorShardingAttr sharding,
                                              FlatSymbolRefAttr mesh) const {
  MLIRContext *ctx = sharding.getContext();
  return mapSharding(sharding, mesh, [&](ArrayRef<sdy::AxisRefAttr> refs) {
    return joinRefs(ctx, refs);
  });
}

void rewriteRegion(
    sdy::ManualComputationOp op,
    function_ref<sdy::TensorShardingAttr(sdy::TensorShardingAttr)> map,
    ArrayRef<std::string> manualAxes) {
  MLIRContext *ctx = op.getContext();
  auto mapAll = [&](sdy::TensorShardingPerValueAttr shardings) {
    return sdy::TensorShardingPerValueAttr::get(
        ctx, llvm::map_to_vector(shardings.getShardings(), map));
  };
  op.setInShardingsAttr(mapAll(op.getInShardings()));
  op.setOutShardingsAttr(mapAll(op.getOutShardings()));
  op.setManualAxesAttr(ArrayAttr::get(
      ctx, llvm::map_to_vector(manualAxes, [&](const std::string &axis) {
        return Attribute(StringAttr::get(ctx, axis));
      })));
}

} // namespace toast::xla
