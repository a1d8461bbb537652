//===- ExportStablehlo.cpp - PartIR:HLO collectives to StableHLO ---------===//
//
// --partir-export-stablehlo: every PartIR:HLO collective names mesh axes;
// XLA wants device groups. A collective over axes A becomes the StableHLO
// collective with replica_groups = computeReplicaGroups(mesh, A), a fresh
// channel handle and use_global_device_ids (with one replica, global device
// ids are partition ids). all_slice needs no communication: it becomes a
// dynamic_slice at offsets derived from stablehlo.partition_id.
//
//===----------------------------------------------------------------------===//

#include "toast/Export/Passes.h"
#include "toast/Export/ReplicaGroups.h"

#include "toast/Dialect/PartIR/HLO/IR/PartIRHLO.h"
#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace toast::xla {
#define GEN_PASS_DEF_PARTIREXPORTSTABLEHLOPASS
#include "toast/Export/Passes.h.inc"

namespace hlo = toast::stablehlo;
namespace phlo = toast::partir_hlo;

namespace {

/// Rewrites the collectives of one module; holds the mesh, the next channel
/// handle and, per function, the device coordinates computed so far.
class CollectiveExporter {
public:
  CollectiveExporter(ModuleOp module, partir::MeshAttr mesh)
      : ctx(module.getContext()), mesh(getMeshAxes(mesh)) {
    // Continue after handles the module already uses.
    module.walk([&](Operation *op) {
      if (auto handle =
              op->getAttrOfType<hlo::ChannelHandleAttr>("channel_handle"))
        nextHandle = std::max(nextHandle, handle.getHandle() + 1);
    });
  }

  LogicalResult rewrite(Operation *op);

private:
  DenseIntElementsAttr groupsAttr(Operation *op, ArrayRef<std::string> axes);
  hlo::ChannelHandleAttr freshHandle() {
    return hlo::ChannelHandleAttr::get(ctx, nextHandle++, /*type=*/1);
  }
  /// Adds the reduction body (two scalars -> one) to `region`.
  void buildReduction(Region &region, Type elementType, StringRef kind,
                      Location loc);
  /// The coordinate of this device on `axis`, as tensor<i64>.
  Value coordinate(Operation *at, StringRef axis);
  Value constant(Operation *at, int64_t value);
  /// Builder at the start of the function body holding `at`.
  OpBuilder entryBuilder(Operation *at);

  LogicalResult rewriteAllReduce(phlo::AllReduceOp op);
  LogicalResult rewriteAllGather(phlo::AllGatherOp op);
  LogicalResult rewriteAllSlice(phlo::AllSliceOp op);
  LogicalResult rewriteReduceScatter(phlo::ReduceScatterOp op);
  LogicalResult rewriteAllToAll(phlo::AllToAllOp op);

  MLIRContext *ctx;
  SmallVector<MeshAxis> mesh;
  int64_t nextHandle = 1;
  /// Per function body: partition id, coordinates per axis, constants.
  struct Cache {
    Value partitionId;
    llvm::StringMap<Value> coordinates;
    DenseMap<int64_t, Value> constants;
    Operation *lastInserted = nullptr;
  };
  DenseMap<Region *, Cache> caches;
};

} // namespace

static int64_t axesProduct(ArrayRef<MeshAxis> mesh,
                           ArrayRef<std::string> axes) {
  int64_t n = 1;
  for (const std::string &axis : axes)
    for (const MeshAxis &m : mesh)
      if (m.name == axis)
        n *= m.size;
  return n;
}

DenseIntElementsAttr
CollectiveExporter::groupsAttr(Operation *op, ArrayRef<std::string> axes) {
  SmallVector<StringRef> names(axes.begin(), axes.end());
  auto groups = computeReplicaGroups(mesh, names);
  if (failed(groups)) {
    op->emitOpError("names axes that are not in the mesh");
    return {};
  }
  SmallVector<int64_t> flat;
  for (const auto &group : *groups)
    llvm::append_range(flat, group);
  auto type =
      RankedTensorType::get({static_cast<int64_t>(groups->size()),
                             static_cast<int64_t>(groups->front().size())},
                            IntegerType::get(ctx, 64));
  return DenseIntElementsAttr::get(type, flat);
}

