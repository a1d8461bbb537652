//===- GradientCheckTest.cpp - Finite differences through the interpreter -===//
//
// Generates tiny models with `gradients = true` (results: loss, grad.*),
// runs them in the reference interpreter on random inputs, and compares, for
// each parameter tensor p and a random direction v, the directional
// derivative <grad_p, v> with the central difference
// (L(p + eps v) - L(p - eps v)) / (2 eps), in f64.
//
//===----------------------------------------------------------------------===//

#include "toast/Interpreter/Interpreter.h"
#include "toast/Models/Models.h"

#include "toast/Dialect/StableHLO/IR/StablehloDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace mlir;
using namespace toast;
using namespace toast::models;
using toast::interp::Tensor;

namespace {

struct GradCase {
  const char *name;
  std::vector<std::pair<const char *, int64_t>> ints;
  /// Exclusive upper bound of integer inputs (token ids, node indices).
  int64_t maxIndex;
};

class GradientCheckTest : public ::testing::TestWithParam<GradCase> {
protected:
  GradientCheckTest() {
    ctx.loadDialect<stablehlo::StableHLODialect, func::FuncDialect>();
  }

  /// Random inputs for every argument of @main.
  SmallVector<Tensor> makeInputs(func::FuncOp func, int64_t maxIndex) {
    SmallVector<Tensor> inputs;
    std::uniform_real_distribution<double> uniform(-0.5, 0.5);
    std::uniform_int_distribution<int64_t> index(0, maxIndex - 1);
    for (Type type : func.getArgumentTypes()) {
      Tensor t(cast<RankedTensorType>(type));
      for (int64_t i = 0; i < t.getNumElements(); ++i) {
        if (t.getElementType().isFloat())
          t.setFloat(i, uniform(rng));
        else
          t.setInt(i, index(rng));
      }
      t.normalize();
      inputs.push_back(t);
    }
    return inputs;
  }

  double loss(interp::Interpreter &interp, ArrayRef<Tensor> inputs) {
    auto results = interp.runFunction("main", inputs);
    EXPECT_TRUE(succeeded(results));
    if (failed(results))
      return NAN;
    return (*results)[0].getAsDouble(0);
  }

  MLIRContext ctx;
  std::mt19937 rng{1234};
};

TEST_P(GradientCheckTest, DirectionalDerivatives) {
  const GradCase &c = GetParam();
  ModelOptions options;
  options.gradients = true;
  // f64 throughout, so that finite differences are exact to ~1e-9.
  options.dtype = "f64";
  for (auto &[k, v] : c.ints)
    options.ints[k] = v;
  std::string error;
  OwningOpRef<ModuleOp> module = buildModel(&ctx, c.name, options, error);
  ASSERT_TRUE(module) << error;
  auto func = module->lookupSymbol<func::FuncOp>("main");
  ASSERT_TRUE(func);

  SmallVector<Tensor> inputs = makeInputs(func, c.maxIndex);
  interp::Interpreter interp(*module);
  auto results = interp.runFunction("main", inputs);
  ASSERT_TRUE(succeeded(results));
  double base = (*results)[0].getAsDouble(0);
  ASSERT_TRUE(std::isfinite(base));

  // Result i (after the loss) is grad.<path> of argument params.<path>.
  unsigned checked = 0;
  for (unsigned r = 1; r < func.getNumResults(); ++r) {
    StringRef name =
        func.getResultAttrOfType<StringAttr>(r, "jax.result_info").getValue();
    ASSERT_TRUE(name.consume_front("grad.")) << name.str();
    unsigned arg = 0;
    while (func.getArgAttrOfType<StringAttr>(arg, "partir.name").getValue() !=
           ("params." + name).str())
      ++arg;
    const Tensor &grad = (*results)[r];
    const Tensor &param = inputs[arg];
    std::normal_distribution<double> normal;
    Tensor direction = param;
    double predicted = 0.0;
    for (int64_t i = 0; i < direction.getNumElements(); ++i) {
      double v = normal(rng);
      direction.setFloat(i, v);
      predicted += grad.getAsDouble(i) * v;
    }
    // Central difference, eps relative to the direction's scale.
    double eps = 1e-5 / std::sqrt(double(direction.getNumElements()));
    auto shifted = [&](double sign) {
      SmallVector<Tensor> in(inputs);
      Tensor p = param;
      for (int64_t i = 0; i < p.getNumElements(); ++i)
        p.setFloat(i, param.getFloat(i) + sign * eps * direction.getFloat(i));
      p.normalize();
      in[arg] = p;
      return loss(interp, in);
    };
    double numeric = (shifted(1.0) - shifted(-1.0)) / (2 * eps);
    double tolerance =
        1e-6 * std::max(std::abs(numeric), std::abs(predicted)) + 1e-8;
    EXPECT_NEAR(predicted, numeric, tolerance)
        << c.name << ": gradient of params." << name.str();
    ++checked;
  }
  EXPECT_GT(checked, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Tiny, GradientCheckTest,
    ::testing::Values(
        GradCase{"mlp", {{"batch", 3}, {"d-model", 4}, {"hidden", 5}}, 1},
        GradCase{"t32",
                 {{"layers", 1}, {"batch", 2}, {"seq", 4}, {"d-model", 8},
                  {"heads", 2}, {"key-size", 4}, {"vocab", 11}, {"hidden", 6}},
                 11},
        GradCase{"t2b",
                 {{"layers", 1}, {"batch", 2}, {"seq", 4}, {"d-model", 8},
                  {"heads", 2}, {"key-size", 4}, {"vocab", 11}, {"hidden", 6}},
                 11},
        GradCase{"gns",
                 {{"nodes", 5}, {"edges", 7}, {"mp-steps", 1}, {"latent", 4},
                  {"hidden", 6}, {"mlp-layers", 1}},
                 5},
        GradCase{"unet",
                 {{"batch", 1}, {"resolution", 4}, {"channels", 2},
                  {"heads", 2}},
                 1}),
    [](const ::testing::TestParamInfo<GradCase> &info) {
      return std::string(info.param.name);
    });

} // namespace
