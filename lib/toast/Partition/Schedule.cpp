//===- Schedule.cpp - Manual tactics and schedules -----------------------===//

#include "toast/Partition/Schedule.h"

#include "toast/Interfaces/ValueNames.h"
#include "toast/Simulator/JsonInput.h"

#include "toast/Dialect/PartIR/HLO/Transforms/Passes.h"
#include "toast/Simulator/Device.h"
#include "toast/Simulator/Simulator.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Iterators.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Regex.h"

#include <cmath>
#include <limits>
#include <type_traits>

using namespace mlir;

namespace toast::partition {

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

/// Splits a `@P` position suffix (a loop's or a tiling level's position)
/// off `value` into `spec.position`; fails on a malformed position.
static LogicalResult consumePosition(StringRef &value, InputSpec &spec) {
  auto [head, position] = value.split('@');
  if (head.size() != value.size()) {
    unsigned at;
    if (position.getAsInteger(10, at))
      return failure();
    spec.position = at;
  }
  value = head;
  return success();
}

/// The `@P` suffix printInputSpec writes for `spec`, or empty.
static std::string printPosition(const InputSpec &spec) {
  return spec.position ? "@" + std::to_string(*spec.position) : "";
}

FailureOr<InputSpec> parseInputSpec(StringRef value) {
  InputSpec spec;
  value = value.trim();
  if (value == "first_divisible") {
    spec.kind = InputSpec::Kind::FirstDivisible;
    return spec;
  }
  if (value == "replicated") {
    spec.kind = InputSpec::Kind::Replicated;
    return spec;
  }
  if (value == "whole_op") {
    spec.kind = InputSpec::Kind::WholeOp;
    return spec;
  }
  bool onOperand = value.consume_front("operand");
  if (onOperand || value.consume_front("result")) {
    if (failed(consumePosition(value, spec)))
      return failure();
    auto [operand, dim] = value.split(':');
    spec.kind =
        onOperand ? InputSpec::Kind::OperandDim : InputSpec::Kind::ResultDim;
    if (operand.getAsInteger(10, spec.operand) || spec.operand < 0 ||
        dim.getAsInteger(10, spec.dim) || spec.dim < 0)
      return failure();
    return spec;
  }
  if (failed(consumePosition(value, spec)) ||
      value.getAsInteger(10, spec.dim) || spec.dim < 0)
    return failure();
  return spec;
}

std::string printInputSpec(const InputSpec &spec) {
  switch (spec.kind) {
  case InputSpec::Kind::Dim:
    return std::to_string(spec.dim) + printPosition(spec);
  case InputSpec::Kind::FirstDivisible:
    return "first_divisible";
  case InputSpec::Kind::Replicated:
    return "replicated";
  case InputSpec::Kind::OperandDim:
  case InputSpec::Kind::ResultDim: {
    return (spec.kind == InputSpec::Kind::OperandDim ? "operand" : "result") +
           std::to_string(spec.operand) + ":" + std::to_string(spec.dim) +
           printPosition(spec);
  }
  case InputSpec::Kind::WholeOp:
    return "whole_op";
  }
  llvm_unreachable("unknown input spec kind");
}

namespace {
/// Reads what llvm::json::Object loses from a schedule's text: the order of
/// the "mesh" axes (device order depends on it) and repeated keys (the
/// parsed object keeps only the last). Runs on text llvm::json accepted, so
/// it only tells values apart; keys are decoded as llvm::json decodes them,
/// so that they find the parsed values.
class ScheduleKeyScanner {
public:
  explicit ScheduleKeyScanner(StringRef text) : text(text) {}

  /// The mesh axis names in text order, or `error` if the top-level object
  /// or the mesh repeats a key.
  FailureOr<SmallVector<std::string>> scan(std::string &error);

private:
  static bool isSpace(char c) { return StringRef(" \t\r\n").contains(c); }
  char peek() const { return pos < text.size() ? text[pos] : '\0'; }
  void skipSpace() {
    while (isSpace(peek()))
      ++pos;
  }
  std::string readString();
  void skipValue();
  LogicalResult readObject(function_ref<LogicalResult(std::string)> onKey);

  StringRef text;
  size_t pos = 0;
};
} // namespace

/// The string at `pos` (its opening quote), escapes decoded by llvm::json
/// itself, so that a key finds its parsed value whatever its spelling.
std::string ScheduleKeyScanner::readString() {
  size_t start = pos++;
  while (pos < text.size() && text[pos] != '"')
    pos += text[pos] == '\\' ? 2 : 1;
  ++pos;
  llvm::Expected<llvm::json::Value> parsed =
      llvm::json::parse(text.slice(start, pos));
  if (!parsed) {
    // Unreachable on text llvm::json accepted as a whole.
    llvm::consumeError(parsed.takeError());
    return {};
  }
  return parsed->getAsString().value_or("").str();
}

/// Skips the value at `pos`: a string, a scalar, or a whole array or object
/// (without recursion, whatever its depth).
void ScheduleKeyScanner::skipValue() {
  skipSpace();
  unsigned depth = 0;
  while (pos < text.size()) {
    char c = text[pos];
    if (c == '"') {
      readString();
      if (depth == 0)
        return;
      continue;
    }
    if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      // At depth 0 this closes the enclosing object: a scalar ended.
      if (depth == 0)
        return;
      if (--depth == 0) {
        ++pos;
        return;
      }
    } else if (depth == 0 && (c == ',' || isSpace(c))) {
      return;
    }
    ++pos;
  }
}

