//===- StablehloShardingRules.cpp - Registry entry point ------------------===//
//
// registerStablehloShardingRules and the helpers every family shares. The
// rules themselves live in one file per op family:
//
//   ElementwiseRules.cpp    unary/binary/ternary StableHLO ops, map
//   ChloRules.cpp           every CHLO op (elementwise and top_k)
//   ShapeRules.cpp          constant, iota, broadcasts, transpose, reshape,
//                           concatenate, slices, pad, reverse, sort,
//                           get_dimension_size, tuples
//   GatherScatterRules.cpp  gather, scatter and torch_index_select
//   ComputeRules.cpp        dot, dot_general, einsums, convolution,
//                           reductions, batch norms, linear algebra, fft,
//                           rng, rng_bit_generator
//   ControlRules.cpp        while/case/if, custom_call, composite,
//                           optimization_barrier, device ids, collectives,
//                           tokens and transfers
//
//===----------------------------------------------------------------------===//

#include "toast/Interfaces/StablehloShardingRules.h"

#include "RuleModels.h"

#include "mlir/IR/DialectRegistry.h"
#include "toast/Dialect/CHLO/IR/ChloOps.h"
#include "toast/Dialect/StableHLO/IR/StablehloDialect.h"

using namespace mlir;

namespace toast::rules {

bool hasStaticTensorShapes(Operation *op) {
  auto isStatic = [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return !tensor || tensor.hasStaticShape();
  };
  return llvm::all_of(op->getOperandTypes(), isStatic) &&
         llvm::all_of(op->getResultTypes(), isStatic);
}

void addDimwiseFactors(
    ShardingRuleBuilder &builder, Operation *op, ArrayRef<unsigned> operands,
    ArrayRef<unsigned> results, int64_t rank,
    llvm::function_ref<std::optional<FactorKind>(int64_t)> kindOf,
    llvm::function_ref<int64_t(int64_t)> sizeOf) {
  for (int64_t d = 0; d < rank; ++d) {
    std::optional<FactorKind> kind = kindOf(d);
    if (!kind)
      continue;
    SmallVector<int64_t> operandDims = noDims(op->getNumOperands());
    SmallVector<int64_t> resultDims = noDims(op->getNumResults());
    for (unsigned i : operands)
      operandDims[i] = d;
    for (unsigned i : results)
      resultDims[i] = d;
    builder.addFactor(operandDims, resultDims, sizeOf(d), *kind);
  }
}

} // namespace toast::rules

void toast::registerStablehloShardingRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, stablehlo::StableHLODialect *) {
    rules::attachElementwiseRules(*ctx);
    rules::attachShapeRules(*ctx);
    rules::attachGatherScatterRules(*ctx);
    rules::attachComputeRules(*ctx);
    rules::attachControlRules(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, chlo::CHLODialect *) {
    rules::attachChloRules(*ctx);
  });
}
