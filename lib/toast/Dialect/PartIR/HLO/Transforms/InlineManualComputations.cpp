//===- InlineManualComputations.cpp - shard_map bodies in device code -----===//
//
// An `sdy.manual_computation` (JAX's shard_map) is device-local code inside a
// global program: its body already runs per device on the manual axes. The
// partitioner treats the op as opaque, so after lowering its operands and
// results are global (replicated) values, gathered before it and sliced
// after it. Here the op is replaced by its body on the manual axes' local
// shards:
//
//   %g = all_gather [{"a"}] %x          %g = all_gather [{"a"}] %x
//   %r = sdy.manual_computation(%g)  => %l = all_slice [{"a"}] %g
//          ... body ...                 ... body on %l ...
//   %s = all_slice [{"a"}] %r           %r = all_gather [{"a"}] %b
//                                       %s = all_slice [{"a"}] %r
//
// and the collective optimizer then cancels the gather/slice pairs where
// the layouts match, so a boundary whose layout is already right costs no
// communication. The body's own collectives name devices of the sdy mesh,
// which must therefore be the partir mesh (same axes, default order).
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/PartIR/HLO/Transforms/Passes.h"

#include "toast/Dialect/Sdy/IR/Sdy.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace sdy = toast::sdy;

namespace toast::partir_hlo {

/// Per dimension, the manual axes of `op` in `sharding`; fails on sub-axes.
static FailureOr<DimAxes> manualDims(sdy::ManualComputationOp op,
                                     sdy::TensorShardingAttr sharding,
                                     const Twine &what) {
  DimAxes dims;
  for (sdy::DimensionShardingAttr dim : sharding.getDimShardings()) {
    auto &axes = dims.emplace_back();
    for (sdy::AxisRefAttr ref : dim.getAxes()) {
      if (!op.isManualAxis(ref.getAxisName()))
        continue;
      if (ref.isSubAxis()) {
        InFlightDiagnostic diag =
            op.emitError("cannot lower the manual_computation: ")
            << what << " is sharded on the sub-axis " << ref.str()
            << ", which the device-local program cannot express";
        diag.attachNote() << "import the shardings first "
                             "(--partir-import-shardings): it splits the mesh "
                             "axes into the pieces the sub-axes name";
        return diag;
      }
      axes.push_back(ref.getAxisName().str());
    }
  }
  return dims;
}

static bool hasAxes(const DimAxes &dims) {
  return llvm::any_of(dims, [](const auto &axes) { return !axes.empty(); });
}

/// Checks that the sdy mesh of `op` is `mesh`, so that device ids agree.
static LogicalResult checkMesh(sdy::ManualComputationOp op,
                               partir::MeshAttr mesh) {
  sdy::MeshAttr sdyMesh = op.getMesh();
  if (!sdyMesh)
    return success();
  bool sameAxes = sdyMesh.getAxisNames() == mesh.getNames() &&
                  sdyMesh.getAxisSizes() == mesh.getSizes();
  if (sameAxes && sdyMesh.hasIotaDeviceIds())
    return success();
  InFlightDiagnostic diag =
      op.emitError("cannot lower the manual_computation: its mesh ")
      << sdyMesh << " is not the partitioning mesh " << mesh
      << " (the body's collectives name devices of its own mesh)";
  // A mesh with its own device order cannot be partitioned on at all.
  if (sameAxes || !sdyMesh.hasIotaDeviceIds())
    return diag;
  // The option spelling of the mesh to partition on instead.
  std::string spelling;
  llvm::raw_string_ostream os(spelling);
  llvm::interleave(
      llvm::zip_equal(sdyMesh.getAxisNames(), sdyMesh.getAxisSizes()), os,
      [&](auto axis) {
        os << std::get<0>(axis).getValue() << "=" << std::get<1>(axis);
      },
      ",");
  diag.attachNote() << "partition on its mesh: mesh=" << spelling;
  return diag;
}

static LogicalResult inlineOne(sdy::ManualComputationOp op,
                               partir::MeshAttr mesh) {
  if (failed(checkMesh(op, mesh)))
    return failure();
  MLIRContext *ctx = op.getContext();
  OpBuilder b(op);
  Location loc = op.getLoc();
  Block &body = op.getBody().front();
  IRMapping map;
  for (auto [i, operand] : llvm::enumerate(op.getTensors())) {
    FailureOr<DimAxes> dims = manualDims(
        op, op.getInShardings().getShardings()[i], "operand " + Twine(i));
    if (failed(dims))
      return failure();
    Value local = operand;
    if (hasAxes(*dims))
      local = AllSliceOp::create(b, loc, body.getArgument(i).getType(), operand,
                                 buildDimAxes(ctx, *dims));
    map.map(body.getArgument(i), local);
  }
  for (Operation &inner : body.without_terminator())
    b.clone(inner, map);
  Operation *ret = body.getTerminator();
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    FailureOr<DimAxes> dims = manualDims(
        op, op.getOutShardings().getShardings()[i], "result " + Twine(i));
    if (failed(dims))
      return failure();
    Value local = map.lookup(ret->getOperand(i));
    Value global = local;
    if (hasAxes(*dims))
      global = AllGatherOp::create(b, loc, result.getType(), local,
                                   buildDimAxes(ctx, *dims));
    result.replaceAllUsesWith(global);
  }
  op.erase();
  return success();
}

