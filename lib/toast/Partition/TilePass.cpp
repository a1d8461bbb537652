//===- TilePass.cpp - --partir-tile --------------------------------------===//

#include "PassUtils.h"
#include "toast/Partition/Passes.h"

namespace toast::partition {
#define GEN_PASS_DEF_PARTIRTILEPASS
#include "toast/Partition/Passes.h.inc"

namespace {
struct PartirTilePass : impl::PartirTilePassBase<PartirTilePass> {
  using PartirTilePassBase::PartirTilePassBase;

  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    if (value.empty() || axis.empty()) {
      module.emitError("--partir-tile needs value=SELECTOR and axis=NAME");
      return signalPassFailure();
    }
    if (failed(withSavedState(module, mesh, [&](ShardingState &state) {
          auto values = selectValues(state.getFunction(), value, "tile");
          if (failed(values))
            return mlir::failure();
          for (mlir::Value v : *values)
            if (failed(state.tile(v, dim, axis)))
              return mlir::failure();
          return mlir::success();
        })))
      signalPassFailure();
  }
};
} // namespace
} // namespace toast::partition
