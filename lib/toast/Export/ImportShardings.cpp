//===- ImportShardings.cpp - User shardings as the first tactic ----------===//
//
// --partir-import-shardings: JAX exports carry the shardings the user asked
// for, either as Shardy attributes (`sdy.mesh` + `sdy.sharding`,
// `sdy.sharding_constraint`) or as XLA HloSharding strings
// (`mhlo.sharding`). They become tile actions on the entry function's
// arguments, results, constrained values and the operands and results of
// manual computations (shard_map), then propagation, saved like
// any tactic pass's state so that later tactics build on them and cannot
// undo them (PartIR's priority-by-order).
//
// HloSharding names devices, not axes: each sharding is decomposed into
// device-space axes (HloSharding.h) and matched against the mesh, which is
// the sdy mesh, the module's partir.mesh, or synthesized from the
// shardings themselves.
//
//===----------------------------------------------------------------------===//

#include "GspmdRegions.h"
#include "SubAxes.h"
#include "WholeStrategy.h"

#include "toast/Export/Passes.h"
#include "toast/Export/ReplicaGroups.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"
#include "toast/Partition/Schedule.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace toast::xla {
#define GEN_PASS_DEF_PARTIRIMPORTSHARDINGSPASS
#include "toast/Export/Passes.h.inc"

static constexpr StringLiteral kMhloSharding = "mhlo.sharding";

namespace {
/// One sharding to apply to one value.
struct Request {
  Value value;
  /// Where diagnostics go and how to name the value in them.
  Operation *anchor = nullptr;
  std::string what;
  /// Exactly one of the two is set.
  sdy::TensorShardingAttr sdy;
  std::optional<HloSharding> mhlo;
  /// For mhlo: the device-space axes.
  AxisDecomposition decomposition;
  /// Result: per-dimension mesh axes, and axes to keep atomic.
  DimAxisNames dims;
  SmallVector<std::string> atomic;
  /// For an mhlo sharding with a manual subgroup (a partly manual region's
  /// local value): the mesh axes of that subgroup.
  SmallVector<std::string> manual;
  /// Whether axes the sharding does not use are fixed (closed).
  bool closed = true;
  /// What the sharding annotates, besides `value`: the sharding_constraint
  /// (or reshard, or `@Sharding`) op that carries it, or the op whose result
  /// `value` is (whole-strategy form).
  Operation *constraint = nullptr;
  Operation *op = nullptr;
  /// A function result's or a manual region boundary's sharding.
  bool boundary = false;
  /// For a constraint or a function result: the uses that read the value
  /// in this layout (the constraint's readers, the return's operand). A
  /// layout that conflicts with the one the value already has is then
  /// given to a copy they read instead (reshardCopy).
  SmallVector<OpOperand *> readers;
  /// The copy its readers read instead of `value` (reshardCopy), if any.
  Operation *copy = nullptr;
  /// Where diagnostics go once `anchor` (a constraint) is erased.
  std::optional<Location> erasedAt;

  InFlightDiagnostic emitError() {
    if (erasedAt)
      return mlir::emitError(*erasedAt) << what << ": ";
    return anchor->emitError() << what << ": ";
  }
  InFlightDiagnostic emitWarning() {
    if (erasedAt)
      return mlir::emitWarning(*erasedAt) << what << ": ";
    return anchor->emitWarning() << what << ": ";
  }
};

/// Collects, classifies and applies the annotations of one entry function.
class ShardingImporter {
public:
  ShardingImporter(ModuleOp module, func::FuncOp func,
                   const ShardingImportOptions &options)
      : module(module), func(func), options(options) {}

  LogicalResult run();
  /// Turns the GSPMD manual regions of the function into
  /// sdy.manual_computation ops (GspmdRegions.h), reading their boundary
  /// shardings on the mesh the annotations give.
  LogicalResult liftRegions();

private:
  /// Reads `attrs` of a value into a request (or none, or a warning).
  LogicalResult collect(Value value, DictionaryAttr attrs, std::string what);
  LogicalResult collectAll();
  /// The shardings of op results (whole-strategy form).
  LogicalResult collectOpShardings();
  /// The mesh from sdy.mesh, partir.mesh or the mhlo shardings; an sdy
  /// mesh's axes are split where the shardings' sub-axes cut them.
  FailureOr<partir::MeshAttr> resolveMesh();
  /// Splits `mesh` where the sub-axes of the shardings on it cut its axes.
  FailureOr<partir::MeshAttr> splitSdyMesh(sdy::MeshAttr mesh,
                                           Operation *anchor);
  /// Rewrites the shard_map regions on the user's mesh onto its pieces, so
  /// that their manual axes and boundary shardings name partitioning axes.
  void splitRegions();
  FailureOr<partir::MeshAttr> synthesizeMesh();
  LogicalResult mapRequests(partir::MeshAttr mesh);
  LogicalResult apply(partir::MeshAttr mesh);
  /// One attempt of apply(): the constraints and results whose layout
  /// conflicts with their value's get a copy (`copied`), and the state is
  /// not saved.
  LogicalResult applyOnce(partir::MeshAttr mesh, bool &copied);
  /// Gives the values of each sdy.sharding_group the sharding of its most
  /// tiled member, then propagates; fails at the group's op where a member
  /// cannot take it (a conflict).
  LogicalResult enforceGroups(partition::ShardingState &state);
  /// Rebuilds the state the whole-strategy annotations describe
  /// (WholeStrategy.h) instead of tiling and propagating.
  LogicalResult applyWhole(partir::MeshAttr mesh);

