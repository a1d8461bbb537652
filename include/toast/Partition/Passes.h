//===- Passes.h - PartIR actions, tactics and schedules ---------*- C++ -*-===//
#ifndef TOAST_PARTITION_PASSES_H
#define TOAST_PARTITION_PASSES_H

#include "toast/Dialect/PartIR/Core/IR/PartIRCore.h"
#include "toast/Dialect/PartIR/HLO/IR/PartIRHLO.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace toast::partition {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "toast/Partition/Passes.h.inc"

} // namespace toast::partition

#endif // TOAST_PARTITION_PASSES_H
