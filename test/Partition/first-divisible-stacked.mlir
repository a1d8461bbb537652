// `first_divisible` skips a scan's stacked layer dimension: the loop body
// only indexes it (dynamic_slice at the counter), so tiling it would gather
// the whole stack in every iteration. ZeRO-3 on the scanned MLP's stacked
// weights therefore tiles their first per-layer dimension.
//
// RUN: toast-opt %S/Inputs/scan-mlp.mlir --partir-manual-partition="axis=B inputs=re:params.*=first_divisible mesh=B=4" | FileCheck %s --check-prefix=TILE
// TILE: jax.arg_info = "params.layers.w1", partir.tiling = ["B:1"]
// TILE: jax.arg_info = "params.layers.w2", partir.tiling = ["B:1"]
//
// After batch parallelism, that is FSDP over the scan: one layer gathered
// per iteration, inside the body.
// RUN: toast-opt %S/Inputs/scan-mlp.mlir --partir-manual-partition="axis=B inputs=batch.x=0 mesh=B=4" --partir-manual-partition="axis=B inputs=re:params.*=first_divisible" --partir-materialize-core --partir-lower-to-hlo -o %t.z3.mlir
// RUN: FileCheck %s --check-prefix=Z3 < %t.z3.mlir
// RUN: toast-run --compare %S/Inputs/scan-mlp.mlir %t.z3.mlir | FileCheck %s
// Z3: stablehlo.while({{.*}}) : tensor<i32>, tensor<8x16xf32>, tensor<4x4x64xf32>, tensor<4x16x16xf32>
// Z3: } do {
// Z3: partir_hlo.all_gather [{"B"}, {}] {{.*}} : tensor<4x64xf32> -> tensor<16x64xf32>
// Z3: partir_hlo.all_gather [{"B"}, {}] {{.*}} : tensor<16x16xf32> -> tensor<64x16xf32>
// CHECK: results agree
