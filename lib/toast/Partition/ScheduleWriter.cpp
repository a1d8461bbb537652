//===- ScheduleWriter.cpp - A partitioning state as manual tactics --------===//

#include "toast/Partition/ScheduleWriter.h"
#include "toast/Interfaces/ValueNames.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"

#include <numeric>

using namespace mlir;

namespace toast::partition {

/// Whether `name` would be read as something other than a plain name.
static bool isSpecialSelector(StringRef name) {
  unsigned index;
  return name.empty() || name.starts_with("re:") ||
         (name.starts_with("arg") &&
          !name.drop_front(3).getAsInteger(10, index));
}

std::string argumentSelector(func::FuncOp func, unsigned i) {
  for (StringRef name : getArgumentNames(func, i)) {
    if (isSpecialSelector(name))
      continue;
    bool unique = true;
    for (unsigned j = 0; j < func.getNumArguments() && unique; ++j)
      unique = j == i || !llvm::is_contained(getArgumentNames(func, j), name);
    func.walk([&](partir::TagOp tag) { unique &= tag.getName() != name; });
    if (unique)
      return name.str();
  }
  return "arg" + std::to_string(i);
}

/// The tactic level of each level of `tiling`: its index, or with `early`
/// the first level whose tactic of that axis comes after the previous
/// level's (tactics run level by level in mesh order), so that an argument
/// tiled B then M gets both in level 0 and no propagation on M from other
/// arguments runs in between (deep tiling would otherwise nest the
/// consumers' M slicing in its tiling, and the argument's own M level
/// would then fail).
SmallVector<size_t> tacticLevels(ArrayRef<AxisDim> tiling,
                                 partir::MeshAttr mesh, bool early) {
  SmallVector<size_t> levels;
  auto axisIndex = [&](StringRef axis) {
    return llvm::find(mesh.getNames(), axis) - mesh.getNames().begin();
  };
  for (auto [i, level] : llvm::enumerate(tiling)) {
    if (!early || i == 0) {
      levels.push_back(early ? 0 : i);
      continue;
    }
    bool later = axisIndex(level.axis) > axisIndex(tiling[i - 1].axis);
    levels.push_back(levels.back() + (later ? 0 : 1));
  }
  return levels;
}

Schedule scheduleFromState(ShardingState &state, ArrayRef<ValueTiling> extra,
                           bool early) {
  func::FuncOp func = state.getFunction();
  partir::MeshAttr mesh = state.getMesh();
  Schedule schedule;
  for (auto [name, size] : llvm::zip(mesh.getNames(), mesh.getSizes()))
    schedule.mesh.push_back({name.str(), size});
  SmallVector<std::string> selectors;
  SmallVector<SmallVector<size_t>> levels;
  size_t depth = 0;
  for (BlockArgument arg : func.getArguments()) {
    selectors.push_back(argumentSelector(func, arg.getArgNumber()));
    levels.push_back(tacticLevels(state.getExplicitTiling(arg), mesh, early));
    if (!levels.back().empty())
      depth = std::max(depth, levels.back().back() + 1);
  }
  for (const ValueTiling &tiling : extra)
    depth = std::max(depth, tiling.level + 1);
  // Adds the extra tilings of `axis` at `level` (kept-whole ones at level
  // 0 of the keep tactics) after the arguments' own.
  // A later entry for a selector replaces an earlier one of the tactic
  // (a JSON object has one value per key).
  auto addExtra = [&](ManualTactic &tactic, size_t level, bool keep) {
    for (const ValueTiling &tiling : extra) {
      if (tiling.axis != tactic.axis || tiling.level != level ||
          tiling.keepsWhole() != keep)
        continue;
      auto *same = llvm::find_if(tactic.inputs, [&](const auto &input) {
        return input.first == tiling.selector;
      });
      if (same != tactic.inputs.end())
        same->second = tiling.spec;
      else
        tactic.inputs.push_back({tiling.selector, tiling.spec});
    }
  };
  // Axes kept whole first, so that no tiling propagates onto them.
  for (StringAttr axis : mesh.getNames()) {
    ManualTactic tactic;
    tactic.name = "keep-" + axis.str();
    tactic.axis = axis.str();
    for (BlockArgument arg : func.getArguments())
      if (llvm::is_contained(state.getAtomicAxes(arg), axis.getValue()))
        tactic.inputs.push_back(
            {selectors[arg.getArgNumber()], {InputSpec::Kind::Replicated, 0}});
    addExtra(tactic, 0, /*keep=*/true);
    if (!tactic.inputs.empty())
      schedule.tactics.push_back(std::move(tactic));
  }
  for (size_t level = 0; level < depth; ++level)
    for (StringAttr axis : mesh.getNames()) {
      ManualTactic tactic;
      tactic.name = axis.str() + "-" + std::to_string(level);
      tactic.axis = axis.str();
      for (BlockArgument arg : func.getArguments()) {
        ArrayRef<AxisDim> tiling = state.getExplicitTiling(arg);
        for (auto [l, at] : llvm::zip(tiling, levels[arg.getArgNumber()]))
          if (at == level && l.axis == axis.getValue())
            tactic.inputs.push_back(
                {selectors[arg.getArgNumber()], {InputSpec::Kind::Dim, l.dim}});
      }
      addExtra(tactic, level, /*keep=*/false);
      if (!tactic.inputs.empty())
        schedule.tactics.push_back(std::move(tactic));
    }
  return schedule;
}

std::string printScheduleJson(const Schedule &schedule) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::json::OStream json(os, /*IndentSize=*/1);
  json.object([&] {
    json.attributeObject("mesh", [&] {
      for (auto &[name, size] : schedule.mesh)
        json.attribute(name, size);
    });
    json.attributeArray("tactics", [&] {
      for (const ManualTactic &tactic : schedule.tactics)
        json.object([&] {
          json.attribute("name", tactic.name);
          json.attribute("kind", "manual");
          json.attribute("axis", tactic.axis);
          json.attributeObject("inputs", [&] {
            for (auto &[selector, spec] : tactic.inputs) {
              if (spec.kind == InputSpec::Kind::Dim && !spec.position)
                json.attribute(selector, spec.dim);
              else
                json.attribute(selector, printInputSpec(spec));
            }
          });
        });
    });
  });
  text += "\n";
  return text;
}

