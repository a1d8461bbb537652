//===- ScanTest.cpp - --scan computes what the unrolled model computes ----===//
//
// For tiny transformer and ITX models in f64: generates the unrolled program
// and the scanned one (--scan), runs the unrolled one in the reference
// interpreter on random inputs and the scanned one on the same values with
// the per-layer arrays stacked (`X.layer_<i>.<path>` become row i of
// `X.layers.<path>`), and compares every result after un-stacking: loss,
// updated parameters and optimizer state (or gradients), logits, generated
// tokens. Training steps are checked in both backward forms: the default,
// whose forward loop saves every residual, and --remat, whose backward loop
// recomputes each layer. Also checks the loop structure: the number of
// stablehlo.while ops, nesting, that no loop region reads a value from
// outside the loop (all of it goes through the carry, as JAX passes
// closed-over values), and that the default backward loop does not
// recompute the layer.
//
//===----------------------------------------------------------------------===//

#include "toast/Interpreter/Interpreter.h"
#include "toast/Models/Models.h"

#include "toast/Dialect/StableHLO/IR/StablehloDialect.h"
#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"
#include "gtest/gtest.h"

#include <cmath>
#include <optional>
#include <random>

using namespace mlir;
using namespace toast;
using namespace toast::models;
using toast::interp::Tensor;

namespace {

struct ScanCase {
  const char *name;
  const char *model;
  std::vector<std::pair<const char *, int64_t>> ints;
  bool inference;
  bool gradients;
  /// stablehlo.while ops in the scanned program, and whether one is nested
  /// in another.
  unsigned whiles;
  bool nested;
  /// --remat (training steps).
  bool remat = false;
};

std::string caseName(const ScanCase &c) {
  return std::string(c.name) + (c.remat ? "_remat" : "");
}

void PrintTo(const ScanCase &c, std::ostream *os) { *os << caseName(c); }

constexpr int64_t kLayers = 3, kVocab = 11;

/// A layer-stacked name and the layer: `X.layer_<i>.<path>` gives
/// (`X.layers.<path>`, i); other names give nothing.
std::optional<std::pair<std::string, int64_t>> stackedName(StringRef name) {
  static const llvm::Regex pattern("^(.*)\\.layer_([0-9]+)\\.(.*)$");
  SmallVector<StringRef, 4> match;
  if (!pattern.match(name, &match))
    return std::nullopt;
  int64_t layer = 0;
  match[2].getAsInteger(10, layer);
  return std::make_pair((match[1] + ".layers." + match[3]).str(), layer);
}

/// Names of @main's arguments (`partir.name`) or results
/// (`jax.result_info`), in order.
SmallVector<std::string> argumentNames(func::FuncOp func) {
  SmallVector<std::string> names;
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    names.push_back(
        func.getArgAttrOfType<StringAttr>(i, "partir.name").getValue().str());
  return names;
}
SmallVector<std::string> resultNames(func::FuncOp func) {
  SmallVector<std::string> names;
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    names.push_back(func.getResultAttrOfType<StringAttr>(i, "jax.result_info")
                        .getValue()
                        .str());
  return names;
}

/// Values by name; stacked names are assembled from their layers' rows.
class NamedValues {
public:
  NamedValues(ArrayRef<std::string> names, ArrayRef<Tensor> values) {
    for (auto [name, value] : llvm::zip_equal(names, values)) {
      if (auto stacked = stackedName(name))
        layers[stacked->first][stacked->second] = value;
      else
        plain[name] = value;
    }
  }

  /// The value named `name` of type `type`: a plain value, or row l of a
  /// stacked one is layer l's value.
  std::optional<Tensor> get(StringRef name, RankedTensorType type) const {
    if (auto it = plain.find(name.str()); it != plain.end())
      return it->second;
    auto it = layers.find(name.str());
    if (it == layers.end() || int64_t(it->second.size()) != type.getDimSize(0))
      return std::nullopt;
    Tensor stacked(type);
    int64_t offset = 0;
    for (const auto &[layer, value] : it->second)
      for (int64_t i = 0; i < value.getNumElements(); ++i)
        stacked.copyElement(offset++, value, i);
    return offset == stacked.getNumElements() ? std::optional(stacked)
                                              : std::nullopt;
  }
  size_t size() const {
    size_t n = plain.size();
    for (const auto &entry : layers)
      n += entry.second.size();
    return n;
  }

private:
  std::map<std::string, Tensor> plain;
  std::map<std::string, std::map<int64_t, Tensor>> layers;
};

class ScanTest : public ::testing::TestWithParam<ScanCase> {
protected:
  ScanTest() {
    ctx.loadDialect<stablehlo::StableHLODialect, func::FuncDialect>();
  }

