//===- Passes.td - Export to and import from XLA/Shardy -----*- tablegen -*-===//
//
// Passes connecting Toast to XLA and JAX: device-local StableHLO with
// explicit collectives, global programs annotated with the shardings found,
// and the import of shardings a program already carries.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_EXPORT_PASSES_TD
#define TOAST_EXPORT_PASSES_TD

include "mlir/Pass/PassBase.td"

def PartirExportStablehloPass
    : Pass<"partir-export-stablehlo", "::mlir::ModuleOp"> {
  let summary = "Lowers device-local PartIR:HLO to StableHLO collectives";
  let description = [{
    Input: the device-local program `--partir-lower-to-hlo` produces. Every
    PartIR:HLO collective becomes StableHLO with explicit `replica_groups`
    computed from the mesh (devices row-major over the mesh axes; a group is
    the devices that differ only in the collective's axes, ordered by those
    axes major to minor), a fresh `channel_handle` (type 1) and
    `use_global_device_ids`:

    * `all_reduce "sum" ["M"]` -> `stablehlo.all_reduce` whose region adds
      (max, min, multiply for the other reductions);
    * `all_gather` -> one `stablehlo.all_gather` per gathered dimension (the
      axes of one dimension form one group, major axis first);
    * `all_slice` -> `stablehlo.dynamic_slice` at offsets computed from
      `stablehlo.partition_id` (mesh coordinates by constant div/rem);
    * `reduce_scatter` -> `stablehlo.reduce_scatter` (a chain for several
      scattered dimensions);
    * `all_to_all g -> s` -> `stablehlo.all_to_all` with
      `split_dimension = s`, `concat_dimension = g`.

    The module gets `mhlo.num_partitions` (the mesh's device count) and
    `mhlo.num_replicas = 1`; `partir.mesh` is removed and each
    `partir.sharding` becomes `toast.global_sharding`, the HloSharding
    string of the global value (informational: the argument itself is the
    device-local shard). `partir.tag`s are dropped; any other PartIR op left
    is an error. Global-shape annotations (`mhlo.sharding`, `sdy.sharding`,
    `sdy.sharding_constraint`, `sdy.mesh`) are removed.

    ```mlir
    %r = partir_hlo.all_reduce "sum" ["M"] %x : tensor<64x8xf32>
    // on mesh {B=4, M=2} becomes
    %r = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
           replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>,
           use_global_device_ids}> ({ ... stablehlo.add ... }) : (tensor<64x8xf32>) -> tensor<64x8xf32>
    ```
  }];
  let dependentDialects = ["::toast::stablehlo::StableHLODialect"];
  let statistics = [
    Statistic<"numCollectives", "collectives",
              "StableHLO collectives created">,
  ];
}

def PartirExportShardingsPass
    : Pass<"partir-export-shardings", "::mlir::ModuleOp"> {
  let summary = "Annotates the global program with the shardings found";
  let description = [{
    Input: the *global* program with the partitioning state that tactic
    passes leave when they do not materialize, e.g.

    ```
    toast-opt model.mlir --partir-schedule="file=s.json materialize=false" \
              --partir-export-shardings
    ```

    Each argument and result of the entry function gets the sharding the
    schedule chose for it (the tiling of the value: per dimension, the mesh
    axes splitting it, outermost first):

    * `mhlo.sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"`
      (XLA HloSharding syntax, iota device lists, `{replicated}`);
    * `sdy.sharding = #sdy.sharding<@mesh, [{"B"}, {} ]>`, with a module-level
      `sdy.mesh @mesh = <["B"=4, "M"=2]>` (Shardy).

    With `scope=all` (the default) the whole strategy is written, so that a
    partitioner that follows annotations rebuilds Toast's plan instead of
    propagating its own:

    * every op result (also inside `while`/`case` bodies) gets the sharding
      its op computes it in: `sdy.sharding = #sdy.sharding_per_value<[...]>`
      (axes the value is kept whole on as `replicated={...}`) and/or
      `mhlo.sharding` (a tuple `{{...}, {...}}` for several results);
    * where a reader needs a value in another layout than its producer's
      (the op slices it differently, or an op without a sharding rule reads
      it whole), a `sdy.sharding_constraint` (format `sdy`) or a
      `stablehlo.custom_call @Sharding` with `mhlo.sharding` (formats
      `mhlo` and `both`) sits between them with the reader's layout; a
      value Toast keeps in a layout beyond what its producer computes (an
      explicit tiling) gets one constraint read by all its readers.

    `--partir-import-shardings` reads this form back into the same
    partitioning state, so lowering the import gives the device-local
    program the direct path gives. `scope=boundary` annotates only the
    entry function's arguments and results.

    The module gets `mhlo.num_partitions` and `mhlo.num_replicas = 1`; the
    `partir.*` state attributes and `partir.mesh` are removed, so the
    program is what the user had plus the annotations.

    **Options:** `format` (`both`, `mhlo` or `sdy`; default `both`),
    `scope` (`all` or `boundary`; default `all`), `mesh-name` (default
    `mesh`).
  }];
  let options = [
    Option<"scope", "scope", "std::string", /*default=*/"\"all\"",
           "What to annotate: all (every op result and reshard) or boundary "
           "(the entry function's arguments and results)">,
    Option<"format", "format", "std::string", /*default=*/"\"both\"",
           "Which annotations to write: both, mhlo or sdy">,
    Option<"meshName", "mesh-name", "std::string", /*default=*/"\"mesh\"",
           "Symbol name of the sdy.mesh op">,
  ];
  let dependentDialects = ["::toast::sdy::SdyDialect",
                           "::toast::partir::PartIRDialect",
                           "::toast::partir_hlo::PartIRHLODialect"];
}

def PartirImportShardingsPass
    : Pass<"partir-import-shardings", "::mlir::ModuleOp"> {
  let summary = "Turns shardings the input carries into the first tactic";
  let description = [{
    Arguments and results of the entry function that carry `sdy.sharding`
    (with a module `sdy.mesh`) or `mhlo.sharding` strings, and
    `sdy.sharding_constraint` ops, become tile actions, followed by
    propagation; the state is saved like any tactic pass's, so later tactics
    (`--partir-manual-partition`, `--partir-schedule`) continue from it and
    cannot undo it.

    The mesh comes from the `sdy.mesh` the shardings name, or from the
    module's `partir.mesh`, or, for `mhlo.sharding` strings alone, is
    synthesized from the tile assignments: the coarsest row-major mesh on
    which every sharding is a list of axes, an axis named after the first
    dimension it splits (`d0`, `d1`, ... ; `r0` ... for axes only used for
    copies). A `partir.mesh` that does not match the shardings is an error.

    Closed dimensions (`{}`, and every `mhlo.sharding`) mean the user fixed
    the sharding: mesh axes the value does not use become `atomic` on it
    (unless `atomic=false`). `replicated={...}` axes are atomic. Unsupported
    shardings (`{manual}`, `{maximal ...}`, tuples, sub-axes) give a warning
    and are ignored. With `ignore=true` the annotations are removed and
    nothing else happens.

    **Options:** `ignore` (default false), `atomic` (default true).
  }];
  let options = [
    Option<"ignore", "ignore", "bool", /*default=*/"false",
           "Drop the shardings instead of importing them">,
    Option<"atomic", "atomic", "bool", /*default=*/"true",
           "Make unused axes of fully specified shardings atomic">,
  ];
  let dependentDialects = ["::toast::partir::PartIRDialect",
                           "::toast::sdy::SdyDialect",
                           "::toast::stablehlo::StableHLODialect"];
}

#endif // TOAST_EXPORT_PASSES_TD