  ModuleOp module;
  func::FuncOp func;
  const ShardingImportOptions &options;
  SmallVector<Request, 4> requests;
  /// sharding_constraint and reshard ops: identities carrying a sharding.
  SmallVector<Operation *> constraints;
  /// The sdy.sharding_group ops, by group id in order of appearance.
  llvm::MapVector<int64_t, SmallVector<sdy::ShardingGroupOp>> groups;
  /// Whether ops carry shardings (the whole-strategy form): the state is
  /// then read from the annotations, implied atomic axes aside.
  bool whole = false;
  /// How the sdy mesh's axes map to partitioning mesh axes (SubAxes.h).
  std::optional<AxisSplit> split;
  sdy::MeshAttr sdyMesh;
  /// Whether shardings with manual subgroups are read (region boundaries).
  bool readingRegions = false;
};
} // namespace

LogicalResult ShardingImporter::collect(Value value, DictionaryAttr attrs,
                                        std::string what) {
  if (!attrs)
    return success();
  Request request;
  request.value = value;
  request.anchor = func;
  request.what = std::move(what);
  if (auto attr = attrs.get(sdy::SdyDialect::kShardingAttrName)) {
    auto sharding = dyn_cast<sdy::TensorShardingAttr>(attr);
    if (!sharding)
      return request.emitError() << "'sdy.sharding' must be a #sdy.sharding";
    request.sdy = sharding;
    requests.push_back(request);
    return success();
  }
  Attribute attr = attrs.get(kMhloSharding);
  if (!attr)
    return success();
  auto text = dyn_cast<StringAttr>(attr);
  if (!text)
    return request.emitError() << "'mhlo.sharding' must be a string";
  std::string error;
  FailureOr<HloSharding> sharding = parseHloSharding(text.getValue(), error);
  if (failed(sharding))
    return request.emitError() << "malformed mhlo.sharding \""
                               << text.getValue() << "\": " << error;
  switch (sharding->kind) {
  case HloSharding::Kind::Replicated:
    break;
  case HloSharding::Kind::Tiled: {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || type.getRank() != sharding->getTensorRank())
      return request.emitError()
             << "mhlo.sharding \"" << text.getValue() << "\" tiles "
             << sharding->getTensorRank() << " dimensions but the type is "
             << value.getType();
    auto decomposition = decomposeHloSharding(*sharding, error);
    if (failed(decomposition)) {
      request.emitWarning()
          << "ignoring mhlo.sharding \"" << text.getValue() << "\": " << error;
      return success();
    }
    // A partly manual sharding describes a value inside a manual region:
    // liftRegions reads those of the region boundaries, the whole-strategy
    // form those of a body's values (their free axes).
    if (sharding->hasManualSubgroup() && !readingRegions &&
        !value.getParentRegion()->getParentOfType<sdy::ManualComputationOp>()) {
      request.emitWarning() << "ignoring mhlo.sharding \"" << text.getValue()
                            << "\": manual on some axes outside a manual "
                               "region's boundary";
      return success();
    }
    request.decomposition = *decomposition;
    break;
  }
  case HloSharding::Kind::Maximal:
  case HloSharding::Kind::Manual:
  case HloSharding::Kind::Unsupported:
    request.emitWarning() << "ignoring unsupported mhlo.sharding \""
                          << text.getValue() << "\"";
    return success();
  }
  request.mhlo = *sharding;
  requests.push_back(request);
  return success();
}

