//===- SpmdTest.cpp - Device-local programs on simulated devices ---------===//
//
// The two sharding readers agree on which device holds which tile, shards
// and results round-trip, and collectives combine in group order whatever
// the thread timing.
//
//===----------------------------------------------------------------------===//

#include "toast/Interpreter/Runner.h"
#include "toast/Interpreter/Spmd.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace toast::interp;

namespace {

class SpmdTest : public ::testing::Test {
protected:
  SpmdTest()
      : handler(&context, [this](Diagnostic &diag) {
          errors += diag.str() + "\n";
          return success();
        }) {
    DialectRegistry registry;
    registerInterpreterDialects(registry);
    context.appendDialectRegistry(registry);
  }

  /// Parses `source` and describes its @main.
  std::optional<SpmdProgram> analyze(StringRef source) {
    modules.push_back(parseSourceString<ModuleOp>(source, &context));
    if (!modules.back())
      return std::nullopt;
    auto func = modules.back()->lookupSymbol<func::FuncOp>("main");
    FailureOr<std::optional<SpmdProgram>> program = analyzeSpmdProgram(func);
    if (failed(program))
      return std::nullopt;
    return *program;
  }

  func::FuncOp mainOf(unsigned i) {
    return modules[i]->lookupSymbol<func::FuncOp>("main");
  }

  MLIRContext context;
  std::string errors;
  /// Collects every diagnostic in `errors`.
  ScopedDiagnosticHandler handler;
  SmallVector<OwningOpRef<ModuleOp>> modules;
};

// On {B:4, M:2}, [["M"], ["B"]] is the transposed iota
// {devices=[2,4]<=[4,2]T(1,0)} of --partir-export-stablehlo.
TEST_F(SpmdTest, PartirAndHloShardingsAgree) {
  auto partir = analyze(R"mlir(
    module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
      func.func @main(%x: tensor<4x2xf32> {partir.sharding = [["M"], ["B"]]},
                      %y: tensor<2x8xf32> {partir.sharding = [["B"], []]})
          -> tensor<2x8xf32> {
        return %y : tensor<2x8xf32>
      }
    })mlir");
  auto hlo = analyze(R"mlir(
    module attributes {mhlo.num_partitions = 8 : i32} {
      func.func @main(
          %x: tensor<4x2xf32> {toast.global_sharding = "{devices=[2,4]<=[4,2]T(1,0)}"},
          %y: tensor<2x8xf32> {toast.global_sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"})
          -> tensor<2x8xf32> {
        return %y : tensor<2x8xf32>
      }
    })mlir");
  ASSERT_TRUE(partir && hlo) << errors;
  EXPECT_EQ(partir->kind, SpmdProgram::Kind::PartIRHLO);
  EXPECT_EQ(hlo->kind, SpmdProgram::Kind::ExportedStableHLO);
  ASSERT_EQ(partir->numDevices, 8);
  ASSERT_EQ(hlo->numDevices, 8);
  for (unsigned a = 0; a < 2; ++a) {
    EXPECT_EQ(partir->args[a].tiles, hlo->args[a].tiles);
    EXPECT_EQ(partir->args[a].deviceTiles, hlo->args[a].deviceTiles);
  }
  // Device 5 = (B=2, M=1): row tile 1 (of M), column tile 2 (of B).
  EXPECT_EQ(partir->args[0].deviceTiles[5], (SmallVector<int64_t>{1, 2}));
  EXPECT_EQ(partir->globalType, hlo->globalType);
  EXPECT_EQ(cast<RankedTensorType>(partir->globalType.getInput(0)).getShape(),
            ArrayRef<int64_t>({8, 8}));
}

TEST_F(SpmdTest, GlobalProgramsAreNotSpmd) {
  modules.push_back(parseSourceString<ModuleOp>(R"mlir(
    module attributes {mhlo.num_partitions = 1 : i32} {
      func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
        return %x : tensor<2xf32>
      }
    })mlir",
                                                &context));
  FailureOr<std::optional<SpmdProgram>> program =
      analyzeSpmdProgram(mainOf(0));
  ASSERT_TRUE(succeeded(program));
  EXPECT_FALSE(program->has_value());
}

// In f32, (1e8 + 1) - 1e8 is 0 but (1e8 - 1e8) + 1 is 1: the all_reduce
// adds in group order (devices 0, 1, 2) on every run, whichever thread
// arrives first.
TEST_F(SpmdTest, AllReduceAddsInGroupOrder) {
  auto program = analyze(R"mlir(
    module attributes {partir.mesh = #partir.mesh<["d"=3]>} {
      func.func @main(%x: tensor<1xf32> {partir.sharding = [["d"]]})
          -> tensor<1xf32> {
        %r = partir_hlo.all_reduce "sum" ["d"] %x : tensor<1xf32>
        return %r : tensor<1xf32>
      }
    })mlir");
  ASSERT_TRUE(program) << errors;
  auto f32 = *ElementType::get(Float32Type::get(&context));
  Tensor x(f32, {3});
  x.setFloat(0, 1e8);
  x.setFloat(1, 1);
  x.setFloat(2, -1e8);
  for (int run = 0; run < 20; ++run) {
    FailureOr<SpmdRunReport> report = runSpmd(mainOf(0), *program, {x}, {});
    ASSERT_TRUE(succeeded(report)) << errors;
    EXPECT_EQ(report->results[0].getFloat(0), 0.0);
  }
}

TEST_F(SpmdTest, ShardsRoundTrip) {
  auto program = analyze(R"mlir(
    module attributes {partir.mesh = #partir.mesh<["a"=3, "b"=2]>} {
      func.func @main(%x: tensor<2x3xi32> {partir.sharding = [["a"], ["b"]]})
          -> (tensor<2x3xi32> {partir.sharding = [["a"], ["b"]]}) {
        return %x : tensor<2x3xi32>
      }
    })mlir");
  ASSERT_TRUE(program) << errors;
  auto i32 = *ElementType::get(IntegerType::get(&context, 32));
  Tensor x(i32, {6, 6});
  for (int64_t i = 0; i < 36; ++i)
    x.setInt(i, i);
  // Device 3 = (a=1, b=1) holds rows 2-3, columns 3-5.
  Tensor shard = extractShard(x, program->args[0], 3);
  EXPECT_EQ(shard.getInt(0), 2 * 6 + 3);
  EXPECT_EQ(shard.getInt(5), 3 * 6 + 5);
  FailureOr<SpmdRunReport> report = runSpmd(mainOf(0), *program, {x}, {});
  ASSERT_TRUE(succeeded(report)) << errors;
  for (int64_t i = 0; i < 36; ++i)
    EXPECT_EQ(report->results[0].getInt(i), i);
}

TEST_F(SpmdTest, NeedsAMultithreadedContext) {
  auto program = analyze(R"mlir(
    module attributes {partir.mesh = #partir.mesh<["d"=2]>} {
      func.func @main(%x: tensor<1xf32> {partir.sharding = [["d"]]})
          -> tensor<1xf32> {
        %r = partir_hlo.all_reduce "sum" ["d"] %x : tensor<1xf32>
        return %r : tensor<1xf32>
      }
    })mlir");
  ASSERT_TRUE(program) << errors;
  context.disableMultithreading();
  auto f32 = *ElementType::get(Float32Type::get(&context));
  FailureOr<SpmdRunReport> report =
      runSpmd(mainOf(0), *program, {Tensor(f32, {2})}, {});
  EXPECT_TRUE(failed(report));
  EXPECT_NE(errors.find("needs an MLIRContext with multithreading enabled"),
            std::string::npos)
      << errors;
}

} // namespace