std::optional<size_t> firstNestDifference(ArrayRef<AxisFactor> a,
                                          ArrayRef<AxisFactor> b) {
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i)
    if (i >= a.size() || i >= b.size() || a[i].axis != b[i].axis ||
        a[i].factor != b[i].factor)
      return i;
  return std::nullopt;
}

SmallVector<Value> partitionedValues(func::FuncOp func) {
  SmallVector<Value> values(func.getArguments());
  for (Operation *op : numberedOps(func)) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        llvm::append_range(values, block.getArguments());
    llvm::append_range(values, op->getResults());
  }
  return values;
}

bool samePartitioning(ShardingState &a, Value x, ShardingState &b, Value y) {
  return a.getTiling(x) == b.getTiling(y) &&
         a.getAtomicAxes(x) == b.getAtomicAxes(y);
}

SmallVector<unsigned> stateDifferences(ShardingState &a, ShardingState &b) {
  SmallVector<Operation *> opsA = numberedOps(a.getFunction()),
                           opsB = numberedOps(b.getFunction());
  SmallVector<unsigned> differences;
  if (opsA.size() != opsB.size()) {
    differences.resize(std::max(opsA.size(), opsB.size()));
    std::iota(differences.begin(), differences.end(), 0u);
    return differences;
  }
  // Ops, then tied classes, then values, numbered on in that order.
  unsigned key = 0;
  for (auto [x, y] : llvm::zip(opsA, opsB)) {
    if (firstNestDifference(a.getLoopNest(x), b.getLoopNest(y)))
      differences.push_back(key);
    ++key;
  }
  for (auto [x, y] :
       llvm::zip(a.getTiedValues().getEdges(), b.getTiedValues().getEdges())) {
    if (firstNestDifference(a.getEdgeNest(x), b.getEdgeNest(y)))
      differences.push_back(key);
    ++key;
  }
  // A value's tiling beyond its producer's nest (an explicit tiling the
  // nest does not provide) and its atomic axes become loops of their own
  // that reshard it (e.g. a reduce_scatter and an all_gather where equal
  // nests alone would all-reduce), so they count as well.
  for (auto [x, y] : llvm::zip(partitionedValues(a.getFunction()),
                               partitionedValues(b.getFunction()))) {
    if (!samePartitioning(a, x, b, y))
      differences.push_back(key);
    ++key;
  }
  return differences;
}

