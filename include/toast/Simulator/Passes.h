//===- Passes.h - Simulator passes ------------------------------*- C++ -*-===//
#ifndef TOAST_SIMULATOR_PASSES_H
#define TOAST_SIMULATOR_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace toast::sim {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "toast/Simulator/Passes.h.inc"

} // namespace toast::sim

#endif // TOAST_SIMULATOR_PASSES_H
