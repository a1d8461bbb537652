//===- Conflicts.cpp - Conflicts, compatibility sets, layer merging ------===//
//
// TOAST sections 3.3-3.6: conflicts between dimension-graph nodes of one
// color on one definition or use; compatible conflicts (boxes without a
// path across); compatibility sets with two resolutions; isomorphic sets
// (repeated layers, verified by canonical forms) sharing one resolution bit.
//
//===----------------------------------------------------------------------===//

#include "toast/Analysis/NamedDimensionAnalysis.h"
#include "toast/Analysis/UnionFind.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <numeric>
#include <queue>
#include <tuple>

using namespace mlir;
using namespace toast;

namespace {
uint64_t pairKey(unsigned a, unsigned b) {
  if (a > b)
    std::swap(a, b);
  return (uint64_t(a) << 32) | b;
}

/// Whether `target` is reachable from `source` (a path of length >= 1); tag
/// identifies the query for the caller.
struct ReachQuery {
  unsigned source, target, tag;
  bool reached = false;
};

/// Topological number of a node on or behind a cycle of the dimension graph.
constexpr unsigned kNoOrder = ~0u;

/// Answers many reachability queries over a graph numbered topologically
/// (`order`, kNoOrder for nodes on or behind cycles). Queries are grouped by
/// source; each source runs one search that advances target by target in
/// increasing order and never expands a node numbered at or above the current
/// target (nothing there leads back below it). A source used by many boxes
/// (a weight shared by every layer) thus costs one sweep, not one per box.
void answerReachability(
    llvm::function_ref<ArrayRef<unsigned>(unsigned)> successors,
    ArrayRef<unsigned> order, MutableArrayRef<ReachQuery> queries) {
  llvm::sort(queries, [&](const ReachQuery &x, const ReachQuery &y) {
    return std::make_tuple(x.source, order[x.target]) <
           std::make_tuple(y.source, order[y.target]);
  });
  std::vector<unsigned> seenBy(order.size(), ~0u);
  using Entry = std::pair<unsigned, unsigned>; // (order, node)
  for (size_t begin = 0; begin < queries.size();) {
    unsigned source = queries[begin].source;
    size_t end = begin;
    while (end < queries.size() && queries[end].source == source)
      ++end;
    // Discovered nodes not yet expanded, by order.
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> later;
    auto expand = [&](unsigned v) {
      for (unsigned t : successors(v))
        if (seenBy[t] != source) {
          seenBy[t] = source;
          later.push({order[t], t});
        }
    };
    expand(source);
    for (size_t q = begin; q < end; ++q) {
      unsigned limit = order[queries[q].target];
      // An unnumbered target (behind a cycle) needs the whole search.
      while (!later.empty() &&
             (limit == kNoOrder || later.top().first < limit)) {
        unsigned v = later.top().second;
        later.pop();
        expand(v);
      }
      queries[q].reached = seenBy[queries[q].target] == source;
    }
    begin = end;
  }
}
} // namespace

void NamedDimensionAnalysis::findConflicts() {
  llvm::DenseMap<uint64_t, unsigned> index;
  for (unsigned s = 0; s < sites.size(); ++s) {
    // Every name of the site, the minor parts of split dims included.
    SmallVector<unsigned, 4> siteNames = getSiteNames(s);
    for (unsigned d1 = 0; d1 < siteNames.size(); ++d1)
      for (unsigned d2 = d1 + 1; d2 < siteNames.size(); ++d2) {
        unsigned n1 = nameNode[siteNames[d1]];
        unsigned n2 = nameNode[siteNames[d2]];
        if (n1 == n2 || nodeColor[n1] != nodeColor[n2])
          continue;
        auto [it, inserted] =
            index.try_emplace(pairKey(n1, n2), conflicts.size());
        if (inserted) {
          Conflict c;
          c.a = std::min(n1, n2);
          c.b = std::max(n1, n2);
          c.color = nodeColor[n1];
          c.firstSite = s;
          conflicts.push_back(c);
        }
        ++conflicts[it->second].numSites;
      }
  }
  // Conflicts per color (CSR).
  unsigned numColors = getNumColors();
  colorConflictStart.assign(numColors + 1, 0);
  for (const Conflict &c : conflicts)
    ++colorConflictStart[c.color + 1];
  std::partial_sum(colorConflictStart.begin(), colorConflictStart.end(),
                   colorConflictStart.begin());
  colorConflicts.resize(conflicts.size());
  std::vector<unsigned> fill(colorConflictStart.begin(),
                             colorConflictStart.end() - 1);
  for (unsigned i = 0; i < conflicts.size(); ++i)
    colorConflicts[fill[conflicts[i].color]++] = i;
}

