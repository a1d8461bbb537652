//===- NamedDimensionAnalysisTest.cpp - NDA queries ----------------------===//

#include "toast/Analysis/NamedDimensionAnalysis.h"
#include "toast/InitAllDialects.h"
#include "toast/Models/Models.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/AnalysisManager.h"
#include "gtest/gtest.h"

#include <map>
#include <regex>
#include <set>

using namespace mlir;
using namespace toast;

namespace {

class NdaTest : public ::testing::Test {
protected:
  NdaTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }
  OwningOpRef<ModuleOp> parse(StringRef text) {
    auto m = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(m);
    return m;
  }
  MLIRContext context;
};

constexpr const char *kAttention = R"mlir(
func.func @attn(%x: tensor<8x4xf32>, %wq: tensor<4x6xf32>, %wk: tensor<4x6xf32>, %wv: tensor<4x5xf32>) -> tensor<8x5xf32> {
  %k = stablehlo.dot_general %x, %wk, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %v = stablehlo.dot_general %x, %wv, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x5xf32>) -> tensor<8x5xf32>
  %q = stablehlo.dot_general %x, %wq, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %qt = stablehlo.transpose %q, dims = [1, 0] : (tensor<8x6xf32>) -> tensor<6x8xf32>
  %a = stablehlo.dot_general %k, %qt, contracting_dims = [1] x [0] : (tensor<8x6xf32>, tensor<6x8xf32>) -> tensor<8x8xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %b = stablehlo.reduce(%a init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
  %c = stablehlo.broadcast_in_dim %b, dims = [0] : (tensor<8xf32>) -> tensor<8x8xf32>
  %d = stablehlo.divide %a, %c : tensor<8x8xf32>
  %z = stablehlo.dot_general %d, %v, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x5xf32>) -> tensor<8x5xf32>
  return %z : tensor<8x5xf32>
}
)mlir";

TEST_F(NdaTest, AttentionColorsConflictsAndQueries) {
  auto module = parse(kAttention);
  NamedDimensionAnalysis nda(*module);
  func::FuncOp f = nda.getEntry();
  ASSERT_TRUE(f);
  EXPECT_EQ(nda.getNumColors(), 4u);
  EXPECT_EQ(nda.getNumConflicts(), 5u);
  EXPECT_EQ(nda.getNumSets(), 1u);
  EXPECT_EQ(nda.getNumResolutionBits(), 1u);
  EXPECT_TRUE(nda.getSets()[0].consistent);

  auto x = nda.getColors(f.getArgument(0));
  ASSERT_EQ(x.size(), 2u);
  unsigned s = x[0], d = x[1];
  EXPECT_NE(s, d);
  // Colors of a value and the dims of a color agree.
  for (unsigned n : nda.getNamesOfColor(s))
    EXPECT_EQ(nda.getColorOfName(n), s);
  // Legality from the sizes: S = 8, D = 4.
  EXPECT_TRUE(nda.isLegal(s, 2));
  EXPECT_TRUE(nda.isLegal(s, 8));
  EXPECT_FALSE(nda.isLegal(s, 3));
  EXPECT_FALSE(nda.isLegal(s, 16));
  EXPECT_TRUE(nda.isLegal(d, 4));
  EXPECT_FALSE(nda.isLegal(d, 8));
  // All five conflicts touch S; none touches D.
  EXPECT_EQ(nda.getConflictsOfColor(s).size(), 5u);
  EXPECT_TRUE(nda.getConflictsOfColor(d).empty());
  // Each bit value selects one endpoint of each conflict; the two
  // resolutions differ on every conflict.
  for (unsigned c : nda.getConflictsOfColor(s)) {
    const auto &conflict = nda.getConflicts()[c];
    unsigned r0 = nda.getSelectedNodeForBit(c, false);
    unsigned r1 = nda.getSelectedNodeForBit(c, true);
    EXPECT_NE(r0, r1);
    EXPECT_TRUE(r0 == conflict.a || r0 == conflict.b);
    EXPECT_TRUE(r1 == conflict.a || r1 == conflict.b);
  }
  // Sequence sharding: one resolution shards the last dim of `a`
  // (figure 5b: a : [S, S{s}]), the other its first.
  Operation *a = nullptr;
  f.walk([&](Operation *op) {
    if (op->getName().getStringRef() == "stablehlo.dot_general" &&
        op->getResult(0).getType() ==
            RankedTensorType::get({8, 8}, Float32Type::get(&context)))
      a = op;
  });
  ASSERT_TRUE(a);
  int site = nda.getDefSite(a->getResult(0));
  ASSERT_GE(site, 0);
  unsigned first = nda.getNode(nda.getSites()[site].firstName);
  unsigned second = nda.getNode(nda.getSites()[site].firstName + 1);
  std::set<unsigned> picked;
  for (unsigned c : nda.getConflictsOfColor(s)) {
    const auto &conflict = nda.getConflicts()[c];
    if (std::min(first, second) == conflict.a &&
        std::max(first, second) == conflict.b) {
      picked.insert(nda.getSelectedNodeForBit(c, false));
      picked.insert(nda.getSelectedNodeForBit(c, true));
    }
  }
  EXPECT_EQ(picked, (std::set<unsigned>{first, second}));
}

