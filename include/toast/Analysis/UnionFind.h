//===- UnionFind.h - Disjoint sets over dense indices -----------*- C++ -*-===//
//
// Union by size with path halving. `ParityUnionFind` additionally keeps a
// parity bit per element relative to its root, used to orient conflicts in a
// compatibility set (TOAST section 3.5).
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_ANALYSIS_UNIONFIND_H
#define TOAST_ANALYSIS_UNIONFIND_H

#include <cstdint>
#include <utility>
#include <vector>

namespace toast {

class UnionFind {
public:
  unsigned add() {
    parent.push_back(parent.size());
    size.push_back(1);
    return parent.size() - 1;
  }
  void resize(unsigned n) {
    while (parent.size() < n)
      add();
  }
  unsigned find(unsigned x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  }
  /// Returns true if two different sets were merged.
  bool unite(unsigned a, unsigned b) {
    a = find(a);
    b = find(b);
    if (a == b)
      return false;
    if (size[a] < size[b])
      std::swap(a, b);
    parent[b] = a;
    size[a] += size[b];
    return true;
  }
  unsigned getSize() const { return parent.size(); }

private:
  std::vector<unsigned> parent, size;
};

/// Union-find where each element carries a parity relative to its root:
/// `unite(a, b, p)` records parity(a) xor parity(b) == p.
class ParityUnionFind {
public:
  explicit ParityUnionFind(unsigned n) : parent(n), parity(n, 0), size(n, 1) {
    for (unsigned i = 0; i < n; ++i)
      parent[i] = i;
  }
  /// Root of x and the parity of x relative to it.
  std::pair<unsigned, bool> find(unsigned x) {
    bool p = false;
    unsigned r = x;
    while (parent[r] != r) {
      p ^= parity[r];
      r = parent[r];
    }
    // Compress: point x straight at the root.
    unsigned y = x;
    bool py = p;
    while (parent[y] != y) {
      unsigned next = parent[y];
      bool pnext = py ^ parity[y];
      parent[y] = r;
      parity[y] = py;
      y = next;
      py = pnext;
    }
    return {r, p};
  }
  /// Returns false if the constraint contradicts earlier ones (kept as is).
  bool unite(unsigned a, unsigned b, bool p) {
    auto [ra, pa] = find(a);
    auto [rb, pb] = find(b);
    if (ra == rb)
      return (pa ^ pb) == p;
    if (size[ra] < size[rb])
      std::swap(ra, rb);
    parent[rb] = ra;
    parity[rb] = pa ^ pb ^ p;
    size[ra] += size[rb];
    return true;
  }

private:
  std::vector<unsigned> parent;
  std::vector<uint8_t> parity;
  std::vector<unsigned> size;
};

} // namespace toast

#endif // TOAST_ANALYSIS_UNIONFIND_H
