//===- CostModel.cpp - Per-op analytical costs ----------------------------===//
//
// FLOPs of contractions, tensor sizes and ring collectives. Everything here
// looks at one op; accumulation along the program is in Simulator.cpp.
//
//===----------------------------------------------------------------------===//

#include "toast/Simulator/CostModel.h"

#include "toast/Dialect/PartIR/HLO/IR/PartIRHLO.h"
#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace toast::sim;
namespace hlo = toast::stablehlo;
namespace phlo = toast::partir_hlo;

StringRef toast::sim::getCollectiveKindName(CollectiveKind kind) {
  switch (kind) {
  case CollectiveKind::AllGather:
    return "all_gather";
  case CollectiveKind::AllReduce:
    return "all_reduce";
  case CollectiveKind::ReduceScatter:
    return "reduce_scatter";
  case CollectiveKind::AllToAll:
    return "all_to_all";
  case CollectiveKind::CollectivePermute:
    return "collective_permute";
  }
  llvm_unreachable("unknown collective kind");
}

CollectiveCost toast::sim::ringCollectiveCost(CollectiveKind kind,
                                              int64_t groupSize,
                                              double localBytes,
                                              const LinkSpec &link) {
  CollectiveCost cost;
  if (groupSize <= 1 || localBytes <= 0)
    return cost;
  double n = static_cast<double>(groupSize);
  switch (kind) {
  case CollectiveKind::AllGather:
  case CollectiveKind::ReduceScatter:
    // n-1 steps, each moving one of the n chunks of the full buffer.
    cost.steps = groupSize - 1;
    cost.bytes = (n - 1) / n * localBytes;
    break;
  case CollectiveKind::AllReduce:
    // Reduce-scatter then all-gather of the same buffer.
    cost.steps = 2 * (groupSize - 1);
    cost.bytes = 2 * (n - 1) / n * localBytes;
    break;
  case CollectiveKind::AllToAll:
    // Chunk i travels i hops (i = 1..n-1) on a unidirectional ring: every
    // link carries sum_i i * L/n = (n-1)/2 * L bytes over n-1 steps.
    cost.steps = groupSize - 1;
    cost.bytes = (n - 1) / 2 * localBytes;
    break;
  case CollectiveKind::CollectivePermute:
    cost.steps = 1;
    cost.bytes = localBytes;
    break;
  }
  cost.time = static_cast<double>(cost.steps) * link.latency +
              (link.bandwidth > 0 ? cost.bytes / link.bandwidth : 0);
  return cost;
}

LinkSpec toast::sim::getGroupLink(const DeviceSpec &device,
                                  ArrayRef<std::string> axes) {
  if (axes.empty())
    return device.interconnect;
  LinkSpec result{std::numeric_limits<double>::infinity(), 0};
  for (const std::string &axis : axes) {
    const LinkSpec &link = device.getLink(axis);
    result.bandwidth = std::min(result.bandwidth, link.bandwidth);
    result.latency = std::max(result.latency, link.latency);
  }
  return result;
}

int64_t toast::sim::getTypeBytes(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    int64_t total = 0;
    for (Type element : tuple.getTypes())
      total += getTypeBytes(element);
    return total;
  }
  auto shaped = dyn_cast<RankedTensorType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return 0;
  Type element = shaped.getElementType();
  int64_t elementBytes = 4;
  if (auto complex = dyn_cast<ComplexType>(element))
    elementBytes =
        2 * ((complex.getElementType().getIntOrFloatBitWidth() + 7) / 8);
  else if (element.isIntOrFloat())
    elementBytes = (element.getIntOrFloatBitWidth() + 7) / 8;
  else if (isa<IndexType>(element))
    elementBytes = 8;
  return shaped.getNumElements() * elementBytes;
}

bool toast::sim::hasCountableBytes(Type type) {
  constexpr int64_t kLimit = int64_t(1) << 62;
  if (auto tuple = dyn_cast<TupleType>(type)) {
    int64_t total = 0;
    for (Type element : tuple.getTypes()) {
      if (!hasCountableBytes(element))
        return false;
      total += getTypeBytes(element);
      if (total >= kLimit)
        return false;
    }
    return true;
  }
  auto shaped = dyn_cast<RankedTensorType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return true;
  // 16 bytes covers the widest element (complex<f64>) getTypeBytes counts.
  int64_t bytes = 16;
  for (int64_t dim : shaped.getShape())
    if (llvm::MulOverflow(bytes, dim, bytes) || bytes >= kLimit)
      return false;
  return true;
}

