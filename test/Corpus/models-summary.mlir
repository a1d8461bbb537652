// Each corpus model parses, verifies and prints; spot-check the ops that
// real exports contain.
// REQUIRES: corpus
// RUN: toast-opt %corpus/models/pt_bert.mlir | FileCheck %s --check-prefix=BERT
// RUN: toast-opt %corpus/models/jax_resnet_50.mlir | FileCheck %s --check-prefix=RESNET

// BERT: module @jit_func attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32}
// BERT: func.func public @main(%arg0: tensor<30522x768xf32> {mhlo.sharding = "{replicated}"}
// BERT: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [1] x [0] : (tensor<7x768xf32>, tensor<768x768xf32>) -> tensor<7x768xf32>
// BERT: stablehlo.dot_general %{{.*}}, %{{.*}}, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<12x7x64xf32>, tensor<12x64x7xf32>) -> tensor<12x7x7xf32>

// RESNET: stablehlo.constant dense_resource<__elided__> : tensor<7x7x3x64xf32>
// RESNET: stablehlo.convolution(%{{.*}}, %{{.*}}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad =
// RESNET-SAME{LITERAL}: [[3, 3], [3, 3]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64}
// RESNET: "stablehlo.reduce_window"