/// Reads the object at `pos`; `onKey` reads each member's value.
LogicalResult
ScheduleKeyScanner::readObject(function_ref<LogicalResult(std::string)> onKey) {
  ++pos;
  skipSpace();
  if (peek() == '}') {
    ++pos;
    return success();
  }
  while (pos < text.size()) {
    skipSpace();
    std::string key = readString();
    skipSpace();
    ++pos; // ':'
    skipSpace();
    if (failed(onKey(std::move(key))))
      return failure();
    skipSpace();
    if (peek() == '}') {
      ++pos;
      return success();
    }
    ++pos; // ','
  }
  return success();
}

FailureOr<SmallVector<std::string>>
ScheduleKeyScanner::scan(std::string &error) {
  SmallVector<std::string> axes;
  llvm::StringSet<> topKeys, axisNames;
  auto readAxis = [&](std::string axis) -> LogicalResult {
    if (!axisNames.insert(axis).second) {
      error = "schedule.mesh: duplicate axis name '" + axis + "'";
      return failure();
    }
    axes.push_back(std::move(axis));
    skipValue();
    return success();
  };
  skipSpace();
  LogicalResult read = readObject([&](std::string key) -> LogicalResult {
    if (!topKeys.insert(key).second) {
      error = "schedule: duplicate key '" + key + "'";
      return failure();
    }
    // A mesh that is no object is reported with the parsed value.
    if (key != "mesh" || peek() != '{') {
      skipValue();
      return success();
    }
    return readObject(readAxis);
  });
  if (failed(read))
    return failure();
  return axes;
}

