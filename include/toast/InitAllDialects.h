//===- InitAllDialects.h - Register every Toast dialect ---------*- C++ -*-===//
//
// What a host compiler (or toast-opt) calls to parse Toast's inputs: our
// StableHLO and CHLO dialects plus upstream `func`.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_INITALLDIALECTS_H
#define TOAST_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace toast {

/// Adds Toast's dialects (and the upstream dialects its inputs use) to
/// `registry`.
void registerAllDialects(mlir::DialectRegistry &registry);

} // namespace toast

#endif // TOAST_INITALLDIALECTS_H
