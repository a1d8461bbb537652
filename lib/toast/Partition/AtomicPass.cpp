//===- AtomicPass.cpp - --partir-atomic ----------------------------------===//

#include "PassUtils.h"
#include "toast/Partition/Passes.h"

namespace toast::partition {
#define GEN_PASS_DEF_PARTIRATOMICPASS
#include "toast/Partition/Passes.h.inc"

namespace {
struct PartirAtomicPass : impl::PartirAtomicPassBase<PartirAtomicPass> {
  using PartirAtomicPassBase::PartirAtomicPassBase;

  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    if (value.empty() || axis.empty()) {
      module.emitError("--partir-atomic needs value=SELECTOR and axis=NAME");
      return signalPassFailure();
    }
    if (failed(withSavedState(module, mesh, [&](ShardingState &state) {
          auto values = selectValues(state.getFunction(), value, "atomic");
          if (failed(values))
            return mlir::failure();
          for (mlir::Value v : *values)
            if (failed(state.atomic(v, axis)))
              return mlir::failure();
          return mlir::success();
        })))
      signalPassFailure();
  }
};
} // namespace
} // namespace toast::partition