void CollectiveExporter::buildReduction(Region &region, Type elementType,
                                        StringRef kind, Location loc) {
  auto scalar = RankedTensorType::get({}, elementType);
  Block *block = new Block();
  region.push_back(block);
  block->addArguments({scalar, scalar}, {loc, loc});
  OpBuilder b = OpBuilder::atBlockBegin(block);
  Value lhs = block->getArgument(0), rhs = block->getArgument(1);
  bool isBool = elementType.isInteger(1);
  Value result;
  if (kind == "max")
    result = isBool ? hlo::OrOp::create(b, loc, scalar, lhs, rhs).getResult()
                    : hlo::MaxOp::create(b, loc, scalar, lhs, rhs).getResult();
  else if (kind == "min")
    result = isBool ? hlo::AndOp::create(b, loc, scalar, lhs, rhs).getResult()
                    : hlo::MinOp::create(b, loc, scalar, lhs, rhs).getResult();
  else if (kind == "prod")
    result = isBool ? hlo::AndOp::create(b, loc, scalar, lhs, rhs).getResult()
                    : hlo::MulOp::create(b, loc, scalar, lhs, rhs).getResult();
  else
    result = isBool ? hlo::OrOp::create(b, loc, scalar, lhs, rhs).getResult()
                    : hlo::AddOp::create(b, loc, scalar, lhs, rhs).getResult();
  hlo::ReturnOp::create(b, loc, ValueRange{result});
}

OpBuilder CollectiveExporter::entryBuilder(Operation *at) {
  Operation *isolated = at->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
  Region &region = isolated->getRegion(0);
  Cache &cache = caches[&region];
  OpBuilder b(ctx);
  if (cache.lastInserted)
    b.setInsertionPointAfter(cache.lastInserted);
  else
    b.setInsertionPointToStart(&region.front());
  return b;
}

Value CollectiveExporter::constant(Operation *at, int64_t value) {
  Region &region =
      at->getParentWithTrait<OpTrait::IsIsolatedFromAbove>()->getRegion(0);
  Cache &cache = caches[&region];
  if (Value v = cache.constants.lookup(value))
    return v;
  OpBuilder b = entryBuilder(at);
  auto type = RankedTensorType::get({}, IntegerType::get(ctx, 64));
  Value v = hlo::ConstantOp::create(b, at->getLoc(), type,
                                    DenseElementsAttr::get(type, value));
  cache.constants[value] = v;
  cache.lastInserted = v.getDefiningOp();
  return v;
}

Value CollectiveExporter::coordinate(Operation *at, StringRef axis) {
  Region &region =
      at->getParentWithTrait<OpTrait::IsIsolatedFromAbove>()->getRegion(0);
  if (Value v = caches[&region].coordinates.lookup(axis))
    return v;
  Location loc = at->getLoc();
  auto i64 = RankedTensorType::get({}, IntegerType::get(ctx, 64));
  if (!caches[&region].partitionId) {
    OpBuilder b = entryBuilder(at);
    auto u32 = RankedTensorType::get(
        {}, IntegerType::get(ctx, 32, IntegerType::Unsigned));
    Value pid = hlo::PartitionIdOp::create(b, loc, u32);
    Value converted = hlo::ConvertOp::create(b, loc, i64, pid);
    caches[&region].partitionId = converted;
    caches[&region].lastInserted = converted.getDefiningOp();
  }
  int64_t stride = getAxisStride(mesh, axis);
  int64_t size = 0, total = 1;
  for (const MeshAxis &m : mesh) {
    total *= m.size;
    if (m.name == axis)
      size = m.size;
  }
  // (pid / stride) % size; the division is skipped for the minor axis and
  // the remainder for the major one.
  Value v = caches[&region].partitionId;
  if (stride != 1) {
    Value c = constant(at, stride);
    OpBuilder b = entryBuilder(at);
    v = hlo::DivOp::create(b, loc, i64, v, c);
    caches[&region].lastInserted = v.getDefiningOp();
  }
  if (stride * size != total) {
    Value c = constant(at, size);
    OpBuilder b = entryBuilder(at);
    v = hlo::RemOp::create(b, loc, i64, v, c);
    caches[&region].lastInserted = v.getDefiningOp();
  }
  caches[&region].coordinates[axis] = v;
  return v;
}

