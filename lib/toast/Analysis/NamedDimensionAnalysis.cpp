//===- NamedDimensionAnalysis.cpp - Names, identities, colors ------------===//
//
// Fresh names for every definition and use dim, the identities I from the
// sharding rules (plus region data flow: the tied classes of loops and
// conditionals, and calls), the map M, and the union-find passes that give
// the dimension-graph nodes (I) and the colors (I and M). Every walk covers
// the partitionable blocks (function bodies and, recursively, the bodies of
// while/case/if), so names inside loop bodies are like any other names.
//
//===----------------------------------------------------------------------===//

#include "toast/Analysis/NamedDimensionAnalysis.h"
#include "toast/Analysis/UnionFind.h"
#include "toast/Interfaces/ControlFlow.h"
#include "toast/Interfaces/ShardingRule.h"
#include "toast/Interfaces/ValueNames.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

#include <functional>
#include <numeric>

using namespace mlir;
using namespace toast;

namespace {
bool isRankedTensor(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.getRank() > 0;
}

/// Visits the ops of every partitionable block of `f` (its body and the
/// regions of the loops and conditionals in it, recursively). Regions of
/// other ops (reduction bodies, comparators) are scalar code of their op.
void walkFunction(func::FuncOp f, function_ref<void(Operation *)> fn,
                  WalkOrder order = WalkOrder::PreOrder) {
  if (f.isExternal())
    return;
  walkProgram(
      f.getBody().front(), [&](Operation *op, const Scope &) { fn(op); },
      order);
}

/// Deduplicates `edges` and stores them as CSR over `numVertices` vertices;
/// returns the number of distinct edges.
unsigned buildCsr(std::vector<std::pair<unsigned, unsigned>> &edges,
                  unsigned numVertices, std::vector<unsigned> &start,
                  std::vector<unsigned> &succ) {
  llvm::sort(edges);
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  start.assign(numVertices + 1, 0);
  for (auto &e : edges)
    ++start[e.first + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  succ.resize(edges.size());
  for (unsigned i = 0; i < edges.size(); ++i)
    succ[i] = edges[i].second; // edges sorted: positions match the CSR.
  return edges.size();
}

/// Whether `source` feeds `edge` back into the region it sits in: a loop
/// body's yield, which the body's next run receives as block arguments.
bool feedsBack(const TiedValues::Edge &edge, OpOperand &source) {
  Region *region = source.getOwner()->getParentRegion();
  if (region->getParentOp() != edge.owner)
    return false;
  return llvm::any_of(edge.targets, [&](Value target) {
    auto arg = dyn_cast<BlockArgument>(target);
    return arg && arg.getParentRegion() == region;
  });
}

/// Whether `v` is defined outside `op` (a value its regions capture).
bool isDefinedOutside(Value v, Operation *op) {
  return !op->isAncestor(v.getParentBlock()->getParentOp());
}

/// Ops of `funcs` whose results depend on no function argument (constants,
/// iotas and what is computed from them only).
DenseSet<Operation *> findInputIndependentOps(ArrayRef<func::FuncOp> funcs) {
  DenseSet<Operation *> dependent, independent;
  DenseMap<Operation *, bool> inputsDepend;
  std::function<bool(Value)> depends;
  // The region arguments of a loop or conditional depend on an argument
  // when a value entering it does: an operand, or a value its regions
  // capture (the carried values' sources inside the body only combine
  // those). Memoized; the capture search runs once per region op.
  auto regionInputsDepend = [&](Operation *regionOp) {
    auto it = inputsDepend.find(regionOp);
    if (it != inputsDepend.end())
      return it->second;
    bool dep = llvm::any_of(regionOp->getOperands(), depends);
    regionOp->walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        dep = dep || (isDefinedOutside(v, regionOp) && depends(v));
    });
    inputsDepend[regionOp] = dep;
    return dep;
  };
  depends = [&](Value v) {
    if (Operation *def = v.getDefiningOp())
      return dependent.contains(def);
    Operation *parent = cast<BlockArgument>(v).getOwner()->getParentOp();
    if (!parent || isa<func::FuncOp>(parent))
      return true;
    return regionInputsDepend(parent);
  };
  for (func::FuncOp f : funcs)
    // Post-order: the ops of a region before the op holding it, so a loop
    // or conditional sees whether its regions yield dependent values.
    walkFunction(
        f,
        [&](Operation *op) {
          bool dep = llvm::any_of(op->getOperands(), depends);
          if (isDataFlowRegionOp(op)) {
            dep |= regionInputsDepend(op);
            for (Region &region : op->getRegions())
              for (Block &block : region)
                dep |= dependent.contains(block.getTerminator());
          }
          (dep ? dependent : independent).insert(op);
        },
        WalkOrder::PostOrder);
  return independent;
}
} // namespace