  OwningOpRef<ModuleOp> build(bool scan) {
    const ScanCase &c = GetParam();
    ModelOptions options;
    options.dtype = "f64";
    options.inference = c.inference;
    options.gradients = c.gradients;
    options.scan = scan;
    options.remat = scan && c.remat;
    for (auto &[k, v] : c.ints)
      options.ints[k] = v;
    std::string error;
    OwningOpRef<ModuleOp> module = buildModel(&ctx, c.model, options, error);
    EXPECT_TRUE(module) << error;
    return module;
  }

  /// Random inputs: floats in [-0.5, 0.5) (second moments |.|, as Adam's
  /// are never negative), token ids below the vocabulary, step 2.
  SmallVector<Tensor> makeInputs(func::FuncOp func) {
    std::uniform_real_distribution<double> uniform(-0.5, 0.5);
    std::uniform_int_distribution<int64_t> token(0, kVocab - 1);
    SmallVector<Tensor> inputs;
    for (auto [type, name] :
         llvm::zip_equal(func.getArgumentTypes(), argumentNames(func))) {
      Tensor t(cast<RankedTensorType>(type));
      bool nonNegative = StringRef(name).starts_with("opt_state.nu.");
      for (int64_t i = 0; i < t.getNumElements(); ++i) {
        if (t.getElementType().isFloat())
          t.setFloat(i, nonNegative ? std::abs(uniform(rng)) : uniform(rng));
        else
          t.setInt(i, name == "opt_state.step" ? 2 : token(rng));
      }
      inputs.push_back(t);
    }
    return inputs;
  }