void NamedDimensionAnalysis::numberTopologically() {
  // Kahn's algorithm, always taking the smallest ready node: node numbers
  // follow program order, so the numbering stays close to it and a search
  // towards a target only sees the program between source and target.
  // Vertices on or behind a cycle keep kNoOrder (loops do not make cycles:
  // their yields lead out of the loop). Edges only go up in this numbering,
  // and no numbered vertex is reachable from an unnumbered one.
  unsigned n = pathStart.size() - 1;
  topoOrder.assign(n, kNoOrder);
  std::vector<unsigned> indegree(n, 0);
  for (unsigned v = 0; v < n; ++v)
    for (unsigned t : getPathSuccessors(v))
      ++indegree[t];
  std::priority_queue<unsigned, std::vector<unsigned>, std::greater<unsigned>>
      ready;
  for (unsigned v = 0; v < n; ++v)
    if (indegree[v] == 0)
      ready.push(v);
  unsigned next = 0;
  while (!ready.empty()) {
    unsigned v = ready.top();
    ready.pop();
    topoOrder[v] = next++;
    for (unsigned t : getPathSuccessors(v))
      if (--indegree[t] == 0)
        ready.push(t);
  }
}

bool NamedDimensionAnalysis::reaches(unsigned from, unsigned to) const {
  // A search for a numbered target never enters a node numbered above it.
  unsigned limit = topoOrder[to];
  auto pruned = [&](unsigned v) {
    return limit != kNoOrder &&
           (topoOrder[v] == kNoOrder || topoOrder[v] >= limit);
  };
  if (pruned(from))
    return false;
  llvm::DenseSet<unsigned> visited;
  SmallVector<unsigned> stack{from};
  while (!stack.empty()) {
    unsigned v = stack.pop_back_val();
    for (unsigned t : getPathSuccessors(v)) {
      if (t == to)
        return true;
      if (!pruned(t) && visited.insert(t).second)
        stack.push_back(t);
    }
  }
  return false;
}

void NamedDimensionAnalysis::buildCompatibilitySets(
    const llvm::DenseSet<Operation *> &inputIndependentOps) {
  llvm::DenseMap<uint64_t, unsigned> index;
  for (unsigned i = 0; i < conflicts.size(); ++i)
    index[pairKey(conflicts[i].a, conflicts[i].b)] = i;
  auto lookup = [&](unsigned x, unsigned y) -> int {
    if (x == y)
      return -1;
    auto it = index.find(pairKey(x, y));
    return it == index.end() ? -1 : static_cast<int>(it->second);
  };
  auto carriesConflict = [&](unsigned s) {
    SmallVector<unsigned, 4> n = getSiteNames(s);
    for (unsigned i = 0; i < n.size(); ++i)
      for (unsigned j = i + 1; j < n.size(); ++j)
        if (lookup(nameNode[n[i]], nameNode[n[j]]) >= 0)
          return true;
    return false;
  };

  // A definition computed from no argument, with conflicting uses at
  // several places, is communication-free: every use can compute the layout
  // it wants locally, so none of its boxes constrains the others.
  std::vector<unsigned> conflictingUses(sites.size(), 0);
  for (auto [id, use] : llvm::enumerate(sites))
    if (use.isUse() && carriesConflict(id))
      if (int def = getDefSite(use.value); def >= 0)
        ++conflictingUses[def];
  auto isCommunicationFree = [&](unsigned def) {
    Operation *op = sites[def].value.getDefiningOp();
    return op && conflictingUses[def] > 1 && inputIndependentOps.contains(op);
  };

  // Candidate boxes: (N,O) on a definition, (L,R) on a use of it.
  struct Box {
    unsigned cDef, cUse;
    bool parity;
  };
  std::vector<Box> boxes;
  std::vector<ReachQuery> across;
  // Paths are searched between name vertices: a loop's yield and result
  // are the end of an iteration, not its start (buildPathGraph).
  for (auto [useId, use] : llvm::enumerate(sites)) {
    if (!use.isUse())
      continue;
    int def = getDefSite(use.value);
    if (def < 0 || sites[def].rank != use.rank || isCommunicationFree(def))
      continue;
    // A definition and its uses are split alike: their names align.
    SmallVector<unsigned, 4> useNames = getSiteNames(useId);
    SmallVector<unsigned, 4> defNames = getSiteNames(def);
    if (useNames.size() < 2 || useNames.size() != defNames.size())
      continue;
    for (unsigned i = 0; i < useNames.size(); ++i)
      for (unsigned j = i + 1; j < useNames.size(); ++j) {
        unsigned l = nameNode[useNames[i]], r = nameNode[useNames[j]];
        unsigned n = nameNode[defNames[i]], o = nameNode[defNames[j]];
        int cUse = lookup(l, r), cDef = lookup(n, o);
        if (cUse < 0 || cDef < 0 || cUse == cDef)
          continue;
        bool orientDef = conflicts[cDef].a != n;
        bool orientUse = conflicts[cUse].a != l;
        across.push_back({nameVertex[defNames[i]], nameVertex[useNames[j]],
                          (unsigned)boxes.size()});
        across.push_back({nameVertex[defNames[j]], nameVertex[useNames[i]],
                          (unsigned)boxes.size()});
        boxes.push_back(
            {(unsigned)cDef, (unsigned)cUse, orientDef != orientUse});
      }
  }

  // A path across (N ~> R or O ~> L) breaks a box.
  answerReachability([&](unsigned v) { return getPathSuccessors(v); },
                     topoOrder, across);
  std::vector<bool> broken(boxes.size(), false);
  for (const ReachQuery &q : across)
    if (q.reached)
      broken[q.tag] = true;

  ParityUnionFind uf(conflicts.size());
  std::vector<unsigned> contradicted;
  for (auto [i, box] : llvm::enumerate(boxes))
    if (!broken[i] && !uf.unite(box.cDef, box.cUse, box.parity))
      contradicted.push_back(box.cDef);

  llvm::DenseMap<unsigned, unsigned> setOfRoot;
  for (unsigned i = 0; i < conflicts.size(); ++i) {
    auto [root, parity] = uf.find(i);
    auto [it, inserted] = setOfRoot.try_emplace(root, sets.size());
    if (inserted)
      sets.emplace_back();
    conflicts[i].set = it->second;
    conflicts[i].parity = parity;
    sets[it->second].conflicts.push_back(i);
  }
  for (unsigned c : contradicted)
    sets[conflicts[c].set].consistent = false;
}

