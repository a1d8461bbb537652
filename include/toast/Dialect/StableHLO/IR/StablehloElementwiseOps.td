//===- StablehloElementwiseOps.td - Elementwise ops --------*- tablegen -*-===//
//
// Unary, binary and ternary elementwise ops, comparisons and conversions.
// Types print as one type when operands and result agree, else as a function
// type: `stablehlo.add %a, %b : tensor<4xf32>`.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_DIALECT_STABLEHLO_IR_STABLEHLOELEMENTWISEOPS_TD
#define TOAST_DIALECT_STABLEHLO_IR_STABLEHLOELEMENTWISEOPS_TD

include "toast/Dialect/StableHLO/IR/StablehloAttrs.td"

class HLO_UnaryOp<string mnemonic, string what, list<Trait> traits = []>
    : StableHLO_Op<mnemonic, !listconcat([Pure, Elementwise,
                                          SameOperandsAndResultShape], traits)> {
  let summary = what # " (elementwise)";
  let description = "Computes " # what # " of every element of `operand`.\n\n"
    # "```mlir\n%r = stablehlo." # mnemonic # " %x : tensor<4xf32>\n```";
  let arguments = (ins HLO_Tensor:$operand);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
}

class HLO_SameTypeUnaryOp<string mnemonic, string what>
    : HLO_UnaryOp<mnemonic, what, [SameOperandsAndResultElementType]>;

def StableHLO_AbsOp : HLO_UnaryOp<"abs", "absolute value">;
def StableHLO_CbrtOp : HLO_SameTypeUnaryOp<"cbrt", "cubic root">;
def StableHLO_CeilOp : HLO_SameTypeUnaryOp<"ceil", "ceiling">;
def StableHLO_ConvertOp : HLO_UnaryOp<"convert", "element type conversion">;
def StableHLO_CosineOp : HLO_SameTypeUnaryOp<"cosine", "cosine">;
def StableHLO_ClzOp : HLO_SameTypeUnaryOp<"count_leading_zeros",
                                          "the number of leading zero bits">;
def StableHLO_ExpOp : HLO_SameTypeUnaryOp<"exponential", "e^x">;
def StableHLO_Expm1Op : HLO_SameTypeUnaryOp<"exponential_minus_one",
                                            "e^x - 1">;
def StableHLO_FloorOp : HLO_SameTypeUnaryOp<"floor", "floor">;
def StableHLO_ImagOp : HLO_UnaryOp<"imag", "the imaginary part">;
def StableHLO_IsFiniteOp : HLO_UnaryOp<"is_finite", "whether the value is finite">;
def StableHLO_LogOp : HLO_SameTypeUnaryOp<"log", "natural logarithm">;
def StableHLO_Log1pOp : HLO_SameTypeUnaryOp<"log_plus_one", "log(1 + x)">;
def StableHLO_LogisticOp : HLO_SameTypeUnaryOp<"logistic", "1 / (1 + e^-x)">;
def StableHLO_NotOp : HLO_SameTypeUnaryOp<"not", "bitwise/logical not">;
def StableHLO_NegOp : HLO_SameTypeUnaryOp<"negate", "negation">;
def StableHLO_PopcntOp : HLO_SameTypeUnaryOp<"popcnt", "the number of set bits">;
def StableHLO_RealOp : HLO_UnaryOp<"real", "the real part">;
def StableHLO_RoundOp : HLO_SameTypeUnaryOp<"round_nearest_afz",
    "rounding to nearest, ties away from zero">;
def StableHLO_RoundNearestEvenOp : HLO_SameTypeUnaryOp<"round_nearest_even",
    "rounding to nearest, ties to even">;
def StableHLO_RsqrtOp : HLO_SameTypeUnaryOp<"rsqrt", "reciprocal square root">;
def StableHLO_SignOp : HLO_SameTypeUnaryOp<"sign", "sign">;
def StableHLO_SineOp : HLO_SameTypeUnaryOp<"sine", "sine">;
def StableHLO_SqrtOp : HLO_SameTypeUnaryOp<"sqrt", "square root">;
def StableHLO_TanOp : HLO_SameTypeUnaryOp<"tan", "tangent">;
def StableHLO_TanhOp : HLO_SameTypeUnaryOp<"tanh", "hyperbolic tangent">;

def StableHLO_BitcastConvertOp : StableHLO_Op<"bitcast_convert", [Pure]> {
  let summary = "bit-preserving element type change";
  let description = [{
    Reinterprets the bits of `operand` as another element type; a narrower
    or wider result type adds or drops a minor dimension.

    ```mlir
    %r = stablehlo.bitcast_convert %x : (tensor<2xf32>) -> tensor<2xui32>
    ```
  }];
  let arguments = (ins HLO_Tensor:$operand);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
  let hasVerifier = 1;
}

def StableHLO_ReducePrecisionOp : StableHLO_Op<"reduce_precision",
    [Pure, Elementwise, SameOperandsAndResultType]> {
  let summary = "rounds to a narrower floating-point format";
  let description = [{
    ```mlir
    %r = stablehlo.reduce_precision %x, format = e5m10 : tensor<4xf32>
    ```
  }];
  let arguments = (ins HLO_Tensor:$operand, I32Attr:$exponent_bits,
                       I32Attr:$mantissa_bits);
  let results = (outs HLO_Tensor:$output);
  let assemblyFormat = [{
    $operand `,` `format` `=` custom<ExponentMantissa>($exponent_bits, $mantissa_bits)
    attr-dict `:` custom<SameOperandsAndResultType>(type($operand), type($output))
  }];
  let hasVerifier = 1;
}

