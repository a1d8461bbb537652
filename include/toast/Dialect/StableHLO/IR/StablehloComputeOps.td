//===- StablehloComputeOps.td - Contractions and reductions -*- tablegen -*-===//
//
// dot, dot_general, einsum, convolution, reductions (plain, windowed,
// select-and-scatter), batch normalization, linear algebra, fft and random
// numbers.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_DIALECT_STABLEHLO_IR_STABLEHLOCOMPUTEOPS_TD
#define TOAST_DIALECT_STABLEHLO_IR_STABLEHLOCOMPUTEOPS_TD

include "toast/Dialect/StableHLO/IR/StablehloAttrs.td"

def StableHLO_DotOp : StableHLO_Op<"dot", [Pure]> {
  let summary = "vector/matrix product (legacy form of dot_general)";
  let description = [{
    ```mlir
    %r = stablehlo.dot %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    ```
  }];
  let arguments = (ins HLO_Tensor:$lhs, HLO_Tensor:$rhs,
                       OptionalAttr<HLO_PrecisionConfigAttr>:$precision_config);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `` custom<PrecisionConfig>($precision_config) attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_DotGeneralOp : StableHLO_Op<"dot_general", [Pure]> {
  let summary = "general tensor contraction";
  let description = [{
    The result has the batching dimensions, then the free dimensions of
    `lhs`, then those of `rhs`.

    ```mlir
    %r = stablehlo.dot_general %a, %b, batching_dims = [0] x [0],
           contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT]
         : (tensor<8x2x3xf32>, tensor<8x3x4xf32>) -> tensor<8x2x4xf32>
    ```
  }];
  let arguments = (ins HLO_Tensor:$lhs, HLO_Tensor:$rhs,
                       HLO_DotDimensionNumbers:$dot_dimension_numbers,
                       OptionalAttr<HLO_PrecisionConfigAttr>:$precision_config,
                       OptionalAttr<HLO_DotAlgorithm>:$algorithm);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` custom<DotDimensionNumbers>($dot_dimension_numbers) ``
    custom<PrecisionConfigAndAlgorithm>($precision_config, $algorithm)
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_ConvolutionOp : StableHLO_Op<"convolution", [Pure]> {
  let summary = "general convolution";
  let description = [{
    ```mlir
    %r = stablehlo.convolution(%x, %k)
           dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
           window = {stride = [2, 2], pad = [[3, 3], [3, 3]]}
           {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
         : (tensor<1x224x224x3xf32>, tensor<7x7x3x64xf32>) -> tensor<1x112x112x64xf32>
    ```
  }];
  let arguments = (ins HLO_Tensor:$lhs, HLO_Tensor:$rhs,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<I64ElementsAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$lhs_dilation,
                       OptionalAttr<DenseI64ArrayAttr>:$rhs_dilation,
                       OptionalAttr<DenseBoolArrayAttr>:$window_reversal,
                       HLO_ConvDimensionNumbers:$dimension_numbers,
                       I64Attr:$feature_group_count, I64Attr:$batch_group_count,
                       OptionalAttr<HLO_PrecisionConfigAttr>:$precision_config);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    `(` operands `)` `dim_numbers` `=` custom<ConvDimensions>($dimension_numbers) `,`
    `window` `=` custom<WindowAttributes>($window_strides, $padding,
        $lhs_dilation, $rhs_dilation, $window_reversal)
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_ReduceOp : StableHLO_Op<"reduce",
    [RecursiveMemoryEffects, SameVariadicOperandSize]> {
  let summary = "reduces dimensions with a region";
  let description = [{
    Two printed forms: compact when the body is one binary op,

    ```mlir
    %r = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1]
         : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    ```

    and with an explicit `reducer(%acc: T, %x: T) { ... }` region otherwise.
  }];
  let arguments = (ins Variadic<HLO_Tensor>:$inputs,
                       Variadic<HLO_Tensor>:$init_values,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs Variadic<HLO_Tensor>);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def StableHLO_ReduceWindowOp : StableHLO_Op<"reduce_window",
    [RecursiveMemoryEffects, SameVariadicOperandSize]> {
  let summary = "reduces sliding windows (pooling)";
  let description = "Printed in generic form.";
  let arguments = (ins Variadic<HLO_Tensor>:$inputs,
                       Variadic<HLO_Tensor>:$init_values,
                       DenseI64ArrayAttr:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$base_dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dilations,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs Variadic<HLO_Tensor>);
  let regions = (region SizedRegion<1>:$body);
  let hasVerifier = 1;
}

def StableHLO_SelectAndScatterOp : StableHLO_Op<"select_and_scatter",
                                                [RecursiveMemoryEffects]> {
  let summary = "scatters source values to the selected element of windows";
  let description = "Printed in generic form (the gradient of max pooling).";
  let arguments = (ins HLO_Tensor:$operand, HLO_Tensor:$source,
                       HLO_Tensor:$init_value,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs HLO_Tensor);
  let regions = (region SizedRegion<1>:$select, SizedRegion<1>:$scatter);
  let hasVerifier = 1;
}

def StableHLO_MapOp : StableHLO_Op<"map",
    [RecursiveMemoryEffects, SameOperandsAndResultShape]> {
  let summary = "applies a scalar region elementwise";
  let description = "Printed in generic form.";
  let arguments = (ins Variadic<HLO_Tensor>:$inputs,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs HLO_Tensor);
  let regions = (region SizedRegion<1>:$computation);
}

def StableHLO_TriangularSolveOp : StableHLO_Op<"triangular_solve", [Pure]> {
  let summary = "solves triangular linear systems";
  let description = "Printed in generic form.";
  let arguments = (ins HLO_Tensor:$a, HLO_Tensor:$b, BoolAttr:$left_side,
                       BoolAttr:$lower, BoolAttr:$unit_diagonal,
                       HLO_TransposeAttr:$transpose_a);
  let results = (outs HLO_Tensor);
  let hasVerifier = 1;
}

def StableHLO_CholeskyOp : StableHLO_Op<"cholesky",
    [Pure, SameOperandsAndResultType]> {
  let summary = "Cholesky decomposition";
  let description = [{
    ```mlir
    %r = stablehlo.cholesky %a, lower = true : tensor<3x3xf32>
    ```
  }];
  let arguments = (ins HLO_Tensor:$a,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$lower);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $a (`,` `lower` `=` $lower^)? attr-dict `:`
    custom<SameOperandsAndResultType>(type($a), type($result))
  }];
}

def StableHLO_FftOp : StableHLO_Op<"fft", [Pure]> {
  let summary = "fast Fourier transform over the minor dimensions";
  let description = [{
    ```mlir
    %r = stablehlo.fft %x, type = RFFT, length = [16] : (tensor<16xf32>) -> tensor<9xcomplex<f32>>
    ```
  }];
  let arguments = (ins HLO_Tensor:$operand, HLO_FftTypeAttr:$fft_type,
                       DenseI64ArrayAttr:$fft_length);
  let results = (outs HLO_Tensor);
  let assemblyFormat = [{
    $operand `,` `type` `=` $fft_type `,` `length` `=` $fft_length
    attr-dict `:` functional-type(operands, results)
  }];
}

def StableHLO_RngBitGeneratorOp : StableHLO_Op<"rng_bit_generator", [Pure]> {
  let summary = "random bits and the next generator state";
  let description = [{
    ```mlir
    %state, %bits = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY
                    : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
    ```
  }];
  let arguments = (ins HLO_RngAlgorithmAttr:$rng_algorithm,
                       HLO_Tensor:$initial_state);
  let results = (outs HLO_Tensor:$output_state, HLO_Tensor:$output);
  let assemblyFormat = [{
    $initial_state `,` `algorithm` `=` $rng_algorithm attr-dict
    `:` functional-type(operands, results)
  }];
}

def StableHLO_RngOp : StableHLO_Op<"rng"> {
  let summary = "random numbers of a distribution";
  let description = [{
    UNIFORM draws from [a, b) (a < b); NORMAL from the normal distribution
    with mean `a` and standard deviation `b` (floats only). `shape` (a 1-D
    integer tensor) holds the result shape. The specification leaves the
    generator implementation-defined, so the op is neither pure nor
    removable.

    ```mlir
    %r = stablehlo.rng %a, %b, %shape, distribution = UNIFORM
         : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins 0DTensorOf<[AnyType]>:$a, 0DTensorOf<[AnyType]>:$b,
                       1DTensorOf<[AnySignlessInteger, AnyUnsignedInteger,
                                   Index]>:$shape,
                       HLO_RngDistributionAttr:$rng_distribution);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $shape `,` `distribution` `=` $rng_distribution attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def HLO_FpTensor : RankedTensorOf<[AnyFloat]>;
def HLO_Fp1DTensor : 1DTensorOf<[AnyFloat]>;

def StableHLO_BatchNormInferenceOp : StableHLO_Op<"batch_norm_inference",
                                                  [Pure]> {
  let summary = "normalizes with given per-feature statistics";
  let description = [{
    `scale * (operand - mean) / sqrt(variance + epsilon) + offset`, with the
    1-D per-feature tensors broadcast along `feature_index`. Printed in
    generic form:

    ```mlir
    %r = "stablehlo.batch_norm_inference"(%x, %scale, %offset, %mean, %var)
           {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}
         : (tensor<8x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>,
            tensor<3xf32>) -> tensor<8x3xf32>
    ```
  }];
  let arguments = (ins HLO_FpTensor:$operand, HLO_Fp1DTensor:$scale,
                       HLO_Fp1DTensor:$offset, HLO_Fp1DTensor:$mean,
                       HLO_Fp1DTensor:$variance, F32Attr:$epsilon,
                       I64Attr:$feature_index);
  let results = (outs HLO_FpTensor:$result);
  let hasVerifier = 1;
}

def StableHLO_BatchNormTrainingOp : StableHLO_Op<"batch_norm_training",
                                                 [Pure]> {
  let summary = "normalizes with the batch statistics and returns them";
  let description = [{
    The mean and (biased) variance of every feature are taken over all
    dimensions but `feature_index`; the output is
    `scale * (operand - mean) / sqrt(variance + epsilon) + offset`. Printed
    in generic form:

    ```mlir
    %out, %mean, %var = "stablehlo.batch_norm_training"(%x, %scale, %offset)
           {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}
         : (tensor<8x3xf32>, tensor<3xf32>, tensor<3xf32>)
        -> (tensor<8x3xf32>, tensor<3xf32>, tensor<3xf32>)
    ```
  }];
  let arguments = (ins HLO_FpTensor:$operand, HLO_Fp1DTensor:$scale,
                       HLO_Fp1DTensor:$offset, F32Attr:$epsilon,
                       I64Attr:$feature_index);
  let results = (outs HLO_FpTensor:$output, HLO_Fp1DTensor:$batch_mean,
                      HLO_Fp1DTensor:$batch_var);
  let hasVerifier = 1;
}

def StableHLO_BatchNormGradOp : StableHLO_Op<"batch_norm_grad", [Pure]> {
  let summary = "gradients of batch_norm_training";
  let description = [{
    Given the forward statistics `mean` and `variance` and the gradient of
    the output, returns the gradients of the operand, the scale and the
    offset (the sums over all dimensions but `feature_index`). Printed in
    generic form:

    ```mlir
    %gx, %gscale, %goffset = "stablehlo.batch_norm_grad"(%x, %scale, %mean, %var, %gy)
           {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}
         : (tensor<8x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>,
            tensor<8x3xf32>) -> (tensor<8x3xf32>, tensor<3xf32>, tensor<3xf32>)
    ```
  }];
  let arguments = (ins HLO_FpTensor:$operand, HLO_Fp1DTensor:$scale,
                       HLO_Fp1DTensor:$mean, HLO_Fp1DTensor:$variance,
                       HLO_FpTensor:$grad_output, F32Attr:$epsilon,
                       I64Attr:$feature_index);
  let results = (outs HLO_FpTensor:$grad_operand, HLO_Fp1DTensor:$grad_scale,
                      HLO_Fp1DTensor:$grad_offset);
  let hasVerifier = 1;
}

def StableHLO_EinsumOp : StableHLO_Op<"einsum", [Pure]> {
  let summary = "contraction written as an einsum config";
  let description = [{
    `einsum_config` is `lhs,rhs->result` with one letter per dimension
    (`...` stands for the dimensions the letters leave out). A letter of
    both operands that the result lacks is summed over; a letter repeated
    in one operand takes its diagonal.

    ```mlir
    %r = stablehlo.einsum %a, %b, config = "ab,bc->ac"
         : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    ```
  }];
  let arguments = (ins HLO_Tensor:$lhs, HLO_Tensor:$rhs,
                       StrAttr:$einsum_config);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` `config` `=` $einsum_config attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def StableHLO_UnaryEinsumOp : StableHLO_Op<"unary_einsum", [Pure]> {
  let summary = "sum, transpose or diagonal written as an einsum config";
  let description = [{
    `einsum_config` is `operand->result` (see `einsum`).

    ```mlir
    %r = stablehlo.unary_einsum %a, config = "ab->a" : (tensor<2x3xf32>) -> tensor<2xf32>
    ```
  }];
  let arguments = (ins HLO_Tensor:$operand, StrAttr:$einsum_config);
  let results = (outs HLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `config` `=` $einsum_config attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // TOAST_DIALECT_STABLEHLO_IR_STABLEHLOCOMPUTEOPS_TD
