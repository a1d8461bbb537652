//===- CollectiveOps.cpp - StableHLO collectives on simulated devices -----===//
//
// The StableHLO collectives (all_gather, all_reduce, reduce_scatter,
// all_to_all, collective_permute, collective_broadcast) and partition_id /
// replica_id, with the StableHLO specification's process groups for one
// replica and N partitions (the only configuration simulated):
//  * cross_replica (no channel, no use_global_device_ids): groups list
//    replica ids, so every device is alone in its group;
//  * cross_replica_and_partition (channel, no use_global_device_ids): the
//    single replica's group spans all partitions, in partition order;
//  * flattened_ids (channel and use_global_device_ids) and cross_partition
//    (channel; all_to_all, collective_permute, collective_broadcast): groups
//    list device ids, which is what --partir-export-stablehlo emits.
// Also the primitives of Collectives.h, shared with the PartIR:HLO ops.
//
//===----------------------------------------------------------------------===//

#include "Collectives.h"

#include "toast/Dialect/PartIR/Core/IR/PartIRCore.h"
#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

using namespace mlir;
using namespace toast::interp;
using namespace toast::interp::detail;
namespace hlo = toast::stablehlo;

//===----------------------------------------------------------------------===//
// Primitives
//===----------------------------------------------------------------------===//

SpmdContext *toast::interp::detail::getSpmdContext(Interpreter &interp,
                                                   Operation *op) {
  SpmdContext *spmd = interp.getOptions().spmd;
  if (!spmd)
    op->emitError("toast-run: '")
        << op->getName()
        << "' communicates between devices, but the program is not run SPMD "
           "(a device-local program needs partir.mesh or "
           "mhlo.num_partitions)";
  return spmd;
}

FailureOr<GroupOperands>
toast::interp::detail::collectGroup(SpmdContext &spmd, Operation *op,
                                    ArrayRef<Tensor> operands,
                                    ArrayRef<int64_t> group) {
  GroupOperands members(group.size());
  LogicalResult status = spmd.exchange(
      op, operands, [&](SpmdContext::Contributions all) {
        // Copies: the other devices' tensors are only ours to read until
        // the exchange ends.
        for (auto [k, device] : llvm::enumerate(group))
          for (const Tensor &t : all[device])
            members[k].push_back(extractBlock(
                t, SmallVector<int64_t>(t.getRank(), 0), t.getShape()));
        return success();
      });
  if (failed(status))
    return failure();
  return members;
}

int64_t toast::interp::detail::positionIn(ArrayRef<int64_t> group,
                                          int64_t device) {
  const int64_t *it = llvm::find(group, device);
  return it == group.end() ? -1 : it - group.begin();
}

Tensor toast::interp::detail::concatenate(ArrayRef<Tensor> parts,
                                          int64_t dim) {
  SmallVector<int64_t> shape(parts.front().getShape());
  shape[dim] = 0;
  for (const Tensor &part : parts)
    shape[dim] += part.getDim(dim);
  Tensor result(parts.front().getElementType(), shape);
  SmallVector<int64_t> offsets(shape.size(), 0);
  for (const Tensor &part : parts) {
    insertBlock(result, part, offsets);
    offsets[dim] += part.getDim(dim);
  }
  return result;
}

Tensor toast::interp::detail::chunkOf(const Tensor &x, int64_t dim,
                                      int64_t count, int64_t index) {
  SmallVector<int64_t> shape(x.getShape()), offsets(x.getRank(), 0);
  shape[dim] /= count;
  offsets[dim] = index * shape[dim];
  return extractBlock(x, offsets, shape);
}

Tensor toast::interp::detail::paddedChunkOf(const Tensor &x, int64_t dim,
                                            int64_t count, int64_t index) {
  SmallVector<int64_t> shape(x.getShape()), offsets(x.getRank(), 0);
  shape[dim] = toast::partir::chunkSize(shape[dim], count);
  offsets[dim] = index * shape[dim];
  return extractPaddedBlock(x, offsets, shape);
}

