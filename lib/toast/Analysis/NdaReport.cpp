//===- NdaReport.cpp - JSON and DOT output of the NDA --------------------===//

#include "toast/Analysis/NdaReport.h"
#include "toast/Interfaces/ValueNames.h"


#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace toast;

namespace {
std::string nodeLabel(const NamedDimensionAnalysis &nda, unsigned node) {
  return "n" + std::to_string(node);
}
} // namespace

void toast::writeNdaJson(const NamedDimensionAnalysis &nda,
                         llvm::raw_ostream &os) {
  llvm::json::OStream j(os, 1);
  unsigned numDefDims = 0, numBlocked = 0;
  for (unsigned c = 0; c < nda.getNumColors(); ++c) {
    numDefDims += nda.getNumDefDims(c);
    numBlocked += nda.getNumBlocked(c);
  }
  j.object([&] {
    if (auto e = nda.getEntry())
      j.attribute("entry", e.getSymName());
    j.attribute("num_names", nda.getNumNames());
    j.attribute("num_def_dims", numDefDims);
    j.attribute("num_use_dims", nda.getNumNames() - numDefDims);
    j.attribute("num_blocked_dims", numBlocked);
    j.attribute("num_nodes", nda.getNumNodes());
    j.attribute("num_edges", nda.getNumEdges());
    j.attribute("num_colors", nda.getNumColors());
    j.attribute("num_conflicts", nda.getNumConflicts());
    j.attribute("num_compatibility_sets", nda.getNumSets());
    j.attribute("num_resolution_bits", nda.getNumResolutionBits());
    j.attribute("num_opaque_ops", nda.getNumOpaqueOps());
    j.attribute("num_argument_groups", nda.getArgumentGroups().size());

    j.attributeArray("colors", [&] {
      for (unsigned c = 0; c < nda.getNumColors(); ++c)
        j.object([&] {
          j.attribute("id", c);
          j.attribute("name", NamedDimensionAnalysis::colorLabel(c));
          j.attribute("size_gcd", nda.getSizeGcd(c));
          j.attribute("num_def_dims", nda.getNumDefDims(c));
          j.attribute("num_blocked", nda.getNumBlocked(c));
          j.attributeArray("conflicts", [&] {
            for (unsigned k : nda.getConflictsOfColor(c))
              j.value(k);
          });
          j.attributeArray("dims", [&] {
            for (unsigned n : nda.getNamesOfColor(c))
              j.object([&] {
                j.attribute("name", n);
                j.attribute("node", nda.getNode(n));
                j.attribute("at", nda.describeName(n));
                j.attribute("size", nda.getName(n).size);
                if (nda.getName(n).blocked)
                  j.attribute("blocked", true);
              });
          });
        });
    });

    j.attributeArray("conflicts", [&] {
      for (auto [i, c] : llvm::enumerate(nda.getConflicts()))
        j.object([&] {
          j.attribute("id", i);
          j.attribute("color", c.color);
          j.attributeArray("nodes", [&] {
            j.value(c.a);
            j.value(c.b);
          });
          j.attribute("at", nda.describeSite(c.firstSite));
          j.attribute("num_sites", c.numSites);
          j.attribute("set", c.set);
          j.attributeArray("resolution_bit_selects", [&] {
            j.value(nda.getSelectedNodeForBit(i, false));
            j.value(nda.getSelectedNodeForBit(i, true));
          });
        });
    });

    j.attributeArray("compatibility_sets", [&] {
      for (auto [i, s] : llvm::enumerate(nda.getSets()))
        j.object([&] {
          j.attribute("id", i);
          j.attribute("bit", s.bit);
          j.attribute("consistent", s.consistent);
          j.attribute("num_resolutions", 2);
          j.attributeArray("conflicts", [&] {
            for (unsigned c : s.conflicts)
              j.value(c);
          });
          // Resolution r: the node each conflict shards (in set order).
          for (int r = 0; r < 2; ++r)
            j.attributeArray(r ? "resolution_1" : "resolution_0", [&] {
              for (unsigned c : s.conflicts)
                j.value(nda.getSelectedNodeForBit(c, r));
            });
        });
    });

    j.attributeArray("argument_groups", [&] {
      func::FuncOp entry = nda.getEntry();
      for (auto &group : nda.getArgumentGroups())
        j.object([&] {
          j.attributeArray("args", [&] {
            for (unsigned a : group)
              j.value(a);
          });
          j.attributeArray("names", [&] {
            for (unsigned a : group)
              j.value(getArgumentDisplayName(entry, a));
          });
        });
    });
  });
  os << "\n";
}

void toast::writeNdaDot(const NamedDimensionAnalysis &nda,
                        llvm::raw_ostream &os, bool all) {
  if (nda.getNumConflicts() == 0)
    all = true;
  llvm::DenseSet<unsigned> shown;
  for (const auto &c : nda.getConflicts())
    shown.insert(c.color);
  os << "digraph nda {\n  rankdir=TB;\n  node [shape=box, fontsize=10];\n";
  for (unsigned c = 0; c < nda.getNumColors(); ++c) {
    if (!all && !shown.count(c))
      continue;
    os << "  subgraph cluster_c" << c << " {\n    label=\"" 
       << NamedDimensionAnalysis::colorLabel(c) << " (gcd "
       << nda.getSizeGcd(c) << ")\";\n";
    for (unsigned v : nda.getNodesOfColor(c)) {
      os << "    " << nodeLabel(nda, v) << " [label=\"" << nodeLabel(nda, v);
      // The names of the node, at most three.
      unsigned shownNames = 0, total = 0;
      for (unsigned n : nda.getNamesOfColor(c))
        if (nda.getNode(n) == v && ++total <= 3) {
          os << "\\n" << nda.describeName(n);
          ++shownNames;
        }
      if (total > shownNames)
        os << "\\n(+" << (total - shownNames) << " more)";
      os << "\"];\n";
    }
    os << "  }\n";
  }
  for (unsigned v = 0; v < nda.getNumNodes(); ++v) {
    if (!all && !shown.count(nda.getColorOfNode(v)))
      continue;
    for (unsigned t : nda.getSuccessors(v))
      os << "  " << nodeLabel(nda, v) << " -> " << nodeLabel(nda, t) << ";\n";
  }
  for (const auto &c : nda.getConflicts())
    os << "  " << nodeLabel(nda, c.a) << " -> " << nodeLabel(nda, c.b)
       << " [dir=none, color=red, penwidth=2, label=\"s" << c.set
       << "\", fontcolor=red];\n";
  os << "}\n";
}
