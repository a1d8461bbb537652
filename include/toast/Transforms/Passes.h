//===- Passes.h - Cross-dialect Toast passes --------------------*- C++ -*-===//
#ifndef TOAST_TRANSFORMS_PASSES_H
#define TOAST_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace toast {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "toast/Transforms/Passes.h.inc"

} // namespace toast

#endif // TOAST_TRANSFORMS_PASSES_H
