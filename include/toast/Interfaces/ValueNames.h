//===- ValueNames.h - Names of values in the user's terms -------*- C++ -*-===//
//
// Exporters name a function's arguments and results in their own
// attributes: Toast's models in `partir.name`, JAX in `jax.arg_info` /
// `jax.result_info` (`params['layers']['w1']`), TensorFlow in `tf.name`,
// XLA in `mhlo.name`; torch-xla in the `ttir.name` frontend attribute of the
// `tt.mark_argument` custom call that reads an argument; PyTorch exports
// name values by `loc("...")`. Every
// place that shows a value to a user (schedule selectors, the search's
// actions, reports) reads them here, in this order of preference.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_INTERFACES_VALUENAMES_H
#define TOAST_INTERFACES_VALUENAMES_H

#include "mlir/IR/Location.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>
#include <vector>

namespace toast {

/// Every name argument `i` of `func` carries, most preferred first.
llvm::SmallVector<llvm::StringRef>
getArgumentNames(mlir::FunctionOpInterface func, unsigned i);

/// The name a user knows argument `i` by: its first attribute name, else
/// the name of its location (`loc("x")`), else "arg<i>".
std::string getArgumentDisplayName(mlir::FunctionOpInterface func, unsigned i);

/// The name of result `i` (`jax.result_info`, `partir.name`), or empty.
llvm::StringRef getResultName(mlir::FunctionOpInterface func, unsigned i);

/// Per result of `func`, the argument it is the updated value of, if any (a
/// training step's new parameters and optimizer state): the argument whose
/// `tf.aliasing_output` names the result, else the one argument of the
/// result's type that has the result's name (getResultName,
/// getArgumentNames). Linear in the arguments and results.
std::vector<std::optional<unsigned>>
getUpdatedArguments(mlir::FunctionOpInterface func);

/// The first `loc("name")` in `loc`, looking through fused and call-site
/// locations (JAX writes `loc("jit(f)/dot_general"(#loc2))`), or empty.
llvm::StringRef getLocationName(mlir::Location loc);

/// The name a user knows `value` by: an entry argument's name attribute, a
/// returned value's result name, else the location name of the op (or
/// block argument) defining it; empty when there is none (no `argN`).
std::string getValueDisplayName(mlir::Value value);

/// The name of `op` in the user's terms: its location name, else the name
/// of the first operand that has one (a collective of `params['w1']`);
/// empty when there is none.
std::string getOpDisplayName(mlir::Operation *op);

} // namespace toast

#endif // TOAST_INTERFACES_VALUENAMES_H
