//===- SdyCollectives.cpp - Verifiers of the sdy collectives --------------===//
//
// The sdy collectives work on global shapes and change a value's sharding:
// the operand has the sharding its producer gives it (replicated when none
// is known), the result has `out_sharding`. Each verifier checks that the
// collective's axes turn the one into the other, as Shardy defines them.
// Also the verifier of reshard.
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/Sdy/IR/Sdy.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace toast::sdy;

std::string toast::sdy::formatAxisRefs(ArrayRef<AxisRefAttr> refs) {
  std::string s = "{";
  for (auto [i, ref] : llvm::enumerate(refs))
    s += (i ? ", " : "") + ref.str();
  return s + "}";
}

TensorShardingAttr toast::sdy::getSharding(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto func = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (!func || arg.getOwner() != &func.getFunctionBody().front())
      return {};
    return func.getArgAttrOfType<TensorShardingAttr>(
        arg.getArgNumber(), SdyDialect::kShardingAttrName);
  }
  Operation *op = value.getDefiningOp();
  unsigned index = cast<OpResult>(value).getResultNumber();
  if (auto constraint = dyn_cast<ShardingConstraintOp>(op))
    return constraint.getSharding();
  if (auto reshard = dyn_cast<ReshardOp>(op))
    return reshard.getSharding();
  if (auto manual = dyn_cast<ManualComputationOp>(op))
    return manual.getOutShardings().getShardings()[index];
  if (auto out = op->getAttrOfType<TensorShardingAttr>("out_sharding"))
    if (op->getDialect() && isa<SdyDialect>(op->getDialect()))
      return out;
  if (auto perValue = op->getAttrOfType<TensorShardingPerValueAttr>(
          SdyDialect::kShardingAttrName))
    if (index < perValue.getShardings().size())
      return perValue.getShardings()[index];
  return {};
}

int64_t toast::sdy::getShardCount(TensorShardingAttr sharding, int64_t dim,
                                  MeshAttr mesh,
                                  function_ref<bool(AxisRefAttr)> pick) {
  int64_t count = 1;
  for (AxisRefAttr ref : sharding.getDimShardings()[dim].getAxes())
    if (!pick || pick(ref))
      count *= std::max<int64_t>(ref.getSize(mesh), 1);
  return count;
}

namespace {
/// The per-dimension axes of a collective's operand and result.
struct CollectiveLayouts {
  SmallVector<SmallVector<AxisRefAttr>> in, out;
  MeshAttr mesh;
  FlatSymbolRefAttr meshName;
};
} // namespace

static SmallVector<SmallVector<AxisRefAttr>>
dimAxes(TensorShardingAttr sharding, int64_t rank) {
  SmallVector<SmallVector<AxisRefAttr>> dims(rank);
  if (sharding)
    for (auto [d, dim] : llvm::enumerate(sharding.getDimShardings()))
      dims[d].assign(dim.getAxes().begin(), dim.getAxes().end());
  return dims;
}

/// Verifies `out_sharding` and reads the operand's sharding (replicated
/// when unknown); both must use one mesh.
static FailureOr<CollectiveLayouts> readLayouts(Operation *op, Value operand,
                                                TensorShardingAttr out) {
  auto emit = [&] { return op->emitOpError(); };
  if (failed(out.verifyFor(operand.getType(), op, emit)))
    return failure();
  CollectiveLayouts layouts;
  layouts.mesh = out.getMesh(op);
  layouts.meshName = out.getMeshName();
  int64_t rank = cast<RankedTensorType>(operand.getType()).getRank();
  TensorShardingAttr in = getSharding(operand);
  if (in && in.getMesh(op) != layouts.mesh)
    return op->emitOpError() << "the operand's sharding " << in.str()
                             << " and out_sharding use different meshes";
  layouts.in = dimAxes(in, rank);
  layouts.out = dimAxes(out, rank);
  return layouts;
}

/// Checks in every dimension that `in ++ axes == out` (or, when `removes`,
/// `out ++ axes == in`); `rule` says in words what the collective does,
/// for the error.
static LogicalResult verifyAppended(Operation *op,
                                    const CollectiveLayouts &layouts,
                                    ArrayRef<ArrayRef<AxisRefAttr>> axes,
                                    bool removes, StringRef rule) {
  for (size_t d = 0; d < layouts.in.size(); ++d) {
    const SmallVector<AxisRefAttr> &shorter =
        removes ? layouts.out[d] : layouts.in[d];
    const SmallVector<AxisRefAttr> &longer =
        removes ? layouts.in[d] : layouts.out[d];
    SmallVector<AxisRefAttr> expected(shorter);
    llvm::append_range(expected, axes[d]);
    if (expected != longer)
      return op->emitOpError()
             << "dimension " << d << ": " << rule << " (operand "
             << formatAxisRefs(layouts.in[d]) << ", axes "
             << formatAxisRefs(axes[d]) << ", result "
             << formatAxisRefs(layouts.out[d]) << ")";
  }
  return success();
}

/// Shared by all_gather, all_slice and reduce_scatter: `lists` has one
/// entry per dimension, and its axes exist and are disjoint.
static FailureOr<SmallVector<ArrayRef<AxisRefAttr>>>
readAxisLists(Operation *op, ListOfAxisRefListsAttr lists,
              const CollectiveLayouts &layouts) {
  if (lists.getLists().size() != layouts.in.size())
    return op->emitOpError()
           << "has " << lists.getLists().size()
           << " axis lists for a tensor of rank " << layouts.in.size();
  SmallVector<ArrayRef<AxisRefAttr>> axes;
  SmallVector<AxisRefAttr> all;
  for (AxisRefListAttr list : lists.getLists()) {
    axes.push_back(list.getAxes());
    llvm::append_range(all, list.getAxes());
  }
  if (failed(verifyDisjointAxisRefs(all, layouts.mesh, layouts.meshName,
                                    [&] { return op->emitOpError(); })))
    return failure();
  return axes;
}