/// ">= min", or "between min and max" when the type bounds it first.
static std::string describeRange(int64_t min, uint64_t max) {
  if (max >= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    return ">= " + std::to_string(min);
  return "between " + std::to_string(min) + " and " + std::to_string(max);
}

/// Reads the "automatic" tactic at `path` (see AutomaticTactic).
static FailureOr<AutomaticTactic>
parseAutomaticTactic(const llvm::json::Object &object, const std::string &path,
                     std::string &error) {
  auto fail = [&](const Twine &message) {
    error = (path + message).str();
    return failure();
  };
  static constexpr llvm::StringLiteral keys[] = {
      "name",
      "kind",
      "axes",
      "device",
      "algorithm",
      "seed",
      "budget_s",
      "threads",
      "rollouts",
      "min_dims",
      "restart_patience",
      "min_gain",
      "patience_ratio",
      "climb_memory",
      "restart_neighbours",
      "patience_work",
      "max_states",
      "ilp_time_limit_s",
      "iopddl_out",
      "donate",
      "tf32",
      "pad",
      "context_actions",
      "list_actions",
  };
  for (const auto &entry : object)
    if (!llvm::is_contained(keys, StringRef(entry.first)))
      return fail(": unknown key '" + entry.first.str() +
                  "' of an automatic tactic (expected name, kind, axes, "
                  "device, algorithm, seed, budget_s, threads, rollouts, "
                  "min_dims, restart_patience, min_gain, patience_ratio, "
                  "climb_memory, restart_neighbours, patience_work, "
                  "max_states, "
                  "ilp_time_limit_s, iopddl_out, "
                  "donate, tf32, pad, context_actions, list_actions)");
  AutomaticTactic tactic;
  tactic.name = object.getString("name").value_or("auto").str();
  if (const llvm::json::Value *axes = object.get("axes")) {
    const llvm::json::Array *array = axes->getAsArray();
    if (!array)
      return fail(".axes: expected an array of mesh axis names");
    for (const llvm::json::Value &axis : *array) {
      std::optional<StringRef> name = axis.getAsString();
      if (!name)
        return fail(".axes: expected an array of mesh axis names");
      tactic.axes.push_back(name->str());
    }
  }
  for (auto [key, field] : {std::pair{"device", &tactic.device},
                            std::pair{"algorithm", &tactic.algorithm},
                            std::pair{"iopddl_out", &tactic.iopddlOut}}) {
    if (const llvm::json::Value *value = object.get(key)) {
      std::optional<StringRef> text = value->getAsString();
      if (!text)
        return fail(std::string(".") + key + ": expected a string");
      *field = text->str();
    }
  }
  if (!llvm::is_contained({"mcts", "random", "automap", "exhaustive", "ilp"},
                          tactic.algorithm))
    return fail(".algorithm: unknown algorithm '" + tactic.algorithm +
                "' (expected \"mcts\", \"random\", \"automap\", "
                "\"exhaustive\" or \"ilp\")");
  // Only the ILP has a problem to write.
  if (!tactic.iopddlOut.empty() && tactic.algorithm != "ilp")
    return fail(".iopddl_out: needs \"algorithm\": \"ilp\", got \"" +
                tactic.algorithm + "\"");
  // Integer options, their smallest values and, from the field's type,
  // their largest: a value the field cannot hold must not wrap.
  auto readInt = [&](const char *key, int64_t min, auto &field) {
    const llvm::json::Value *value = object.get(key);
    if (!value)
      return success();
    using Field = std::remove_reference_t<decltype(field)>;
    uint64_t max = std::min<uint64_t>(std::numeric_limits<Field>::max(),
                                      std::numeric_limits<int64_t>::max());
    std::optional<int64_t> n = value->getAsInteger();
    if (!n || *n < min || static_cast<uint64_t>(*n) > max)
      return fail(std::string(".") + key + ": expected an integer " +
                  describeRange(min, max));
    field = static_cast<Field>(*n);
    return success();
  };
  auto readBool = [&](StringRef key, bool &field) -> LogicalResult {
    const llvm::json::Value *value = object.get(key);
    if (!value)
      return success();
    std::optional<bool> b = value->getAsBoolean();
    if (!b)
      return fail(std::string(".") + key + ": expected true or false");
    field = *b;
    return success();
  };
  if (failed(readBool("donate", tactic.donate)) ||
      failed(readBool("tf32", tactic.tf32)) ||
      failed(readBool("pad", tactic.pad)) ||
      failed(readBool("context_actions", tactic.contextActions)) ||
      failed(readBool("climb_memory", tactic.climbMemory)) ||
      failed(readBool("list_actions", tactic.listActions)))
    return failure();
  if (failed(readInt("seed", 0, tactic.seed)) ||
      failed(readInt("threads", 1, tactic.threads)) ||
      failed(readInt("rollouts", 0, tactic.rollouts)) ||
      failed(readInt("min_dims", 1, tactic.minDims)) ||
      failed(readInt("restart_patience", 0, tactic.restartPatience)) ||
      failed(readInt("patience_work", 0, tactic.patienceWork)) ||
      failed(readInt("restart_neighbours", 0, tactic.restartNeighbours)) ||
      failed(readInt("max_states", 1, tactic.maxStates)))
    return failure();
  if (const llvm::json::Value *budget = object.get("budget_s")) {
    std::optional<double> seconds = budget->getAsNumber();
    if (!seconds || *seconds < 0)
      return fail(".budget_s: expected a number of seconds >= 0");
    tactic.budgetSeconds = *seconds;
  }
  if (const llvm::json::Value *gain = object.get("min_gain")) {
    std::optional<double> fraction = gain->getAsNumber();
    if (!fraction || !(*fraction >= 0 && *fraction < 1))
      return fail(".min_gain: expected a number in [0, 1)");
    tactic.minGain = *fraction;
  }
  if (const llvm::json::Value *ratio = object.get("patience_ratio")) {
    std::optional<double> value = ratio->getAsNumber();
    if (!value || !(*value >= 0) || !std::isfinite(*value))
      return fail(".patience_ratio: expected a finite number >= 0");
    tactic.patienceRatio = *value;
  }
  if (const llvm::json::Value *limit = object.get("ilp_time_limit_s")) {
    std::optional<double> seconds = limit->getAsNumber();
    if (!seconds || !(*seconds > 0))
      return fail(".ilp_time_limit_s: expected a number of seconds > 0");
    tactic.ilpTimeLimitSeconds = *seconds;
  }
  return tactic;
}

FailureOr<Schedule> parseSchedule(StringRef json, std::string &error) {
  llvm::Expected<llvm::json::Value> parsed = sim::parseJsonInput(json);
  if (!parsed) {
    error = "invalid JSON: " + llvm::toString(parsed.takeError());
    return failure();
  }
  auto fail = [&](const Twine &message) {
    error = message.str();
    return failure();
  };
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root)
    return fail("schedule: expected a JSON object at the top level");
  for (const auto &entry : *root)
    if (entry.first != "mesh" && entry.first != "tactics" &&
        entry.first != "device")
      return fail("schedule: unknown key '" + entry.first.str() +
                  "' (expected 'mesh', 'tactics' and 'device')");
  Schedule schedule;
  if (const llvm::json::Value *device = root->get("device")) {
    std::optional<StringRef> name = device->getAsString();
    if (!name)
      return fail("schedule.device: expected a device name such as \"a100\"");
    schedule.device = name->str();
  }
  FailureOr<SmallVector<std::string>> axisOrder =
      ScheduleKeyScanner(json).scan(error);
  if (failed(axisOrder))
    return failure();
  if (const llvm::json::Value *mesh = root->get("mesh")) {
    const llvm::json::Object *axes = mesh->getAsObject();
    if (!axes)
      return fail("schedule.mesh: expected an object {\"axis\": size, ...}");
    for (const std::string &name : *axisOrder) {
      const llvm::json::Value *size = axes->get(name);
      std::optional<int64_t> n = size ? size->getAsInteger() : std::nullopt;
      if (!n || *n < 1)
        return fail("schedule.mesh." + name +
                    ": expected a positive integer axis size");
      schedule.mesh.push_back({name, *n});
    }
    if (schedule.mesh.size() != axes->size())
      return fail("schedule.mesh: could not read the axes in order");
  }
  const llvm::json::Array *tactics = root->getArray("tactics");
  if (!tactics)
    return fail("schedule: missing 'tactics' array");
  for (auto [i, value] : llvm::enumerate(*tactics)) {
    std::string path = "schedule.tactics[" + std::to_string(i) + "]";
    const llvm::json::Object *tactic = value.getAsObject();
    if (!tactic)
      return fail(path + ": expected an object");
    ManualTactic manual;
    std::optional<StringRef> kind = tactic->getString("kind");
    if (!kind)
      return fail(path + ": missing 'kind'");
    if (*kind == "automatic") {
      FailureOr<AutomaticTactic> automatic =
          parseAutomaticTactic(*tactic, path, error);
      if (failed(automatic))
        return failure();
      automatic->position = schedule.tactics.size();
      schedule.automatic.push_back(std::move(*automatic));
      continue;
    }
    if (*kind != "manual")
      return fail(path + ": unsupported kind '" + *kind +
                  "' (supported: 'manual', 'automatic')");
    manual.name =
        tactic->getString("name").value_or(("tactic" + std::to_string(i)));
    std::optional<StringRef> axis = tactic->getString("axis");
    if (!axis)
      return fail(path + ": missing 'axis'");
    manual.axis = axis->str();
    const llvm::json::Object *inputs = tactic->getObject("inputs");
    if (!inputs)
      return fail(path + ": missing 'inputs' object");
    // Deterministic order: sort selectors by name.
    SmallVector<std::string> selectors;
    for (const auto &entry : *inputs)
      selectors.push_back(entry.first.str());
    llvm::sort(selectors);
    for (const std::string &selector : selectors) {
      const llvm::json::Value &spec = *inputs->get(selector);
      std::string text;
      if (std::optional<int64_t> dim = spec.getAsInteger())
        text = std::to_string(*dim);
      else if (std::optional<StringRef> str = spec.getAsString())
        text = str->str();
      FailureOr<InputSpec> parsedSpec = parseInputSpec(text);
      if (text.empty() || failed(parsedSpec))
        return fail(path + ".inputs." + selector +
                    ": expected a dimension, \"first_divisible\", "
                    "\"replicated\", \"operandO:D\", \"resultR:D\" (each "
                    "with an optional position \"@P\") or \"whole_op\"");
      bool onOp = parsedSpec->actsOnOp();
      if (onOp && (!StringRef(selector).starts_with("#") ||
                   StringRef(selector).contains('.')))
        return fail(path + ".inputs." + selector + ": \"" + text +
                    "\" acts on an op: select it by position, \"#N\"");
      manual.inputs.push_back({selector, *parsedSpec});
    }
    schedule.tactics.push_back(std::move(manual));
  }
  return schedule;
}

