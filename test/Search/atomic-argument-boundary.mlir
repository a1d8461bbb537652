// Arguments kept whole on an axis (an imported closed sharding: `[{}, {}]`
// is atomic on every axis, `[{"B"}, {}]` on M; a schedule's "replicated")
// keep the caller's layout at the lowered boundary when the search has
// their readers slice them: materializeCore marks them
// `partir.keep_whole`, lowering passes them whole on those axes and slices
// inside the function (no communication), and the search prices that
// boundary (TOAST_CHECK_ANALYTIC: the analytic price equals the reference
// path's) and emits it (emit=planned). Before, @repl's %x came out as
// `partir.sharding = [["B"], []]` and @mixed's as `[["B"], ["M"]]`.
//
// RUN: split-file %s %t
// RUN: env TOAST_CHECK_ANALYTIC=1e-9 toast-opt %t/repl.mlir --partir-import-shardings --toast-auto-partition="algorithm=exhaustive device=a100" -o %t/repl-core.mlir 2>&1 | FileCheck %s --check-prefix=PRICE
// RUN: FileCheck %s --check-prefix=REPL-CORE --input-file=%t/repl-core.mlir
// RUN: toast-opt %t/repl-core.mlir --partir-lower-to-hlo -o %t/repl-hlo.mlir
// RUN: FileCheck %s --check-prefix=REPL --input-file=%t/repl-hlo.mlir
// RUN: toast-run --compare %t/repl.mlir %t/repl-hlo.mlir --seed 1 | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/repl.mlir --partir-import-shardings --toast-auto-partition="algorithm=exhaustive device=a100 emit=planned" -o %t/repl-planned.mlir 2>&1 | FileCheck %s --check-prefix=PLANNED
// RUN: FileCheck %s --check-prefix=REPL --input-file=%t/repl-planned.mlir
// RUN: toast-run --compare %t/repl.mlir %t/repl-planned.mlir --seed 1 | FileCheck %s --check-prefix=AGREE
//
// RUN: env TOAST_CHECK_ANALYTIC=1e-9 toast-opt %t/mixed.mlir --partir-import-shardings --toast-auto-partition="algorithm=exhaustive device=a100" --partir-lower-to-hlo -o %t/mixed-hlo.mlir 2>&1 | FileCheck %s --check-prefix=PRICE
// RUN: FileCheck %s --check-prefix=MIXED --input-file=%t/mixed-hlo.mlir
// RUN: toast-run --compare %t/mixed.mlir %t/mixed-hlo.mlir --seed 1 | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/mixed.mlir --partir-import-shardings --toast-auto-partition="algorithm=exhaustive device=a100 emit=planned" -o %t/mixed-planned.mlir 2>&1 | FileCheck %s --check-prefix=PLANNED
// RUN: FileCheck %s --check-prefix=MIXED --input-file=%t/mixed-planned.mlir
// RUN: toast-run --compare %t/mixed.mlir %t/mixed-planned.mlir --seed 1 | FileCheck %s --check-prefix=AGREE
//
// RUN: env TOAST_CHECK_ANALYTIC=1e-9 toast-opt %t/sched.mlir --partir-schedule="file=%t/sched.json" --partir-lower-to-hlo -o %t/sched-hlo.mlir 2>&1 | FileCheck %s --check-prefix=PRICE
// RUN: FileCheck %s --check-prefix=SCHED --input-file=%t/sched-hlo.mlir
// RUN: toast-run --compare %t/sched.mlir %t/sched-hlo.mlir --seed 1 | FileCheck %s --check-prefix=AGREE

