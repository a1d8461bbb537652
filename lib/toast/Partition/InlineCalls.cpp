//===- InlineCalls.cpp - Inline calls before partitioning ----------------===//
//
// Propagation works within one function. Calls in the entry function and
// in the bodies of its loops and conditionals (JAX's scan bodies usually
// call a private function per layer) are inlined first (recursively,
// bounded), so that tilings flow through the helpers JAX and PyTorch
// exports call (`call @relu`, ...). The caller is told with a remark;
// callees stay in the module.
//
//===----------------------------------------------------------------------===//

#include "toast/Interfaces/ControlFlow.h"
#include "toast/Partition/Schedule.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;

namespace toast::partition {

/// Clones the callee body in front of the block after the call.
static void cloneCallee(OpBuilder &, Region *src, Block *,
                        Block *postInsertBlock, IRMapping &mapper,
                        bool shouldCloneInlinedRegion) {
  if (!shouldCloneInlinedRegion) {
    postInsertBlock->getParent()->getBlocks().splice(
        postInsertBlock->getIterator(), src->getBlocks());
    return;
  }
  src->cloneInto(postInsertBlock->getParent(), postInsertBlock->getIterator(),
                 mapper);
}

FailureOr<unsigned> inlineCalls(func::FuncOp func, unsigned maxRounds) {
  InlinerInterface interface(func.getContext());
  SymbolTableCollection symbols;
  unsigned inlined = 0;
  for (unsigned round = 0; round < maxRounds; ++round) {
    SmallVector<CallOpInterface> calls;
    // Calls in every partitionable block; calls in reduction bodies and
    // other opaque regions stay.
    walkProgram(func.getBody().front(), [&](Operation *op, const Scope &) {
      if (auto call = dyn_cast<CallOpInterface>(op))
        calls.push_back(call);
    });
    if (calls.empty())
      return inlined;
    bool changed = false;
    for (CallOpInterface call : calls) {
      auto callable = dyn_cast_or_null<CallableOpInterface>(
          call.resolveCallableInTable(&symbols));
      if (!callable || !callable.getCallableRegion() ||
          callable.getCallableRegion()->empty() ||
          callable.getOperation() == func.getOperation())
        continue;
      if (failed(inlineCall(interface, cloneCallee, call, callable,
                            callable.getCallableRegion())))
        continue;
      call->erase();
      ++inlined;
      changed = true;
    }
    if (!changed)
      return inlined;
  }
  return inlined;
}

} // namespace toast::partition
