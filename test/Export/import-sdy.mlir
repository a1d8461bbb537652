// --partir-import-shardings on a Shardy-annotated program (JAX with
// Shardy): the sdy.mesh becomes the partir.mesh, sdy.sharding tiles the
// arguments, sdy.sharding_constraint tiles the constrained value and goes
// away. Closed dimensions keep the value whole on the axes it does not use
// (atomic); open ones (`?`) leave room for propagation and later tactics.
// RUN: toast-opt %s --partir-import-shardings | FileCheck %s
// RUN: toast-opt %s --partir-import-shardings --partir-manual-partition="name=Z3 axis=data inputs=arg2=1" --partir-materialize-core --partir-lower-to-hlo --partir-export-stablehlo | toast-opt | FileCheck %s --check-prefix=HLO

// CHECK: module attributes {partir.mesh = #partir.mesh<["data"=4, "model"=2]>} {
// CHECK-NEXT: sdy.mesh @mesh = <["data"=4, "model"=2]>
// CHECK-NEXT: func.func @main(%[[X:.*]]: tensor<256x8xf32> {partir.atomic = ["model"], partir.tiling = ["data:0"]},
// CHECK-SAME: %[[W1:.*]]: tensor<8x16xf32> {partir.tiling = ["model:1"]}, %[[W2:.*]]: tensor<16x8xf32>) -> tensor<256x8xf32> {
// CHECK-NOT: sdy.
// CHECK-NEXT: %[[A:.*]] = stablehlo.dot_general %[[X]], %[[W1]], contracting_dims = [1] x [0] {partir.loops = ["data:0", "model:1"], partir.result_tilings = {{\[\["data:0", "model:1"\]\]}}}
// CHECK-NEXT: %[[B:.*]] = stablehlo.dot_general %[[A]], %[[W2]], contracting_dims = [1] x [0] {partir.loops = ["data:0", "model:2"]}
// CHECK-NEXT: return %[[B]]

// Megatron-style MP from the annotations, then a ZeRO-3 tactic on w2
// continuing from the imported state.
// HLO: module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
// HLO-NOT: sdy.mesh
// HLO-NEXT: func.func @main(%[[X:.*]]: tensor<64x8xf32> {toast.global_sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"},
// HLO-SAME: %[[W1:.*]]: tensor<8x8xf32> {toast.global_sharding = "{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}"},
// HLO-SAME: %[[W2:.*]]: tensor<8x2xf32> {toast.global_sharding = "{devices=[2,4]<=[4,2]T(1,0)}"})
// HLO-NEXT: %[[G:.*]] = "stablehlo.all_gather"(%[[W2]])
// HLO-SAME{LITERAL}: <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>, use_global_device_ids}>
// HLO-NEXT: %[[A:.*]] = stablehlo.dot_general %[[X]], %[[W1]]
// HLO-NEXT: %[[B:.*]] = stablehlo.dot_general %[[A]], %[[G]]
// HLO-NEXT: "stablehlo.all_reduce"(%[[B]])
// HLO-SAME{LITERAL}: replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>
module {
  sdy.mesh @mesh = <["data"=4, "model"=2]>
  func.func @main(%x: tensor<256x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
                  %w1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {"model", ?}]>},
                  %w2: tensor<16x8xf32>) -> tensor<256x8xf32> {
    %x1 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<256x8xf32>, tensor<8x16xf32>) -> tensor<256x16xf32>
    %c = sdy.sharding_constraint %x1 <@mesh, [{"data"}, {"model"}]> : tensor<256x16xf32>
    %x2 = stablehlo.dot_general %c, %w2, contracting_dims = [1] x [0] : (tensor<256x16xf32>, tensor<16x8xf32>) -> tensor<256x8xf32>
    return %x2 : tensor<256x8xf32>
  }
}
