//===- NamedDimensionAnalysis.cpp - Names, identities, colors ------------===//
//
// Fresh names for every definition and use dim, the identities I from the
// sharding rules (plus region data flow), the map M, and the union-find
// passes that give the dimension-graph nodes (I) and the colors (I and M).
//
//===----------------------------------------------------------------------===//

#include "toast/Analysis/NamedDimensionAnalysis.h"
#include "toast/Analysis/UnionFind.h"
#include "toast/Interfaces/ShardingRule.h"

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

/// Functions reachable from `root` through func.call (including root).
SmallVector<func::FuncOp> collectCallees(func::FuncOp root) {
  SetVector<func::FuncOp> funcs;
  funcs.insert(root);
  for (unsigned i = 0; i < funcs.size(); ++i) {
    func::FuncOp f = funcs[i];
    f.walk([&](func::CallOp call) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (callee && !callee.isExternal())
        funcs.insert(callee);
    });
  }
  return SmallVector<func::FuncOp>(funcs.begin(), funcs.end());
}

/// Ops of `funcs` whose results depend on no function argument (constants,
/// iotas and what is computed from them only). A region argument depends on
/// an argument when an operand of the region's op does.
DenseSet<Operation *> findInputIndependentOps(ArrayRef<func::FuncOp> funcs) {
  DenseSet<Operation *> dependent, independent;
  std::function<bool(Value)> depends = [&](Value v) {
    if (Operation *def = v.getDefiningOp())
      return dependent.contains(def);
    Operation *parent = cast<BlockArgument>(v).getOwner()->getParentOp();
    if (!parent || isa<func::FuncOp>(parent))
      return true;
    return llvm::any_of(parent->getOperands(), depends);
  };
  for (func::FuncOp f : funcs)
    // Post-order: the ops of a region before the op holding it, and the
    // operands of that op before its regions.
    f.walk<WalkOrder::PostOrder>([&](Operation *op) {
      if (op == f.getOperation())
        return;
      bool dep = llvm::any_of(op->getOperands(), depends);
      for (Region &region : op->getRegions())
        region.walk([&](Operation *inner) {
          dep |= dependent.contains(inner) &&
                 inner->hasTrait<OpTrait::IsTerminator>();
        });
      (dep ? dependent : independent).insert(op);
    });
  return independent;
}
} // namespace

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
  UnionFind ids;
  ids.resize(names.size());
  for (func::FuncOp f : funcs)
    f.walk([&](Operation *op) {
      addIdentities(op, ids);
      addRegionIdentities(op, ids);
    });
  buildNodesAndColors(ids);
  markSharedCallNodes(funcs);
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
    for (BlockArgument arg : f.getArguments())
      if (isRankedTensor(arg))
        addSite(arg, nullptr);
    f.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == f.getOperation())
        return;
      opNumber[op] = opNumber.size();
      if (!isa<func::ReturnOp>(op))
        for (OpOperand &use : op->getOpOperands())
          if (isRankedTensor(use.get()))
            addSite(use.get(), &use);
      for (Value r : op->getResults())
        if (isRankedTensor(r))
          addSite(r, nullptr);
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

void NamedDimensionAnalysis::addIdentities(Operation *op, UnionFind &ids) {
  if (isa<func::ReturnOp, func::CallOp, func::FuncOp>(op))
    return;
  bool hasNames = false;
  for (OpOperand &use : op->getOpOperands())
    hasNames |= useSite.count(&use) != 0;
  for (Value r : op->getResults())
    hasNames |= defSite.count(r) != 0;
  if (!hasNames)
    return;
  std::optional<ShardingRule> rule = getShardingRule(op);
  if (!rule) {
    ++numOpaqueOps;
    return;
  }
  // First name seen per factor; every other dim of the factor joins it.
  SmallVector<int64_t> first(rule->factors.size(), -1);
  auto visit = [&](int site, ArrayRef<int64_t> dims) {
    if (site < 0)
      return;
    const Site &s = sites[site];
    for (unsigned d = 0; d < s.rank; ++d) {
      Name &name = names[s.firstName + d];
      int64_t f = d < dims.size() ? dims[d] : kNoFactor;
      if (f < 0 || f >= static_cast<int64_t>(first.size()) ||
          rule->factors[f].kind == FactorKind::NotTileable) {
        name.blocked = true;
        continue;
      }
      name.size = rule->factors[f].size;
      if (first[f] < 0)
        first[f] = s.firstName + d;
      else
        ids.unite(first[f], s.firstName + d);
    }
  };
  for (OpOperand &use : op->getOpOperands()) {
    unsigned i = use.getOperandNumber();
    visit(getUseSite(use), i < rule->operandDims.size()
                               ? ArrayRef<int64_t>(rule->operandDims[i])
                               : ArrayRef<int64_t>());
  }
  for (OpResult r : op->getResults()) {
    unsigned i = r.getResultNumber();
    visit(getDefSite(r), i < rule->resultDims.size()
                             ? ArrayRef<int64_t>(rule->resultDims[i])
                             : ArrayRef<int64_t>());
  }
}

