//===- Conflicts.cpp - Conflicts, compatibility sets, layer merging ------===//
//
// TOAST sections 3.3-3.6: conflicts between dimension-graph nodes of one
// color on one definition or use; compatible conflicts (boxes without an
// edge across); compatibility sets with two resolutions; isomorphic sets
// (repeated layers) sharing one resolution bit.
//
//===----------------------------------------------------------------------===//

#include "toast/Analysis/NamedDimensionAnalysis.h"
#include "toast/Analysis/UnionFind.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Hashing.h"

#include <numeric>

using namespace mlir;
using namespace toast;

namespace {
uint64_t pairKey(unsigned a, unsigned b) {
  if (a > b)
    std::swap(a, b);
  return (uint64_t(a) << 32) | b;
}
uint64_t mix(uint64_t a, uint64_t b) {
  return llvm::hash_combine(a, b);
}
} // namespace

void NamedDimensionAnalysis::findConflicts() {
  llvm::DenseMap<uint64_t, unsigned> index;
  for (unsigned s = 0; s < sites.size(); ++s) {
    const Site &site = sites[s];
    for (unsigned d1 = 0; d1 < site.rank; ++d1)
      for (unsigned d2 = d1 + 1; d2 < site.rank; ++d2) {
        unsigned n1 = nameNode[site.firstName + d1];
        unsigned n2 = nameNode[site.firstName + d2];
        if (n1 == n2 || nodeColor[n1] != nodeColor[n2])
          continue;
        auto [it, inserted] = index.try_emplace(pairKey(n1, n2),
                                                conflicts.size());
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

void NamedDimensionAnalysis::buildCompatibilitySets() {
  llvm::DenseMap<uint64_t, unsigned> index;
  for (unsigned i = 0; i < conflicts.size(); ++i)
    index[pairKey(conflicts[i].a, conflicts[i].b)] = i;
  auto lookup = [&](unsigned x, unsigned y) -> int {
    auto it = index.find(pairKey(x, y));
    return it == index.end() ? -1 : static_cast<int>(it->second);
  };

  ParityUnionFind uf(conflicts.size());
  std::vector<unsigned> contradicted;
  for (const Site &use : sites) {
    if (!use.isUse() || use.rank < 2)
      continue;
    int def = getDefSite(use.value);
    if (def < 0 || sites[def].rank != use.rank)
      continue;
    const Site &d = sites[def];
    for (unsigned i = 0; i < use.rank; ++i)
      for (unsigned j = i + 1; j < use.rank; ++j) {
        unsigned l = nameNode[use.firstName + i], r = nameNode[use.firstName + j];
        unsigned n = nameNode[d.firstName + i], o = nameNode[d.firstName + j];
        int cUse = lookup(l, r), cDef = lookup(n, o);
        if (cUse < 0 || cDef < 0 || cUse == cDef || l == r || n == o)
          continue;
        // The box N->L, O->R; an edge across (N->R or O->L) breaks it.
        if (hasEdge(n, r) || hasEdge(o, l))
          continue;
        bool orientDef = conflicts[cDef].a != n;
        bool orientUse = conflicts[cUse].a != l;
        if (!uf.unite(cDef, cUse, orientDef ^ orientUse))
          contradicted.push_back(cDef);
      }
  }

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

void NamedDimensionAnalysis::mergeIsomorphicSets() {
  if (sets.empty())
    return;
  // Local label of a name: where it sits (op, operand/result, dim, size).
  auto nameLabel = [&](unsigned n) -> uint64_t {
    const Name &name = names[n];
    const Site &s = sites[name.site];
    uint64_t h;
    if (s.isUse())
      h = llvm::hash_combine(1, s.use->getOwner()->getName().getStringRef(),
                             s.use->getOperandNumber());
    else if (auto arg = dyn_cast<BlockArgument>(s.value))
      h = llvm::hash_combine(
          2, arg.getOwner()->getParentOp()->getName().getStringRef(),
          arg.getArgNumber() > 0);
    else
      h = llvm::hash_combine(3, s.value.getDefiningOp()->getName().getStringRef(),
                             cast<OpResult>(s.value).getResultNumber());
    return llvm::hash_combine(h, name.dim, name.size, s.rank);
  };
  // Node labels are only needed for nodes in conflicts.
  llvm::DenseMap<unsigned, uint64_t> nodeLabel;
  for (const Conflict &c : conflicts)
    for (unsigned v : {c.a, c.b})
      nodeLabel.try_emplace(v, 0);
  {
    llvm::DenseMap<unsigned, SmallVector<uint64_t>> members;
    for (unsigned n = 0; n < names.size(); ++n)
      if (nodeLabel.count(nameNode[n]))
        members[nameNode[n]].push_back(nameLabel(n));
    for (auto &[v, labels] : members) {
      llvm::sort(labels);
      nodeLabel[v] = llvm::hash_combine_range(labels.begin(), labels.end());
    }
  }

  llvm::DenseMap<uint64_t, unsigned> bitOfSignature;
  for (CompatibilitySet &set : sets) {
    // The sub-graph: conflict endpoints, M edges among them, conflicts.
    SmallVector<unsigned> nodes;
    for (unsigned c : set.conflicts)
      nodes.append({conflicts[c].a, conflicts[c].b});
    llvm::sort(nodes);
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    llvm::DenseMap<unsigned, unsigned> local;
    for (unsigned i = 0; i < nodes.size(); ++i)
      local[nodes[i]] = i;
    SmallVector<std::pair<unsigned, unsigned>> edges, conflictEdges;
    for (unsigned i = 0; i < nodes.size(); ++i)
      for (unsigned t : getSuccessors(nodes[i]))
        if (auto it = local.find(t); it != local.end())
          edges.push_back({i, it->second});
    for (unsigned c : set.conflicts)
      conflictEdges.push_back({local[conflicts[c].a], local[conflicts[c].b]});

    // Weisfeiler-Lehman refinement (3 rounds) inside the sub-graph.
    SmallVector<uint64_t> label(nodes.size());
    for (unsigned i = 0; i < nodes.size(); ++i)
      label[i] = nodeLabel[nodes[i]];
    for (int round = 0; round < 3; ++round) {
      SmallVector<SmallVector<uint64_t>> in(nodes.size()), out(nodes.size()),
          cross(nodes.size());
      for (auto [s, t] : edges) {
        out[s].push_back(label[t]);
        in[t].push_back(label[s]);
      }
      for (auto [s, t] : conflictEdges) {
        cross[s].push_back(label[t]);
        cross[t].push_back(label[s]);
      }
      SmallVector<uint64_t> next(nodes.size());
      for (unsigned i = 0; i < nodes.size(); ++i) {
        for (auto *v : {&in[i], &out[i], &cross[i]})
          llvm::sort(*v);
        next[i] = llvm::hash_combine(
            label[i], llvm::hash_combine_range(in[i].begin(), in[i].end()),
            llvm::hash_combine_range(out[i].begin(), out[i].end()),
            llvm::hash_combine_range(cross[i].begin(), cross[i].end()));
      }
      label = std::move(next);
    }
    SmallVector<uint64_t> all(label.begin(), label.end());
    llvm::sort(all);
    uint64_t sig = llvm::hash_combine_range(all.begin(), all.end());
    SmallVector<uint64_t> edgeLabels;
    for (auto [s, t] : edges)
      edgeLabels.push_back(mix(label[s], label[t]));
    llvm::sort(edgeLabels);
    sig = mix(sig, llvm::hash_combine_range(edgeLabels.begin(),
                                            edgeLabels.end()));
    sig = mix(sig, set.conflicts.size());
    set.signature = sig;

    // Canonical orientation: the conflict with the smallest endpoint labels
    // picks its smaller-labelled endpoint under bit value 0.
    unsigned best = set.conflicts.front();
    auto key = [&](unsigned c) {
      uint64_t la = label[local[conflicts[c].a]];
      uint64_t lb = label[local[conflicts[c].b]];
      return std::make_pair(std::min(la, lb), std::max(la, lb));
    };
    for (unsigned c : set.conflicts)
      if (key(c) < key(best))
        best = c;
    const Conflict &bc = conflicts[best];
    bool smallIsB = label[local[bc.b]] < label[local[bc.a]];
    set.flip = smallIsB ^ bc.parity;

    auto [it, inserted] = bitOfSignature.try_emplace(sig, numBits);
    if (inserted)
      ++numBits;
    set.bit = it->second;
  }
}
