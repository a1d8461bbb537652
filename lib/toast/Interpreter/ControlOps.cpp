//===- ControlOps.cpp - Calls, control flow and checks --------------------===//
//
// func.call, stablehlo.while/case/if, optimization_barrier, composite,
// and custom_call (partition_id/replica_id are in CollectiveOps.cpp): the
// `check.expect_eq`, `check.expect_close` and `check.expect_almost_eq` targets
// compare their two operands (actual, expected); `Sharding`, `MoveToHost` and
// `MoveToDevice` are identities; any other target is unsupported.
//
// Tuples and tokens: tuple and get_tuple_element build and take apart tuple
// values, after_all and create_token make tokens. infeed, outfeed, send and
// recv talk to a host or a device the interpreter does not have: they are
// reported as unsupported.
//
//===----------------------------------------------------------------------===//

#include "OpImpl.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"
#include "toast/Interpreter/Compare.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace toast::interp;
using namespace toast::interp::detail;
namespace hlo = toast::stablehlo;

namespace {

LogicalResult appendAll(FailureOr<SmallVector<Tensor>> values,
                        SmallVectorImpl<Tensor> &results) {
  if (failed(values))
    return failure();
  results.append(values->begin(), values->end());
  return success();
}

LogicalResult evalCall(Interpreter &interp, Operation *op,
                       ArrayRef<Tensor> operands,
                       SmallVectorImpl<Tensor> &results) {
  auto call = cast<func::CallOp>(op);
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      op, call.getCalleeAttr());
  if (!callee)
    return op->emitError("toast-run: no function named @") << call.getCallee();
  return appendAll(interp.callFunction(callee, operands, op), results);
}

LogicalResult evalComposite(Interpreter &interp, Operation *op,
                            ArrayRef<Tensor> operands,
                            SmallVectorImpl<Tensor> &results) {
  auto composite = cast<hlo::CompositeOp>(op);
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      op, composite.getDecompositionAttr());
  if (!callee)
    return op->emitError("toast-run: no decomposition function @")
           << composite.getDecomposition();
  return appendAll(interp.callFunction(callee, operands, op), results);
}

LogicalResult evalWhile(Interpreter &interp, Operation *op,
                        ArrayRef<Tensor> operands,
                        SmallVectorImpl<Tensor> &results) {
  auto loop = cast<hlo::WhileOp>(op);
  SmallVector<Tensor> values(operands.begin(), operands.end());
  int64_t limit = interp.getOptions().maxWhileIterations;
  for (int64_t iteration = 0;; ++iteration) {
    if (limit > 0 && iteration >= limit)
      return op->emitError("toast-run: while loop exceeded ")
             << limit << " iterations (--max-while-iterations; 0: no limit)";
    SmallVector<Tensor, 1> cond;
    if (failed(interp.runRegion(loop.getCond(), values, cond)))
      return failure();
    if (cond.size() != 1 || !cond[0].isValid() ||
        !cond[0].getElementType().isBool() || cond[0].getNumElements() != 1)
      return op->emitError("toast-run: while condition must yield one "
                           "tensor<i1>");
    if (!cond[0].getBool(0))
      break;
    SmallVector<Tensor> next;
    if (failed(interp.runRegion(loop.getBody(), values, next)))
      return failure();
    values = std::move(next);
  }
  results.append(values.begin(), values.end());
  return success();
}

LogicalResult evalCase(Interpreter &interp, Operation *op,
                       ArrayRef<Tensor> operands,
                       SmallVectorImpl<Tensor> &results) {
  auto caseOp = cast<hlo::CaseOp>(op);
  int64_t numBranches = caseOp.getBranches().size();
  int64_t index = operands[0].getInt(0);
  if (index < 0 || index >= numBranches)
    index = numBranches - 1;
  return interp.runRegion(caseOp.getBranches()[index], {}, results);
}

LogicalResult evalIf(Interpreter &interp, Operation *op,
                     ArrayRef<Tensor> operands,
                     SmallVectorImpl<Tensor> &results) {
  auto ifOp = cast<hlo::IfOp>(op);
  Region &branch =
      operands[0].getBool(0) ? ifOp.getTrueBranch() : ifOp.getFalseBranch();
  return interp.runRegion(branch, {}, results);
}

LogicalResult evalIdentity(Interpreter &, Operation *,
                           ArrayRef<Tensor> operands,
                           SmallVectorImpl<Tensor> &results) {
  results.append(operands.begin(), operands.end());
  return success();
}

//===--- custom_call -----------------------------------------------------===//