SmallVector<func::FuncOp> toast::collectCallees(func::FuncOp root) {
  SetVector<func::FuncOp> funcs;
  funcs.insert(root);
  for (unsigned i = 0; i < funcs.size(); ++i)
    walkFunction(funcs[i], [&](Operation *op) {
      auto call = dyn_cast<func::CallOp>(op);
      if (!call)
        return;
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (callee && !callee.isExternal())
        funcs.insert(callee);
    });
  return SmallVector<func::FuncOp>(funcs.begin(), funcs.end());
}

NamedDimensionAnalysis::NamedDimensionAnalysis(func::FuncOp func,
                                               NdaOptions options)
    : options(options) {
  entry = func;
  run(collectCallees(func));
}

NamedDimensionAnalysis::NamedDimensionAnalysis(ModuleOp module,
                                               NdaOptions options)
    : options(options) {
  SmallVector<func::FuncOp> funcs;
  for (auto f : module.getOps<func::FuncOp>())
    if (!f.isExternal())
      funcs.push_back(f);
  for (auto f : funcs)
    if (f.isPublic() && f.getSymName() == "main")
      entry = f;
  for (auto f : funcs)
    if (!entry && f.isPublic())
      entry = f;
  if (!entry && !funcs.empty())
    entry = funcs.front();
  run(funcs);
}

NamedDimensionAnalysis::NamedDimensionAnalysis(Operation *op) {
  if (auto func = dyn_cast<func::FuncOp>(op)) {
    entry = func;
    run(collectCallees(func));
    return;
  }
  if (auto module = dyn_cast<ModuleOp>(op)) {
    *this = NamedDimensionAnalysis(module);
    return;
  }
  run({});
}

void NamedDimensionAnalysis::run(ArrayRef<func::FuncOp> funcs) {
  assignNames(funcs);
  for (func::FuncOp f : funcs)
    walkFunction(f, [&](Operation *op) {
      if (takesRule(op))
        if (std::optional<ShardingRule> rule = getShardingRule(op))
          rules.try_emplace(op, std::move(*rule));
    });
  SmallVector<TiedValues> tied;
  for (func::FuncOp f : funcs)
    if (!f.isExternal())
      tied.emplace_back(f.getBody().front());
  splitCompoundDims(funcs, tied);
  UnionFind ids;
  ids.resize(names.size());
  for (func::FuncOp f : funcs)
    walkFunction(f, [&](Operation *op) {
      addIdentities(op, ids);
      if (auto call = dyn_cast<func::CallOp>(op))
        addCallIdentities(call, ids);
    });
  for (const TiedValues &t : tied)
    addTiedIdentities(t, ids);
  buildNodesAndColors(ids);
  markSharedCallNodes(funcs);
  buildPathGraph(tied);
  numberTopologically();
  findConflicts();
  buildCompatibilitySets(findInputIndependentOps(funcs));
  mergeIsomorphicSets();
  groupArguments();
}

unsigned NamedDimensionAnalysis::addSite(Value v, OpOperand *use) {
  auto type = cast<RankedTensorType>(v.getType());
  Site site;
  site.value = v;
  site.use = use;
  site.firstName = names.size();
  site.rank = type.getRank();
  unsigned id = sites.size();
  sites.push_back(site);
  for (unsigned d = 0; d < site.rank; ++d)
    names.push_back(Name{id, d, type.getDimSize(d), false});
  if (use)
    useSite[use] = id;
  else
    defSite[v] = id;
  return id;
}

void NamedDimensionAnalysis::assignNames(ArrayRef<func::FuncOp> funcs) {
  for (func::FuncOp f : funcs) {
    // Numbered as schedules select ops (`#N`: pre-order through every
    // region of the function).
    unsigned number = 0;
    f.getBody().walk<WalkOrder::PreOrder>(
        [&](Operation *op) { opNumber[op] = number++; });
    for (BlockArgument arg : f.getArguments())
      if (isRankedTensor(arg))
        addSite(arg, nullptr);
    walkFunction(f, [&](Operation *op) {
      // A region terminator's operands are uses (sources of tied classes);
      // the function's results are not.
      if (!isa<func::ReturnOp>(op))
        for (OpOperand &use : op->getOpOperands())
          if (isRankedTensor(use.get()))
            addSite(use.get(), &use);
      for (Value r : op->getResults())
        if (isRankedTensor(r))
          addSite(r, nullptr);
      if (isDataFlowRegionOp(op))
        for (Region &region : op->getRegions())
          for (Block &block : region)
            for (BlockArgument arg : block.getArguments())
              if (isRankedTensor(arg))
                addSite(arg, nullptr);
    });
  }
}

