//===- Passes.td - PartIR actions, tactics and schedules ---*- tablegen -*-===//
//
// Passes that apply PartIR actions and tactics. Between passes the state
// (tilings, loop nests, atomic axes) lives in `partir.*` attributes on the
// global program, so tactic passes can be chained; `partir-materialize-core`
// (or `partir-schedule`) finally rewrites the program into PartIR:Core.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_PARTITION_PASSES_TD
#define TOAST_PARTITION_PASSES_TD

include "mlir/Pass/PassBase.td"

defvar MeshOption = Option<"mesh", "mesh", "std::string", /*default=*/"\"\"",
    "Mesh axes as `B=4,M=2` (used when the module has no partir.mesh; "
    "overrides it otherwise)">;

def PartirSchedulePass : Pass<"partir-schedule", "::mlir::ModuleOp"> {
  let summary = "Applies a JSON schedule of tactics and emits PartIR:Core";
  let description = [{
    Reads a schedule (format in docs/schedules.md), e.g.

    ```json
    {"mesh": {"B": 4, "M": 2},
     "tactics": [{"name": "BP", "kind": "manual", "axis": "B",
                  "inputs": {"arg0": 0}},
                 {"name": "Z3", "kind": "manual", "axis": "B",
                  "inputs": {"re:.*w[12]$": "first_divisible"}}]}
    ```

    and applies its tactics in order to the entry function (`@main`, or the
    only public function). Each tactic tiles or replicates its inputs and
    propagates. The result is PartIR:Core, unless `materialize=false`, which
    leaves the annotated program for further tactic passes. A mesh already
    on the module is used when the file gives none. With `report`, one line
    per tactic goes to stderr; if the schedule names a `"device"` (e.g.
    `"a100"`), the line also gives the simulated step time, peak memory and
    collective counts of the program partitioned up to that tactic.

    **Options:** `file`, `materialize` (default true), `report`.
  }];
  let options = [
    Option<"file", "file", "std::string", /*default=*/"\"\"",
           "Path of the JSON schedule">,
    Option<"materialize", "materialize", "bool", /*default=*/"true",
           "Rewrite into PartIR:Core at the end">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Print one line per tactic to stderr">,
  ];
  // PartIR:HLO: a schedule with a "device" simulates each tactic's result.
  let dependentDialects = ["::toast::partir::PartIRDialect",
                           "::toast::partir_hlo::PartIRHLODialect"];
}

