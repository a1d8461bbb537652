//===- SdyDialect.cpp - Minimal sdy dialect, ops and attr verifiers -------===//
//
// The dialect, `sdy.mesh`, `sdy.sharding_constraint`, and the verifiers of
// the `sdy.sharding` attribute on function arguments, results and ops.
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/Sdy/IR/Sdy.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace toast::sdy;

#include "toast/Dialect/Sdy/IR/SdyDialect.cpp.inc"

#define GET_OP_CLASSES
#include "toast/Dialect/Sdy/IR/SdyOps.cpp.inc"

namespace {
/// A function holding sdy ops (a shard_map region, a sharding constraint,
/// a collective) may be inlined into its caller: they read values and mesh
/// symbols only, which the module's other functions see alike. Partitioning
/// inlines calls before it propagates (InlineCalls.cpp); without this, a
/// shard_map in a called function stayed behind a call that the analytic
/// cost prices as free and the planned emitter does not enter.
struct SdyInlinerInterface : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void SdyDialect::initialize() {
  addInterfaces<SdyInlinerInterface>();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "toast/Dialect/Sdy/IR/SdyOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Discardable attributes
//===----------------------------------------------------------------------===//

/// `sdy.sharding` on a function argument or result: a tensor sharding valid
/// for `type`. Other `sdy.*` attributes are not checked.
static LogicalResult verifyValueSharding(Operation *op, NamedAttribute attr,
                                         Type type, StringRef what,
                                         unsigned index) {
  if (attr.getName() != SdyDialect::kShardingAttrName)
    return success();
  auto sharding = dyn_cast<TensorShardingAttr>(attr.getValue());
  if (!sharding)
    return op->emitOpError()
           << what << " " << index << ": '" << attr.getName().getValue()
           << "' must be a #sdy.sharding attribute";
  return sharding.verifyFor(type, op, [&] {
    return op->emitOpError() << what << " " << index << ": ";
  });
}

LogicalResult SdyDialect::verifyRegionArgAttribute(Operation *op,
                                                   unsigned regionIndex,
                                                   unsigned argIndex,
                                                   NamedAttribute attr) {
  Type type;
  if (auto func = dyn_cast<FunctionOpInterface>(op))
    type = func.getArgumentTypes()[argIndex];
  else
    type = op->getRegion(regionIndex).getArgument(argIndex).getType();
  return verifyValueSharding(op, attr, type, "argument", argIndex);
}

LogicalResult SdyDialect::verifyRegionResultAttribute(Operation *op,
                                                      unsigned regionIndex,
                                                      unsigned resultIndex,
                                                      NamedAttribute attr) {
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func)
    return success();
  return verifyValueSharding(op, attr, func.getResultTypes()[resultIndex],
                             "result", resultIndex);
}

LogicalResult SdyDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  if (attr.getName() != kShardingAttrName)
    return success();
  auto perValue = dyn_cast<TensorShardingPerValueAttr>(attr.getValue());
  if (!perValue)
    return op->emitOpError() << "'" << attr.getName().getValue()
                             << "' must be a #sdy.sharding_per_value "
                                "attribute";
  if (perValue.getShardings().size() != op->getNumResults())
    return op->emitOpError()
           << "has " << op->getNumResults() << " results but '"
           << attr.getName().getValue() << "' has "
           << perValue.getShardings().size() << " shardings";
  for (auto [i, sharding] : llvm::enumerate(perValue.getShardings()))
    if (failed(sharding.verifyFor(op->getResult(i).getType(), op, [&] {
          return op->emitOpError() << "result " << i << ": ";
        })))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

LogicalResult ShardingConstraintOp::verifySymbolUses(SymbolTableCollection &) {
  return getSharding().verifyFor(getType(), *this,
                                 [&] { return emitOpError(); });
}