int NamedDimensionAnalysis::getDefSite(Value v) const {
  auto it = defSite.find(v);
  return it == defSite.end() ? -1 : static_cast<int>(it->second);
}

int NamedDimensionAnalysis::getUseSite(OpOperand &use) const {
  auto it = useSite.find(&use);
  return it == useSite.end() ? -1 : static_cast<int>(it->second);
}

bool NamedDimensionAnalysis::takesRule(Operation *op) const {
  // Terminators (func.return and the returns of loop and conditional
  // bodies) only pass values on; calls, loops and conditionals get their
  // identities from the data flow they describe, not from a rule.
  if (op->hasTrait<OpTrait::IsTerminator>() || isa<func::CallOp>(op) ||
      isDataFlowRegionOp(op))
    return false;
  bool hasNames = false;
  for (OpOperand &use : op->getOpOperands())
    hasNames |= useSite.count(&use) != 0;
  for (Value r : op->getResults())
    hasNames |= defSite.count(r) != 0;
  return hasNames;
}

void NamedDimensionAnalysis::addIdentities(Operation *op, UnionFind &ids) {
  if (!takesRule(op))
    return;
  auto it = rules.find(op);
  if (it == rules.end()) {
    ++numOpaqueOps;
    return;
  }
  identifyFactorNames(op, it->second, ids);
}

void NamedDimensionAnalysis::identifySites(int a, int b, UnionFind &ids) {
  if (a < 0 || b < 0 || sites[a].rank != sites[b].rank)
    return;
  for (unsigned d = 0; d < sites[a].rank; ++d)
    ids.unite(sites[a].firstName + d, sites[b].firstName + d);
  // Sites of one extent are split alike (splitCompoundDims).
  if (sites[a].numMinor == sites[b].numMinor)
    for (unsigned k = 0; k < sites[a].numMinor; ++k)
      ids.unite(sites[a].firstMinor + k, sites[b].firstMinor + k);
}

void NamedDimensionAnalysis::addCallIdentities(func::CallOp call,
                                               UnionFind &ids) {
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  if (!callee || callee.isExternal())
    return;
  for (OpOperand &use : call->getOpOperands())
    if (use.getOperandNumber() < callee.getNumArguments())
      identifySites(getUseSite(use),
                    getDefSite(callee.getArgument(use.getOperandNumber())),
                    ids);
  Operation *ret = callee.getBody().front().getTerminator();
  for (OpResult r : call->getResults())
    if (ret && r.getResultNumber() < ret->getNumOperands())
      identifySites(getDefSite(r),
                    getDefSite(ret->getOperand(r.getResultNumber())), ids);
}

void NamedDimensionAnalysis::addTiedIdentities(const TiedValues &tied,
                                               UnionFind &ids) {
  // A tied class is one value for partitioning: every source use and every
  // target definition is one name per dim (a loop-carried value's operand,
  // block arguments, yielded value and result; a conditional's branch
  // results and its result).
  for (const TiedValues::Edge &edge : tied.getEdges()) {
    if (edge.targets.empty())
      continue;
    int first = getDefSite(edge.targets.front());
    for (Value target : edge.targets)
      identifySites(first, getDefSite(target), ids);
    for (OpOperand *source : edge.sources)
      identifySites(first, getUseSite(*source), ids);
  }
}

