//===- ChloOps.td - CHLO ops used by exports ---------------*- tablegen -*-===//
//
// The "client HLO" ops JAX emits for special functions and top_k. They are
// elementwise (except top_k) and print as `chlo.erf %x : T -> T`.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_DIALECT_CHLO_IR_CHLOOPS_TD
#define TOAST_DIALECT_CHLO_IR_CHLOOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def CHLO_Dialect : Dialect {
  let name = "chlo";
  let cppNamespace = "::toast::chlo";
  let summary = "The client-HLO ops that JAX exports contain";
  let description = [{
    Special functions (erf, lgamma, digamma, ...) and `top_k`, as JAX
    exports print them. They decompose into StableHLO; toast treats them as
    elementwise ops (top_k reduces its last dimension).
  }];
}

class CHLO_Op<string mnemonic, list<Trait> traits = []>
    : Op<CHLO_Dialect, mnemonic, traits>;

def CHLO_Tensor : RankedTensorOf<[AnyType]>;

class CHLO_UnaryOp<string mnemonic, string what, list<Trait> traits = []>
    : CHLO_Op<mnemonic, !listconcat([Pure, Elementwise,
                                     SameOperandsAndResultShape], traits)> {
  let summary = what # " (elementwise)";
  let description = "Computes " # what # " of every element.\n\n"
    # "```mlir\n%r = chlo." # mnemonic # " %x : tensor<4xf32> -> tensor<4xf32>\n```";
  let arguments = (ins CHLO_Tensor:$operand);
  let results = (outs CHLO_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
}

class CHLO_SameTypeUnaryOp<string mnemonic, string what>
    : CHLO_UnaryOp<mnemonic, what, [SameOperandsAndResultElementType]>;

def CHLO_AcosOp : CHLO_SameTypeUnaryOp<"acos", "arc cosine">;
def CHLO_AcoshOp : CHLO_SameTypeUnaryOp<"acosh", "inverse hyperbolic cosine">;
def CHLO_AsinOp : CHLO_SameTypeUnaryOp<"asin", "arc sine">;
def CHLO_AsinhOp : CHLO_SameTypeUnaryOp<"asinh", "inverse hyperbolic sine">;
def CHLO_AtanOp : CHLO_SameTypeUnaryOp<"atan", "arc tangent">;
def CHLO_AtanhOp : CHLO_SameTypeUnaryOp<"atanh", "inverse hyperbolic tangent">;
def CHLO_BesselI1eOp : CHLO_SameTypeUnaryOp<"bessel_i1e",
    "the exponentially scaled modified Bessel function of order 1">;
def CHLO_ConjOp : CHLO_SameTypeUnaryOp<"conj", "the complex conjugate">;
def CHLO_CoshOp : CHLO_SameTypeUnaryOp<"cosh", "hyperbolic cosine">;
def CHLO_DigammaOp : CHLO_SameTypeUnaryOp<"digamma", "the digamma function">;
def CHLO_ErfOp : CHLO_SameTypeUnaryOp<"erf", "the error function">;
def CHLO_ErfInvOp : CHLO_SameTypeUnaryOp<"erf_inv",
                                         "the inverse error function">;
def CHLO_ErfcOp : CHLO_SameTypeUnaryOp<"erfc",
                                       "the complementary error function">;
def CHLO_IsInfOp : CHLO_UnaryOp<"is_inf", "whether the value is infinite">;
def CHLO_IsNegInfOp : CHLO_UnaryOp<"is_neg_inf", "whether the value is -inf">;
def CHLO_IsPosInfOp : CHLO_UnaryOp<"is_pos_inf", "whether the value is +inf">;
def CHLO_LgammaOp : CHLO_SameTypeUnaryOp<"lgamma",
    "the log of the absolute value of the gamma function">;
def CHLO_SinhOp : CHLO_SameTypeUnaryOp<"sinh", "hyperbolic sine">;
def CHLO_SquareOp : CHLO_SameTypeUnaryOp<"square", "x * x">;
def CHLO_TanOp : CHLO_SameTypeUnaryOp<"tan", "tangent">;

class CHLO_BinaryOp<string mnemonic, string what>
    : CHLO_Op<mnemonic, [Pure, Elementwise, SameOperandsAndResultShape,
                         SameOperandsAndResultElementType]> {
  let summary = what # " (elementwise)";
  let description = "Computes " # what # " elementwise.\n\n"
    # "```mlir\n%r = chlo." # mnemonic
    # " %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>\n```";
  let arguments = (ins CHLO_Tensor:$lhs, CHLO_Tensor:$rhs);
  let results = (outs CHLO_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
}

def CHLO_NextAfterOp : CHLO_BinaryOp<"next_after",
    "the next representable value after lhs towards rhs">;
def CHLO_PolygammaOp : CHLO_BinaryOp<"polygamma", "the polygamma function">;
def CHLO_ZetaOp : CHLO_BinaryOp<"zeta", "the Hurwitz zeta function">;

def CHLO_TopKOp : CHLO_Op<"top_k", [Pure]> {
  let summary = "the k largest elements of the last dimension and their indices";
  let description = [{
    ```mlir
    %values, %indices = chlo.top_k(%x, k = 2) : tensor<5x3xf32> -> (tensor<5x2xf32>, tensor<5x2xi32>)
    ```
  }];
  let arguments = (ins CHLO_Tensor:$operand, I64Attr:$k);
  let results = (outs CHLO_Tensor:$values, CHLO_Tensor:$indices);
  let assemblyFormat = [{
    `(` $operand `,` `k` `=` $k `)` attr-dict `:`
    type($operand) `->` `(` type($values) `,` type($indices) `)`
  }];
  let hasVerifier = 1;
}

#endif // TOAST_DIALECT_CHLO_IR_CHLOOPS_TD
