//===- PartIRHLO.td - PartIR:HLO collectives ---------------*- tablegen -*-===//
//
// PartIR:HLO (PartIR paper §6): device-local SPMD programs whose
// communication is expressed by collectives over mesh axes. Every op here
// takes and returns the *device-local* value of one device; the mesh is the
// module attribute `partir.mesh`.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_DIALECT_PARTIR_HLO_IR_PARTIRHLO_TD
#define TOAST_DIALECT_PARTIR_HLO_IR_PARTIRHLO_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def PartIRHLO_Dialect : Dialect {
  let name = "partir_hlo";
  let cppNamespace = "::toast::partir_hlo";
  let summary = "PartIR:HLO: mesh-axis collectives of device-local programs";
  let description = [{
    Collectives name mesh axes instead of device ids. A per-dimension axis
    list such as `[{"B", "M"}, {} ]` says that dimension 0 is split over "B"
    (major) then "M" (minor) and dimension 1 is whole.
  }];
  let dependentDialects = ["::toast::partir::PartIRDialect"];
}

class PartIRHLO_Op<string mnemonic, list<Trait> traits = []>
    : Op<PartIRHLO_Dialect, mnemonic, traits> {
  let hasVerifier = 1;
}

// Per dimension, the list of axes (major to minor): ArrayAttr of ArrayAttr
// of StringAttr, printed `[{"B"}, {} ]`.
def PartIRHLO_DimAxes : ArrayAttrBase<
    CPred<"::toast::partir_hlo::isDimAxes($_self)">, "per-dimension axes">;

// Collectives are treated as pure: every device runs the same program, so
// an unused collective can go and identical ones can be merged.
def PartIRHLO_AllSliceOp : PartIRHLO_Op<"all_slice", [Pure]> {
  let summary = "keeps this device's chunk along the given axes";
  let description = [{
    Each dimension is split into as many chunks as the product of its axes'
    sizes; the device keeps the chunk of its coordinates (no communication).

    ```mlir
    %s = partir_hlo.all_slice [{"B"}, {} ] %x : tensor<256x8xf32> -> tensor<64x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$operand, PartIRHLO_DimAxes:$dims);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    custom<DimAxes>($dims) $operand attr-dict `:` type($operand) `->` type($result)
  }];
  let hasFolder = 1;
}

def PartIRHLO_AllGatherOp : PartIRHLO_Op<"all_gather", [Pure]> {
  let summary = "concatenates the chunks of the devices along the given axes";
  let description = [{
    The dual of all_slice: dimension sizes grow by the product of the axes'
    sizes.

    ```mlir
    %g = partir_hlo.all_gather [{"B"}, {} ] %x : tensor<64x8xf32> -> tensor<256x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$operand, PartIRHLO_DimAxes:$dims);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    custom<DimAxes>($dims) $operand attr-dict `:` type($operand) `->` type($result)
  }];
  let hasFolder = 1;
}

def PartIRHLO_AllReduceOp : PartIRHLO_Op<"all_reduce",
    [Pure, AllTypesMatch<["operand", "result"]>]> {
  let summary = "adds (or reduces) the values of the devices along axes";
  let description = [{
    ```mlir
    %r = partir_hlo.all_reduce "sum" ["M"] %x : tensor<64x8xf32>
    ```
    The reduction is "sum", "max", "min" or "prod".
  }];
  let arguments = (ins AnyRankedTensor:$operand, StrAttr:$reduction,
                       StrArrayAttr:$axes);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $reduction $axes $operand attr-dict `:` type($operand)
  }];
  let hasFolder = 1;
}

def PartIRHLO_ReduceScatterOp : PartIRHLO_Op<"reduce_scatter", [Pure]> {
  let summary = "all_reduce followed by all_slice, fused";
  let description = [{
    ```mlir
    %r = partir_hlo.reduce_scatter "sum" [{"M"}, {} ] %x : tensor<64x8xf32> -> tensor<32x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$operand, StrAttr:$reduction,
                       PartIRHLO_DimAxes:$dims);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $reduction custom<DimAxes>($dims) $operand attr-dict `:` type($operand) `->` type($result)
  }];
}

def PartIRHLO_AllToAllOp : PartIRHLO_Op<"all_to_all", [Pure]> {
  let summary = "all_gather on one dimension and all_slice on another, fused";
  let description = [{
    Gathers `gather_dim` and slices `slice_dim` over the same axes.

    ```mlir
    %r = partir_hlo.all_to_all 0 -> 1 ["x1", "x2"] %x : tensor<16x32xf32> -> tensor<128x4xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$operand, I64Attr:$gather_dim,
                       I64Attr:$slice_dim, StrArrayAttr:$axes);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $gather_dim `->` $slice_dim $axes $operand attr-dict `:` type($operand) `->` type($result)
  }];
}

#endif // TOAST_DIALECT_PARTIR_HLO_IR_PARTIRHLO_TD
