//===- SdyOps.td - Minimal sdy dialect, ops ----------------*- tablegen -*-===//
#ifndef TOAST_DIALECT_SDY_IR_SDYOPS_TD
#define TOAST_DIALECT_SDY_IR_SDYOPS_TD

include "toast/Dialect/Sdy/IR/SdyBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

class Sdy_Op<string mnemonic, list<Trait> traits = []>
    : Op<Sdy_Dialect, mnemonic, traits>;

def Sdy_MeshOp : Sdy_Op<"mesh", [Symbol, HasParent<"::mlir::ModuleOp">]> {
  let summary = "a named mesh at module level";
  let description = [{
    ```mlir
    sdy.mesh @mesh = <["data"=4, "model"=2]>
    sdy.mesh @ordered = <["a"=2, "b"=2], device_ids=[0, 2, 1, 3]>
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, Sdy_MeshAttr:$mesh);
  let assemblyFormat = "$sym_name `=` $mesh attr-dict";
}

def Sdy_ShardingConstraintOp : Sdy_Op<"sharding_constraint",
    [SameOperandsAndResultType,
     DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "asks for a sharding of a value at this program point";
  let description = [{
    Returns its operand; the sharding is a constraint for the partitioner.

    ```mlir
    %0 = sdy.sharding_constraint %x <@mesh, [{}, {"x"} ]> : tensor<16x2xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input,
                       Sdy_TensorShardingAttr:$sharding);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input $sharding attr-dict `:` type($result)";
}

#endif // TOAST_DIALECT_SDY_IR_SDYOPS_TD
