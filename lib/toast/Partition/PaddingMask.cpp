//===- PaddingMask.cpp - Neutralize the padding of padded tiles ----------===//
//
// The ops are built by name, as adjustLocalAttributes rewrites them, so that
// this library needs no StableHLO classes.
//
//===----------------------------------------------------------------------===//

#include "PaddingMask.h"

#include "toast/Dialect/PartIR/Core/IR/PartIRCore.h"

using namespace mlir;

namespace toast::partition {

static Value createByName(OpBuilder &b, Location loc, StringRef name,
                          ValueRange operands, Type type,
                          ArrayRef<NamedAttribute> attrs = {}) {
  OperationState state(loc, name);
  state.addOperands(operands);
  state.addTypes(type);
  state.addAttributes(attrs);
  return b.create(state)->getResult(0);
}

static Value constant(OpBuilder &b, Location loc, DenseElementsAttr value) {
  return createByName(b, loc, "stablehlo.constant", {}, value.getType(),
                      {b.getNamedAttr("value", value)});
}

FailureOr<Value> zeroPadding(OpBuilder &b, Location loc, Value tile,
                             int64_t dim, Value range, int64_t size) {
  auto type = cast<RankedTensorType>(tile.getType());
  Type element = type.getElementType();
  if (!isa<FloatType, IntegerType>(element))
    return emitError(loc) << "padded reduction over dimension " << dim
                          << " of " << type
                          << ": no zero to mask the padding with";
  int64_t n = cast<partir::RangeType>(range.getType()).getSize();
  int64_t chunk = type.getDimSize(dim);
  // Validity in the padded layout: n chunks of `chunk` rows, the first
  // `size` real.
  SmallVector<bool> valid(n * chunk, false);
  std::fill_n(valid.begin(), size, true);
  auto i1 = b.getI1Type();
  auto layout = RankedTensorType::get({n * chunk}, i1);
  Value all = constant(b, loc, DenseElementsAttr::get(layout, valid));
  Value mine = partir::SliceOp::create(
      b, loc, RankedTensorType::get({chunk}, i1), b.getI64IntegerAttr(0), all,
      range);
  Value pred = createByName(
      b, loc, "stablehlo.broadcast_in_dim", mine, type.clone(i1),
      {b.getNamedAttr("broadcast_dimensions", b.getDenseI64ArrayAttr({dim}))});
  Value zero = constant(
      b, loc, DenseElementsAttr::get(type, b.getZeroAttr(element)));
  return createByName(b, loc, "stablehlo.select", {pred, tile, zero}, type);
}

} // namespace toast::partition