TEST_F(NdaTest, FuncAndModuleAndAnalysisManagerAgree) {
  auto module = parse(kAttention);
  auto f = *module->getOps<func::FuncOp>().begin();
  NamedDimensionAnalysis fromFunc(f);
  NamedDimensionAnalysis fromOp(module->getOperation());
  EXPECT_EQ(fromFunc.getNumNames(), fromOp.getNumNames());
  EXPECT_EQ(fromFunc.getNumConflicts(), fromOp.getNumConflicts());
  ModuleAnalysisManager mam(*module, nullptr);
  AnalysisManager am = mam;
  auto &cached = am.getAnalysis<NamedDimensionAnalysis>();
  EXPECT_EQ(&cached, &am.getAnalysis<NamedDimensionAnalysis>());
  EXPECT_EQ(cached.getNumColors(), 4u);
}

TEST_F(NdaTest, WhileLoopCarriedValuesShareNames) {
  auto module = parse(R"mlir(
func.func @loop(%x: tensor<8x4xf32>, %w: tensor<4x4xf32>) -> tensor<8x4xf32> {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%it = %i0, %h = %x) : tensor<i32>, tensor<8x4xf32>
   cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %it, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %y = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %it, %one : tensor<i32>
    stablehlo.return %j, %y : tensor<i32>, tensor<8x4xf32>
  }
  %t = stablehlo.tanh %r#1 : tensor<8x4xf32>
  return %t : tensor<8x4xf32>
}
)mlir");
  NamedDimensionAnalysis nda(*module);
  func::FuncOp f = nda.getEntry();
  auto x = nda.getColors(f.getArgument(0));
  auto w = nda.getColors(f.getArgument(1));
  ASSERT_EQ(x.size(), 2u);
  ASSERT_EQ(w.size(), 2u);
  // Batch dim flows around the loop; the loop-carried feature dim is the
  // contraction of the body's matmul and its result, so x's feature dim,
  // both dims of w join one color (the recurrent weight conflicts).
  EXPECT_NE(x[0], x[1]);
  EXPECT_EQ(w[0], x[1]);
  EXPECT_EQ(w[1], x[1]);
  Operation *loop = nullptr;
  f.walk([&](Operation *op) {
    if (op->getName().getStringRef() == "stablehlo.while")
      loop = op;
  });
  ASSERT_TRUE(loop);
  EXPECT_EQ(nda.getColors(loop->getResult(1)), x);
  // w : [F, F] on its definition (N, O) and on its use in the body (L, R):
  // N->L, O->R form a box. The body's output feature R is carried around the
  // loop into the contraction L, but only into the *next* iteration: the
  // body's names stand for every iteration (like one unrolled layer's), so
  // paths do not go around the loop and nothing crosses the box. The use
  // resolves like the definition (no reshard of w per iteration).
  EXPECT_EQ(nda.getNumConflicts(), 2u);
  EXPECT_EQ(nda.getNumSets(), 1u);
  EXPECT_TRUE(nda.getSets()[0].consistent);
  auto nodeOf = [&](int site, unsigned dim) {
    return nda.getNode(nda.getSites()[site].firstName + dim);
  };
  int def = nda.getDefSite(f.getArgument(1));
  ASSERT_GE(def, 0);
  unsigned o = nodeOf(def, 1);
  int use = -1;
  for (OpOperand &u : f.getArgument(1).getUses())
    use = nda.getUseSite(u);
  ASSERT_GE(use, 0);
  unsigned l = nodeOf(use, 0);
  EXPECT_FALSE(nda.hasEdge(o, l));
  EXPECT_FALSE(nda.reaches(o, l));
  // Paths into the loop (x's feature into the first iteration's
  // contraction) and out of it (the yielded feature to the use of the loop's
  // result) are followed.
  EXPECT_TRUE(nda.reaches(nodeOf(nda.getDefSite(f.getArgument(0)), 1), l));
  Operation *dot = nullptr, *tanh = nullptr;
  f.walk([&](Operation *op) {
    if (op->getName().getStringRef() == "stablehlo.dot_general")
      dot = op;
    if (op->getName().getStringRef() == "stablehlo.tanh")
      tanh = op;
  });
  ASSERT_TRUE(dot && tanh);
  unsigned yielded = nodeOf(nda.getDefSite(dot->getResult(0)), 1);
  EXPECT_TRUE(
      nda.reaches(yielded, nodeOf(nda.getUseSite(tanh->getOpOperand(0)), 1)));
  EXPECT_FALSE(nda.reaches(yielded, l));
}

