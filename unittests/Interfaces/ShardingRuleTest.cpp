//===- ShardingRuleTest.cpp - Sharding rules and their registry -----------===//
//
// ShardingRuleBuilder, ShardingRule::verify and print, and rules obtained
// from parsed StableHLO/CHLO ops through the external models.
//
//===----------------------------------------------------------------------===//

#include "toast/Interfaces/ShardingRule.h"
#include "toast/Dialect/CHLO/IR/ChloOps.h"
#include "toast/Dialect/StableHLO/IR/StablehloDialect.h"
#include "toast/Interfaces/ControlFlow.h"
#include "toast/Interfaces/StablehloShardingRules.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace toast;

namespace {

class ShardingRuleTest : public ::testing::Test {
protected:
  ShardingRuleTest() : ctx(makeRegistry()) {
    ctx.loadAllAvailableDialects();
    handler = ctx.getDiagEngine().registerHandler([this](Diagnostic &diag) {
      messages.push_back(diag.str());
      return success();
    });
  }
  ~ShardingRuleTest() override { ctx.getDiagEngine().eraseHandler(handler); }

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registry.insert<func::FuncDialect, stablehlo::StableHLODialect,
                    chlo::CHLODialect>();
    registerStablehloShardingRules(registry);
    return registry;
  }

  /// Parses `body` as the body of `func.func @f(args)` and returns its first
  /// op (the function's return is appended).
  Operation *parseFirstOp(StringRef args, StringRef body) {
    std::string source =
        ("func.func @f(" + args + ") {\n" + body + "\n  return\n}\n").str();
    module = parseSourceString<ModuleOp>(source, &ctx);
    if (!module)
      return nullptr;
    auto func = cast<func::FuncOp>(module->getBody()->front());
    return &func.getBody().front().front();
  }

  /// The printed rule of the first op, or "opaque".
  std::string ruleOf(StringRef args, StringRef body) {
    Operation *op = parseFirstOp(args, body);
    if (!op)
      return "<parse error>";
    std::optional<ShardingRule> rule = getShardingRule(op);
    if (!rule)
      return "opaque";
    EXPECT_TRUE(succeeded(rule->verify([&] { return op->emitError(); })))
        << rule->str();
    return rule->str();
  }

