//===- OpaqueDialect.h - Stand-ins for unknown dialects ---------*- C++ -*-===//
//
// Real exports sometimes contain ops of dialects toast does not know
// (`enzyme.batch`, ...) printed in their custom syntax, which MLIR cannot
// parse even with --allow-unregistered-dialect. When the user allows
// unregistered dialects, toast registers an OpaqueDialect under each unknown
// namespace found in the input. It parses the common custom form
//   [@symbol] [(operands)] [{attrs}] : (types) -> types
// into an unregistered (opaque) op and prints it in generic form, so the
// file round-trips and toast treats the op as opaque: no sharding rule,
// propagation stops at it.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_DIALECT_OPAQUE_OPAQUEDIALECT_H
#define TOAST_DIALECT_OPAQUE_OPAQUEDIALECT_H

#include "mlir/IR/Dialect.h"
#include "llvm/ADT/StringRef.h"

namespace toast {

/// Attribute that holds the leading `@symbol` of an opaque op's custom form.
inline constexpr llvm::StringLiteral kOpaqueSymbolAttrName =
    "toast.opaque_symbol";

/// Returns the op namespaces in `source` (at statement starts) that
/// `registry` does not know.
llvm::SmallVector<std::string>
findUnknownDialectNamespaces(llvm::StringRef source,
                             const mlir::DialectRegistry &registry);

/// Registers an opaque stand-in dialect named `name` in `registry`.
void registerOpaqueDialect(mlir::DialectRegistry &registry,
                           llvm::StringRef name);

} // namespace toast

#endif // TOAST_DIALECT_OPAQUE_OPAQUEDIALECT_H
