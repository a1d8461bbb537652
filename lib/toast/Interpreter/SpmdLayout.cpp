//===- SpmdLayout.cpp - Which device holds which shard --------------------===//
//
// Recognizes device-local programs and reads the shardings of their entry
// function's arguments and results (see Spmd.h for the two formats).
//
//===----------------------------------------------------------------------===//

#include "toast/Interpreter/Spmd.h"

#include "OpImpl.h"

#include "toast/Dialect/PartIR/HLO/IR/PartIRHLO.h"
#include "toast/Dialect/Sdy/IR/Sdy.h"
#include "toast/Dialect/StableHLO/IR/StablehloOps.h"
#include "toast/Export/ReplicaGroups.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace toast::interp;
namespace xla = toast::xla;

static constexpr llvm::StringLiteral kPartirSharding = "partir.sharding";
static constexpr llvm::StringLiteral kGlobalSharding = "toast.global_sharding";
static constexpr llvm::StringLiteral kGlobalShape = "toast.global_shape";

namespace {

/// Reads the shardings of one function boundary; errors name the value.
class LayoutReader {
public:
  LayoutReader(func::FuncOp func, const SpmdProgram &program)
      : func(func), program(program) {}

  /// The layout of a value of device-local type `type` annotated with
  /// `attrs`; `what` names it in errors ("argument #2").
  FailureOr<ShardLayout> read(Type type, DictionaryAttr attrs,
                              const std::string &what);

private:
  InFlightDiagnostic error(const std::string &what) {
    return emitError(func.getLoc())
           << "toast-run: " << what << " of @" << func.getSymName() << ": ";
  }
  FailureOr<ShardLayout> fromDimAxes(Attribute attr, int64_t rank,
                                     const std::string &what);
  FailureOr<ShardLayout> fromHloSharding(Attribute attr, int64_t rank,
                                         const std::string &what);

  func::FuncOp func;
  const SpmdProgram &program;
};

} // namespace

static ShardLayout replicatedLayout(int64_t rank, int64_t numDevices) {
  ShardLayout layout;
  layout.tiles.assign(rank, 1);
  layout.deviceTiles.assign(numDevices, SmallVector<int64_t>(rank, 0));
  return layout;
}

FailureOr<ShardLayout> LayoutReader::fromDimAxes(Attribute attr, int64_t rank,
                                                 const std::string &what) {
  auto dims = dyn_cast<ArrayAttr>(attr);
  if (!dims || !toast::partir_hlo::isDimAxes(dims))
    return error(what) << "malformed '" << kPartirSharding << "' " << attr
                       << " (expected per-dimension axis lists such as "
                          "[[\"B\"], []])";
  if (static_cast<int64_t>(dims.size()) != rank)
    return error(what) << "'" << kPartirSharding << "' " << attr << " has "
                       << dims.size() << " dimensions, the value " << rank;
  ShardLayout layout = replicatedLayout(rank, program.numDevices);
  llvm::StringSet<> seen;
  for (auto [d, axes] : llvm::enumerate(toast::partir_hlo::getDimAxes(dims))) {
    for (const std::string &axis : axes)
      if (!seen.insert(axis).second)
        return error(what) << "'" << kPartirSharding << "' uses axis \""
                           << axis << "\" twice";
    SmallVector<StringRef> names(axes.begin(), axes.end());
    auto groups = xla::computeReplicaGroups(program.mesh, names);
    if (failed(groups))
      return error(what) << "'" << kPartirSharding << "' " << attr
                         << " names an axis that is not in the mesh";
    // A device's tile is its position in its group: the group lists the
    // devices row-major over the dimension's axes, as all_gather
    // concatenates them.
    layout.tiles[d] = groups->front().size();
    for (const auto &group : *groups)
      for (auto [position, device] : llvm::enumerate(group))
        layout.deviceTiles[device][d] = position;
  }
  return layout;
}