// Figure 6 (right) without loops: a = x.x^T : [S, S] is used directly and
// transposed by the same add, so a path leads from a's first dim to the
// add's second. With only the direct edges checked, the box a -> add would
// be kept and contradict the chain a -> transpose -> add (an odd cycle).
TEST_F(NdaTest, PathAcrossBreaksBox) {
  auto module = parse(R"mlir(
func.func @across(%x: tensor<8x4xf32>) -> tensor<8x8xf32> {
  %xt = stablehlo.transpose %x, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %a = stablehlo.dot_general %x, %xt, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  %b = stablehlo.transpose %a, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %u = stablehlo.add %a, %b : tensor<8x8xf32>
  return %u : tensor<8x8xf32>
}
)mlir");
  NamedDimensionAnalysis nda(*module);
  // Conflicts on a, on its use by the transpose (= b), on its use by add.
  ASSERT_EQ(nda.getNumConflicts(), 3u);
  EXPECT_EQ(nda.getNumSets(), 1u);
  EXPECT_TRUE(nda.getSets()[0].consistent);
  Operation *dot = nullptr, *add = nullptr;
  nda.getEntry().walk([&](Operation *op) {
    StringRef name = op->getName().getStringRef();
    if (name == "stablehlo.dot_general")
      dot = op;
    if (name == "stablehlo.add")
      add = op;
  });
  ASSERT_TRUE(dot && add);
  const auto &aDef = nda.getSites()[nda.getDefSite(dot->getResult(0))];
  const auto &aUse = nda.getSites()[nda.getUseSite(add->getOpOperand(0))];
  unsigned n = nda.getNode(aDef.firstName);
  unsigned r = nda.getNode(aUse.firstName + 1);
  EXPECT_FALSE(nda.hasEdge(n, r));
  EXPECT_TRUE(nda.reaches(n, r));
  EXPECT_FALSE(nda.reaches(r, n));
  // Bit 0 shards a's second dim, hence b's first, hence the add's first:
  // the add use follows the transposed path, not the box.
  unsigned set0Add = 0, set0Def = 0;
  for (unsigned c = 0; c < 3; ++c) {
    const auto &conflict = nda.getConflicts()[c];
    if (conflict.a == std::min(n, nda.getNode(aDef.firstName + 1)))
      set0Def = nda.getSelectedNodeForBit(c, false);
    if (conflict.b == std::max(r, nda.getNode(aUse.firstName)))
      set0Add = nda.getSelectedNodeForBit(c, false);
  }
  EXPECT_EQ(set0Def == n, set0Add == r);
}

// Call sites are identified context-insensitively: both calls of @id share
// the callee's argument and result nodes. A path through them would jump
// from the second call's input to the first call's users, so reaches() does
// not follow paths out of such nodes.
TEST_F(NdaTest, PathsDoNotJumpBetweenCallSites) {
  auto module = parse(R"mlir(
func.func private @id(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  return %a : tensor<8x4xf32>
}
func.func @main(%x: tensor<8x4xf32>, %y: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %c1 = func.call @id(%x) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %n1 = stablehlo.negate %c1 : tensor<8x4xf32>
  %y2 = stablehlo.tanh %y : tensor<8x4xf32>
  %c2 = func.call @id(%y2) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = stablehlo.add %n1, %c2 : tensor<8x4xf32>
  return %s : tensor<8x4xf32>
}
)mlir");
  NamedDimensionAnalysis nda(*module);
  func::FuncOp main = nda.getEntry();
  ASSERT_EQ(main.getSymName(), "main");
  Operation *tanh = nullptr, *negate = nullptr;
  main.walk([&](Operation *op) {
    if (op->getName().getStringRef() == "stablehlo.tanh")
      tanh = op;
    if (op->getName().getStringRef() == "stablehlo.negate")
      negate = op;
  });
  ASSERT_TRUE(tanh && negate);
  auto nodeOf = [&](int site) {
    return nda.getNode(nda.getSites()[site].firstName);
  };
  unsigned y2 = nodeOf(nda.getDefSite(tanh->getResult(0)));
  unsigned n1 = nodeOf(nda.getDefSite(negate->getResult(0)));
  unsigned x = nodeOf(nda.getDefSite(main.getArgument(0)));
  // The merged nodes do connect y2 to n1 in the dimension graph (one color),
  // but no real data flows from %y to %n1.
  EXPECT_EQ(nda.getColorOfNode(y2), nda.getColorOfNode(n1));
  EXPECT_FALSE(nda.reaches(y2, n1));
  // Paths that do not leave through a call are followed as usual.
  unsigned s = nodeOf(
      nda.getDefSite(main.getBody().front().getTerminator()->getOperand(0)));
  EXPECT_TRUE(nda.reaches(n1, s));
  EXPECT_FALSE(nda.reaches(x, y2));
}