LogicalResult ShardingImporter::collectAll() {
  for (BlockArgument arg : func.getArguments())
    if (failed(collect(arg, func.getArgAttrDict(arg.getArgNumber()),
                       "argument " + std::to_string(arg.getArgNumber()))))
      return failure();
  Operation *ret = func.getBody().front().getTerminator();
  for (unsigned i = 0; i < func.getNumResults(); ++i) {
    size_t before = requests.size();
    if (failed(collect(ret->getOperand(i), func.getResultAttrDict(i),
                       "result " + std::to_string(i))))
      return failure();
    if (requests.size() > before) {
      requests.back().boundary = true;
      requests.back().readers.push_back(&ret->getOpOperand(i));
    }
  }
  // A reshard asks for a layout at a program point like a constraint does;
  // the communication it implies is the partitioner's to decide.
  auto constrain = [&](Operation *op, Value input,
                       sdy::TensorShardingAttr sharding) {
    constraints.push_back(op);
    Request &request = requests.emplace_back();
    request.value = input;
    request.anchor = op;
    request.constraint = op;
    request.what = op->getName().stripDialect().str();
    request.sdy = sharding;
  };
  // GSPMD's `@Sharding` call is its sharding_constraint (`{manual}` ones
  // belong to manual regions, see liftRegions).
  auto gspmdConstraint = [&](Operation *op) {
    auto text = op->getAttrOfType<StringAttr>(kMhloSharding);
    if (text && text.getValue().contains("manual") &&
        !op->getParentOfType<sdy::ManualComputationOp>())
      return WalkResult::advance();
    size_t before = requests.size();
    if (failed(collect(op->getOperand(0), op->getDiscardableAttrDictionary(),
                       "@Sharding")))
      return WalkResult::interrupt();
    if (requests.size() > before) {
      requests.back().anchor = op;
      requests.back().constraint = op;
      constraints.push_back(op);
    }
    return WalkResult::advance();
  };
  WalkResult walk = func.walk([&](Operation *op) {
    // A shard_map body is device-local: its annotations are not about the
    // global values this import partitions, except in the whole-strategy
    // form, whose body constraints are the reshards of the body's
    // partitioning on the free axes.
    bool constraint = isa<sdy::ShardingConstraintOp, sdy::ReshardOp>(op) ||
                      isCustomCall(op, "Sharding");
    if (op->getParentOfType<sdy::ManualComputationOp>() &&
        !(whole && constraint))
      return WalkResult::advance();
    if (auto group = dyn_cast<sdy::ShardingGroupOp>(op))
      groups[group.getGroupId()].push_back(group);
    else if (auto constraint = dyn_cast<sdy::ShardingConstraintOp>(op))
      constrain(op, constraint.getInput(), constraint.getSharding());
    else if (auto reshard = dyn_cast<sdy::ReshardOp>(op))
      constrain(op, reshard.getInput(), reshard.getSharding());
    else if (isCustomCall(op, "Sharding") && op->getNumOperands() == 1 &&
             op->getNumResults() == 1)
      return gspmdConstraint(op);
    else if (isa<sdy::AllGatherOp, sdy::AllSliceOp, sdy::AllReduceOp,
                 sdy::ReduceScatterOp, sdy::AllToAllOp,
                 sdy::CollectivePermuteOp>(op))
      return op->emitError("'")
                 << op->getName()
                 << "' describes communication in an already partitioned "
                    "program, which the import does not support",
             WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // A shard_map fixes the layout of its operands and results: they enter
  // like any other user sharding, and the boundary is then as the region
  // wants it (the lowering inlines the body between matching collectives).
  func.walk([&](sdy::ManualComputationOp op) {
    if (op->getParentOfType<sdy::ManualComputationOp>())
      return;
    auto add = [&](Value value, sdy::TensorShardingAttr sharding,
                   std::string what) {
      Request &request = requests.emplace_back();
      request.value = value;
      request.anchor = op;
      request.what = std::move(what);
      request.sdy = sharding;
      request.boundary = true;
    };
    for (auto [i, operand] : llvm::enumerate(op.getTensors()))
      add(operand, op.getInShardings().getShardings()[i],
          "manual_computation operand " + std::to_string(i));
    for (auto [i, result] : llvm::enumerate(op.getResults()))
      add(result, op.getOutShardings().getShardings()[i],
          "manual_computation result " + std::to_string(i));
  });
  return whole ? collectOpShardings() : success();
}

LogicalResult ShardingImporter::collectOpShardings() {
  MLIRContext *ctx = module.getContext();
  auto sdyName = StringAttr::get(ctx, sdy::SdyDialect::kShardingAttrName);
  auto mhloName = StringAttr::get(ctx, kMhloSharding);
  SmallVector<Operation *> ops;
  walkProgram(func.getBody().front(), [&](Operation *op, const Scope &) {
    if (!llvm::is_contained(constraints, op) &&
        !isa<sdy::SdyDialect>(op->getDialect()) &&
        (op->hasAttr(sdyName) || op->hasAttr(mhloName)))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    // One dictionary per result, in the form collect() reads.
    SmallVector<Attribute> perResult;
    std::string error;
    if (auto perValue =
            op->getAttrOfType<sdy::TensorShardingPerValueAttr>(sdyName)) {
      llvm::append_range(perResult, perValue.getShardings());
    } else if (Attribute attr = op->getAttr(sdyName)) {
      perResult.push_back(attr);
    } else if (auto text = op->getAttrOfType<StringAttr>(mhloName)) {
      SmallVector<StringRef> elements;
      if (op->getNumResults() == 1)
        elements.push_back(text.getValue());
      else if (failed(splitHloTupleSharding(text.getValue(), elements, error)))
        return op->emitError("malformed mhlo.sharding \"")
               << text.getValue() << "\": " << error;
      for (StringRef element : elements)
        perResult.push_back(StringAttr::get(ctx, element));
    } else {
      return op->emitError("'mhlo.sharding' must be a string");
    }
    if (perResult.size() != op->getNumResults())
      return op->emitError("has ") << perResult.size() << " shardings for "
                                   << op->getNumResults() << " results";
    StringAttr key = op->hasAttr(sdyName) ? sdyName : mhloName;
    for (auto [result, sharding] : llvm::zip(op->getResults(), perResult)) {
      size_t before = requests.size();
      auto attrs = DictionaryAttr::get(ctx, {NamedAttribute(key, sharding)});
      if (failed(collect(result, attrs,
                         "result " + std::to_string(result.getResultNumber()))))
        return failure();
      if (requests.size() > before) {
        requests.back().anchor = op;
        requests.back().op = op;
      }
    }
  }
  return success();
}

static partir::MeshAttr toPartirMesh(MLIRContext *ctx,
                                     ArrayRef<MeshAxis> axes) {
  SmallVector<StringAttr> names;
  SmallVector<int64_t> sizes;
  for (const MeshAxis &axis : axes) {
    names.push_back(StringAttr::get(ctx, axis.name));
    sizes.push_back(axis.size);
  }
  return partir::MeshAttr::get(ctx, names, sizes);
}

FailureOr<partir::MeshAttr> ShardingImporter::synthesizeMesh() {
  std::vector<AxisDecomposition> decompositions;
  for (Request &r : requests)
    if (r.mhlo && r.mhlo->kind == HloSharding::Kind::Tiled)
      decompositions.push_back(r.decomposition);
  if (decompositions.empty()) {
    // Only replicated shardings and no mesh: nothing says which axes they
    // keep whole. On one device (JAX's default export) that is no intent;
    // on several, a later search would shard what the user replicated.
    auto partitions = module->getAttrOfType<IntegerAttr>("mhlo.num_partitions");
    if (partitions && partitions.getInt() > 1 &&
        llvm::any_of(requests,
                     [](const Request &r) { return r.sdy || r.mhlo; }))
      module.emitWarning("partir-import-shardings: the shardings are all "
                         "replicated and the module has no mesh (partir.mesh "
                         "or sdy.mesh), so they are dropped: a later tactic "
                         "may shard these values; add a partir.mesh to keep "
                         "them whole");
    return partir::MeshAttr();
  }
  std::string error;
  auto sizes = synthesizeMeshSizes(decompositions, error);
  if (failed(sizes))
    return func.emitError("cannot build a mesh from the mhlo.sharding "
                          "annotations: ")
           << error;
  // Provisional names, then one per axis after the first dimension it
  // splits.
  SmallVector<MeshAxis> axes;
  for (auto [i, size] : llvm::enumerate(*sizes))
    axes.push_back({"#" + std::to_string(i), size});
  SmallVector<std::string> names(axes.size());
  llvm::StringSet<> taken;
  auto name = [&](unsigned axis, StringRef base) {
    if (!names[axis].empty())
      return;
    std::string candidate = base.str();
    for (int k = 1; taken.contains(candidate); ++k)
      candidate = base.str() + "_" + std::to_string(k);
    taken.insert(candidate);
    names[axis] = candidate;
  };
  auto indexOf = [&](StringRef provisional) {
    unsigned index = 0;
    (void)provisional.drop_front().getAsInteger(10, index);
    return index;
  };
  for (Request &r : requests) {
    if (!r.mhlo || r.mhlo->kind != HloSharding::Kind::Tiled)
      continue;
    SmallVector<std::string> replicated;
    SmallVector<std::string> manual;
    auto dims = mapToMesh(r.decomposition, axes, replicated, error, &manual);
    if (failed(dims))
      return r.emitError() << error;
    for (auto [d, dimAxes] : llvm::enumerate(*dims))
      for (const std::string &axis : dimAxes)
        name(indexOf(axis), "d" + std::to_string(d));
  }
  unsigned copies = 0;
  for (auto [i, axis] : llvm::enumerate(axes)) {
    if (names[i].empty())
      name(i, "r" + std::to_string(copies++));
    axis.name = names[i];
  }
  return toPartirMesh(module.getContext(), axes);
}

FailureOr<partir::MeshAttr> ShardingImporter::resolveMesh() {
  partir::MeshAttr existing = partir::getMesh(module);
  // The sdy mesh all sdy shardings (with axes) name, by symbol or inline.
  sdyMesh = {};
  Operation *sdyMeshAnchor = nullptr;
  for (Request &r : requests) {
    if (!r.sdy)
      continue;
    sdy::MeshAttr mesh = r.sdy.getMesh(func);
    if (!mesh)
      return r.emitError() << "sharding refers to unknown mesh "
                           << r.sdy.getMeshName();
    if (mesh.getAxisNames().empty())
      continue; // an empty or maximal mesh: replicated
    sdy::MeshOp meshOp = r.sdy.lookupMesh(func);
    Operation *anchor = meshOp ? meshOp.getOperation() : r.anchor;
    if (sdyMesh && sdyMesh != mesh)
      return r.emitError() << "shardings use different meshes " << sdyMesh
                           << " and " << mesh;
    if (!sdyMesh && !mesh.hasIotaDeviceIds()) {
      anchor->emitWarning("mesh with a device order (device_ids) Toast "
                          "cannot represent; ignoring the shardings that use "
                          "it");
      for (Request &other : requests)
        if (other.sdy && other.sdy.getMesh(func) == mesh)
          other.sdy = {};
      continue;
    }
    sdyMesh = mesh;
    sdyMeshAnchor = anchor;
  }
  if (sdyMesh) {
    FailureOr<partir::MeshAttr> split = splitSdyMesh(sdyMesh, sdyMeshAnchor);
    if (failed(split))
      return failure();
    partir::MeshAttr mesh = *split;
    if (existing && existing != mesh)
      return sdyMeshAnchor->emitError(
                 "mesh mismatch: the module's partir.mesh is ")
             << existing << " but the shardings use this mesh";
    return mesh;
  }
  if (existing)
    return existing;
  return synthesizeMesh();
}

FailureOr<partir::MeshAttr> ShardingImporter::splitSdyMesh(sdy::MeshAttr mesh,
                                                           Operation *anchor) {
  SmallVector<sdy::AxisRefAttr> refs;
  for (Request &r : requests) {
    if (!r.sdy || r.sdy.getMesh(func) != mesh)
      continue;
    for (sdy::DimensionShardingAttr dim : r.sdy.getDimShardings())
      llvm::append_range(refs, dim.getAxes());
    llvm::append_range(refs, r.sdy.getReplicatedAxes());
    llvm::append_range(refs, r.sdy.getUnreducedAxes());
  }
  std::string error;
  FailureOr<AxisSplit> pieces = AxisSplit::build(mesh, refs, error);
  if (failed(pieces))
    return anchor->emitError("cannot partition on this mesh: ") << error;
  split = *pieces;
  return toPartirMesh(mesh.getContext(), split->getPieces());
}

void ShardingImporter::splitRegions() {
  if (!split || !split->isSplit())
    return;
  MLIRContext *ctx = module.getContext();
  func.walk([&](sdy::ManualComputationOp op) {
    if (op.getMesh() != sdyMesh)
      return;
    SmallVector<std::string> pieces;
    for (StringRef axis : op.getManualAxes().getAsValueRange<StringAttr>())
      llvm::append_range(pieces, split->expand(sdy::AxisRefAttr::get(
                                     StringAttr::get(ctx, axis))));
    rewriteRegion(
        op, [&](sdy::TensorShardingAttr s) { return split->toPieces(s); },
        pieces);
  });
}

LogicalResult ShardingImporter::mapRequests(partir::MeshAttr mesh) {
  SmallVector<MeshAxis> axes = getMeshAxes(mesh);
  for (Request &r : requests) {
    if (r.sdy) {
      auto type = dyn_cast<RankedTensorType>(r.value.getType());
      if (!type || type.getRank() != r.sdy.getRank())
        return r.emitError()
               << "sharding has " << r.sdy.getRank()
               << " dimensions but the type is " << r.value.getType();
      // Each axis reference is the pieces of the partitioning mesh it
      // covers (a sub-axis, or an axis another sharding's sub-axes split).
      auto pieces =
          [&](sdy::AxisRefAttr ref) -> FailureOr<SmallVector<std::string>> {
        if (split && r.sdy.getMesh(func) == sdyMesh)
          return split->expand(ref);
        if (ref.isSubAxis())
          return r.emitError() << "sharding " << r.sdy.str()
                               << " uses a sub-axis of a mesh the "
                                  "partitioning mesh "
                               << mesh << " does not split";
        return SmallVector<std::string>{ref.getAxisName().str()};
      };
      llvm::StringSet<> used;
      for (auto [d, dimSharding] : llvm::enumerate(r.sdy.getDimShardings())) {
        auto &dim = r.dims.emplace_back();
        for (sdy::AxisRefAttr ref : dimSharding.getAxes()) {
          auto axes = pieces(ref);
          if (failed(axes))
            return failure();
          for (const std::string &axis : *axes) {
            dim.push_back(axis);
            used.insert(axis);
          }
        }
        r.closed &= dimSharding.getIsClosed();
      }
      for (sdy::AxisRefAttr ref : r.sdy.getReplicatedAxes()) {
        auto axes = pieces(ref);
        if (failed(axes))
          return failure();
        llvm::append_range(r.atomic, *axes);
      }
      if (r.closed && options.atomic && !whole)
        for (const MeshAxis &axis : axes)
          if (!used.contains(axis.name) &&
              !llvm::is_contained(r.atomic, axis.name))
            r.atomic.push_back(axis.name);
      continue;
    }
    if (!r.mhlo)
      continue;
    if (r.mhlo->kind == HloSharding::Kind::Replicated) {
      r.dims.resize(cast<ShapedType>(r.value.getType()).getRank());
      if (options.atomic && !whole)
        for (const MeshAxis &axis : axes)
          r.atomic.push_back(axis.name);
      continue;
    }
    std::string error;
    SmallVector<std::string> replicated;
    auto dims = mapToMesh(r.decomposition, axes, replicated, error, &r.manual);
    if (failed(dims))
      return r.emitError() << "mesh mismatch: mhlo.sharding \""
                           << printHloSharding(*r.mhlo) << "\" on mesh " << mesh
                           << ": " << error;
    r.dims = *dims;
    if (options.atomic && !whole)
      r.atomic = replicated;
  }
  return success();
}

/// Whether `r`'s layout cannot be added to the tiling its value has now: an
/// axis it puts on a dimension is on another one already, or kept whole.
static bool conflictsWithTiling(partition::ShardingState &state,
                                const Request &r) {
  SmallVector<partition::AxisDim> tiling = state.getTiling(r.value);
  ArrayRef<std::string> atomic = state.getAtomicAxes(r.value);
  for (auto [d, axes] : llvm::enumerate(r.dims))
    for (const std::string &axis : axes) {
      if (llvm::is_contained(atomic, axis))
        return true;
      for (const partition::AxisDim &level : tiling)
        if (level.axis == axis && level.dim != int64_t(d))
          return true;
    }
  return false;
}

/// Makes `r`'s readers read a copy of its value (a reshape to the same
/// type, free where the layouts agree) and gives the copy `r`'s layout:
/// a constraint or result sharding that changes a value's layout is a
/// reshard (`with_sharding_constraint`, `out_shardings`), which lowering
/// turns into the collective between the two layouts.
static void reshardCopy(Request &r) {
  Value value = r.value;
  OpBuilder b(value.getContext());
  if (Operation *def = value.getDefiningOp())
    b.setInsertionPointAfter(def);
  else
    b.setInsertionPointToStart(cast<BlockArgument>(value).getOwner());
  Location loc = r.erasedAt ? *r.erasedAt : value.getLoc();
  Value copy = stablehlo::ReshapeOp::create(b, loc, value.getType(), value);
  for (OpOperand *use : r.readers)
    use->set(copy);
  r.value = copy;
  r.copy = copy.getDefiningOp();
}

/// Makes `copy` loop over `r`'s layout, so that it reads its operand
/// resharded (an all_to_all where an axis moves between dimensions)
/// rather than whole.
static LogicalResult loopCopy(partition::ShardingState &state, Operation *copy,
                              Request &r) {
  const ShardingRule *rule = state.getRule(copy);
  for (auto [d, axes] : llvm::enumerate(r.dims))
    for (const std::string &axis : axes) {
      SmallVector<int64_t, 2> factors =
          rule ? rule->getDimFactors(/*isResult=*/true, 0, d)
               : SmallVector<int64_t, 2>();
      if (factors.empty() || failed(state.tileOp(copy, factors.front(), axis)))
        return r.emitError() << "cannot reshard the value to this sharding";
    }
  return success();
}

LogicalResult ShardingImporter::apply(partir::MeshAttr mesh) {
  // Each round either applies every request or gives more of them a copy
  // to reshard (a request gets at most one).
  for (size_t round = 0; round <= requests.size(); ++round) {
    bool copied = false;
    if (failed(applyOnce(mesh, copied)))
      return failure();
    if (!copied)
      return success();
  }
  llvm_unreachable("a request resharded twice");
}

LogicalResult ShardingImporter::applyOnce(partir::MeshAttr mesh, bool &copied) {
  partition::ShardingState state(func, mesh);
  if (failed(state.load()))
    return failure();
  SmallVector<Request *> order;
  for (Request &r : requests)
    if (r.sdy || r.mhlo)
      order.push_back(&r);
  // Axes a value must not be split on come first, so that no propagation
  // slices it on them (a fully specified sharding stays exactly the
  // boundary layout).
  for (Request *r : order) {
    SmallVector<partition::AxisDim> tiling = state.getTiling(r->value);
    for (const std::string &axis : r->atomic) {
      if (llvm::any_of(tiling,
                       [&](const partition::AxisDim &level) {
                         return level.axis == axis;
                       }) ||
          llvm::is_contained(state.getAtomicAxes(r->value), axis))
        continue;
      if (failed(state.atomic(r->value, axis)))
        return r->emitError() << "cannot keep the value replicated";
    }
  }
  // Then each sharding is applied and propagated in turn, so that earlier
  // ones win conflicts (PartIR's priority by order). Larger tensors go
  // first: when two shardings disagree inside the program, the smaller
  // tensor is then the one that is communicated. Ties keep the order
  // arguments, results, constraints.
  auto numElements = [](Request *r) {
    auto type = dyn_cast<ShapedType>(r->value.getType());
    return type && type.hasStaticShape() ? type.getNumElements() : 0;
  };
  // Reshard copies first: their layout is the user's at that point, and
  // the values around them must meet it there rather than flow through.
  std::stable_sort(order.begin(), order.end(), [&](Request *a, Request *b) {
    if (bool(a->copy) != bool(b->copy))
      return bool(a->copy);
    return numElements(a) > numElements(b);
  });
  // Every copy takes its layout before anything propagates: a copy's
  // layout flowing through the value into the next copy would conflict
  // with that one's.
  for (Request *r : order)
    if (r->copy && failed(loopCopy(state, r->copy, *r)))
      return failure();
  state.propagate();
  SmallVector<Request *> conflicting;
  for (Request *r : order) {
    if (r->copy)
      continue;
    if (!r->readers.empty() && conflictsWithTiling(state, *r)) {
      // The state knows the ops it was built on: the copies are made after
      // this round, which then starts over with them. The other requests
      // still run, so that one round finds every conflict it can.
      conflicting.push_back(r);
      continue;
    }
    for (auto [d, axes] : llvm::enumerate(r->dims))
      for (const std::string &axis : axes) {
        // A value may be annotated twice (argument and constraint), and a
        // tiling may already hold a level (deep tiling takes its
        // consumers' slicings, e.g. a shard_map's manual axes, along).
        if (llvm::is_contained(state.getTiling(r->value),
                               partition::AxisDim{axis, int64_t(d)}))
          continue;
        if (failed(state.tile(r->value, d, axis)))
          return r->emitError() << "cannot apply the sharding";
      }
    state.propagate();
  }
  if (!conflicting.empty()) {
    for (Request *r : conflicting)
      reshardCopy(*r);
    copied = true;
    return success();
  }
  if (failed(enforceGroups(state)))
    return failure();
  state.save();
  return success();
}

/// Per dimension, the axes of `tiling` in order (major first).
static SmallVector<SmallVector<std::string>>
dimAxesOf(ArrayRef<partition::AxisDim> tiling, Value value) {
  SmallVector<SmallVector<std::string>> dims(
      cast<RankedTensorType>(value.getType()).getRank());
  for (const partition::AxisDim &level : tiling)
    dims[level.dim].push_back(level.axis);
  return dims;
}

static std::string printDimAxes(ArrayRef<SmallVector<std::string>> dims) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleaveComma(dims, os, [&](ArrayRef<std::string> axes) {
    os << '{';
    llvm::interleaveComma(axes, os,
                          [&](const std::string &a) { os << '"' << a << '"'; });
    os << '}';
  });
  os << ']';
  return text;
}

LogicalResult ShardingImporter::enforceGroups(partition::ShardingState &state) {
  for (auto &[id, members] : groups) {
    // The group's sharding: its most tiled member's (the first on a tie).
    auto levels = [&](sdy::ShardingGroupOp op) {
      return state.getTiling(op.getInput()).size();
    };
    sdy::ShardingGroupOp ref = *llvm::max_element(
        members, [&](auto a, auto b) { return levels(a) < levels(b); });
    for (sdy::ShardingGroupOp member : members) {
      SmallVector<partition::AxisDim> have = state.getTiling(member.getInput());
      for (const partition::AxisDim &level : state.getTiling(ref.getInput()))
        if (!llvm::is_contained(have, level) &&
            failed(state.tile(member.getInput(), level.dim, level.axis)))
          return member.emitError("sharding_group ")
                 << id << ": this value cannot take the group's sharding";
      state.propagate();
    }
    // Levels on one dimension nest in order: tiling a member after the
    // fact may order them differently than the group's, a conflict.
    auto want = dimAxesOf(state.getTiling(ref.getInput()), ref.getInput());
    for (sdy::ShardingGroupOp member : members) {
      auto got =
          dimAxesOf(state.getTiling(member.getInput()), member.getInput());
      if (got != want)
        return member.emitError("sharding_group ")
               << id << ": conflicting shardings: this value is "
               << printDimAxes(got) << " but another member is "
               << printDimAxes(want);
    }
  }
  return success();
}

LogicalResult ShardingImporter::applyWhole(partir::MeshAttr mesh) {
  partition::ShardingState state(func, mesh);
  if (failed(state.load()))
    return failure();
  WholeShardings shardings;
  for (Request &r : requests) {
    if ((!r.sdy && !r.mhlo) || r.constraint || r.boundary)
      continue;
    shardings.held[r.value] = r.dims;
    if (!r.atomic.empty())
      shardings.atomic[r.value] = r.atomic;
  }
  for (Request &r : requests)
    if (r.constraint && (r.sdy || r.mhlo))
      recordConstraint(r.constraint, r.value, r.dims, shardings);
  for (Operation *op : constraints) {
    op->getResult(0).replaceAllUsesWith(op->getOperand(0));
    op->erase();
  }
  constraints.clear();
  if (failed(applyWholeShardings(state, shardings)))
    return failure();
  state.save();
  return success();
}

LogicalResult ShardingImporter::run() {
  whole = hasOpShardings(func);
  if (failed(collectAll()))
    return failure();
  FailureOr<partir::MeshAttr> mesh = resolveMesh();
  if (failed(mesh))
    return failure();
  if (*mesh) {
    if (auto partitions =
            module->getAttrOfType<IntegerAttr>("mhlo.num_partitions"))
      if (partitions.getInt() != 1 &&
          partitions.getInt() != mesh->getNumDevices())
        return module.emitError("mesh mismatch: mhlo.num_partitions is ")
               << partitions.getInt() << " but the mesh " << *mesh << " has "
               << mesh->getNumDevices() << " devices";
    module->setAttr(partir::PartIRDialect::kMeshAttrName, *mesh);
    if (failed(mapRequests(*mesh)))
      return failure();
    splitRegions();
    if (whole) {
      if (failed(applyWhole(*mesh)))
        return failure();
    } else {
      // Constraints become tilings of their operand; removing them first
      // lets propagation see the uses they separated. Their readers are
      // kept: where the operand's layout conflicts, they read a copy.
      // A constraint read by another constraint has no readers of its own
      // there: that use goes with the other one, whose readers count.
      llvm::DenseSet<Operation *> erased(constraints.begin(),
                                         constraints.end());
      for (Request &r : requests)
        if (r.constraint && r.constraint->getNumResults() == 1) {
          for (OpOperand &use : r.constraint->getResult(0).getUses())
            if (!erased.contains(use.getOwner()))
              r.readers.push_back(&use);
          // Read only by other constraints, its layout is one nothing
          // reads: the next constraint's decides.
          if (r.readers.empty() && !r.constraint->getResult(0).use_empty()) {
            r.sdy = {};
            r.mhlo.reset();
          }
          r.erasedAt = r.constraint->getLoc();
          r.anchor = nullptr;
          r.constraint = nullptr;
        }
      for (Operation *op : constraints) {
        // A request on the constraint's result (a function result that a
        // constraint feeds) is about its operand now.
        for (Request &r : requests)
          if (r.value == op->getResult(0))
            r.value = op->getOperand(0);
        op->getResult(0).replaceAllUsesWith(op->getOperand(0));
        op->erase();
      }
      constraints.clear();
      if (failed(apply(*mesh)))
        return failure();
    }
  }
  // The annotations now live in the partitioning state.
  dropShardings(module);
  return success();
}

void dropShardings(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>()) {
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      func.removeArgAttr(i, sdy::SdyDialect::kShardingAttrName);
      func.removeArgAttr(i, kMhloSharding);
    }
    for (unsigned i = 0; i < func.getNumResults(); ++i) {
      func.removeResultAttr(
          i, StringAttr::get(module.getContext(),
                             sdy::SdyDialect::kShardingAttrName));
      func.removeResultAttr(
          i, StringAttr::get(module.getContext(), kMhloSharding));
    }
  }
  // The sdy ops that only annotate go; sdy.constant (a constant Shardy
  // must not merge) is an ordinary constant to Toast.
  module.walk([](Operation *op) {
    if (isa<sdy::ShardingConstraintOp, sdy::ReshardOp>(op)) {
      op->getResult(0).replaceAllUsesWith(op->getOperand(0));
      op->erase();
      return;
    }
    if (isa<sdy::ShardingGroupOp>(op)) {
      op->erase();
      return;
    }
    if (auto constant = dyn_cast<sdy::ConstantOp>(op)) {
      OpBuilder b(op);
      Value value = stablehlo::ConstantOp::create(
          b, op->getLoc(), constant.getType(), constant.getValue());
      constant.getOutput().replaceAllUsesWith(value);
      op->erase();
      return;
    }
    op->removeAttr(sdy::SdyDialect::kShardingAttrName);
    // Op shardings of the whole-strategy form (GSPMD's `@Sharding` calls
    // keep theirs: they are constraints).
    if (!isCustomCall(op, "Sharding"))
      op->removeAttr(kMhloSharding);
  });
}

