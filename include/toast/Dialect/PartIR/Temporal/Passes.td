//===- Passes.td - PartIR:Temporal reading -----------------*- tablegen -*-===//
#ifndef TOAST_DIALECT_PARTIR_TEMPORAL_PASSES_TD
#define TOAST_DIALECT_PARTIR_TEMPORAL_PASSES_TD

include "mlir/Pass/PassBase.td"

def PartirLowerToTemporalPass
    : Pass<"partir-lower-to-temporal", "::mlir::ModuleOp"> {
  let summary = "Reads PartIR:Core loops sequentially, as upstream scf.for";
  let description = [{
    The temporal reading of PartIR:Core (PartIR §4): every `partir.loop`
    becomes an `scf.for` over the axis' indices that carries the result.
    `partir.slice d %x[%r]` becomes `tensor.extract_slice` at offset
    `r * chunk`; a `#tile<d>` result is assembled with
    `tensor.insert_slice`, a `#sum` result accumulates with `stablehlo.add`
    from zero, a `#any` result keeps the last iteration's value. Tags are
    dropped. The output uses only upstream `scf`, `tensor` and `arith` plus
    StableHLO, so it runs on one device and can be compared with the
    original program (microbatching reads the same way).

    ```mlir
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %empty) -> (tensor<256x8xf32>) {
      %off = arith.muli %i, %c64 : index
      %xs = tensor.extract_slice %x[%off, 0] [64, 8] [1, 1] : ...
      ...
      %next = tensor.insert_slice %y into %acc[%off, 0] [64, 8] [1, 1] : ...
      scf.yield %next : tensor<256x8xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // TOAST_DIALECT_PARTIR_TEMPORAL_PASSES_TD