// Two attention layers (figure 5 with a causal mask) share one mask computed
// from iotas. The mask depends on no argument and has conflicting uses in
// both layers: it is communication-free and does not chain the layers.
constexpr const char *kMaskedLayers = R"mlir(
func.func @two(%x: tensor<8x4xf32>, %wq0: tensor<4x6xf32>, %wk0: tensor<4x6xf32>, %wv0: tensor<4x4xf32>,
               %wq1: tensor<4x6xf32>, %wk1: tensor<4x6xf32>, %wv1: tensor<4x4xf32>) -> tensor<8x4xf32> {
  %i = stablehlo.iota dim = 0 : tensor<8x8xi32>
  %j = stablehlo.iota dim = 1 : tensor<8x8xi32>
  %mask = stablehlo.compare GE, %i, %j : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %k0 = stablehlo.dot_general %x, %wk0, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %v0 = stablehlo.dot_general %x, %wv0, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %q0 = stablehlo.dot_general %x, %wq0, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %qt0 = stablehlo.transpose %q0, dims = [1, 0] : (tensor<8x6xf32>) -> tensor<6x8xf32>
  %s0 = stablehlo.dot_general %k0, %qt0, contracting_dims = [1] x [0] : (tensor<8x6xf32>, tensor<6x8xf32>) -> tensor<8x8xf32>
  %a0 = stablehlo.select %mask, %s0, %s0 : (tensor<8x8xi1>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %b0 = stablehlo.reduce(%a0 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
  %c0 = stablehlo.broadcast_in_dim %b0, dims = [0] : (tensor<8xf32>) -> tensor<8x8xf32>
  %d0 = stablehlo.divide %a0, %c0 : tensor<8x8xf32>
  %z0 = stablehlo.dot_general %d0, %v0, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %k1 = stablehlo.dot_general %z0, %wk1, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %v1 = stablehlo.dot_general %z0, %wv1, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %q1 = stablehlo.dot_general %z0, %wq1, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %qt1 = stablehlo.transpose %q1, dims = [1, 0] : (tensor<8x6xf32>) -> tensor<6x8xf32>
  %s1 = stablehlo.dot_general %k1, %qt1, contracting_dims = [1] x [0] : (tensor<8x6xf32>, tensor<6x8xf32>) -> tensor<8x8xf32>
  %a1 = stablehlo.select %mask, %s1, %s1 : (tensor<8x8xi1>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %b1 = stablehlo.reduce(%a1 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
  %c1 = stablehlo.broadcast_in_dim %b1, dims = [0] : (tensor<8xf32>) -> tensor<8x8xf32>
  %d1 = stablehlo.divide %a1, %c1 : tensor<8x8xf32>
  %z1 = stablehlo.dot_general %d1, %v1, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %xxt = stablehlo.dot_general %z1, %z1, contracting_dims = [1] x [1] : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x8xf32>
  %r = stablehlo.dot_general %xxt, %z1, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
)mlir";

/// Set of the conflict first seen on the result of the op defining `v`.
unsigned setOfDef(const NamedDimensionAnalysis &nda, Value v) {
  int site = nda.getDefSite(v);
  const auto &s = nda.getSites()[site];
  unsigned a = nda.getNode(s.firstName), b = nda.getNode(s.firstName + 1);
  for (const auto &c : nda.getConflicts())
    if (c.a == std::min(a, b) && c.b == std::max(a, b))
      return c.set;
  ADD_FAILURE() << "no conflict on the definition";
  return ~0u;
}

TEST_F(NdaTest, SharedMaskDoesNotChainLayers) {
  auto module = parse(kMaskedLayers);
  NamedDimensionAnalysis nda(*module);
  Value mask, xxt;
  SmallVector<Value> selects;
  nda.getEntry().walk([&](Operation *op) {
    StringRef name = op->getName().getStringRef();
    if (name == "stablehlo.compare")
      mask = op->getResult(0);
    if (name == "stablehlo.select")
      selects.push_back(op->getResult(0));
    if (name == "stablehlo.dot_general" &&
        op->getOperand(0) == op->getOperand(1))
      xxt = op->getResult(0);
  });
  ASSERT_TRUE(mask && xxt);
  ASSERT_EQ(selects.size(), 2u);
  Value s0 = selects[0], s1 = selects[1];
  unsigned maskSet = setOfDef(nda, mask);
  unsigned layer0 = setOfDef(nda, s0), layer1 = setOfDef(nda, s1);
  unsigned other = setOfDef(nda, xxt);
  EXPECT_NE(maskSet, layer0);
  EXPECT_NE(maskSet, layer1);
  EXPECT_NE(layer0, layer1);
  EXPECT_EQ(nda.getNumSets(), 4u);
  // The layers are isomorphic and share a bit; the mask and x.x^T differ.
  EXPECT_TRUE(nda.isIsomorphic(layer0, layer1));
  EXPECT_FALSE(nda.isIsomorphic(layer0, other));
  EXPECT_EQ(nda.getSets()[layer0].bit, nda.getSets()[layer1].bit);
  EXPECT_NE(nda.getSets()[layer0].bit, nda.getSets()[other].bit);
  EXPECT_NE(nda.getSets()[layer0].bit, nda.getSets()[maskSet].bit);
  EXPECT_EQ(nda.getNumResolutionBits(), 3u);
  // Corresponding conflicts of the two layers resolve alike under a bit.
  const auto &f0 = nda.getCanonicalForm(layer0);
  EXPECT_EQ(f0.conflicts.size(), nda.getSets()[layer0].conflicts.size());
  EXPECT_EQ(f0, nda.getCanonicalForm(layer1));
}

// Merging compares canonical forms exactly: with every structural hash
// truncated to 0 bits (all sets collide), only isomorphic sets share bits.
TEST_F(NdaTest, HashCollisionsDoNotMergeSets) {
  auto module = parse(kMaskedLayers);
  NamedDimensionAnalysis exact(*module);
  NdaOptions collide;
  collide.signatureBits = 0;
  NamedDimensionAnalysis colliding(*module, collide);
  ASSERT_EQ(exact.getNumSets(), colliding.getNumSets());
  for (unsigned i = 0; i < colliding.getNumSets(); ++i)
    EXPECT_EQ(colliding.getSets()[i].signature, 0u);
  EXPECT_EQ(colliding.getNumResolutionBits(), exact.getNumResolutionBits());
  for (unsigned i = 0; i < exact.getNumSets(); ++i)
    for (unsigned j = 0; j < exact.getNumSets(); ++j)
      EXPECT_EQ(colliding.getSets()[i].bit == colliding.getSets()[j].bit,
                exact.isIsomorphic(i, j));
}

// Section 3.6 and 4.4 on the transformer training step: one compatibility
// set per layer (forward and backward together, see docs/nda.md) plus the
// causal mask's, a number of resolution bits independent of the depth, and
// the parameters of corresponding layers in one argument group.
TEST_F(NdaTest, TransformerLayersShareBitsAndGroups) {
  std::optional<unsigned> bits;
  for (int64_t layers : {2, 4, 8}) {
    models::ModelOptions options;
    options.ints = {{"layers", layers}, {"batch", 2}, {"seq", 8},
                    {"d-model", 16},    {"heads", 2}, {"vocab", 32},
                    {"hidden", 24}};
    std::string error;
    auto module = models::buildModel(&context, "transformer", options, error);
    ASSERT_TRUE(module) << error;
    NamedDimensionAnalysis nda(*module);
    // Per layer: its attention set and the set of its broadcast mask (used
    // by the forward and the backward select); one set for the mask itself.
    EXPECT_EQ(nda.getNumSets(), 2 * layers + 1) << layers << " layers";
    if (!bits)
      bits = nda.getNumResolutionBits();
    EXPECT_EQ(nda.getNumResolutionBits(), *bits) << layers << " layers";
    EXPECT_EQ(*bits, 3u);
    // The attention sets of all layers are isomorphic.
    unsigned largest = 0;
    for (unsigned s = 1; s < nda.getNumSets(); ++s)
      if (nda.getSets()[s].conflicts.size() >
          nda.getSets()[largest].conflicts.size())
        largest = s;
    unsigned attention = 0;
    for (unsigned s = 0; s < nda.getNumSets(); ++s)
      attention += nda.isIsomorphic(s, largest);
    EXPECT_EQ(attention, layers);

    // params.layer_<i>.<path> (and its optimizer states) of every layer i
    // fall in one argument group.
    std::regex layer(R"(^(params|opt_state\.\w+)\.layer_(\d+)\.(.*)$)");
    std::map<std::string, std::set<unsigned>> groups;
    func::FuncOp entry = nda.getEntry();
    for (unsigned i = 0; i < entry.getNumArguments(); ++i) {
      auto name = entry.getArgAttrOfType<StringAttr>(i, "partir.name");
      ASSERT_TRUE(name);
      std::smatch m;
      std::string text = name.str();
      if (std::regex_match(text, m, layer))
        groups[m[1].str() + "." + m[3].str()].insert(nda.getArgumentGroup(i));
    }
    EXPECT_FALSE(groups.empty());
    for (auto &[path, g] : groups)
      EXPECT_EQ(g.size(), 1u) << path << " with " << layers << " layers";
  }
}

/// `main(args) -> carried` as jax.lax.scan exports a two-layer scan: one
/// stablehlo.while carrying the counter %i and %h (initially %x); `body`
/// may use %i, %h and %z (a zero index) and defines `yield`, the next %h.
std::string scanTwoLayers(StringRef args, StringRef carried, StringRef body,
                          StringRef yield) {
  std::string text = R"mlir(
func.func @main(ARGS) -> CARRIED {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, CARRIED
   cond {
    %n = stablehlo.constant dense<2> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
BODY    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %next, YIELD : tensor<i32>, CARRIED
  }
  return %r#1 : CARRIED
}
)mlir";
  for (auto [key, value] : {std::pair<StringRef, StringRef>{"ARGS", args},
                            {"CARRIED", carried},
                            {"BODY", body},
                            {"YIELD", yield}})
    for (size_t at; (at = text.find(key.str())) != std::string::npos;)
      text.replace(at, key.size(), value.str());
  return text;
}

// A two-layer MLP as jax.lax.scan exports it (weights stacked on a leading
// layer dim, sliced per iteration at the loop counter) and unrolled.
std::string scannedMlp() {
  return scanTwoLayers("%x: tensor<32x16xf32>, %w1: tensor<2x16x64xf32>, "
                       "%w2: tensor<2x64x16xf32>",
                       "tensor<32x16xf32>", R"mlir(
    %s1 = stablehlo.dynamic_slice %w1, %i, %z, %z, sizes = [1, 16, 64] : (tensor<2x16x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x64xf32>
    %m1 = stablehlo.reshape %s1 : (tensor<1x16x64xf32>) -> tensor<16x64xf32>
    %u = stablehlo.dot_general %h, %m1, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
    %t = stablehlo.tanh %u : tensor<32x64xf32>
    %s2 = stablehlo.dynamic_slice %w2, %i, %z, %z, sizes = [1, 64, 16] : (tensor<2x64x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x16xf32>
    %m2 = stablehlo.reshape %s2 : (tensor<1x64x16xf32>) -> tensor<64x16xf32>
    %y = stablehlo.dot_general %t, %m2, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x16xf32>) -> tensor<32x16xf32>
)mlir",
                       "%y");
}

constexpr const char *kUnrolledMlp = R"mlir(
func.func @main(%x: tensor<32x16xf32>, %a0: tensor<16x64xf32>, %b0: tensor<64x16xf32>, %a1: tensor<16x64xf32>, %b1: tensor<64x16xf32>) -> tensor<32x16xf32> {
  %u0 = stablehlo.dot_general %x, %a0, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
  %t0 = stablehlo.tanh %u0 : tensor<32x64xf32>
  %y0 = stablehlo.dot_general %t0, %b0, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x16xf32>) -> tensor<32x16xf32>
  %u1 = stablehlo.dot_general %y0, %a1, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
  %t1 = stablehlo.tanh %u1 : tensor<32x64xf32>
  %y1 = stablehlo.dot_general %t1, %b1, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x16xf32>) -> tensor<32x16xf32>
  return %y1 : tensor<32x16xf32>
}
)mlir";

