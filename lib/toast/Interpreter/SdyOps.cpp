//===- SdyOps.cpp - The sdy ops in a global program -----------------------===//
//
// A global program exported by JAX with Shardy keeps its meaning when the
// sdy annotations are read as what they say about values:
//  * sharding_constraint, reshard and the layout-only sdy collectives
//    (all_gather, all_slice, all_to_all, collective_permute) return their
//    operand: in global shapes a layout change is the identity;
//  * sharding_group has no result; sdy.constant is a constant;
//  * manual_computation (shard_map) splits each operand over the manual
//    axes as its in_sharding says, runs the body once per device of the
//    mesh on its local shards (free axes replicate the data, so devices
//    that differ only on them compute the same values), and reassembles
//    the results as the out_shardings say. The body's collectives meet in
//    an exchange among the mesh's devices, whose ids are the mesh's
//    device_ids (row-major order by default), as partition_id reports.
// all_reduce and reduce_scatter act on partial (unreduced) values, which a
// global tensor cannot hold; they are rejected with an error.
//
//===----------------------------------------------------------------------===//

#include "OpImpl.h"

#include "toast/Dialect/Sdy/IR/Sdy.h"
#include "toast/Interpreter/Spmd.h"

using namespace mlir;
using namespace toast::interp;
using namespace toast::interp::detail;
namespace sdy = toast::sdy;

namespace {

LogicalResult evalIdentity(Interpreter &, Operation *,
                           ArrayRef<Tensor> operands,
                           SmallVectorImpl<Tensor> &results) {
  results.push_back(operands.front());
  return success();
}

LogicalResult evalNothing(Interpreter &, Operation *, ArrayRef<Tensor>,
                          SmallVectorImpl<Tensor> &) {
  return success();
}

LogicalResult evalPartialValues(Interpreter &, Operation *op, ArrayRef<Tensor>,
                                SmallVectorImpl<Tensor> &) {
  return op->emitError("toast-run: '")
         << op->getName()
         << "' reduces partial (unreduced) values, which a global program "
            "cannot hold; run the program it is lowered to instead";
}

/// Which device sits at each row-major mesh position, and the inverse.
struct DeviceOrder {
  SmallVector<int64_t> deviceAt;
  SmallVector<int64_t> positionOf;
};

DeviceOrder getDeviceOrder(sdy::MeshAttr mesh) {
  DeviceOrder order;
  int64_t n = mesh.getNumDevices();
  order.deviceAt.resize(n);
  order.positionOf.resize(n);
  for (int64_t p = 0; p < n; ++p) {
    // A single device keeps id 0 whatever its device_ids says.
    int64_t device =
        mesh.getDeviceIds().empty() || n == 1 ? p : mesh.getDeviceIds()[p];
    order.deviceAt[p] = device;
    order.positionOf[device] = p;
  }
  return order;
}

/// The layout of a value sharded as `sharding`, counting only the manual
/// axes of `op`, for every device of `mesh`.
ShardLayout manualLayout(sdy::ManualComputationOp op,
                         sdy::TensorShardingAttr sharding, sdy::MeshAttr mesh,
                         const DeviceOrder &order) {
  int64_t rank = sharding.getRank(), n = mesh.getNumDevices();
  ShardLayout layout;
  layout.tiles.assign(rank, 1);
  layout.deviceTiles.assign(n, SmallVector<int64_t>(rank, 0));
  for (int64_t device = 0; device < n; ++device) {
    // The device's coordinates, row-major over the mesh axes.
    SmallVector<int64_t> coords(mesh.getAxisSizes().size());
    int64_t position = order.positionOf[device];
    for (int64_t a = coords.size() - 1; a >= 0; --a) {
      coords[a] = position % mesh.getAxisSizes()[a];
      position /= mesh.getAxisSizes()[a];
    }
    for (int64_t d = 0; d < rank; ++d) {
      int64_t tile = 0, tiles = 1;
      for (sdy::AxisRefAttr ref : sharding.getDimShardings()[d].getAxes()) {
        if (!op.isManualAxis(ref.getAxisName()))
          continue;
        auto names = mesh.getAxisNames();
        int64_t a =
            llvm::find_if(
                names, [&](StringAttr name) { return name == ref.getName(); }) -
            names.begin();
        int64_t size = mesh.getAxisSizes()[a];
        int64_t refSize = ref.getSize(mesh);
        tile = tile * refSize + ref.getIndex(coords[a], size);
        tiles *= refSize;
      }
      layout.tiles[d] = tiles;
      layout.deviceTiles[device][d] = tile;
    }
  }
  return layout;
}

LogicalResult evalManualComputation(Interpreter &interp, Operation *op,
                                    ArrayRef<Tensor> operands,
                                    SmallVectorImpl<Tensor> &results) {
  auto manual = cast<sdy::ManualComputationOp>(op);
  if (interp.getOptions().spmd)
    return op->emitError("toast-run: 'sdy.manual_computation' inside a "
                         "device-local program is not supported");
  sdy::MeshAttr mesh = manual.getMesh();
  if (!mesh || manual.getManualAxes().empty())
    // Nothing is manual: the body is a global computation.
    return interp.runRegion(manual.getBody(), operands, results);
  if (mesh.getNumDevices() > kMaxSimulatedDevices)
    return op->emitError("toast-run: the mesh has ")
           << mesh.getNumDevices() << " devices, more than the "
           << kMaxSimulatedDevices << " the interpreter simulates";
  DeviceOrder order = getDeviceOrder(mesh);
  SpmdProgram program;
  program.kind = SpmdProgram::Kind::ExportedStableHLO;
  program.numDevices = mesh.getNumDevices();
  for (auto [name, size] :
       llvm::zip_equal(mesh.getAxisNames(), mesh.getAxisSizes()))
    program.mesh.push_back({name.str(), size});
  for (sdy::TensorShardingAttr sharding :
       manual.getInShardings().getShardings())
    program.args.push_back(manualLayout(manual, sharding, mesh, order));
  for (sdy::TensorShardingAttr sharding :
       manual.getOutShardings().getShardings())
    program.results.push_back(manualLayout(manual, sharding, mesh, order));
  program.globalType = FunctionType::get(
      op->getContext(), manual.getTensors().getTypes(), op->getResultTypes());
  FailureOr<SpmdRunReport> report =
      runSpmdRegion(manual.getBody(), program, operands, interp.getOptions());
  if (failed(report))
    return failure();
  for (int64_t i = 0; i < report->checks.passed; ++i)
    interp.recordCheck(true);
  for (int64_t i = 0; i < report->checks.failed; ++i)
    interp.recordCheck(false);
  llvm::append_range(results, report->results);
  return success();
}

} // namespace

void toast::interp::detail::registerSdyOps(OpRegistry &r) {
  r.add("sdy.manual_computation", evalManualComputation);
  r.add("sdy.sharding_constraint", evalIdentity);
  r.add("sdy.reshard", evalIdentity);
  r.add("sdy.all_gather", evalIdentity);
  r.add("sdy.all_slice", evalIdentity);
  r.add("sdy.all_to_all", evalIdentity);
  r.add("sdy.collective_permute", evalIdentity);
  r.add("sdy.all_reduce", evalPartialValues);
  r.add("sdy.reduce_scatter", evalPartialValues);
  r.add("sdy.sharding_group", evalNothing);
}
