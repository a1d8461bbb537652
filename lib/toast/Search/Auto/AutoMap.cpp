//===- AutoMap.cpp - The AutoMap-style argument-sharding baseline ---------===//
//
// AutoMap's actions tile function arguments and its states are argument
// shardings, priced after running propagation (TOAST §4.3, §5.3). Here a
// state is one axis mask per (argument, dimension) slot; pricing copies the
// start ShardingState, tiles, propagates, and imports the result into the
// NDA space, so both searches are scored by the same analytic cost.
//
//===----------------------------------------------------------------------===//

#include "toast/Interfaces/ValueNames.h"
#include "toast/Search/Baselines.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace toast::search {

AutoMapEnvironment::AutoMapEnvironment(const NdaEnvironment &space,
                                       partition::ShardingState &start)
    : space(space), start(start) {
  func::FuncOp func = start.getFunction();
  Operation *ret = func.front().getTerminator();
  for (auto [result, arg] : llvm::enumerate(getUpdatedArguments(func))) {
    if (!arg)
      continue;
    updatePairs.push_back({static_cast<unsigned>(result), *arg});
    if (ret->getOperand(result) != func.getArgument(*arg))
      updateOf.try_emplace(*arg, ret->getOperand(result));
  }
  for (BlockArgument arg : func.getArguments()) {
    firstSlot.push_back(numSlots);
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !type.hasStaticShape())
      continue;
    numSlots += type.getRank();
    for (int64_t dim = 0; dim < type.getRank(); ++dim)
      for (unsigned axis : space.getSearchAxes())
        if (type.getDimSize(dim) > 1)
          actions.push_back({arg.getArgNumber(), dim, axis});
  }
}

std::string AutoMapEnvironment::describeAction(unsigned action) const {
  const Action &a = actions[action];
  return "shard argument " + std::to_string(a.arg) + " dim " +
         std::to_string(a.dim) + " on axis " + space.getAxisName(a.axis).str();
}

SearchState AutoMapEnvironment::getInitialState() const {
  return SearchState{std::vector<AxisMask>(numSlots, 0)};
}

AxisMask AutoMapEnvironment::startAxes(unsigned arg, int64_t dim) const {
  partir::MeshAttr mesh = space.getMesh();
  Value value = start.getFunction().getArgument(arg);
  AxisMask mask = 0;
  for (const partition::AxisDim &level : start.getTiling(value))
    for (auto [i, name] : llvm::enumerate(mesh.getNames()))
      if (level.dim == dim && name.getValue() == level.axis)
        mask |= AxisMask(1) << i;
  return mask;
}

bool AutoMapEnvironment::isLegal(const SearchState &state,
                                 unsigned action) const {
  const Action &a = actions[action];
  Value value = start.getFunction().getArgument(a.arg);
  auto type = cast<RankedTensorType>(value.getType());
  AxisMask bit = AxisMask(1) << a.axis;
  // An axis tiles at most one dimension of a value, and never an atomic one.
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    if ((state.nodeAxes[slot(a.arg, dim)] | startAxes(a.arg, dim)) & bit)
      return false;
  StringRef axisName = space.getAxisName(a.axis);
  if (llvm::is_contained(start.getAtomicAxes(value), axisName))
    return false;
  AxisMask onDim =
      state.nodeAxes[slot(a.arg, a.dim)] | startAxes(a.arg, a.dim) | bit;
  int64_t tiles = 1;
  for (auto [i, size] : llvm::enumerate(space.getMesh().getSizes()))
    if (onDim & (AxisMask(1) << i))
      tiles *= size;
  return type.getDimSize(a.dim) % tiles == 0;
}

void AutoMapEnvironment::apply(SearchState &state, unsigned action) const {
  const Action &a = actions[action];
  state.nodeAxes[slot(a.arg, a.dim)] |= AxisMask(1) << a.axis;
}

FailureOr<SearchState>
AutoMapEnvironment::toSpaceState(const SearchState &state) const {
  partition::ShardingState copy = start;
  func::FuncOp func = start.getFunction();
  auto names = space.getMesh().getNames();
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || !type.hasStaticShape())
      continue;
    // The argument's update takes its tiling too, as `out_shardings` equal
    // to `in_shardings` do in JAX.
    Value update = updateOf.lookup(arg.getArgNumber());
    // Dimensions in order, axes of a dimension in mesh order (nesting).
    for (int64_t dim = 0; dim < type.getRank(); ++dim)
      for (auto [i, name] : llvm::enumerate(names))
        if (state.nodeAxes[slot(arg.getArgNumber(), dim)] &
                (AxisMask(1) << i) &&
            (failed(copy.tile(arg, dim, name.getValue())) ||
             (update && failed(copy.tile(update, dim, name.getValue())))))
          return failure();
  }
  copy.propagate();
  if (!keepsUpdatedLayouts(copy))
    return failure();
  return space.importState(copy);
}

/// Per dimension, the axes tiling it, outermost first.
static std::vector<std::vector<std::string>>
axesByDim(llvm::ArrayRef<partition::AxisDim> tiling, int64_t rank) {
  std::vector<std::vector<std::string>> dims(rank);
  for (const partition::AxisDim &level : tiling)
    if (level.dim >= 0 && level.dim < rank)
      dims[level.dim].push_back(level.axis);
  return dims;
}

/// Whether every result that updates an argument (a training step's new
/// parameters: toast::getUpdatedArguments) leaves in that argument's layout,
/// so that a training loop can repeat the step. Propagation from one
/// argument can shard an update whose argument stays whole (the Adam moment
/// of a training MLP sharded, the parameter it updates taken replicated and
/// returned sharded); such a state is no strategy for a loop, as the ILP
/// treats it (docs/search.md).
bool AutoMapEnvironment::keepsUpdatedLayouts(
    partition::ShardingState &sharding) const {
  func::FuncOp func = sharding.getFunction();
  Operation *ret = func.front().getTerminator();
  for (auto [result, arg] : updatePairs) {
    Value update = ret->getOperand(result);
    auto type = dyn_cast<RankedTensorType>(update.getType());
    if (!type)
      continue;
    if (axesByDim(sharding.getTiling(update), type.getRank()) !=
        axesByDim(sharding.getTiling(func.getArgument(arg)), type.getRank()))
      return false;
  }
  return true;
}

double AutoMapEnvironment::cost(const SearchState &state) const {
  FailureOr<SearchState> mapped = toSpaceState(state);
  return succeeded(mapped) ? space.cost(*mapped) : kUnpriceable;
}

} // namespace toast::search
