//===- Fusion.cpp - The default fusion model (XLA-like) -------------------===//

#include "toast/Simulator/Fusion.h"

#include "toast/Dialect/PartIR/HLO/IR/PartIRHLO.h"
#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
namespace hlo = toast::stablehlo;
namespace phlo = toast::partir_hlo;

toast::sim::FusionKind toast::sim::getFusionKind(Operation *op) {
  if (op->getNumResults() != 1 && !isa<hlo::ReduceOp>(op))
    return FusionKind::Opaque;
  if (op->hasTrait<OpTrait::Elementwise>() ||
      isa<hlo::SelectOp, hlo::ClampOp>(op))
    return FusionKind::Elementwise;
  if (isa<hlo::BroadcastInDimOp, hlo::BroadcastOp, hlo::ReshapeOp,
          hlo::TransposeOp, hlo::SliceOp, hlo::ConcatenateOp, hlo::PadOp,
          hlo::ReverseOp, hlo::BitcastConvertOp, hlo::IotaOp>(op))
    return FusionKind::Movement;
  // A marker (CustomCallOp::isMarker) is a reshape to its own shape.
  if (auto call = dyn_cast<hlo::CustomCallOp>(op); call && call.isMarker())
    return FusionKind::Movement;
  // A splat constant of more than one element is a broadcast of a scalar
  // (XLA's simplifier rewrites it so), computed where it is read.
  if (auto constant = dyn_cast<hlo::ConstantOp>(op))
    if (constant.getValue().isSplat() &&
        cast<ShapedType>(constant.getType()).getNumElements() > 1)
      return FusionKind::Movement;
  if (isa<hlo::ReduceOp>(op))
    return FusionKind::Reduce;
  // An even chunk of a splat is a smaller splat (phlo::getSlicedSplat),
  // fused as above; of one element, it is stored like any other slice.
  if (auto slice = dyn_cast<phlo::AllSliceOp>(op))
    return slice.getType().getNumElements() > 1 && phlo::getSlicedSplat(slice)
               ? FusionKind::Movement
               : FusionKind::Slice;
  return FusionKind::Opaque;
}

bool toast::sim::isExpensiveToDuplicate(Operation *op) {
  // XLA's list of ops not worth computing twice (transcendentals, division
  // and powers); everything else a loop fusion reads is cheap next to the
  // memory traffic it saves.
  return isa<hlo::ExpOp, hlo::Expm1Op, hlo::LogOp, hlo::Log1pOp,
             hlo::LogisticOp, hlo::TanhOp, hlo::SqrtOp, hlo::RsqrtOp,
             hlo::CbrtOp, hlo::PowOp, hlo::DivOp, hlo::RemOp, hlo::Atan2Op,
             hlo::SineOp, hlo::CosineOp, hlo::TanOp>(op);
}

bool toast::sim::isFusedIntoReaders(Operation *producer, int64_t elements,
                                    ArrayRef<FusionReader> readers,
                                    function_ref<double()> inputBytes,
                                    double resultBytes) {
  if (producer->getNumResults() != 1)
    return false;
  FusionKind kind = getFusionKind(producer);
  if (kind == FusionKind::Opaque)
    return false;
  SmallVector<FusionReader, 4> kinded(readers);
  for (FusionReader &reader : kinded)
    reader.kind = reader.op ? getFusionKind(reader.op) : FusionKind::Opaque;
  return isFusedIntoReadersByKind(kind, isExpensiveToDuplicate(producer),
                                  elements, kinded, inputBytes, resultBytes);
}

bool toast::sim::isFusedIntoReadersByKind(FusionKind kind, bool expensive,
                                          int64_t elements,
                                          ArrayRef<FusionReader> readers,
                                          function_ref<double()> inputBytes,
                                          double resultBytes) {
  // A slice's fusion is the one that writes it (XLA's dynamic-slice).
  if (kind == FusionKind::Opaque || kind == FusionKind::Slice ||
      readers.empty())
    return false;
  for (const FusionReader &reader : readers)
    if ((!reader.op && !reader.key) || reader.kind == FusionKind::Opaque)
      return false;
  if (kind == FusionKind::Reduce)
    return readers.size() == 1 && readers[0].kind == FusionKind::Elementwise &&
           readers[0].resultElements == elements;
  llvm::SmallPtrSet<const void *, 4> ops;
  for (const FusionReader &reader : readers)
    ops.insert(reader.key ? reader.key : reader.op);
  double n = static_cast<double>(ops.size());
  // Duplicated into n fusions, its inputs are read n times; stored, they
  // are read once, the result written once and read n times. XLA
  // duplicates only when that moves no more bytes.
  return n == 1 ||
         (!expensive && (n - 1) * inputBytes() <= (n + 1) * resultBytes);
}

bool toast::sim::isFreeOp(Operation *op, bool fusion) {
  // Any constant, not only StableHLO's: torch-mlir exports keep scalar
  // arith.constant ops, which a compiler folds like any other constant
  // (the analytic cost models every constant-like op as a constant value).
  // An even chunk of a splat constant is a constant too (the export
  // writes it so, phlo::getSlicedSplat).
  auto slice = dyn_cast<phlo::AllSliceOp>(op);
  return op->hasTrait<OpTrait::ConstantLike>() ||
         isa<hlo::PartitionIdOp, hlo::ReplicaIdOp, hlo::OptimizationBarrierOp>(
             op) ||
         (slice && (!fusion || phlo::getSlicedSplat(slice)));
}

/// Whether `value` is an argument of a function (not of a loop body: a
/// carried value changes every iteration).
static bool isFunctionArgument(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && isa<func::FuncOp>(arg.getOwner()->getParentOp());
}

bool toast::sim::isContiguousSlice(ArrayRef<int64_t> sizes,
                                   ArrayRef<int64_t> whole) {
  size_t d = 0;
  while (d < sizes.size() && sizes[d] == 1)
    ++d;
  // Dimension d may be partial; every one after it must be whole.
  for (size_t e = d + 1; e < sizes.size(); ++e)
    if (sizes[e] != whole[e])
      return false;
  return true;
}

bool toast::sim::isContiguousSliceView(Operation *op) {
  if (!isa<hlo::DynamicSliceOp>(op) &&
      !(isa<phlo::AllSliceOp>(op) && isFunctionArgument(op->getOperand(0))))
    return false;
  auto in = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!in || !out || !in.hasStaticShape() || !out.hasStaticShape())
    return false;
  // A view must not outlive the loop iteration or the function that
  // defines it (a terminator's operand is a buffer of its own).
  for (Operation *user : op->getResult(0).getUsers())
    if (user->hasTrait<OpTrait::IsTerminator>())
      return false;
  return isContiguousSlice(out.getShape(), in.getShape());
}

bool toast::sim::writesUpdateInPlace(Operation *op) {
  return isa<hlo::DynamicUpdateSliceOp>(op);
}

int toast::sim::getSlicedOperand(Operation *op) {
  return isa<hlo::SliceOp, hlo::DynamicSliceOp, hlo::GatherOp,
             phlo::AllSliceOp>(op)
             ? 0
             : -1;
}