/// The ops named `name` in `f`, in walk order (loop bodies included).
SmallVector<Operation *> opsNamed(func::FuncOp f, StringRef name) {
  SmallVector<Operation *> ops;
  f.walk([&](Operation *op) {
    if (op->getName().getStringRef() == name)
      ops.push_back(op);
  });
  return ops;
}

// Control-flow design §6: scanned and unrolled layers get the same colors
// apart from the stacking dim. Corresponding dims (x; layer l's weights
// without the layer dim; the body's and layer l's values) must map every
// unrolled color to one scanned color, onto all scanned colors but the
// stacking dims', which get colors of their own.
TEST_F(NdaTest, ScannedAndUnrolledMlpColorsCorrespond) {
  auto scannedModule = parse(scannedMlp());
  auto unrolledModule = parse(kUnrolledMlp);
  NamedDimensionAnalysis scanned(*scannedModule), unrolled(*unrolledModule);
  func::FuncOp sf = scanned.getEntry(), uf = unrolled.getEntry();
  EXPECT_EQ(scanned.getNumOpaqueOps(), 0u);

  // Unrolled color -> scanned color must be a function. It may merge
  // colors: unrolled, each layer's hidden dim and each layer boundary's
  // feature dim is a color of its own; scanned, the carried value has one
  // sharding, so the body's input and output features are one color.
  std::map<unsigned, unsigned> toScanned;
  auto correspond = [&](ArrayRef<unsigned> u, ArrayRef<unsigned> s) {
    ASSERT_EQ(u.size(), s.size());
    for (auto [cu, cs] : llvm::zip(u, s))
      EXPECT_EQ(toScanned.try_emplace(cu, cs).first->second, cs);
  };
  auto withoutStack = [](SmallVector<unsigned> colors) {
    return SmallVector<unsigned>(colors.begin() + 1, colors.end());
  };
  SmallVector<unsigned> w1 = scanned.getColors(sf.getArgument(1));
  SmallVector<unsigned> w2 = scanned.getColors(sf.getArgument(2));
  SmallVector<Operation *> sDots = opsNamed(sf, "stablehlo.dot_general");
  SmallVector<Operation *> uDots = opsNamed(uf, "stablehlo.dot_general");
  SmallVector<Operation *> sTanh = opsNamed(sf, "stablehlo.tanh");
  SmallVector<Operation *> uTanh = opsNamed(uf, "stablehlo.tanh");
  ASSERT_EQ(sDots.size(), 2u);
  ASSERT_EQ(uDots.size(), 4u);
  Operation *loop = opsNamed(sf, "stablehlo.while")[0];
  correspond(unrolled.getColors(uf.getArgument(0)),
             scanned.getColors(sf.getArgument(0)));
  for (unsigned l = 0; l < 2; ++l) {
    correspond(unrolled.getColors(uf.getArgument(1 + 2 * l)), withoutStack(w1));
    correspond(unrolled.getColors(uf.getArgument(2 + 2 * l)), withoutStack(w2));
    // Layer l's values against the body's: both matmuls and the tanh.
    for (unsigned k = 0; k < 2; ++k)
      correspond(unrolled.getColors(uDots[2 * l + k]->getResult(0)),
                 scanned.getColors(sDots[k]->getResult(0)));
    correspond(unrolled.getColors(uTanh[l]->getResult(0)),
               scanned.getColors(sTanh[0]->getResult(0)));
  }
  // The carried value leaves the loop in the output's colors.
  correspond(unrolled.getColors(uDots[3]->getResult(0)),
             scanned.getColors(loop->getResult(1)));
  // Every scanned color but the stacking dims' is some unrolled color; the
  // stacking dims are extra (and blocked where the dynamic_slice indexes
  // them).
  std::set<unsigned> image;
  for (auto [u, s] : toScanned)
    image.insert(s);
  EXPECT_EQ(toScanned.size(), unrolled.getNumColors());
  EXPECT_EQ(image.size(), 3u);                // batch, features, hidden
  EXPECT_EQ(scanned.getNumColors(), 3u + 4u); // + stacks and their slices
  for (unsigned stack : {w1[0], w2[0]}) {
    EXPECT_FALSE(image.count(stack));
    EXPECT_GT(scanned.getNumBlocked(stack), 0u);
  }
  EXPECT_NE(w1[0], w2[0]);
}