FailureOr<ShardLayout> LayoutReader::fromHloSharding(Attribute attr,
                                                     int64_t rank,
                                                     const std::string &what) {
  auto text = dyn_cast<StringAttr>(attr);
  if (!text)
    return error(what) << "'" << kGlobalSharding
                       << "' must be an HloSharding string, got " << attr;
  std::string message;
  FailureOr<xla::HloSharding> sharding =
      xla::parseHloSharding(text.getValue(), message);
  if (failed(sharding))
    return error(what) << "malformed '" << kGlobalSharding << "' \""
                       << text.getValue() << "\": " << message;
  using Kind = xla::HloSharding::Kind;
  if (sharding->kind == Kind::Replicated)
    return replicatedLayout(rank, program.numDevices);
  if (sharding->kind != Kind::Tiled)
    return error(what) << "unsupported '" << kGlobalSharding << "' \""
                       << text.getValue()
                       << "\" (only tiled and replicated shardings)";
  if (sharding->getTensorRank() != rank)
    return error(what) << "'" << kGlobalSharding << "' \"" << text.getValue()
                       << "\" has " << sharding->getTensorRank()
                       << " dimensions, the value " << rank;
  SmallVector<int64_t> devices = sharding->getDeviceList();
  if (static_cast<int64_t>(devices.size()) != program.numDevices)
    return error(what) << "'" << kGlobalSharding << "' \"" << text.getValue()
                       << "\" places the value on " << devices.size()
                       << " devices, but mhlo.num_partitions is "
                       << program.numDevices;
  ShardLayout layout = replicatedLayout(rank, program.numDevices);
  layout.tiles.assign(sharding->tileDims.begin(),
                      sharding->tileDims.begin() + rank);
  SmallVector<bool> placed(devices.size(), false);
  // Device list position p is the row-major index over tileDims; its first
  // `rank` coordinates are the tile (the last one, if any, a copy number).
  IndexIterator it(sharding->tileDims);
  for (int64_t device : devices) {
    if (device < 0 || device >= program.numDevices || placed[device])
      return error(what) << "'" << kGlobalSharding << "' \""
                         << text.getValue()
                         << "\" does not list each device once";
    placed[device] = true;
    layout.deviceTiles[device].assign(it.index().begin(),
                                      it.index().begin() + rank);
    it.next();
  }
  return layout;
}

FailureOr<ShardLayout> LayoutReader::read(Type type, DictionaryAttr attrs,
                                          const std::string &what) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType || !tensorType.hasStaticShape())
    return error(what) << "unsupported type " << type
                       << " (expected a statically shaped tensor)";
  int64_t rank = tensorType.getRank();
  Attribute dims = attrs ? attrs.get(kPartirSharding) : Attribute();
  Attribute hlo = attrs ? attrs.get(kGlobalSharding) : Attribute();
  bool partir = program.kind == SpmdProgram::Kind::PartIRHLO;
  if ((partir && hlo) || (!partir && dims))
    return error(what) << "'" << (partir ? kGlobalSharding : kPartirSharding)
                       << "' does not belong in a "
                       << (partir ? "PartIR:HLO program (use '"
                                  : "exported StableHLO program (use '")
                       << (partir ? kPartirSharding : kGlobalSharding)
                       << "')";
  if (dims)
    return fromDimAxes(dims, rank, what);
  if (hlo)
    return fromHloSharding(hlo, rank, what);
  return replicatedLayout(rank, program.numDevices);
}

/// The global type of a device-local value of type `local`: the recorded
/// global shape of a padded value, else the tiles times the local shape.
static FailureOr<Type> globalTypeOf(func::FuncOp func, Type local,
                                    const ShardLayout &layout,
                                    DictionaryAttr attrs,
                                    const std::string &what) {
  auto type = cast<RankedTensorType>(local);
  SmallVector<int64_t> shape(type.getShape());
  for (auto [size, tiles] : llvm::zip_equal(shape, layout.tiles))
    size *= tiles;
  auto global = attrs ? attrs.getAs<DenseI64ArrayAttr>(kGlobalShape)
                      : DenseI64ArrayAttr();
  if (!global)
    return Type(type.clone(shape));
  bool fits = global.size() == shape.size();
  for (unsigned d = 0; fits && d < shape.size(); ++d)
    fits = toast::partir::chunkSize(global[d], layout.tiles[d]) ==
           type.getDimSize(d);
  if (!fits)
    return emitError(func.getLoc())
           << "toast-run: " << what << " of @" << func.getSymName() << ": '"
           << kGlobalShape << "' " << global << " does not give the local "
           << type << " under its sharding";
  return Type(type.clone(global.asArrayRef()));
}

/// Which kind of device-local program `module` is, if any; sets
/// `collective` to its first StableHLO collective (or partition_id).
static std::optional<SpmdProgram::Kind>
detectKind(ModuleOp module, func::FuncOp func, Operation *&collective) {
  bool hasPartirHlo = false;
  collective = nullptr;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    // A shard_map body is device-local inside a global program: its
    // collectives do not make the program device-local.
    if (isa<toast::sdy::ManualComputationOp>(op))
      return WalkResult::skip();
    if (isa<toast::partir_hlo::PartIRHLODialect>(op->getDialect()))
      hasPartirHlo = true;
    if (!collective &&
        isa<toast::stablehlo::AllReduceOp, toast::stablehlo::AllGatherOp,
            toast::stablehlo::ReduceScatterOp, toast::stablehlo::AllToAllOp,
            toast::stablehlo::CollectivePermuteOp,
            toast::stablehlo::CollectiveBroadcastOp,
            toast::stablehlo::PartitionIdOp>(op))
      collective = op;
    return WalkResult::advance();
  });
  auto hasAttr = [&](StringRef name) {
    for (unsigned i = 0; i < func.getNumArguments(); ++i)
      if (func.getArgAttr(i, name))
        return true;
    for (unsigned i = 0; i < func.getNumResults(); ++i)
      if (func.getResultAttr(i, name))
        return true;
    return false;
  };
  if (hasPartirHlo || hasAttr(kPartirSharding))
    return SpmdProgram::Kind::PartIRHLO;
  // `mhlo.num_partitions` alone does not make a program device-local: JAX
  // exports of global programs carry it too.
  if (collective || hasAttr(kGlobalSharding))
    return SpmdProgram::Kind::ExportedStableHLO;
  return std::nullopt;
}

