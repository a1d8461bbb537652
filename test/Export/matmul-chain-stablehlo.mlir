// The matmul chain (x @ w1) @ w2 of PartIR Listing 2 on the mesh {B:4, M:2},
// partitioned by BP, BP+MP and BP+MP+Z3, lowered to device-local PartIR:HLO
// and exported to StableHLO (the SPMD programs of PartIR Listings 3-5 with
// XLA collectives). Devices are numbered row-major over (B, M): an
// all_reduce over M groups [[0, 1], [2, 3], ...], an all_gather over B
// groups [[0, 2, 4, 6], [1, 3, 5, 7]]. Every output re-parses and verifies.
//
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule=file=%S/../Partition/Inputs/bp.json --partir-lower-to-hlo --partir-export-stablehlo | toast-opt | FileCheck %s --check-prefix=BP
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule=file=%S/../Partition/Inputs/bp-mp.json --partir-lower-to-hlo --partir-export-stablehlo | toast-opt | FileCheck %s --check-prefix=MP
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule=file=%S/../Partition/Inputs/bp-mp-z3.json --partir-lower-to-hlo --partir-export-stablehlo | toast-opt | FileCheck %s --check-prefix=Z3
// RUN: toast-opt %S/../Partition/Inputs/matmul-chain.mlir --partir-schedule=file=%S/../Partition/Inputs/bp-mp-z3.json --partir-lower-to-hlo --partir-export-stablehlo | FileCheck %s --check-prefix=NOPARTIR

// Listing 3 (BP): no communication.
// BP: module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
// BP-LABEL: func.func @main
// BP-SAME: (%[[X:.*]]: tensor<64x8xf32> {partir.name = "x", toast.global_sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"},
// BP-SAME: %[[W1:.*]]: tensor<8x16xf32> {partir.name = "w1"}, %[[W2:.*]]: tensor<16x8xf32> {partir.name = "w2"})
// BP-SAME: -> (tensor<64x8xf32> {toast.global_sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"})
// BP-NEXT: %[[A:.*]] = stablehlo.dot_general %[[X]], %[[W1]], contracting_dims = [1] x [0] : (tensor<64x8xf32>, tensor<8x16xf32>) -> tensor<64x16xf32>
// BP-NEXT: %[[B:.*]] = stablehlo.dot_general %[[A]], %[[W2]], contracting_dims = [1] x [0] : (tensor<64x16xf32>, tensor<16x8xf32>) -> tensor<64x8xf32>
// BP-NEXT: return %[[B]] : tensor<64x8xf32>

// Listing 4 (BP+MP): one all_reduce over M.
// MP: module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
// MP-LABEL: func.func @main
// MP-SAME: (%[[X:.*]]: tensor<64x8xf32> {{.*}}, %[[W1:.*]]: tensor<8x8xf32> {partir.name = "w1", toast.global_sharding = "{devices=[1,2,4]<=[4,2]T(1,0) last_tile_dim_replicate}"},
// MP-SAME: %[[W2:.*]]: tensor<8x8xf32> {partir.name = "w2", toast.global_sharding = "{devices=[2,1,4]<=[4,2]T(1,0) last_tile_dim_replicate}"})
// MP-NEXT: %[[A:.*]] = stablehlo.dot_general %[[X]], %[[W1]], contracting_dims = [1] x [0] : (tensor<64x8xf32>, tensor<8x8xf32>) -> tensor<64x8xf32>
// MP-NEXT: %[[B:.*]] = stablehlo.dot_general %[[A]], %[[W2]], contracting_dims = [1] x [0] : (tensor<64x8xf32>, tensor<8x8xf32>) -> tensor<64x8xf32>
// MP-NEXT: %[[R:.*]] = "stablehlo.all_reduce"(%[[B]])
// MP-SAME{LITERAL}: <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
// MP-NEXT: ^bb0(%[[L:.*]]: tensor<f32>, %[[RR:.*]]: tensor<f32>):
// MP-NEXT: %[[S:.*]] = stablehlo.add %[[L]], %[[RR]] : tensor<f32>
// MP-NEXT: stablehlo.return %[[S]] : tensor<f32>
// MP-NEXT: }) : (tensor<64x8xf32>) -> tensor<64x8xf32>
// MP-NEXT: return %[[R]] : tensor<64x8xf32>

// Listing 5 (BP+MP+Z3): two all_gathers over B, one all_reduce over M, with
// the device-local shapes of the paper.
// Z3: module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
// Z3-LABEL: func.func @main
// Z3-SAME: (%[[X:.*]]: tensor<64x8xf32> {{.*}}, %[[W1:.*]]: tensor<2x8xf32> {partir.name = "w1", toast.global_sharding = "{devices=[4,2]<=[8]}"},
// Z3-SAME: %[[W2:.*]]: tensor<8x2xf32> {partir.name = "w2", toast.global_sharding = "{devices=[2,4]<=[4,2]T(1,0)}"})
// Z3-NEXT: %[[G1:.*]] = "stablehlo.all_gather"(%[[W1]])
// Z3-SAME{LITERAL}: <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<2x8xf32>) -> tensor<8x8xf32>
// Z3-NEXT: %[[G2:.*]] = "stablehlo.all_gather"(%[[W2]])
// Z3-SAME{LITERAL}: <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 2, 4, 6], [1, 3, 5, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<8x2xf32>) -> tensor<8x8xf32>
// Z3-NEXT: %[[A:.*]] = stablehlo.dot_general %[[X]], %[[G1]], contracting_dims = [1] x [0] : (tensor<64x8xf32>, tensor<8x8xf32>) -> tensor<64x8xf32>
// Z3-NEXT: %[[B:.*]] = stablehlo.dot_general %[[A]], %[[G2]], contracting_dims = [1] x [0] : (tensor<64x8xf32>, tensor<8x8xf32>) -> tensor<64x8xf32>
// Z3-NEXT: %[[R:.*]] = "stablehlo.all_reduce"(%[[B]])
// Z3-SAME{LITERAL}: <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, use_global_device_ids}> ({
// Z3: }) : (tensor<64x8xf32>) -> tensor<64x8xf32>
// Z3-NEXT: return %[[R]] : tensor<64x8xf32>

// No PartIR op or mesh attribute is left.
// NOPARTIR-NOT: partir_hlo.
// NOPARTIR-NOT: partir.mesh
// NOPARTIR-NOT: partir.loop
