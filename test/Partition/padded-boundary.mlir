// The function boundary makes every level of a padded tiling device-local
// (LocalizeBoundary): a table of 31 rows tiled over the vocabulary (padded)
// and the width (divisible), in either mesh order, is passed and returned
// as each device's chunk, with the global shape recorded, and the program
// computes what the original computes after lowering (SPMD on 8 devices)
// and after export.
//
// Vocabulary on M (8 rows per device, one of padding), width on B:
// RUN: toast-opt %S/Inputs/padded-table.mlir --partir-manual-partition="name=W axis=B inputs=tab=1 mesh=B=2,M=4" --partir-manual-partition="name=V axis=M inputs=tab=0 mesh=B=2,M=4" --partir-materialize-core --partir-lower-to-hlo -o %t.m.mlir
// RUN: FileCheck %s --check-prefix=INNER < %t.m.mlir
// RUN: toast-run --compare %S/Inputs/padded-table.mlir %t.m.mlir | FileCheck %s
// RUN: toast-opt %t.m.mlir --partir-export-stablehlo -o %t.m.exp.mlir
// RUN: toast-run --compare %S/Inputs/padded-table.mlir %t.m.exp.mlir | FileCheck %s
//
// Vocabulary on B (16 rows per device, one of padding), width on M:
// RUN: toast-opt %S/Inputs/padded-table.mlir --partir-manual-partition="name=V axis=B inputs=tab=0 mesh=B=2,M=4" --partir-manual-partition="name=W axis=M inputs=tab=1 mesh=B=2,M=4" --partir-materialize-core --partir-lower-to-hlo -o %t.b.mlir
// RUN: FileCheck %s --check-prefix=OUTER < %t.b.mlir
// RUN: toast-run --compare %S/Inputs/padded-table.mlir %t.b.mlir | FileCheck %s
// RUN: toast-opt %t.b.mlir --partir-export-stablehlo -o %t.b.exp.mlir
// RUN: toast-run --compare %S/Inputs/padded-table.mlir %t.b.exp.mlir | FileCheck %s
//
// A reduced-size twin of the vocabulary-sharded t2b strategy of
// docs/performance.md (bf16, vocabulary 31 on M, the embedding table's
// width on B, the sequence on M): the table and its two moments are stored
// as 16 x 4 chunks. bf16 compares to bf16 rounding (a divisible vocabulary
// of 32 needs the same tolerance).
// RUN: toast-models t2b --dtype bf16 --layers 1 --batch 2 --seq 4 --d-model 8 --heads 2 --key-size 4 --vocab 31 --hidden 16 --quiet -o %t.t2b.mlir
// RUN: toast-opt %t.t2b.mlir --partir-manual-partition="name=W axis=B inputs=re:.*embedder.embedding=1 mesh=B=2,M=2" --partir-manual-partition="name=V axis=M inputs=re:.*embedder.embedding=0 mesh=B=2,M=2" --partir-manual-partition="name=S axis=M inputs=re:batch.tokens=1 mesh=B=2,M=2" --partir-materialize-core --partir-lower-to-hlo -o %t.t2b.hlo.mlir
// RUN: FileCheck %s --check-prefix=TABLE < %t.t2b.hlo.mlir
// RUN: toast-run --compare %t.t2b.mlir %t.t2b.hlo.mlir --seed 3 --rtol 1e-2 | FileCheck %s
// RUN: toast-opt %t.t2b.hlo.mlir --partir-export-stablehlo -o %t.t2b.exp.mlir
// RUN: toast-run --compare %t.t2b.mlir %t.t2b.exp.mlir --seed 3 --rtol 1e-2 | FileCheck %s
//
// A dynamic dimension the tiling leaves whole is recorded as
// ShapedType::kDynamic, MLIR's encoding of `?` in an i64 size array
// (docs/dialects.md):
// RUN: toast-opt %S/Inputs/dynamic-rows.mlir --partir-manual-partition="name=X axis=B inputs=arg0=1 mesh=B=4" --partir-materialize-core --partir-lower-to-hlo | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: %arg0: tensor<?x2xf32> {partir.sharding = {{\[}}[], ["B"]], toast.global_shape = array<i64: -9223372036854775808, 6>}

// CHECK: results agree

// The table is stored as each device's 8 x 4 chunk, and the updated table
// returned so; the lookup gathers the padded level only.
// INNER: func.func public @main(%arg0: tensor<8x4xf32> {partir.name = "tab", partir.sharding = {{\[}}["M"], ["B"]], toast.global_shape = array<i64: 31, 8>}
// INNER-SAME: -> (tensor<6x4xf32> {partir.sharding = {{\[}}[], ["B"]]}, tensor<6x8xf32> {partir.sharding = {{\[}}[], ["M"]], toast.global_shape = array<i64: 6, 31>}, tensor<8x4xf32> {partir.sharding = {{\[}}["M"], ["B"]], toast.global_shape = array<i64: 31, 8>})
// INNER-NEXT: partir_hlo.all_gather [{"M"}, {}] %arg0 : tensor<8x4xf32> -> tensor<31x4xf32>
// INNER-NOT: partir_hlo.all_slice
// INNER: return

// OUTER: func.func public @main(%arg0: tensor<16x2xf32> {partir.name = "tab", partir.sharding = {{\[}}["B"], ["M"]], toast.global_shape = array<i64: 31, 8>}
// OUTER-SAME: tensor<16x2xf32> {partir.sharding = {{\[}}["B"], ["M"]], toast.global_shape = array<i64: 31, 8>})

// TABLE: %arg0: tensor<16x4xbf16> {jax.arg_info = "params.embedder.embedding", partir.name = "params.embedder.embedding", partir.sharding = {{\[}}["M"], ["B"]], toast.global_shape = array<i64: 31, 8>}
// TABLE-SAME: tensor<16x4xbf16> {jax.arg_info = "opt_state.mu.embedder.embedding", partir.name = "opt_state.mu.embedder.embedding", partir.sharding = {{\[}}["M"], ["B"]], toast.global_shape = array<i64: 31, 8>}
// TABLE-SAME: tensor<16x4xbf16> {jax.arg_info = "opt_state.nu.embedder.embedding", partir.name = "opt_state.nu.embedder.embedding", partir.sharding = {{\[}}["M"], ["B"]], toast.global_shape = array<i64: 31, 8>}
// TABLE-SAME: -> (tensor<f32> {jax.result_info = "loss"}, tensor<16x4xbf16> {jax.result_info = "params.embedder.embedding", partir.sharding = {{\[}}["M"], ["B"]], toast.global_shape = array<i64: 31, 8>}