LogicalResult CollectiveExporter::rewriteAllReduce(phlo::AllReduceOp op) {
  DenseIntElementsAttr groups =
      groupsAttr(op, phlo::getAxisNames(op.getAxes()));
  if (!groups)
    return failure();
  OpBuilder b(op);
  auto reduce = hlo::AllReduceOp::create(
      b, op.getLoc(), TypeRange{op.getType()}, ValueRange{op.getOperand()},
      groups, freshHandle(), b.getUnitAttr());
  buildReduction(reduce.getComputation(), op.getType().getElementType(),
                 op.getReduction(), op.getLoc());
  op.replaceAllUsesWith(reduce->getResult(0));
  op.erase();
  return success();
}

/// A located error when `type` has a dynamic dimension: the StableHLO ops
/// `op` becomes (`needs` says which) take static sizes, and Toast's
/// StableHLO has no real_dynamic_slice or dynamic_pad to carry run-time
/// ones. Checked before anything is rewritten.
static LogicalResult checkStaticShape(Operation *op, RankedTensorType type,
                                      StringRef needs) {
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      return op->emitOpError("cannot be exported to StableHLO: dimension ")
             << d << " of " << type << " is dynamic, and " << needs;
  return success();
}

/// Whether the gathered chunks of `op` hold more rows than its result: the
/// padding of uneven chunks, which the export slices off.
static bool isPaddedGather(phlo::AllGatherOp op, ArrayRef<MeshAxis> mesh) {
  auto in = cast<RankedTensorType>(op.getOperand().getType());
  auto out = cast<RankedTensorType>(op.getType());
  for (auto [d, axes] : llvm::enumerate(phlo::getDimAxes(op.getDims())))
    if (!axes.empty() &&
        in.getDimSize(d) * axesProduct(mesh, axes) != out.getDimSize(d))
      return true;
  return false;
}