void NamedDimensionAnalysis::buildNodesAndColors(UnionFind &ids) {
  // Nodes: I-classes numbered in order of first name.
  unsigned n = names.size();
  nameNode.assign(n, 0);
  std::vector<int> rootNode(n, -1);
  for (unsigned i = 0; i < n; ++i) {
    unsigned r = ids.find(i);
    if (rootNode[r] < 0) {
      rootNode[r] = nodeRep.size();
      nodeRep.push_back(i);
    }
    nameNode[i] = rootNode[r];
  }
  unsigned numNodes = nodeRep.size();

  // M edges between nodes, deduplicated, as CSR.
  std::vector<std::pair<unsigned, unsigned>> edges;
  forEachMapName([&](unsigned def, unsigned use) {
    unsigned from = nameNode[def];
    unsigned to = nameNode[use];
    if (from != to)
      edges.push_back({from, to});
  });
  numEdges = buildCsr(edges, numNodes, succStart, succ);

  // Colors: nodes identified along M edges, numbered by first node.
  UnionFind colorsUf;
  colorsUf.resize(numNodes);
  for (auto &e : edges)
    colorsUf.unite(e.first, e.second);
  nodeColor.assign(numNodes, 0);
  std::vector<int> rootColor(numNodes, -1);
  unsigned numColors = 0;
  for (unsigned v = 0; v < numNodes; ++v) {
    unsigned r = colorsUf.find(v);
    if (rootColor[r] < 0)
      rootColor[r] = numColors++;
    nodeColor[v] = rootColor[r];
  }

  // Per-color CSR of names and nodes, def-dim counts, blocked, gcd.
  colorStart.assign(numColors + 1, 0);
  colorNodeStart.assign(numColors + 1, 0);
  colorDefDims.assign(numColors, 0);
  colorBlocked.assign(numColors, 0);
  colorGcd.assign(numColors, 0);
  for (unsigned i = 0; i < n; ++i) {
    unsigned c = nodeColor[nameNode[i]];
    ++colorStart[c + 1];
    if (!sites[names[i].site].isUse())
      ++colorDefDims[c];
    if (names[i].blocked)
      ++colorBlocked[c];
    colorGcd[c] = std::gcd(colorGcd[c], names[i].size);
  }
  for (unsigned v = 0; v < numNodes; ++v)
    ++colorNodeStart[nodeColor[v] + 1];
  std::partial_sum(colorStart.begin(), colorStart.end(), colorStart.begin());
  std::partial_sum(colorNodeStart.begin(), colorNodeStart.end(),
                   colorNodeStart.begin());
  colorNames.resize(n);
  colorNodes.resize(numNodes);
  std::vector<unsigned> fill(colorStart.begin(), colorStart.end() - 1);
  for (unsigned i = 0; i < n; ++i)
    colorNames[fill[nodeColor[nameNode[i]]]++] = i;
  fill.assign(colorNodeStart.begin(), colorNodeStart.end() - 1);
  for (unsigned v = 0; v < numNodes; ++v)
    colorNodes[fill[nodeColor[v]]++] = v;
}

void NamedDimensionAnalysis::forEachMapName(
    function_ref<void(unsigned def, unsigned use)> fn) const {
  for (const Site &s : sites) {
    if (!s.isUse())
      continue;
    int def = getDefSite(s.value);
    if (def < 0 || sites[def].rank != s.rank)
      continue;
    for (unsigned d = 0; d < s.rank; ++d)
      fn(sites[def].firstName + d, s.firstName + d);
    // A value's definition and uses are split alike (splitCompoundDims).
    if (sites[def].numMinor == s.numMinor)
      for (unsigned k = 0; k < s.numMinor; ++k)
        fn(sites[def].firstMinor + k, s.firstMinor + k);
  }
}

void NamedDimensionAnalysis::markSharedCallNodes(ArrayRef<func::FuncOp> funcs) {
  sharedCallNode.assign(getNumNodes(), false);
  llvm::DenseMap<Operation *, SmallVector<func::CallOp>> callsOf;
  for (func::FuncOp f : funcs)
    walkFunction(f, [&](Operation *op) {
      auto call = dyn_cast<func::CallOp>(op);
      if (!call)
        return;
      if (auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
              call, call.getCalleeAttr()))
        callsOf[callee].push_back(call);
    });
  auto mark = [&](Value v) {
    int s = getDefSite(v);
    if (s >= 0)
      for (unsigned d = 0; d < sites[s].rank; ++d)
        sharedCallNode[nameNode[sites[s].firstName + d]] = true;
  };
  for (auto &[callee, calls] : callsOf) {
    if (calls.size() < 2)
      continue;
    for (Value arg : cast<func::FuncOp>(callee).getArguments())
      mark(arg);
    for (func::CallOp call : calls)
      for (Value r : call.getResults())
        mark(r);
  }
}

SmallVector<unsigned> NamedDimensionAnalysis::getColors(Value v) const {
  SmallVector<unsigned> result;
  int s = getDefSite(v);
  if (s < 0)
    return result;
  for (unsigned d = 0; d < sites[s].rank; ++d)
    result.push_back(getColorOfName(sites[s].firstName + d));
  return result;
}

