//===- Passes.td - Automatic partitioning passes -----------*- tablegen -*-===//
#ifndef TOAST_SEARCH_PASSES_TD
#define TOAST_SEARCH_PASSES_TD

include "mlir/Pass/PassBase.td"

def ToastAutoPartitionPass
    : Pass<"toast-auto-partition", "::mlir::ModuleOp"> {
  let summary = "AutomaticPartition(axes, options): MCTS over NDA actions";
  let description = [{
    Searches a sharding of the entry function (`@main`, or the only public
    function) over the mesh axes `axes` (TOAST §4, docs/search.md) and
    applies it, e.g.

    ```
    toast-opt model.mlir --toast-auto-partition="axes=B,M mesh=B=8,M=4 device=a100 seed=1 budget-s=30 threads=2"
    ```

    The search starts from the state earlier tactic passes left (e.g.
    `--partir-manual-partition` for batch parallelism on `B`, then this
    pass with `axes=M`), builds the named-dimension action space (colors x
    conflict-resolution bits x axes, actions of fewer than `min-dims`
    dimensions pruned, repeated layers mirrored), and runs MCTS under the
    analytic cost C(s) = RT(s) + MP(s) of `device`: rounds of rollouts that
    each apply the best trajectory found, stopping when a round does not
    improve or 80% of the budget (`budget-s` seconds, `rollouts`) is spent;
    then a local search over the best strategy (one action replaced,
    dropped or appended, two mesh axes exchanged) until no neighbour
    improves, then random perturbations of it until `restart-patience` of
    them in a row fail and have priced `patience-work` ops (states times the
    program's ops; on small programs, such as those with their layers in a
    `while`, restarts are cheap and up to 4 times as many may fail). The
    search also stops as soon as every reachable state has been priced.
    The budget is an upper bound: the search stops by itself when it has
    converged, and says why.
    Progress (rounds, best cost, elapsed time), the reason it stopped, the
    time to the best state and the chosen actions in words go to stderr;
    `report=true` also emits them as a remark. The result is PartIR:Core,
    unless `materialize=false`, which leaves the annotated program for
    further tactic passes, or `emit=planned`, which gives the device-local
    PartIR:HLO the search priced, built from its plan (a winner priced by
    the reference path goes through PartIR:Core and lowering, with a
    remark); do not lower that output again.

    `algorithm=random` and `algorithm=automap` run the baselines with the
    same budget and cost: random legal trajectories, and an AutoMap-style
    search whose actions only tile function arguments (then propagation).
    `algorithm=exhaustive` prices every state reachable from the start,
    breadth first, up to `max-states` states (and the budget): "optimal"
    when it priced them all, "best of N states" otherwise.
    `algorithm=ilp` solves the Alpa / XLA auto-sharding integer program
    instead (per-op strategies from the sharding rules, compute and
    resharding collectives priced with the simulator's formulas, the memory
    penalty of C(s) on the peak over device memory, elementwise and
    single-input ops following their operand) with CBC, within
    `ilp-time-limit-s` seconds (600 as in Alpa; over it, the best solution
    found; `budget-s` does not bound the ILP, whose formulation and local
    search also take time);
    `iopddl-out=FILE` also writes the problem in the IOPDDL JSON format.
    It starts from the unpartitioned program; the result is priced by the
    simulator like every other strategy.
    Results are reproducible for a given `seed` and `threads` unless the
    time budget ends the search early.

    `schedule-out=FILE` writes the strategy found as a schedule JSON of
    manual tactics (the format `--partir-schedule=file=` reads): the
    tilings of the entry function's arguments, level by level and axis by
    axis, selected by the names users know them by (`partir.name`,
    `jax.arg_info`, `tf.name`, `mhlo.name`; `argN` where a name is missing
    or not unique). The pass applies the written schedule to the module as
    it was before the search and warns when propagation from it does not
    rebuild the same partitioning; an unwritable file is an error.

    **Options:** `axes`, `mesh`, `device`, `algorithm`, `seed`, `budget-s`,
    `threads`, `rollouts`, `restart-patience`, `patience-work`, `min-gain`,
    `patience-ratio`,
    `climb-memory`, `restart-neighbours`, `max-states`,
    `min-dims`,
    `ilp-time-limit-s`, `iopddl-out`, `list-actions`, `report`, `progress`,
    `materialize`,
    `schedule-out`.
  }];
  let options = [
    ListOption<"axes", "axes", "std::string",
               "Mesh axes to search over (default: all)">,
    Option<"mesh", "mesh", "std::string", /*default=*/"\"\"",
           "Mesh axes as `B=4,M=2` (used when the module has no partir.mesh; "
           "overrides it otherwise)">,
    Option<"device", "device", "std::string", /*default=*/"\"a100\"",
           "Device whose cost model scores states">,
    Option<"algorithm", "algorithm", "std::string", /*default=*/"\"mcts\"",
           "mcts, random, automap, exhaustive or ilp">,
    Option<"seed", "seed", "uint64_t", /*default=*/"1", "Random seed">,
    Option<"budgetSeconds", "budget-s", "double", /*default=*/"30",
           "Time budget in seconds of the whole tactic (building the search "
           "space included), an upper bound (0: none)">,
    Option<"threads", "threads", "unsigned", /*default=*/"1",
           "Search threads (1 to 256)">,
    Option<"rollouts", "rollouts", "uint64_t", /*default=*/"0",
           "Rollout budget (0: none)">,
    Option<"restartPatience", "restart-patience", "unsigned",
           /*default=*/"30",
           "MCTS stops after this many perturbation restarts in a row fail "
           "to improve (0: after the first climb)">,
    Option<"patienceWork", "patience-work", "uint64_t",
           /*default=*/"8000000",
           "MCTS: the failed restarts in a row that stop the search "
           "(restart-patience) must also price this many ops (states times "
           "the program's ops), up to 4 times restart-patience failures: "
           "cheap programs get more restarts (0: no such rule)">,
    Option<"minGain", "min-gain", "double", /*default=*/"0",
           "MCTS: the relative gain of the best cost that counts as progress "
           "for stopping (rounds, restart-patience), in [0, 1); smaller gains "
           "are kept but do not keep the search going">,
    Option<"patienceRatio", "patience-ratio", "double", /*default=*/"0",
           "MCTS: restarts also end when the states priced since the last "
           "gain of min-gain exceed this many times the states priced "
           "until it (0: no such limit)">,
    Option<"climbMemory", "climb-memory", "bool", /*default=*/"true",
           "MCTS: climbs try the moves that have not failed to improve "
           "before those that have (false: a new random order per step)">,
    Option<"restartNeighbours", "restart-neighbours", "uint64_t",
           /*default=*/"128",
           "MCTS: a climb from a perturbation is stuck once a quarter of its "
           "neighbours, and at most this many (at least 8 per thread), fail "
           "to improve (0: a quarter)">,
    Option<"maxStates", "max-states", "uint64_t", /*default=*/"100000",
           "Exhaustive enumeration prices at most this many states">,
    Option<"minDims", "min-dims", "unsigned", /*default=*/"10",
           "Prune actions touching fewer dimensions">,
    Option<"ilpTimeLimitSeconds", "ilp-time-limit-s", "double",
           /*default=*/"600",
           "algorithm=ilp: CBC's time limit in seconds (> 0)">,
    Option<"donate", "donate", "bool", /*default=*/"false",
           "Price states with every argument whose local type matches a "
           "result donated (as --partir-simulate=donate=true; arguments "
           "marked tf.aliasing_output / jax.buffer_donor are donated "
           "anyway)">,
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "Price f32 contractions at the device's TF32 peak (as "
           "--partir-simulate=tf32=true)">,
    Option<"scheduleOut", "schedule-out", "std::string", /*default=*/"\"\"",
           "Write the strategy found as a schedule JSON of manual tactics">,
    Option<"pad", "pad", "bool", /*default=*/"true",
           "Also shard dimensions an axis does not divide, padded to "
           "ceil(n / k) rows per device (docs/dialects.md); pad=false "
           "offers divisible shardings only">,
    Option<"contextActions", "context-actions", "bool",
           /*default=*/"false",
           "Also offer context actions: each family action restricted to "
           "the ops that meet one of the two largest unmirrored colors "
           "(docs/search.md, \"Context actions\")">,
    Option<"iopddlOut", "iopddl-out", "std::string", /*default=*/"\"\"",
           "algorithm=ilp: write the decision problem as IOPDDL JSON here">,
    Option<"listActions", "list-actions", "bool", /*default=*/"false",
           "Print every action of the search space in words before "
           "searching (with progress)">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Emit the chosen actions as a remark">,
    Option<"progress", "progress", "bool", /*default=*/"true",
           "Print progress and the final report to stderr">,
    Option<"materialize", "materialize", "bool", /*default=*/"true",
           "Rewrite into PartIR:Core at the end">,
    Option<"emit", "emit", "std::string", /*default=*/"\"core\"",
           "What the strategy found becomes: core (PartIR:Core, to be "
           "lowered) or planned (the device-local PartIR:HLO the search "
           "priced, built from its plan; winners priced by the reference "
           "path go through PartIR:Core and lowering instead)">,
  ];
  let dependentDialects = ["::toast::partir::PartIRDialect",
                           "::toast::partir_hlo::PartIRHLODialect"];
}

