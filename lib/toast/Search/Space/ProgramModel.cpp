//===- ProgramModel.cpp - The state-independent summary of a program ------===//
//
// What the analytic cost needs about the entry function, computed once:
// top-level ops in order with their rule factors (and the NDA node of each
// factor), values with their uses, the constants the collective
// optimizer's folder hoists to the function start, the ops it removes as
// dead, and for ops with regions (while, if, case) the time and the memory
// profile of their bodies, which stay unpartitioned.
//
//===----------------------------------------------------------------------===//

#include "SpaceImpl.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"
#include "toast/Interfaces/ControlFlow.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <map>

using namespace mlir;
namespace hlo = toast::stablehlo;

namespace toast::search {

static double contractionTime(Operation *op, const sim::DeviceSpec &device) {
  double flops = sim::getContractionFlops(op);
  if (flops == 0)
    return 0;
  Type element = getElementTypeOrSelf(op->getOperand(0).getType());
  return flops / device.getPeakFlops(element);
}

namespace {
/// The simulator's walk of a region op's bodies (Simulator.cpp), reduced to
/// what a state cannot change: time of nested contractions (with trip
/// counts) and the live bytes of buffers defined inside.
class NestedWalk {
public:
  NestedWalk(const sim::DeviceSpec &device) : device(device) {}

  void run(Operation *op, ProgramOp &summary) {
    visitControlFlow(op, 1);
    int64_t end = index++;
    std::vector<int64_t> delta(index + 1, 0);
    for (const Buffer &b : buffers) {
      if (b.bytes == 0)
        continue;
      delta[b.def] += b.bytes;
      delta[std::max(b.lastUse, b.def) + 1] -= b.bytes;
    }
    int64_t live = 0;
    for (int64_t i = 0; i < end; ++i) {
      live += delta[i];
      summary.nestedPeakBytes = std::max(summary.nestedPeakBytes, live);
    }
    summary.nestedEndBytes = live + delta[end];
    summary.nestedOps = end;
    summary.computeTime += time;
    summary.flops += flops;
  }

private:
  struct Buffer {
    int64_t bytes, def, lastUse;
  };
  void use(Value v, int64_t at) {
    auto it = values.find(v);
    if (it == values.end())
      return; // Defined outside: an operand of the top-level op.
    Buffer &b = buffers[it->second];
    b.lastUse = std::max(b.lastUse, at);
    for (auto &[start, outer] : scopes)
      if (b.def < start)
        outer.push_back(it->second);
  }
  void emit(Operation *op, double repeat) {
    int64_t at = index++;
    for (Value operand : op->getOperands())
      use(operand, at);
    double t = contractionTime(op, device);
    time += repeat * t;
    flops += repeat * sim::getContractionFlops(op);
    bool aliasing = isa<hlo::ReshapeOp, hlo::BitcastConvertOp>(op) &&
                    op->getNumOperands() == 1 &&
                    sim::getTypeBytes(op->getOperand(0).getType()) ==
                        sim::getTypeBytes(op->getResult(0).getType());
    for (Value result : op->getResults()) {
      if (aliasing && values.count(op->getOperand(0))) {
        values[result] = values[op->getOperand(0)];
        continue;
      }
      values[result] = buffers.size();
      buffers.push_back({sim::getTypeBytes(result.getType()), at, at});
    }
  }
  void walkBlock(Block &block, double repeat) {
    for (Operation &op : block.without_terminator()) {
      if (matchPattern(&op, m_Constant()))
        continue; // Hoisted to the function start.
      if (isDataFlowRegionOp(&op))
        visitControlFlow(&op, repeat);
      else
        emit(&op, repeat);
    }
  }
  void visitControlFlow(Operation *op, double repeat) {
    scopes.push_back({index, {}});
    std::optional<int64_t> trips;
    if (isa<hlo::WhileOp>(op))
      trips = getTripCount(op);
    SmallVector<Value> yielded;
    for (Region &region : op->getRegions()) {
      if (region.empty())
        continue;
      double r = repeat;
      if (trips)
        r *= static_cast<double>(region.getRegionNumber() == 0 ? *trips + 1
                                                               : *trips);
      Block &block = region.front();
      if (isa<hlo::WhileOp>(op))
        for (auto [arg, operand] :
             llvm::zip(block.getArguments(), op->getOperands()))
          if (values.count(operand))
            values[arg] = values[operand];
      walkBlock(block, r);
      llvm::append_range(yielded, block.getTerminator()->getOperands());
    }
    auto scope = std::move(scopes.back());
    scopes.pop_back();
    if (scopes.empty())
      return; // The top-level op itself is emitted by the caller.
    emit(op, repeat);
    int64_t end = index - 1;
    for (unsigned b : scope.second)
      buffers[b].lastUse = std::max(buffers[b].lastUse, end);
    for (Value v : yielded)
      use(v, end);
  }

  const sim::DeviceSpec &device;
  llvm::DenseMap<Value, unsigned> values;
  std::vector<Buffer> buffers;
  std::vector<std::pair<int64_t, std::vector<unsigned>>> scopes;
  int64_t index = 0;
  double time = 0, flops = 0;
};
} // namespace

/// Fills the rule part of a ruled op.
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
  for (const auto &dims : rule->operandDims)
    p.operandDims.emplace_back(dims.begin(), dims.end());
  for (const auto &dims : rule->resultDims)
    p.resultDims.emplace_back(dims.begin(), dims.end());
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

void NdaEnvironment::Impl::buildProgram() {
  Block &block = entry.getBody().front();
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
    p.mayAlias = isa<hlo::ReshapeOp, hlo::BitcastConvertOp>(op) &&
                 op.getNumOperands() == 1 && op.getNumResults() == 1;
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
      NestedWalk(device).run(&op, p);
    } else {
      p.computeTime = contractionTime(&op, device);
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
  std::map<std::pair<const void *, const void *>, int> firstConstant;
  for (auto [i, p] : llvm::enumerate(program.ops)) {
    if (!p.constant || p.dead)
      continue;
    Attribute value;
    matchPattern(p.op, m_Constant(&value));
    auto key =
        std::make_pair(value.getAsOpaquePointer(),
                       p.op->getResult(0).getType().getAsOpaquePointer());
    auto [it, inserted] = firstConstant.insert({key, p.results[0]});
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

  // Global use numbers, and each op's operands in terms of them.
  for (ProgramValue &v : program.values) {
    v.firstUse = program.numUses;
    program.numUses += v.uses.size();
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
