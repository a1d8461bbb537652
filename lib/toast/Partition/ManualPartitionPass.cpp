//===- ManualPartitionPass.cpp - --partir-manual-partition ---------------===//

#include "PassUtils.h"
#include "toast/Partition/Passes.h"

namespace toast::partition {
#define GEN_PASS_DEF_PARTIRMANUALPARTITIONPASS
#include "toast/Partition/Passes.h.inc"

namespace {
struct PartirManualPartitionPass
    : impl::PartirManualPartitionPassBase<PartirManualPartitionPass> {
  using PartirManualPartitionPassBase::PartirManualPartitionPassBase;

  /// Parses `selector=spec;...`.
  mlir::LogicalResult parseTactic(mlir::ModuleOp module, ManualTactic &tactic) {
    tactic.name = tacticName;
    tactic.axis = axis;
    if (axis.empty())
      return module.emitError("--partir-manual-partition needs axis=NAME");
    llvm::SmallVector<llvm::StringRef> entries;
    llvm::StringRef(inputs).split(entries, ';', -1, /*KeepEmpty=*/false);
    if (entries.empty())
      return module.emitError("--partir-manual-partition needs "
                              "inputs=selector=spec;...");
    for (llvm::StringRef entry : entries) {
      auto [selector, specText] = entry.rsplit('=');
      mlir::FailureOr<InputSpec> spec = parseInputSpec(specText);
      if (selector.trim().empty() || mlir::failed(spec))
        return module.emitError("invalid input '")
               << entry
               << "': expected selector=DIM[@P], selector=first_divisible, "
                  "selector=replicated, #N=operandO:D[@P], #N=resultR:D[@P] or "
                  "#N=whole_op";
      tactic.inputs.push_back({selector.trim().str(), *spec});
    }
    return mlir::success();
  }

  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    ManualTactic tactic;
    if (failed(parseTactic(module, tactic)) ||
        failed(withSavedState(module, mesh, [&](ShardingState &state) {
          return mlir::LogicalResult(applyManualTactic(state, tactic));
        })))
      signalPassFailure();
  }
};
} // namespace
} // namespace toast::partition