LogicalResult evalCheck(Interpreter &interp, Operation *op, CheckKind kind,
                        ArrayRef<Tensor> operands) {
  StringRef target = cast<hlo::CustomCallOp>(op).getCallTargetName();
  if (operands.size() != 2 || op->getNumResults() != 0)
    return op->emitError("toast-run: malformed check: @")
           << target << " takes two tensors (actual, expected) and has no "
           << "results, got " << operands.size() << " operands and "
           << op->getNumResults() << " results";
  const Tensor &actual = operands[0], &expected = operands[1];
  if (!actual.isValid() || !expected.isValid() ||
      actual.getType() != expected.getType())
    return op->emitError("toast-run: malformed check: @")
           << target << " compares " << op->getOperand(0).getType() << " with "
           << op->getOperand(1).getType() << " (the types must be equal)";
  Tolerance tol = getCheckTolerance(kind, actual.getElementType());
  Mismatch mismatch =
      compareTensors(actual, expected, tol, kind == CheckKind::Eq);
  interp.recordCheck(mismatch.count == 0);
  if (mismatch.count == 0) {
    if (interp.getOptions().reportCheckErrors && kind != CheckKind::Eq &&
        actual.getElementType().isFloatLike()) {
      ErrorStats stats = computeErrorStats(actual, expected, tol);
      op->emitRemark() << "check passed: @" << target << " on "
                       << actual.getType() << ": max abs error "
                       << stats.maxAbsError << ", max rel error "
                       << stats.maxRelError;
    }
    return success();
  }
  int64_t i = mismatch.firstIndex;
  InFlightDiagnostic diag = op->emitError();
  diag << "check failed: @" << target << ": " << mismatch.count << " of "
       << actual.getNumElements() << " elements differ; first at index "
       << actual.formatIndex(i) << ": actual " << actual.formatElement(i)
       << ", expected " << expected.formatElement(i);
  if (kind != CheckKind::Eq && !actual.getElementType().isIntegerLike())
    diag << " (atol " << tol.atol << ", rtol " << tol.rtol << ")";
  // A failed check does not stop evaluation: the caller counts failures.
  return success();
}

LogicalResult evalCustomCall(Interpreter &interp, Operation *op,
                             ArrayRef<Tensor> operands,
                             SmallVectorImpl<Tensor> &results) {
  auto call = cast<hlo::CustomCallOp>(op);
  StringRef target = call.getCallTargetName();
  std::optional<CheckKind> kind =
      llvm::StringSwitch<std::optional<CheckKind>>(target)
          .Case("check.expect_eq", CheckKind::Eq)
          .Case("check.expect_close", CheckKind::Close)
          .Case("check.expect_almost_eq", CheckKind::AlmostEq)
          .Default(std::nullopt);
  if (!kind) {
    // Sharding annotations, markers and host-offloading calls return their
    // operand unchanged (in the global program's semantics).
    if (call.isIdentity()) {
      results.push_back(operands[0]);
      return success();
    }
    return op->emitError("toast-run: unsupported custom_call target @")
           << target;
  }
  return evalCheck(interp, op, *kind, operands);
}
//===--- Tuples and tokens -----------------------------------------------===//

LogicalResult evalTuple(Interpreter &, Operation *op, ArrayRef<Tensor> operands,
                        SmallVectorImpl<Tensor> &results) {
  results.push_back(
      Tensor::makeTuple(cast<TupleType>(op->getResult(0).getType()), operands));
  return success();
}

LogicalResult evalGetTupleElement(Interpreter &, Operation *op,
                                  ArrayRef<Tensor> operands,
                                  SmallVectorImpl<Tensor> &results) {
  int64_t index = cast<hlo::GetTupleElementOp>(op).getIndexAttr().getInt();
  results.push_back(operands[0].getTupleElements()[index]);
  return success();
}

LogicalResult evalToken(Interpreter &, Operation *op, ArrayRef<Tensor>,
                        SmallVectorImpl<Tensor> &results) {
  results.push_back(Tensor::makeToken(op->getResult(0).getType()));
  return success();
}

LogicalResult evalTransfer(Interpreter &, Operation *op, ArrayRef<Tensor>,
                           SmallVectorImpl<Tensor> &) {
  return op->emitError("toast-run: '")
         << op->getName()
         << "' is unsupported in the interpreter (it transfers data to or "
            "from a host or another program)";
}
} // namespace

void toast::interp::detail::registerControlOps(OpRegistry &r) {
  r.add("stablehlo.tuple", evalTuple);
  r.add("stablehlo.get_tuple_element", evalGetTupleElement);
  r.add("stablehlo.after_all", evalToken);
  r.add("stablehlo.create_token", evalToken);
  for (StringRef transfer : {"stablehlo.infeed", "stablehlo.outfeed",
                             "stablehlo.send", "stablehlo.recv"})
    r.add(transfer, evalTransfer);
  r.add("func.call", evalCall);
  r.add("stablehlo.composite", evalComposite);
  r.add("stablehlo.while", evalWhile);
  r.add("stablehlo.case", evalCase);
  r.add("stablehlo.if", evalIf);
  r.add("stablehlo.optimization_barrier", evalIdentity);
  r.add("stablehlo.custom_call", evalCustomCall);
}
