//===- ValueNamesTest.cpp - Names of values in the user's terms -----------===//

#include "toast/Interfaces/ValueNames.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace toast;

namespace {

TEST(ValueNames, ArgumentsByExporterAttributesThenLocationsThenNumbers) {
  MLIRContext ctx;
  ctx.loadDialect<func::FuncDialect>();
  const char *source = R"mlir(
    func.func @f(%a: tensor<2xf32> {partir.name = "batch.x",
                                    jax.arg_info = "inputs['x']"},
                 %b: tensor<2xf32> {jax.arg_info = "params['w1']"},
                 %c: tensor<2xf32> {tf.name = "dense/kernel"},
                 %d: tensor<2xf32> loc("fc2.weight"),
                 %e: tensor<2xf32>)
        -> (tensor<2xf32> {jax.result_info = "loss"}, tensor<2xf32>) {
      return %a, %b : tensor<2xf32>, tensor<2xf32>
    }
  )mlir";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &ctx);
  ASSERT_TRUE(module);
  auto func = cast<func::FuncOp>(module->getBody()->front());
  EXPECT_EQ(getArgumentDisplayName(func, 0), "batch.x");
  ASSERT_EQ(getArgumentNames(func, 0).size(), 2u);
  EXPECT_EQ(getArgumentNames(func, 0)[1], "inputs['x']");
  EXPECT_EQ(getArgumentDisplayName(func, 1), "params['w1']");
  EXPECT_EQ(getArgumentDisplayName(func, 2), "dense/kernel");
  EXPECT_EQ(getArgumentDisplayName(func, 3), "fc2.weight");
  EXPECT_TRUE(getArgumentNames(func, 3).empty());
  EXPECT_EQ(getArgumentDisplayName(func, 4), "arg4");
  EXPECT_EQ(getResultName(func, 0), "loss");
  EXPECT_EQ(getResultName(func, 1), "");
}

TEST(ValueNames, UpdatedArgumentsByAliasingThenByName) {
  MLIRContext ctx;
  ctx.loadDialect<func::FuncDialect>();
  const char *source = R"mlir(
    func.func @f(%w: tensor<2xf32> {jax.arg_info = "params.w"},
                 %m: tensor<2xf32> {tf.aliasing_output = 2 : i32},
                 %b: tensor<3xf32> {jax.arg_info = "params.b"},
                 %x: tensor<2xf32> {jax.arg_info = "x"},
                 %y: tensor<2xf32> {jax.arg_info = "x"},
                 %z: tensor<2xf32> {tf.aliasing_output = 7 : i32},
                 %n: tensor<2xf32> {tf.aliasing_output = -1 : i32})
        -> (tensor<2xf32> {jax.result_info = "params.w"},
            tensor<2xf32> {jax.result_info = "params.b"},
            tensor<2xf32>,
            tensor<2xf32> {jax.result_info = "x"},
            tensor<2xf32> {jax.result_info = "loss"}) {
      return %w, %w, %m, %x, %x
          : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>,
            tensor<2xf32>
    }
  )mlir";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &ctx);
  ASSERT_TRUE(module);
  auto func = cast<func::FuncOp>(module->getBody()->front());
  std::vector<std::optional<unsigned>> updated = getUpdatedArguments(func);
  ASSERT_EQ(updated.size(), 5u);
  EXPECT_EQ(updated[0], 0u);
  // The name's argument has another type: no update of it.
  EXPECT_EQ(updated[1], std::nullopt);
  EXPECT_EQ(updated[2], 1u);
  // Two arguments carry the name: neither is known to be the one.
  EXPECT_EQ(updated[3], std::nullopt);
  // Aliases of results the function lacks (7, -1) pair nothing.
  EXPECT_EQ(updated[4], std::nullopt);
}

} // namespace
