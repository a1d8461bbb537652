// Each PartIR:HLO collective exported to StableHLO on the mesh {x:2, y:4}
// (device = 4 * x + y). The output re-parses and verifies.
// RUN: toast-opt %s -split-input-file --partir-export-stablehlo | toast-opt -split-input-file | FileCheck %s

// all_slice needs no communication: a dynamic_slice at this device's
// offsets, computed from partition_id (y = pid % 4, x = pid / 4).
// CHECK: module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32}
// CHECK-LABEL: func.func @all_slice(
// CHECK-SAME: %[[A:.*]]: tensor<16x8xf32>
// CHECK-NEXT: %[[PID:.*]] = stablehlo.partition_id : tensor<ui32>
// CHECK-NEXT: %[[P:.*]] = stablehlo.convert %[[PID]] : (tensor<ui32>) -> tensor<i64>
// CHECK-NEXT: %[[C4:.*]] = stablehlo.constant dense<4> : tensor<i64>
// CHECK-NEXT: %[[Y:.*]] = stablehlo.remainder %[[P]], %[[C4]] : tensor<i64>
// CHECK-NEXT: %[[X:.*]] = stablehlo.divide %[[P]], %[[C4]] : tensor<i64>
// CHECK-NEXT: %[[O0:.*]] = stablehlo.multiply %[[Y]], %[[C4]] : tensor<i64>
// CHECK-NEXT: %[[O1:.*]] = stablehlo.multiply %[[X]], %[[C4]] : tensor<i64>
// CHECK-NEXT: %[[S:.*]] = stablehlo.dynamic_slice %[[A]], %[[O0]], %[[O1]], sizes = [4, 4] : (tensor<16x8xf32>, tensor<i64>, tensor<i64>) -> tensor<4x4xf32>
// CHECK-NEXT: return %[[S]]
module attributes {partir.mesh = #partir.mesh<["x"=2, "y"=4]>} {
  func.func @all_slice(%a: tensor<16x8xf32>) -> tensor<4x4xf32> {
    %0 = partir_hlo.all_slice [{"y"}, {"x"}] %a : tensor<16x8xf32> -> tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
}

// -----

// Two axes on one dimension: chunk index y * 2 + x; a whole dimension
// starts at 0.
// CHECK-LABEL: func.func @all_slice_two_axes(
// CHECK-SAME: %[[A:.*]]: tensor<16x8xf32>
// CHECK: %[[P:.*]] = stablehlo.convert
// CHECK-NEXT: %[[C4:.*]] = stablehlo.constant dense<4> : tensor<i64>
// CHECK-NEXT: %[[Y:.*]] = stablehlo.remainder %[[P]], %[[C4]] : tensor<i64>
// CHECK-NEXT: %[[C2:.*]] = stablehlo.constant dense<2> : tensor<i64>
// CHECK-NEXT: %[[X:.*]] = stablehlo.divide %[[P]], %[[C4]] : tensor<i64>
// CHECK-NEXT: %[[C0:.*]] = stablehlo.constant dense<0> : tensor<i64>
// CHECK-NEXT: %[[I:.*]] = stablehlo.multiply %[[Y]], %[[C2]] : tensor<i64>
// CHECK-NEXT: %[[J:.*]] = stablehlo.add %[[I]], %[[X]] : tensor<i64>
// CHECK-NEXT: %[[O:.*]] = stablehlo.multiply %[[J]], %[[C2]] : tensor<i64>
// CHECK-NEXT: stablehlo.dynamic_slice %[[A]], %[[O]], %[[C0]], sizes = [2, 8] : (tensor<16x8xf32>, tensor<i64>, tensor<i64>) -> tensor<2x8xf32>
module attributes {partir.mesh = #partir.mesh<["x"=2, "y"=4]>} {
  func.func @all_slice_two_axes(%a: tensor<16x8xf32>) -> tensor<2x8xf32> {
    %0 = partir_hlo.all_slice [{"y", "x"}, {}] %a : tensor<16x8xf32> -> tensor<2x8xf32>
    return %0 : tensor<2x8xf32>
  }
}

// -----

// One all_gather per gathered dimension; two axes on one dimension form one
// group, ordered major axis (y) first.
// CHECK-LABEL: func.func @all_gather(
// CHECK-SAME: %[[A:.*]]: tensor<2x4xi32>
// CHECK-NEXT: %[[G0:.*]] = "stablehlo.all_gather"(%[[A]])
// CHECK-SAME{LITERAL}: <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 4, 1, 5, 2, 6, 3, 7]]> : tensor<1x8xi64>, use_global_device_ids}> : (tensor<2x4xi32>) -> tensor<16x4xi32>
// CHECK-NEXT: %[[G1:.*]] = "stablehlo.all_gather"(%[[G0]])
// CHECK-SAME{LITERAL}: <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> : (tensor<16x4xi32>) -> tensor<16x8xi32>
// CHECK-NEXT: %[[G2:.*]] = "stablehlo.all_gather"(%[[G1]])
// CHECK-SAME{LITERAL}: <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, use_global_device_ids}> : (tensor<16x8xi32>) -> tensor<64x8xi32>
// CHECK-NEXT: %[[G3:.*]] = "stablehlo.all_gather"(%[[G2]])
// CHECK-SAME{LITERAL}: <{all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> : (tensor<64x8xi32>) -> tensor<64x16xi32>
module attributes {partir.mesh = #partir.mesh<["x"=2, "y"=4]>} {
  func.func @all_gather(%a: tensor<2x4xi32>) -> tensor<64x16xi32> {
    %0 = partir_hlo.all_gather [{"y", "x"}, {}] %a : tensor<2x4xi32> -> tensor<16x4xi32>
    %1 = partir_hlo.all_gather [{}, {"x"}] %0 : tensor<16x4xi32> -> tensor<16x8xi32>
    %2 = partir_hlo.all_gather [{"y"}, {"x"}] %1 : tensor<16x8xi32> -> tensor<64x16xi32>
    return %2 : tensor<64x16xi32>
  }
}

// -----

// Reductions: sum/max/min/prod regions; on i1, sum and max are `or`,
// min and prod are `and`.
// CHECK-LABEL: func.func @all_reduce(
// CHECK: "stablehlo.all_reduce"(%{{.*}})
// CHECK-SAME{LITERAL}: replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>
// CHECK: stablehlo.add %{{.*}}, %{{.*}} : tensor<f32>
// CHECK: "stablehlo.all_reduce"(%{{.*}})
// CHECK-SAME{LITERAL}: replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>
// CHECK: stablehlo.maximum %{{.*}}, %{{.*}} : tensor<f32>
// CHECK: "stablehlo.all_reduce"(%{{.*}})
// CHECK: stablehlo.minimum %{{.*}}, %{{.*}} : tensor<f32>
// CHECK: "stablehlo.all_reduce"(%{{.*}})
// CHECK: stablehlo.multiply %{{.*}}, %{{.*}} : tensor<f32>
// CHECK: "stablehlo.all_reduce"(%{{.*}})
// CHECK: stablehlo.or %{{.*}}, %{{.*}} : tensor<i1>
// CHECK: "stablehlo.all_reduce"(%{{.*}})
// CHECK: stablehlo.and %{{.*}}, %{{.*}} : tensor<i1>
module attributes {partir.mesh = #partir.mesh<["x"=2, "y"=4]>} {
  func.func @all_reduce(%a: tensor<4xf32>, %p: tensor<4xi1>) -> (tensor<4xf32>, tensor<4xi1>) {
    %0 = partir_hlo.all_reduce "sum" ["x", "y"] %a : tensor<4xf32>
    %1 = partir_hlo.all_reduce "max" ["x"] %0 : tensor<4xf32>
    %2 = partir_hlo.all_reduce "min" ["y"] %1 : tensor<4xf32>
    %3 = partir_hlo.all_reduce "prod" ["y"] %2 : tensor<4xf32>
    %4 = partir_hlo.all_reduce "sum" ["y"] %p : tensor<4xi1>
    %5 = partir_hlo.all_reduce "min" ["y"] %4 : tensor<4xi1>
    return %3, %5 : tensor<4xf32>, tensor<4xi1>
  }
}

// -----

// reduce_scatter over two dimensions is a chain, one scatter per dimension.
// CHECK-LABEL: func.func @reduce_scatter(
// CHECK-SAME: %[[A:.*]]: tensor<16x8xf32>
// CHECK-NEXT: %[[R0:.*]] = "stablehlo.reduce_scatter"(%[[A]])
// CHECK-SAME{LITERAL}: <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>, scatter_dimension = 0 : i64, use_global_device_ids}> ({
// CHECK: stablehlo.maximum
// CHECK: }) : (tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[R1:.*]] = "stablehlo.reduce_scatter"(%[[R0]])
// CHECK-SAME{LITERAL}: <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, scatter_dimension = 1 : i64, use_global_device_ids}> ({
// CHECK: }) : (tensor<4x8xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %[[R1]]
module attributes {partir.mesh = #partir.mesh<["x"=2, "y"=4]>} {
  func.func @reduce_scatter(%a: tensor<16x8xf32>) -> tensor<4x4xf32> {
    %0 = partir_hlo.reduce_scatter "max" [{"y"}, {"x"}] %a : tensor<16x8xf32> -> tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
}

// -----

// all_to_all g -> s: split the sliced dimension, concatenate the gathered
// one, in group order.
// CHECK-LABEL: func.func @all_to_all(
// CHECK-SAME: %[[A:.*]]: tensor<16x32xf32>
// CHECK-NEXT: "stablehlo.all_to_all"(%[[A]])
// CHECK-SAME{LITERAL}: <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, split_count = 8 : i64, split_dimension = 1 : i64}> : (tensor<16x32xf32>) -> tensor<128x4xf32>
// CHECK: "stablehlo.all_to_all"
// CHECK-SAME{LITERAL}: <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, concat_dimension = 1 : i64, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, split_count = 2 : i64, split_dimension = 0 : i64}> : (tensor<128x4xf32>) -> tensor<64x8xf32>
module attributes {partir.mesh = #partir.mesh<["x"=2, "y"=4]>} {
  func.func @all_to_all(%a: tensor<16x32xf32>) -> tensor<64x8xf32> {
    %0 = partir_hlo.all_to_all 0 -> 1 ["x", "y"] %a : tensor<16x32xf32> -> tensor<128x4xf32>
    %1 = partir_hlo.all_to_all 1 -> 0 ["x"] %0 : tensor<128x4xf32> -> tensor<64x8xf32>
    return %1 : tensor<64x8xf32>
  }
}

// -----

// The boundary: partir.sharding becomes the informational HloSharding of
// the global value; global-shape annotations, the sdy mesh, tags and the
// meshes go; channel handles continue after those already in the module.
// CHECK: module attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
// CHECK-NOT: sdy.mesh
// CHECK-LABEL: func.func @boundary(
// CHECK-SAME: %{{.*}}: tensor<8x8xf32> {toast.global_sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}
// CHECK-SAME: %{{.*}}: tensor<4x8xf32>)
// CHECK-SAME: -> (tensor<16x8xf32> {toast.global_sharding = "{devices=[1,2,4]<=[8] last_tile_dim_replicate}"})
// CHECK-NOT: attributes
// CHECK-NOT: partir.tag
// CHECK: "stablehlo.all_reduce"
// CHECK-SAME: handle = 6, type = 1
// CHECK: "stablehlo.all_reduce"
// CHECK-SAME: handle = 7, type = 1
// CHECK: "stablehlo.all_gather"
// CHECK-SAME: handle = 8, type = 1
module attributes {partir.mesh = #partir.mesh<["x"=2, "y"=4]>} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func @boundary(%a: tensor<8x8xf32> {partir.sharding = [["x"], []], mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"},
                      %b: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>})
      -> (tensor<16x8xf32> {partir.sharding = [[], ["x"]]}) attributes {partir.mesh = #partir.mesh<["x"=2, "y"=4]>} {
    %t = partir.tag "t" %a : tensor<8x8xf32>
    %0 = "stablehlo.all_reduce"(%t) <{channel_handle = #stablehlo.channel_handle<handle = 6, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%l: tensor<f32>, %r: tensor<f32>):
      %s = stablehlo.add %l, %r : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %1 = partir_hlo.all_reduce "sum" ["y"] %0 : tensor<8x8xf32>
    %2 = partir_hlo.all_gather [{"x"}, {}] %1 : tensor<8x8xf32> -> tensor<16x8xf32>
    return %2 : tensor<16x8xf32>
  }
}

// -----

// A dynamic dimension the collectives do not split is carried through: the
// even all_gather, reduce_scatter and all_to_all need no static size of it
// (an all_slice does: test/Export/stablehlo-errors.mlir).
// CHECK-LABEL: func.func @dynamic_other_dims(
// CHECK-SAME: %{{.*}}: tensor<?x2x8xf32>
// CHECK: "stablehlo.all_gather"
// CHECK-SAME: (tensor<?x2x8xf32>) -> tensor<?x8x8xf32>
// CHECK: "stablehlo.reduce_scatter"
// CHECK: (tensor<?x8x8xf32>) -> tensor<?x8x2xf32>
// CHECK: "stablehlo.all_to_all"
// CHECK-SAME: (tensor<?x8x2xf32>) -> tensor<?x2x8xf32>
module attributes {partir.mesh = #partir.mesh<["x"=2, "y"=4]>} {
  func.func @dynamic_other_dims(%a: tensor<?x2x8xf32>) -> tensor<?x2x8xf32> {
    %0 = partir_hlo.all_gather [{}, {"y"}, {}] %a : tensor<?x2x8xf32> -> tensor<?x8x8xf32>
    %1 = partir_hlo.reduce_scatter "sum" [{}, {}, {"y"}] %0 : tensor<?x8x8xf32> -> tensor<?x8x2xf32>
    %2 = partir_hlo.all_to_all 2 -> 1 ["y"] %1 : tensor<?x8x2xf32> -> tensor<?x2x8xf32>
    return %2 : tensor<?x2x8xf32>
  }
}