//===----------------------------------------------------------------------===//
// Module-level helpers
//===----------------------------------------------------------------------===//

FailureOr<func::FuncOp> getEntryFunction(ModuleOp module) {
  if (auto main = module.lookupSymbol<func::FuncOp>("main")) {
    if (main.isExternal())
      return main.emitError("@main is a declaration without a body: nothing "
                            "to partition");
    return main;
  }
  func::FuncOp found;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!fn.isPublic() || fn.isExternal())
      continue;
    if (found)
      return module.emitError("cannot choose the function to partition: no "
                              "@main and several public functions");
    found = fn;
  }
  if (!found)
    return module.emitError("no function to partition: expected @main or "
                            "one public function with a body");
  return found;
}

FailureOr<partir::MeshAttr>
resolveMesh(ModuleOp module, ArrayRef<std::pair<std::string, int64_t>> axes) {
  MLIRContext *ctx = module.getContext();
  StringRef attrName = partir::PartIRDialect::kMeshAttrName;
  if (axes.empty()) {
    if (auto mesh = module->getAttrOfType<partir::MeshAttr>(attrName))
      return mesh;
    InFlightDiagnostic error = module.emitError(
        "no mesh: give one in the schedule or option, or add `partir.mesh = "
        "#partir.mesh<[\"B\"=4]>` to the module");
    // A Shardy export names its mesh; the import adopts it.
    for (Operation &op : module.getBody()->getOperations())
      if (op.getName().getStringRef() == "sdy.mesh") {
        error.attachNote(op.getLoc())
            << "the module declares this Shardy mesh: "
               "--partir-import-shardings makes it the partitioning mesh";
        break;
      }
    return error;
  }
  SmallVector<StringAttr> names;
  SmallVector<int64_t> sizes;
  for (auto &[name, size] : axes) {
    names.push_back(StringAttr::get(ctx, name));
    sizes.push_back(size);
  }
  auto mesh = partir::MeshAttr::getChecked([&] { return module.emitError(); },
                                           ctx, ArrayRef<StringAttr>(names),
                                           ArrayRef<int64_t>(sizes));
  if (!mesh)
    return failure();
  module->setAttr(attrName, mesh);
  return mesh;
}

