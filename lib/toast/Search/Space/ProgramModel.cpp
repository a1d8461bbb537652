//===- ProgramModel.cpp - The state-independent summary of a program ------===//
//
// What the analytic cost needs about the entry function, computed once:
// top-level ops in order with their rule factors (and the NDA node of each
// factor), values with their uses, the constants the collective
// optimizer's folder hoists to the function start, the ops it removes as
// dead, and for ops with regions (while, if, case) the time and the memory
// profile of their bodies, unpartitioned (simulateRegions): states that
// shard inside bodies are priced by the reference path instead
// (NdaEnvironment::Impl::price). For writing such states, the factor
// nodes of body ops and the dimension nodes of tied classes.
//
//===----------------------------------------------------------------------===//

#include "SpaceImpl.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"
#include "toast/Interfaces/ControlFlow.h"
#include "toast/Simulator/Simulator.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <map>

using namespace mlir;
namespace hlo = toast::stablehlo;

namespace toast::search {

/// The bodies of a region op, unpartitioned (states that shard inside
/// them are not priced analytically): the simulator prices them once, with trip
/// counts and its buffer rules, and the evaluation places the op's carried
/// values by the same rules (Aliasing.h).
static void describeRegions(Operation *op, const sim::DeviceSpec &device,
                            const sim::SimulationOptions &options,
                            ProgramOp &p) {
  p.tiedResults = sim::getTiedResults(op);
  FailureOr<sim::SimulationResult> nested =
      sim::simulateRegions(op, device, options);
  if (failed(nested))
    return;
  p.computeTime = nested->computeTime;
  p.flops = nested->flops;
  p.nestedOps = nested->numOps;
  p.nestedPeakBytes = nested->peakMemoryBytes;
}

using ConstantKey = std::pair<const void *, const void *>;

/// Constants that fold to one: equal value and type.
static ConstantKey getConstantKey(Operation *constant) {
  Attribute value;
  matchPattern(constant, m_Constant(&value));
  return {value.getAsOpaquePointer(),
          constant->getResult(0).getType().getAsOpaquePointer()};
}

/// Constants in the bodies of region op `i` are hoisted to the function
/// start too, merged with equal constants (the simulator sees them there;
/// simulateRegions leaves them out). The op reads the top-level constant
/// one merged with as a captured value, the others as constants of their
/// own (`hoisted`: key to index in hoistedConstantBytes).
static void hoistNestedConstants(ProgramModel &program, unsigned i,
                                 const std::map<ConstantKey, int> &top,
                                 std::map<ConstantKey, unsigned> &hoisted) {
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
    if (!matchPattern(op, m_Constant()))
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

/// Fills the rule part of a ruled op.
/// The fusion model's per-op facts the analytic cost reads.
static void describeFusion(Operation *op, ProgramOp &p) {
  p.fusionKind = sim::getFusionKind(op);
  p.expensiveToDuplicate = sim::isExpensiveToDuplicate(op);
  p.sliceView = sim::isContiguousSliceView(op);
  p.slicedOperand = sim::getSlicedOperand(op);
  p.noRoofline = sim::isFreeOp(op) || isDataFlowRegionOp(op) ||
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
  // A compound (reshaped) dimension is modelled through its major factor.
  auto majorOnly = [&](ArrayRef<int64_t> dims) {
    SmallVector<int64_t, 4> out(dims);
    for (int64_t &f : out)
      if (f != kNoFactor && rule->isMinorFactor(f))
        f = kNoFactor;
    return out;
  };
  for (const auto &dims : rule->operandDims)
    p.operandDims.push_back(majorOnly(dims));
  for (const auto &dims : rule->resultDims)
    p.resultDims.push_back(majorOnly(dims));
  auto setNode = [&](int site, unsigned dim, int64_t f) {
    if (site < 0 || f == kNoFactor)
      return;
    unsigned node = nda.getNode(nda.getSites()[site].firstName + dim);
    if (shardable[node] && rules.isLoopableFactor(op, f))
      p.factorNode[f] = node;
  };
  for (OpOperand &use : op->getOpOperands())
    for (auto [d, f] : llvm::enumerate(p.operandDims[use.getOperandNumber()]))
      setNode(nda.getUseSite(use), d, f);
  for (OpResult result : op->getResults())
    for (auto [d, f] : llvm::enumerate(p.resultDims[result.getResultNumber()]))
      setNode(nda.getDefSite(result), d, f);
}

/// The ops of loop and conditional bodies with their factor nodes, and the
/// node of each dimension of every tied class, for writing states into a
/// ShardingState (Materialize.cpp).
static void describeBodies(const NamedDimensionAnalysis &nda,
                           partition::ShardingState &rules,
                           const std::vector<char> &shardable,
                           ProgramModel &program) {
  walkProgram(rules.getFunction().getBody().front(),
              [&](Operation *op, const Scope &scope) {
                if (scope.depth == 0)
                  return;
                ProgramOp p;
                describeRule(nda, rules, shardable, op, p);
                program.nestedOps.push_back({p.ruled, p.factorNode});
              });
  for (const TiedValues::Edge &edge : rules.getTiedValues().getEdges()) {
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

void NdaEnvironment::Impl::buildProgram() {
  Block &block = entry.getBody().front();
  describeBodies(nda, *rules, nodeShardable, program);
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
      }
    pv.defOp = defOp;
    pv.resultNumber = resultNumber;
    valueIds[v] = program.values.size();
    program.values.push_back(std::move(pv));
  };
  for (BlockArgument arg : block.getArguments())
    addValue(arg, -1, 0);
  program.numArguments = block.getNumArguments();
  for (unsigned a = 0; a < program.numArguments; ++a)
    program.hasDonors |= options.donate ||
                         entry.getArgAttr(a, "tf.aliasing_output") ||
                         entry.getArgAttr(a, "jax.buffer_donor");

  for (Operation &op : block) {
    unsigned index = program.ops.size();
    program.ops.emplace_back();
    ProgramOp &p = program.ops.back();
    p.op = &op;
    p.isReturn = op.hasTrait<OpTrait::IsTerminator>();
    p.constant = matchPattern(&op, m_Constant());
    p.isLayout = isa<hlo::TransposeOp, hlo::ReshapeOp>(op);
    p.isAdd = isa<hlo::AddOp>(op);
    if (auto perm = op.getAttrOfType<DenseI64ArrayAttr>("permutation");
        perm && isa<hlo::TransposeOp>(op))
      p.permutation.assign(perm.asArrayRef().begin(), perm.asArrayRef().end());
    p.mayAlias = sim::mayAliasOperand(&op);
    describeFusion(&op, p);
    describeRule(nda, *rules, nodeShardable, &op, p);
    for (OpOperand &use : op.getOpOperands()) {
      auto it = valueIds.find(use.get());
      p.operands.push_back(it == valueIds.end() ? -1 : it->second);
      if (it != valueIds.end())
        program.values[it->second].uses.push_back(
            {index, p.isReturn ? -2
                    : p.ruled  ? static_cast<int>(use.getOperandNumber())
                               : -1});
    }
    // Values read inside regions are used by the op as a whole.
    llvm::SmallPtrSet<Value, 8> captured;
    op.walk([&](Operation *inner) {
      if (inner == &op)
        return;
      for (Value v : inner->getOperands()) {
        auto it = valueIds.find(v);
        if (it == valueIds.end() || !captured.insert(v).second)
          continue;
        p.operands.push_back(it->second);
        program.values[it->second].uses.push_back({index, -1});
      }
    });
    if (isDataFlowRegionOp(&op)) {
      describeRegions(&op, device, getSimulationOptions(), p);
    } else {
      p.computeTime = sim::getContractionTime(&op, device, options.tf32);
      p.flops = sim::getContractionFlops(&op);
    }
    for (OpResult result : op.getResults()) {
      p.results.push_back(program.values.size());
      addValue(result, index, result.getResultNumber());
    }
  }

  // Dead ops (the greedy driver erases unused side-effect-free ops).
  for (ProgramOp &p : llvm::reverse(program.ops)) {
    if (p.isReturn || !isMemoryEffectFree(p.op))
      continue;
    p.dead = llvm::all_of(p.results, [&](int v) {
      return llvm::all_of(program.values[v].uses, [&](auto &use) {
        return program.ops[use.first].dead;
      });
    });
  }
  for (ProgramValue &v : program.values)
    llvm::erase_if(v.uses,
                   [&](auto &use) { return program.ops[use.first].dead; });

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
  std::map<ConstantKey, unsigned> hoisted;
  for (auto [i, p] : llvm::enumerate(program.ops))
    if (!p.dead && isDataFlowRegionOp(p.op))
      hoistNestedConstants(program, i, firstConstant, hoisted);

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
      if (operand >= 0)
        use.operandDims = u.operandDims[operand];
    }
  }
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
}

} // namespace toast::search
