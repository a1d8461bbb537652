//===- SdyCollectiveAttrs.cpp - Attributes of the sdy collectives ---------===//
//
// The axis lists that the sdy collectives print inline, in Shardy's syntax:
//
//   sdy.all_gather [{}, {"x"}] ...        one axis list per dimension
//   sdy.all_reduce {"y"} ...              one axis list
//   sdy.all_to_all [{"x"}: 0->1] ...      axes moved between dimensions
//
//===----------------------------------------------------------------------===//

#include "toast/Dialect/Sdy/IR/Sdy.h"

#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace toast::sdy;

Attribute AxisRefListAttr::parse(AsmParser &parser, Type) {
  SmallVector<AxisRefAttr> refs;
  if (parseAxisRefSet(parser, refs))
    return {};
  return AxisRefListAttr::get(parser.getContext(), refs);
}

void AxisRefListAttr::print(AsmPrinter &printer) const {
  printer << '{';
  printAxisRefs(printer, getAxes());
  printer << '}';
}

Attribute ListOfAxisRefListsAttr::parse(AsmParser &parser, Type) {
  SmallVector<AxisRefListAttr> lists;
  if (parseAttrList(parser, lists))
    return {};
  return ListOfAxisRefListsAttr::get(parser.getContext(), lists);
}

void ListOfAxisRefListsAttr::print(AsmPrinter &printer) const {
  printAttrList(printer, getLists());
}

Attribute AllToAllParamAttr::parse(AsmParser &parser, Type) {
  SmallVector<AxisRefAttr> refs;
  int64_t src, tgt;
  if (parseAxisRefSet(parser, refs) || parser.parseColon() ||
      parser.parseInteger(src) || parser.parseArrow() ||
      parser.parseInteger(tgt))
    return {};
  return AllToAllParamAttr::get(parser.getContext(), refs, src, tgt);
}

void AllToAllParamAttr::print(AsmPrinter &printer) const {
  printer << '{';
  printAxisRefs(printer, getAxes());
  printer << "}: " << getSrcDim() << "->" << getTgtDim();
}

Attribute AllToAllParamListAttr::parse(AsmParser &parser, Type) {
  SmallVector<AllToAllParamAttr> params;
  if (parseAttrList(parser, params))
    return {};
  return AllToAllParamListAttr::get(parser.getContext(), params);
}

void AllToAllParamListAttr::print(AsmPrinter &printer) const {
  printAttrList(printer, getParams());
}