/// All named values of `func`: arguments and `partir.tag` results.
static SmallVector<std::pair<std::string, Value>>
namedValues(func::FuncOp func) {
  SmallVector<std::pair<std::string, Value>> named;
  for (BlockArgument arg : func.getArguments()) {
    for (StringRef name : getArgumentNames(func, arg.getArgNumber()))
      named.push_back({name.str(), arg});
    // Every argument also answers to "argN", so `re:.*` selects them all.
    named.push_back({"arg" + std::to_string(arg.getArgNumber()), arg});
  }
  func.walk([&](partir::TagOp tag) {
    named.push_back({tag.getName().str(), tag.getResult()});
  });
  return named;
}

SmallVector<Operation *> numberedOps(func::FuncOp func) {
  SmallVector<Operation *> ops;
  func.getBody().walk<WalkOrder::PreOrder>(
      [&](Operation *op) { ops.push_back(op); });
  return ops;
}

/// Op N of `#N` or `#N.R` (numberedOps order) and R (0 for `#N`).
static FailureOr<std::pair<Operation *, unsigned>>
selectNumberedOp(func::FuncOp func, StringRef selector, StringRef tacticName) {
  StringRef opText = selector.drop_front(), resultText = "0";
  std::tie(opText, resultText) = opText.split('.');
  unsigned opIndex, result = 0;
  auto fail = [&]() -> InFlightDiagnostic {
    return func.emitError()
           << "tactic '" << tacticName << "': selector '" << selector << "' ";
  };
  if (opText.getAsInteger(10, opIndex) ||
      (!resultText.empty() && resultText.getAsInteger(10, result)) ||
      (resultText.empty() && selector.ends_with(".")))
    return fail() << "is not #N or #N.R (op N of @" << func.getSymName()
                  << " in pre-order, its result R)";
  SmallVector<Operation *> ops = numberedOps(func);
  if (opIndex >= ops.size())
    return fail() << "is out of range (@" << func.getSymName() << " has "
                  << ops.size() << " ops)";
  return std::make_pair(ops[opIndex], result);
}

/// The value `#N` (result 0 of op N, numberedOps order) or `#N.R`.
static FailureOr<Value> selectOpResult(func::FuncOp func, StringRef selector,
                                       StringRef tacticName) {
  auto selected = selectNumberedOp(func, selector, tacticName);
  if (failed(selected))
    return failure();
  auto [op, result] = *selected;
  if (result >= op->getNumResults())
    return func.emitError()
           << "tactic '" << tacticName << "': selector '" << selector
           << "' selects result " << result << " of '" << op->getName()
           << "', which has " << op->getNumResults()
           << (op->getNumResults() == 1 ? " result" : " results");
  return op->getResult(result);
}

/// Appends to a "no input matches" error the names a selector could use:
/// the real ones (not the implicit argN), each once, the first 8 of them.
/// An argument often carries one name in several attributes (jax.arg_info
/// and partir.name), and several values may share a name.
static void listNames(InFlightDiagnostic &diag,
                      ArrayRef<std::pair<std::string, Value>> named) {
  llvm::SetVector<StringRef> names;
  for (auto &[name, value] : named) {
    auto arg = dyn_cast<BlockArgument>(value);
    if (!arg || name != "arg" + std::to_string(arg.getArgNumber()))
      names.insert(name);
  }
  if (names.empty()) {
    diag << " (the function has no named inputs; use argN)";
    return;
  }
  diag << " (named inputs:";
  for (StringRef name : names.getArrayRef().take_front(8))
    diag << " " << name;
  if (names.size() > 8)
    diag << " ...";
  diag << ")";
}

