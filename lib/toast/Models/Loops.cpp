//===- Loops.cpp - Counted while loops and stacked-layer indexing --------===//
//
// The forms jax.lax.fori_loop and jax.lax.scan lower to: a stablehlo.while
// whose carry starts with an i32 counter, compared `LT` against the trip
// count in `cond` and incremented at the end of `body`; scanned inputs are
// read with dynamic_slice + reshape at the counter and stacked outputs are
// written with dynamic_update_slice.
//
//===----------------------------------------------------------------------===//

#include "toast/Models/GraphBuilder.h"

using namespace mlir;
using namespace toast;
using namespace toast::models;

/// Start indices (i, 0, ...) for a rank-`rank` operand.
static SmallVector<Value> leadingIndex(GraphBuilder &b, Value i, int64_t rank) {
  SmallVector<Value> starts{i};
  Value zero = b.scalar(0, GraphBuilder::elementTypeOf(i));
  starts.append(rank - 1, zero);
  return starts;
}

Value GraphBuilder::dynamicIndex(Value a, Value i) {
  NoGradScope noGrad(*this);
  SmallVector<int64_t> sizes(shapeOf(a));
  sizes[0] = 1;
  Value slice = dynamicSlice(a, leadingIndex(*this, i, rankOf(a)), sizes);
  return reshape(slice, shapeOf(a).drop_front());
}

Value GraphBuilder::dynamicUpdateIndex(Value a, Value update, Value i) {
  NoGradScope noGrad(*this);
  SmallVector<int64_t> shape{1};
  llvm::append_range(shape, shapeOf(update));
  return dynamicUpdateSlice(a, reshape(update, shape),
                            leadingIndex(*this, i, rankOf(a)));
}

SmallVector<Value> GraphBuilder::forLoop(int64_t n, ArrayRef<Value> carry,
                                         LoopBody body) {
  SmallVector<Value> operands{scalar(0, i32())};
  llvm::append_range(operands, carry);
  SmallVector<Type> types;
  for (Value v : operands)
    types.push_back(v.getType());
  SmallVector<Location> locs(types.size(), loc);
  auto loop = stablehlo::WhileOp::create(builder, loc, types, operands);
  {
    OpBuilder::InsertionGuard guard(builder);
    Block *cond = builder.createBlock(&loop.getCond(), {}, types, locs);
    Value more =
        compare(cond->getArgument(0), scalar(static_cast<double>(n), i32()),
                stablehlo::ComparisonDirection::LT);
    stablehlo::ReturnOp::create(builder, loc, more);

    Block *block = builder.createBlock(&loop.getBody(), {}, types, locs);
    Value i = block->getArgument(0);
    SmallVector<Value> args(llvm::drop_begin(block->getArguments()));
    SmallVector<Value> next = body(i, args);
    assert(next.size() == carry.size() && "one next value per carried value");
    next.insert(next.begin(), add(i, scalar(1, i32())));
    stablehlo::ReturnOp::create(builder, loc, next);
  }
  return llvm::to_vector_of<Value>(loop->getResults().drop_front());
}