LogicalResult CollectiveExporter::rewriteAllGather(phlo::AllGatherOp op) {
  if (isPaddedGather(op, mesh) &&
      failed(checkStaticShape(op, cast<RankedTensorType>(op.getType()),
                              "the stablehlo.slice that drops the padding "
                              "needs static limits")))
    return failure();
  OpBuilder b(op);
  Value current = op.getOperand();
  for (auto [d, axes] : llvm::enumerate(phlo::getDimAxes(op.getDims()))) {
    if (axes.empty())
      continue;
    DenseIntElementsAttr groups = groupsAttr(op, axes);
    if (!groups)
      return failure();
    auto type = cast<RankedTensorType>(current.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[d] *= axesProduct(mesh, axes);
    auto gather = hlo::AllGatherOp::create(
        b, op.getLoc(), TypeRange{type.clone(shape)}, ValueRange{current},
        b.getI64IntegerAttr(d), groups, freshHandle(), b.getUnitAttr());
    current = gather->getResult(0);
  }
  // An uneven (padded) gather drops the padding past the result's end.
  if (current.getType() != op.getType()) {
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<int64_t> zeros(type.getRank(), 0), ones(type.getRank(), 1);
    current = hlo::SliceOp::create(b, op.getLoc(), type, current,
                                   b.getDenseI64ArrayAttr(zeros),
                                   b.getDenseI64ArrayAttr(type.getShape()),
                                   b.getDenseI64ArrayAttr(ones));
  }
  op.replaceAllUsesWith(current);
  op.erase();
  return success();
}

/// The operand of an uneven (padded) all_slice padded with zeros to whole
/// chunks, so that the last devices' dynamic_slice is not clamped back into
/// the data; the operand itself when the axes divide it.
static Value padForSlice(OpBuilder &b, phlo::AllSliceOp op,
                         ArrayRef<MeshAxis> mesh) {
  auto in = cast<RankedTensorType>(op.getOperand().getType());
  auto out = cast<RankedTensorType>(op.getType());
  SmallVector<int64_t> high(in.getRank(), 0), shape(in.getShape());
  for (auto [d, axes] : llvm::enumerate(phlo::getDimAxes(op.getDims()))) {
    if (axes.empty())
      continue;
    shape[d] = out.getDimSize(d) * axesProduct(mesh, axes);
    high[d] = shape[d] - in.getDimSize(d);
  }
  if (llvm::all_of(high, [](int64_t h) { return h == 0; }))
    return op.getOperand();
  auto scalar = RankedTensorType::get({}, in.getElementType());
  Value zero = hlo::ConstantOp::create(
      b, op.getLoc(), scalar,
      DenseElementsAttr::get(scalar, b.getZeroAttr(in.getElementType())));
  SmallVector<int64_t> zeros(in.getRank(), 0);
  return hlo::PadOp::create(b, op.getLoc(), in.clone(shape), op.getOperand(),
                            zero, b.getDenseI64ArrayAttr(zeros),
                            b.getDenseI64ArrayAttr(high),
                            b.getDenseI64ArrayAttr(zeros));
}

LogicalResult CollectiveExporter::rewriteAllSlice(phlo::AllSliceOp op) {
  auto resultType = cast<RankedTensorType>(op.getType());
  // Every device's chunk of a splat is the smaller splat: a dynamic_slice
  // of the global constant would keep the whole constant alive on every
  // device (XLA folds it the same way).
  if (DenseElementsAttr splat = phlo::getSlicedSplat(op)) {
    OpBuilder b(op);
    Value local = hlo::ConstantOp::create(b, op.getLoc(), resultType,
                                          splat.resizeSplat(resultType));
    Operation *global = op.getOperand().getDefiningOp();
    op.replaceAllUsesWith(local);
    op.erase();
    if (global->use_empty())
      global->erase();
    return success();
  }
  if (failed(checkStaticShape(op, resultType,
                              "stablehlo.dynamic_slice needs static slice "
                              "sizes")))
    return failure();
  SmallVector<Value> offsets;
  auto i64 = RankedTensorType::get({}, IntegerType::get(ctx, 64));
  for (auto [d, axes] : llvm::enumerate(phlo::getDimAxes(op.getDims()))) {
    if (axes.empty()) {
      offsets.push_back(constant(op, 0));
      continue;
    }
    // Index of this device's chunk: its coordinates on `axes`, row-major.
    OpBuilder b(op);
    Value index = coordinate(op, axes.front());
    b.setInsertionPoint(op);
    for (const std::string &axis : ArrayRef(axes).drop_front()) {
      Value size = constant(op, axesProduct(mesh, {axis}));
      Value c = coordinate(op, axis);
      b.setInsertionPoint(op);
      index = hlo::MulOp::create(b, op.getLoc(), i64, index, size);
      index = hlo::AddOp::create(b, op.getLoc(), i64, index, c);
    }
    Value chunk = constant(op, resultType.getDimSize(d));
    b.setInsertionPoint(op);
    offsets.push_back(
        hlo::MulOp::create(b, op.getLoc(), i64, index, chunk).getResult());
  }
  OpBuilder b(op);
  Value operand = padForSlice(b, op, mesh);
  Value slice =
      hlo::DynamicSliceOp::create(b, op.getLoc(), resultType, operand,
                                  offsets, resultType.getShape());
  op.replaceAllUsesWith(slice);
  op.erase();
  return success();
}

LogicalResult
CollectiveExporter::rewriteReduceScatter(phlo::ReduceScatterOp op) {
  OpBuilder b(op);
  Value current = op.getOperand();
  for (auto [d, axes] : llvm::enumerate(phlo::getDimAxes(op.getDims()))) {
    if (axes.empty())
      continue;
    DenseIntElementsAttr groups = groupsAttr(op, axes);
    if (!groups)
      return failure();
    auto type = cast<RankedTensorType>(current.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[d] /= axesProduct(mesh, axes);
    auto scatter = hlo::ReduceScatterOp::create(
        b, op.getLoc(), type.clone(shape), current, b.getI64IntegerAttr(d),
        groups, freshHandle(), b.getUnitAttr());
    buildReduction(scatter.getComputation(), type.getElementType(),
                   op.getReduction(), op.getLoc());
    current = scatter.getResult();
  }
  op.replaceAllUsesWith(current);
  op.erase();
  return success();
}

LogicalResult CollectiveExporter::rewriteAllToAll(phlo::AllToAllOp op) {
  SmallVector<std::string> axes = phlo::getAxisNames(op.getAxes());
  DenseIntElementsAttr groups = groupsAttr(op, axes);
  if (!groups)
    return failure();
  OpBuilder b(op);
  // Each device splits the sliced dimension into one chunk per group member
  // and concatenates the chunks it receives along the gathered dimension,
  // in group order (the axes' order, as all_gather would).
  auto a2a = hlo::AllToAllOp::create(
      b, op.getLoc(), TypeRange{op.getType()}, ValueRange{op.getOperand()},
      b.getI64IntegerAttr(op.getSliceDim()),
      b.getI64IntegerAttr(op.getGatherDim()),
      b.getI64IntegerAttr(axesProduct(mesh, axes)), groups, freshHandle());
  op.replaceAllUsesWith(a2a->getResult(0));
  op.erase();
  return success();
}

LogicalResult CollectiveExporter::rewrite(Operation *op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](phlo::AllReduceOp o) { return rewriteAllReduce(o); })
      .Case([&](phlo::AllGatherOp o) { return rewriteAllGather(o); })
      .Case([&](phlo::AllSliceOp o) { return rewriteAllSlice(o); })
      .Case([&](phlo::ReduceScatterOp o) { return rewriteReduceScatter(o); })
      .Case([&](phlo::AllToAllOp o) { return rewriteAllToAll(o); })
      .Default([](Operation *o) {
        return o->emitOpError("cannot be exported to StableHLO");
      });
}

