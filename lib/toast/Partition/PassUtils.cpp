//===- PassUtils.cpp - Shared plumbing of the partition passes -----------===//

#include "PassUtils.h"

using namespace mlir;

namespace toast::partition {

FailureOr<SmallVector<std::pair<std::string, int64_t>>>
parseMeshOption(ModuleOp module, StringRef text) {
  SmallVector<std::pair<std::string, int64_t>> axes;
  if (text.trim().empty())
    return axes;
  SmallVector<StringRef> entries;
  text.split(entries, ',');
  for (StringRef entry : entries) {
    auto [name, size] = entry.trim().split('=');
    int64_t n;
    if (name.trim().empty() || size.trim().getAsInteger(10, n) || n < 1)
      return module.emitError("invalid mesh option '")
             << text << "': expected axes like B=4,M=2";
    axes.push_back({name.trim().str(), n});
  }
  return axes;
}

LogicalResult
withSavedState(ModuleOp module, StringRef meshOption,
               function_ref<LogicalResult(ShardingState &)> fn) {
  auto axes = parseMeshOption(module, meshOption);
  if (failed(axes))
    return failure();
  FailureOr<partir::MeshAttr> mesh = resolveMesh(module, *axes);
  if (failed(mesh))
    return failure();
  FailureOr<func::FuncOp> func = getEntryFunction(module);
  if (failed(func) || failed(prepareEntryFunction(*func)))
    return failure();
  ShardingState state(*func, *mesh);
  if (failed(state.load()) || failed(fn(state)))
    return failure();
  state.save();
  return success();
}

} // namespace toast::partition