unsigned countStateDifferences(ShardingState &a, ShardingState &b) {
  return stateDifferences(a, b).size();
}

/// `[B:0, M:2]`: the levels of a nest (axis:factor) or tiling (axis:dim).
template <typename Level>
static std::string printLevels(ArrayRef<Level> levels, int64_t Level::*number) {
  std::string text = "[";
  for (auto [i, level] : llvm::enumerate(levels))
    text += (i ? ", " : "") + level.axis + ":" + std::to_string(level.*number);
  return text + "]";
}

/// How a schedule selects `value` (`#N`, `#N.R`, an argument's name or
/// `argN`), or `argument A of #N` for a block argument of op N's region.
static std::string describeValue(Value value,
                                 const DenseMap<Operation *, size_t> &index) {
  if (auto result = dyn_cast<OpResult>(value)) {
    std::string text = "#" + std::to_string(index.lookup(result.getOwner()));
    if (result.getResultNumber())
      text += "." + std::to_string(result.getResultNumber());
    return text;
  }
  auto arg = cast<BlockArgument>(value);
  if (auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()))
    return argumentSelector(func, arg.getArgNumber());
  return "argument " + std::to_string(arg.getArgNumber()) + " of #" +
         std::to_string(index.lookup(arg.getOwner()->getParentOp()));
}

SmallVector<std::string>
describeStateDifferences(ShardingState &a, ShardingState &b, unsigned limit) {
  SmallVector<std::string> lines;
  SmallVector<Operation *> opsA = numberedOps(a.getFunction()),
                           opsB = numberedOps(b.getFunction());
  if (opsA.size() != opsB.size())
    return lines;
  DenseMap<Operation *, size_t> index;
  for (auto [i, op] : llvm::enumerate(opsA))
    index[op] = i;
  for (auto [x, y] : llvm::zip(opsA, opsB))
    if (lines.size() < limit &&
        firstNestDifference(a.getLoopNest(x), b.getLoopNest(y)))
      lines.push_back("op #" + std::to_string(index.lookup(x)) + " (" +
                      x->getName().getStringRef().str() + ") loops " +
                      printLevels(a.getLoopNest(x), &AxisFactor::factor) +
                      ", the replay " +
                      printLevels(b.getLoopNest(y), &AxisFactor::factor));
  for (auto [x, y] : llvm::zip(partitionedValues(a.getFunction()),
                               partitionedValues(b.getFunction()))) {
    if (lines.size() >= limit || samePartitioning(a, x, b, y))
      continue;
    SmallVector<AxisDim> tx = a.getTiling(x), ty = b.getTiling(y);
    std::string line = "value " + describeValue(x, index) + " is tiled " +
                       printLevels(ArrayRef<AxisDim>(tx), &AxisDim::dim) +
                       ", the replay " +
                       printLevels(ArrayRef<AxisDim>(ty), &AxisDim::dim);
    if (a.getAtomicAxes(x) != b.getAtomicAxes(y))
      line += " (atomic on " + llvm::join(a.getAtomicAxes(x), ",") +
              ", the replay " + llvm::join(b.getAtomicAxes(y), ",") + ")";
    lines.push_back(line);
  }
  return lines;
}

} // namespace toast::partition