FailureOr<SmallVector<Value>>
selectValues(func::FuncOp func, StringRef selector, StringRef tacticName) {
  SmallVector<Value> selected;
  if (selector.starts_with("#")) {
    FailureOr<Value> value = selectOpResult(func, selector, tacticName);
    if (failed(value))
      return failure();
    selected.push_back(*value);
    return selected;
  }
  unsigned index;
  if (selector.starts_with("arg") &&
      !selector.drop_front(3).getAsInteger(10, index)) {
    if (index >= func.getNumArguments())
      return func.emitError()
             << "tactic '" << tacticName << "': " << selector
             << " is out of range (@" << func.getSymName() << " has "
             << func.getNumArguments() << " arguments)";
    selected.push_back(func.getArgument(index));
    return selected;
  }
  auto named = namedValues(func);
  if (selector.consume_front("re:")) {
    llvm::Regex regex(("^(" + selector + ")$").str());
    std::string regexError;
    if (!regex.isValid(regexError))
      return func.emitError()
             << "tactic '" << tacticName << "': invalid regular expression '"
             << selector << "': " << regexError;
    for (auto &[name, value] : named)
      if (regex.match(name) && !llvm::is_contained(selected, value))
        selected.push_back(value);
  } else {
    for (auto &[name, value] : named)
      if (name == selector && !llvm::is_contained(selected, value))
        selected.push_back(value);
  }
  if (!selected.empty())
    return selected;
  InFlightDiagnostic diag = func.emitError()
                            << "tactic '" << tacticName
                            << "': no input matches '" << selector << "'";
  listNames(diag, named);
  return failure();
}

/// The first dimension of `value` that `axis` can still tile, or nullopt.
/// A scan's stacked layer dimension is skipped: the loop only indexes it,
/// so tiling it would gather the whole stack in every iteration.
static std::optional<int64_t> firstDivisibleDim(ShardingState &state,
                                                Value value, StringRef axis) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return std::nullopt;
  SmallVector<AxisDim> tiling = state.getTiling(value);
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (state.isStackedDim(value, d))
      continue;
    int64_t tiles = state.axisSize(axis);
    for (const AxisDim &level : tiling)
      if (level.dim == d)
        tiles *= state.axisSize(level.axis);
    if (type.getDimSize(d) % tiles == 0 && type.getDimSize(d) >= tiles)
      return d;
  }
  return std::nullopt;
}

/// Applies an OperandDim, ResultDim or WholeOp spec to the op `selector`
/// (`#N`) names.
static LogicalResult applyOpSpec(ShardingState &state,
                                 const ManualTactic &tactic, StringRef selector,
                                 const InputSpec &spec) {
  func::FuncOp func = state.getFunction();
  if (!selector.starts_with("#") || selector.contains('.'))
    return func.emitError()
           << "tactic '" << tactic.name << "': \"" << printInputSpec(spec)
           << "\" acts on an op: select it by position, \"#N\" (not '"
           << selector << "')";
  auto selected = selectNumberedOp(func, selector, tactic.name);
  if (failed(selected))
    return failure();
  Operation *op = selected->first;
  if (spec.kind == InputSpec::Kind::WholeOp)
    return state.atomicOp(op, tactic.axis);
  auto fail = [&]() -> InFlightDiagnostic {
    return func.emitError() << "tactic '" << tactic.name << "': selector '"
                            << selector << "' (" << op->getName() << "): ";
  };
  const ShardingRule *rule = state.getRule(op);
  if (!rule)
    return fail() << "the op has no sharding rule, so it cannot loop";
  bool onResult = spec.kind == InputSpec::Kind::ResultDim;
  StringRef what = onResult ? "result" : "operand";
  unsigned count = onResult ? op->getNumResults() : op->getNumOperands();
  if (spec.operand >= count)
    return fail() << what << " " << spec.operand << " is out of range (the op "
                  << "has " << count << " " << what
                  << (count == 1 ? ")" : "s)");
  Value value =
      onResult ? op->getResult(spec.operand) : op->getOperand(spec.operand);
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || spec.dim >= type.getRank())
    return fail() << "dimension " << spec.dim << " is out of range for " << what
                  << " " << spec.operand << " of type " << value.getType();
  SmallVector<int64_t, 2> factors =
      rule->getDimFactors(onResult, spec.operand, spec.dim);
  int64_t factor = factors.empty() ? kNoFactor : factors.front();
  if (factor == kNoFactor)
    return fail() << "dimension " << spec.dim << " of " << what << " "
                  << spec.operand << " maps no factor of the op's rule";
  return state.tileOp(op, factor, tactic.axis, spec.position);
}