FailureOr<Tensor> toast::interp::detail::reduceValues(Interpreter &interp,
                                                      Region *region,
                                                      Combiner combiner,
                                                      ArrayRef<Tensor> values) {
  Tensor acc = values.front();
  // A combiner computes in the values' type; a body typed otherwise (a bf16
  // add over f32 values) rounds every step to its own type, as running it
  // does.
  if (region && getElementTypeOrSelf(region->getArgument(0).getType()) !=
                    acc.getElementType().getType())
    combiner = Combiner::None;
  for (const Tensor &x : values.drop_front()) {
    for (int64_t i = 0, n = acc.getNumElements(); i < n; ++i) {
      if (combiner != Combiner::None) {
        applyCombiner(combiner, acc, i, x, i);
        continue;
      }
      SmallVector<Tensor, 1> out;
      if (failed(runScalarRegion(interp, *region, {&acc, &x}, {i, i}, out)))
        return failure();
      acc.copyElement(i, out.front(), 0);
    }
  }
  return acc;
}

LogicalResult
toast::interp::detail::checkResult(Operation *op, unsigned i,
                                   const Tensor &value,
                                   function_ref<std::string()> describeGroups) {
  if (value.getType() == op->getResult(i).getType())
    return success();
  return op->emitError("toast-run: ")
         << describeGroups() << ", result #" << i << " would be "
         << value.getType() << ", not " << op->getResult(i).getType();
}

LogicalResult toast::interp::detail::evalWithinGroup(
    SpmdContext &spmd, Operation *op, ArrayRef<Tensor> operands,
    ArrayRef<int64_t> group, PerOperandFn compute,
    function_ref<std::string()> describeGroups,
    SmallVectorImpl<Tensor> &results) {
  auto members = collectGroup(spmd, op, operands, group);
  if (failed(members))
    return failure();
  int64_t position = positionIn(group, spmd.getDeviceId());
  for (unsigned j = 0; j < operands.size(); ++j) {
    SmallVector<Tensor> values;
    for (const auto &member : *members)
      values.push_back(member[j]);
    FailureOr<Tensor> value = compute(values, position);
    if (failed(value) || failed(checkResult(op, j, *value, describeGroups)))
      return failure();
    results.push_back(std::move(*value));
  }
  return success();
}

Tensor toast::interp::detail::allToAll(ArrayRef<Tensor> members,
                                       int64_t splitDim, int64_t concatDim,
                                       int64_t position) {
  SmallVector<Tensor> parts;
  int64_t count = members.size();
  for (const Tensor &member : members)
    parts.push_back(chunkOf(member, splitDim, count, position));
  return concatenate(parts, concatDim);
}

//===----------------------------------------------------------------------===//
// Process groups
//===----------------------------------------------------------------------===//

