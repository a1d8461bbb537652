//===- PropagatePass.cpp - --partir-propagate ----------------------------===//

#include "PassUtils.h"
#include "toast/Partition/Passes.h"

namespace toast::partition {
#define GEN_PASS_DEF_PARTIRPROPAGATEPASS
#include "toast/Partition/Passes.h.inc"

namespace {
struct PartirPropagatePass
    : impl::PartirPropagatePassBase<PartirPropagatePass> {
  using PartirPropagatePassBase::PartirPropagatePassBase;

  void runOnOperation() override {
    if (failed(withSavedState(getOperation(), mesh, [&](ShardingState &state) {
          PropagationStats stats = state.propagate();
          numVisits += stats.visits;
          numAssignments += stats.assignments;
          numConflicts += stats.conflicts;
          numReshapeMoves += stats.reshapeMoves;
          if (report) {
            llvm::errs() << "partir-propagate: " << stats.visits << " visits, "
                         << stats.assignments << " loops added, "
                         << stats.conflicts << " conflicts";
            if (stats.reshapeMoves)
              llvm::errs() << ", " << stats.reshapeMoves
                           << " moved to a reshape's major factor";
            llvm::errs() << "\n";
          }
          return mlir::success();
        })))
      signalPassFailure();
  }
};
} // namespace
} // namespace toast::partition