  LogicalResult verify(const ShardingRule &rule) {
    return rule.verify([&] { return emitError(UnknownLoc::get(&ctx)); });
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  DiagnosticEngine::HandlerID handler;
  std::vector<std::string> messages;
};

constexpr StringLiteral kMatmulArgs =
    "%a: tensor<8x4xf32>, %b: tensor<4x16xf32>";
constexpr StringLiteral kMatmul =
    "%0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
    "(tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>";

TEST_F(ShardingRuleTest, BuilderInfersKindFromPlacement) {
  Operation *op = parseFirstOp(kMatmulArgs, kMatmul);
  ASSERT_TRUE(op);
  ShardingRuleBuilder builder(op);
  EXPECT_EQ(builder.addFactor({0, kNoFactor}, {0}, 8), 0);
  EXPECT_EQ(builder.addFactor({1, 0}, {}, 4), 1);
  EXPECT_EQ(builder.addFactor({kNoFactor, 1}, {1}, 16), 2);
  ShardingRule rule = builder.build();
  EXPECT_EQ(rule.factors[0].kind, FactorKind::Parallel);
  EXPECT_EQ(rule.factors[1].kind, FactorKind::Reduction);
  EXPECT_EQ(rule.factors[2].kind, FactorKind::Parallel);
  EXPECT_EQ(rule.str(), "([i, j], [j, k])->([i, k]) {i=8, j=4, k=16} "
                        "reduction={j}");
  EXPECT_EQ(rule.getOperandDim(1, 1), 0);
  EXPECT_EQ(rule.getOperandDim(0, 2), kNoFactor);
  EXPECT_EQ(rule.getResultDim(0, 2), 1);
  EXPECT_TRUE(succeeded(verify(rule)));
}

TEST_F(ShardingRuleTest, BuilderPointwiseSkipsScalarOperands) {
  Operation *op = parseFirstOp(
      "%p: tensor<i1>, %a: tensor<2x3xf32>",
      "%0 = stablehlo.select %p, %a, %a : tensor<i1>, tensor<2x3xf32>");
  ASSERT_TRUE(op);
  ShardingRuleBuilder builder(op);
  builder.addPointwise();
  ShardingRule rule = builder.build();
  EXPECT_EQ(rule.str(), "([], [i, j], [i, j])->([i, j]) {i=2, j=3}");
}

TEST_F(ShardingRuleTest, VerifyRejectsBrokenRules) {
  auto rule = [](SmallVector<Factor> factors,
                 SmallVector<SmallVector<int64_t>> operands,
                 SmallVector<SmallVector<int64_t>> results) {
    ShardingRule r;
    r.factors = std::move(factors);
    r.operandDims = std::move(operands);
    r.resultDims = std::move(results);
    return r;
  };
  Factor parallel{4, FactorKind::Parallel};
  Factor reduction{4, FactorKind::Reduction};

  EXPECT_TRUE(succeeded(verify(rule({parallel}, {{0}}, {{0}}))));
  EXPECT_TRUE(failed(verify(rule({parallel}, {{1}}, {{0}}))));
  EXPECT_TRUE(failed(verify(rule({parallel}, {{0, 0}}, {{0}}))));
  EXPECT_TRUE(failed(verify(rule({parallel}, {{0}}, {{kNoFactor}}))));
  EXPECT_TRUE(failed(verify(rule({reduction}, {{0}}, {{0}}))));
  EXPECT_TRUE(failed(verify(rule({{-2, FactorKind::Parallel}}, {{0}}, {{0}}))));
  // Not tileable factors may appear anywhere, even in operands only.
  EXPECT_TRUE(succeeded(
      verify(rule({{4, FactorKind::NotTileable}}, {{0}}, {{kNoFactor}}))));

  ASSERT_EQ(messages.size(), 5u);
  EXPECT_NE(messages[0].find("out of range in operand 0"), std::string::npos);
  EXPECT_NE(messages[1].find("maps two dimensions of operand 0"),
            std::string::npos);
  EXPECT_NE(messages[2].find("parallel factor 0 maps no result"),
            std::string::npos);
  EXPECT_NE(messages[3].find("reduction factor 0 maps a result"),
            std::string::npos);
  EXPECT_NE(messages[4].find("negative size"), std::string::npos);
}

TEST_F(ShardingRuleTest, PrintNamesUnmappedAndKinds) {
  ShardingRule rule;
  rule.factors = {{2, FactorKind::Parallel},
                  {3, FactorKind::NotTileable},
                  {5, FactorKind::Reduction}};
  rule.operandDims = {{0, 1, 2}, {}};
  rule.resultDims = {{0, kNoFactor, 1}};
  EXPECT_EQ(rule.str(), "([i, j, k], [])->([i, _, j]) {i=2, j=3, k=5} "
                        "reduction={k} not_tileable={j}");

  // Past 'z' the names continue as z1, z2, ...
  ShardingRule many;
  for (int64_t f = 0; f < 20; ++f) {
    many.factors.push_back({1, FactorKind::Parallel});
    many.resultDims.push_back({f});
  }
  std::string text = many.str();
  EXPECT_NE(text.find("[z], [z1], [z2])"), std::string::npos) << text;
  EXPECT_NE(text.find("z2=1}"), std::string::npos) << text;

  ShardingRule empty;
  EXPECT_EQ(empty.str(), "()->() {}");
}

TEST_F(ShardingRuleTest, DotGeneralWithBatching) {
  EXPECT_EQ(ruleOf("%a: tensor<8x2x3xf32>, %b: tensor<8x3x4xf32>",
                   "%0 = stablehlo.dot_general %a, %b, batching_dims = [0] "
                   "x [0], contracting_dims = [2] x [1] : "
                   "(tensor<8x2x3xf32>, tensor<8x3x4xf32>) -> "
                   "tensor<8x2x4xf32>"),
            "([i, j, l], [i, l, k])->([i, j, k]) {i=8, j=2, k=4, l=3} "
            "reduction={l}");
}

TEST_F(ShardingRuleTest, ReshapeMapsEveryFactor) {
  EXPECT_EQ(ruleOf("%x: tensor<16xf32>", "%0 = stablehlo.reshape %x : "
                                         "(tensor<16xf32>) -> tensor<4x4xf32>"),
            "([ij])->([i, j]) {i=4, j=4}");
  EXPECT_EQ(ruleOf("%x: tensor<4x4xf32>",
                   "%0 = stablehlo.reshape %x : (tensor<4x4xf32>) -> "
                   "tensor<16xf32>"),
            "([i, j])->([ij]) {i=4, j=4}");
  // 6x4 -> 4x6 has no chain of factors (4 does not divide 6): the major
  // dims share gcd(6, 4) = 2, the minor dims stay unmapped.
  EXPECT_EQ(ruleOf("%x: tensor<1x8x6x4xf32>",
                   "%0 = stablehlo.reshape %x : (tensor<1x8x6x4xf32>) -> "
                   "tensor<8x4x6x1xf32>"),
            "([_, i, j, _])->([i, j, _, _]) {i=8, j=2}");
}

TEST_F(ShardingRuleTest, CompoundDimsTileAsBlocks) {
  Operation *op = parseFirstOp(
      "%x: tensor<4x8x3xf32>",
      "%0 = stablehlo.reshape %x : (tensor<4x8x3xf32>) -> tensor<32x3xf32>");
  ASSERT_TRUE(op);
  std::optional<ShardingRule> rule = getShardingRule(op);
  ASSERT_TRUE(rule);
  EXPECT_EQ(rule->str(), "([i, j, k])->([ij, k]) {i=4, j=8, k=3}");
  EXPECT_EQ(rule->getDimFactors(true, 0, 0), (SmallVector<int64_t, 2>{0, 1}));
  EXPECT_EQ(rule->getDimFactors(false, 0, 1), (SmallVector<int64_t, 2>{1}));
  EXPECT_EQ(rule->getResultDim(0, 1), 0);
  EXPECT_TRUE(rule->isMinorFactor(1));
  EXPECT_FALSE(rule->isMinorFactor(0));
  // S (j) only once B (i) is fully tiled; B no longer once S is tiled.
  SmallVector<int64_t> tiles{1, 1, 1};
  auto tilesOf = [&](int64_t f) { return tiles[f]; };
  EXPECT_FALSE(rule->canTileNext(1, tilesOf));
  EXPECT_TRUE(rule->canTileNext(0, tilesOf));
  tiles[0] = 2;
  EXPECT_FALSE(rule->canTileNext(1, tilesOf));
  tiles[0] = 4;
  EXPECT_TRUE(rule->canTileNext(1, tilesOf));
  tiles[1] = 2;
  EXPECT_FALSE(rule->canTileNext(0, tilesOf));
  EXPECT_TRUE(rule->canTileNext(2, tilesOf));

  // A minor factor needs a major one in its dimension and must be parallel.
  ShardingRule broken = *rule;
  broken.minorFactors.push_back({false, 0, 2, 2});
  broken.operandDims[0][2] = kNoFactor;
  EXPECT_TRUE(failed(verify(broken)));
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_NE(messages[0].find("maps no major factor"), std::string::npos);
}

TEST_F(ShardingRuleTest, CustomCallTargets) {
  EXPECT_EQ(ruleOf("%x: tensor<4x8xf32>",
                   "%0 = stablehlo.custom_call @Sharding(%x) : "
                   "(tensor<4x8xf32>) -> tensor<4x8xf32>"),
            "([i, j])->([i, j]) {i=4, j=8}");
  EXPECT_EQ(ruleOf("%x: tensor<4x8xf32>",
                   "%0 = stablehlo.custom_call @my_kernel(%x) : "
                   "(tensor<4x8xf32>) -> tensor<4x8xf32>"),
            "opaque");
}

TEST_F(ShardingRuleTest, DynamicShapesAreOpaque) {
  EXPECT_EQ(ruleOf("%x: tensor<?x4xf32>",
                   "%0 = stablehlo.add %x, %x : tensor<?x4xf32>"),
            "opaque");
}

TEST_F(ShardingRuleTest, FunctionsHaveNoRule) {
  Operation *op = parseFirstOp(kMatmulArgs, kMatmul);
  ASSERT_TRUE(op);
  EXPECT_FALSE(getShardingRule(op->getParentOp()).has_value());
  EXPECT_TRUE(getShardingRule(op).has_value());
}

/// The registry is complete: every StableHLO and CHLO op implements the
/// interface (possibly answering "opaque"), or is a loop or conditional
/// whose tied values DataFlowEdgeOpInterface describes.
TEST_F(ShardingRuleTest, EveryStablehloAndChloOpHasAModel) {
  int64_t covered = 0;
  for (RegisteredOperationName name : ctx.getRegisteredOperations()) {
    StringRef ns = name.getDialectNamespace();
    if (ns != "stablehlo" && ns != "chlo")
      continue;
    EXPECT_TRUE(name.hasInterface<ShardingRuleOpInterface>() ||
                name.hasInterface<DataFlowEdgeOpInterface>())
        << name.getStringRef().str() << " has no sharding-rule model";
    ++covered;
  }
  EXPECT_GT(covered, 100);
}

} // namespace
