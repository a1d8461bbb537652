//===- ValueNames.cpp - Names of values in the user's terms ---------------===//

#include "toast/Interfaces/ValueNames.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"

using namespace mlir;

namespace toast {

SmallVector<StringRef> getArgumentNames(FunctionOpInterface func, unsigned i) {
  SmallVector<StringRef> names;
  for (StringRef attr : {"partir.name", "jax.arg_info", "tf.name", "mhlo.name"})
    if (auto name = func.getArgAttrOfType<StringAttr>(i, attr))
      names.push_back(name.getValue());
  return names;
}

/// The name of a `loc("name")` or `loc("name"(inner))` location.
static StringRef locationName(Location loc) {
  if (auto named = dyn_cast<NameLoc>(loc))
    return named.getName().getValue();
  return {};
}

std::string getArgumentDisplayName(FunctionOpInterface func, unsigned i) {
  SmallVector<StringRef> names = getArgumentNames(func, i);
  if (!names.empty())
    return names.front().str();
  if (i < func.getFunctionBody().getNumArguments())
    if (StringRef name =
            locationName(func.getFunctionBody().getArgument(i).getLoc());
        !name.empty())
      return name.str();
  return "arg" + std::to_string(i);
}

StringRef getResultName(FunctionOpInterface func, unsigned i) {
  for (StringRef attr : {"partir.name", "jax.result_info", "tf.name"})
    if (auto name = func.getResultAttrOfType<StringAttr>(i, attr))
      return name.getValue();
  return {};
}

} // namespace toast
