// --partir-import-shardings on JAX/GSPMD-style mhlo.sharding strings: the
// shardings become the first tactic (tile and atomic actions, then
// propagation) and later passes continue from the saved state.
// RUN: toast-opt %s -split-input-file --partir-import-shardings | FileCheck %s
// RUN: toast-opt %s -split-input-file --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo --partir-export-stablehlo | toast-opt -split-input-file | FileCheck %s --check-prefix=HLO
// RUN: toast-opt %s -split-input-file --partir-import-shardings=ignore=true | FileCheck %s --check-prefix=IGNORE

// A JAX export: the data tiled 4 ways on dimension 0, the weight
// replicated. With no partir.mesh, the mesh is synthesized: one axis per
// tiled dimension, named after it.
// CHECK-LABEL: module @jit_main
// CHECK-SAME: partir.mesh = #partir.mesh<["d0"=4]>
// CHECK: func.func public @main(%{{.*}}: tensor<256x8xf32> {partir.tiling = ["d0:0"]}, %{{.*}}: tensor<8x16xf32> {partir.atomic = ["d0"]})
// CHECK-SAME: -> (tensor<256x16xf32> {jax.result_info = "result"})
// CHECK-NOT: mhlo.sharding
// CHECK: stablehlo.dot_general {{.*}} {partir.loops = ["d0:0"]}
// CHECK: stablehlo.tanh {{.*}}partir.loops = ["d0:0"]

// HLO-LABEL: module @jit_main attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32}
// HLO: func.func public @main(%[[X:.*]]: tensor<64x8xf32> {toast.global_sharding = "{devices=[4,1]<=[4]}"}, %[[W:.*]]: tensor<8x16xf32>)
// HLO-SAME: -> (tensor<64x16xf32> {jax.result_info = "result", toast.global_sharding = "{devices=[4,1]<=[4]}"})
// HLO-NEXT: %[[D:.*]] = stablehlo.dot_general %[[X]], %[[W]], contracting_dims = [1] x [0] : (tensor<64x8xf32>, tensor<8x16xf32>) -> tensor<64x16xf32>
// HLO-NEXT: %[[T:.*]] = stablehlo.tanh %[[D]] : tensor<64x16xf32>
// HLO-NEXT: return %[[T]] : tensor<64x16xf32>

// IGNORE-LABEL: module @jit_main attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32}
// IGNORE: func.func public @main(%{{.*}}: tensor<256x8xf32>, %{{.*}}: tensor<8x16xf32>) -> (tensor<256x16xf32> {jax.result_info = "result"})
// IGNORE-NOT: partir.tiling
// IGNORE-NOT: partir.atomic
// IGNORE-NOT: mhlo.sharding
module @jit_main attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<256x8xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"},
                         %arg1: tensor<8x16xf32> {mhlo.sharding = "{replicated}"})
      -> (tensor<256x16xf32> {jax.result_info = "result", mhlo.sharding = "{devices=[4,1]<=[4]}"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<256x8xf32>, tensor<8x16xf32>) -> tensor<256x16xf32>
    %1 = stablehlo.tanh %0 : tensor<256x16xf32>
    return %1 : tensor<256x16xf32>
  }
}

// -----

// Explicit device lists, and an existing partir.mesh: the tile assignment
// is matched against its axes. Device list 0,2,4,6,1,3,5,7 splits
// dimension 1 over M (the minor axis) and replicates over B.
// CHECK-LABEL: module @explicit
// CHECK-SAME: partir.mesh = #partir.mesh<["B"=4, "M"=2]>
// CHECK: func.func @main(%{{.*}}: tensor<256x8xf32> {partir.atomic = ["M"], partir.tiling = ["B:0"]},
// CHECK-SAME: %{{.*}}: tensor<8x16xf32> {partir.atomic = ["B"], partir.tiling = ["M:1"]})

// HLO-LABEL: module @explicit
// HLO: func.func @main(%{{.*}}: tensor<64x8xf32> {toast.global_sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"},
// HLO-SAME: %{{.*}}: tensor<8x8xf32> {toast.global_sharding = "{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}"})
// HLO: stablehlo.dot_general
// HLO-SAME: (tensor<64x8xf32>, tensor<8x8xf32>) -> tensor<64x8xf32>
module @explicit attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>} {
  func.func @main(%x: tensor<256x8xf32> {mhlo.sharding = "{devices=[4,1,2]0,1,2,3,4,5,6,7 last_tile_dim_replicate}"},
                  %w: tensor<8x16xf32> {mhlo.sharding = "{devices=[1,2,4]0,2,4,6,1,3,5,7 last_tile_dim_replicate}"})
      -> tensor<256x16xf32> {
    %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<256x8xf32>, tensor<8x16xf32>) -> tensor<256x16xf32>
    return %0 : tensor<256x16xf32>
  }
}

// -----

// Shardings that split the devices differently: the synthesized mesh is
// the common refinement (2 x 2 x 2), each axis named after the first
// dimension it splits. `{devices=[2,1]0,1}` is a two-device list.
// CHECK-LABEL: module @refine
// CHECK-SAME: partir.mesh = #partir.mesh<["d0"=2, "d0_1"=2, "d1"=2]>
// CHECK: func.func @main(%{{.*}}: tensor<16x8xf32> {partir.tiling = ["d0:0", "d0_1:0", "d1:1"]},
// CHECK-SAME: %{{.*}}: tensor<16x8xf32> {partir.atomic = ["d0_1", "d1"], partir.tiling = ["d0:1"]})
module @refine {
  func.func @main(%a: tensor<16x8xf32> {mhlo.sharding = "{devices=[4,2]<=[8]}"},
                  %b: tensor<16x8xf32> {mhlo.sharding = "{devices=[1,2,4]<=[8] last_tile_dim_replicate}"}) -> tensor<16x8xf32> {
    %0 = stablehlo.add %a, %b : tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

// -----

// With atomic=false only the tilings are imported.
// RUN: toast-opt %s -split-input-file --partir-import-shardings=atomic=false | FileCheck %s --check-prefix=NOATOMIC
// NOATOMIC-LABEL: module @two_devices
// NOATOMIC-SAME: partir.mesh = #partir.mesh<["d0"=2]>
// NOATOMIC: func.func @main(%{{.*}}: tensor<4x4xf32> {partir.tiling = ["d0:0"]}, %{{.*}}: tensor<4x4xf32>)
module @two_devices {
  func.func @main(%a: tensor<4x4xf32> {mhlo.sharding = "{devices=[2,1]0,1}"},
                  %b: tensor<4x4xf32> {mhlo.sharding = "{replicated}"}) -> tensor<4x4xf32> {
    %0 = stablehlo.add %a, %b : tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
}