def PartirManualPartitionPass
    : Pass<"partir-manual-partition", "::mlir::ModuleOp"> {
  let summary = "ManualPartition(inputs -> dim, axis), then propagation";
  let description = [{
    One manual tactic as a pass; repeat it in a pipeline for a schedule:

    ```
    toast-opt --partir-manual-partition="name=BP axis=B inputs=arg0=0 mesh=B=4,M=2" \
              --partir-manual-partition="name=MP axis=M inputs=arg1=1" \
              --partir-materialize-core
    ```

    `inputs` is a `;`-separated list of `selector=spec`: the selector is
    `argN`, an input name, `#N` / `#N.R` (a result of op N), or
    `re:REGEX`; the spec is a dimension (`D@P` puts the level at position
    P of the value's tiling levels), `first_divisible` or `replicated`.
    With an op selector `#N`, the spec may also act on the op itself:
    `operandO:D` makes it loop over the axis on the factor that dimension D
    of its operand O maps (a contraction's reduction factor included), and
    `whole_op` keeps it from looping over the axis (docs/schedules.md).
    Leaves the annotated program.

    **Options:** `name`, `axis`, `inputs`, `mesh`.
  }];
  let options = [
    Option<"tacticName", "name", "std::string", /*default=*/"\"manual\"",
           "Name used in messages">,
    Option<"axis", "axis", "std::string", /*default=*/"\"\"", "Mesh axis">,
    Option<"inputs", "inputs", "std::string", /*default=*/"\"\"",
           "selector=spec;... (see description)">,
    MeshOption,
  ];
  let dependentDialects = ["::toast::partir::PartIRDialect"];
}

def PartirTilePass : Pass<"partir-tile", "::mlir::ModuleOp"> {
  let summary = "The tile<value, dim, axis> action (without propagation)";
  let description = [{
    Tiles the selected values (`argN`, a name, or `re:REGEX`) along `dim`
    over `axis`, nested inside any tiling they already have (deep tiling).
    Run `--partir-propagate` to propagate.

    **Options:** `value`, `dim`, `axis`, `mesh`.
  }];
  let options = [
    Option<"value", "value", "std::string", /*default=*/"\"\"",
           "Selector of the values to tile">,
    Option<"dim", "dim", "int64_t", /*default=*/"0", "Dimension to tile">,
    Option<"axis", "axis", "std::string", /*default=*/"\"\"", "Mesh axis">,
    MeshOption,
  ];
  let dependentDialects = ["::toast::partir::PartIRDialect"];
}

def PartirAtomicPass : Pass<"partir-atomic", "::mlir::ModuleOp"> {
  let summary = "The atomic<value, axis> action: keep values whole on an axis";
  let description = [{
    Marks the selected values as replicated on `axis`: propagation never
    tiles them on it. Materializes as `partir.loop "M" [#partir.any]`.

    **Options:** `value`, `axis`, `mesh`.
  }];
  let options = [
    Option<"value", "value", "std::string", /*default=*/"\"\"",
           "Selector of the values">,
    Option<"axis", "axis", "std::string", /*default=*/"\"\"", "Mesh axis">,
    MeshOption,
  ];
  let dependentDialects = ["::toast::partir::PartIRDialect"];
}

def PartirPropagatePass : Pass<"partir-propagate", "::mlir::ModuleOp"> {
  let summary = "The propagate action";
  let description = [{
    Propagates the tilings forward and backward through the sharding rules
    to a fixed point, with inference from partial matches; conflicts and
    axes already used by an op's loops block propagation. Ops inside
    `while`/`case`/`if` bodies propagate like top-level ops, and each tied
    class of such an op (a loop-carried value: operand, block arguments,
    yielded value, result; a conditional's result and its branches' returns)
    propagates as one identity op whose nest is saved in
    `partir.edge_loops`. A reshape's split or merged dimension maps several
    factors and is tiled major factor first (a block of the merged
    dimension); an axis that would tile a minor factor before its major
    factors are fully tiled moves to the major factor when it divides it
    (the lowering emits one `all_to_all`), else stays off the reshape.
    Linear in the program size (a worklist). With `report`, one line with
    the number of ops visited, loops added and conflicts met goes to stderr,
    followed by `N moved to a reshape's major factor` when some axis moved.

    **Options:** `report`, `mesh`.
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "Print visits, loops added and conflicts to stderr">,
    MeshOption,
  ];
  let statistics = [
    Statistic<"numVisits", "visits", "Ops taken from the worklist">,
    Statistic<"numAssignments", "assignments", "Loops added to op nests">,
    Statistic<"numConflicts", "conflicts", "Axis choices blocked by a conflict">,
    Statistic<"numReshapeMoves", "reshape-moves",
              "Axes moved to a reshape's major factor">,
  ];
  let dependentDialects = ["::toast::partir::PartIRDialect"];
}

def PartirMaterializeCorePass
    : Pass<"partir-materialize-core", "::mlir::ModuleOp"> {
  let summary = "Rewrites the annotated program into PartIR:Core loops";
  let description = [{
    Turns the tilings recorded by the action and tactic passes into
    `partir.loop` nests with `partir.slice`s, then fuses loops into the
    loops that slice them (PartIR Listing 8). Ops in loop and conditional
    bodies get nests too; the region op stays global, its tiled block
    arguments get value-tiling loops, and no loop is fused into a body from
    outside it.
  }];
  let options = [MeshOption];
  let dependentDialects = ["::toast::partir::PartIRDialect"];
}

#endif // TOAST_PARTITION_PASSES_TD
