//===- GraphBuilder.cpp - Signature, constants and elementwise ops --------===//
//
// The function being built, its named arguments and results, constants,
// and the elementwise emitters with their VJP rules.
//
//===----------------------------------------------------------------------===//

#include "toast/Models/GraphBuilder.h"

#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace toast;
using namespace toast::models;

GraphBuilder::GraphBuilder(MLIRContext *ctx, StringRef moduleName)
    : ctx(ctx), builder(ctx), loc(UnknownLoc::get(ctx)) {
  module = ModuleOp::create(loc, moduleName);
  Builder b(ctx);
  (*module)->setAttr("mhlo.num_partitions", b.getI32IntegerAttr(1));
  (*module)->setAttr("mhlo.num_replicas", b.getI32IntegerAttr(1));
  builder.setInsertionPointToEnd(module->getBody());
  func = func::FuncOp::create(builder, loc, "main",
                              builder.getFunctionType({}, {}));
  func.setPublic();
  builder.setInsertionPointToStart(func.addEntryBlock());
}

//===----------------------------------------------------------------------===//
// Signature
//===----------------------------------------------------------------------===//

Value GraphBuilder::insertArgument(unsigned index, StringRef name,
                                   ArrayRef<int64_t> shape, Type elementType) {
  StringAttr nameAttr = builder.getStringAttr(name);
  DictionaryAttr attrs = builder.getDictionaryAttr(
      {builder.getNamedAttr("partir.name", nameAttr),
       builder.getNamedAttr("jax.arg_info", nameAttr)});
  argAttrs.insert(argAttrs.begin() + index, attrs);
  return func.front().insertArgument(index, tensorType(shape, elementType),
                                     loc);
}

Value GraphBuilder::argument(StringRef name, ArrayRef<int64_t> shape,
                             Type elementType) {
  return insertArgument(func.front().getNumArguments() - trailingArguments,
                        name, shape, elementType);
}

Value GraphBuilder::trailingArgument(StringRef name, ArrayRef<int64_t> shape,
                                     Type elementType) {
  ++trailingArguments;
  return insertArgument(func.front().getNumArguments(), name, shape,
                        elementType);
}

void GraphBuilder::result(StringRef name, Value value) {
  results.push_back(value);
  resultNames.push_back(name.str());
}

OwningOpRef<ModuleOp> GraphBuilder::finish() {
  func::ReturnOp::create(builder, loc, results);
  SmallVector<Type> types;
  for (Value v : results)
    types.push_back(v.getType());
  func.setType(builder.getFunctionType(func.front().getArgumentTypes(), types));
  func.setAllArgAttrs(argAttrs);
  // All at once: setting them one by one rebuilds the whole array each time.
  SmallVector<DictionaryAttr> resultAttrs;
  for (const std::string &name : resultNames)
    resultAttrs.push_back(builder.getDictionaryAttr(
        builder.getNamedAttr("jax.result_info", builder.getStringAttr(name))));
  func.setAllResultAttrs(resultAttrs);
  if (failed(verify(*module)))
    return nullptr;
  return std::move(module);
}

//===----------------------------------------------------------------------===//
// Types and constants
//===----------------------------------------------------------------------===//

Type GraphBuilder::computeType(Value v) {
  Type elt = elementTypeOf(v);
  if (auto fl = dyn_cast<FloatType>(elt); fl && fl.getWidth() >= 32)
    return elt;
  return f32();
}

RankedTensorType GraphBuilder::typeOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}
ArrayRef<int64_t> GraphBuilder::shapeOf(Value v) {
  return typeOf(v).getShape();
}
Type GraphBuilder::elementTypeOf(Value v) { return typeOf(v).getElementType(); }

RankedTensorType GraphBuilder::tensorType(ArrayRef<int64_t> shape,
                                          Type elementType) {
  return RankedTensorType::get(shape, elementType);
}

