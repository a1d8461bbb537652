//===- StablehloAttrs.td - StableHLO structured attributes -*- tablegen -*-===//
//
// Dimension-number attributes of dot_general, gather, scatter and
// convolution, plus channel handles and dot algorithms. Key/value attributes
// print their non-empty fields in a fixed order and parse them in any order.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_DIALECT_STABLEHLO_IR_STABLEHLOATTRS_TD
#define TOAST_DIALECT_STABLEHLO_IR_STABLEHLOATTRS_TD

include "toast/Dialect/StableHLO/IR/StablehloEnums.td"

class HLO_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<StableHLO_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def HLO_Dims : ArrayRefParameter<"int64_t", "dimension list">;

def HLO_DotDimensionNumbers : HLO_Attr<"DotDimensionNumbers", "dot"> {
  let summary = "dot_general dimension numbers";
  let parameters = (ins HLO_Dims:$lhsBatchingDimensions,
                        HLO_Dims:$rhsBatchingDimensions,
                        HLO_Dims:$lhsContractingDimensions,
                        HLO_Dims:$rhsContractingDimensions);
  let hasCustomAssemblyFormat = 1;
}

def HLO_GatherDimensionNumbers : HLO_Attr<"GatherDimensionNumbers", "gather"> {
  let summary = "gather dimension numbers";
  let parameters = (ins HLO_Dims:$offsetDims, HLO_Dims:$collapsedSliceDims,
                        HLO_Dims:$operandBatchingDims,
                        HLO_Dims:$startIndicesBatchingDims,
                        HLO_Dims:$startIndexMap, "int64_t":$indexVectorDim);
  let hasCustomAssemblyFormat = 1;
}

def HLO_ScatterDimensionNumbers
    : HLO_Attr<"ScatterDimensionNumbers", "scatter"> {
  let summary = "scatter dimension numbers";
  let parameters = (ins HLO_Dims:$updateWindowDims,
                        HLO_Dims:$insertedWindowDims,
                        HLO_Dims:$inputBatchingDims,
                        HLO_Dims:$scatterIndicesBatchingDims,
                        HLO_Dims:$scatterDimsToOperandDims,
                        "int64_t":$indexVectorDim);
  let hasCustomAssemblyFormat = 1;
}

def HLO_ConvDimensionNumbers : HLO_Attr<"ConvDimensionNumbers", "conv"> {
  let summary = "convolution dimension numbers";
  let description = [{
    Printed in the short form `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`;
    the long `raw input_batch_dimension = 0, ...` form is also parsed.
  }];
  let parameters = (ins "int64_t":$inputBatchDimension,
                        "int64_t":$inputFeatureDimension,
                        HLO_Dims:$inputSpatialDimensions,
                        "int64_t":$kernelInputFeatureDimension,
                        "int64_t":$kernelOutputFeatureDimension,
                        HLO_Dims:$kernelSpatialDimensions,
                        "int64_t":$outputBatchDimension,
                        "int64_t":$outputFeatureDimension,
                        HLO_Dims:$outputSpatialDimensions);
  let hasCustomAssemblyFormat = 1;
}

def HLO_ChannelHandle : HLO_Attr<"ChannelHandle", "channel_handle"> {
  let summary = "collective channel handle";
  let parameters = (ins "int64_t":$handle, "int64_t":$type);
  let assemblyFormat = "`<` struct(params) `>`";
}

def HLO_OutputOperandAlias
    : HLO_Attr<"OutputOperandAlias", "output_operand_alias"> {
  let summary = "custom_call output/operand alias";
  let parameters = (ins HLO_Dims:$outputTupleIndices, "int64_t":$operandIndex,
                        HLO_Dims:$operandTupleIndices);
  let hasCustomAssemblyFormat = 1;
}

def HLO_DotAlgorithm : HLO_Attr<"DotAlgorithm", "dot_algorithm"> {
  let summary = "dot algorithm";
  let parameters = (ins "::mlir::Type":$lhsPrecisionType,
                        "::mlir::Type":$rhsPrecisionType,
                        "::mlir::Type":$accumulationType,
                        "int64_t":$lhsComponentCount,
                        "int64_t":$rhsComponentCount,
                        "int64_t":$numPrimitiveOperations,
                        "bool":$allowImpreciseAccumulation);
  // StableHLO's snake_case keys, in StableHLO's order.
  let assemblyFormat = [{
    `<` `lhs_precision_type` `=` $lhsPrecisionType `,`
        `rhs_precision_type` `=` $rhsPrecisionType `,`
        `accumulation_type` `=` $accumulationType `,`
        `lhs_component_count` `=` $lhsComponentCount `,`
        `rhs_component_count` `=` $rhsComponentCount `,`
        `num_primitive_operations` `=` $numPrimitiveOperations `,`
        `allow_imprecise_accumulation` `=` $allowImpreciseAccumulation `>`
  }];
}

#endif // TOAST_DIALECT_STABLEHLO_IR_STABLEHLOATTRS_TD
