//===- Fusion.cpp - The default fusion model (XLA-like) -------------------===//

#include "toast/Simulator/Fusion.h"

#include "toast/Dialect/PartIR/HLO/IR/PartIRHLO.h"
#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

#include "llvm/ADT/STLExtras.h"

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
  if (isa<hlo::ReduceOp>(op))
    return FusionKind::Reduce;
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
                                    ArrayRef<FusionReader> readers) {
  FusionKind kind = getFusionKind(producer);
  if (kind == FusionKind::Opaque || producer->getNumResults() != 1 ||
      readers.empty())
    return false;
  for (const FusionReader &reader : readers)
    if (!reader.op || getFusionKind(reader.op) == FusionKind::Opaque)
      return false;
  if (kind == FusionKind::Reduce)
    return readers.size() == 1 &&
           getFusionKind(readers[0].op) == FusionKind::Elementwise &&
           readers[0].resultElements == elements;
  bool oneReader = llvm::all_of(readers, [&](const FusionReader &reader) {
    return reader.op == readers[0].op;
  });
  return oneReader || !isExpensiveToDuplicate(producer);
}

bool toast::sim::isFreeOp(Operation *op) {
  return isa<hlo::ConstantOp, hlo::PartitionIdOp, hlo::ReplicaIdOp,
             hlo::OptimizationBarrierOp, phlo::AllSliceOp>(op);
}

int toast::sim::getSlicedOperand(Operation *op) {
  return isa<hlo::SliceOp, hlo::DynamicSliceOp, hlo::GatherOp>(op) ? 0 : -1;
}