Value GraphBuilder::scalar(double v, Type elementType) {
  RankedTensorType type = tensorType({}, elementType);
  Attribute value;
  if (isa<FloatType>(elementType))
    value = builder.getFloatAttr(elementType, v);
  else
    value = builder.getIntegerAttr(elementType, static_cast<int64_t>(v));
  return stablehlo::ConstantOp::create(builder, loc, type,
                                       DenseElementsAttr::get(type, value));
}

Value GraphBuilder::full(double v, ArrayRef<int64_t> shape, Type elementType) {
  Value s = scalar(v, elementType);
  if (shape.empty())
    return s;
  return stablehlo::BroadcastInDimOp::create(builder, loc,
                                             tensorType(shape, elementType), s,
                                             builder.getDenseI64ArrayAttr({}));
}

Value GraphBuilder::fullLike(double v, Value like) {
  return full(v, shapeOf(like), elementTypeOf(like));
}

Value GraphBuilder::iota(ArrayRef<int64_t> shape, int64_t dim,
                         Type elementType) {
  return stablehlo::IotaOp::create(builder, loc, tensorType(shape, elementType),
                                   static_cast<uint64_t>(dim));
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

template <typename OpTy> Value GraphBuilder::unary(Value a) {
  return OpTy::create(builder, loc, a.getType(), a);
}

template <typename OpTy> Value GraphBuilder::binary(Value a, Value b) {
  assert(a.getType() == b.getType() && "binary ops need equal types");
  return OpTy::create(builder, loc, a.getType(), a, b);
}

Value GraphBuilder::add(Value a, Value b) {
  Value r = binary<stablehlo::AddOp>(a, b);
  record(r, {a, b}, [](Value g, ArrayRef<bool>) {
    return SmallVector<Value, 3>{g, g};
  });
  return r;
}

Value GraphBuilder::sub(Value a, Value b) {
  Value r = binary<stablehlo::SubtractOp>(a, b);
  record(r, {a, b}, [this](Value g, ArrayRef<bool> need) {
    return SmallVector<Value, 3>{g, need[1] ? neg(g) : Value()};
  });
  return r;
}

Value GraphBuilder::mul(Value a, Value b) {
  Value r = binary<stablehlo::MulOp>(a, b);
  record(r, {a, b}, [this, a, b](Value g, ArrayRef<bool> need) {
    return SmallVector<Value, 3>{need[0] ? mul(g, b) : Value(),
                                 need[1] ? mul(a, g) : Value()};
  });
  return r;
}

Value GraphBuilder::div(Value a, Value b) {
  Value r = binary<stablehlo::DivOp>(a, b);
  record(r, {a, b}, [this, b, r](Value g, ArrayRef<bool> need) {
    // d(a/b)/db = -(a/b)/b.
    return SmallVector<Value, 3>{need[0] ? div(g, b) : Value(),
                                 need[1] ? neg(div(mul(g, r), b)) : Value()};
  });
  return r;
}

Value GraphBuilder::max(Value a, Value b) {
  Value r = binary<stablehlo::MaxOp>(a, b);
  record(r, {a, b}, [this, a, b](Value g, ArrayRef<bool> need) {
    // Ties send the gradient to `a`, as in relu(x) = max(x, 0).
    Value zero = fullLike(0.0, g);
    Value aWins = compare(a, b, stablehlo::ComparisonDirection::GE);
    return SmallVector<Value, 3>{need[0] ? select(aWins, g, zero) : Value(),
                                 need[1] ? select(aWins, zero, g) : Value()};
  });
  return r;
}

Value GraphBuilder::pow(Value a, Value b) {
  return binary<stablehlo::PowOp>(a, b);
}

Value GraphBuilder::neg(Value a) {
  Value r = unary<stablehlo::NegOp>(a);
  record(r, {a}, [this](Value g, ArrayRef<bool>) {
    return SmallVector<Value, 3>{neg(g)};
  });
  return r;
}

Value GraphBuilder::exp(Value a) {
  Value r = unary<stablehlo::ExpOp>(a);
  record(r, {a}, [this, r](Value g, ArrayRef<bool>) {
    return SmallVector<Value, 3>{mul(g, r)};
  });
  return r;
}

Value GraphBuilder::log(Value a) {
  Value r = unary<stablehlo::LogOp>(a);
  record(r, {a}, [this, a](Value g, ArrayRef<bool>) {
    return SmallVector<Value, 3>{div(g, a)};
  });
  return r;
}

Value GraphBuilder::tanh(Value a) {
  Value r = unary<stablehlo::TanhOp>(a);
  record(r, {a}, [this, r](Value g, ArrayRef<bool>) {
    // (1 - tanh^2) g
    Value one = fullLike(1.0, r);
    return SmallVector<Value, 3>{mul(g, sub(one, mul(r, r)))};
  });
  return r;
}

Value GraphBuilder::rsqrt(Value a) {
  Value r = unary<stablehlo::RsqrtOp>(a);
  record(r, {a}, [this, a, r](Value g, ArrayRef<bool>) {
    // d a^{-1/2} = -1/2 a^{-1/2} / a
    return SmallVector<Value, 3>{mulScalar(div(mul(g, r), a), -0.5)};
  });
  return r;
}

Value GraphBuilder::sqrt(Value a) {
  Value r = unary<stablehlo::SqrtOp>(a);
  record(r, {a}, [this, r](Value g, ArrayRef<bool>) {
    return SmallVector<Value, 3>{mulScalar(div(g, r), 0.5)};
  });
  return r;
}

Value GraphBuilder::logistic(Value a) {
  Value r = unary<stablehlo::LogisticOp>(a);
  record(r, {a}, [this, r](Value g, ArrayRef<bool>) {
    Value one = fullLike(1.0, r);
    return SmallVector<Value, 3>{mul(g, mul(r, sub(one, r)))};
  });
  return r;
}

Value GraphBuilder::sin(Value a) { return unary<stablehlo::SineOp>(a); }
Value GraphBuilder::cos(Value a) { return unary<stablehlo::CosineOp>(a); }

Value GraphBuilder::convert(Value a, Type elementType) {
  if (elementTypeOf(a) == elementType)
    return a;
  Type from = elementTypeOf(a);
  Value r = stablehlo::ConvertOp::create(
      builder, loc, tensorType(shapeOf(a), elementType), a);
  if (isa<FloatType>(from) && isa<FloatType>(elementType))
    record(r, {a}, [this, from](Value g, ArrayRef<bool>) {
      return SmallVector<Value, 3>{convert(g, from)};
    });
  return r;
}

Value GraphBuilder::compare(Value a, Value b,
                            stablehlo::ComparisonDirection dir) {
  Type elt = elementTypeOf(a);
  stablehlo::ComparisonType kind = stablehlo::ComparisonType::FLOAT;
  if (elt.isUnsignedInteger() || elt.isInteger(1))
    kind = stablehlo::ComparisonType::UNSIGNED;
  else if (isa<IntegerType>(elt))
    kind = stablehlo::ComparisonType::SIGNED;
  return stablehlo::CompareOp::create(
      builder, loc, tensorType(shapeOf(a), i1()), a, b, dir,
      stablehlo::ComparisonTypeAttr::get(ctx, kind));
}

Value GraphBuilder::select(Value pred, Value onTrue, Value onFalse) {
  Value r = stablehlo::SelectOp::create(builder, loc, onTrue.getType(), pred,
                                        onTrue, onFalse);
  record(
      r, {pred, onTrue, onFalse}, [this, pred](Value g, ArrayRef<bool> need) {
        Value zero = fullLike(0.0, g);
        return SmallVector<Value, 3>{Value(),
                                     need[1] ? select(pred, g, zero) : Value(),
                                     need[2] ? select(pred, zero, g) : Value()};
      });
  return r;
}

Value GraphBuilder::addScalar(Value a, double c) {
  return add(a, fullLike(c, a));
}

Value GraphBuilder::mulScalar(Value a, double c) {
  return mul(a, fullLike(c, a));
}