// A loop's init: the scan's batch, atomic on B, carried sliced on B: the
// loop model's program of the entry keeps it whole too (before that, 7 of
// its 10 states priced 1-1.5 KB low on peak by TOAST_CHECK_ANALYTIC).
// RUN: env TOAST_CHECK_ANALYTIC=1e-9 toast-opt %S/../Partition/Inputs/scan-mlp.mlir --partir-atomic="value=batch.x axis=B mesh=B=4" --toast-auto-partition="algorithm=exhaustive device=a100" --partir-lower-to-hlo -o %t/scan-hlo.mlir 2>&1 | FileCheck %s --check-prefix=PRICE
// RUN: FileCheck %s --check-prefix=SCAN --input-file=%t/scan-hlo.mlir
// RUN: toast-run --compare %S/../Partition/Inputs/scan-mlp.mlir %t/scan-hlo.mlir | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %S/../Partition/Inputs/scan-mlp.mlir --partir-atomic="value=batch.x axis=B mesh=B=4" --toast-auto-partition="algorithm=exhaustive device=a100 emit=planned" -o %t/scan-planned.mlir 2>&1 | FileCheck %s --check-prefix=PLANNED
// RUN: FileCheck %s --check-prefix=SCAN --input-file=%t/scan-planned.mlir
// RUN: toast-run --compare %S/../Partition/Inputs/scan-mlp.mlir %t/scan-planned.mlir | FileCheck %s --check-prefix=AGREE
// SCAN: func.func public @main(%arg0: tensor<32x16xf32> {jax.arg_info = "batch.x"}
// SCAN: %[[X:.*]] = partir_hlo.all_slice [{"B"}, {}] %arg0 : tensor<32x16xf32> -> tensor<8x16xf32>
// SCAN-NEXT: stablehlo.while({{.*}}%iterArg_2 = %[[X]]

// PRICE: exhaustive chose
// PRICE-NOT: check-analytic
// PLANNED-NOT: remark
// AGREE: results agree

// The dot loops over x's rows on B: x is passed whole, sliced inside.
// REPL-CORE: func.func public @main(%arg0: tensor<64x32xf32> {partir.keep_whole = ["B", "M"]}
// REPL: func.func public @main(%arg0: tensor<64x32xf32>, %arg1: tensor<32x32xf32> {partir.sharding = {{\[}}[], ["M"]]})
// REPL-NEXT: partir_hlo.all_slice [{"B"}, {}] %arg0 : tensor<64x32xf32> -> tensor<16x32xf32>

// x is passed as imported (rows on B); the product reads it sliced on M.
// MIXED: func.func public @main(%arg0: tensor<16x256xf32> {partir.sharding = {{\[}}["B"], []]}, %arg1: tensor<16x128xf32> {partir.sharding = {{\[}}["B"], ["M"]]})
// MIXED-NEXT: partir_hlo.all_slice [{}, {"M"}] %arg0 : tensor<16x256xf32> -> tensor<16x128xf32>

// SCHED: func.func @main(%arg0: tensor<64x32xf32>, %arg1: tensor<32x32xf32> {partir.sharding = {{\[}}[], ["M"]]})
// SCHED-NEXT: partir_hlo.all_slice [{"B"}, {}] %arg0 : tensor<64x32xf32> -> tensor<16x32xf32>

//--- repl.mlir
module @repl attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["B"=4, "M"=2]>
  func.func public @main(%x: tensor<64x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>},
                         %w: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}) -> (tensor<64x64xf32>) {
    %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<64x32xf32>, tensor<32x64xf32>) -> tensor<64x64xf32>
    %1 = stablehlo.tanh %0 : tensor<64x64xf32>
    return %1 : tensor<64x64xf32>
  }
}

//--- mixed.mlir
module @mixed attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["B"=4, "M"=2]>
  func.func public @main(%x: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"B"}, {}]>},
                         %z: tensor<64x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {?}]>}) -> (tensor<64x256xf32>) {
    %0 = stablehlo.multiply %x, %z : tensor<64x256xf32>
    %1 = stablehlo.tanh %0 : tensor<64x256xf32>
    %2 = stablehlo.exponential %1 : tensor<64x256xf32>
    return %2 : tensor<64x256xf32>
  }
}

//--- sched.json
{"mesh": {"B": 4, "M": 2},
 "tactics": [{"name": "R", "kind": "manual", "axis": "B", "inputs": {"arg0": "replicated"}},
             {"name": "A", "kind": "automatic", "algorithm": "exhaustive"}]}

//--- sched.mlir
func.func @main(%x: tensor<64x32xf32>, %w: tensor<32x64xf32>) -> tensor<64x64xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<64x32xf32>, tensor<32x64xf32>) -> tensor<64x64xf32>
  %1 = stablehlo.tanh %0 : tensor<64x64xf32>
  return %1 : tensor<64x64xf32>
}
