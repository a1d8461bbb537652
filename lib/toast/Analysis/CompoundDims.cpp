//===- CompoundDims.cpp - Names for every factor of a reshaped dim --------===//
//
// A reshape that merges (B, S) into B*S maps the merged dim to two factors,
// major first (ShardingRule::minorFactors). To connect both B and S across
// it, the NDA gives such a dim one name per factor: its own name stands for
// the major part (size B) and a *minor name* per further part (S). Every
// dim that holds the same extent (the same values: the dims one M edge, one
// tied class, one call or one factor that spans whole dims connects) is
// split alike, so the merged rows of a linear layer between a flatten and
// the unflatten carry both B and S. An extent class whose reshapes
// disagree on the parts (or that no reshape splits) keeps one name per dim,
// named through the major factor as before, and the minor factors of its
// reshapes identify nothing.
//
//===----------------------------------------------------------------------===//

#include "toast/Analysis/NamedDimensionAnalysis.h"
#include "toast/Analysis/UnionFind.h"
#include "toast/Interfaces/ControlFlow.h"
#include "toast/Interfaces/ShardingRule.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallBitVector.h"

#include <map>
#include <set>

using namespace mlir;
using namespace toast;

namespace {
/// The site of operand or result `tensor` of `op`, or -1.
int siteOf(const NamedDimensionAnalysis &nda, Operation *op, bool isResult,
           unsigned tensor) {
  if (isResult)
    return tensor < op->getNumResults() ? nda.getDefSite(op->getResult(tensor))
                                        : -1;
  return tensor < op->getNumOperands()
             ? nda.getUseSite(op->getOpOperand(tensor))
             : -1;
}

/// Calls fn(isResult, tensor, site) for every tensor of `op` with names.
void forEachTensor(const NamedDimensionAnalysis &nda, Operation *op,
                   function_ref<void(bool, unsigned, unsigned)> fn) {
  for (unsigned i = 0; i < op->getNumOperands(); ++i)
    if (int s = siteOf(nda, op, false, i); s >= 0)
      fn(false, i, s);
  for (unsigned i = 0; i < op->getNumResults(); ++i)
    if (int s = siteOf(nda, op, true, i); s >= 0)
      fn(true, i, s);
}

int64_t dimSize(const NamedDimensionAnalysis::Site &s, unsigned d) {
  return cast<RankedTensorType>(s.value.getType()).getDimSize(d);
}
} // namespace

SmallVector<unsigned, 2>
NamedDimensionAnalysis::getDimNames(unsigned site, unsigned dim) const {
  const Site &s = sites[site];
  SmallVector<unsigned, 2> out{s.firstName + dim};
  for (unsigned n = s.firstMinor; n < s.firstMinor + s.numMinor; ++n)
    if (names[n].dim == dim)
      out.push_back(n);
  return out;
}

SmallVector<unsigned, 4>
NamedDimensionAnalysis::getSiteNames(unsigned site) const {
  const Site &s = sites[site];
  SmallVector<unsigned, 4> out;
  for (unsigned d = 0; d < s.rank; ++d)
    out.push_back(s.firstName + d);
  for (unsigned n = s.firstMinor; n < s.firstMinor + s.numMinor; ++n)
    out.push_back(n);
  return out;
}

void NamedDimensionAnalysis::splitCompoundDims(ArrayRef<func::FuncOp> funcs,
                                               ArrayRef<TiedValues> tied) {
  // Extent classes over the dims' own names (no minor names exist yet).
  UnionFind extent;
  extent.resize(names.size());
  forEachMapName([&](unsigned a, unsigned b) { extent.unite(a, b); });
  for (const TiedValues &t : tied)
    addTiedIdentities(t, extent);
  for (func::FuncOp f : funcs)
    if (!f.isExternal())
      walkProgram(f.getBody().front(), [&](Operation *op, const Scope &) {
        if (auto call = dyn_cast<func::CallOp>(op))
          addCallIdentities(call, extent);
      });
  for (auto &[op, rule] : rules) {
    std::vector<int> first(rule.getNumFactors(), -1);
    forEachTensor(*this, op, [&](bool isResult, unsigned t, unsigned site) {
      for (unsigned d = 0; d < sites[site].rank; ++d) {
        SmallVector<int64_t, 2> fs = rule.getDimFactors(isResult, t, d);
        if (fs.size() != 1 ||
            rule.factors[fs[0]].size != dimSize(sites[site], d))
          continue;
        unsigned name = sites[site].firstName + d;
        if (first[fs[0]] < 0)
          first[fs[0]] = name;
        else
          extent.unite(first[fs[0]], name);
      }
    });
  }

  // The parts each class is split into, from the compound dims in it.
  std::map<unsigned, SmallVector<int64_t, 2>> parts;
  std::set<unsigned> disagree;
  for (auto &[op, rule] : rules)
    for (const MinorFactor &m : rule.minorFactors) {
      SmallVector<int64_t, 2> fs =
          rule.getDimFactors(m.isResult, m.tensor, m.dim);
      int site = siteOf(*this, op, m.isResult, m.tensor);
      if (site < 0 || fs[1] != m.factor)
        continue; // Each compound dim once, through its first minor factor.
      SmallVector<int64_t, 2> sizes;
      for (int64_t f : fs)
        sizes.push_back(rule.factors[f].size);
      unsigned root = extent.find(sites[site].firstName + m.dim);
      auto [it, inserted] = parts.try_emplace(root, sizes);
      if (!inserted && it->second != sizes)
        disagree.insert(root);
    }

  for (auto [id, s] : llvm::enumerate(sites)) {
    s.firstMinor = names.size();
    for (unsigned d = 0; d < s.rank; ++d) {
      unsigned root = extent.find(s.firstName + d);
      auto it = parts.find(root);
      if (it == parts.end() || disagree.count(root))
        continue;
      names[s.firstName + d].size = it->second.front();
      for (unsigned k = 1; k < it->second.size(); ++k)
        names.push_back(
            Name{static_cast<unsigned>(id), d, it->second[k], false, k});
    }
    s.numMinor = names.size() - s.firstMinor;
  }
}