bool NamedDimensionAnalysis::isLegal(unsigned color, int64_t k,
                                     bool allowBlocked) const {
  if (k <= 0 || color >= getNumColors())
    return false;
  if (!allowBlocked && colorBlocked[color])
    return false;
  return colorGcd[color] > 0 && colorGcd[color] % k == 0;
}

bool NamedDimensionAnalysis::hasEdge(unsigned from, unsigned to) const {
  ArrayRef<unsigned> s = getSuccessors(from);
  return std::binary_search(s.begin(), s.end(), to);
}

std::string NamedDimensionAnalysis::describeSite(unsigned id) const {
  const Site &s = sites[id];
  std::string out;
  llvm::raw_string_ostream os(out);
  // Ops by number as schedules select them (`#N`: the entry's ops in
  // order, calls inlined), not by an SSA name the file may give another.
  auto opRef = [&](Operation *op) {
    auto it = opNumber.find(op);
    auto func = op->getParentOfType<func::FuncOp>();
    if (func && func != entry)
      os << "@" << func.getSymName() << ":";
    os << "#" << (it == opNumber.end() ? -1 : (int)it->second) << " "
       << op->getName().getStringRef();
  };
  if (s.isUse()) {
    os << "use ";
    opRef(s.use->getOwner());
    os << "(" << s.use->getOperandNumber() << ")";
  } else if (auto arg = dyn_cast<BlockArgument>(s.value)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (auto f = dyn_cast<func::FuncOp>(parent)) {
      if (f != entry)
        os << "@" << f.getSymName() << ":";
      // The name the user knows it by (jax.arg_info, partir.name, loc).
      os << getArgumentDisplayName(f, arg.getArgNumber());
    } else {
      opRef(parent);
      os << " region" << arg.getOwner()->getParent()->getRegionNumber()
         << " arg" << arg.getArgNumber();
    }
  } else {
    auto r = cast<OpResult>(s.value);
    opRef(r.getOwner());
    os << "#" << r.getResultNumber();
  }
  return out;
}

std::string NamedDimensionAnalysis::describeName(unsigned name) const {
  // A minor part of a split dim: "[0.1]" is part 1 of dim 0.
  const Name &n = names[name];
  return describeSite(n.site) + "[" + std::to_string(n.dim) +
         (n.part ? "." + std::to_string(n.part) : "") + "]";
}

void NamedDimensionAnalysis::buildPathGraph(ArrayRef<TiedValues> tied) {
  // A loop body's names stand for every iteration, as one unrolled layer's
  // names stand for that layer. A carried value's node therefore gets two
  // vertices: the node itself where the loop receives the value (operand,
  // block arguments) and a *yield vertex* where it leaves an iteration
  // (the body's yield, the loop's result). The yield vertex leads only to
  // the uses of the loop's results, so a path leaves the body after the
  // last iteration and never comes back into it, where it would join two
  // dims of one iteration that only meet across iterations (query and key
  // of the next layer's attention).
  unsigned numVertices = getNumNodes();
  nameVertex = nameNode;
  DenseMap<unsigned, unsigned> yieldVertex; // carried node -> vertex
  auto leave = [&](int site) {
    for (unsigned d = 0; site >= 0 && d < sites[site].rank; ++d) {
      unsigned name = sites[site].firstName + d;
      auto [it, inserted] =
          yieldVertex.try_emplace(nameNode[name], numVertices);
      numVertices += inserted;
      nameVertex[name] = it->second;
    }
  };
  for (const TiedValues &values : tied)
    for (const TiedValues::Edge &edge : values.getEdges()) {
      bool loops = false;
      for (OpOperand *source : edge.sources)
        if (feedsBack(edge, *source)) {
          loops = true;
          leave(getUseSite(*source));
        }
      for (Value target : edge.targets)
        if (loops && isa<OpResult>(target))
          leave(getDefSite(target));
    }

  std::vector<std::pair<unsigned, unsigned>> edges;
  forEachMapName([&](unsigned def, unsigned use) {
    unsigned from = nameVertex[def];
    unsigned to = nameVertex[use];
    if (from != to && (from >= sharedCallNode.size() || !sharedCallNode[from]))
      edges.push_back({from, to});
  });
  buildCsr(edges, numVertices, pathStart, pathSucc);
}
