//===- Passes.h - PartIR:Temporal reading -----------------------*- C++ -*-===//
#ifndef TOAST_DIALECT_PARTIR_TEMPORAL_PASSES_H
#define TOAST_DIALECT_PARTIR_TEMPORAL_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace toast::partir_temporal {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "toast/Dialect/PartIR/Temporal/Passes.h.inc"

} // namespace toast::partir_temporal

#endif // TOAST_DIALECT_PARTIR_TEMPORAL_PASSES_H
