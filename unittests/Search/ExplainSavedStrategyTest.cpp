//===- ExplainSavedStrategyTest.cpp - A saved strategy in the NDA space ---===//
//
// A developer harness, skipped unless TOAST_EXPLAIN_FILE names a module
// whose entry carries a saved strategy (e.g. `--toast-auto-partition=
// "algorithm=ilp materialize=false"` output): prints where that strategy
// lies in the NDA action space (explainStrategy), and with
// TOAST_EXPLAIN_DESCEND=1 the steepest descent over the actions
// (TOAST_EXPLAIN_NO_MIRROR=1: without argument mirroring). Used for
// docs/search.md, "The ILP's answer in the action space", on full-size
// GNS and U-Net, which are too slow for CI; the decomposition itself is
// tested in AutoPartitionTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "toast/InitAllDialects.h"
#include "toast/Partition/Schedule.h"
#include "toast/Search/Explain.h"
#include "toast/Simulator/Device.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/Format.h"
#include "gtest/gtest.h"

#include <cstdlib>

using namespace mlir;
using namespace toast;
using namespace toast::search;

TEST(ExplainSavedStrategy, PrintsWhereItLiesInTheActionSpace) {
  const char *file = std::getenv("TOAST_EXPLAIN_FILE");
  if (!file)
    GTEST_SKIP() << "set TOAST_EXPLAIN_FILE";
  const char *deviceName = std::getenv("TOAST_EXPLAIN_DEVICE");
  MLIRContext ctx;
  DialectRegistry registry;
  registerAllDialects(registry);
  ctx.appendDialectRegistry(registry);
  ctx.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(file, &ctx);
  ASSERT_TRUE(module);
  auto entry = partition::getEntryFunction(*module);
  ASSERT_TRUE(succeeded(entry));
  func::FuncOp func = *entry;
  partir::MeshAttr mesh = partir::getMesh(*module);
  partition::ShardingState saved(func, mesh);
  ASSERT_TRUE(succeeded(saved.load()));
  // The space is built on the unpartitioned program.
  partition::ShardingState::clearSavedState(func);
  auto device = sim::getBuiltinDevice(deviceName ? deviceName : "a100");
  ASSERT_TRUE(static_cast<bool>(device));
  // TOAST_EXPLAIN_NO_MIRROR=1: one action per color, not per family of
  // repeated layers (is the family's grain what the actions miss?).
  NdaEnvironmentOptions options;
  options.mirrorGroups = !std::getenv("TOAST_EXPLAIN_NO_MIRROR");
  auto space =
      NdaEnvironment::create(func, mesh, {}, *device, options, nullptr);
  ASSERT_TRUE(succeeded(space));
  ASSERT_TRUE(
      succeeded(explainStrategy(**space, saved, nullptr, llvm::outs())));
  if (!std::getenv("TOAST_EXPLAIN_DESCEND"))
    return;
  uint64_t priced = 0;
  std::vector<unsigned> actions = descend(**space, 30, priced);
  SearchState state = (*space)->getInitialState();
  for (unsigned a : actions) {
    (*space)->apply(state, a);
    AnalyticCost cost = (*space)->analyticCost(state);
    llvm::outs() << llvm::format("descend: %8.4g ms %6.3g GB  ",
                                 cost.runtime * 1e3, cost.peakBytes / 1e9)
                 << (*space)->describeAction(a) << "\n";
  }
  llvm::outs() << "descend: " << actions.size() << " actions, " << priced
               << " states priced\n";
}