namespace {

enum class GroupMode {
  CrossReplica,
  CrossReplicaAndPartition,
  FlattenedIds,
  CrossPartition
};

bool hasChannel(Operation *op) {
  auto handle = op->getAttrOfType<hlo::ChannelHandleAttr>("channel_handle");
  return handle && handle.getHandle() > 0;
}

/// The mode of all_gather, all_reduce and reduce_scatter.
FailureOr<GroupMode> reductionMode(Operation *op) {
  bool channel = hasChannel(op), global = op->hasAttr("use_global_device_ids");
  if (global && !channel)
    return op->emitError("toast-run: use_global_device_ids needs a "
                         "channel_handle with a positive handle");
  if (global)
    return GroupMode::FlattenedIds;
  return channel ? GroupMode::CrossReplicaAndPartition
                 : GroupMode::CrossReplica;
}

/// The group of the executing device among `groups`, in `mode`; empty for
/// a collective_broadcast whose groups leave the device out.
FailureOr<SmallVector<int64_t>> resolveGroup(Operation *op,
                                             DenseIntElementsAttr groups,
                                             GroupMode mode,
                                             const SpmdContext &spmd) {
  bool deviceIds =
      mode == GroupMode::FlattenedIds || mode == GroupMode::CrossPartition;
  int64_t numIds = deviceIds ? spmd.getNumDevices() : 1;
  int64_t self = deviceIds ? spmd.getDeviceId() : 0;
  auto type = cast<ShapedType>(groups.getType());
  if (type.getRank() != 2)
    return op->emitError("toast-run: replica_groups must be a 2-d tensor");
  SmallVector<int64_t> values(groups.getValues<int64_t>());
  int64_t width = type.getDimSize(1);
  SmallVector<int64_t> mine;
  SmallVector<bool> seen(numIds, false);
  for (int64_t row = 0; width > 0 && row < type.getDimSize(0); ++row) {
    SmallVector<int64_t> group;
    for (int64_t id : ArrayRef(values).slice(row * width, width)) {
      if (id == -1)
        continue; // padding of shorter groups
      if (id < 0 || id >= numIds)
        return op->emitError("toast-run: replica_groups id ")
               << id << " is out of range: there "
               << (deviceIds ? "are " : "is ") << numIds
               << (deviceIds ? " devices" : " replica");
      if (seen[id])
        return op->emitError("toast-run: replica_groups id ")
               << id << " appears twice";
      seen[id] = true;
      group.push_back(id);
    }
    if (llvm::is_contained(group, self))
      mine = group;
  }
  if (values.empty())
    for (int64_t id = 0; id < numIds; ++id)
      mine.push_back(id);
  if (mine.empty()) {
    // The specification gives zeros to a device outside every group of a
    // collective_broadcast; the other collectives leave it undefined.
    if (isa<hlo::CollectiveBroadcastOp>(op))
      return mine;
    return op->emitError("toast-run: ")
           << (deviceIds ? "device " : "replica ") << self
           << " is in none of the replica_groups";
  }
  switch (mode) {
  case GroupMode::CrossReplica:
    return SmallVector<int64_t>{spmd.getDeviceId()};
  case GroupMode::CrossReplicaAndPartition: {
    SmallVector<int64_t> all;
    for (int64_t d = 0; d < spmd.getNumDevices(); ++d)
      all.push_back(d);
    return all;
  }
  default:
    return mine;
  }
}

/// Evaluates a StableHLO collective in `mode` (evalWithinGroup).
LogicalResult evalInMode(Interpreter &interp, Operation *op,
                         ArrayRef<Tensor> operands, FailureOr<GroupMode> mode,
                         PerOperandFn compute,
                         SmallVectorImpl<Tensor> &results) {
  SpmdContext *spmd = getSpmdContext(interp, op);
  if (!spmd || failed(mode))
    return failure();
  auto groups = op->getAttrOfType<DenseIntElementsAttr>("replica_groups");
  auto group = resolveGroup(op, groups, *mode, *spmd);
  if (failed(group))
    return failure();
  // The groups' size is what can disagree with the result types (of
  // all_gather, reduce_scatter and all_to_all).
  return evalWithinGroup(
      *spmd, op, operands, *group, compute,
      [&] {
        return "with groups of " + std::to_string(group->size()) + " devices";
      },
      results);
}

/// The first member's value, or zeros for a device that receives nothing
/// (collective_broadcast and collective_permute).
FailureOr<Tensor> firstOrZeros(Operation *op, ArrayRef<Tensor> values) {
  return values.empty() ? makeResult(op) : values.front();
}

//===----------------------------------------------------------------------===//
// Handlers
//===----------------------------------------------------------------------===//

LogicalResult evalAllGather(Interpreter &interp, Operation *op,
                            ArrayRef<Tensor> operands,
                            SmallVectorImpl<Tensor> &results) {
  int64_t dim = cast<hlo::AllGatherOp>(op).getAllGatherDim();
  return evalInMode(
      interp, op, operands, reductionMode(op),
      [&](ArrayRef<Tensor> values, int64_t) -> FailureOr<Tensor> {
        return concatenate(values, dim);
      },
      results);
}

LogicalResult evalAllReduce(Interpreter &interp, Operation *op,
                            ArrayRef<Tensor> operands,
                            SmallVectorImpl<Tensor> &results) {
  Region &region = cast<hlo::AllReduceOp>(op).getComputation();
  Combiner combiner = detectCombiner(region);
  return evalInMode(
      interp, op, operands, reductionMode(op),
      [&](ArrayRef<Tensor> values, int64_t) {
        return reduceValues(interp, &region, combiner, values);
      },
      results);
}

LogicalResult evalReduceScatter(Interpreter &interp, Operation *op,
                                ArrayRef<Tensor> operands,
                                SmallVectorImpl<Tensor> &results) {
  auto scatter = cast<hlo::ReduceScatterOp>(op);
  Region &region = scatter.getComputation();
  Combiner combiner = detectCombiner(region);
  return evalInMode(
      interp, op, operands, reductionMode(op),
      [&](ArrayRef<Tensor> values, int64_t position) -> FailureOr<Tensor> {
        auto reduced = reduceValues(interp, &region, combiner, values);
        if (failed(reduced))
          return failure();
        return chunkOf(*reduced, scatter.getScatterDimension(), values.size(),
                       position);
      },
      results);
}

/// all_to_all, collective_permute and collective_broadcast.
FailureOr<GroupMode> partitionMode(Operation *op) {
  return hasChannel(op) ? GroupMode::CrossPartition : GroupMode::CrossReplica;
}

LogicalResult evalAllToAll(Interpreter &interp, Operation *op,
                           ArrayRef<Tensor> operands,
                           SmallVectorImpl<Tensor> &results) {
  auto a2a = cast<hlo::AllToAllOp>(op);
  return evalInMode(
      interp, op, operands, partitionMode(op),
      [&](ArrayRef<Tensor> values, int64_t position) -> FailureOr<Tensor> {
        if (a2a.getSplitCount() != values.size())
          return op->emitError("toast-run: split_count ")
                 << a2a.getSplitCount() << " differs from the group size "
                 << values.size();
        return allToAll(values, a2a.getSplitDimension(),
                        a2a.getConcatDimension(), position);
      },
      results);
}

LogicalResult evalCollectiveBroadcast(Interpreter &interp, Operation *op,
                                      ArrayRef<Tensor> operands,
                                      SmallVectorImpl<Tensor> &results) {
  // A device in no group gets zeros.
  return evalInMode(
      interp, op, operands, partitionMode(op),
      [&](ArrayRef<Tensor> values, int64_t) {
        return firstOrZeros(op, values);
      },
      results);
}

LogicalResult evalCollectivePermute(Interpreter &interp, Operation *op,
                                    ArrayRef<Tensor> operands,
                                    SmallVectorImpl<Tensor> &results) {
  auto permute = cast<hlo::CollectivePermuteOp>(op);
  SpmdContext *spmd = getSpmdContext(interp, op);
  if (!spmd)
    return failure();
  bool crossPartition = hasChannel(op);
  int64_t numIds = crossPartition ? spmd->getNumDevices() : 1;
  int64_t self = crossPartition ? spmd->getDeviceId() : 0;
  SmallVector<int64_t> pairs(
      permute.getSourceTargetPairs().getValues<int64_t>());
  int64_t source = -1;
  for (size_t i = 0; i + 1 < pairs.size(); i += 2) {
    if (pairs[i] < 0 || pairs[i] >= numIds || pairs[i + 1] < 0 ||
        pairs[i + 1] >= numIds)
      return op->emitError("toast-run: source_target_pairs id out of range "
                           "(")
             << numIds << (crossPartition ? " devices)" : " replica)");
    if (pairs[i + 1] == self)
      source = crossPartition ? pairs[i] : spmd->getDeviceId();
  }
  // Every device takes part in the exchange, but copies only its source's
  // operand; a device that is nobody's target copies nothing and gets
  // zeros.
  SmallVector<int64_t> from;
  if (source >= 0)
    from.push_back(source);
  return evalWithinGroup(
      *spmd, op, operands, from,
      [&](ArrayRef<Tensor> values, int64_t) {
        return firstOrZeros(op, values);
      },
      [] { return std::string("as a copy of the source's operand"); }, results);
}

LogicalResult evalPartitionId(Interpreter &interp, Operation *op,
                              ArrayRef<Tensor>,
                              SmallVectorImpl<Tensor> &results) {
  SpmdContext *spmd = interp.getOptions().spmd;
  Tensor id = makeResult(op);
  id.setInt(0, spmd ? spmd->getDeviceId() : 0);
  results.push_back(std::move(id));
  return success();
}

LogicalResult evalReplicaId(Interpreter &, Operation *op, ArrayRef<Tensor>,
                            SmallVectorImpl<Tensor> &results) {
  results.push_back(makeResult(op)); // one replica: always 0
  return success();
}

} // namespace

void toast::interp::detail::registerCollectiveOps(OpRegistry &r) {
  r.add("stablehlo.all_gather", evalAllGather);
  r.add("stablehlo.all_reduce", evalAllReduce);
  r.add("stablehlo.reduce_scatter", evalReduceScatter);
  r.add("stablehlo.all_to_all", evalAllToAll);
  r.add("stablehlo.collective_broadcast", evalCollectiveBroadcast);
  r.add("stablehlo.collective_permute", evalCollectivePermute);
  r.add("stablehlo.partition_id", evalPartitionId);
  r.add("stablehlo.replica_id", evalReplicaId);
}