std::string
NamedDimensionAnalysis::describePosition(ArrayRef<unsigned> nodeNames) const {
  // Where each name of a node sits. Function argument numbers are left out:
  // corresponding parameters of repeated layers have different ones.
  SmallVector<std::string> parts;
  for (unsigned n : nodeNames) {
    const Name &name = names[n];
    const Site &s = sites[name.site];
    std::string part;
    llvm::raw_string_ostream os(part);
    if (s.isUse()) {
      os << "use " << s.use->getOwner()->getName().getStringRef() << "("
         << s.use->getOperandNumber() << ")";
    } else if (auto arg = dyn_cast<BlockArgument>(s.value)) {
      Operation *parent = arg.getOwner()->getParentOp();
      os << "arg " << parent->getName().getStringRef();
      if (!isa<func::FuncOp>(parent))
        os << " " << arg.getOwner()->getParent()->getRegionNumber() << ":"
           << arg.getArgNumber();
    } else {
      os << s.value.getDefiningOp()->getName().getStringRef() << "#"
         << cast<OpResult>(s.value).getResultNumber();
    }
    os << "[" << name.dim << "." << name.part << "/" << s.rank << "] "
       << name.size << (name.blocked ? " blocked" : "");
    parts.push_back(std::move(part));
  }
  llvm::sort(parts);
  return llvm::join(parts, "; ");
}

namespace {
/// The sub-graph of one compatibility set with nodes renumbered locally.
struct SetGraph {
  SmallVector<unsigned> nodes; ///< Dimension-graph node of each local node.
  llvm::DenseMap<unsigned, unsigned> local;
  SmallVector<std::pair<unsigned, unsigned>> edges, conflictEdges;
};

/// Weisfeiler-Lehman refinement (3 rounds) of `label` over M edges (in and
/// out) and conflict edges. Only orders nodes canonically: the exact
/// comparison of canonical forms decides isomorphism.
void refineLabels(const SetGraph &g, SmallVector<uint64_t> &label) {
  unsigned n = g.nodes.size();
  for (int round = 0; round < 3; ++round) {
    SmallVector<SmallVector<uint64_t>> in(n), out(n), cross(n);
    for (auto [s, t] : g.edges) {
      out[s].push_back(label[t]);
      in[t].push_back(label[s]);
    }
    for (auto [s, t] : g.conflictEdges) {
      cross[s].push_back(label[t]);
      cross[t].push_back(label[s]);
    }
    SmallVector<uint64_t> next(n);
    for (unsigned i = 0; i < n; ++i) {
      for (auto *v : {&in[i], &out[i], &cross[i]})
        llvm::sort(*v);
      next[i] = llvm::hash_combine(
          label[i], llvm::hash_combine_range(in[i].begin(), in[i].end()),
          llvm::hash_combine_range(out[i].begin(), out[i].end()),
          llvm::hash_combine_range(cross[i].begin(), cross[i].end()));
    }
    label = std::move(next);
  }
}

uint64_t hashForm(const NamedDimensionAnalysis::CanonicalForm &f) {
  uint64_t h = llvm::hash_combine_range(f.nodes.begin(), f.nodes.end());
  for (auto [s, t] : f.edges)
    h = llvm::hash_combine(h, s, t);
  for (const auto &c : f.conflicts)
    h = llvm::hash_combine(h, c[0], c[1], c[2]);
  return llvm::hash_combine(h, f.consistent);
}
} // namespace

