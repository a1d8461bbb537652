//===- OpSummary.cpp - One-line summary of a module's ops ----------------===//

#include "toast/Transforms/Passes.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/raw_ostream.h"

namespace toast {
#define GEN_PASS_DEF_OPSUMMARYPASS
#include "toast/Transforms/Passes.h.inc"

namespace {
struct OpSummaryPass : impl::OpSummaryPassBase<OpSummaryPass> {
  using OpSummaryPassBase::OpSummaryPassBase;

  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    llvm::MapVector<llvm::StringRef, uint64_t> counts;
    uint64_t total = 0, functions = 0;
    module.walk([&](mlir::Operation *op) {
      if (op == module)
        return;
      if (llvm::isa<mlir::FunctionOpInterface>(op))
        ++functions;
      ++counts[op->getName().getStringRef()];
      ++total;
    });
    numOps = total;
    // Most frequent first; ties by name so the line is deterministic.
    auto entries = counts.takeVector();
    llvm::stable_sort(entries, [](const auto &a, const auto &b) {
      return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    llvm::raw_ostream &os = llvm::errs();
    os << "toast-op-summary: " << total << " ops in " << functions
       << (functions == 1 ? " function" : " functions");
    size_t shown = top == 0 ? entries.size()
                            : std::min<size_t>(top, entries.size());
    for (size_t i = 0; i < shown; ++i)
      os << (i ? ", " : ": ") << entries[i].second << ' ' << entries[i].first;
    if (shown < entries.size())
      os << ", ... (" << entries.size() - shown << " more kinds)";
    os << '\n';
    markAllAnalysesPreserved();
  }
};
} // namespace
} // namespace toast