def ToastEmitPlannedPass
    : Pass<"toast-emit-planned", "::mlir::ModuleOp"> {
  let summary = "The device-local program of the saved sharding state, "
                "built from the search's plan (a check of the planner)";
  let description = [{
    Reads the sharding state earlier tactic passes saved on the entry
    function (e.g. `--partir-manual-partition`), imports it as a search
    state and replaces the entry by the device-local PartIR:HLO that the
    search's planner describes for it (`NdaEnvironment::emitPlanned`):
    every op cloned onto its local types and exactly the collectives the
    analytic cost prices, without `--partir-materialize-core`,
    `--partir-lower-to-hlo` or `--partir-optimize-collectives`. A debugging
    and testing aid (docs/search.md, "Planner and pricer"): the result is
    compared with the original by `toast-run --compare` and simulated by
    `--partir-simulate`, whose step time is the analytic cost's. It covers
    every state the analytic cost prices without the reference path:
    straight-line programs, padded ones with their masks, region ops the
    state leaves alone, and loops whose bodies the loop model partitions
    (emitted as loops on device-local carried values); other states fail
    with a diagnostic. The partitioned program the
    search itself produces still comes from the PartIR:Core path.

    ```
    toast-opt m.mlir --partir-manual-partition="name=BP axis=B inputs=re:batch.*=0 mesh=B=2,M=2" \
      --toast-emit-planned -o planned.mlir
    ```
  }];
  let options = [
    Option<"device", "device", "std::string", /*default=*/"\"a100\"",
           "Device the state is priced on (a built-in name or file:path)">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Emit the analytic step time and collective counts as a remark">,
  ];
  let dependentDialects = ["::toast::partir::PartIRDialect",
                           "::toast::partir_hlo::PartIRHLODialect",
                           "::mlir::func::FuncDialect"];
}

#endif // TOAST_SEARCH_PASSES_TD