/// The first value under `root` (in `Order`: each op's results, then its
/// regions' block arguments) whose type `matches`, with the op that defines
/// it or owns its block; null if none does.
template <WalkOrder Order>
static std::pair<Value, Operation *>
findFirstValue(Operation *root, function_ref<bool(Type)> matches) {
  std::pair<Value, Operation *> found;
  auto check = [&](Operation *op, ValueRange values) {
    for (Value value : values)
      if (matches(value.getType())) {
        found = {value, op};
        return true;
      }
    return false;
  };
  root->walk<Order>([&](Operation *op) {
    if (check(op, op->getResults()))
      return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (check(op, block.getArguments()))
          return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found;
}

std::optional<std::pair<Operation *, Type>>
toast::sim::findUncountableType(Operation *root) {
  auto [value, op] = findFirstValue<WalkOrder::PostOrder>(
      root, [](Type type) { return !hasCountableBytes(type); });
  if (!value)
    return std::nullopt;
  return std::make_pair(op, value.getType());
}

/// Whether getTypeBytes counts `type` as 0 bytes for want of a static
/// shape (a tuple does if one of its leaves does).
static bool hasDynamicShape(Type type) {
  if (auto tuple = dyn_cast<TupleType>(type))
    return llvm::any_of(tuple.getTypes(), hasDynamicShape);
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && !shaped.hasStaticShape();
}

Value toast::sim::findDynamicallyShapedValue(Operation *root) {
  return findFirstValue<WalkOrder::PreOrder>(root, hasDynamicShape).first;
}

LogicalResult toast::sim::checkCountableBytes(Operation *root, StringRef who) {
  std::optional<std::pair<Operation *, Type>> found = findUncountableType(root);
  if (!found)
    return success();
  return found->first->emitError(who)
         << "type " << found->second
         << " has 2^62 bytes or more, past what 64-bit byte counts can sum";
}

static double product(ArrayRef<int64_t> shape, ArrayRef<int64_t> dims) {
  double result = 1;
  for (int64_t dim : dims)
    result *= static_cast<double>(shape[dim]);
  return result;
}

static double numElements(Type type) {
  auto shaped = dyn_cast<RankedTensorType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return 0;
  return static_cast<double>(shaped.getNumElements());
}

bool toast::sim::isContraction(Operation *op) {
  return isa<hlo::DotGeneralOp, hlo::DotOp, hlo::ConvolutionOp>(op);
}

double toast::sim::getContractionFlops(Operation *op) {
  return llvm::TypeSwitch<Operation *, double>(op)
      .Case([](hlo::DotGeneralOp dot) {
        // Every result element is a sum over the contracting dimensions.
        auto lhs = dyn_cast<RankedTensorType>(dot.getLhs().getType());
        if (!lhs || !lhs.hasStaticShape())
          return 0.0;
        double contracted =
            product(lhs.getShape(),
                    dot.getDotDimensionNumbers().getLhsContractingDimensions());
        return 2 * numElements(dot.getType()) * contracted;
      })
      .Case([](hlo::DotOp dot) {
        auto lhs = dyn_cast<RankedTensorType>(dot.getLhs().getType());
        if (!lhs || !lhs.hasStaticShape() || lhs.getRank() == 0)
          return 0.0;
        double contracted = static_cast<double>(lhs.getShape().back());
        return 2 * numElements(dot.getType()) * contracted;
      })
      .Case([](hlo::ConvolutionOp conv) {
        // Every output element sums over the kernel window and the input
        // features of its group (the kernel's input-feature dimension).
        auto kernel = dyn_cast<RankedTensorType>(conv.getRhs().getType());
        if (!kernel || !kernel.hasStaticShape())
          return 0.0;
        auto dims = conv.getDimensionNumbers();
        double window =
            product(kernel.getShape(), dims.getKernelSpatialDimensions());
        double features = static_cast<double>(
            kernel.getShape()[dims.getKernelInputFeatureDimension()]);
        return 2 * numElements(conv.getType()) * window * features;
      })
      .Default([](Operation *) { return 0.0; });
}

Type toast::sim::getContractionElementType(Operation *op) {
  Type lhs = getElementTypeOrSelf(op->getOperand(0).getType());
  Type rhs = op->getNumOperands() > 1
                 ? getElementTypeOrSelf(op->getOperand(1).getType())
                 : lhs;
  if (lhs == rhs || op->getNumResults() == 0)
    return lhs;
  return getElementTypeOrSelf(op->getResult(0).getType());
}

std::string toast::sim::getContractionPeakKey(Operation *op,
                                              const DeviceSpec &device,
                                              bool tf32) {
  std::string key = getElementTypeKey(getContractionElementType(op));
  if (tf32 && key == "f32" && device.peakFlops.count("tf32"))
    return "tf32";
  return key;
}

double toast::sim::getContractionTime(Operation *op, const DeviceSpec &device,
                                      bool tf32) {
  double flops = getContractionFlops(op);
  if (flops == 0)
    return 0;
  return flops / device.getPeakFlops(getContractionPeakKey(op, device, tf32));
}

/// Axes of a per-dimension axes attribute, in dimension order.
static SmallVector<std::string> flattenDimAxes(ArrayAttr dims) {
  SmallVector<std::string> axes;
  for (const auto &dim : phlo::getDimAxes(dims))
    for (const std::string &axis : dim)
      if (!llvm::is_contained(axes, axis))
        axes.push_back(axis);
  return axes;
}

/// Devices per group of a `replica_groups` table (rows padded with -1).
static int64_t getReplicaGroupSize(DenseIntElementsAttr groups,
                                   toast::partir::MeshAttr mesh) {
  auto type = cast<ShapedType>(groups.getType());
  if (type.getRank() != 2 || type.getNumElements() == 0)
    return mesh ? mesh.getNumDevices() : 1; // Empty: all devices.
  int64_t columns = type.getShape()[1];
  int64_t largest = 0, inRow = 0, index = 0;
  for (const APInt &id : groups.getValues<APInt>()) {
    if (id.getSExtValue() >= 0)
      ++inRow;
    if (++index % columns == 0) {
      largest = std::max(largest, inRow);
      inRow = 0;
    }
  }
  return largest;
}

static double sumBytes(TypeRange types) {
  double total = 0;
  for (Type type : types)
    total += static_cast<double>(getTypeBytes(type));
  return total;
}

std::optional<CollectiveInfo>
toast::sim::getCollectiveInfo(Operation *op, toast::partir::MeshAttr mesh,
                              std::string *error) {
  std::optional<CollectiveInfo> info;
  auto make = [&](CollectiveKind kind, SmallVector<std::string> axes,
                  double bytes) {
    info = CollectiveInfo{kind, 1, std::move(axes), bytes};
  };
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](phlo::AllGatherOp gather) {
        // Every device sends its whole chunk, padding included: the
        // operand times the group size (the result, unless padded).
        SmallVector<std::string> axes = flattenDimAxes(gather.getDims());
        double groupSize = 1;
        for (const std::string &axis : axes)
          groupSize *= mesh ? mesh.getAxisSize(axis).value_or(1) : 1;
        make(CollectiveKind::AllGather, axes,
             mesh ? sumBytes(gather->getOperandTypes()) * groupSize
                  : sumBytes(gather->getResultTypes()));
      })
      .Case([&](phlo::ReduceScatterOp scatter) {
        make(CollectiveKind::ReduceScatter, flattenDimAxes(scatter.getDims()),
             sumBytes(scatter->getOperandTypes()));
      })
      .Case([&](phlo::AllReduceOp reduce) {
        make(CollectiveKind::AllReduce, phlo::getAxisNames(reduce.getAxes()),
             sumBytes(reduce->getOperandTypes()));
      })
      .Case([&](phlo::AllToAllOp a2a) {
        make(CollectiveKind::AllToAll, phlo::getAxisNames(a2a.getAxes()),
             sumBytes(a2a->getOperandTypes()));
      })
      .Case([&](hlo::AllGatherOp gather) {
        make(CollectiveKind::AllGather, {}, sumBytes(gather->getResultTypes()));
        info->groupSize = getReplicaGroupSize(gather.getReplicaGroups(), mesh);
      })
      .Case([&](hlo::AllReduceOp reduce) {
        make(CollectiveKind::AllReduce, {},
             sumBytes(reduce->getOperandTypes()));
        info->groupSize = getReplicaGroupSize(reduce.getReplicaGroups(), mesh);
      })
      .Case([&](hlo::ReduceScatterOp scatter) {
        make(CollectiveKind::ReduceScatter, {},
             sumBytes(scatter->getOperandTypes()));
        info->groupSize = getReplicaGroupSize(scatter.getReplicaGroups(), mesh);
      })
      .Case([&](hlo::AllToAllOp a2a) {
        make(CollectiveKind::AllToAll, {}, sumBytes(a2a->getOperandTypes()));
        info->groupSize = a2a.getSplitCount();
      })
      .Case([&](hlo::CollectivePermuteOp permute) {
        make(CollectiveKind::CollectivePermute, {},
             sumBytes(permute->getOperandTypes()));
        info->groupSize =
            permute.getSourceTargetPairs().getNumElements() > 0 ? 2 : 1;
      });
  if (!info || info->axes.empty())
    return info;

  // Mesh-axis collectives: the group is the product of the axes' sizes.
  int64_t size = 1;
  for (const std::string &axis : info->axes) {
    std::optional<int64_t> axisSize =
        mesh ? mesh.getAxisSize(axis) : std::nullopt;
    if (!axisSize) {
      if (error)
        *error = mesh ? llvm::formatv("collective over axis '{0}', which the "
                                      "mesh does not have",
                                      axis)
                            .str()
                      : "collective over mesh axes, but the module has no "
                        "'partir.mesh' attribute";
      return std::nullopt;
    }
    size *= *axisSize;
  }
  info->groupSize = size;
  return info;
}