/// Figure 5's attention layer `l` on `in` (weights %wq<l>, %wk<l>, %wv<l>
/// and the reduction's %zero) with a residual connection, defining %res<l>.
std::string attentionLayer(const std::string &l, const std::string &in) {
  std::string text = R"(
  %kL = stablehlo.dot_general IN, %wkL, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %vL = stablehlo.dot_general IN, %wvL, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %qL = stablehlo.dot_general IN, %wqL, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  %qtL = stablehlo.transpose %qL, dims = [1, 0] : (tensor<8x6xf32>) -> tensor<6x8xf32>
  %aL = stablehlo.dot_general %kL, %qtL, contracting_dims = [1] x [0] : (tensor<8x6xf32>, tensor<6x8xf32>) -> tensor<8x8xf32>
  %bL = stablehlo.reduce(%aL init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x8xf32>, tensor<f32>) -> tensor<8xf32>
  %cL = stablehlo.broadcast_in_dim %bL, dims = [0] : (tensor<8xf32>) -> tensor<8x8xf32>
  %dL = stablehlo.divide %aL, %cL : tensor<8x8xf32>
  %oL = stablehlo.dot_general %dL, %vL, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  %resL = stablehlo.add IN, %oL : tensor<8x4xf32>
)";
  text = std::regex_replace(text, std::regex("IN"), in);
  return std::regex_replace(text, std::regex("L\\b"), l);
}

