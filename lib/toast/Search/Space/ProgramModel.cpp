//===- ProgramModel.cpp - The state-independent summary of a program ------===//
//
// What the analytic cost needs about the entry function, computed once:
// top-level ops in order with their rule factors (and the NDA node of each
// factor), values with their uses, the constants the collective
// optimizer's folder hoists to the function start, the ops it removes as
// dead, and for ops with regions (while, if, case) the time and the memory
// profile of their bodies, unpartitioned (simulateRegions): states that
// shard inside bodies are priced by the loop model instead, on programs of
// their own that buildBlockModel builds too (AnalyticLoops.cpp), or by the
// reference path (NdaEnvironment::Impl::price). For writing such states,
// the factor nodes of body ops and the dimension nodes of tied classes.
//
//===----------------------------------------------------------------------===//

#include "SpaceImpl.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"
#include "toast/Interfaces/ControlFlow.h"
#include "toast/Simulator/CostModel.h"
#include "toast/Simulator/Simulator.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

#include <atomic>
#include <map>
#include <numeric>
#include <set>

using namespace mlir;
namespace hlo = toast::stablehlo;

namespace toast::search {

/// The bodies of a region op, unpartitioned (states that shard inside
/// them are not priced analytically): the simulator prices them once, with trip
/// counts and its buffer rules, and the evaluation places the op's carried
/// values by the same rules (Aliasing.h).
static void describeRegions(Operation *op, const sim::DeviceSpec &device,
                            const sim::SimulationOptions &options, ProgramOp &p,
                            SmallVectorImpl<Value> &outerReads) {
  p.tiedResults = sim::getTiedResults(op);
  FailureOr<sim::SimulationResult> nested =
      sim::simulateRegions(op, device, options, &outerReads);
  if (failed(nested))
    return;
  p.computeTime = nested->computeTime;
  p.flops = nested->flops;
  p.nestedOps = nested->numOps;
  p.nestedPeakBytes = nested->peakMemoryBytes;
  p.nestedCommTime = nested->commTime;
  for (unsigned k = 0; k < sim::kNumCollectiveKinds; ++k)
    p.nestedCollectives[k] = nested->collectives[k].count;
}

/// ProgramOp::carryReadInRegions of region op `op`: a result with no tied
/// class (no data-flow edge) counts as read.
void NdaEnvironment::Impl::describeCarryReads(Operation *op,
                                              ProgramOp &p) const {
  p.carryReadInRegions.assign(op->getNumResults(), 1);
  if (!rules)
    return;
  const TiedValues &tied = rules->getTiedValues();
  for (OpResult result : op->getResults()) {
    const TiedValues::Edge *edge = tied.getEdgeOfTarget(result);
    if (!edge)
      continue;
    bool read = false;
    for (Value target : llvm::drop_begin(edge->targets))
      for (OpOperand &use : target.getUses())
        read |= !llvm::is_contained(edge->sources, &use);
    p.carryReadInRegions[result.getResultNumber()] = read;
  }
}

/// What describeRegions found for the same op in another model.
static void copyRegionDescription(const ProgramOp &from, ProgramOp &to) {
  to.tiedResults = from.tiedResults;
  to.computeTime = from.computeTime;
  to.flops = from.flops;
  to.nestedOps = from.nestedOps;
  to.nestedPeakBytes = from.nestedPeakBytes;
  to.nestedCommTime = from.nestedCommTime;
  to.nestedCollectives = from.nestedCollectives;
  to.readByRegions = from.readByRegions;
}

using sim::ConstantKey;
using sim::getConstantKey;

/// Fills validityConstants and zeroConstants from the entry's constants:
/// a padding mask's validity vector (n elements, the first `valid` true)
/// or zero tile equal to one of them is that constant after lowering's
/// canonicalization (the torch-xla MoE export holds a 32-element vector of
/// 30 trues, which a state with 30 rows over 4 devices masks with).
static void findMaskLikeConstants(ProgramModel &program) {
  for (unsigned c : program.constants) {
    Operation *op = program.ops[c].op;
    unsigned value = program.ops[c].results[0];
    DenseElementsAttr attr;
    if (!matchPattern(op, m_Constant(&attr)))
      continue;
    auto type = cast<RankedTensorType>(attr.getType());
    Type element = type.getElementType();
    if (attr.isSplat() &&
        attr.getSplatValue<Attribute>() == Builder(op).getZeroAttr(element)) {
      llvm::SmallVector<int64_t, 4> shape(type.getShape());
      program.zeroConstants.try_emplace(
          {std::move(shape), element.getAsOpaquePointer()}, value);
    }
    if (type.getRank() != 1 || !element.isInteger(1))
      continue;
    auto bits = llvm::to_vector(attr.getValues<bool>());
    int64_t valid = llvm::find(bits, false) - bits.begin();
    if (std::find(bits.begin() + valid, bits.end(), true) == bits.end())
      program.validityConstants.try_emplace({type.getNumElements(), valid},
                                            value);
  }
}

/// Constants in the bodies of region op `i` are hoisted to the function
/// start too, merged with equal constants (the simulator sees them there;
/// simulateRegions leaves them out). The op reads the top-level constant
/// one merged with as a captured value, the others as constants of their
/// own (`hoisted`: key to index in hoistedConstantBytes).
static void hoistNestedConstants(ProgramModel &program, unsigned i,
                                 const std::map<ConstantKey, int> &top,
                                 std::map<ConstantKey, unsigned> &hoisted,
                                 const llvm::DenseSet<Operation *> &dead) {
  ProgramOp &p = program.ops[i];
  auto addUse = [&](int value) {
    ArrayRef<int> captured =
        ArrayRef<int>(p.operands).drop_front(p.op->getNumOperands());
    if (llvm::is_contained(captured, value))
      return;
    p.operands.push_back(value);
    program.values[value].uses.push_back({i, -1});
  };
  auto visit = [&](Operation *op, const Scope &) {
    if (!matchPattern(op, m_Constant()) || sim::neverRuns(op, dead))
      return;
    ConstantKey key = getConstantKey(op);
    if (auto it = top.find(key); it != top.end())
      return addUse(it->second);
    auto [it, inserted] =
        hoisted.insert({key, program.hoistedConstantBytes.size()});
    if (inserted)
      program.hoistedConstantBytes.push_back(
          sim::getTypeBytes(op->getResult(0).getType()));
    if (!llvm::is_contained(p.hoistedConstants, it->second))
      p.hoistedConstants.push_back(it->second);
  };
  for (Region &region : p.op->getRegions())
    for (Block &block : region)
      walkProgram(block, visit);
}

/// Region op i's readByRegions: its captured operands whose values (or,
/// for a constant, an equal one of its regions) are among `outerReads`.
static void findRegionReads(ProgramModel &program, unsigned i,
                            ArrayRef<Value> outerReads,
                            ArrayRef<Value> valueOfId) {
  ProgramOp &p = program.ops[i];
  std::set<ConstantKey> constantsRead;
  for (Value v : outerReads)
    if (Operation *def = v.getDefiningOp();
        def && matchPattern(def, m_Constant()))
      constantsRead.insert(getConstantKey(def));
  for (size_t k = p.op->getNumOperands(); k < p.operands.size(); ++k) {
    int id = p.operands[k];
    Value v = valueOfId[id];
    Operation *def = v.getDefiningOp();
    bool read = llvm::is_contained(outerReads, v) ||
                (def && matchPattern(def, m_Constant()) &&
                 constantsRead.count(getConstantKey(def)));
    if (read && !llvm::is_contained(p.readByRegions, id))
      p.readByRegions.push_back(id);
  }
}

/// The compact nest and padding tables (ProgramModel::nestOps,
/// nodeDimGcd, nodeFactorGcd).
static void describeNests(ProgramModel &program, unsigned numNodes) {
  static std::atomic<uint64_t> models{0};
  program.id = ++models;
  // n divides every size exactly when it divides their gcd (of the
  // magnitudes: unsigned, so that no size overflows).
  auto addSize = [](uint64_t &gcd, int64_t size) {
    uint64_t magnitude = size < 0 ? 0 - static_cast<uint64_t>(size)
                                  : static_cast<uint64_t>(size);
    gcd = std::gcd(gcd, magnitude);
  };
  program.nodeDimGcd.assign(numNodes, 0);
  program.nodeFactorGcd.assign(numNodes, 0);
  for (const ProgramValue &v : program.values)
    for (auto [d, node] : llvm::enumerate(v.dimNode))
      if (node >= 0)
        addSize(program.nodeDimGcd[node], v.shape[d]);
  for (auto [i, p] : llvm::enumerate(program.ops)) {
    if (!p.ruled || p.dead)
      continue;
    program.nestOps.push_back(i);
    program.nestBegin.push_back(program.nestFactors.size());
    auto add = [&](unsigned factor, int node) {
      if (node < 0)
        return;
      program.nestFactors.push_back({factor, static_cast<unsigned>(node)});
      addSize(program.nodeFactorGcd[node], p.factorSize[factor]);
    };
    for (auto [f, node] : llvm::enumerate(p.factorNode))
      add(f, node);
    for (auto [f, node] : p.minorNodes)
      add(f, node);
  }
  program.nestBegin.push_back(program.nestFactors.size());
}

/// Fills the rule part of a ruled op.
/// The fusion model's per-op facts the analytic cost reads.
static void describeFusion(Operation *op, ProgramOp &p) {
  p.fusionKind = sim::getFusionKind(op);
  p.expensiveToDuplicate = sim::isExpensiveToDuplicate(op);
  p.sliceView = sim::isContiguousSliceView(op);
  p.slicedOperand = sim::getSlicedOperand(op);
  // The unpartitioned program has no all_slice, whose pricing alone
  // depends on the fusion model.
  p.noRoofline = sim::isFreeOp(op, /*fusion=*/true) || isDataFlowRegionOp(op) ||
                 isa<func::CallOp>(op);
  for (unsigned r = 0; r < op->getNumResults(); ++r)
    p.updatesInPlace |= sim::getInPlaceOperand(op, r) >= 0;
}

static void describeRule(const NamedDimensionAnalysis &nda,
                         partition::ShardingState &rules,
                         const std::vector<char> &shardable, Operation *op,
                         ProgramOp &p) {
  const ShardingRule *rule = rules.getRule(op);
  p.ruled = rule != nullptr;
  if (!rule)
    return;
  size_t numFactors = rule->getNumFactors();
  p.factorNode.assign(numFactors, -1);
  p.factorSize.assign(numFactors, 1);
  p.factorReduction.assign(numFactors, false);
  for (size_t f = 0; f < numFactors; ++f) {
    p.factorSize[f] = rule->factors[f].size;
    p.factorReduction[f] = rule->factors[f].kind == FactorKind::Reduction;
  }
  // A compound (reshaped) dim maps its major factor in operandDims /
  // resultDims and its minor factors in minorFactors.
  for (const auto &dims : rule->operandDims)
    p.operandDims.emplace_back(dims.begin(), dims.end());
  for (const auto &dims : rule->resultDims)
    p.resultDims.emplace_back(dims.begin(), dims.end());
  p.minorFactors.assign(rule->minorFactors.begin(), rule->minorFactors.end());
  auto nodeOf = [&](unsigned name, int64_t f) -> int {
    unsigned node = nda.getNode(name);
    return shardable[node] && rules.isLoopableFactor(op, f) ? node : -1;
  };
  // The nodes of a dim's parts: a compound dim split alike maps part k to
  // factor k; a split dim mapped whole by one factor adds minor parts to
  // it.
  auto setNodes = [&](int site, bool isResult, unsigned tensor) {
    if (site < 0)
      return;
    for (unsigned d = 0; d < nda.getSites()[site].rank; ++d) {
      SmallVector<int64_t, 2> fs = rule->getDimFactors(isResult, tensor, d);
      SmallVector<unsigned, 2> parts = nda.getDimNames(site, d);
      if (fs.empty())
        continue;
      if (fs.size() == parts.size()) {
        for (auto [f, name] : llvm::zip(fs, parts))
          if (int node = nodeOf(name, f); node >= 0)
            p.factorNode[f] = node;
        continue;
      }
      if (int node = nodeOf(parts[0], fs[0]); node >= 0)
        p.factorNode[fs[0]] = node;
      for (unsigned k = 1; fs.size() == 1 && k < parts.size(); ++k) {
        std::pair<unsigned, int> minor{fs[0], nodeOf(parts[k], fs[0])};
        if (minor.second >= 0 && !llvm::is_contained(p.minorNodes, minor))
          p.minorNodes.push_back(minor);
      }
    }
  };
  for (OpOperand &use : op->getOpOperands())
    setNodes(nda.getUseSite(use), false, use.getOperandNumber());
  for (OpResult result : op->getResults())
    setNodes(nda.getDefSite(result), true, result.getResultNumber());
}

/// The ops of loop and conditional bodies with their factor nodes, and the
/// node of each dimension of every tied class, for writing states into a
/// ShardingState (Materialize.cpp).
static void
describeBodies(const NamedDimensionAnalysis &nda,
               partition::ShardingState &rules,
               const std::vector<char> &shardable,
               function_ref<AxisMask(ArrayRef<std::string>)> axisMask,
               ProgramModel &program) {
  using partition::ShardingState;
  walkProgram(rules.getFunction().getBody().front(),
              [&](Operation *op, const Scope &scope) {
                if (scope.depth == 0)
                  return;
                ProgramOp p;
                describeRule(nda, rules, shardable, op, p);
                program.nestedOps.push_back(
                    {p.ruled, p.factorNode, p.minorNodes,
                     axisMask(ShardingState::getManualAxes(op->getBlock()))});
              });
  for (const TiedValues::Edge &edge : rules.getTiedValues().getEdges()) {
    Region &body = edge.owner->getRegion(0);
    program.edgeFixed.push_back(
        body.empty() ? 0
                     : axisMask(ShardingState::getManualAxes(&body.front())));
    llvm::SmallVector<int, 4> nodes;
    Value owner = edge.targets.front();
    int site = nda.getDefSite(owner);
    if (auto type = dyn_cast<RankedTensorType>(owner.getType()))
      for (unsigned d = 0; d < type.getRank(); ++d) {
        int node = site < 0 ? -1
                            : static_cast<int>(nda.getNode(
                                  nda.getSites()[site].firstName + d));
        nodes.push_back(node >= 0 && shardable[node] ? node : -1);
      }
    program.edgeDimNodes.push_back(std::move(nodes));
  }
}

/// Unverified, operand-less ops standing for the padding masks' select
/// and broadcast: the fusion rule only asks what kind of op they are.
static void buildMaskPrototypes(MLIRContext *ctx, ProgramModel &program) {
  Location loc = UnknownLoc::get(ctx);
  program.maskOps = ModuleOp::create(loc);
  OpBuilder b = OpBuilder::atBlockEnd(program.maskOps->getBody());
  Type type = RankedTensorType::get({1}, b.getI1Type());
  auto make = [&](StringRef name) {
    OperationState state(loc, name);
    state.addTypes(type);
    return b.create(state);
  };
  program.maskSelect = make("stablehlo.select");
  program.maskBroadcast = make("stablehlo.broadcast_in_dim");
}

/// A loop region's inputs beyond its block arguments, as arguments read
/// whole: the values it captures from outside and its constants, merged
/// by value and type (the simulator hoists them: simulateRegions reads
/// both as buffers from outside). Those of loops nested in it count too:
/// their regions read them through the nested loop (AnalyticLoops.cpp).
static void addRegionInputs(Block &block, ProgramModel &program,
                            const llvm::DenseSet<Operation *> &dead,
                            llvm::DenseMap<Value, int> &valueIds,
                            function_ref<void(Value, int, unsigned)> addValue) {
  std::map<ConstantKey, int> constants;
  auto addWhole = [&](Value v) {
    if (valueIds.count(v))
      return;
    Operation *def = v.getDefiningOp();
    std::optional<ConstantKey> key;
    if (def && matchPattern(def, m_Constant())) {
      key = getConstantKey(def);
      if (auto it = constants.find(*key); it != constants.end()) {
        valueIds[v] = it->second;
        return;
      }
    }
    addValue(v, -1, 0);
    ProgramValue &pv = program.values.back();
    pv.dimNode.assign(pv.shape.size(), -1);
    pv.minorNodes.clear();
    if (key)
      constants[*key] = program.values.size() - 1;
  };
  Region *region = block.getParent();
  block.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (sim::neverRuns(op, dead))
      return WalkResult::skip();
    if (matchPattern(op, m_Constant())) {
      addWhole(op->getResult(0));
      return WalkResult::advance();
    }
    for (Value v : op->getOperands())
      if (!region->isAncestor(v.getParentRegion()))
        addWhole(v);
    // A reducer's or comparator's body is part of its op: the simulator
    // does not walk it, so its constants are no inputs of the program.
    return isDataFlowRegionOp(op) ? WalkResult::advance() : WalkResult::skip();
  });
}

