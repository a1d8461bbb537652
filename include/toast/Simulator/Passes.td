//===- Passes.td - Simulator passes ------------------------*- tablegen -*-===//
#ifndef TOAST_SIMULATOR_PASSES_TD
#define TOAST_SIMULATOR_PASSES_TD

include "mlir/Pass/PassBase.td"

def PartirSimulatePass : Pass<"partir-simulate", "::mlir::ModuleOp"> {
  let summary = "Estimates step time, peak memory, its floor and collectives "
                "of a device-local program; draws the step as a Chrome trace";
  let description = [{
    PartIR appendix A.5 / TOAST §4.5. Simulates the entry function (`@main`,
    or the only public function, or `function=NAME`) of a device-local
    program, as `--partir-lower-to-hlo` produces it, on one device of the
    mesh (`partir.mesh`):

    * ops are fused as an XLA-like backend fuses them (`fusion=true`, the
      default): elementwise ops and data movement (broadcast, convert,
      reshape, transpose, slice, concatenate, pad, iota) fuse into the loop
      ops and reduces that read them (duplicated into several readers,
      unless expensive: a transcendental, divide, power), and a reduce's
      result fuses forward into a single elementwise reader of its shape
      (an epilogue); a fused value has no buffer. Values read in another
      block, by the terminator, a collective or any other op are buffers;
    * every fusion and unfused op takes the roofline max(FLOPs / peak,
      HBM bytes / bandwidth) (`memory-bound=true`, the default): FLOPs are
      a contraction's 2·MACs at the peak of its element type (the operands'
      when they agree, else the result's; `tf32=true` prices f32 at the
      TF32 peak), bytes are what it reads (each materialized input once)
      and writes; an in-place dynamic_update_slice or scatter moves its
      slice only. `memory-bound=false fusion=false` is the earlier model:
      only contractions take time, every value is a buffer;
    * PartIR:HLO collectives run as rings over the mesh axes they span
      (all_gather and reduce_scatter: n-1 steps of α plus (n-1)/n of the
      full buffer over β; all_reduce: both; all_to_all: (n-1)/2 of the local
      buffer; all_slice is free); StableHLO collectives use their replica
      group size and the default interconnect;
    * times add up along one stream (or two overlapping streams with
      `overlap=true`); calls are inlined; counted while loops repeat their
      body (trip count from a constant counter), other loops count once;
    * peak memory is the largest sum of live device-local buffers:
      arguments live throughout, values die after their last use; reshapes
      alias; dynamic_update_slice and scatter update their operand in place
      where it dies; donated arguments (`tf.aliasing_output`,
      `jax.buffer_donor`, every matching one with `donate=true`) die after
      their last use and hold the result they alias; fused values take no
      memory, and what a fusion reads lives until the fusion runs.

    It also reports the memory floor (`memory_floor_bytes`): the largest
    sum, over the points between two ops, of the buffers defined before the
    point and read after it (arguments, the forward values the backward pass
    reads, gradients awaiting their update, results), leaving out what a
    fusing backend need not store (values the fusion rule fuses;
    broadcasts, converts, iota and splat constants count as what they are
    recomputed from). No buffer reuse goes below it: the peak is never
    smaller.

    It prints a summary (to stderr unless `summary=false`) and, with
    `json=PATH` (`-` for stdout), writes the JSON report described in
    docs/simulator.md. `trace=PATH` writes the simulated step as a Chrome
    trace event file (open it in https://ui.perfetto.dev or
    chrome://tracing): a `compute` and a `collectives` track with one slice
    per op that takes time (op name, location and index in its arguments;
    a loop body's op lasts trip count x one iteration, inside a slice of
    its loop), a `live memory` counter, a `memory floor` counter and a
    `peak memory` marker. `memory-csv=PATH` writes the live bytes op by op
    (`time_s,live_bytes,op_index,op`). An output that cannot be written is
    an error before anything is simulated, and then no output is kept.

    `baseline=PATH` reads an earlier JSON report as the initial state s0 of
    the relative cost C(s) = RT(s) + MP(s); without it the program is its
    own baseline (RT = 1). The IR is not changed.

    ```
    toast-opt model.mlir --partir-schedule=file=bp.json --partir-lower-to-hlo \
      --partir-simulate="device=a100 json=report.json" -o /dev/null
    ```

    Devices: `a100`, `h100`, `p100`, `tpuv3`, or `file:PATH` (JSON).
  }];
  let options = [
    Option<"device", "device", "std::string", /*default=*/"\"a100\"",
           "Device: a100, h100, p100, tpuv3 or file:PATH">,
    Option<"jsonPath", "json", "std::string", /*default=*/"\"\"",
           "Write the JSON report to this file ('-' for stdout)">,
    Option<"function", "function", "std::string", /*default=*/"\"\"",
           "Entry function (default: @main or the only public function)">,
    Option<"memoryBound", "memory-bound", "bool", /*default=*/"true",
           "Roofline: price every op or fusion by max(FLOPs / peak, HBM "
           "bytes / bandwidth) (false: contractions only)">,
    Option<"fusion", "fusion", "bool", /*default=*/"true",
           "XLA-like fusion: fused values have no buffer and no traffic "
           "(false: every value is a buffer)">,
    Option<"overlap", "overlap", "bool", /*default=*/"false",
           "Overlap collectives with independent compute (two streams)">,
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "Price f32 contractions at the device's TF32 peak">,
    Option<"donate", "donate", "bool", /*default=*/"false",
           "Donate every argument whose type matches a result">,
    Option<"tracePath", "trace", "std::string", /*default=*/"\"\"",
           "Write the simulated step as a Chrome trace event file "
           "(Perfetto, chrome://tracing; '-' for stdout)">,
    Option<"memoryCsvPath", "memory-csv", "std::string", /*default=*/"\"\"",
           "Write the live memory op by op as CSV "
           "(time_s,live_bytes,op_index,op; '-' for stdout)">,
    Option<"summary", "summary", "bool", /*default=*/"true",
           "Print a human-readable summary to stderr">,
    Option<"baseline", "baseline", "std::string", /*default=*/"\"\"",
           "JSON report of the initial state for the relative cost">,
    Option<"penalty", "penalty", "double", /*default=*/"10.0",
           "Memory penalty constant C of MP(s)">,
  ];
}

#endif // TOAST_SIMULATOR_PASSES_TD
