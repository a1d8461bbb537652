// A shard_map region (docs/nda.md, "shard_map regions"): each operand and
// its body argument, and each body result and the region's result, are one
// name per dimension, so the body's names get the colors of the values
// outside they come from and go to. The body's values are local on the
// manual axes (its batch dim has 4 rows of the global 8): the color is the
// same, and the partitioner never loops over a manual axis inside. Neither
// the region nor its sdy.return is opaque.
// RUN: toast-opt %s --toast-test-nda-colors | FileCheck %s
// RUN: toast-opt %s --toast-nda=json=- -o /dev/null | FileCheck %s --check-prefix=JSON

// CHECK-LABEL: func.func public @main
// CHECK-SAME: %arg0: {{.*}}nda.colors = "[[B:c[0-9]+]],[[K:c[0-9]+]]"}, %arg1: {{.*}}nda.colors = "[[K]],[[H:c[0-9]+]]"}, %arg2: {{.*}}nda.colors = "[[H]],[[O:c[0-9]+]]"}
// CHECK: stablehlo.dot_general {{.*}}nda.colors = ["[[B]],[[H]]"]
// CHECK: stablehlo.tanh {{.*}}nda.colors = ["[[B]],[[H]]"]
// CHECK: nda.colors = ["[[B]],[[H]]"]{{.*}}nda.region_colors = {{\[}}["[[B]],[[K]]", "[[K]],[[H]]"]]
// CHECK: stablehlo.dot_general {{.*}}nda.colors = ["[[B]],[[O]]"]
// JSON: "num_colors": 4,
// JSON: "num_opaque_ops": 0,
module @jit_mlp attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["B"=2, "M"=2]>
  func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<32x8xf32>) -> (tensor<8x8xf32> {jax.result_info = ""}) {
    %0 = sdy.manual_computation(%arg0, %arg1) in_shardings=[<@mesh, [{"B", ?}, {?}]>, <@mesh, [{?}, {?}]>] out_shardings=[<@mesh, [{"B", ?}, {?}]>] manual_axes={"B"} (%arg3: tensor<4x16xf32>, %arg4: tensor<16x32xf32>) {
      %2 = stablehlo.dot_general %arg3, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16xf32>, tensor<16x32xf32>) -> tensor<4x32xf32>
      %3 = stablehlo.tanh %2 : tensor<4x32xf32>
      sdy.return %3 : tensor<4x32xf32>
    } : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = stablehlo.dot_general %0, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x8xf32>) -> tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }
}
