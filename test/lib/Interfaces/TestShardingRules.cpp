//===- TestShardingRules.cpp - Print every op's sharding rule -------------===//
//
// `--toast-test-print-sharding-rules` attaches
//   toast.sharding_rule = "<ShardingRule::str()>"   (or "opaque")
// to every op, so that lit tests can FileCheck the rule next to the op:
//
//   %0 = stablehlo.dot_general %a, %b, ... {toast.sharding_rule =
//        "([i, k], [k, j])->([i, j]) {i=8, j=16, k=4} reduction={k}"} : ...
//
// Each rule is also checked: ShardingRule::verify, plus agreement with the
// op (one dimension list per operand and result, of the value's rank) and
// factor sizes that divide the dimensions mapped to tileable factors. A
// violation is an error and fails the pass.
//
// Loops and conditionals (DataFlowEdgeOpInterface) print their tied classes
// instead of a rule, one `edge` per result:
//   "edges: #0 (operand 0, region 1 return 0)->(result 0, region 0 arg 0,
//    region 1 arg 0)"
// with the trip count of a counted loop appended (`trips=4`, or `trips<=4`
// for a maximum: the condition has other terms that may end it earlier).
//
// Not annotated: the pass root, symbol tables and functions, terminators,
// and scalar-only ops nested in another op's regions (reducer and
// comparator bodies, loop counters): their rule is always empty, and an
// attribute would change how reduce prints its body.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "toast/Interfaces/ControlFlow.h"
#include "toast/Interfaces/ShardingRule.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace toast::test {
namespace {

constexpr llvm::StringLiteral kRuleAttr = "toast.sharding_rule";

bool isScalarOrNonTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return !tensor || tensor.getRank() == 0;
}

/// Checks that `rule` fits `op`: dimension lists match the values' ranks and
/// tileable factors divide the dimensions they map.
LogicalResult checkRuleFitsOp(Operation *op, const ShardingRule &rule) {
  auto checkValues = [&](TypeRange types,
                         ArrayRef<SmallVector<int64_t>> dimLists,
                         StringRef what) -> LogicalResult {
    if (types.size() != dimLists.size())
      return op->emitError()
             << "sharding rule: " << dimLists.size() << " " << what
             << " lists for " << types.size() << " " << what << "s";
    for (auto [i, type, dims] : llvm::enumerate(types, dimLists)) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      int64_t rank = tensor ? tensor.getRank() : 0;
      if (static_cast<int64_t>(dims.size()) != rank)
        return op->emitError()
               << "sharding rule: " << what << " " << i << " has "
               << dims.size() << " dimensions, expected " << rank;
      for (auto [d, f] : llvm::enumerate(dims)) {
        if (f < 0 || f >= static_cast<int64_t>(rule.factors.size()))
          continue; // Unmapped, or reported by verify().
        const Factor &factor = rule.factors[f];
        if (factor.kind == FactorKind::NotTileable)
          continue;
        int64_t dimSize = tensor.getDimSize(d);
        bool divides =
            factor.size == 0 ? dimSize == 0 : dimSize % factor.size == 0;
        if (!divides)
          return op->emitError()
                 << "sharding rule: factor " << f << " of size " << factor.size
                 << " does not divide dimension " << d << " of " << what << " "
                 << i << " (size " << dimSize << ")";
      }
    }
    return success();
  };
  if (failed(checkValues(op->getOperandTypes(), rule.operandDims, "operand")) ||
      failed(checkValues(op->getResultTypes(), rule.resultDims, "result")))
    return failure();
  return success();
}

/// Where a source use or target value sits relative to `op`.
std::string describe(Operation *op, Value value) {
  if (auto result = dyn_cast<OpResult>(value);
      result && result.getOwner() == op)
    return "result " + std::to_string(result.getResultNumber());
  auto arg = cast<BlockArgument>(value);
  return "region " +
         std::to_string(arg.getOwner()->getParent()->getRegionNumber()) +
         " arg " + std::to_string(arg.getArgNumber());
}
std::string describe(Operation *op, OpOperand &use) {
  if (use.getOwner() == op)
    return "operand " + std::to_string(use.getOperandNumber());
  return "region " +
         std::to_string(use.getOwner()->getParentRegion()->getRegionNumber()) +
         " return " + std::to_string(use.getOperandNumber());
}

/// The tied classes of a loop or conditional, as text.
std::string edgesText(DataFlowEdgeOpInterface op) {
  std::string text = "edges:";
  llvm::raw_string_ostream os(text);
  for (unsigned i = 0, e = op.getNumEdges(); i < e; ++i) {
    SmallVector<OpOperand *> sources;
    SmallVector<Value> targets;
    op.getEdgeSources(i, sources);
    op.getEdgeTargets(i, targets);
    os << " #" << i << " (";
    llvm::interleaveComma(sources, os,
                          [&](OpOperand *use) { os << describe(op, *use); });
    os << ")->(";
    llvm::interleaveComma(targets, os, [&](Value v) { os << describe(op, v); });
    os << ")";
  }
  if (std::optional<LoopFacts> facts = op.getLoopFacts())
    os << (facts->earlyExit ? " trips<=" : " trips=") << facts->tripCount;
  return text;
}

struct TestPrintShardingRulesPass
    : PassWrapper<TestPrintShardingRulesPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintShardingRulesPass)

  StringRef getArgument() const final {
    return "toast-test-print-sharding-rules";
  }
  StringRef getDescription() const final {
    return "Attach every op's sharding rule as a toast.sharding_rule "
           "attribute (\"opaque\" when it has none) and check it";
  }

  bool shouldAnnotate(Operation *op) {
    if (op == getOperation() || op->hasTrait<OpTrait::IsTerminator>() ||
        op->hasTrait<OpTrait::SymbolTable>() || isa<FunctionOpInterface>(op))
      return false;
    Operation *parent = op->getParentOp();
    bool nestedInOp = parent && !isa<FunctionOpInterface>(parent) &&
                      !parent->hasTrait<OpTrait::SymbolTable>();
    bool scalarOnly =
        llvm::all_of(op->getOperandTypes(), isScalarOrNonTensor) &&
        llvm::all_of(op->getResultTypes(), isScalarOrNonTensor);
    return !(nestedInOp && scalarOnly);
  }

  void runOnOperation() override {
    bool invalid = false;
    getOperation()->walk([&](Operation *op) {
      if (!shouldAnnotate(op))
        return;
      if (auto edges = dyn_cast<DataFlowEdgeOpInterface>(op)) {
        op->setAttr(kRuleAttr,
                    StringAttr::get(op->getContext(), edgesText(edges)));
        return;
      }
      std::optional<ShardingRule> rule = getShardingRule(op);
      std::string text = rule ? rule->str() : std::string("opaque");
      if (rule && (failed(rule->verify([&] { return op->emitError(); })) ||
                   failed(checkRuleFitsOp(op, *rule))))
        invalid = true;
      op->setAttr(kRuleAttr, StringAttr::get(op->getContext(), text));
    });
    if (invalid)
      signalPassFailure();
  }
};

} // namespace

void registerTestShardingRulesPass() {
  PassRegistration<TestPrintShardingRulesPass>();
}

} // namespace toast::test
