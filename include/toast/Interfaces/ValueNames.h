//===- ValueNames.h - Names of values in the user's terms -------*- C++ -*-===//
//
// Exporters name a function's arguments and results in their own
// attributes: Toast's models in `partir.name`, JAX in `jax.arg_info` /
// `jax.result_info` (`params['layers']['w1']`), TensorFlow in `tf.name`,
// XLA in `mhlo.name`; PyTorch exports name values by `loc("...")`. Every
// place that shows a value to a user (schedule selectors, the search's
// actions, reports) reads them here, in this order of preference.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_INTERFACES_VALUENAMES_H
#define TOAST_INTERFACES_VALUENAMES_H

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace toast {

/// Every name argument `i` of `func` carries, most preferred first.
llvm::SmallVector<llvm::StringRef>
getArgumentNames(mlir::FunctionOpInterface func, unsigned i);

/// The name a user knows argument `i` by: its first attribute name, else
/// the name of its location (`loc("x")`), else "arg<i>".
std::string getArgumentDisplayName(mlir::FunctionOpInterface func, unsigned i);

/// The name of result `i` (`jax.result_info`, `partir.name`), or empty.
llvm::StringRef getResultName(mlir::FunctionOpInterface func, unsigned i);

} // namespace toast

#endif // TOAST_INTERFACES_VALUENAMES_H
