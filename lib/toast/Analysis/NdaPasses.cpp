//===- NdaPasses.cpp - --toast-nda and --toast-test-nda-colors -----------===//

#include "toast/Analysis/NamedDimensionAnalysis.h"
#include "toast/Analysis/NdaReport.h"
#include "toast/Analysis/Passes.h"
#include "toast/Interfaces/ControlFlow.h"
#include "toast/Support/OutputFile.h"

#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace toast;

namespace {

struct NdaPass : PassWrapper<NdaPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(NdaPass)
  NdaPass() = default;
  NdaPass(const NdaPass &other) : PassWrapper(other) {}
  StringRef getArgument() const final { return "toast-nda"; }
  StringRef getDescription() const final {
    return "Named dimension analysis (TOAST section 3): writes a JSON report "
           "and a Graphviz drawing of the dimension graph";
  }
  Option<std::string> json{*this, "json",
                           llvm::cl::desc("JSON report path ('-': stdout)")};
  Option<std::string> dot{*this, "dot",
                          llvm::cl::desc("Graphviz DOT path ('-': stdout)")};
  Option<bool> dotAll{*this, "dot-all",
                      llvm::cl::desc("Draw every color, not only those "
                                     "with conflicts"),
                      llvm::cl::init(false)};

  void runOnOperation() override {
    auto &nda = getAnalysis<NamedDimensionAnalysis>();
    if (!nda.getEntry()) {
      getOperation().emitError("toast-nda: the module has no function");
      return signalPassFailure();
    }
    Location loc = getOperation().getLoc();
    // Without an output, say what the analysis found and where the report
    // goes (it ran for nothing before).
    if (json.empty() && dot.empty())
      emitRemark(loc) << "toast-nda: " << nda.getNumNames() << " names in "
                      << nda.getNumColors() << " colors, "
                      << nda.getNumConflicts() << " conflicts in "
                      << nda.getNumSets()
                      << " sets; json=PATH and dot=PATH write the report "
                         "and the drawing";
    if (!json.empty() &&
        failed(writeOutputFile(
            loc, "toast-nda: cannot write the JSON report to", json,
            [&](llvm::raw_ostream &os) { writeNdaJson(nda, os); })))
      return signalPassFailure();
    if (!dot.empty() &&
        failed(writeOutputFile(
            loc, "toast-nda: cannot write the DOT drawing to", dot,
            [&](llvm::raw_ostream &os) { writeNdaDot(nda, os, dotAll); })))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};

/// Annotates a loop's block arguments, which have no attribute of their own:
/// `nda.region_colors = [[<region 0 args>], [<region 1 args>]]` on the op.
/// Branches without arguments get no annotation.
void annotateRegionArguments(Operation *op, Builder &b,
                             function_ref<std::string(Value)> colors) {
  SmallVector<Attribute> regions;
  bool any = false;
  for (Region &region : op->getRegions()) {
    SmallVector<Attribute> args;
    if (!region.empty())
      for (BlockArgument arg : region.front().getArguments())
        args.push_back(b.getStringAttr(colors(arg)));
    any |= !args.empty();
    regions.push_back(b.getArrayAttr(args));
  }
  if (any)
    op->setAttr("nda.region_colors", b.getArrayAttr(regions));
}

/// Annotates results and function arguments with the colors of their dims
/// (`nda.colors = ["c0,c1", ...]`), loops with the colors of their block
/// arguments, and the module with the counts.
struct TestNdaColorsPass
    : PassWrapper<TestNdaColorsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestNdaColorsPass)
  StringRef getArgument() const final { return "toast-test-nda-colors"; }
  StringRef getDescription() const final {
    return "Test: annotate values with their NDA colors";
  }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    NamedDimensionAnalysis nda(module);
    Builder b(module.getContext());
    // A split dim lists the color of each part: "c9.c10" is B*S.
    auto colors = [&](Value v) {
      std::string s;
      int site = nda.getDefSite(v);
      if (site < 0)
        return s;
      for (unsigned d = 0; d < nda.getSites()[site].rank; ++d)
        for (auto [k, n] : llvm::enumerate(nda.getDimNames(site, d)))
          s += (k   ? "."
                : d ? ","
                    : "") +
               NamedDimensionAnalysis::colorLabel(nda.getColorOfName(n));
      return s;
    };
    // Conflict markers per def site: "c3!" lists the conflicting colors.
    module.walk([&](Operation *op) {
      if (auto f = dyn_cast<func::FuncOp>(op)) {
        for (BlockArgument arg : f.getArguments())
          f.setArgAttr(arg.getArgNumber(), "nda.colors",
                       b.getStringAttr(colors(arg)));
        return;
      }
      if (isDataFlowRegionOp(op))
        annotateRegionArguments(op, b, colors);
      if (op->getNumResults() == 0)
        return;
      SmallVector<Attribute> attrs;
      for (Value r : op->getResults())
        attrs.push_back(b.getStringAttr(colors(r)));
      op->setAttr("nda.colors", b.getArrayAttr(attrs));
    });
    module->setAttr("nda.num_colors", b.getI64IntegerAttr(nda.getNumColors()));
    module->setAttr("nda.num_conflicts",
                    b.getI64IntegerAttr(nda.getNumConflicts()));
    module->setAttr("nda.num_sets", b.getI64IntegerAttr(nda.getNumSets()));
    module->setAttr("nda.num_bits",
                    b.getI64IntegerAttr(nda.getNumResolutionBits()));
  }
};

} // namespace

void toast::registerNdaPasses() {
  PassRegistration<NdaPass>();
  PassRegistration<TestNdaColorsPass>();
}