/// The mesh of the module, or of the first function recording one.
static partir::MeshAttr findMesh(ModuleOp module) {
  if (partir::MeshAttr mesh = partir::getMesh(module))
    return mesh;
  for (auto func : module.getOps<func::FuncOp>())
    if (auto mesh = func->getAttrOfType<partir::MeshAttr>(
            partir::PartIRDialect::kMeshAttrName))
      return mesh;
  return {};
}

/// Replaces `partir.sharding` on arguments and results by the HloSharding
/// string of the global value, under `toast.global_sharding`.
static LogicalResult convertBoundaryShardings(func::FuncOp func,
                                              partir::MeshAttr mesh) {
  StringRef from = "partir.sharding", to = "toast.global_sharding";
  SmallVector<MeshAxis> axes =
      mesh ? getMeshAxes(mesh) : SmallVector<MeshAxis>();
  auto convert = [&](Attribute attr) -> FailureOr<Attribute> {
    auto dims = dyn_cast<ArrayAttr>(attr);
    if (!dims || !phlo::isDimAxes(dims))
      return func.emitOpError("has a malformed '") << from << "' attribute";
    DimAxisNames names;
    for (const auto &dim : phlo::getDimAxes(dims))
      names.emplace_back(dim.begin(), dim.end());
    std::string error;
    auto sharding = buildHloSharding(axes, names, error);
    if (failed(sharding))
      return func.emitOpError("'") << from << "': " << error;
    return Attribute(
        StringAttr::get(func.getContext(), printHloSharding(*sharding)));
  };
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (Attribute attr = func.getArgAttr(i, from)) {
      auto converted = convert(attr);
      if (failed(converted))
        return failure();
      func.removeArgAttr(i, from);
      func.setArgAttr(i, to, *converted);
    }
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    if (Attribute attr = func.getResultAttr(i, from)) {
      auto converted = convert(attr);
      if (failed(converted))
        return failure();
      func.removeResultAttr(i, StringAttr::get(func.getContext(), from));
      func.setResultAttr(i, to, *converted);
    }
  return success();
}