void NdaEnvironment::Impl::buildProgram() {
  buildMaskPrototypes(entry->getContext(), program);
  describeBodies(
      nda, *rules, nodeShardable,
      [&](ArrayRef<std::string> axes) { return getAxisMask(axes); }, program);
  deadOps = sim::findDeadOps(entry.getBody().front());
  buildBlockModel(entry.getBody().front(), program, /*loops=*/false);
  buildLoopProgram();
}

AxisMask NdaEnvironment::Impl::wholeAxesOf(Value value) const {
  int site = nda.getDefSite(value);
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (site < 0 || !type || type.getRank() == 0)
    return 0;
  AxisMask whole = ~AxisMask(0);
  for (unsigned d = 0; d < type.getRank(); ++d) {
    whole &= nodeAtomic[nda.getNode(nda.getSites()[site].firstName + d)];
    for (unsigned name : nda.getDimNames(site, d))
      whole &= nodeAtomic[nda.getNode(name)];
  }
  return whole;
}

void ProgramModel::buildCores() {
  cores.clear();
  stepTimeOnlyGrows = true;
  opSlots.clear();
  opFactorSizes.clear();
  for (const ProgramOp &p : ops) {
    OpCore &c = cores.emplace_back();
    c.computeTime = p.computeTime;
    c.flops = p.flops;
    c.slots = opSlots.size();
    c.numOperands = p.operands.size();
    c.numResults = p.results.size();
    c.factorSizes = opFactorSizes.size();
    opFactorSizes.insert(opFactorSizes.end(), p.factorSize.begin(),
                         p.factorSize.end());
    c.region = p.region;
    c.slicedOperand = p.slicedOperand;
    c.fusionKind = p.fusionKind;
    c.dead = p.dead;
    c.constant = p.constant;
    c.splat = p.splat;
    c.isReturn = p.isReturn;
    c.isLayout = p.isLayout;
    c.isAdd = p.isAdd;
    c.mayAlias = p.mayAlias;
    c.expensiveToDuplicate = p.expensiveToDuplicate;
    c.sliceView = p.sliceView;
    c.noRoofline = p.noRoofline;
    c.updatesInPlace = p.updatesInPlace;
    c.inputCollective = p.inputCollective;
    c.nested = p.nestedOps > 0;
    c.hoists = !p.hoistedConstants.empty();
    // Dead ops are not priced (emitOp).
    stepTimeOnlyGrows &=
        c.dead || (c.region < 0 && !c.inputCollective &&
                   !(c.nested && llvm::is_contained(p.carryReadInRegions, 0)));
    opSlots.insert(opSlots.end(), p.operands.begin(), p.operands.end());
    for (size_t k = 0; k < p.operands.size(); ++k)
      opSlots.push_back(k < p.operandUses.size() ? p.operandUses[k] : -1);
    opSlots.insert(opSlots.end(), p.results.begin(), p.results.end());
  }
  // A result kept whole sends a state that returns it tiled to the
  // reference path, at the return (emitOp).
  stepTimeOnlyGrows &=
      llvm::all_of(wholeResults, [](AxisMask whole) { return whole == 0; });
  valueCores.clear();
  valueShapes.clear();
  resultFactorDims.clear();
  valueDimNodes.clear();
  useOps.clear();
  for (const ProgramValue &v : values) {
    ValueCore &c = valueCores.emplace_back();
    c.defOp = v.defOp;
    c.firstUse = v.firstUse;
    c.numUses = v.uses.size();
    c.deadUses = v.deadUses;
    c.shape = valueShapes.size();
    c.rank = v.shape.size();
    c.elementBytes = v.elementBytes;
    c.dimNodes = valueDimNodes.size();
    for (auto [d, node] : llvm::enumerate(v.dimNode))
      if (node >= 0)
        valueDimNodes.push_back({static_cast<unsigned>(d), node});
    for (auto [d, node] : v.minorNodes)
      if (node >= 0)
        valueDimNodes.push_back({d, node});
    c.numDimNodes = valueDimNodes.size() - c.dimNodes;
    c.factorDims = resultFactorDims.size();
    if (v.defOp >= 0 && ops[v.defOp].ruled &&
        v.resultNumber < ops[v.defOp].resultDims.size()) {
      const ProgramOp &p = ops[v.defOp];
      for (unsigned f = 0; f < p.factorReduction.size(); ++f) {
        int dim = p.resultDim(v.resultNumber, f);
        resultFactorDims.push_back(dim >= 0               ? dim
                                   : p.factorReduction[f] ? -1
                                                          : -2);
      }
    }
    valueShapes.insert(valueShapes.end(), v.shape.begin(), v.shape.end());
    // Uses are numbered value by value (ProgramValue::firstUse).
    assert(v.firstUse == useOps.size() && "uses out of order");
    useOps.insert(useOps.end(), v.uses.begin(), v.uses.end());
  }
  // What an in-place update saves (Evaluation::tieInPlaceUpdates) is at
  // most the bytes of its operands and results, whole.
  maxInPlaceSavedBytes = 0;
  auto wholeBytes = [&](int value) {
    if (value < 0)
      return 0.0;
    double bytes = static_cast<double>(values[value].elementBytes);
    for (int64_t size : values[value].shape)
      bytes *= static_cast<double>(std::max<int64_t>(size, 0));
    return bytes;
  };
  for (const ProgramOp &p : ops) {
    if (!p.updatesInPlace)
      continue;
    for (int v : p.operands)
      maxInPlaceSavedBytes += wholeBytes(v);
    for (int v : p.results)
      maxInPlaceSavedBytes += wholeBytes(v);
  }
}

