//===- ValueNames.cpp - Names of values in the user's terms ---------------===//

#include "toast/Interfaces/ValueNames.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;

namespace toast {

/// The name torch-xla gives the argument a `tt.mark_argument` custom call
/// marks (`mhlo.frontend_attributes = {ttir.name = "layers.0.w"}`), or
/// empty. torch-xla reshapes most arguments first (a leading 1 dimension):
/// the marker may read the argument through reshapes of one use.
static StringRef getMarkedName(Operation *user) {
  while (user->getName().getStringRef() == "stablehlo.reshape" &&
         user->getNumResults() == 1 && user->getResult(0).hasOneUse())
    user = *user->getResult(0).getUsers().begin();
  auto target = user->getAttrOfType<StringAttr>("call_target_name");
  if (user->getName().getStringRef() != "stablehlo.custom_call" ||
      user->getNumOperands() != 1 || !target ||
      target.getValue() != "tt.mark_argument")
    return {};
  auto frontend =
      user->getAttrOfType<DictionaryAttr>("mhlo.frontend_attributes");
  auto name = frontend ? frontend.getAs<StringAttr>("ttir.name") : nullptr;
  return name ? name.getValue() : StringRef();
}

static constexpr StringLiteral kNameAttrs[] = {"partir.name", "jax.arg_info",
                                               "tf.name", "mhlo.name"};

/// Whether some argument of `func` has `name` in a name attribute.
static bool isAttributeName(FunctionOpInterface func, StringRef name) {
  for (unsigned j = 0, e = func.getNumArguments(); j < e; ++j)
    for (StringRef attr : kNameAttrs)
      if (auto other = func.getArgAttrOfType<StringAttr>(j, attr);
          other && other.getValue() == name)
        return true;
  return false;
}

SmallVector<StringRef> getArgumentNames(FunctionOpInterface func, unsigned i) {
  SmallVector<StringRef> names;
  for (StringRef attr : kNameAttrs)
    if (auto name = func.getArgAttrOfType<StringAttr>(i, attr))
      names.push_back(name.getValue());
  // A marker's name only stands in for missing attributes, and never for a
  // name an attribute gives another argument (the selector stays exact).
  if (!names.empty() || i >= func.getFunctionBody().getNumArguments())
    return names;
  for (Operation *user : func.getFunctionBody().getArgument(i).getUsers())
    if (StringRef name = getMarkedName(user);
        !name.empty() && !isAttributeName(func, name)) {
      names.push_back(name);
      break;
    }
  return names;
}

StringRef getLocationName(Location loc) {
  if (auto named = dyn_cast<NameLoc>(loc))
    return named.getName().getValue();
  if (auto call = dyn_cast<CallSiteLoc>(loc))
    return getLocationName(call.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (StringRef name = getLocationName(inner); !name.empty())
        return name;
  return {};
}

std::string getArgumentDisplayName(FunctionOpInterface func, unsigned i) {
  SmallVector<StringRef> names = getArgumentNames(func, i);
  if (!names.empty())
    return names.front().str();
  if (i < func.getFunctionBody().getNumArguments())
    if (StringRef name =
            getLocationName(func.getFunctionBody().getArgument(i).getLoc());
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

std::vector<std::optional<unsigned>>
getUpdatedArguments(FunctionOpInterface func) {
  unsigned numArgs = func.getNumArguments();
  unsigned numResults = func.getNumResults();
  std::vector<std::optional<unsigned>> updated(numResults);
  for (unsigned a = 0; a < numArgs; ++a)
    if (auto alias =
            func.getArgAttrOfType<IntegerAttr>(a, "tf.aliasing_output")) {
      int64_t r = alias.getInt();
      if (r >= 0 && r < numResults && !updated[r])
        updated[r] = a;
    }
  // Each name's argument, or -1 when two arguments carry it (no telling
  // which one a result of that name updates).
  llvm::StringMap<int> byName;
  for (unsigned a = 0; a < numArgs; ++a)
    for (StringRef name : getArgumentNames(func, a)) {
      auto [it, inserted] = byName.try_emplace(name, a);
      if (!inserted && it->second != static_cast<int>(a))
        it->second = -1;
    }
  for (unsigned r = 0; r < numResults; ++r) {
    StringRef name = getResultName(func, r);
    if (updated[r] || name.empty())
      continue;
    auto it = byName.find(name);
    if (it != byName.end() && it->second >= 0 &&
        func.getArgumentTypes()[it->second] == func.getResultTypes()[r])
      updated[r] = it->second;
  }
  return updated;
}

} // namespace toast

namespace toast {

std::string getValueDisplayName(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto func = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (func && arg.getOwner()->isEntryBlock()) {
      SmallVector<StringRef> names = getArgumentNames(func, arg.getArgNumber());
      if (!names.empty())
        return names.front().str();
    }
    return getLocationName(arg.getLoc()).str();
  }
  Operation *def = value.getDefiningOp();
  for (OpOperand &use : value.getUses())
    if (use.getOwner()->hasTrait<OpTrait::IsTerminator>())
      if (auto func =
              dyn_cast<FunctionOpInterface>(use.getOwner()->getParentOp()))
        if (StringRef name = getResultName(func, use.getOperandNumber());
            !name.empty())
          return name.str();
  return getLocationName(def->getLoc()).str();
}

std::string getOpDisplayName(Operation *op) {
  if (StringRef name = getLocationName(op->getLoc()); !name.empty())
    return name.str();
  for (Value operand : op->getOperands())
    if (std::string name = getValueDisplayName(operand); !name.empty())
      return name;
  return {};
}

} // namespace toast
