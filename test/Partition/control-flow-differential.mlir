// Conditionals and nested loops partitioned, lowered to device-local code
// and run SPMD against the original.
//
// case and if, batch-tiled: every branch works on the device's rows, the
// results are device-local, and no collective is needed.
// RUN: toast-opt %S/Inputs/branches.mlir --partir-manual-partition="axis=B inputs=arg2=0 mesh=B=4" --partir-materialize-core --partir-lower-to-hlo -o %t.br.mlir
// RUN: FileCheck %s --check-prefix=BR < %t.br.mlir
// RUN: toast-run --compare %S/Inputs/branches.mlir %t.br.mlir | FileCheck %s
// BR: func.func public @main({{.*}}%arg2: tensor<4x8xf32> {partir.sharding = {{\[}}["B"], []]}
// BR-NOT: partir_hlo.
// BR: "stablehlo.case"
// BR: stablehlo.return %arg2 : tensor<4x8xf32>
// BR-NOT: partir_hlo.
// BR: return {{.*}} : tensor<4x4xf32>
//
// Nested loops under batch and a column tiling of the weight: both loops
// carry [4, 4] shards, and the inner body gathers the columns the matmul
// contracts over, once per inner iteration.
// RUN: toast-opt %S/Inputs/nested-loops.mlir --partir-manual-partition="axis=B inputs=arg0=0 mesh=B=4,M=2" --partir-manual-partition="axis=M inputs=arg1=1" --partir-materialize-core --partir-lower-to-hlo -o %t.nl.mlir
// RUN: FileCheck %s --check-prefix=NL < %t.nl.mlir
// RUN: toast-run --compare %S/Inputs/nested-loops.mlir %t.nl.mlir | FileCheck %s
// NL: stablehlo.while({{.*}}) : tensor<i32>, tensor<4x4xf32>
// NL-NOT: partir_hlo.
// NL: stablehlo.while({{.*}}) : tensor<i32>, tensor<4x4xf32>
// NL-NOT: partir_hlo.
// NL: partir_hlo.all_gather [{}, {"M"}] {{.*}} : tensor<4x4xf32> -> tensor<4x8xf32>
// NL-NOT: partir_hlo.
// NL: return
//
// CHECK: results agree