FailureOr<TacticReport> applyManualTactic(ShardingState &state,
                                          const ManualTactic &tactic) {
  func::FuncOp func = state.getFunction();
  if (!state.getMesh().getAxisSize(tactic.axis))
    return func.emitError()
           << "tactic '" << tactic.name << "': axis \"" << tactic.axis
           << "\" is not in the mesh " << state.getMesh();
  // The action's own error says what failed; this one says which input of
  // which tactic asked for it.
  auto cannotApply = [&](StringRef selector, const InputSpec &spec) {
    return func.emitError()
           << "tactic '" << tactic.name << "': input \"" << selector << "\" ("
           << printInputSpec(spec) << ") cannot be applied";
  };
  TacticReport report;
  report.name = tactic.name;
  for (auto &[selector, spec] : tactic.inputs) {
    if (spec.actsOnOp()) {
      if (failed(applyOpSpec(state, tactic, selector, spec)))
        return failure();
      ++report.actions;
      continue;
    }
    FailureOr<SmallVector<Value>> values =
        selectValues(func, selector, tactic.name);
    if (failed(values))
      return failure();
    for (Value value : *values) {
      // Inputs already tiled on the axis by an earlier tactic keep that.
      bool onAxis = llvm::any_of(state.getTiling(value), [&](auto &level) {
        return level.axis == tactic.axis;
      });
      if (spec.kind == InputSpec::Kind::Replicated) {
        if (failed(state.atomic(value, tactic.axis)))
          return cannotApply(selector, spec);
        ++report.actions;
        continue;
      }
      // A value already tiled on the axis along the dimension asked for
      // (e.g. deep tiling adopted its consumers' slicing) is left as it is,
      // unless a level position asks for its place (ShardingState::tile).
      AxisDim level{tactic.axis, spec.dim};
      if (spec.kind == InputSpec::Kind::Dim &&
          llvm::is_contained(state.getTiling(value), level) &&
          !(spec.position &&
            llvm::is_contained(state.getExplicitTiling(value), level)))
        continue;
      int64_t dim = spec.dim;
      if (spec.kind == InputSpec::Kind::FirstDivisible) {
        std::optional<int64_t> found =
            onAxis ? std::nullopt
                   : firstDivisibleDim(state, value, tactic.axis);
        if (!found)
          continue; // Nothing divisible: the input stays as it is.
        dim = *found;
      }
      if (failed(state.tile(value, dim, tactic.axis, spec.position)))
        return cannotApply(selector, spec);
      ++report.actions;
    }
  }
  report.stats = state.propagate();
  func.walk([&](Operation *op) {
    if (llvm::any_of(state.getLoopNest(op), [&](const AxisFactor &level) {
          return level.axis == tactic.axis;
        }))
      ++report.opsOnAxis;
  });
  return report;
}

static AutomaticTacticHook automaticTacticHook = nullptr;

void setAutomaticTacticHook(AutomaticTacticHook hook) {
  automaticTacticHook = hook;
}

FailureOr<TacticReport> applyAutomaticTactic(ShardingState &state,
                                             const AutomaticTactic &tactic) {
  if (!automaticTacticHook)
    return state.getFunction().emitError()
           << "tactic '" << tactic.name
           << "': automatic tactics need the search library (link ToastSearch "
              "and call toast::search::registerAutomaticTactic(), which "
              "toast::registerAllPasses() does)";
  // The search sets whole loop nests rather than propagating assignments:
  // its report counts the loop levels the ops gained.
  auto levels = [&] {
    int64_t count = 0;
    state.getFunction().walk(
        [&](Operation *op) { count += state.getLoopNest(op).size(); });
    return count;
  };
  int64_t before = levels();
  FailureOr<TacticReport> report = automaticTacticHook(state, tactic);
  if (succeeded(report))
    report->stats.assignments =
        static_cast<unsigned>(std::max<int64_t>(0, levels() - before));
  return report;
}

/// Erases the ops whose results nothing that runs reads (sim::findDeadOps,
/// at any depth). Lowering's canonicalizer erases them anyway, but only
/// after the collective optimizer, where a dead reader of a partial sum
/// still keeps its all_reduce; and in the search their dims would tie
/// colors and conflicts no running op has. A partir.tag stays, with what
/// it reads and the loops around it: its name is how a tactic selects a
/// value.
static void eraseDeadOps(func::FuncOp func) {
  auto holdsTag = [](Operation *op) {
    return isa<partir::TagOp>(op) ||
           (op->getNumRegions() && op->walk([](partir::TagOp) {
                                       return WalkResult::interrupt();
                                     }).wasInterrupted());
  };
  llvm::DenseSet<Operation *> dead =
      sim::findDeadOps(func.getBody().front(), holdsTag);
  if (dead.empty())
    return;
  // Readers first: a post-order walk from the end of each block. An op
  // inside a dead one goes with it and is not counted.
  unsigned erased = 0;
  func.walk<WalkOrder::PostOrder, ReverseIterator>([&](Operation *op) {
    if (!dead.contains(op))
      return;
    Operation *parent = op->getParentOp();
    erased += !parent || !sim::neverRuns(parent, dead);
    op->erase();
  });
  // Schedules written before may number ops (`#N`) with them.
  emitRemark(func.getLoc())
      << "erased " << erased << " op" << (erased == 1 ? "" : "s") << " of @"
      << func.getSymName()
      << " whose results nothing reads (`#N` selectors number the ops left)";
}

