//===- ModelsTest.cpp - Generated models: names and shapes ----------------===//
//
// For each tiny training step: every `params.X` argument has gradients of
// its type (the `params.X` result), `opt_state.mu.X` / `opt_state.nu.X`
// arguments and results of the same type, and the loss is an f32 scalar.
//
//===----------------------------------------------------------------------===//

#include "toast/Models/Models.h"

#include "toast/Dialect/StableHLO/IR/StablehloDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace toast;
using namespace toast::models;

namespace {

struct Case {
  const char *name;
  std::vector<std::pair<const char *, int64_t>> ints;
};

class ModelsTest : public ::testing::TestWithParam<Case> {
protected:
  ModelsTest() {
    ctx.loadDialect<stablehlo::StableHLODialect, func::FuncDialect>();
  }
  MLIRContext ctx;
};

TEST_P(ModelsTest, TrainStepSignature) {
  const Case &c = GetParam();
  ModelOptions options;
  for (auto &[k, v] : c.ints)
    options.ints[k] = v;
  std::string error;
  OwningOpRef<ModuleOp> module = buildModel(&ctx, c.name, options, error);
  ASSERT_TRUE(module) << error;
  auto func = module->lookupSymbol<func::FuncOp>("main");
  ASSERT_TRUE(func);

  llvm::StringMap<Type> args, results;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto name = func.getArgAttrOfType<StringAttr>(i, "partir.name");
    ASSERT_TRUE(name) << "argument " << i << " has no name";
    EXPECT_TRUE(args.try_emplace(name.getValue(), func.getArgumentTypes()[i])
                    .second)
        << "duplicate argument name " << name.getValue().str();
  }
  for (unsigned i = 0; i < func.getNumResults(); ++i) {
    auto name = func.getResultAttrOfType<StringAttr>(i, "jax.result_info");
    ASSERT_TRUE(name) << "result " << i << " has no name";
    results[name.getValue()] = func.getResultTypes()[i];
  }
  ASSERT_TRUE(results.count("loss"));
  EXPECT_EQ(results["loss"], RankedTensorType::get({}, Float32Type::get(&ctx)));
  unsigned numParams = 0;
  for (auto &entry : args) {
    StringRef name = entry.getKey();
    if (!name.consume_front("params."))
      continue;
    ++numParams;
    Type type = entry.getValue();
    for (std::string key : {"params." + name.str(), "opt_state.mu." + name.str(),
                            "opt_state.nu." + name.str()}) {
      ASSERT_TRUE(results.count(key)) << "no result " << key;
      EXPECT_EQ(results[key], type) << key;
      if (key.rfind("opt_state", 0) == 0) {
        ASSERT_TRUE(args.count(key)) << "no argument " << key;
        EXPECT_EQ(args[key], type) << key;
      }
    }
  }
  EXPECT_GT(numParams, 0u);
  // params.*, opt_state.mu.*, opt_state.nu.*, opt_state.step, then batch.*.
  unsigned numArgs = func.getNumArguments();
  unsigned numBatch = 0;
  for (unsigned i = 0; i < numArgs; ++i) {
    StringRef name =
        func.getArgAttrOfType<StringAttr>(i, "partir.name").getValue();
    if (name.starts_with("batch.")) {
      ++numBatch;
      EXPECT_GE(i, 3 * numParams + 1) << name.str() << " is not last";
    } else if (i < numParams) {
      EXPECT_TRUE(name.starts_with("params.")) << name.str();
    }
  }
  EXPECT_GT(numBatch, 0u);
  EXPECT_EQ(numArgs, 3 * numParams + 1 + numBatch);
  ModelStats stats = measureModel(*module);
  EXPECT_EQ(stats.parameterTensors, numParams);
}

const std::vector<std::pair<const char *, int64_t>> kTiny = {
    {"layers", 2}, {"batch", 2},    {"seq", 8},    {"d-model", 16},
    {"heads", 4},  {"key-size", 4}, {"vocab", 32}, {"hidden", 24}};

INSTANTIATE_TEST_SUITE_P(
    Tiny, ModelsTest,
    ::testing::Values(Case{"mlp", {{"batch", 4}, {"d-model", 8}, {"hidden", 16}}},
                      Case{"t32", kTiny}, Case{"t48", kTiny},
                      Case{"t2b", kTiny}, Case{"t7b", kTiny},
                      Case{"gns",
                           {{"nodes", 6},
                            {"edges", 10},
                            {"mp-steps", 2},
                            {"latent", 8},
                            {"hidden", 12},
                            {"mlp-layers", 1}}},
                      Case{"unet",
                           {{"batch", 2},
                            {"resolution", 8},
                            {"channels", 4},
                            {"heads", 2}}}),
    [](const ::testing::TestParamInfo<Case> &info) {
      return std::string(info.param.name);
    });

TEST(ModelsRegistry, UnknownNameAndBadOption) {
  MLIRContext ctx;
  ctx.loadDialect<stablehlo::StableHLODialect, func::FuncDialect>();
  std::string error;
  EXPECT_FALSE(buildModel(&ctx, "nope", {}, error));
  EXPECT_NE(error.find("unknown model 'nope'"), std::string::npos);
  ModelOptions options;
  options.ints["layers"] = -3;
  EXPECT_FALSE(buildModel(&ctx, "mlp", options, error));
  EXPECT_EQ(error, "--layers must be positive, got -3");
}

} // namespace