void NamedDimensionAnalysis::mergeIsomorphicSets() {
  forms.assign(sets.size(), CanonicalForm());
  llvm::DenseMap<unsigned, SmallVector<unsigned>> namesOfNode;
  for (const Conflict &c : conflicts)
    for (unsigned v : {c.a, c.b})
      namesOfNode.try_emplace(v);
  for (unsigned n = 0; n < names.size(); ++n)
    if (auto it = namesOfNode.find(nameNode[n]); it != namesOfNode.end())
      it->second.push_back(n);
  llvm::DenseMap<unsigned, std::string> positions;
  for (auto &[v, nodeNames] : namesOfNode)
    positions[v] = describePosition(nodeNames);

  // Buckets of structurally hashed forms; each holds one representative set
  // per distinct form (and its bit).
  llvm::DenseMap<uint64_t, SmallVector<unsigned, 1>> bucket;
  uint64_t mask = options.signatureBits >= 64
                      ? ~uint64_t(0)
                      : (uint64_t(1) << options.signatureBits) - 1;
  for (auto [id, set] : llvm::enumerate(sets)) {
    SetGraph g;
    for (unsigned c : set.conflicts)
      g.nodes.append({conflicts[c].a, conflicts[c].b});
    llvm::sort(g.nodes);
    g.nodes.erase(std::unique(g.nodes.begin(), g.nodes.end()), g.nodes.end());

    // Canonical order: refined labels, ties broken by node number (program
    // order, which repeated layers share).
    SmallVector<uint64_t> label;
    for (unsigned v : g.nodes)
      label.push_back(llvm::hash_value(positions[v]));
    for (unsigned i = 0; i < g.nodes.size(); ++i)
      g.local[g.nodes[i]] = i;
    for (unsigned i = 0; i < g.nodes.size(); ++i)
      for (unsigned t : getSuccessors(g.nodes[i]))
        if (auto it = g.local.find(t); it != g.local.end())
          g.edges.push_back({i, it->second});
    for (unsigned c : set.conflicts)
      g.conflictEdges.push_back(
          {g.local[conflicts[c].a], g.local[conflicts[c].b]});
    refineLabels(g, label);
    SmallVector<unsigned> order(g.nodes.size());
    std::iota(order.begin(), order.end(), 0);
    llvm::sort(order, [&](unsigned x, unsigned y) {
      return std::make_pair(label[x], x) < std::make_pair(label[y], y);
    });
    SmallVector<unsigned> canon(g.nodes.size());
    for (unsigned i = 0; i < order.size(); ++i)
      canon[order[i]] = i;

    CanonicalForm &form = forms[id];
    for (unsigned i : order)
      form.nodes.push_back(positions[g.nodes[i]]);
    for (auto [s, t] : g.edges)
      form.edges.push_back({canon[s], canon[t]});
    llvm::sort(form.edges);
    form.consistent = set.consistent;

    // Orientation: bit value 0 shards, in the canonically first conflict,
    // its endpoint with the smaller canonical index. Corresponding sets of
    // repeated layers therefore resolve alike under one bit.
    auto endpoints = [&](unsigned c) {
      unsigned x = canon[g.local[conflicts[c].a]];
      unsigned y = canon[g.local[conflicts[c].b]];
      return std::make_pair(std::min(x, y), std::max(x, y));
    };
    SmallVector<unsigned> byCanon(set.conflicts.begin(), set.conflicts.end());
    llvm::sort(byCanon, [&](unsigned x, unsigned y) {
      return endpoints(x) < endpoints(y);
    });
    unsigned first = byCanon.front();
    unsigned smaller = endpoints(first).first;
    set.flip = canon[g.local[getSelectedNode(first, false)]] != smaller;
    for (unsigned c : byCanon) {
      auto [x, y] = endpoints(c);
      unsigned selected = canon[g.local[getSelectedNode(c, set.flip)]];
      form.conflicts.push_back({x, y, selected});
    }

    set.signature = hashForm(form) & mask;
    SmallVector<unsigned, 1> &candidates = bucket[set.signature];
    auto same = llvm::find_if(
        candidates, [&](unsigned other) { return forms[other] == form; });
    if (same != candidates.end()) {
      set.bit = sets[*same].bit;
      continue;
    }
    candidates.push_back(id);
    set.bit = numBits++;
  }
}