class HLO_BinaryOp<string mnemonic, string what, list<Trait> traits = []>
    : StableHLO_Op<mnemonic, !listconcat([Pure, Elementwise,
                                          SameOperandsAndResultShape], traits)> {
  let summary = what # " (elementwise)";
  let description = "Computes " # what # " elementwise.\n\n"
    # "```mlir\n%r = stablehlo." # mnemonic # " %a, %b : tensor<4xf32>\n```";
  let arguments = (ins HLO_Tensor:$lhs, HLO_Tensor:$rhs);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:`
    custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))
  }];
}

class HLO_SameTypeBinaryOp<string mnemonic, string what, list<Trait> traits = []>
    : HLO_BinaryOp<mnemonic, what,
                   !listconcat([SameOperandsAndResultElementType], traits)>;

def StableHLO_AddOp : HLO_SameTypeBinaryOp<"add", "the sum", [Commutative]>;
def StableHLO_AndOp : HLO_SameTypeBinaryOp<"and", "bitwise/logical and",
                                           [Commutative]>;
def StableHLO_Atan2Op : HLO_SameTypeBinaryOp<"atan2", "atan2(lhs, rhs)">;
def StableHLO_DivOp : HLO_SameTypeBinaryOp<"divide", "the quotient">;
def StableHLO_MaxOp : HLO_SameTypeBinaryOp<"maximum", "the maximum",
                                           [Commutative]>;
def StableHLO_MinOp : HLO_SameTypeBinaryOp<"minimum", "the minimum",
                                           [Commutative]>;
def StableHLO_MulOp : HLO_SameTypeBinaryOp<"multiply", "the product",
                                           [Commutative]>;
def StableHLO_OrOp : HLO_SameTypeBinaryOp<"or", "bitwise/logical or",
                                          [Commutative]>;
def StableHLO_PowOp : HLO_SameTypeBinaryOp<"power", "lhs to the power rhs">;
def StableHLO_RemOp : HLO_SameTypeBinaryOp<"remainder", "the remainder">;
def StableHLO_ShiftLeftOp : HLO_SameTypeBinaryOp<"shift_left", "lhs << rhs">;
def StableHLO_ShiftRightArithmeticOp : HLO_SameTypeBinaryOp<
    "shift_right_arithmetic", "arithmetic right shift">;
def StableHLO_ShiftRightLogicalOp : HLO_SameTypeBinaryOp<
    "shift_right_logical", "logical right shift">;
def StableHLO_SubtractOp : HLO_SameTypeBinaryOp<"subtract", "the difference">;
def StableHLO_XorOp : HLO_SameTypeBinaryOp<"xor", "bitwise/logical xor",
                                           [Commutative]>;

def StableHLO_ComplexOp : StableHLO_Op<"complex",
    [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "builds complex numbers from real and imaginary parts";
  let description = [{
    ```mlir
    %c = stablehlo.complex %re, %im : tensor<4xcomplex<f32>>
    ```
  }];
  let arguments = (ins HLO_Tensor:$lhs, HLO_Tensor:$rhs);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:`
    custom<ComplexOpType>(type($lhs), type($rhs), type($result))
  }];
  let hasVerifier = 1;
}

def StableHLO_ClampOp : StableHLO_Op<"clamp", [Pure]> {
  let summary = "clamps every element to [min, max]";
  let description = [{
    `min` and `max` are scalars or have the shape of `operand`.

    ```mlir
    %r = stablehlo.clamp %min, %x, %max : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins HLO_Tensor:$min, HLO_Tensor:$operand, HLO_Tensor:$max);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $min `,` $operand `,` $max attr-dict `:`
    custom<SameOperandsAndResultType>(type($min), type($operand), type($max), type($result))
  }];
  let hasVerifier = 1;
}

def StableHLO_SelectOp : StableHLO_Op<"select", [Pure]> {
  let summary = "elementwise choice between two tensors";
  let description = [{
    `pred` is a scalar or has the shape of the operands.

    ```mlir
    %r = stablehlo.select %p, %a, %b : tensor<4xi1>, tensor<4xf32>
    ```
  }];
  let arguments = (ins HLO_PredTensor:$pred, HLO_Tensor:$on_true,
                       HLO_Tensor:$on_false);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    operands attr-dict `:`
    custom<SelectOpType>(type($pred), type($on_true), type($on_false), type($result))
  }];
  let hasVerifier = 1;
}

def StableHLO_CompareOp : StableHLO_Op<"compare",
    [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "elementwise comparison";
  let description = [{
    ```mlir
    %r = stablehlo.compare LT, %a, %b, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    ```
  }];
  let arguments = (ins HLO_Tensor:$lhs, HLO_Tensor:$rhs,
                       HLO_ComparisonDirectionAttr:$comparison_direction,
                       OptionalAttr<HLO_ComparisonTypeAttr>:$compare_type);
  let results = (outs HLO_PredTensor:$result);
  let assemblyFormat = [{
    $comparison_direction `,` $lhs `,` $rhs (`,` $compare_type^)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // TOAST_DIALECT_STABLEHLO_IR_STABLEHLOELEMENTWISEOPS_TD
