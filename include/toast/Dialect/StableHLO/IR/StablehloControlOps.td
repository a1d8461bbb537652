//===- StablehloControlOps.td - Control flow, calls, collectives -*- tablegen -*-===//
//
// while/case/if, the region terminator, custom_call, composite,
// optimization_barrier, device ids, the cross-device collectives, tokens and
// the host/device transfers they order (infeed, outfeed, send, recv).
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_DIALECT_STABLEHLO_IR_STABLEHLOCONTROLOPS_TD
#define TOAST_DIALECT_STABLEHLO_IR_STABLEHLOCONTROLOPS_TD

include "toast/Dialect/StableHLO/IR/StablehloAttrs.td"
include "toast/Dialect/StableHLO/IR/StablehloTypes.td"
include "mlir/IR/SymbolInterfaces.td"

def StableHLO_ReturnOp : StableHLO_Op<"return",
    [Pure, Terminator, ReturnLike]> {
  let summary = "returns values from a StableHLO region";
  let description = [{
    ```mlir
    stablehlo.return %x : tensor<f32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "($results^ `:` type($results))? attr-dict";
}

def StableHLO_WhileOp : StableHLO_Op<"while", [RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "loop while `cond` holds";
  let description = [{
    Both regions take the loop-carried values; `cond` returns a `tensor<i1>`
    and `body` the next values.

    ```mlir
    %r = stablehlo.while(%i = %zero) : tensor<i64>
      cond { ... stablehlo.return %p : tensor<i1> }
      do { ... stablehlo.return %next : tensor<i64> }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$operand);
  let results = (outs Variadic<AnyType>);
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def StableHLO_CaseOp : StableHLO_Op<"case", [RecursiveMemoryEffects]> {
  let summary = "runs the branch selected by an index";
  let description = [{
    An out-of-range index selects the last branch. Printed in generic form.
  }];
  let arguments = (ins 0DTensorOf<[I32]>:$index);
  let results = (outs Variadic<AnyType>);
  let regions = (region VariadicRegion<SizedRegion<1>>:$branches);
  let hasVerifier = 1;
}

def StableHLO_IfOp : StableHLO_Op<"if", [RecursiveMemoryEffects]> {
  let summary = "runs one of two branches";
  let description = "Printed in generic form.";
  let arguments = (ins 0DTensorOf<[I1]>:$pred);
  let results = (outs Variadic<AnyType>);
  let regions = (region SizedRegion<1>:$true_branch,
                        SizedRegion<1>:$false_branch);
  let hasVerifier = 1;
}

def StableHLO_CustomCallOp : StableHLO_Op<"custom_call",
    [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "calls an external (backend) function";
  let description = [{
    Has memory effects only when `has_side_effect` is set; toast treats the
    callee as opaque unless it knows the target (e.g. `@check.expect_eq`).

    *Identity* targets return their single operand unchanged (one operand,
    one result of the same type): `@Sharding` (JAX's sharding annotation),
    `@tt.mark_argument` (torch-xla's argument marker for Tenstorrent, which
    names the argument in `mhlo.frontend_attributes`), the host-offloading
    markers `@MoveToHost` / `@MoveToDevice`, and any target an enclosing
    module declares in `toast.identity_custom_calls = ["vendor.marker",
    ...]` (the innermost declaration counts). They have a pointwise sharding
    rule and run as the identity in `toast-run`; all but the host-offloading
    ones are *markers* a backend removes, which the simulator prices like a
    reshape (a view, fused like data movement). The verifier of each custom
    call checks the declaration: not an array of strings, or a declared
    target called in another form, is an error.

    ```mlir
    stablehlo.custom_call @check.expect_eq(%a, %b) {has_side_effect = true}
      : (tensor<4xf32>, tensor<4xf32>) -> ()
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs, StrAttr:$call_target_name,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$has_side_effect,
                       OptionalAttr<AnyAttr>:$backend_config,
                       OptionalAttr<I32Attr>:$api_version,
                       OptionalAttr<FlatSymbolRefArrayAttr>:$called_computations,
                       OptionalAttr<ArrayAttr>:$operand_layouts,
                       OptionalAttr<ArrayAttr>:$result_layouts,
                       OptionalAttr<ArrayAttr>:$output_operand_aliases);
  let results = (outs Variadic<AnyType>);
  let assemblyFormat = [{
    custom<CustomCallTarget>($call_target_name) `(` $inputs `)`
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Returns its operand unchanged (see the description).
    bool isIdentity();
    /// An identity a backend removes: free, like a reshape.
    bool isMarker();
  }];
}

def StableHLO_CompositeOp : StableHLO_Op<"composite",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a named op with a decomposition function";
  let description = [{
    Semantically a call of `decomposition`.

    ```mlir
    %r = stablehlo.composite "my.add_n" %x {composite_attributes = {n = 2 : i64},
           decomposition = @add_n_impl} : (tensor<i64>) -> tensor<i64>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs, StrAttr:$name,
                       DefaultValuedOptionalAttr<DictionaryAttr, "{}">:$composite_attributes,
                       FlatSymbolRefAttr:$decomposition,
                       DefaultValuedOptionalAttr<I32Attr, "0">:$version);
  let results = (outs Variadic<AnyType>);
  let assemblyFormat = [{
    $name $inputs attr-dict `:` functional-type(operands, results)
  }];
}

def StableHLO_OptimizationBarrierOp : StableHLO_Op<"optimization_barrier",
                                                   [Pure]> {
  let summary = "forbids optimizations across it; returns its operands";
  let description = [{
    ```mlir
    %r:2 = stablehlo.optimization_barrier %a, %b : tensor<4xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$operand);
  let results = (outs Variadic<AnyType>:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def StableHLO_PartitionIdOp : StableHLO_Op<"partition_id"> {
  let summary = "the partition id of the current device";
  let description = "```mlir\n%p = stablehlo.partition_id : tensor<ui32>\n```";
  let results = (outs 0DTensorOf<[UI32]>);
  let assemblyFormat = "attr-dict `:` type(results)";
}

def StableHLO_ReplicaIdOp : StableHLO_Op<"replica_id"> {
  let summary = "the replica id of the current device";
  let description = "```mlir\n%r = stablehlo.replica_id : tensor<ui32>\n```";
  let results = (outs 0DTensorOf<[UI32]>);
  let assemblyFormat = "attr-dict `:` type(results)";
}

// Collectives communicate, so they are not Pure: they must not be removed,
// hoisted or duplicated. All print in generic form.
class HLO_CollectiveOp<string mnemonic, list<Trait> traits = []>
    : StableHLO_Op<mnemonic, traits> {
  let hasVerifier = 1;
}

def StableHLO_AllReduceOp : HLO_CollectiveOp<"all_reduce"> {
  let summary = "reduces values across the devices of each replica group";
  let description = "The region is the reduction. Printed in generic form.";
  let arguments = (ins Variadic<HLO_Tensor>:$operands,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<HLO_ChannelHandle>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let results = (outs Variadic<HLO_Tensor>);
  let regions = (region SizedRegion<1>:$computation);
}

def StableHLO_AllGatherOp : HLO_CollectiveOp<"all_gather"> {
  let summary = "concatenates values of each replica group along a dimension";
  let description = "Printed in generic form.";
  let arguments = (ins Variadic<HLO_Tensor>:$operands, I64Attr:$all_gather_dim,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<HLO_ChannelHandle>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let results = (outs Variadic<HLO_Tensor>);
}

def StableHLO_ReduceScatterOp : HLO_CollectiveOp<"reduce_scatter"> {
  let summary = "reduces across a replica group and keeps this device's part";
  let description = "Printed in generic form.";
  let arguments = (ins HLO_Tensor:$operand, I64Attr:$scatter_dimension,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<HLO_ChannelHandle>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let results = (outs HLO_Tensor);
  let regions = (region SizedRegion<1>:$computation);
}

def StableHLO_AllToAllOp : HLO_CollectiveOp<"all_to_all"> {
  let summary = "splits, exchanges and concatenates within replica groups";
  let description = "Printed in generic form.";
  let arguments = (ins Variadic<HLO_Tensor>:$operands, I64Attr:$split_dimension,
                       I64Attr:$concat_dimension, I64Attr:$split_count,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<HLO_ChannelHandle>:$channel_handle);
  let results = (outs Variadic<HLO_Tensor>);
}

def StableHLO_CollectivePermuteOp : HLO_CollectiveOp<"collective_permute"> {
  let summary = "sends each device's value to another device";
  let description = "Printed in generic form.";
  let arguments = (ins HLO_Tensor:$operand,
                       I64ElementsAttr:$source_target_pairs,
                       OptionalAttr<HLO_ChannelHandle>:$channel_handle);
  let results = (outs HLO_Tensor);
}

def StableHLO_CollectiveBroadcastOp
    : HLO_CollectiveOp<"collective_broadcast"> {
  let summary = "broadcasts the first device's value within replica groups";
  let description = "Printed in generic form.";
  let arguments = (ins HLO_Tensor:$operand, I64ElementsAttr:$replica_groups,
                       OptionalAttr<HLO_ChannelHandle>:$channel_handle);
  let results = (outs HLO_Tensor);
}

//===----------------------------------------------------------------------===//
// Tokens and transfers
//===----------------------------------------------------------------------===//

def StableHLO_AfterAllOp : StableHLO_Op<"after_all", [Pure]> {
  let summary = "a token that follows all its input tokens";
  let description = [{
    ```mlir
    %t = stablehlo.after_all %t0, %t1 : !stablehlo.token
    ```
  }];
  let arguments = (ins Variadic<HLO_Token>:$inputs);
  let results = (outs HLO_Token:$result);
  let assemblyFormat = "$inputs attr-dict `:` type($result)";
}

def StableHLO_CreateTokenOp : StableHLO_Op<"create_token", [Pure]> {
  let summary = "a new token (legacy form of an `after_all` without inputs)";
  let description = [{
    ```mlir
    %t = stablehlo.create_token : !stablehlo.token
    ```
  }];
  let results = (outs HLO_Token:$output);
  let assemblyFormat = "attr-dict `:` type(results)";
}

// The transfers have effects the compiler cannot see (they talk to the host
// or to other devices): no memory-effect interface, so they are never
// removed, duplicated or reordered. They print in generic form.
class HLO_TransferOp<string mnemonic> : StableHLO_Op<mnemonic>;

def StableHLO_InfeedOp : HLO_TransferOp<"infeed"> {
  let summary = "reads values from the host's infeed queue";
  let description = [{
    Returns the values read (tensors), then a token.

    ```mlir
    %x, %t1 = "stablehlo.infeed"(%t0) {infeed_config = ""}
              : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
    ```
  }];
  let arguments = (ins HLO_Token:$token,
                       DefaultValuedStrAttr<StrAttr, "">:$infeed_config,
                       OptionalAttr<ArrayAttr>:$layout);
  let results = (outs Variadic<HLO_TensorOrToken>);
  let hasVerifier = 1;
}

def StableHLO_OutfeedOp : HLO_TransferOp<"outfeed"> {
  let summary = "writes values to the host's outfeed queue";
  let description = [{
    ```mlir
    %t1 = "stablehlo.outfeed"(%x, %t0) {outfeed_config = ""}
          : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
    ```
  }];
  let arguments = (ins Variadic<HLO_Tensor>:$inputs, HLO_Token:$token,
                       DefaultValuedStrAttr<StrAttr, "">:$outfeed_config);
  let results = (outs HLO_Token);
}

def StableHLO_SendOp : HLO_TransferOp<"send"> {
  let summary = "sends values to the host or another device";
  let description = [{
    ```mlir
    %t1 = "stablehlo.send"(%x, %t0) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>,
            is_host_transfer = true} : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
    ```
  }];
  let arguments = (ins Variadic<HLO_Tensor>:$inputs, HLO_Token:$token,
                       HLO_ChannelHandle:$channel_handle,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$is_host_transfer,
                       OptionalAttr<I64ElementsAttr>:$source_target_pairs);
  let results = (outs HLO_Token);
  let hasVerifier = 1;
}

def StableHLO_RecvOp : HLO_TransferOp<"recv"> {
  let summary = "receives values from the host or another device";
  let description = [{
    Returns the values received (tensors), then a token.

    ```mlir
    %x, %t1 = "stablehlo.recv"(%t0) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>,
                is_host_transfer = true} : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
    ```
  }];
  let arguments = (ins HLO_Token:$token, HLO_ChannelHandle:$channel_handle,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$is_host_transfer,
                       OptionalAttr<I64ElementsAttr>:$source_target_pairs);
  let results = (outs Variadic<HLO_TensorOrToken>);
  let hasVerifier = 1;
}

#endif // TOAST_DIALECT_STABLEHLO_IR_STABLEHLOCONTROLOPS_TD