/// all_gather / all_slice / reduce_scatter.
template <typename OpTy>
static LogicalResult verifyDimCollective(OpTy op, ListOfAxisRefListsAttr lists,
                                         bool removes, StringRef rule) {
  FailureOr<CollectiveLayouts> layouts =
      readLayouts(op, op.getTensor(), op.getOutSharding());
  if (failed(layouts))
    return failure();
  auto axes = readAxisLists(op, lists, *layouts);
  if (failed(axes))
    return failure();
  return verifyAppended(op, *layouts, *axes, removes, rule);
}

LogicalResult AllGatherOp::verifySymbolUses(SymbolTableCollection &) {
  return verifyDimCollective(*this, getGatheringAxes(), /*removes=*/true,
                             "the operand's axes must be the result's "
                             "followed by the gathered axes");
}

LogicalResult AllSliceOp::verifySymbolUses(SymbolTableCollection &) {
  return verifyDimCollective(*this, getSlicingAxes(), /*removes=*/false,
                             "the result's axes must be the operand's "
                             "followed by the sliced axes");
}

LogicalResult ReduceScatterOp::verifySymbolUses(SymbolTableCollection &) {
  return verifyDimCollective(*this, getReduceScatterAxes(), /*removes=*/false,
                             "the result's axes must be the operand's "
                             "followed by the scattered axes");
}

LogicalResult AllReduceOp::verifySymbolUses(SymbolTableCollection &) {
  FailureOr<CollectiveLayouts> layouts =
      readLayouts(*this, getTensor(), getOutSharding());
  if (failed(layouts))
    return failure();
  ArrayRef<AxisRefAttr> reduced = getReductionAxes().getAxes();
  if (failed(verifyDisjointAxisRefs(reduced, layouts->mesh, layouts->meshName,
                                    [&] { return emitOpError(); })))
    return failure();
  for (auto [d, axes] : llvm::enumerate(layouts->out)) {
    for (AxisRefAttr ref : reduced)
      for (AxisRefAttr used : axes)
        if (ref.overlaps(used))
          return emitOpError()
                 << "reduction axis " << ref.str() << " also shards dimension "
                 << d << " of the result";
    if (layouts->in[d] != axes)
      return emitOpError() << "dimension " << d
                           << ": all_reduce keeps the dimension shardings, "
                              "but the operand has "
                           << formatAxisRefs(layouts->in[d])
                           << " and the result " << formatAxisRefs(axes);
  }
  return success();
}

LogicalResult AllToAllOp::verifySymbolUses(SymbolTableCollection &) {
  FailureOr<CollectiveLayouts> layouts =
      readLayouts(*this, getTensor(), getOutSharding());
  if (failed(layouts))
    return failure();
  int64_t rank = layouts->in.size();
  SmallVector<SmallVector<AxisRefAttr>> moved = layouts->in;
  for (AllToAllParamAttr param : getParams().getParams()) {
    int64_t src = param.getSrcDim(), tgt = param.getTgtDim();
    if (src < 0 || src >= rank || tgt < 0 || tgt >= rank || src == tgt)
      return emitOpError() << "moves axes from dimension " << src << " to "
                           << tgt << ", which must be two different "
                           << "dimensions in [0, " << rank << ")";
    ArrayRef<AxisRefAttr> axes = param.getAxes();
    ArrayRef<AxisRefAttr> from = moved[src];
    if (axes.empty() || from.size() < axes.size() ||
        from.take_back(axes.size()) != axes)
      return emitOpError() << "dimension " << src << " is sharded on "
                           << formatAxisRefs(from) << ", which does not end "
                           << "with the moved axes " << formatAxisRefs(axes);
    moved[src].resize(from.size() - axes.size());
    llvm::append_range(moved[tgt], axes);
  }
  for (int64_t d = 0; d < rank; ++d)
    if (moved[d] != layouts->out[d])
      return emitOpError() << "dimension " << d << ": moving the axes gives "
                           << formatAxisRefs(moved[d]) << " but out_sharding "
                           << "has " << formatAxisRefs(layouts->out[d]);
  return success();
}

LogicalResult CollectivePermuteOp::verifySymbolUses(SymbolTableCollection &) {
  FailureOr<CollectiveLayouts> layouts =
      readLayouts(*this, getTensor(), getOutSharding());
  if (failed(layouts))
    return failure();
  auto count = [&](ArrayRef<AxisRefAttr> axes) {
    int64_t n = 1;
    for (AxisRefAttr ref : axes)
      n *= ref.getSize(layouts->mesh);
    return n;
  };
  for (int64_t d = 0, rank = layouts->in.size(); d < rank; ++d)
    if (count(layouts->in[d]) != count(layouts->out[d]))
      return emitOpError() << "dimension " << d << " is split in "
                           << count(layouts->in[d]) << " by the operand's "
                           << formatAxisRefs(layouts->in[d]) << " but in "
                           << count(layouts->out[d]) << " by the result's "
                           << formatAxisRefs(layouts->out[d])
                           << "; a collective_permute keeps the shard sizes";
  return success();
}

LogicalResult ReshardOp::verifySymbolUses(SymbolTableCollection &) {
  return getSharding().verifyFor(getType(), *this,
                                 [&] { return emitOpError(); });
}
