// The JAX shard_map pipeline export (Shardy form) parses, verifies and
// round-trips: printing is a fixed point, and the generic form re-parses to
// the same program.
// REQUIRES: corpus
// RUN: toast-opt %corpus/exports/jax_mlp_pipeline_shardmap_sdy.mlir -o %t.pretty.mlir
// RUN: toast-opt %t.pretty.mlir -o %t.again.mlir
// RUN: diff %t.pretty.mlir %t.again.mlir
// RUN: toast-opt %corpus/exports/jax_mlp_pipeline_shardmap_sdy.mlir --mlir-print-op-generic | toast-opt -o %t.generic.mlir
// RUN: diff %t.pretty.mlir %t.generic.mlir
// RUN: FileCheck %s --input-file=%t.pretty.mlir

// CHECK: sdy.mesh @mesh = <["stages"=2, "y"=4]>
// CHECK: %[[R:.*]] = sdy.manual_computation(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6, %arg7)
// CHECK-SAME: in_shardings=[<@mesh, [{}, {}]>, <@mesh, [{}]>, <@mesh, [{"stages"}, {}, {}]>
// CHECK-SAME: out_shardings=[<@mesh, []>] manual_axes={"stages", "y"}
// CHECK-SAME: (%arg8: tensor<784x128xf32>, %arg9: tensor<128xf32>, %arg10: tensor<2x128x128xf32>
// CHECK: "stablehlo.collective_permute"
// CHECK: sdy.return %{{.*}} : tensor<f32>
// CHECK-NEXT: } : (tensor<784x128xf32>, tensor<128xf32>, tensor<4x128x128xf32>, tensor<4x128xf32>, tensor<128x8xf32>, tensor<8xf32>, tensor<32x784xf32>, tensor<32x8xf32>) -> tensor<f32>
// CHECK-NEXT: return %[[R]] : tensor<f32>