// Figure 5's attention with a residual connection as the body of a scan
// over two layers (carried h : [S, D], weights stacked [L, ...]) against the
// same two layers unrolled. The loop body's conflicts form the sets of one
// layer: the path from the body's output back into the next iteration's keys
// does not cross the boxes of this iteration, so the scan needs as many
// resolution bits as the unrolled program (one for the attention, one for the
// recurrent [D, D] value weight).
std::string scannedAttention() {
  return scanTwoLayers(
      "%x: tensor<8x4xf32>, %wq: tensor<2x4x6xf32>, %wk: tensor<2x4x6xf32>, "
      "%wv: tensor<2x4x4xf32>",
      "tensor<8x4xf32>",
      R"mlir(
    %sq = stablehlo.dynamic_slice %wq, %i, %z, %z, sizes = [1, 4, 6] : (tensor<2x4x6xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x6xf32>
    %wqB = stablehlo.reshape %sq : (tensor<1x4x6xf32>) -> tensor<4x6xf32>
    %sk = stablehlo.dynamic_slice %wk, %i, %z, %z, sizes = [1, 4, 6] : (tensor<2x4x6xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x6xf32>
    %wkB = stablehlo.reshape %sk : (tensor<1x4x6xf32>) -> tensor<4x6xf32>
    %sv = stablehlo.dynamic_slice %wv, %i, %z, %z, sizes = [1, 4, 4] : (tensor<2x4x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x4xf32>
    %wvB = stablehlo.reshape %sv : (tensor<1x4x4xf32>) -> tensor<4x4xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>)mlir" +
          attentionLayer("B", "%h"),
      "%resB");
}

TEST_F(NdaTest, ScannedAttentionResolvesLikeOneLayer) {
  auto scannedModule = parse(scannedAttention());
  std::string unrolledText =
      "func.func @main(%x: tensor<8x4xf32>, %wq0: tensor<4x6xf32>, "
      "%wk0: tensor<4x6xf32>, %wv0: tensor<4x4xf32>, %wq1: tensor<4x6xf32>, "
      "%wk1: tensor<4x6xf32>, %wv1: tensor<4x4xf32>) -> tensor<8x4xf32> {\n"
      "  %zero = stablehlo.constant dense<0.0> : tensor<f32>" +
      attentionLayer("0", "%x") + attentionLayer("1", "%res0") +
      "  return %res1 : tensor<8x4xf32>\n}\n";
  auto unrolledModule = parse(unrolledText);
  ASSERT_TRUE(scannedModule && unrolledModule);
  NamedDimensionAnalysis scanned(*scannedModule), unrolled(*unrolledModule);
  // Unrolled: per layer the attention set and the set of the value weight
  // [D, D], the layers isomorphic. Scanned: the body's two sets.
  EXPECT_EQ(unrolled.getNumSets(), 4u);
  EXPECT_EQ(scanned.getNumSets(), 2u);
  EXPECT_EQ(scanned.getNumResolutionBits(), unrolled.getNumResolutionBits());
  for (const auto &set : scanned.getSets())
    EXPECT_TRUE(set.consistent);
  // The attention conflicts of the body (figure 5's five) are one set.
  Operation *scores = opsNamed(scanned.getEntry(), "stablehlo.divide")[0];
  unsigned s = scanned.getColors(scores->getResult(0))[0];
  std::set<unsigned> attentionSets;
  for (unsigned c : scanned.getConflictsOfColor(s))
    attentionSets.insert(scanned.getConflicts()[c].set);
  EXPECT_EQ(scanned.getConflictsOfColor(s).size(), 5u);
  EXPECT_EQ(attentionSets.size(), 1u);
}

TEST_F(NdaTest, OpaqueOpsGetFreshNames) {
  auto module = parse(R"mlir(
func.func @f(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %y = stablehlo.custom_call @foo(%x) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %z = stablehlo.add %y, %y : tensor<8x4xf32>
  return %z : tensor<8x4xf32>
}
)mlir");
  NamedDimensionAnalysis nda(*module);
  EXPECT_EQ(nda.getNumOpaqueOps(), 1u);
  // x's two dims, y/z's two dims: four colors.
  EXPECT_EQ(nda.getNumColors(), 4u);
  EXPECT_EQ(nda.getNumConflicts(), 0u);
}

} // namespace
