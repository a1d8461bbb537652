// sdy.sharding_group (JAX's shard_alike): the values of one group get one
// sharding. The import gives every member the sharding of its most tiled
// member (after the user shardings are applied and propagated), propagates
// it, and reports a member that cannot take it as a conflict, located at
// its sharding_group op.
// RUN: split-file %s %t
// RUN: toast-opt %t/group.mlir --partir-import-shardings | FileCheck %s --check-prefix=GROUP
// RUN: toast-opt %t/group.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo -o %t/group-hlo.mlir
// RUN: toast-run --compare %t/group.mlir %t/group-hlo.mlir | FileCheck %s --check-prefix=AGREE
// RUN: not toast-opt %t/conflict.mlir --partir-import-shardings 2>&1 | FileCheck %s --check-prefix=CONFLICT
// RUN: not toast-opt %t/order.mlir --partir-import-shardings 2>&1 | FileCheck %s --check-prefix=ORDER

// AGREE: results agree

// %arg1 shares nothing with %arg0 but the group: it takes its sharding, and
// the exponential reading it loops like it.
// GROUP: func.func @main(%arg0: tensor<8x4xf32> {partir.tiling = ["x:0"]}, %arg1: tensor<8x4xf32> {partir.tiling = ["x:0"]})
// GROUP: stablehlo.exponential %arg1 {partir.loops = ["x:0"]}
// GROUP-NOT: sdy.sharding_group

// CONFLICT: conflict.mlir:3:{{[0-9]+}}: error: tile: value is atomic on axis "x"
// CONFLICT: conflict.mlir:4:5: error: sharding_group 3: this value cannot take the group's sharding

// ORDER: order.mlir:6:5: error: sharding_group 0: conflicting shardings: this value is [{"y", "x"}, {}] but another member is [{"x", "y"}, {}]

//--- group.mlir
module @jit_f attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {?}]>}, %arg1: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
    sdy.sharding_group %arg0 group_id=0 : tensor<8x4xf32>
    sdy.sharding_group %arg1 group_id=0 : tensor<8x4xf32>
    %0 = stablehlo.tanh %arg0 : tensor<8x4xf32>
    %1 = stablehlo.exponential %arg1 : tensor<8x4xf32>
    return %0, %1 : tensor<8x4xf32>, tensor<8x4xf32>
  }
}

//--- conflict.mlir
module @jit_f attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> tensor<8x4xf32> {
    sdy.sharding_group %arg1 group_id=3 : tensor<8x4xf32>
    sdy.sharding_group %arg0 group_id=3 : tensor<8x4xf32>
    %0 = stablehlo.add %arg0, %arg1 : tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}

//--- order.mlir
module @jit_f attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}, %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y", ?}, {?}]>}) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
    %0 = stablehlo.tanh %arg0 : tensor<8x4xf32>
    sdy.sharding_group %arg0 group_id=0 : tensor<8x4xf32>
    sdy.sharding_group %arg1 group_id=0 : tensor<8x4xf32>
    return %0, %arg1 : tensor<8x4xf32>, tensor<8x4xf32>
  }
}
