//===- OpaqueDialect.cpp - Stand-ins for unknown dialects ----------------===//

#include "toast/Dialect/Opaque/OpaqueDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <deque>
#include <mutex>

using namespace mlir;

namespace {
/// A dialect with a name chosen at run time that accepts any op.
class OpaqueDialect : public Dialect {
public:
  OpaqueDialect(StringRef name, MLIRContext *ctx, TypeID id)
      : Dialect(name, ctx, id) {
    allowUnknownOperations();
    allowUnknownTypes();
  }

  std::optional<ParseOpHook>
  getParseOperationHook(StringRef opName) const override {
    return ParseOpHook(parseOpaqueOp);
  }

  /// Attributes and types of the namespace stay opaque: their text is kept
  /// verbatim (builtin OpaqueAttr/OpaqueType) and printed back unchanged.
  Attribute parseAttribute(DialectAsmParser &parser, Type type) const override {
    return OpaqueAttr::get(StringAttr::get(getContext(), getNamespace()),
                           parser.getFullSymbolSpec(),
                           type ? type : NoneType::get(getContext()));
  }
  Type parseType(DialectAsmParser &parser) const override {
    return OpaqueType::get(StringAttr::get(getContext(), getNamespace()),
                           parser.getFullSymbolSpec());
  }

private:
  /// `[@symbol] [(operands)] [attr-dict] : functional-type`.
  static ParseResult parseOpaqueOp(OpAsmParser &parser,
                                   OperationState &result) {
    StringAttr symbol;
    if (succeeded(parser.parseOptionalSymbolName(symbol)))
      result.addAttribute(toast::kOpaqueSymbolAttrName,
                          FlatSymbolRefAttr::get(symbol));
    SmallVector<OpAsmParser::UnresolvedOperand> operands;
    SMLoc loc = parser.getCurrentLocation();
    FunctionType type;
    if (parser.parseOperandList(operands, AsmParser::Delimiter::OptionalParen) ||
        parser.parseOptionalAttrDict(result.attributes))
      return failure();
    if (failed(parser.parseOptionalColon()))
      return parser.emitError(parser.getCurrentLocation(),
                              "has a custom syntax toast cannot read (dialect '")
             << result.name.getDialectNamespace()
             << "' is unknown); write the op in generic form";
    if (parser.parseType(type))
      return failure();
    if (parser.resolveOperands(operands, type.getInputs(), loc,
                               result.operands))
      return failure();
    result.addTypes(type.getResults());
    return success();
  }
};

/// TypeIDs for stand-in dialects, one per namespace, alive for the process.
TypeID getOpaqueTypeID(StringRef name) {
  static std::mutex mutex;
  static llvm::StringMap<TypeID> ids;
  static TypeIDAllocator allocator;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = ids.find(name);
  if (it != ids.end())
    return it->second;
  return ids[name] = allocator.allocate();
}
} // namespace

/// The op name at the start of a statement, or "" if the line has none.
static StringRef statementOpName(StringRef line) {
  line = line.trim();
  if (line.starts_with("%")) {
    size_t eq = line.find(" = ");
    if (eq == StringRef::npos)
      return {};
    line = line.drop_front(eq + 3).ltrim();
  }
  line.consume_front("\"");
  size_t end = line.find_first_of(" \"(<{:");
  return line.take_front(end);
}

llvm::SmallVector<std::string>
toast::findUnknownDialectNamespaces(StringRef source,
                                    const DialectRegistry &registry) {
  llvm::StringSet<> seen;
  SmallVector<std::string> unknown;
  SmallVector<StringRef> lines;
  source.split(lines, '\n');
  for (StringRef line : lines) {
    StringRef opName = statementOpName(line);
    size_t dot = opName.find('.');
    if (dot == StringRef::npos || dot == 0)
      continue;
    StringRef ns = opName.take_front(dot);
    bool isIdentifier = llvm::all_of(ns, [](char c) {
      return llvm::isAlnum(c) || c == '_';
    });
    if (!isIdentifier || !seen.insert(ns).second)
      continue;
    if (!registry.getDialectAllocator(ns) && ns != "builtin")
      unknown.push_back(ns.str());
  }
  return unknown;
}

void toast::registerOpaqueDialect(DialectRegistry &registry, StringRef name) {
  std::string ns = name.str();
  TypeID id = getOpaqueTypeID(ns);
  registry.insert(id, ns, [ns, id](MLIRContext *ctx) -> Dialect * {
    return ctx->getOrLoadDialect(ns, id, [&]() {
      return std::make_unique<OpaqueDialect>(ns, ctx, id);
    });
  });
}