void NamedDimensionAnalysis::addRegionIdentities(Operation *op,
                                                 UnionFind &ids) {
  // Identifies the names of two sites dim by dim (same rank only).
  auto identify = [&](int a, int b) {
    if (a < 0 || b < 0 || sites[a].rank != sites[b].rank)
      return;
    for (unsigned d = 0; d < sites[a].rank; ++d)
      ids.unite(sites[a].firstName + d, sites[b].firstName + d);
  };
  auto terminatorUse = [&](Region &region, unsigned i) -> int {
    if (region.empty())
      return -1;
    Operation *term = region.front().getTerminator();
    if (!term || i >= term->getNumOperands())
      return -1;
    return getUseSite(term->getOpOperand(i));
  };

  if (auto call = dyn_cast<func::CallOp>(op)) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!callee || callee.isExternal())
      return;
    for (OpOperand &use : call->getOpOperands())
      if (use.getOperandNumber() < callee.getNumArguments())
        identify(getUseSite(use),
                 getDefSite(callee.getArgument(use.getOperandNumber())));
    Operation *ret = callee.getBody().front().getTerminator();
    for (OpResult r : call->getResults())
      if (ret && r.getResultNumber() < ret->getNumOperands())
        identify(getDefSite(r),
                 getDefSite(ret->getOperand(r.getResultNumber())));
    return;
  }
  if (op->getNumRegions() == 0)
    return;
  StringRef name = op->getName().getStringRef();
  if (name == "stablehlo.while") {
    // Loop-carried value i: operand use, cond/body argument i, body
    // return i and result i are one name per dim.
    for (OpOperand &use : op->getOpOperands()) {
      unsigned i = use.getOperandNumber();
      int u = getUseSite(use);
      for (Region &region : op->getRegions())
        if (!region.empty() && i < region.front().getNumArguments())
          identify(u, getDefSite(region.front().getArgument(i)));
      if (i < op->getNumResults())
        identify(u, getDefSite(op->getResult(i)));
      if (op->getNumRegions() == 2)
        identify(u, terminatorUse(op->getRegion(1), i));
    }
    return;
  }
  if (name == "stablehlo.case" || name == "stablehlo.if") {
    for (OpResult r : op->getResults())
      for (Region &region : op->getRegions())
        identify(getDefSite(r), terminatorUse(region, r.getResultNumber()));
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
  for (const Site &s : sites) {
    if (!s.isUse())
      continue;
    int def = getDefSite(s.value);
    if (def < 0 || sites[def].rank != s.rank)
      continue;
    for (unsigned d = 0; d < s.rank; ++d) {
      unsigned from = nameNode[sites[def].firstName + d];
      unsigned to = nameNode[s.firstName + d];
      if (from != to)
        edges.push_back({from, to});
    }
  }
  llvm::sort(edges);
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  numEdges = edges.size();
  succStart.assign(numNodes + 1, 0);
  for (auto &e : edges)
    ++succStart[e.first + 1];
  std::partial_sum(succStart.begin(), succStart.end(), succStart.begin());
  succ.resize(edges.size());
  for (unsigned i = 0; i < edges.size(); ++i)
    succ[i] = edges[i].second; // edges sorted: positions match the CSR.

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

void NamedDimensionAnalysis::markSharedCallNodes(ArrayRef<func::FuncOp> funcs) {
  sharedCallNode.assign(getNumNodes(), false);
  llvm::DenseMap<Operation *, SmallVector<func::CallOp>> callsOf;
  for (func::FuncOp f : funcs)
    f.walk([&](func::CallOp call) {
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
  auto opRef = [&](Operation *op) {
    auto it = opNumber.find(op);
    os << "%" << (it == opNumber.end() ? -1 : (int)it->second) << " "
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
      os << "arg" << arg.getArgNumber();
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
  return describeSite(names[name].site) + "[" +
         std::to_string(names[name].dim) + "]";
}