/// Sets the device count (and mesh) of `program` from the module.
static LogicalResult readDevices(ModuleOp module, func::FuncOp func,
                                 Operation *collective, SpmdProgram &program) {
  if (program.kind == SpmdProgram::Kind::PartIRHLO) {
    toast::partir::MeshAttr mesh = toast::partir::getMesh(func);
    if (!mesh)
      return emitError(func.getLoc())
             << "toast-run: @" << func.getSymName()
             << " is a PartIR:HLO program but has no partir.mesh attribute "
                "(on the function or the module)";
    program.mesh = xla::getMeshAxes(mesh);
    program.numDevices = mesh.getNumDevices();
    return success();
  }
  auto partitions = module->getAttrOfType<IntegerAttr>("mhlo.num_partitions");
  if (!partitions || partitions.getInt() < 1)
    return emitError(collective ? collective->getLoc() : func.getLoc())
           << "toast-run: a StableHLO program with collectives or "
              "'toast.global_sharding' needs a positive integer "
              "'mhlo.num_partitions' module attribute";
  auto replicas = module->getAttrOfType<IntegerAttr>("mhlo.num_replicas");
  if (replicas && replicas.getInt() != 1)
    return emitError(func.getLoc())
           << "toast-run: unsupported mhlo.num_replicas = "
           << replicas.getInt() << " (only one replica is simulated)";
  program.numDevices = partitions.getInt();
  return success();
}

FailureOr<std::optional<SpmdProgram>>
toast::interp::analyzeSpmdProgram(func::FuncOp func) {
  auto module = func->getParentOfType<ModuleOp>();
  Operation *collective;
  std::optional<SpmdProgram::Kind> kind = detectKind(module, func, collective);
  if (!kind)
    return std::optional<SpmdProgram>();
  SpmdProgram program;
  program.kind = *kind;
  if (failed(readDevices(module, func, collective, program)))
    return failure();
  // One thread per device: refuse meshes no machine could simulate rather
  // than fail to start the threads.
  if (program.numDevices > kMaxSimulatedDevices)
    return emitError(func.getLoc())
           << "toast-run: " << program.numDevices
           << " devices is more than the " << kMaxSimulatedDevices
           << " the interpreter simulates (one thread each)";
  LayoutReader reader(func, program);
  FunctionType type = func.getFunctionType();
  SmallVector<Type> globalInputs, globalResults;
  // Reads one boundary value: its layout and its global type.
  auto readValue = [&](Type local, DictionaryAttr attrs, std::string what,
                       SmallVector<ShardLayout> &layouts,
                       SmallVector<Type> &globals) -> LogicalResult {
    auto layout = reader.read(local, attrs, what);
    if (failed(layout))
      return failure();
    FailureOr<Type> global = globalTypeOf(func, local, *layout, attrs, what);
    if (failed(global))
      return failure();
    globals.push_back(*global);
    layouts.push_back(std::move(*layout));
    return success();
  };
  for (unsigned i = 0; i < type.getNumInputs(); ++i)
    if (failed(readValue(type.getInput(i), func.getArgAttrDict(i),
                         "argument #" + std::to_string(i), program.args,
                         globalInputs)))
      return failure();
  for (unsigned i = 0; i < type.getNumResults(); ++i)
    if (failed(readValue(type.getResult(i), func.getResultAttrDict(i),
                         "result #" + std::to_string(i), program.results,
                         globalResults)))
      return failure();
  program.globalType =
      FunctionType::get(func.getContext(), globalInputs, globalResults);
  return std::optional<SpmdProgram>(std::move(program));
}

Tensor toast::interp::extractShard(const Tensor &global,
                                   const ShardLayout &layout, int64_t device) {
  SmallVector<int64_t> shape(global.getShape()), offsets;
  for (auto [d, tiles] : llvm::enumerate(layout.tiles)) {
    shape[d] = toast::partir::chunkSize(shape[d], tiles);
    offsets.push_back(layout.deviceTiles[device][d] * shape[d]);
  }
  return toast::interp::detail::extractPaddedBlock(global, offsets, shape);
}
