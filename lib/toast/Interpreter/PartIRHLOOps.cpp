//===- PartIRHLOOps.cpp - PartIR:HLO collectives on simulated devices -----===//
//
// A PartIR:HLO collective over mesh axes A acts within the group of devices
// that differ only in their coordinates on A, listed row-major over A in
// the given order (computeReplicaGroups, as the export writes them). A
// device's position in that group is the index of its chunk along a
// dimension split by A. With that, per the dialect's definitions:
//  * all_slice keeps the device's chunk of each split dimension (padded
//    with zeros where the axes do not divide it);
//  * all_gather concatenates the group's values, one split dimension at a
//    time (the dimensions' axes are disjoint), and drops the padding;
//  * all_reduce folds the group's values in group order;
//  * reduce_scatter = all_reduce over all its axes, then all_slice;
//  * all_to_all g -> s = all_gather along g, then all_slice along s.
//
//===----------------------------------------------------------------------===//

#include "Collectives.h"

#include "toast/Dialect/PartIR/HLO/IR/PartIRHLO.h"
#include "toast/Export/ReplicaGroups.h"

using namespace mlir;
using namespace toast::interp;
using namespace toast::interp::detail;
namespace phlo = toast::partir_hlo;

namespace {

/// The executing device's group over `axes`.
FailureOr<SmallVector<int64_t>> groupOver(const SpmdContext &spmd,
                                          Operation *op,
                                          ArrayRef<std::string> axes) {
  SmallVector<StringRef> names(axes.begin(), axes.end());
  auto groups = toast::xla::computeReplicaGroups(spmd.getMeshAxes(), names);
  if (failed(groups)) {
    InFlightDiagnostic diag = op->emitError("toast-run: axes [");
    llvm::interleaveComma(axes, diag);
    diag << "] are not distinct axes of the mesh";
    return failure();
  }
  for (const auto &group : *groups)
    if (llvm::is_contained(group, spmd.getDeviceId()))
      return group;
  llvm_unreachable("every device is in one group");
}

/// The value `x` of every member of `group` at `op`, in group order.
FailureOr<SmallVector<Tensor>> collectValues(SpmdContext &spmd, Operation *op,
                                             const Tensor &x,
                                             ArrayRef<int64_t> group) {
  auto members = collectGroup(spmd, op, {x}, group);
  if (failed(members))
    return failure();
  SmallVector<Tensor> values;
  for (auto &member : *members)
    values.push_back(member.front());
  return values;
}

/// `["x"=4, "y"=2]`.
std::string formatMesh(ArrayRef<toast::xla::MeshAxis> mesh) {
  std::string text = "[";
  for (auto [k, axis] : llvm::enumerate(mesh))
    text += (k ? ", \"" : "\"") + axis.name + "\"=" + std::to_string(axis.size);
  return text + "]";
}

/// How the run formed the groups of `op`, for checkResult: from the run's
/// mesh (the entry function's). The verifier checked the op's types
/// against the mesh of the op's own function or module, which can be
/// another one in a function that the entry calls (each function may carry
/// its own partir.mesh).
std::string describeRunMesh(const SpmdContext &spmd, Operation *op) {
  std::string text = "on the run's mesh " + formatMesh(spmd.getMeshAxes());
  if (auto own = toast::partir::getMesh(op))
    text += " (the op's types are for its partir.mesh " +
            formatMesh(toast::xla::getMeshAxes(own)) + ")";
  return text;
}

LogicalResult checkOnRunMesh(const SpmdContext &spmd, Operation *op,
                             const Tensor &value) {
  return checkResult(op, 0, value, [&] { return describeRunMesh(spmd, op); });
}

/// Evaluates `op` within the executing device's group over `axes`
/// (evalWithinGroup).
LogicalResult evalOverAxes(SpmdContext &spmd, Operation *op,
                           ArrayRef<Tensor> operands,
                           ArrayRef<std::string> axes, PerOperandFn compute,
                           SmallVectorImpl<Tensor> &results) {
  auto group = groupOver(spmd, op, axes);
  if (failed(group))
    return failure();
  return evalWithinGroup(
      spmd, op, operands, *group, compute,
      [&] { return describeRunMesh(spmd, op); }, results);
}

/// Keeps the executing device's chunk along every dimension with axes;
/// `padded` (all_slice) pads dimensions the axes do not divide.
FailureOr<Tensor> sliceOwnChunks(const SpmdContext &spmd, Operation *op,
                                 Tensor x, const phlo::DimAxes &dims,
                                 bool padded = false) {
  for (auto [d, axes] : llvm::enumerate(dims)) {
    if (axes.empty())
      continue;
    auto group = groupOver(spmd, op, axes);
    if (failed(group))
      return failure();
    int64_t position = positionIn(*group, spmd.getDeviceId());
    x = padded ? paddedChunkOf(x, d, group->size(), position)
               : chunkOf(x, d, group->size(), position);
  }
  return x;
}

LogicalResult evalAllSlice(Interpreter &interp, Operation *op,
                           ArrayRef<Tensor> operands,
                           SmallVectorImpl<Tensor> &results) {
  SpmdContext *spmd = getSpmdContext(interp, op);
  if (!spmd)
    return failure();
  auto dims = phlo::getDimAxes(cast<phlo::AllSliceOp>(op).getDims());
  auto sliced = sliceOwnChunks(*spmd, op, operands[0], dims, /*padded=*/true);
  if (failed(sliced) || failed(checkOnRunMesh(*spmd, op, *sliced)))
    return failure();
  results.push_back(std::move(*sliced));
  return success();
}

LogicalResult evalAllGather(Interpreter &interp, Operation *op,
                            ArrayRef<Tensor> operands,
                            SmallVectorImpl<Tensor> &results) {
  SpmdContext *spmd = getSpmdContext(interp, op);
  if (!spmd)
    return failure();
  Tensor current = operands[0];
  auto dims = phlo::getDimAxes(cast<phlo::AllGatherOp>(op).getDims());
  for (auto [d, axes] : llvm::enumerate(dims)) {
    if (axes.empty())
      continue;
    auto group = groupOver(*spmd, op, axes);
    if (failed(group))
      return failure();
    auto parts = collectValues(*spmd, op, current, *group);
    if (failed(parts))
      return failure();
    int64_t chunk = current.getDim(d);
    current = concatenate(*parts, d);
    // A padded gather drops the padding past the result's size (on the
    // run's mesh, the result type may not be a padded gather at all:
    // checkOnRunMesh reports that).
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    int64_t size = type.getDimSize(d);
    if (size < current.getDim(d) &&
        toast::partir::chunkSize(size, group->size()) == chunk) {
      SmallVector<int64_t> bounds(current.getShape());
      bounds[d] = size;
      current = clipBlock(current, SmallVector<int64_t>(bounds.size(), 0),
                          bounds);
    }
  }
  if (failed(checkOnRunMesh(*spmd, op, current)))
    return failure();
  results.push_back(std::move(current));
  return success();
}

/// The combiner of a PartIR:HLO reduction name; on i1, sum and max are
/// `or`, prod and min are `and` (as the export writes them).
FailureOr<Combiner> combinerOf(Operation *op, StringRef reduction,
                               const Tensor &x) {
  bool isBool = x.getElementType().getKind() == ElementKind::Bool;
  if (reduction == "sum" || reduction == "max")
    return isBool ? Combiner::Or
                  : (reduction == "sum" ? Combiner::Add : Combiner::Max);
  if (reduction == "prod" || reduction == "min")
    return isBool ? Combiner::And
                  : (reduction == "prod" ? Combiner::Mul : Combiner::Min);
  return op->emitError("toast-run: unsupported reduction \"")
         << reduction << "\" (expected sum, max, min or prod)";
}

LogicalResult evalAllReduce(Interpreter &interp, Operation *op,
                            ArrayRef<Tensor> operands,
                            SmallVectorImpl<Tensor> &results) {
  auto reduce = cast<phlo::AllReduceOp>(op);
  SpmdContext *spmd = getSpmdContext(interp, op);
  if (!spmd)
    return failure();
  auto combiner = combinerOf(op, reduce.getReduction(), operands[0]);
  if (failed(combiner))
    return failure();
  return evalOverAxes(
      *spmd, op, operands, phlo::getAxisNames(reduce.getAxes()),
      [&](ArrayRef<Tensor> values, int64_t) {
        return reduceValues(interp, nullptr, *combiner, values);
      },
      results);
}

LogicalResult evalReduceScatter(Interpreter &interp, Operation *op,
                                ArrayRef<Tensor> operands,
                                SmallVectorImpl<Tensor> &results) {
  auto scatter = cast<phlo::ReduceScatterOp>(op);
  SpmdContext *spmd = getSpmdContext(interp, op);
  if (!spmd)
    return failure();
  auto combiner = combinerOf(op, scatter.getReduction(), operands[0]);
  if (failed(combiner))
    return failure();
  phlo::DimAxes dims = phlo::getDimAxes(scatter.getDims());
  SmallVector<std::string> allAxes;
  for (const auto &axes : dims)
    allAxes.append(axes.begin(), axes.end());
  return evalOverAxes(
      *spmd, op, operands, allAxes,
      [&](ArrayRef<Tensor> values, int64_t) -> FailureOr<Tensor> {
        auto reduced = reduceValues(interp, nullptr, *combiner, values);
        if (failed(reduced))
          return failure();
        return sliceOwnChunks(*spmd, op, *reduced, dims);
      },
      results);
}

LogicalResult evalAllToAll(Interpreter &interp, Operation *op,
                           ArrayRef<Tensor> operands,
                           SmallVectorImpl<Tensor> &results) {
  auto a2a = cast<phlo::AllToAllOp>(op);
  SpmdContext *spmd = getSpmdContext(interp, op);
  if (!spmd)
    return failure();
  return evalOverAxes(
      *spmd, op, operands, phlo::getAxisNames(a2a.getAxes()),
      [&](ArrayRef<Tensor> values, int64_t position) -> FailureOr<Tensor> {
        return allToAll(values, a2a.getSliceDim(), a2a.getGatherDim(),
                        position);
      },
      results);
}

} // namespace

void toast::interp::detail::registerPartIRHLOOps(OpRegistry &r) {
  r.add("partir_hlo.all_slice", evalAllSlice);
  r.add("partir_hlo.all_gather", evalAllGather);
  r.add("partir_hlo.all_reduce", evalAllReduce);
  r.add("partir_hlo.reduce_scatter", evalReduceScatter);
  r.add("partir_hlo.all_to_all", evalAllToAll);
}
