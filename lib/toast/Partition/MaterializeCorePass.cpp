//===- MaterializeCorePass.cpp - --partir-materialize-core ---------------===//

#include "PassUtils.h"
#include "toast/Partition/Passes.h"

namespace toast::partition {
#define GEN_PASS_DEF_PARTIRMATERIALIZECOREPASS
#include "toast/Partition/Passes.h.inc"

namespace {
struct PartirMaterializeCorePass
    : impl::PartirMaterializeCorePassBase<PartirMaterializeCorePass> {
  using PartirMaterializeCorePassBase::PartirMaterializeCorePassBase;

  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    auto axes = parseMeshOption(module, mesh);
    if (failed(axes))
      return signalPassFailure();
    mlir::FailureOr<partir::MeshAttr> meshAttr = resolveMesh(module, *axes);
    mlir::FailureOr<mlir::func::FuncOp> func = getEntryFunction(module);
    if (failed(meshAttr) || failed(func))
      return signalPassFailure();
    ShardingState state(*func, *meshAttr);
    if (failed(state.load()) || failed(state.materializeCore()))
      signalPassFailure();
  }
};
} // namespace
} // namespace toast::partition