LogicalResult inlineManualComputations(ModuleOp module, partir::MeshAttr mesh) {
  SmallVector<sdy::ManualComputationOp> ops;
  module.walk([&](sdy::ManualComputationOp op) { ops.push_back(op); });
  for (sdy::ManualComputationOp op : ops)
    if (failed(inlineOne(op, mesh)))
      return failure();
  return success();
}

LogicalResult checkManualComputationMeshes(Operation *root,
                                           partir::MeshAttr mesh) {
  // The boundary shardings too: a sub-axis would fail every lowering of
  // every state the search prices, one error each.
  auto checkShardings = [](sdy::ManualComputationOp op,
                           ArrayRef<sdy::TensorShardingAttr> shardings,
                           StringRef what) {
    for (auto [i, sharding] : llvm::enumerate(shardings))
      if (failed(manualDims(op, sharding, what + " " + Twine(i))))
        return failure();
    return success();
  };
  WalkResult walk = root->walk([&](sdy::ManualComputationOp op) {
    return failed(checkMesh(op, mesh)) ||
                   failed(checkShardings(op, op.getInShardings().getShardings(),
                                         "operand")) ||
                   failed(checkShardings(
                       op, op.getOutShardings().getShardings(), "result"))
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult checkCollectiveDevices(Operation *root, partir::MeshAttr mesh,
                                     StringRef context) {
  int64_t numDevices = mesh.getNumDevices();
  // Groups written for the program's own device count (JAX and torch-xla
  // record it as mhlo.num_partitions) leave the other devices of a larger
  // mesh out.
  auto module = dyn_cast<ModuleOp>(root);
  if (!module)
    module = root->getParentOfType<ModuleOp>();
  auto partitions =
      module ? module->getAttrOfType<IntegerAttr>("mhlo.num_partitions")
             : IntegerAttr();
  WalkResult walk = root->walk([&](Operation *op) {
    for (StringRef name : {"replica_groups", "source_target_pairs"}) {
      auto ids = op->getAttrOfType<DenseIntElementsAttr>(name);
      if (!ids)
        continue;
      if (partitions && partitions.getInt() != numDevices) {
        op->emitError() << context << "this collective was written for "
                        << partitions.getInt()
                        << " devices (mhlo.num_partitions), the mesh " << mesh
                        << " has " << numDevices;
        return WalkResult::interrupt();
      }
      SmallVector<bool> named(numDevices, false);
      for (const APInt &id : ids.getValues<APInt>()) {
        int64_t device = id.getSExtValue();
        if (device == -1)
          continue;
        if (device >= 0 && device < numDevices) {
          named[device] = true;
          continue;
        }
        op->emitError() << context << "this collective names device " << device
                        << ", which the mesh " << mesh << " of " << numDevices
                        << " devices does not have";
        return WalkResult::interrupt();
      }
      // With global device ids every device runs the collective, so each
      // needs a group (no groups at all is one group of every device).
      // collective_broadcast, which gives the others zeros, has no such
      // attribute; source-target pairs may leave devices out.
      if (name != "replica_groups" || !op->hasAttr("use_global_device_ids") ||
          ids.empty())
        continue;
      auto missing = llvm::find(named, false);
      if (missing == named.end())
        continue;
      op->emitError() << context << "this collective leaves device "
                      << (missing - named.begin()) << " of the mesh " << mesh
                      << " out of every replica group";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

} // namespace toast::partir_hlo