/// Erases the private functions nothing calls once `entry`'s calls are
/// inlined: they would be left in every program partitioned, lowered or
/// exported from it (15 in the GPT-2 export).
static void eraseUncalledFunctions(func::FuncOp entry) {
  auto module = entry->getParentOfType<ModuleOp>();
  if (!module)
    return;
  for (bool erased = true; erased;) {
    erased = false;
    for (auto f : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (f != entry && f.isPrivate() &&
          SymbolTable::symbolKnownUseEmpty(f, module)) {
        f.erase();
        erased = true;
      }
  }
}

unsigned distinguishElidedConstants(ModuleOp module) {
  auto &resources =
      DenseResourceElementsHandle::getManagerInterface(module.getContext());
  unsigned renamed = 0;
  module.walk([&](Operation *op) {
    if (!op->hasTrait<OpTrait::ConstantLike>())
      return;
    for (NamedAttribute named : op->getAttrs()) {
      auto value = dyn_cast<DenseResourceElementsAttr>(named.getValue());
      if (!value || value.getRawHandle().getKey() != "__elided__" ||
          value.getRawHandle().getBlob())
        continue;
      // The manager makes the name unique (`__elided___1`, ...); toast-run
      // fills every key that starts with `__elided__`.
      DenseResourceElementsHandle handle = resources.insert("__elided__");
      op->setAttr(named.getName(),
                  DenseResourceElementsAttr::get(value.getType(), handle));
      ++renamed;
    }
  });
  return renamed;
}

LogicalResult prepareEntryFunction(func::FuncOp func) {
  if (auto module = func->getParentOfType<ModuleOp>())
    distinguishElidedConstants(module);
  FailureOr<unsigned> inlined = inlineCalls(func);
  if (failed(inlined))
    return failure();
  if (*inlined) {
    emitRemark(func.getLoc())
        << "inlined " << *inlined << " call" << (*inlined == 1 ? "" : "s")
        << " into @" << func.getSymName()
        << " so that tilings propagate through them";
    eraseUncalledFunctions(func);
  }
  eraseDeadOps(func);
  return success();
}

/// Lowers a copy of the module partitioned as `state` says to device-local
/// PartIR:HLO and simulates it; the module itself is left as it was.
static FailureOr<sim::SimulationResult>
simulateState(ModuleOp module, ShardingState &state,
              const sim::DeviceSpec &device) {
  state.save();
  OwningOpRef<ModuleOp> copy(module.clone());
  FailureOr<func::FuncOp> func = getEntryFunction(*copy);
  if (failed(func))
    return failure();
  ShardingState copyState(*func, state.getMesh());
  if (failed(copyState.load()) || failed(copyState.materializeCore()) ||
      failed(partir_hlo::lowerToDeviceLocal(*copy, *func, state.getMesh())))
    return failure();
  sim::SimulationOptions options;
  options.function = func->getSymName().str();
  auto result = sim::simulate(*copy, device, options);
  ShardingState::clearSavedState(state.getFunction());
  return result;
}

FailureOr<std::vector<TacticReport>>
partition(ModuleOp module, const Schedule &schedule, bool materialize) {
  FailureOr<partir::MeshAttr> mesh = resolveMesh(module, schedule.mesh);
  if (failed(mesh))
    return failure();
  FailureOr<func::FuncOp> func = getEntryFunction(module);
  if (failed(func))
    return failure();
  if (failed(prepareEntryFunction(*func)))
    return failure();
  ShardingState state(*func, *mesh);
  if (failed(state.load()))
    return failure();
  std::optional<sim::DeviceSpec> device;
  if (!schedule.device.empty()) {
    llvm::Expected<sim::DeviceSpec> found = sim::lookupDevice(schedule.device);
    if (!found)
      return module.emitError("schedule device: ")
             << llvm::toString(found.takeError());
    device = *found;
    // Lowering for the simulation creates PartIR:HLO ops. Passes declare the
    // dialect as dependent (then this only looks it up); C++ callers get it
    // loaded here.
    module.getContext()->getOrLoadDialect<partir_hlo::PartIRHLODialect>();
  }
  std::vector<TacticReport> reports;
  auto record = [&](FailureOr<TacticReport> report) -> LogicalResult {
    if (failed(report))
      return failure();
    if (device) {
      FailureOr<sim::SimulationResult> simulated =
          simulateState(module, state, *device);
      if (failed(simulated))
        return failure();
      report->simulation = *simulated;
    }
    reports.push_back(std::move(*report));
    return success();
  };
  const AutomaticTactic *nextAuto = schedule.automatic.begin();
  auto runAutomaticUpTo = [&](unsigned position) -> LogicalResult {
    for (;
         nextAuto != schedule.automatic.end() && nextAuto->position <= position;
         ++nextAuto) {
      AutomaticTactic tactic = *nextAuto;
      if (tactic.device.empty())
        tactic.device = schedule.device.empty() ? "a100" : schedule.device;
      if (failed(record(applyAutomaticTactic(state, tactic))))
        return failure();
    }
    return success();
  };
  for (auto [i, tactic] : llvm::enumerate(schedule.tactics))
    if (failed(runAutomaticUpTo(i)) ||
        failed(record(applyManualTactic(state, tactic))))
      return failure();
  if (failed(runAutomaticUpTo(schedule.tactics.size())))
    return failure();
  if (materialize) {
    if (failed(state.materializeCore()))
      return failure();
  } else {
    state.save();
  }
  return reports;
}

} // namespace toast::partition
