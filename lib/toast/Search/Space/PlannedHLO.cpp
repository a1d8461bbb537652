//===- PlannedHLO.cpp - A state's device-local program from its plan ------===//
//
// Builds the device-local PartIR:HLO of a search state straight from its
// CollectivePlan, without materializeCore, lowering or the collective
// optimizer: each op is cloned onto its local types, and exactly the
// planned collectives and slices are inserted where the pricer
// (AnalyticCost.cpp) places them, in the pricer's order, so that the
// simulator's cost of the emitted program is the analytic price.
//
// Coverage (docs/search.md, "Planner and pricer"): every state the pricer
// prices without the reference path. Straight-line programs, padded ones
// with their masks; region ops the state does not shard inside, cloned
// whole as lowering leaves them; and the loop model's `while` ops
// (AnalyticLoops.cpp), whose regions are emitted from their own plans on
// the carried values' local types. Unmodeled states return failure; the
// reference path (simulateMaterialized) covers them.
//
//===----------------------------------------------------------------------===//

#include "Evaluation.h"

#include "toast/Dialect/PartIR/Core/IR/PartIRCore.h"
#include "toast/Dialect/PartIR/HLO/IR/PartIRHLO.h"
#include "toast/Dialect/StableHLO/IR/StablehloOps.h"
#include "toast/Partition/Schedule.h"
#include "toast/Partition/ShardingState.h"
#include "toast/Simulator/Simulator.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace toast::search {

using namespace analytic;

namespace {

/// Constants of region bodies, hoisted to the entry's start and merged with
/// equal ones as the reference path's canonicalization does (the folder
/// moves constants to the function's entry block); the pricer assumes it
/// (ProgramModel's hoistNestedConstants, the loop model's region inputs).
class ConstantHoister {
public:
  explicit ConstantHoister(Block *entry)
      : entry(entry), b(entry->getParentOp()->getContext()) {}
  /// A constant already at the entry's top level.
  void add(Operation *constant) {
    known.try_emplace(sim::getConstantKey(constant), constant->getResult(0));
  }
  /// The entry's constant equal to `constant`, or null.
  Value find(Operation *constant) const {
    auto it = known.find(sim::getConstantKey(constant));
    return it == known.end() ? Value() : it->second;
  }
  /// The entry's constant equal to `constant`, made when there is none.
  Value get(Operation *constant) {
    auto [it, inserted] =
        known.try_emplace(sim::getConstantKey(constant), Value());
    if (inserted) {
      b.setInsertionPointToStart(entry);
      it->second = b.clone(*constant)->getResult(0);
    }
    return it->second;
  }
  /// Moves the constants of `op`'s loop and conditional bodies to the entry
  /// (not those of a reducer or comparator: the simulator does not walk
  /// them, nor does the pricer).
  void hoistFrom(Operation *op) {
    SmallVector<Operation *> constants;
    auto inBodies = [&](Operation *inner) {
      for (Operation *parent = inner->getParentOp(); parent != op;
           parent = parent->getParentOp())
        if (!isDataFlowRegionOp(parent))
          return false;
      return true;
    };
    op->walk([&](Operation *inner) {
      if (inner != op && matchPattern(inner, m_Constant()) && inBodies(inner))
        constants.push_back(inner);
    });
    for (Operation *constant : constants) {
      constant->getResult(0).replaceAllUsesWith(get(constant));
      constant->erase();
    }
  }

private:
  Block *entry;
  OpBuilder b;
  std::map<sim::ConstantKey, Value> known;
};

/// One emission of one program (the entry's, or a loop region's): mirrors
/// the pricer's walk (Evaluation::pricePlan) with IR values where the
/// pricer has buffers, at the builder's insertion point.
class PlannedEmitter {
public:
  PlannedEmitter(const NdaEnvironment::Impl &impl, const ProgramModel &prog,
                 CollectivePlan &plan, const SearchState &state, OpBuilder &b,
                 ConstantHoister *hoister = nullptr)
      : impl(impl), prog(prog), plan(plan), state(state), b(b),
        hoister(hoister) {}
  /// The entry function `func` (a copy of the analysed one) rebuilt
  /// device-local.
  LogicalResult emitFunction(func::FuncOp func);
  /// The program's ops, its arguments being `arguments`; its terminator is
  /// cloned on what it reads.
  LogicalResult emitBody(ArrayRef<Value> arguments);
  /// The device-local type of `value` tiled by `tiling`.
  Type localType(unsigned value, const DimAxes &tiling) const;

private:
  Value originalValue(unsigned value) const;
  LogicalResult mapCaptured(unsigned i, ArrayRef<Value> inputs,
                            IRMapping &captured) const;
  LogicalResult readMergedConstants(Operation *clone, ArrayRef<Value> inputs);
  ArrayAttr dimAxesAttr(const DimAxes &dims);
  ArrayAttr axesAttr(AxisList list);
  Value emitStep(const Step &step, Value input, unsigned value,
                 const DimAxes &to);
  void emitValue(unsigned value, Value source);
  Value emitUse(unsigned value, unsigned useId);
  void emitMaskConstants();
  Value maskConstant(Location loc, DenseElementsAttr value);
  Value emitMaskedUse(unsigned i, unsigned k);
  void setGlobalShape(func::FuncOp func, bool result, unsigned index,
                      unsigned value, const DimAxes &tiling);
  LogicalResult emitOp(unsigned i);
  LogicalResult emitRegionOp(unsigned i, ArrayRef<Value> inputs);
  LogicalResult emitLoop(unsigned i, ArrayRef<Value> inputs);
  void emitInputs(unsigned i, MutableArrayRef<Value> inputs);
  void emitInput(unsigned i, unsigned k, MutableArrayRef<Value> inputs);
  void emitAhead(unsigned i, unsigned k);
  Value emitLeadingGathers(unsigned value, const UsePlan &use, size_t n);

