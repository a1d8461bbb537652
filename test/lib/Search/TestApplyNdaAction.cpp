//===- TestApplyNdaAction.cpp - Apply one NDA action from lit -------------===//
//
// `--toast-test-apply-nda-action="mesh=S=2 arg=0 dim=0 bits=0=1 axis=S"`
// builds the NDA search environment of the entry function, applies the
// action that shards the color of argument `arg`'s dimension `dim` (or
// `color=N`) with the given resolution bits on `axis`, and stores the state
// as the partir.* attributes that --partir-materialize-core reads. The
// action's description and its analytic cost are emitted as remarks.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "toast/Partition/Schedule.h"
#include "toast/Search/ShardingSpace.h"
#include "toast/Simulator/Device.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace {
struct TestApplyNdaActionPass
    : PassWrapper<TestApplyNdaActionPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestApplyNdaActionPass)

  TestApplyNdaActionPass() = default;
  TestApplyNdaActionPass(const TestApplyNdaActionPass &pass)
      : PassWrapper(pass) {}

  StringRef getArgument() const final { return "toast-test-apply-nda-action"; }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<toast::partir::PartIRDialect>();
  }
  StringRef getDescription() const final {
    return "Apply one TOAST NDA action and save the resulting sharding";
  }

  Option<std::string> mesh{*this, "mesh", llvm::cl::desc("Mesh, e.g. S=2")};
  Option<int> color{*this, "color", llvm::cl::init(-1),
                    llvm::cl::desc("Color of the action")};
  Option<int> arg{*this, "arg", llvm::cl::init(-1),
                  llvm::cl::desc("Or: the color of this argument's dim")};
  Option<int> dim{*this, "dim", llvm::cl::init(0),
                  llvm::cl::desc("Dimension of `arg`")};
  Option<std::string> bits{*this, "bits",
                           llvm::cl::desc("Resolution bits: bit=value,...")};
  Option<std::string> axis{*this, "axis", llvm::cl::desc("Mesh axis")};
  Option<std::string> before{
      *this, "before",
      llvm::cl::desc("Actions applied first, each arg:dim:axis (resolution "
                     "bits 0), e.g. 0:0:B to shard the batch before the "
                     "sequence")};

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto axes = toast::partition::parseMeshOption(module, mesh);
    if (failed(axes))
      return signalPassFailure();
    auto meshAttr = toast::partition::resolveMesh(module, *axes);
    auto func = toast::partition::getEntryFunction(module);
    if (failed(meshAttr) || failed(func))
      return signalPassFailure();
    auto device = toast::sim::getBuiltinDevice("a100");
    if (!device) {
      llvm::consumeError(device.takeError());
      return signalPassFailure();
    }
    // The actions to apply first: (arg, dim, axis).
    SmallVector<std::tuple<int, int, std::string>> first;
    SmallVector<std::string> searchAxes;
    SmallVector<StringRef> steps;
    StringRef(before).split(steps, ',', -1, false);
    for (StringRef step : steps) {
      SmallVector<StringRef, 3> parts;
      step.split(parts, ':');
      int a, d;
      if (parts.size() != 3 || parts[0].getAsInteger(10, a) ||
          parts[1].getAsInteger(10, d)) {
        module.emitError("bad before option '") << before << "'";
        return signalPassFailure();
      }
      first.push_back({a, d, parts[2].str()});
      if (!llvm::is_contained(searchAxes, parts[2].str()))
        searchAxes.push_back(parts[2].str());
    }
    if (!llvm::is_contained(searchAxes, axis.getValue()))
      searchAxes.push_back(axis);
    auto env = toast::search::NdaEnvironment::create(
        *func, *meshAttr, searchAxes, *device, {/*minDims=*/0});
    if (failed(env))
      return signalPassFailure();
    const toast::NamedDimensionAnalysis &nda = (*env)->getAnalysis();
    toast::search::SearchState state = (*env)->getInitialState();
    for (auto &[a, d, on] : first) {
      auto colors = nda.getColors(func->getArgument(a));
      int action = d >= 0 && d < static_cast<int>(colors.size())
                       ? (*env)->findAction(colors[d], {}, on)
                       : -1;
      if (action < 0 || !(*env)->isLegal(state, action)) {
        func->emitError("no legal action for before=") << before;
        return signalPassFailure();
      }
      (*env)->apply(state, action);
      emitRemark(func->getLoc()) << (*env)->describeAction(action);
    }
    int c = color;
    if (arg >= 0) {
      auto colors = nda.getColors(func->getArgument(arg));
      if (dim < 0 || dim >= static_cast<int>(colors.size())) {
        func->emitError("no such argument dimension");
        return signalPassFailure();
      }
      c = colors[dim];
    }
    SmallVector<std::pair<unsigned, bool>> resolution;
    SmallVector<StringRef> entries;
    StringRef(bits).split(entries, ',', -1, false);
    for (StringRef entry : entries) {
      auto [bit, value] = entry.split('=');
      unsigned b, v;
      if (bit.getAsInteger(10, b) || value.getAsInteger(10, v)) {
        module.emitError("bad bits option '") << bits << "'";
        return signalPassFailure();
      }
      resolution.push_back({b, v != 0});
    }
    int action = c < 0 ? -1 : (*env)->findAction(c, resolution, axis);
    if (action < 0) {
      func->emitError("no such action");
      return signalPassFailure();
    }
    if (!(*env)->isLegal(state, action)) {
      func->emitError("action is not legal");
      return signalPassFailure();
    }
    (*env)->apply(state, action);
    toast::search::AnalyticCost cost = (*env)->analyticCost(state);
    emitRemark(func->getLoc()) << (*env)->describeAction(action);
    emitRemark(func->getLoc())
        << llvm::formatv("analytic: all_gather {0} all_reduce {1} "
                         "reduce_scatter {2} all_to_all {3}",
                         cost.count(toast::sim::CollectiveKind::AllGather),
                         cost.count(toast::sim::CollectiveKind::AllReduce),
                         cost.count(toast::sim::CollectiveKind::ReduceScatter),
                         cost.count(toast::sim::CollectiveKind::AllToAll));
    if (failed((*env)->materialize(state, *func)))
      signalPassFailure();
  }
};
} // namespace

void toast::test::registerTestApplyNdaActionPass() {
  PassRegistration<TestApplyNdaActionPass>();
}