/// The sharding of a GSPMD region boundary's local (device) side: an
/// entry's own, an exit's `@Sharding` operand's. Null when absent.
static StringAttr localSharding(Operation *boundary) {
  Operation *annotated = boundary;
  if (!isCustomCall(boundary, "SPMDFullToShardShape")) {
    annotated = boundary->getOperand(0).getDefiningOp();
    if (!isCustomCall(annotated, "Sharding"))
      return {};
  }
  return annotated->getAttrOfType<StringAttr>(kMhloSharding);
}

LogicalResult ShardingImporter::liftRegions() {
  SmallVector<Operation *> boundaries = findGspmdBoundaries(func);
  if (boundaries.empty())
    return success();
  // toast-run lifts outside any pass, before these dialects were needed.
  MLIRContext *ctx = module.getContext();
  ctx->getOrLoadDialect<partir::PartIRDialect>();
  ctx->getOrLoadDialect<sdy::SdyDialect>();
  if (failed(collectAll()))
    return failure();
  readingRegions = true;
  // Per boundary op, the index of its global request and of its local one
  // (a partly manual boundary's; -1 for none).
  DenseMap<Operation *, std::pair<size_t, int64_t>> requestOf;
  DenseMap<Operation *, GspmdBoundary> info;
  for (Operation *op : boundaries) {
    if (op->getNumOperands() != 1 || op->getNumResults() != 1)
      return op->emitError("cannot read the GSPMD manual region: a region "
                           "boundary takes one operand and has one result");
    // An entry's global sharding is on the `@Sharding` call feeding it; an
    // exit carries its own.
    bool entry = isCustomCall(op, "SPMDFullToShardShape");
    Value value = op->getResult(0);
    Operation *annotated = op;
    if (entry) {
      value = op->getOperand(0);
      annotated = value.getDefiningOp();
      if (!isCustomCall(annotated, "Sharding"))
        return op->emitError("cannot read the GSPMD manual region: the "
                             "operand of @SPMDFullToShardShape must be a "
                             "@Sharding call");
    }
    size_t before = requests.size();
    if (failed(collect(value, annotated->getDiscardableAttrDictionary(),
                       "region boundary")))
      return failure();
    if (requests.size() == before)
      return op->emitError("cannot read the GSPMD manual region: its "
                           "boundary needs a tiled or replicated "
                           "mhlo.sharding");
    requests.back().anchor = op;
    requestOf[op] = {before, -1};
    info[op].openDims = getUnspecifiedDims(annotated);
    // `{manual}` is manual on every axis; a manual subgroup on its axes.
    StringAttr local = localSharding(op);
    if (!local || local.getValue() == "{manual}")
      continue;
    before = requests.size();
    auto attrs = DictionaryAttr::get(
        ctx, {NamedAttribute(StringAttr::get(ctx, kMhloSharding), local)});
    if (failed(collect(entry ? op->getResult(0) : op->getOperand(0), attrs,
                       "region boundary (local side)")))
      return failure();
    if (requests.size() == before)
      continue;
    requests.back().anchor = op;
    requestOf[op].second = before;
  }
  FailureOr<partir::MeshAttr> mesh = resolveMesh();
  if (failed(mesh))
    return failure();
  if (!*mesh)
    return boundaries.front()->emitError(
        "cannot read the GSPMD manual region: no sharding says which mesh "
        "it runs on");
  if (failed(mapRequests(*mesh)))
    return failure();
  for (auto [op, indices] : requestOf) {
    info[op].dims = requests[indices.first].dims;
    if (indices.second < 0)
      continue;
    Request &local = requests[indices.second];
    if (local.manual.empty())
      return op->emitError("cannot read the GSPMD manual region: the local "
                           "sharding of its boundary is not manual");
    info[op].manualAxes = local.manual;
  }
  return liftGspmdRegions(func, *mesh, info);
}

LogicalResult liftGspmdManualRegions(func::FuncOp func) {
  auto module = func->getParentOfType<ModuleOp>();
  return ShardingImporter(module, func, ShardingImportOptions()).liftRegions();
}

LogicalResult importShardings(ModuleOp module,
                              const ShardingImportOptions &options) {
  FailureOr<func::FuncOp> func = partition::getEntryFunction(module);
  if (failed(func))
    return failure();
  // GSPMD regions first, so that the import sees one form of shard_map.
  if (failed(liftGspmdManualRegions(*func)))
    return failure();
  return ShardingImporter(module, *func, options).run();
}

namespace {
struct PartirImportShardingsPass
    : impl::PartirImportShardingsPassBase<PartirImportShardingsPass> {
  using PartirImportShardingsPassBase::PartirImportShardingsPassBase;
  void runOnOperation() override {
    if (ignore) {
      dropShardings(getOperation());
      return;
    }
    ShardingImportOptions options;
    options.atomic = atomic;
    if (failed(importShardings(getOperation(), options)))
      signalPassFailure();
  }
};
} // namespace

} // namespace toast::xla