// `program` is the model being built (the member for the entry itself).
bool NdaEnvironment::Impl::buildBlockModel(Block &block, ProgramModel &program,
                                           bool loops) {
  bool region = &block != &entry.getBody().front();
  program.isRegionBlock = region;
  llvm::DenseMap<Value, int> valueIds;
  auto addValue = [&](Value v, int defOp, unsigned resultNumber) {
    ProgramValue pv;
    if (auto type = dyn_cast<RankedTensorType>(v.getType())) {
      pv.shape.assign(type.getShape().begin(), type.getShape().end());
      pv.elementBytes =
          sim::getTypeBytes(RankedTensorType::get({}, type.getElementType()));
    } else {
      pv.elementBytes = sim::getTypeBytes(v.getType());
    }
    pv.dimNode.assign(pv.shape.size(), -1);
    if (int site = nda.getDefSite(v); site >= 0)
      for (unsigned d = 0; d < pv.shape.size(); ++d) {
        unsigned node = nda.getNode(nda.getSites()[site].firstName + d);
        if (nodeShardable[node])
          pv.dimNode[d] = node;
        SmallVector<unsigned, 2> parts = nda.getDimNames(site, d);
        for (unsigned k = 1; k < parts.size(); ++k)
          if (unsigned minor = nda.getNode(parts[k]); nodeShardable[minor])
            pv.minorNodes.push_back({d, static_cast<int>(minor)});
      }
    pv.defOp = defOp;
    pv.resultNumber = resultNumber;
    valueIds[v] = program.values.size();
    program.values.push_back(std::move(pv));
    if (region && defOp < 0)
      program.argumentValues.push_back(v);
  };
  for (BlockArgument arg : block.getArguments())
    addValue(arg, -1, 0);
  program.numBlockArguments = block.getNumArguments();
  // Per region op: the values from outside its regions read.
  llvm::DenseMap<unsigned, SmallVector<Value>> outerReads;
  if (region)
    addRegionInputs(block, program, deadOps, valueIds, addValue);
  program.numArguments = program.values.size();
  for (unsigned a = 0; !region && a < program.numArguments; ++a)
    program.hasDonors |= options.donate ||
                         entry.getArgAttr(a, "tf.aliasing_output") ||
                         entry.getArgAttr(a, "jax.buffer_donor");
  // The entry's boundary (the loop model's program of it too).
  if (!region) {
    for (BlockArgument arg : block.getArguments())
      program.wholeArguments.push_back(wholeAxesOf(arg));
    for (Value result : block.getTerminator()->getOperands())
      program.wholeResults.push_back(wholeAxesOf(result));
  }

  for (Operation &op : block) {
    // A region's constants are arguments (addRegionInputs).
    if (region && matchPattern(&op, m_Constant()))
      continue;
    unsigned index = program.ops.size();
    program.ops.emplace_back();
    ProgramOp &p = program.ops.back();
    p.op = &op;
    p.isReturn = op.hasTrait<OpTrait::IsTerminator>();
    DenseElementsAttr value;
    p.constant = matchPattern(&op, m_Constant());
    p.splat = matchPattern(&op, m_Constant(&value)) && value.isSplat();
    p.isLayout = isa<hlo::TransposeOp, hlo::ReshapeOp>(op);
    p.isAdd = isa<hlo::AddOp>(op);
    if (auto perm = op.getAttrOfType<DenseI64ArrayAttr>("permutation");
        perm && isa<hlo::TransposeOp>(op))
      p.permutation.assign(perm.asArrayRef().begin(), perm.asArrayRef().end());
    p.mayAlias = sim::mayAliasOperand(&op);
    describeFusion(&op, p);
    describeRule(nda, *rules, nodeShardable, &op, p);
    if (loops)
      describeLoop(&op, p, program, valueIds);
    for (OpOperand &use : op.getOpOperands()) {
      auto it = valueIds.find(use.get());
      p.operands.push_back(it == valueIds.end() ? -1 : it->second);
      if (it != valueIds.end())
        program.values[it->second].uses.push_back(
            {index, p.isReturn ? -2
                    : p.ruled  ? static_cast<int>(use.getOperandNumber())
                               : -1});
    }
    // Values read inside regions are used by the op as a whole (not by
    // ops that never run: the reference path erases them).
    sim::forEachCapturedValue(&op, deadOps, [&](Value v) {
      auto it = valueIds.find(v);
      if (it == valueIds.end())
        return;
      p.operands.push_back(it->second);
      program.values[it->second].uses.push_back({index, -1});
    });
    if (isDataFlowRegionOp(&op)) {
      // The loop model's entry is the main model's: its regions were
      // simulated once already (the same walk gives the same value ids).
      const ProgramOp *known =
          loops && !region && index < this->program.ops.size()
              ? &this->program.ops[index]
              : nullptr;
      if (known && known->op == &op)
        copyRegionDescription(*known, p);
      else
        describeRegions(&op, device, getSimulationOptions(), p,
                        outerReads[index]);
      describeCarryReads(&op, p);
    } else {
      p.computeTime = sim::getContractionTime(&op, device, options.tf32);
      p.flops = sim::getContractionFlops(&op);
      // What the simulator prices as a collective.
      p.inputCollective = sim::getCollectiveInfo(&op, mesh).has_value();
    }
    for (OpResult result : op.getResults()) {
      p.results.push_back(program.values.size());
      addValue(result, index, result.getResultNumber());
    }
  }

  // Dead ops (the greedy driver erases unused side-effect-free ops), by the
  // simulator's rule.
  for (ProgramOp &p : program.ops)
    p.dead = sim::neverRuns(p.op, deadOps);
  for (ProgramValue &v : program.values) {
    size_t all = v.uses.size();
    llvm::erase_if(v.uses,
                   [&](auto &use) { return program.ops[use.first].dead; });
    v.deadUses = v.uses.size() != all;
  }

  // Hoisted constants, deduplicated by value and type.
  std::map<ConstantKey, int> firstConstant;
  for (auto [i, p] : llvm::enumerate(program.ops)) {
    if (!p.constant || p.dead)
      continue;
    auto [it, inserted] =
        firstConstant.insert({getConstantKey(p.op), p.results[0]});
    if (inserted) {
      program.constants.push_back(i);
      continue;
    }
    // Uses of a duplicate go to the first constant.
    ProgramValue &dup = program.values[p.results[0]];
    for (auto &use : dup.uses) {
      program.values[it->second].uses.push_back(use);
      for (int &operand : program.ops[use.first].operands)
        if (operand == p.results[0])
          operand = it->second;
    }
    dup.uses.clear();
    p.dead = true;
  }
  if (!region)
    findMaskLikeConstants(program);
  // A region's nested constants are its arguments (addRegionInputs).
  std::map<ConstantKey, unsigned> hoisted;
  for (auto [i, p] : llvm::enumerate(program.ops))
    if (!region && !p.dead && isDataFlowRegionOp(p.op))
      hoistNestedConstants(program, i, firstConstant, hoisted, deadOps);
  std::vector<Value> valueOfId(program.values.size());
  for (auto [v, id] : valueIds)
    valueOfId[id] = v;
  for (auto &[i, reads] : outerReads)
    if (!program.ops[i].dead)
      findRegionReads(program, i, reads, valueOfId);

  // Global use numbers, and each op's operands in terms of them.
  for (ProgramValue &v : program.values) {
    v.firstUse = program.numUses;
    program.numUses += v.uses.size();
    for (auto [user, operand] : v.uses) {
      const ProgramOp &u = program.ops[user];
      ProgramUse &use = program.uses.emplace_back();
      use.userOp = u.op;
      use.userKind = u.fusionKind;
      use.userResult = u.results.empty() ? -1 : u.results[0];
      use.user = user;
      use.operand = operand;
      use.userIsLoop = u.region >= 0;
      if (use.userResult >= 0) {
        // As Evaluation::localElements computes it, without a tiling.
        const ProgramValue &r = program.values[use.userResult];
        use.userResultElements = r.getNumElements() * r.elementBytes /
                                 std::max<int64_t>(r.elementBytes, 1);
      }
      use.operandDims = program.useOperandDims.size();
      program.useRanks.push_back(0);
      if (operand >= 0) {
        const auto &dims = u.operandDims[operand];
        assert(dims.size() <= UINT8_MAX && "rank out of a byte");
        program.useRanks.back() = dims.size();
        llvm::append_range(program.useOperandDims, dims);
        use.userMinorFactors =
            llvm::any_of(u.minorFactors, [&](const MinorFactor &m) {
              return !m.isResult && m.tensor == static_cast<unsigned>(operand);
            });
      }
    }
  }
  describeNests(program, nda.getNumNodes());
  for (auto [i, p] : llvm::enumerate(program.ops)) {
    if (p.dead)
      continue;
    for (int v : p.operands) {
      int id = -1;
      if (v >= 0) {
        ProgramValue &pv = program.values[v];
        for (auto [k, use] : llvm::enumerate(pv.uses)) {
          int candidate = pv.firstUse + k;
          if (use.first == i && !llvm::is_contained(p.operandUses, candidate)) {
            id = candidate;
            break;
          }
        }
      }
      p.operandUses.push_back(id);
    }
  }
  program.buildCores();
  // A region's loops are the loop model's too (loops in loops), or the
  // region is not covered.
  return !region || !loops || llvm::all_of(program.ops, [](const ProgramOp &p) {
    return p.dead || p.region >= 0 || !isDataFlowRegionOp(p.op);
  });
}

} // namespace toast::search