void NamedDimensionAnalysis::identifyFactorNames(Operation *op,
                                                 const ShardingRule &rule,
                                                 UnionFind &ids) {
  // Each name is keyed by (factor, part of the factor); names with one key
  // are identified. The minor factor of a compound dim that is not split
  // identifies nothing: its dims are blocked (tiling one of them would not
  // tile the others alike). A factor whose dims are split into different
  // numbers of parts (a head dim split 16x2 by one reshape and named as one
  // part of a merged 32x128 by another) identifies its major parts only:
  // tiling the factor into n blocks, n dividing every major part, tiles
  // each dim's major part into n; its minor parts are blocked, as not
  // every dim of the factor has them.
  struct Keyed {
    int64_t factor;
    unsigned part, name;
    int64_t size;
  };
  SmallVector<Keyed> keyed;
  size_t numFactors = rule.getNumFactors();
  SmallVector<unsigned> factorParts(numFactors, 0);
  llvm::SmallBitVector bad(numFactors), mixed(numFactors);
  // The factors of compound dims split alike, major first.
  SmallVector<SmallVector<int64_t, 2>> compounds;
  auto note = [&](int64_t f, unsigned n) {
    if (factorParts[f] && factorParts[f] != n)
      mixed.set(f);
    factorParts[f] = n;
  };
  forEachTensor(*this, op, [&](bool isResult, unsigned t, unsigned site) {
    for (unsigned d = 0; d < sites[site].rank; ++d) {
      SmallVector<unsigned, 2> dimNames = getDimNames(site, d);
      SmallVector<int64_t, 2> fs = rule.getDimFactors(isResult, t, d);
      bool tileable = !fs.empty() && llvm::all_of(fs, [&](int64_t f) {
        return f >= 0 && f < static_cast<int64_t>(numFactors) &&
               rule.factors[f].kind != FactorKind::NotTileable;
      });
      if (!tileable) {
        for (unsigned n : dimNames)
          names[n].blocked = true;
        continue;
      }
      bool spans =
          fs.size() == 1 && rule.factors[fs[0]].size == dimSize(sites[site], d);
      bool matches = fs.size() == dimNames.size();
      for (unsigned k = 0; matches && k < fs.size(); ++k)
        matches = rule.factors[fs[k]].size == names[dimNames[k]].size;
      if (dimNames.size() > 1 && spans) {
        // A split dim mapped whole: the factor's parts are its parts.
        note(fs[0], dimNames.size());
        for (auto [k, n] : llvm::enumerate(dimNames))
          keyed.push_back({fs[0], static_cast<unsigned>(k), n, names[n].size});
        continue;
      }
      if (fs.size() > 1 && matches) {
        // A compound dim split alike: part k is factor k.
        for (auto [k, n] : llvm::enumerate(dimNames)) {
          note(fs[k], 1);
          keyed.push_back({fs[k], 0, n, rule.factors[fs[k]].size});
        }
        compounds.push_back(fs);
        continue;
      }
      // One name for the dim: named through its major factor.
      note(fs[0], 1);
      keyed.push_back({fs[0], 0, dimNames[0], rule.factors[fs[0]].size});
      for (unsigned k = 1; k < dimNames.size(); ++k)
        names[dimNames[k]].blocked = true;
      for (unsigned k = 1; k < fs.size(); ++k)
        bad.set(fs[k]);
    }
  });
  // A minor factor of a compound dim whose major factor is mixed stays
  // blocked: that factor may be tiled less than whole (only its major
  // parts are identified), and a minor factor cannot be tiled before its
  // major ones are whole (lowering rejects such a loop nest).
  for (ArrayRef<int64_t> fs : compounds)
    for (size_t k = 0; k + 1 < fs.size(); ++k)
      if (mixed.test(fs[k]))
        for (size_t j = k + 1; j < fs.size(); ++j)
          bad.set(fs[j]);
  std::map<std::pair<int64_t, unsigned>, unsigned> first;
  for (const Keyed &k : keyed) {
    Name &name = names[k.name];
    if (bad.test(k.factor) || (mixed.test(k.factor) && k.part > 0)) {
      name.blocked = true;
      continue;
    }
    name.size = k.size;
    auto [it, inserted] = first.try_emplace({k.factor, k.part}, k.name);
    if (!inserted)
      ids.unite(it->second, k.name);
  }
}
