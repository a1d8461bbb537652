// torch-xla's MoE decode export for Tenstorrent (8-way GSPMD): every
// weight passes through a `tt.mark_argument` custom call, an identity that
// names it (`ttir.name`). Markers are pointwise and free, so the imported
// Megatron layout reaches the dense layers (per-device FLOPs drop 6x)
// instead of being gathered at 74 opaque calls; the MoE kernels
// (`tt.sparse_matmul`, `tt.all_to_all_*`) stay opaque and dominate the step.
// REQUIRES: corpus
// RUN: toast-opt %corpus/exports/torchxla_moe_decode_gspmd8.mlir --partir-simulate=device=a100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=GLOBAL
// RUN: toast-opt %corpus/exports/torchxla_moe_decode_gspmd8.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate=device=a100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=IMPORTED
// RUN: toast-opt %corpus/exports/torchxla_moe_decode_gspmd8.mlir --toast-auto-partition="mesh=B=4,M=2 device=a100 seed=1 rollouts=20 budget-s=0 list-actions=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NAMES
// RUN: env TOAST_CHECK_ANALYTIC=1e-6 toast-opt %corpus/exports/torchxla_moe_decode_gspmd8.mlir --partir-import-shardings --toast-auto-partition="device=a100 rollouts=25 seed=3 threads=1" --partir-lower-to-hlo --partir-optimize-collectives --partir-simulate=device=a100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=SEARCH --implicit-check-not=check-analytic --implicit-check-not=error

// Before markers were identities: 86.603 ms, and 87.943 ms with 37
// all_gathers and 1.541E+11 FLOPs per device once imported; 75.387 ms
// before even chunks of splat constants were priced as the splats the
// export writes (phlo::getSlicedSplat).
// GLOBAL: step time      : 77.946 ms
// IMPORTED: step time      : 75.340 ms
// IMPORTED: flops          : 2.467E+10
// IMPORTED: all_gather=21 all_reduce=3 reduce_scatter=0 all_to_all=7

// The imported strategy starts a search (before session 16: "cannot start
// from this state" at the v projection's head split, whose head factor the
// NDA blocked: docs/nda.md, "Split dimensions"); its states are priced as
// lowering and simulating them prices them, and the search's answer lowers.
// SEARCH: start cost 0.9666 (75.340 ms step
// SEARCH: mcts chose
// SEARCH: step time      : 75.340 ms

// Actions name the weights as torch-xla does.
// NAMES: (layers.{{[0-9]+}}.{{[a-z_.]+}}.weight[{{[0-9]}}]:
