//===- ArgumentGroups.cpp - Grouping arguments of repeated layers --------===//
//
// TOAST section 4.4: arguments of the entry function are grouped by keys
// built from all uses of their dimension names. The key of an argument is
// its type plus the sorted multiset of its use keys; a use key is the using
// op, the operand number, the dims' dimension-graph neighbourhood (the ops
// and positions of the names identified with the use dims by the rule) and
// the ops that consume the user's results. Parameters of repeated layers
// have equal keys; the search mirrors actions across a group.
//
//===----------------------------------------------------------------------===//

#include "toast/Analysis/NamedDimensionAnalysis.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace toast;

void NamedDimensionAnalysis::groupArguments() {
  if (!entry)
    return;
  // Positions (op name, operand/result, index, dim) of the names of each
  // node touched by an argument use, hashed; computed lazily.
  llvm::DenseMap<unsigned, SmallVector<unsigned>> nodeNames;
  llvm::DenseSet<unsigned> wanted;
  for (BlockArgument arg : entry.getArguments())
    for (OpOperand &use : arg.getUses()) {
      int s = getUseSite(use);
      if (s >= 0)
        for (unsigned d = 0; d < sites[s].rank; ++d)
          wanted.insert(nameNode[sites[s].firstName + d]);
    }
  for (unsigned n = 0; n < names.size(); ++n)
    if (wanted.count(nameNode[n]))
      nodeNames[nameNode[n]].push_back(n);
  auto nodeKey = [&](unsigned node) -> uint64_t {
    SmallVector<uint64_t> parts;
    for (unsigned n : nodeNames[node]) {
      const Site &s = sites[names[n].site];
      Operation *op = s.isUse() ? s.use->getOwner() : s.value.getDefiningOp();
      StringRef opName = op ? op->getName().getStringRef() : "arg";
      unsigned idx = s.isUse() ? s.use->getOperandNumber()
                   : op       ? cast<OpResult>(s.value).getResultNumber()
                              : 0;
      parts.push_back(llvm::hash_combine(s.isUse(), opName, idx,
                                         names[n].dim, names[n].size));
    }
    llvm::sort(parts);
    return llvm::hash_combine_range(parts.begin(), parts.end());
  };

  llvm::MapVector<uint64_t, unsigned> groupOfKey;
  argGroupOf.assign(entry.getNumArguments(), 0);
  for (BlockArgument arg : entry.getArguments()) {
    SmallVector<uint64_t> useKeys;
    for (OpOperand &use : arg.getUses()) {
      Operation *owner = use.getOwner();
      uint64_t h = llvm::hash_combine(owner->getName().getStringRef(),
                                      use.getOperandNumber());
      int s = getUseSite(use);
      if (s >= 0)
        for (unsigned d = 0; d < sites[s].rank; ++d)
          h = llvm::hash_combine(h, nodeKey(nameNode[sites[s].firstName + d]));
      SmallVector<uint64_t> consumers;
      for (Value r : owner->getResults())
        for (OpOperand &u : r.getUses())
          // A terminator's operand number is the position among the
          // function results: it differs across layers, so it is left out.
          consumers.push_back(llvm::hash_combine(
              u.getOwner()->getName().getStringRef(),
              u.getOwner()->hasTrait<OpTrait::IsTerminator>()
                  ? 0u
                  : u.getOperandNumber()));
      llvm::sort(consumers);
      h = llvm::hash_combine(
          h, llvm::hash_combine_range(consumers.begin(), consumers.end()));
      useKeys.push_back(h);
    }
    llvm::sort(useKeys);
    std::string type;
    llvm::raw_string_ostream os(type);
    arg.getType().print(os);
    uint64_t key = llvm::hash_combine(
        type, llvm::hash_combine_range(useKeys.begin(), useKeys.end()));
    auto [it, inserted] = groupOfKey.try_emplace(key, argGroups.size());
    if (inserted)
      argGroups.emplace_back();
    argGroups[it->second].push_back(arg.getArgNumber());
    argGroupOf[arg.getArgNumber()] = it->second;
  }
}