  const NdaEnvironment::Impl &impl;
  const ProgramModel &prog;
  CollectivePlan &plan;
  const SearchState &state;
  OpBuilder &b;
  /// The entry's (emitFunction makes it; region emitters share it).
  ConstantHoister *hoister;
  /// Per value: the IR value of each chain level, and its tiling.
  std::vector<SmallVector<Value, 1>> levels;
  std::vector<SmallVector<DimAxes, 1>> levelTiling;
  /// Per use: the gather emitted at the definition (gatherAtDef).
  std::vector<Value> starts;
  /// Per argument: the IR value standing for it.
  SmallVector<Value> args;
  /// The tiling of what the last emitUse returned.
  DimAxes useTiling;
  SmallVector<DimAxes> returnedTiling;
  SmallVector<int> returnedValues;
  /// What the fusion tree being emitted emitted ahead (Evaluation::ahead).
  AheadUses ahead;
  /// The masks' hoisted constants (Evaluation::emitMaskConstants): the
  /// validity vectors by (padded size, size), the zero tiles by local
  /// type.
  std::map<std::pair<int64_t, int64_t>, Value> validity;
  DenseMap<Type, Value> zeros;
};

} // namespace

/// The analysed program's value `value` stands for.
Value PlannedEmitter::originalValue(unsigned value) const {
  const ProgramValue &v = prog.values[value];
  if (v.defOp >= 0)
    return prog.ops[v.defOp].op->getResult(v.resultNumber);
  if (prog.isRegionBlock)
    return prog.argumentValues[value];
  return impl.entry.getArgument(value);
}

