//===- Passes.td - PartIR:HLO passes -----------------------*- tablegen -*-===//
#ifndef TOAST_DIALECT_PARTIR_HLO_TRANSFORMS_PASSES_TD
#define TOAST_DIALECT_PARTIR_HLO_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def PartirLowerToHloPass : Pass<"partir-lower-to-hlo", "::mlir::ModuleOp"> {
  let summary = "Lowers PartIR:Core loops to device-local PartIR:HLO";
  let description = [{
    PartIR §6.1. Every `partir.loop` is removed: its body runs on each
    device, `partir.slice` becomes `partir_hlo.all_slice` over the loop's
    axis, and the loop's results become `all_gather` (`#tile<d>`),
    `all_reduce "sum"` (`#sum`) or the yielded value (`#any`). Every
    `sdy.manual_computation` (shard_map) is replaced by its body, which is
    device-local code already, between an all_slice of each operand and an
    all_gather of each result on the manual axes. The
    collectives are then optimized (see `partir-optimize-collectives`), the
    tied values of `while`/`case`/`if` become device-local where every use of
    their block arguments and result is an all_slice and one of them has
    axes that start every other's (the loop then carries shards, the longer
    slices slice the rest locally; the value each source passes is the
    operand of a matching all_gather, or an all_slice of it), and the
    function boundary
    becomes device-local: an argument used only through identical all_slices
    takes the sliced type, a result produced by an all_gather returns the
    gathered operand. Each sharded argument and result
    records its per-dimension axes in `partir.sharding`, and the function
    records the mesh in `partir.mesh`. A program that still carries the
    tactic passes' state (`partir.tiling`, `partir.loops`) is an error: run
    `--partir-materialize-core` (or a `--partir-schedule`) first.

    Input:
    ```mlir
    %r = partir.loop "B" [#partir.tile<0>] (%rB: !partir.range<4>) {
      %xs = partir.slice 0 %x[%rB] : tensor<256x8xf32> -> tensor<64x8xf32>
      ...
    ```
    Output: `func.func @main(%x: tensor<64x8xf32> {partir.sharding = [["B"], []]}, ...`.

    **Options:** `optimize` (default true), `boundary` (default true).
  }];
  let options = [
    Option<"optimize", "optimize", "bool", /*default=*/"true",
           "Fuse and cancel collectives after lowering">,
    Option<"boundary", "boundary", "bool", /*default=*/"true",
           "Make function arguments and results device-local">,
  ];
  let dependentDialects = ["::toast::partir_hlo::PartIRHLODialect"];
}

def PartirOptimizeCollectivesPass : Pass<"partir-optimize-collectives", "::mlir::ModuleOp"> {
  let summary = "Fuses and cancels PartIR:HLO collectives";
  let description = [{
    * an all_gather read by several ops gets a copy before each of them (as
      PartIR and FSDP gather per use, so no gathered copy stays alive
      between readers); the operands of one op share a copy, and so do the
      all_slices a loop or conditional reads as its inits (one carried
      value with two tilings slices one gather); equal all_gathers of one
      value read by one loop or conditional become one; an all_gather of a
      loop body's or branch's block argument moves right before its reader;
    * consecutive all_slices (all_gathers) merge into one;
    * `all_slice(all_gather(x))` cancels where the slice axes are a prefix of
      the gather axes in every dimension, leaving an all_gather of the rest;
    * `all_slice(all_gather(x))` that moves one axis list from one dimension
      to another becomes `all_to_all`;
    * `all_slice(all_reduce(x))` over the same axes becomes `reduce_scatter`;
    * `all_reduce(all_gather(x))` over disjoint axes reduces first (less
      data, and the gather can then cancel with a later slice);
    * `stablehlo.add` of two sum all_reduces over the same axes becomes one
      all_reduce of the sum;
    * collectives over no axes disappear, unused ones are removed.
  }];
  let dependentDialects = ["::toast::partir_hlo::PartIRHLODialect"];
}

#endif // TOAST_DIALECT_PARTIR_HLO_TRANSFORMS_PASSES_TD
