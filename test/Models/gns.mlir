// Graph network simulator training step (tiny).
// RUN: toast-models gns --nodes 6 --edges 10 --mp-steps 2 --latent 8 --hidden 12 --mlp-layers 1 --quiet | toast-opt | toast-opt | FileCheck %s
// RUN: toast-models gns --nodes 6 --edges 10 --mp-steps 2 --latent 8 --hidden 12 --mlp-layers 1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: not toast-models gns --inference 2>&1 | FileCheck %s --check-prefix=INF

// CHECK-LABEL: module @gns_train_step
// CHECK: partir.name = "params.encoder.node.layer_0.w"
// CHECK-SAME: tensor<12x8xf32> {{{.*}}partir.name = "params.processor.step_1.edge_mlp.layer_1.w"}
// CHECK-SAME: tensor<32x12xf32> {{{.*}}partir.name = "params.processor.step_1.node_mlp.layer_0.w"}
// CHECK-SAME: partir.name = "params.processor.step_1.global_mlp.norm.offset"
// CHECK-SAME: tensor<12x3xf32> {{{.*}}partir.name = "params.decoder.layer_1.w"}
// CHECK-SAME: tensor<10xi32> {{{.*}}partir.name = "batch.senders"}
// CHECK-SAME: tensor<10xi32> {{{.*}}partir.name = "batch.receivers"}
// Node latents gathered per edge, edge messages scatter-added per node.
// CHECK: "stablehlo.gather"{{.*}} : (tensor<6x8xf32>, tensor<10x1xi32>) -> tensor<10x8xf32>
// CHECK: stablehlo.concatenate {{.*}} -> tensor<10x32xf32>
// CHECK: "stablehlo.scatter"
// CHECK: stablehlo.add
// CHECK: }) : (tensor<6x8xf32>, tensor<10x1xi32>, tensor<10x8xf32>) -> tensor<6x8xf32>
// CHECK: return

// STATS: gns: {{[0-9]+}} parameters ({{.*}}) in 58 tensors
// INF: gns has no --inference variant
