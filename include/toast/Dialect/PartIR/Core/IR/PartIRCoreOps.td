//===- PartIRCoreOps.td - PartIR:Core ops ------------------*- tablegen -*-===//
#ifndef TOAST_DIALECT_PARTIR_CORE_IR_PARTIRCOREOPS_TD
#define TOAST_DIALECT_PARTIR_CORE_IR_PARTIRCOREOPS_TD

include "toast/Dialect/PartIR/Core/IR/PartIRCoreBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "toast/Interfaces/ShardingRuleOpInterface.td"

class PartIR_Op<string mnemonic, list<Trait> traits = []>
    : Op<PartIR_Dialect, mnemonic, traits>;

def PartIR_LoopOp : PartIR_Op<"loop", [RecursiveMemoryEffects]> {
  let summary = "a parallel loop over a mesh axis";
  let description = [{
    Runs the body once per index of the axis (the block argument, of type
    `!partir.range<N>` with N the axis size) and combines what each
    iteration yields according to the result's action:

    * `#partir.tile<d>`: the tiles are concatenated along dimension d (the
      result's dimension d is N times the yielded one);
    * `#partir.sum`: the tiles are added;
    * `#partir.any`: all iterations yield the same value.

    ```mlir
    %xt = partir.loop "B" [#partir.tile<0>] (%r: !partir.range<4>) {
      %s = partir.slice 0 %x[%r] : tensor<256x8xf32> -> tensor<64x8xf32>
      partir.yield %s : tensor<64x8xf32>
    } : tensor<256x8xf32>
    ```

    The verifier checks that the axis exists in the module's mesh, that no
    enclosing loop uses the same axis, and that result and yielded types
    agree with the actions.
  }];
  let arguments = (ins StrAttr:$axis, ArrayAttr:$actions);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The loop index.
    ::mlir::BlockArgument getRange() { return getBody().getArgument(0); }
    /// The yield terminator.
    YieldOp getYield();
  }];
}

def PartIR_SliceOp : PartIR_Op<"slice", [Pure]> {
  let summary = "the chunk of a dimension selected by a loop index";
  let description = [{
    `partir.slice d %x[%r]` splits dimension d of %x into N equal chunks (N
    the range size) and returns chunk %r.

    ```mlir
    %s = partir.slice 0 %x[%r] : tensor<256x8xf32> -> tensor<64x8xf32>
    ```
  }];
  let arguments = (ins I64Attr:$dim, AnyRankedTensor:$operand,
                       PartIR_RangeType:$range);
  let results = (outs AnyRankedTensor:$result);
  // The range type follows from the types: N = operand dim / result dim.
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def PartIR_YieldOp : PartIR_Op<"yield", [Pure, Terminator, ReturnLike,
                                         HasParent<"LoopOp">]> {
  let summary = "the tile an iteration of a loop produces";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def PartIR_TagOp : PartIR_Op<"tag", [Pure, AllTypesMatch<["operand", "result"]>,
    DeclareOpInterfaceMethods<ShardingRuleOpInterface>]> {
  let summary = "names a value so that tactics can select it";
  let description = [{
    Returns its operand unchanged; its sharding rule is the identity, so
    propagation passes through it.

    ```mlir
    %t = partir.tag "transposed" %x : tensor<256x256xf32>
    ```
  }];
  let arguments = (ins StrAttr:$name, AnyType:$operand);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$name $operand attr-dict `:` type($operand)";
  let hasVerifier = 1;
}

#endif // TOAST_DIALECT_PARTIR_CORE_IR_PARTIRCOREOPS_TD