/// A duplicate constant of this level read inside `clone`'s regions stands
/// for the one the model merged it with (mapCaptured maps only that one):
/// read it from the entry's constants. Fails on any other value from
/// outside the clone that is not one of its `inputs`.
LogicalResult PlannedEmitter::readMergedConstants(Operation *clone,
                                                  ArrayRef<Value> inputs) {
  WalkResult walk = clone->walk([&](Operation *inner) {
    if (inner == clone)
      return WalkResult::advance();
    for (OpOperand &use : inner->getOpOperands()) {
      Value v = use.get();
      if (clone->isAncestor(v.getParentRegion()->getParentOp()) ||
          llvm::is_contained(inputs, v))
        continue;
      Operation *def = v.getDefiningOp();
      if (!def || !matchPattern(def, m_Constant()))
        return WalkResult::interrupt();
      use.set(hoister->get(def));
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// Maps the values op i's regions capture from above (its inputs past its
/// operands) to what the plan gives it; the pricer reads them whole.
LogicalResult PlannedEmitter::mapCaptured(unsigned i, ArrayRef<Value> inputs,
                                          IRMapping &captured) const {
  const ProgramOp &p = prog.ops[i];
  for (size_t k = p.op->getNumOperands(); k < p.operands.size(); ++k) {
    Value original = originalValue(p.operands[k]);
    if (inputs[k].getType() != original.getType())
      return p.op->emitError("planned program: a value its regions capture "
                             "is read sliced");
    captured.map(original, inputs[k]);
  }
  return success();
}

Type PlannedEmitter::localType(unsigned value, const DimAxes &tiling) const {
  Type type = originalValue(value).getType();
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked)
    return type;
  SmallVector<int64_t> shape(ranked.getShape());
  for (auto [d, size] : llvm::enumerate(shape))
    if (d < tiling.size() && tiling[d])
      size = partir::chunkSize(size, impl.maskProduct(listMask(tiling[d])));
  return RankedTensorType::get(shape, ranked.getElementType(),
                               ranked.getEncoding());
}

ArrayAttr PlannedEmitter::axesAttr(AxisList list) {
  SmallVector<Attribute> names;
  for (; list; list >>= 8)
    names.push_back(b.getStringAttr(impl.axisNames[(list & 0xff) - 1]));
  return b.getArrayAttr(names);
}

ArrayAttr PlannedEmitter::dimAxesAttr(const DimAxes &dims) {
  SmallVector<Attribute> perDim;
  for (AxisList l : dims)
    perDim.push_back(axesAttr(l));
  return b.getArrayAttr(perDim);
}

/// The collective (or all_slice) of `step` on `input`, a local tile of
/// `value`, giving its tiling `to`.
Value PlannedEmitter::emitStep(const Step &step, Value input, unsigned value,
                               const DimAxes &to) {
  Location loc = input.getLoc();
  Type type = localType(value, to);
  switch (step.kind) {
  case StepKind::Gather:
    return partir_hlo::AllGatherOp::create(b, loc, type, input,
                                           dimAxesAttr(step.dims));
  case StepKind::Reduce:
    return partir_hlo::AllReduceOp::create(b, loc, type, input, "sum",
                                           axesAttr(step.dims[0]));
  case StepKind::ReduceScatter:
    return partir_hlo::ReduceScatterOp::create(b, loc, type, input, "sum",
                                               dimAxesAttr(step.dims));
  case StepKind::AllToAll:
    return partir_hlo::AllToAllOp::create(
        b, loc, type, input, b.getI64IntegerAttr(step.from),
        b.getI64IntegerAttr(step.to), axesAttr(step.dims[step.to]));
  case StepKind::Slice:
    return partir_hlo::AllSliceOp::create(b, loc, type, input,
                                          dimAxesAttr(step.dims));
  }
  llvm_unreachable("unknown step");
}

/// The shared levels of `value` (Evaluation::emitValue).
void PlannedEmitter::emitValue(unsigned value, Value source) {
  const ValuePlan &vp = plan.values[value];
  const ProgramValue &v = prog.values[value];
  levels[value].assign(vp.steps.size() + 1, Value());
  levels[value][0] = source;
  levelTiling[value].assign(vp.steps.size() + 1, vp.sourceTiling);
  for (size_t l = 0; l < vp.steps.size(); ++l)
    levelTiling[value][l + 1] = applyStep(vp.steps[l], levelTiling[value][l]);
  unsigned maxLevel = 0;
  bool sourceRead = false;
  for (size_t k = 0; k < v.uses.size(); ++k) {
    const UsePlan &use = plan.uses[v.firstUse + k];
    if (use.argSlice)
      continue;
    sourceRead = true;
    maxLevel = std::max(maxLevel, use.level);
  }
  if (v.defOp < 0) {
    Value arg = args[value];
    if (dimsEmpty(vp.sourceTiling) || plan.localArgs[value])
      levels[value][0] = arg;
    else if (sourceRead)
      levels[value][0] = emitStep({StepKind::Slice, vp.sourceTiling}, arg,
                                  value, vp.sourceTiling);
  }
  for (size_t l = 0; l < vp.steps.size() && l < maxLevel; ++l)
    levels[value][l + 1] = emitStep(vp.steps[l], levels[value][l], value,
                                    levelTiling[value][l + 1]);
  for (size_t k = 0; k < v.uses.size(); ++k) {
    const UsePlan &use = plan.uses[v.firstUse + k];
    size_t n = stepsAtDef(use);
    if (int j = sharedStartUse(prog, plan, value, k); j >= 0) {
      starts[v.firstUse + k] = starts[v.firstUse + j];
      continue;
    }
    if (n)
      starts[v.firstUse + k] = emitLeadingGathers(value, use, n);
  }
}

/// The per-use ops of one use (Evaluation::emitUse); returns what the user
/// reads.
Value PlannedEmitter::emitUse(unsigned value, unsigned useId) {
  const UsePlan &use = plan.uses[useId];
  if (use.argSlice) {
    useTiling = use.argDims;
    const std::optional<DimAxes> &local = plan.localArgs[value];
    if (local && *local == use.argDims)
      return args[value];
    // Of the global argument, or of the local one on the axes the boundary
    // keeps whole.
    DimAxes sliced = local ? dimsDropPrefix(*local, use.argDims) : use.argDims;
    return emitStep({StepKind::Slice, sliced}, args[value], value, use.argDims);
  }
  Value current = levels[value][use.level];
  DimAxes tiling = levelTiling[value][use.level];
  ArrayRef<Step> steps = use.ops;
  if (size_t n = stepsAtDef(use) + stepsAhead(ahead, useId)) {
    current = starts[useId];
    for (const Step &step : steps.take_front(n))
      tiling = applyStep(step, tiling);
    steps = steps.drop_front(n);
  }
  for (const Step &step : steps) {
    tiling = applyStep(step, tiling);
    current = emitStep(step, current, value, tiling);
  }
  useTiling = std::move(tiling);
  return current;
}

/// The validity vectors and zero tiles of every mask, deduplicated, in the
/// pricer's order (Evaluation::emitMaskConstants; lowering hoists them).
void PlannedEmitter::emitMaskConstants() {
  for (auto [i, p] : llvm::enumerate(prog.ops)) {
    if (p.dead || !p.ruled)
      continue;
    for (auto [k, v] : llvm::enumerate(p.operands)) {
      auto levels = maskedLevels(prog, plan, impl.axisSizes, i, k);
      if (levels.empty() || v < 0)
        continue;
      Location loc = p.op->getLoc();
      for (auto [axis, d] : levels) {
        int64_t n = impl.axisSizes[axis];
        int64_t size = prog.values[v].shape[d];
        std::pair<int64_t, int64_t> key{n * partir::chunkSize(size, n), size};
        if (validity.count(key))
          continue;
        // The padded layout's validity: n chunks, the first `size` rows
        // real (partition::zeroPadding).
        SmallVector<bool> valid(key.first, false);
        std::fill_n(valid.begin(), size, true);
        auto type = RankedTensorType::get({key.first}, b.getI1Type());
        validity[key] = maskConstant(
            loc, DenseElementsAttr::get(type, ArrayRef<bool>(valid)));
      }
      auto tile = cast<RankedTensorType>(
          localType(v, operandSlicing(prog, plan, i, k)));
      if (!zeros.count(tile))
        zeros[tile] = maskConstant(
            loc,
            DenseElementsAttr::get(tile, b.getZeroAttr(tile.getElementType())));
    }
  }
}

/// A mask's constant, merged with equal constants of the entry: where the
/// program is in a loop region's body, hoisted to the entry's start, as the
/// reference path's canonicalization moves lowering's masks out of bodies
/// (the pricer reads them from outside: Evaluation::hoistMaskConstants).
Value PlannedEmitter::maskConstant(Location loc, DenseElementsAttr value) {
  auto constant = stablehlo::ConstantOp::create(b, loc, value.getType(), value);
  if (!prog.isRegionBlock) {
    // Equal to a constant of the program (ProgramModel::validityConstants,
    // zeroConstants): that one.
    if (Value known = hoister->find(constant)) {
      constant->erase();
      return known;
    }
    hoister->add(constant);
    return constant;
  }
  Value hoisted = hoister->get(constant);
  constant->erase();
  return hoisted;
}

/// Operand k of op i through the masks of its padded reduction levels
/// (Evaluation::emitMaskedUse): per level the validity's all_slice, its
/// broadcast and the select. A gather copy the op reads directly goes
/// right before the first select.
Value PlannedEmitter::emitMaskedUse(unsigned i, unsigned k) {
  const ProgramOp &p = prog.ops[i];
  unsigned value = p.operands[k];
  unsigned useId = p.operandUses[k];
  const UsePlan &use = plan.uses[useId];
  bool copy = use.readerIsUser && !use.gatherAtDef;
  Value tile = copy ? Value() : emitUse(value, useId);
  DimAxes tiling = operandSlicing(prog, plan, i, k);
  auto type = cast<RankedTensorType>(localType(value, tiling));
  Value zero = zeros.lookup(type);
  Location loc = p.op->getLoc();
  for (auto [l, level] :
       llvm::enumerate(maskedLevels(prog, plan, impl.axisSizes, i, k))) {
    auto [axis, d] = level;
    int64_t n = impl.axisSizes[axis];
    int64_t size = prog.values[value].shape[d];
    int64_t chunk = partir::chunkSize(size, n);
    DimAxes dims{listAppend(0, axis)};
    Value mine = partir_hlo::AllSliceOp::create(
        b, loc, RankedTensorType::get({chunk}, b.getI1Type()),
        validity.at({n * chunk, size}), dimAxesAttr(dims));
    Value pred = stablehlo::BroadcastInDimOp::create(
        b, loc, type.clone(b.getI1Type()), mine,
        b.getDenseI64ArrayAttr({static_cast<int64_t>(d)}));
    if (l == 0 && copy)
      tile = emitUse(value, useId);
    tile = stablehlo::SelectOp::create(b, loc, type, pred, tile, zero);
  }
  useTiling = std::move(tiling);
  return tile;
}

/// What op i reads, in the pricer's order (inputOrder).
void PlannedEmitter::emitInputs(unsigned i, MutableArrayRef<Value> inputs) {
  auto masked = [&](unsigned k) {
    return readsMasked(prog, plan, impl.axisSizes, i, k);
  };
  SmallVector<unsigned, 4> order = inputOrder(prog, plan, i, masked);
  SmallVector<int, 4> leaders;
  size_t aheadBefore = ahead.size();
  if (prog.cores[i].region >= 0) {
    leaders = loopGatherLeaders(prog, plan, i, order, masked);
    for (unsigned k : loopCopiesAhead(prog, plan, i, order, leaders, masked))
      emitAhead(i, k);
  }
  for (unsigned k : order) {
    int j = sharedCopy(prog, plan, i, k, masked);
    if (j >= 0) {
      inputs[k] = inputs[j];
      continue;
    }
    int leader = leaders.empty() ? -1 : leaders[k];
    if (leader == static_cast<int>(k)) {
      emitAhead(i, k);
    } else if (leader >= 0) {
      const ProgramOp &p = prog.ops[i];
      unsigned useId = p.operandUses[k];
      unsigned leaderUse = p.operandUses[leader];
      starts[useId] = starts[leaderUse];
      ahead.push_back({useId, stepsAhead(ahead, leaderUse)});
    }
    emitInput(i, k, inputs);
  }
  ahead.resize(aheadBefore);
}

/// The leading gathers of op i's operand k ahead of the op
/// (Evaluation::emitAhead); emitUse goes on from them.
void PlannedEmitter::emitAhead(unsigned i, unsigned k) {
  const ProgramOp &p = prog.ops[i];
  unsigned useId = p.operandUses[k];
  const UsePlan &use = plan.uses[useId];
  size_t n = leadingGathers(use);
  starts[useId] = emitLeadingGathers(p.operands[k], use, n);
  ahead.push_back({useId, n});
}

/// The first n steps of `use` (gathers) from its chain level.
Value PlannedEmitter::emitLeadingGathers(unsigned value, const UsePlan &use,
                                         size_t n) {
  Value current = levels[value][use.level];
  DimAxes tiling = levelTiling[value][use.level];
  for (const Step &step : ArrayRef(use.ops).take_front(n)) {
    tiling = applyStep(step, tiling);
    current = emitStep(step, current, value, tiling);
  }
  return current;
}

void PlannedEmitter::emitInput(unsigned i, unsigned k,
                               MutableArrayRef<Value> inputs) {
  const ProgramOp &p = prog.ops[i];
  inputs[k] = readsMasked(prog, plan, impl.axisSizes, i, k)
                  ? emitMaskedUse(i, k)
                  : emitUse(p.operands[k], p.operandUses[k]);
  if (p.isReturn)
    returnedTiling[k] = useTiling;
}

/// Op i on its local types, then its results' chains.
LogicalResult PlannedEmitter::emitOp(unsigned i) {
  const ProgramOp &p = prog.ops[i];
  if (p.dead || p.constant)
    return success();
  Operation *op = p.op;
  SmallVector<Value, 4> inputs(p.operands.size());
  if (p.isReturn) {
    returnedTiling.assign(p.operands.size(), {});
    returnedValues.assign(p.operands.begin(), p.operands.end());
  }
  emitInputs(i, inputs);
  for (auto [k, input] : llvm::enumerate(inputs))
    if (!input)
      return op->emitError("planned program: an operand the plan does not "
                           "cover");
  if (p.region >= 0)
    return emitLoop(i, inputs);
  if (isDataFlowRegionOp(op))
    return emitRegionOp(i, inputs);
  // Values read inside an op's own regions (a reducer reading a constant
  // defined above it, as torch-xla exports) are extra inputs of its
  // program, not operands: its regions read what the plan gives them.
  IRMapping captured;
  if (failed(mapCaptured(i, inputs, captured)))
    return failure();
  Operation *clone = b.clone(*op, captured);
  clone->setOperands(ArrayRef<Value>(inputs).take_front(op->getNumOperands()));
  if (failed(readMergedConstants(clone, inputs)))
    return p.op->emitError("planned program: an op's region reads a value "
                           "the plan does not give it");
  if (p.isReturn)
    return success();
  for (auto [r, result] : llvm::zip_equal(p.results, clone->getResults()))
    result.setType(localType(r, plan.values[r].sourceTiling));
  if (clone->getNumOperands() && clone->getNumResults() &&
      isa<RankedTensorType>(clone->getOperand(0).getType()) &&
      isa<RankedTensorType>(clone->getResult(0).getType()))
    partition::adjustLocalAttributes(clone, op);
  for (auto [r, result] : llvm::zip_equal(p.results, clone->getResults()))
    emitValue(r, result);
  return success();
}

/// A region op the state does not shard inside: whole on every device, its
/// regions as they are (lowering leaves them alone), reading what it
/// captures from the values the plan gives it.
LogicalResult PlannedEmitter::emitRegionOp(unsigned i, ArrayRef<Value> inputs) {
  const ProgramOp &p = prog.ops[i];
  for (unsigned r : p.results)
    if (!dimsEmpty(plan.values[r].sourceTiling))
      return p.op->emitError("planned program: a region op's result tiled");
  IRMapping captured;
  unsigned own = p.op->getNumOperands();
  if (failed(mapCaptured(i, inputs, captured)))
    return failure();
  Operation *clone = b.clone(*p.op, captured);
  clone->setOperands(inputs.take_front(own));
  if (failed(readMergedConstants(clone, inputs)))
    return p.op->emitError("planned program: a region op reads a value the "
                           "plan does not give it");
  hoister->hoistFrom(clone);
  for (auto [r, result] : llvm::zip_equal(p.results, clone->getResults()))
    emitValue(r, result);
  return success();
}

/// A region op of the loop model (AnalyticLoops.cpp: a while, or a case or
/// if, at any depth): the op on the tied values' local types, each region
/// emitted from its own plan of the same state (recursively), on block
/// arguments local with the carried tiling; captured
/// values are what the op read at this level, constants are hoisted to the
/// entry (ConstantHoister).
LogicalResult PlannedEmitter::emitLoop(unsigned i, ArrayRef<Value> inputs) {
  const ProgramOp &p = prog.ops[i];
  const RegionModel &loop = *prog.regions[p.region];
  Operation *op = p.op;
  unsigned own = op->getNumOperands();
  OperationState loopState(op->getLoc(), op->getName());
  loopState.addOperands(inputs.take_front(own));
  for (unsigned r : p.results)
    loopState.addTypes(localType(r, plan.values[r].sourceTiling));
  loopState.addAttributes(op->getAttrs());
  for (unsigned k = 0; k < op->getNumRegions(); ++k)
    loopState.addRegion();
  Operation *newLoop = b.create(loopState);
  IRMapping captured;
  if (failed(mapCaptured(i, inputs, captured)))
    return failure();
  for (auto [k, program] : llvm::enumerate(loop.blocks)) {
    Workspace workspace;
    Evaluation evaluation(impl, *program, state, workspace);
    const CollectivePlan &regionPlan = evaluation.makePlan();
    if (regionPlan.unmodeled)
      return op->emitError("planned program: an unmodeled loop region");
    Block *block = new Block();
    newLoop->getRegion(k).push_back(block);
    OpBuilder inner = OpBuilder::atBlockEnd(block);
    PlannedEmitter emitter(impl, *program, workspace.plan, state, inner,
                           hoister);
    SmallVector<Value> arguments;
    for (unsigned a = 0; a < program->numArguments; ++a) {
      Value original = program->argumentValues[a];
      if (a < program->numBlockArguments) {
        arguments.push_back(block->addArgument(
            emitter.localType(a, regionPlan.values[a].sourceTiling),
            original.getLoc()));
      } else if (Value outer = captured.lookupOrNull(original)) {
        arguments.push_back(outer);
      } else if (Operation *def = original.getDefiningOp();
                 def && matchPattern(def, m_Constant())) {
        arguments.push_back(hoister->get(def));
      } else {
        return op->emitError("planned program: a loop region reads a value "
                             "the loop does not capture");
      }
    }
    if (failed(emitter.emitBody(arguments)))
      return failure();
  }
  for (auto [r, result] : llvm::zip_equal(p.results, newLoop->getResults()))
    emitValue(r, result);
  return success();
}

/// Records the global shape of a padded boundary value (as
/// LocalizeBoundary does): its local type no longer implies it.
void PlannedEmitter::setGlobalShape(func::FuncOp func, bool result,
                                    unsigned index, unsigned value,
                                    const DimAxes &tiling) {
  const ProgramValue &v = prog.values[value];
  bool padded = false;
  for (auto [d, axes] : llvm::enumerate(tiling))
    padded |=
        axes && partir::isPadded(v.shape[d], impl.maskProduct(listMask(axes)));
  if (!padded)
    return;
  auto shape = b.getDenseI64ArrayAttr(v.shape);
  if (result)
    func.setResultAttr(index, "toast.global_shape", shape);
  else
    func.setArgAttr(index, "toast.global_shape", shape);
}

/// Whether the emitter follows every op of the plan: ops whose operands
/// are all program values, in a state the pricer models.
static LogicalResult checkCoverage(const ProgramModel &prog,
                                   const CollectivePlan &plan,
                                   func::FuncOp entry) {
  if (plan.unmodeled)
    return entry.emitError("planned program: unmodeled state");
  for (const ProgramOp &p : prog.ops) {
    if (p.dead || p.constant)
      continue;
    // Inputs past the operands are values the op's regions capture.
    if (p.operands.size() < p.op->getNumOperands() ||
        (p.operands.size() > p.op->getNumOperands() &&
         p.op->getNumRegions() == 0) ||
        llvm::is_contained(p.operands, -1))
      return p.op->emitError("planned program: op not planned yet");
  }
  return success();
}

LogicalResult PlannedEmitter::emitBody(ArrayRef<Value> arguments) {
  args.assign(arguments.begin(), arguments.end());
  levels.resize(prog.values.size());
  levelTiling.resize(prog.values.size());
  starts.assign(prog.numUses, Value());
  for (unsigned c : prog.constants) {
    Operation *clone = b.clone(*prog.ops[c].op);
    hoister->add(clone);
    emitValue(prog.ops[c].results[0], clone->getResult(0));
  }
  emitMaskConstants();
  for (unsigned a = 0; a < prog.numArguments; ++a)
    emitValue(a, Value());
  std::vector<TreeStep> emission;
  for (size_t i = 0; i < prog.ops.size(); ++i) {
    if (plan.fusedInto[i] >= 0)
      continue;
    orderFusionTree(prog, plan, i, emission, [&](unsigned j, unsigned k) {
      return readsMasked(prog, plan, impl.axisSizes, j, k);
    });
    for (const TreeStep &step : emission) {
      if (step.operand >= 0)
        emitAhead(step.op, step.operand);
      else if (failed(emitOp(step.op)))
        return failure();
    }
    ahead.clear();
  }
  return success();
}

/// Erases what never runs (sim::findDeadOps): a dead op of a body emitted
/// whole, a gather only it read. The simulator skips them and lowering's
/// cleanup erases them; the program should not show them either.
static void eraseDeadOps(Block &block) {
  llvm::DenseSet<Operation *> dead = sim::findDeadOps(block);
  SmallVector<Operation *> outermost;
  for (Operation *op : dead)
    if (!sim::neverRuns(op->getParentOp(), dead))
      outermost.push_back(op);
  for (Operation *op : outermost)
    op->dropAllUses();
  for (Operation *op : outermost)
    op->erase();
}

LogicalResult PlannedEmitter::emitFunction(func::FuncOp func) {
  Block *oldBlock = &func.getBody().front();
  // The new body: arguments device-local where the plan localizes them.
  Block *block = new Block();
  func.getBody().push_front(block);
  SmallVector<Value> arguments;
  for (unsigned a = 0; a < prog.numArguments; ++a) {
    const std::optional<DimAxes> &local = plan.localArgs[a];
    Type type =
        local ? localType(a, *local) : oldBlock->getArgument(a).getType();
    arguments.push_back(
        block->addArgument(type, oldBlock->getArgument(a).getLoc()));
    if (local && !dimsEmpty(*local)) {
      func.setArgAttr(a, "partir.sharding", dimAxesAttr(*local));
      setGlobalShape(func, /*result=*/false, a, a, *local);
    }
  }
  b.setInsertionPointToEnd(block);
  ConstantHoister entryConstants(block);
  hoister = &entryConstants;
  if (failed(emitBody(arguments)))
    return failure();
  // The return's tiles are the results; their tiling is the boundary's.
  for (auto [k, tiling] : llvm::enumerate(returnedTiling)) {
    if (dimsEmpty(tiling))
      continue;
    func.setResultAttr(k, "partir.sharding", dimAxesAttr(tiling));
    setGlobalShape(func, /*result=*/true, k, returnedValues[k], tiling);
  }
  oldBlock->dropAllDefinedValueUses();
  oldBlock->erase();
  eraseDeadOps(*block);
  Operation *ret = block->getTerminator();
  func.setFunctionType(FunctionType::get(
      func.getContext(), block->getArgumentTypes(), ret->getOperandTypes()));
  func->setAttr("partir.mesh", impl.mesh);
  return success();
}

FailureOr<OwningOpRef<ModuleOp>>
NdaEnvironment::Impl::emitPlanned(const SearchState &state) const {
  // The program the pricer prices the state on: the loop model's when it
  // shards inside loops.
  bool loops = needsReference(state);
  bool unmodeled = false;
  evaluate(state, &unmodeled);
  if (unmodeled)
    return entry.emitError("planned program: a state priced by the "
                           "reference path");
  const ProgramModel &prog = loops ? *loopProgram : program;
  Workspace workspace;
  Evaluation evaluation(*this, prog, state, workspace);
  evaluation.makePlan();
  if (failed(checkCoverage(prog, workspace.plan, entry)))
    return failure();
  auto module = entry->getParentOfType<ModuleOp>();
  if (!module)
    return entry.emitError("planned program: no enclosing module");
  OwningOpRef<ModuleOp> copy(module.clone());
  auto func = copy->lookupSymbol<func::FuncOp>(entry.getSymName());
  OpBuilder b(func.getContext());
  PlannedEmitter emitter(*this, prog, workspace.plan, state, b);
  if (failed(emitter.emitFunction(func)))
    return failure();
  (*copy)->setAttr("partir.mesh", mesh);
  return copy;
}

FailureOr<PlannedEntry>
replaceByPlannedEntry(ModuleOp module, const sim::DeviceSpec &device,
                      AnalyticCost *cost,
                      const NdaEnvironmentOptions &options) {
  auto entry = partition::getEntryFunction(module);
  partir::MeshAttr mesh = partir::getMesh(module);
  if (failed(entry))
    return failure();
  if (!mesh)
    return module.emitError("planned program: no mesh (run a tactic pass "
                            "that saves a sharding state first)");
  // A shard_map body is isolated from above and lowering inlines it
  // (inlineManualComputations): the emitter builds neither.
  WalkResult isolated = entry->getBody().walk([](Operation *op) {
    return op->hasTrait<OpTrait::IsIsolatedFromAbove>()
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  if (isolated.wasInterrupted())
    return PlannedEntry::NotCovered;
  partition::ShardingState saved(*entry, mesh);
  if (failed(saved.load()))
    return failure();
  auto env = NdaEnvironment::create(*entry, mesh, {}, device, options, &saved);
  if (failed(env))
    return failure();
  SearchState state = (*env)->getInitialState();
  AnalyticCost analytic = (*env)->analyticCost(state);
  if (cost)
    *cost = analytic;
  if (analytic.byReference)
    return PlannedEntry::ByReference;
  auto planned = (*env)->emitPlanned(state);
  if (failed(planned))
    return failure();
  // The environment refers to the entry's ops: release it before the
  // entry is replaced.
  env->reset();
  auto plannedEntry =
      (*planned)->lookupSymbol<func::FuncOp>(entry->getSymName());
  auto replacement = cast<func::FuncOp>(plannedEntry->clone());
  // The tactics' saved state described the global program.
  partition::ShardingState::clearSavedState(replacement);
  module.getBody()->getOperations().insert(entry->getOperation()->getIterator(),
                                           replacement);
  entry->erase();
  module->setAttr("partir.mesh", mesh);
  return PlannedEntry::Replaced;
}

} // namespace toast::search
