//===- Sdy.h - Minimal sdy dialect ------------------------------*- C++ -*-===//
//
// Mesh symbols, tensor shardings, manual computations (shard_map) and the
// sdy collectives in Shardy's syntax, so that Shardy-annotated programs
// parse and verify (see SdyBase.td and SdyOps.td). Has no dependency on
// PartIR.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_DIALECT_SDY_IR_SDY_H
#define TOAST_DIALECT_SDY_IR_SDY_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "toast/Interfaces/ControlFlow.h"

namespace toast::sdy {
class MeshOp;
} // namespace toast::sdy

#include "toast/Dialect/Sdy/IR/SdyDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "toast/Dialect/Sdy/IR/SdyAttrs.h.inc"

namespace toast::sdy {
/// Prints `"a", "x":(1)2` (the inside of a brace list).
void printAxisRefs(mlir::AsmPrinter &printer, llvm::ArrayRef<AxisRefAttr> refs);
/// Parses `{"a", "x":(1)2}`.
mlir::ParseResult parseAxisRefSet(mlir::AsmParser &parser,
                                  llvm::SmallVectorImpl<AxisRefAttr> &refs);
/// Parses `[e, e, ...]`, each element with AttrT's custom parser (without
/// its `#sdy.` prefix).
template <typename AttrT>
mlir::ParseResult parseAttrList(mlir::AsmParser &parser,
                                llvm::SmallVectorImpl<AttrT> &elements) {
  return parser.parseCommaSeparatedList(
      mlir::AsmParser::Delimiter::Square, [&]() -> mlir::ParseResult {
        auto element =
            llvm::dyn_cast_or_null<AttrT>(AttrT::parse(parser, mlir::Type()));
        if (!element)
          return mlir::failure();
        elements.push_back(element);
        return mlir::success();
      });
}
/// Prints `[e, e, ...]`, the inverse of parseAttrList.
template <typename AttrT>
void printAttrList(mlir::AsmPrinter &printer, llvm::ArrayRef<AttrT> elements) {
  printer << '[';
  llvm::interleaveComma(elements, printer,
                        [&](AttrT element) { element.print(printer); });
  printer << ']';
}

/// `{"a", "x":(1)2}` as a string, for diagnostics.
std::string formatAxisRefs(llvm::ArrayRef<AxisRefAttr> refs);

/// Checks that `ref` names an axis of `mesh` (called `meshName`, null when
/// inline) and, for a sub-axis, that it divides that axis.
mlir::LogicalResult
verifyAxisRef(AxisRefAttr ref, MeshAttr mesh, mlir::FlatSymbolRefAttr meshName,
              llvm::function_ref<mlir::InFlightDiagnostic()> emitError);
/// verifyAxisRef on each of `refs`, and no two of them overlap.
mlir::LogicalResult verifyDisjointAxisRefs(
    llvm::ArrayRef<AxisRefAttr> refs, MeshAttr mesh,
    mlir::FlatSymbolRefAttr meshName,
    llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// The closed sharding on the mesh named `mesh` whose dimension `d` is
/// sharded on the axes `dims[d]` (major to minor).
TensorShardingAttr
getClosedSharding(mlir::FlatSymbolRefAttr mesh,
                  llvm::ArrayRef<llvm::SmallVector<std::string>> dims);

/// The sharding `value` is known to have: the `sdy.sharding` of a function
/// argument, of the op defining it, or the sharding a sharding_constraint,
/// reshard, collective or manual_computation gives its result. Null when
/// none is known.
TensorShardingAttr getSharding(mlir::Value value);

/// The product of the sizes of the axes sharding dimension `dim` of
/// `sharding` on `mesh` for which `pick` holds (all axes when null).
int64_t getShardCount(TensorShardingAttr sharding, int64_t dim, MeshAttr mesh,
                      llvm::function_ref<bool(AxisRefAttr)> pick = nullptr);
} // namespace toast::sdy

#define GET_OP_CLASSES
#include "toast/Dialect/Sdy/IR/SdyOps.h.inc"

#endif // TOAST_DIALECT_SDY_IR_SDY_H