LogicalResult exportToStablehlo(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  // Tags only name values; Core ops mean the program was not lowered.
  module.walk([](partir::TagOp tag) {
    tag.getResult().replaceAllUsesWith(tag.getOperand());
    tag.erase();
  });
  WalkResult core = module.walk<WalkOrder::PreOrder>([](Operation *op) {
    if (isa<partir::PartIRDialect>(op->getDialect())) {
      op->emitOpError("is PartIR:Core; run --partir-lower-to-hlo before "
                      "--partir-export-stablehlo");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (core.wasInterrupted())
    return failure();

  SmallVector<Operation *> collectives;
  module.walk([&](Operation *op) {
    if (isa<phlo::PartIRHLODialect>(op->getDialect()))
      collectives.push_back(op);
  });
  partir::MeshAttr mesh = findMesh(module);
  if (!mesh && !collectives.empty())
    return collectives.front()->emitOpError(
        "needs a mesh: the module has no partir.mesh attribute");
  if (mesh) {
    CollectiveExporter exporter(module, mesh);
    for (Operation *op : collectives)
      if (failed(exporter.rewrite(op)))
        return failure();
  }
  for (auto func : module.getOps<func::FuncOp>()) {
    if (failed(convertBoundaryShardings(func, mesh)))
      return failure();
    func->removeAttr(partir::PartIRDialect::kMeshAttrName);
  }
  module->removeAttr(partir::PartIRDialect::kMeshAttrName);
  // Global-shape annotations do not describe device-local values.
  dropShardings(module);
  for (auto mesh : llvm::make_early_inc_range(module.getOps<sdy::MeshOp>()))
    mesh.erase();
  auto i32 = IntegerType::get(ctx, 32);
  module->setAttr("mhlo.num_partitions",
                  IntegerAttr::get(i32, mesh ? mesh.getNumDevices() : 1));
  module->setAttr("mhlo.num_replicas", IntegerAttr::get(i32, 1));
  return success();
}

namespace {
struct PartirExportStablehloPass
    : impl::PartirExportStablehloPassBase<PartirExportStablehloPass> {
  using PartirExportStablehloPassBase::PartirExportStablehloPassBase;
  void runOnOperation() override {
    if (failed(partir::checkMaterialized(getOperation(),
                                         "partir-export-stablehlo")))
      return signalPassFailure();
    unsigned before = 0;
    getOperation().walk([&](Operation *op) {
      if (isa<hlo::AllReduceOp, hlo::AllGatherOp, hlo::ReduceScatterOp,
              hlo::AllToAllOp>(op))
        ++before;
    });
    if (failed(exportToStablehlo(getOperation())))
      return signalPassFailure();
    unsigned after = 0;
    getOperation().walk([&](Operation *op) {
      if (isa<hlo::AllReduceOp, hlo::AllGatherOp, hlo::ReduceScatterOp,
              hlo::AllToAllOp>(op))
        ++after;
    });
    numCollectives += after - before;
  }
};
} // namespace

} // namespace toast::xla
