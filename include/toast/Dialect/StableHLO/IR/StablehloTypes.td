//===- StablehloTypes.td - StableHLO types -----------------*- tablegen -*-===//
//
// `!stablehlo.token`, the value that orders side effects (infeed, outfeed,
// send, recv) and that JAX threads through programs with ordered effects.
// Tuples are the builtin `tuple<...>` type.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_DIALECT_STABLEHLO_IR_STABLEHLOTYPES_TD
#define TOAST_DIALECT_STABLEHLO_IR_STABLEHLOTYPES_TD

include "toast/Dialect/StableHLO/IR/StablehloBase.td"
include "mlir/IR/AttrTypeBase.td"

def HLO_TokenType : TypeDef<StableHLO_Dialect, "Token"> {
  let mnemonic = "token";
  let summary = "orders side effects; carries no data";
  let description = [{
    A token is produced by `after_all` or `create_token` (or taken as a
    function argument) and consumed by ops with side effects, which return a
    new one: data dependencies on tokens give those ops their order.

    ```mlir
    %t = stablehlo.after_all %t0, %t1 : !stablehlo.token
    ```
  }];
}

def HLO_Token : Type<CPred<"::llvm::isa<::toast::stablehlo::TokenType>($_self)">,
                     "token", "::toast::stablehlo::TokenType">,
                BuildableType<"::toast::stablehlo::TokenType::get($_builder.getContext())">;

/// A tensor or a token: the results of infeed and recv (tensors, then one
/// token).
def HLO_TensorOrToken : AnyTypeOf<[HLO_Tensor, HLO_Token]>;

/// What a tuple may hold: tensors, tokens and (nested) tuples.
def HLO_TupleElement : AnyTypeOf<[HLO_Tensor, HLO_Token, AnyTuple]>;

#endif // TOAST_DIALECT_STABLEHLO_IR_STABLEHLOTYPES_TD
