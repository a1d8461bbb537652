//===- NdaReport.h - JSON and DOT output of the NDA -------------*- C++ -*-===//
#ifndef TOAST_ANALYSIS_NDAREPORT_H
#define TOAST_ANALYSIS_NDAREPORT_H

#include "toast/Analysis/NamedDimensionAnalysis.h"
#include "llvm/Support/raw_ostream.h"

namespace toast {

/// The JSON report (docs/nda.md): counts, colors with their dims and sizes,
/// conflicts, compatibility sets, resolution bits, argument groups.
void writeNdaJson(const NamedDimensionAnalysis &nda, llvm::raw_ostream &os);

/// Graphviz drawing of the dimension graph: nodes clustered by color, M
/// edges in black, conflicts as red undirected edges. Only colors with
/// conflicts unless `all` (or the program has no conflicts).
void writeNdaDot(const NamedDimensionAnalysis &nda, llvm::raw_ostream &os,
                 bool all = false);

} // namespace toast

#endif // TOAST_ANALYSIS_NDAREPORT_H