  MLIRContext ctx;
  std::mt19937 rng{2024};
};

/// Counts the while ops, whether one is nested, and checks that no loop
/// region uses a value defined outside of its loop.
void checkLoops(ModuleOp module, unsigned whiles, bool nested) {
  unsigned count = 0;
  bool sawNested = false;
  module.walk([&](stablehlo::WhileOp loop) {
    ++count;
    sawNested |= bool(loop->getParentOfType<stablehlo::WhileOp>());
    loop->walk([&](Operation *op) {
      if (op == loop)
        return;
      for (Value operand : op->getOperands())
        EXPECT_TRUE(loop->isAncestor(operand.getParentRegion()->getParentOp()))
            << "a loop region captures a value from outside: "
            << op->getName().getStringRef().str();
    });
  });
  EXPECT_EQ(count, whiles);
  EXPECT_EQ(sawNested, nested);
}

unsigned countDots(Operation *op) {
  unsigned dots = 0;
  op->walk([&](stablehlo::DotGeneralOp) { ++dots; });
  return dots;
}

/// A training step's two loops: the backward body pulls the cotangent back
/// through each of the layer's k dot_generals (2 k: both operands need
/// one) and recomputes none of them; with --remat it also recomputes all
/// but the last (the MLP's down projection, whose output the backward pass
/// does not read).
void checkBackwardDots(ModuleOp module, bool remat) {
  SmallVector<stablehlo::WhileOp> loops;
  module.walk([&](stablehlo::WhileOp loop) { loops.push_back(loop); });
  ASSERT_EQ(loops.size(), 2u);
  unsigned forward = countDots(loops[0]), backward = countDots(loops[1]);
  EXPECT_GT(forward, 0u);
  EXPECT_EQ(backward, 2 * forward + (remat ? forward - 1 : 0));
}

TEST_P(ScanTest, MatchesUnrolled) {
  const ScanCase &c = GetParam();
  OwningOpRef<ModuleOp> unrolled = build(false), scanned = build(true);
  ASSERT_TRUE(unrolled && scanned);
  auto funcU = unrolled->lookupSymbol<func::FuncOp>("main");
  auto funcS = scanned->lookupSymbol<func::FuncOp>("main");
  checkLoops(*scanned, c.whiles, c.nested);
  bool training = c.model != StringRef("itx") && !c.inference;
  if (training)
    checkBackwardDots(*scanned, c.remat);

  // Scanned arguments: no per-layer names; stacked ones lead with [L].
  for (auto [type, name] :
       llvm::zip_equal(funcS.getArgumentTypes(), argumentNames(funcS))) {
    EXPECT_FALSE(stackedName(name)) << name;
    if (StringRef(name).contains(".layers.")) {
      EXPECT_EQ(cast<RankedTensorType>(type).getDimSize(0), kLayers) << name;
    }
  }

  // The unrolled inputs, and the same values stacked for the scanned model.
  SmallVector<Tensor> inputsU = makeInputs(funcU);
  NamedValues namedInputs(argumentNames(funcU), inputsU);
  SmallVector<Tensor> inputsS;
  for (auto [type, name] :
       llvm::zip_equal(funcS.getArgumentTypes(), argumentNames(funcS))) {
    std::optional<Tensor> t =
        namedInputs.get(name, cast<RankedTensorType>(type));
    ASSERT_TRUE(t) << "no unrolled argument(s) for " << name;
    inputsS.push_back(*t);
  }
  ASSERT_EQ(namedInputs.size(), inputsU.size());

  interp::Interpreter interpU(*unrolled), interpS(*scanned);
  auto resultsU = interpU.runFunction("main", inputsU);
  auto resultsS = interpS.runFunction("main", inputsS);
  ASSERT_TRUE(succeeded(resultsU) && succeeded(resultsS));

  // Every unrolled result, stacked by name, against the scanned one.
  NamedValues expected(resultNames(funcU), *resultsU);
  ASSERT_EQ(expected.size(), resultsU->size());
  size_t compared = 0;
  double maxError = 0.0;
  for (auto [actual, name] : llvm::zip_equal(*resultsS, resultNames(funcS))) {
    std::optional<Tensor> want = expected.get(name, actual.getType());
    ASSERT_TRUE(want) << "no unrolled result(s) for " << name;
    ASSERT_EQ(want->getNumElements(), actual.getNumElements()) << name;
    for (int64_t i = 0; i < actual.getNumElements(); ++i) {
      double a = actual.getAsDouble(i), w = want->getAsDouble(i);
      ASSERT_TRUE(std::isfinite(w)) << name << "[" << i << "]";
      double error = std::abs(a - w) / std::max(1.0, std::abs(w));
      maxError = std::max(maxError, error);
      EXPECT_LE(error, 1e-12) << name << "[" << i << "]: " << a << " vs " << w;
    }
    compared += StringRef(name).contains(".layers.") ? kLayers : 1;
  }
  EXPECT_EQ(compared, resultsU->size());
  RecordProperty("max_relative_error", llvm::formatv("{0:e}", maxError).str());
}

const std::vector<std::pair<const char *, int64_t>> kTiny = {
    {"layers", kLayers}, {"batch", 2},    {"seq", 4},        {"d-model", 8},
    {"heads", 2},        {"key-size", 4}, {"vocab", kVocab}, {"hidden", 6}};

std::vector<std::pair<const char *, int64_t>> withDecodeSteps(int64_t steps) {
  auto ints = kTiny;
  ints.push_back({"decode-steps", steps});
  return ints;
}

/// The training cases in both backward forms: default, then --remat.
std::vector<ScanCase> bothForms(std::vector<ScanCase> cases) {
  std::vector<ScanCase> all;
  for (ScanCase c : cases) {
    all.push_back(c);
    c.remat = true;
    all.push_back(c);
  }
  return all;
}

std::vector<ScanCase> allCases() {
  std::vector<ScanCase> cases = bothForms({
      // LayerNorm, fused qkv, one-hot embedding: forward + backward while.
      ScanCase{"t32_train", "t32", kTiny, false, false, 2, false},
      // Gemma: RMSNorm, multi-query, gather embedding, final norm.
      ScanCase{"t2b_train", "t2b", kTiny, false, false, 2, false},
      ScanCase{"t7b_gradients", "t7b", kTiny, false, true, 2, false},
  });
  cases.insert(
      cases.end(),
      {ScanCase{"transformer_inference", "transformer", kTiny, true, false, 1,
                false},
       ScanCase{"t2b_inference", "t2b", kTiny, true, false, 1, false},
       // Prefill while, then the decode step's layer while.
       ScanCase{"itx_decode1", "itx", withDecodeSteps(1), false, false, 2,
                false},
       // Prefill while, then the decode while with the layer while nested.
       ScanCase{"itx_decode3", "itx", withDecodeSteps(3), false, false, 3,
                true}});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Tiny, ScanTest, ::testing::ValuesIn(allCases()),
                         [](const ::testing::TestParamInfo<ScanCase> &info) {
                           return caseName(info.param);
                         });

} // namespace
