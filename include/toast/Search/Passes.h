//===- Passes.h - Automatic partitioning passes -----------------*- C++ -*-===//
#ifndef TOAST_SEARCH_PASSES_H
#define TOAST_SEARCH_PASSES_H

#include "toast/Dialect/PartIR/Core/IR/PartIRCore.h"
#include "toast/Dialect/PartIR/HLO/IR/PartIRHLO.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace toast::search {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "toast/Search/Passes.h.inc"

} // namespace toast::search

#endif // TOAST_SEARCH_PASSES_H
