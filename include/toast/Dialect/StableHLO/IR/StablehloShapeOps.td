//===- StablehloShapeOps.td - Data movement ops ------------*- tablegen -*-===//
//
// Constants, iota, and ops that move data without arithmetic: broadcast,
// transpose, reshape, concatenate, slices, pad, reverse, gather, scatter,
// sort and torch_index_select; tuples and get_dimension_size.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_DIALECT_STABLEHLO_IR_STABLEHLOSHAPEOPS_TD
#define TOAST_DIALECT_STABLEHLO_IR_STABLEHLOSHAPEOPS_TD

include "toast/Dialect/StableHLO/IR/StablehloAttrs.td"
include "toast/Dialect/StableHLO/IR/StablehloTypes.td"

def StableHLO_ConstantOp : StableHLO_Op<"constant",
    [ConstantLike, Pure, DeclareOpInterfaceMethods<OpAsmOpInterface,
                                                   ["getAsmResultNames"]>]> {
  let summary = "a constant tensor";
  let description = [{
    The result type is the type of `value`.

    ```mlir
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs HLO_Tensor:$output);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasFolder = 1;
}

def StableHLO_IotaOp : StableHLO_Op<"iota", [Pure]> {
  let summary = "0, 1, 2, ... along one dimension";
  let description = [{
    ```mlir
    %r = stablehlo.iota dim = 0 : tensor<4x5xi32>
    ```
  }];
  let arguments = (ins I64Attr:$iota_dimension);
  let results = (outs HLO_Tensor:$output);
  let assemblyFormat = "`dim` `=` $iota_dimension attr-dict `:` type($output)";
  let hasVerifier = 1;
}

def StableHLO_BroadcastInDimOp : StableHLO_Op<"broadcast_in_dim",
    [Pure, SameOperandsAndResultElementType]> {
  let summary = "broadcasts a tensor into a larger shape";
  let description = [{
    `broadcast_dimensions[i]` is the result dimension of operand dimension
    `i`; operand dimensions have size 1 or the result's size.

    ```mlir
    %r = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins HLO_Tensor:$operand,
                       DenseI64ArrayAttr:$broadcast_dimensions);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $broadcast_dimensions attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_TransposeOp : StableHLO_Op<"transpose",
    [Pure, SameOperandsAndResultElementType]> {
  let summary = "permutes dimensions";
  let description = [{
    Result dimension `i` is operand dimension `permutation[i]`.

    ```mlir
    %r = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins HLO_Tensor:$operand, DenseI64ArrayAttr:$permutation);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $permutation attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_ReshapeOp : StableHLO_Op<"reshape", [Pure]> {
  let summary = "changes the shape, keeping row-major element order";
  let description = [{
    ```mlir
    %r = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>
    ```
  }];
  let arguments = (ins HLO_Tensor:$operand);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def StableHLO_ConcatenateOp : StableHLO_Op<"concatenate",
    [Pure, SameOperandsAndResultElementType]> {
  let summary = "concatenates tensors along one dimension";
  let description = [{
    ```mlir
    %r = stablehlo.concatenate %a, %b, dim = 0 : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
    ```
  }];
  let arguments = (ins Variadic<HLO_Tensor>:$inputs, I64Attr:$dimension);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    custom<VariadicOperandWithAttribute>($inputs) `dim` `=` $dimension
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_SliceOp : StableHLO_Op<"slice",
    [Pure, SameOperandsAndResultElementType]> {
  let summary = "a static strided slice";
  let description = [{
    Ranges are `start:limit` or `start:limit:stride` per dimension.

    ```mlir
    %r = stablehlo.slice %x [0:2, 1:4:2] : (tensor<3x4xf32>) -> tensor<2x2xf32>
    ```
  }];
  let arguments = (ins HLO_Tensor:$operand, DenseI64ArrayAttr:$start_indices,
                       DenseI64ArrayAttr:$limit_indices,
                       DenseI64ArrayAttr:$strides);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand custom<SliceRanges>($start_indices, $limit_indices, $strides)
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_DynamicSliceOp : StableHLO_Op<"dynamic_slice", [Pure]> {
  let summary = "a slice at run-time start indices";
  let description = [{
    Start indices are clamped so that the slice stays in bounds.

    ```mlir
    %r = stablehlo.dynamic_slice %x, %i, sizes = [2] : (tensor<8xf32>, tensor<i64>) -> tensor<2xf32>
    ```
  }];
  let arguments = (ins HLO_Tensor:$operand,
                       Variadic<HLO_ScalarIntTensor>:$start_indices,
                       DenseI64ArrayAttr:$slice_sizes);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` custom<VariadicOperandWithAttribute>($start_indices)
    `sizes` `=` $slice_sizes attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_DynamicUpdateSliceOp : StableHLO_Op<"dynamic_update_slice",
                                                  [Pure]> {
  let summary = "overwrites a slice at run-time start indices";
  let description = [{
    ```mlir
    %r = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<8xf32>, tensor<2xf32>, tensor<i64>) -> tensor<8xf32>
    ```
  }];
  let arguments = (ins HLO_Tensor:$operand, HLO_Tensor:$update,
                       Variadic<HLO_ScalarIntTensor>:$start_indices);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    operands attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_PadOp : StableHLO_Op<"pad",
    [Pure, SameOperandsAndResultElementType]> {
  let summary = "pads edges and interiors with a value";
  let description = [{
    Negative edge padding removes elements.

    ```mlir
    %r = stablehlo.pad %x, %zero, low = [1], high = [0], interior = [1] : (tensor<3xf32>, tensor<f32>) -> tensor<6xf32>
    ```
  }];
  let arguments = (ins HLO_Tensor:$operand, HLO_Tensor:$padding_value,
                       DenseI64ArrayAttr:$edge_padding_low,
                       DenseI64ArrayAttr:$edge_padding_high,
                       DenseI64ArrayAttr:$interior_padding);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` $padding_value `,` `low` `=` $edge_padding_low `,`
    `high` `=` $edge_padding_high `,` `interior` `=` $interior_padding
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_ReverseOp : StableHLO_Op<"reverse",
    [Pure, SameOperandsAndResultType]> {
  let summary = "reverses the order of elements along dimensions";
  let description = [{
    ```mlir
    %r = stablehlo.reverse %x, dims = [0] : tensor<4x5xf32>
    ```
  }];
  let arguments = (ins HLO_Tensor:$operand, DenseI64ArrayAttr:$dimensions);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $dimensions attr-dict `:`
    custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
  let hasVerifier = 1;
}

def StableHLO_GatherOp : StableHLO_Op<"gather", [Pure]> {
  let summary = "gathers slices at run-time indices";
  let description = [{
    Printed in generic form, as StableHLO does:

    ```mlir
    %r = "stablehlo.gather"(%x, %idx) <{dimension_numbers = #stablehlo.gather<
           offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0],
           index_vector_dim = 1>, slice_sizes = array<i64: 1, 4>}>
         : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins HLO_Tensor:$operand, HLO_IntTensor:$start_indices,
                       HLO_GatherDimensionNumbers:$dimension_numbers,
                       DenseI64ArrayAttr:$slice_sizes,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$indices_are_sorted);
  let results = (outs HLO_Tensor:$result);
  let hasVerifier = 1;
}

def StableHLO_ScatterOp : StableHLO_Op<"scatter",
    [RecursiveMemoryEffects, SameVariadicOperandSize]> {
  let summary = "combines updates into slices at run-time indices";
  let description = [{
    The region combines the current and the update value. Printed in generic
    form.
  }];
  let arguments = (ins Variadic<HLO_Tensor>:$inputs,
                       HLO_IntTensor:$scatter_indices,
                       Variadic<HLO_Tensor>:$updates,
                       HLO_ScatterDimensionNumbers:$scatter_dimension_numbers,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$indices_are_sorted,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$unique_indices);
  let results = (outs Variadic<HLO_Tensor>);
  let regions = (region SizedRegion<1>:$update_computation);
  let hasVerifier = 1;
}

def StableHLO_SortOp : StableHLO_Op<"sort",
    [RecursiveMemoryEffects, SameOperandsAndResultShape]> {
  let summary = "sorts tensors along a dimension with a comparator";
  let description = [{
    All inputs are permuted together; the comparator region sees two
    scalars per input. Printed in generic form.
  }];
  let arguments = (ins Variadic<HLO_Tensor>:$inputs,
                       DefaultValuedOptionalAttr<I64Attr, "-1">:$dimension,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$is_stable);
  let results = (outs Variadic<HLO_Tensor>);
  let regions = (region SizedRegion<1>:$comparator);
  let hasVerifier = 1;
}

def StableHLO_BroadcastOp : StableHLO_Op<"broadcast",
    [Pure, SameOperandsAndResultElementType]> {
  let summary = "adds leading dimensions (legacy form of broadcast_in_dim)";
  let description = [{
    The result shape is `broadcast_sizes` followed by the operand's shape;
    every new index repeats the operand.

    ```mlir
    %r = stablehlo.broadcast %x, sizes = [2] : (tensor<3xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins HLO_Tensor:$operand, DenseI64ArrayAttr:$broadcast_sizes);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `sizes` `=` $broadcast_sizes attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_GetDimensionSizeOp : StableHLO_Op<"get_dimension_size", [Pure]> {
  let summary = "the size of one dimension, as a tensor<i32>";
  let description = [{
    ```mlir
    %n = stablehlo.get_dimension_size %x, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>
    ```
  }];
  let arguments = (ins HLO_Tensor:$operand, I64Attr:$dimension);
  let results = (outs 0DTensorOf<[I32]>:$result);
  let assemblyFormat = [{
    $operand `,` `dim` `=` $dimension attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_TorchIndexSelectOp : StableHLO_Op<"torch_index_select", [Pure]> {
  let summary = "selects slices along one dimension (torch.index_select)";
  let description = [{
    The first `batch_dims` dimensions of `operand` and `index` are batch
    dimensions; `dim` (at least `batch_dims`) is the selected operand
    dimension. The result shape is `operand[:dim] ++ index[batch_dims:] ++
    operand[dim + 1:]`, and an index value out of bounds is clamped into
    them (as the gather XLA lowers this op to does). Printed in generic form:

    ```mlir
    %r = "stablehlo.torch_index_select"(%x, %i) {batch_dims = 0 : i64, dim = 0 : i64}
         : (tensor<5x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins HLO_Tensor:$operand, HLO_IntTensor:$index,
                       I64Attr:$dim, I64Attr:$batch_dims);
  let results = (outs HLO_Tensor:$result);
  let hasVerifier = 1;
}

def StableHLO_TupleOp : StableHLO_Op<"tuple", [Pure]> {
  let summary = "groups values into a tuple";
  let description = [{
    The type after the colon is the tuple type; the operands have its
    element types.

    ```mlir
    %t = stablehlo.tuple %a, %b : tuple<tensor<2xf32>, tensor<i32>>
    ```
  }];
  let arguments = (ins Variadic<HLO_TupleElement>:$val);
  let results = (outs AnyTuple:$result);
  let assemblyFormat = [{
    $val attr-dict `:` custom<TupleOpType>(type($val), type($result))
  }];
  let hasVerifier = 1;
}

def StableHLO_GetTupleElementOp : StableHLO_Op<"get_tuple_element", [Pure]> {
  let summary = "element `index` of a tuple";
  let description = [{
    ```mlir
    %a = stablehlo.get_tuple_element %t[0] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
    ```
  }];
  let arguments = (ins AnyTuple:$operand, I32Attr:$index);
  let results = (outs HLO_TupleElement:$result);
  let assemblyFormat = [{
    $operand `[` $index `]` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // TOAST_DIALECT_STABLEHLO_IR_STABLEHLOSHAPEOPS_TD
