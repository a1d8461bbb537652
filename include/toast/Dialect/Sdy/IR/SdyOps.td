//===- SdyOps.td - Minimal sdy dialect, ops ----------------*- tablegen -*-===//
#ifndef TOAST_DIALECT_SDY_IR_SDYOPS_TD
#define TOAST_DIALECT_SDY_IR_SDYOPS_TD

include "toast/Dialect/Sdy/IR/SdyBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "toast/Interfaces/DataFlowEdgeOpInterface.td"

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

def Sdy_ReshardOp : Sdy_Op<"reshard",
    [SameOperandsAndResultType,
     DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "moves a value to another sharding";
  let description = [{
    Returns its operand, laid out as `sharding` (the communication this
    needs is implied, not spelled out).

    ```mlir
    %0 = sdy.reshard %x <@mesh, [{}, {"b"} ]> : tensor<16x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input,
                       Sdy_TensorShardingAttr:$sharding);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input $sharding attr-dict `:` type($result)";
}

def Sdy_ShardingGroupOp : Sdy_Op<"sharding_group", []> {
  let summary = "puts a value into a group whose members share a sharding";
  let description = [{
    All values in the group `group_id` must end up with the same sharding.
    The op has no result.

    ```mlir
    sdy.sharding_group %x group_id=21 : tensor<8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input, I64Attr:$group_id);
  let assemblyFormat = [{
    $input `group_id` `` `=` `` $group_id attr-dict `:` type($input)
  }];
}

def Sdy_ConstantOp : Sdy_Op<"constant",
    [AllTypesMatch<["value", "output"]>]> {
  let summary = "a constant that is never folded or merged with another";
  let description = [{
    Like `stablehlo.constant`, but each use may keep its own copy so that
    copies can be sharded differently.

    ```mlir
    %0 = sdy.constant dense<0.000000e+00> : tensor<f32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyRankedTensor:$output);
  let assemblyFormat = "attr-dict $value";
}

def Sdy_ReturnOp : Sdy_Op<"return",
    [Pure, Terminator, HasParent<"ManualComputationOp">]> {
  let summary = "ends the body of a manual_computation";
  let description = [{
    Returns the body's device-local results.

    ```mlir
    sdy.return %0 : tensor<8x32xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
}

def Sdy_ManualComputationOp : Sdy_Op<"manual_computation",
    [RecursiveMemoryEffects, IsolatedFromAbove,
     DeclareOpInterfaceMethods<SymbolUserOpInterface>,
     DeclareOpInterfaceMethods<DataFlowEdgeOpInterface,
         ["getNumEdges", "getRegionManualAxes", "getEdgeManualLevels"]>]> {
  let summary = "a region written per device on some mesh axes (shard_map)";
  let description = [{
    JAX's `shard_map`. Each operand is split over the `manual_axes` as its
    `in_shardings` says; the body runs once per device of those axes on its
    *local* shards (the manual axes divide the dimensions they shard; free
    axes do not), may communicate with collectives, and returns local
    values that `out_shardings` reassemble into the global results. The
    body's argument and `sdy.return` types are therefore the local shapes
    of the operands and results; the verifier checks them.

    ```mlir
    %r = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {} ]>]
        out_shardings=[<@mesh, [{"a"}, {} ]>] manual_axes={"a"}
        (%arg1: tensor<8x32xf32>) {
      %0 = stablehlo.add %arg1, %arg1 : tensor<8x32xf32>
      sdy.return %0 : tensor<8x32xf32>
    } : (tensor<16x32xf32>) -> tensor<16x32xf32>
    ```

    Every sharding must name one mesh, every manual axis must be an axis of
    it, and in every dimension sharding the manual axes come before the
    free ones.
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$tensors,
                       Sdy_TensorShardingPerValueAttr:$in_shardings,
                       Sdy_TensorShardingPerValueAttr:$out_shardings,
                       StrArrayAttr:$manual_axes);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether `axis` (or the axis a sub-axis belongs to) is manual.
    bool isManualAxis(::llvm::StringRef axis);
    /// The mesh all shardings name (null when there are none).
    MeshAttr getMesh();
  }];
}

//===----------------------------------------------------------------------===//
// Collectives, on global shapes: the operand is laid out as its producer's
// sharding says, the result as `out_sharding`.
//===----------------------------------------------------------------------===//

class Sdy_CollectiveOp<string mnemonic, list<Trait> traits = []>
    : Sdy_Op<mnemonic, !listconcat(traits,
        [SameOperandsAndResultType,
         DeclareOpInterfaceMethods<SymbolUserOpInterface>])> {
  let results = (outs AnyRankedTensor:$result);
}

def Sdy_AllGatherOp : Sdy_CollectiveOp<"all_gather"> {
  let summary = "gathers a value along the minor axes of its dimensions";
  let description = [{
    `gathering_axes` lists per dimension the axes removed from the minor end
    of the operand's dimension sharding.

    ```mlir
    %0 = sdy.all_gather [{}, {"x"} ] %a out_sharding=<@mesh, [{"y"}, {} ]> : tensor<16x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$tensor,
                       Sdy_ListOfAxisRefListsAttr:$gathering_axes,
                       Sdy_TensorShardingAttr:$out_sharding);
  let assemblyFormat = [{
    $gathering_axes $tensor `out_sharding` `` `=` `` $out_sharding attr-dict
    `:` type($result)
  }];
}

def Sdy_AllSliceOp : Sdy_CollectiveOp<"all_slice"> {
  let summary = "slices a value along more axes (no communication)";
  let description = [{
    `slicing_axes` lists per dimension the axes appended at the minor end of
    the operand's dimension sharding.

    ```mlir
    %0 = sdy.all_slice [{}, {"x"} ] %a out_sharding=<@mesh, [{"y"}, {"x"} ]> : tensor<16x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$tensor,
                       Sdy_ListOfAxisRefListsAttr:$slicing_axes,
                       Sdy_TensorShardingAttr:$out_sharding);
  let assemblyFormat = [{
    $slicing_axes $tensor `out_sharding` `` `=` `` $out_sharding attr-dict
    `:` type($result)
  }];
}

def Sdy_AllReduceOp : Sdy_CollectiveOp<"all_reduce"> {
  let summary = "sums partial values over some axes";
  let description = [{
    The operand holds partial sums over `reduction_axes`, which the result
    no longer shards on.

    ```mlir
    %0 = sdy.all_reduce {"y"} %a out_sharding=<@mesh, [{}, {"x"} ]> : tensor<16x2xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$tensor,
                       Sdy_AxisRefListAttr:$reduction_axes,
                       Sdy_TensorShardingAttr:$out_sharding);
  let assemblyFormat = [{
    $reduction_axes $tensor `out_sharding` `` `=` `` $out_sharding attr-dict
    `:` type($result)
  }];
}

def Sdy_ReduceScatterOp : Sdy_CollectiveOp<"reduce_scatter"> {
  let summary = "sums partial values and scatters the sum";
  let description = [{
    `reduce_scatter_axes` lists per dimension the axes the sum is scattered
    on, appended at the minor end of the operand's dimension sharding.

    ```mlir
    %0 = sdy.reduce_scatter [{"y"} ] %a out_sharding=<@mesh, [{"x", "y"} ]> : tensor<16xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$tensor,
                       Sdy_ListOfAxisRefListsAttr:$reduce_scatter_axes,
                       Sdy_TensorShardingAttr:$out_sharding);
  let assemblyFormat = [{
    $reduce_scatter_axes $tensor `out_sharding` `` `=` `` $out_sharding
    attr-dict `:` type($result)
  }];
}

def Sdy_AllToAllOp : Sdy_CollectiveOp<"all_to_all"> {
  let summary = "moves axes from one dimension to another";
  let description = [{
    Each `{axes}: src->tgt` removes the axes from the minor end of dimension
    `src`'s sharding and appends them to dimension `tgt`'s.

    ```mlir
    %0 = sdy.all_to_all [{"x"}: 0->1] %a out_sharding=<@mesh, [{}, {"x"} ]> : tensor<16x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$tensor,
                       Sdy_AllToAllParamListAttr:$params,
                       Sdy_TensorShardingAttr:$out_sharding);
  let assemblyFormat = [{
    $params $tensor `out_sharding` `` `=` `` $out_sharding attr-dict `:`
    type($result)
  }];
}

def Sdy_CollectivePermuteOp : Sdy_CollectiveOp<"collective_permute"> {
  let summary = "exchanges shards so that the axes of each dimension change";
  let description = [{
    Every dimension keeps its number of shards; which axes shard it, and in
    which order, may change.

    ```mlir
    %0 = sdy.collective_permute %a out_sharding=<@mesh, [{"z", "x"}, {"y"} ]> : tensor<16x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$tensor,
                       Sdy_TensorShardingAttr:$out_sharding);
  let assemblyFormat = [{
    $tensor `out_sharding` `` `=` `` $out_sharding attr-dict `:` type($result)
  }];
}

#endif // TOAST_DIALECT_SDY_IR_SDYOPS_TD
