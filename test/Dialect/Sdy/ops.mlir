// Round trip of the sdy dialect's meshes and shardings: shardings on
// arguments, results and ops, sub-axes, inline meshes, sharding
// constraints. Both the pretty and the generic
// forms re-parse to the same IR.
// RUN: toast-opt %s | toast-opt | FileCheck %s
// RUN: toast-opt %s --mlir-print-op-generic | toast-opt | FileCheck %s

// CHECK: sdy.mesh @mesh = <["a"=2, "b"=4]>
sdy.mesh @mesh = <["a"=2, "b"=4]>
// CHECK: sdy.mesh @ordered = <["x"=2, "y"=2], device_ids=[0, 2, 1, 3]>
sdy.mesh @ordered = <["x"=2, "y"=2], device_ids=[0, 2, 1, 3]>
// CHECK: sdy.mesh @empty = <[]>
sdy.mesh @empty = <[]>
// CHECK: sdy.mesh @maximal = <[], device_ids=[3]>
sdy.mesh @maximal = <[], device_ids=[3]>

// CHECK-LABEL: func.func @args
// CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b", ?}]>}
// CHECK-SAME: {sdy.sharding = #sdy.sharding<@mesh, [{?}, {}], replicated={"a"}>}
// CHECK-SAME: -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>})
func.func @args(%x: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b", ?}]>},
                %y: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{?}, {}], replicated={"a"}>})
    -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {}]>}) {
  %0 = stablehlo.add %x, %y : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// CHECK-LABEL: func.func @priorities
// CHECK-SAME: #sdy.sharding<@mesh, [{"a"}p0, {"b", ?}p3]>
func.func @priorities(%x: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}p0, {"b", ?}p3]>}) -> tensor<16x8xf32> {
  return %x : tensor<16x8xf32>
}

// CHECK-LABEL: func.func @constraint
// CHECK: %[[C:.*]] = sdy.sharding_constraint %{{.*}} <@mesh, [{}, {"b"}]> : tensor<16x8xf32>
// CHECK: sdy.sharding_constraint %[[C]] <@mesh, [{"a", ?}, {?}], unreduced={"b"}> : tensor<16x8xf32>
func.func @constraint(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %0 = sdy.sharding_constraint %x <@mesh, [{}, {"b"}]> : tensor<16x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{"a", ?}, {?}], unreduced={"b"}> : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// CHECK-LABEL: func.func @per_value
// CHECK: stablehlo.add {{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>}
// CHECK: stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@ordered, [{"y"}]>]>}
func.func @per_value(%x: tensor<16x8xf32>, %v: tensor<4xf32>) -> tensor<16x8xf32> {
  %0 = stablehlo.add %x, %x {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>} : tensor<16x8xf32>
  %1:2 = "stablehlo.optimization_barrier"(%v, %v) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@ordered, [{"y"}]>]>} : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0 : tensor<16x8xf32>
}

// Scalars have no dimension shardings.
// CHECK-LABEL: func.func @scalar
// CHECK-SAME: #sdy.sharding<@empty, []>
func.func @scalar(%s: tensor<f32> {sdy.sharding = #sdy.sharding<@empty, []>}) -> tensor<f32> {
  return %s : tensor<f32>
}

// Sub-axes: "a" of size 8 split into a major 2 and a minor 4; replicated and
// unreduced sets may hold sub-axes too.
sdy.mesh @big = <["a"=8, "b"=2]>
// CHECK-LABEL: func.func @sub_axes
// CHECK-SAME: #sdy.sharding<@big, [{"a":(1)2}, {"a":(2)4, "b"}]>
// CHECK-SAME: #sdy.sharding<@big, [{"a":(2)2, ?}], replicated={"a":(1)2}, unreduced={"a":(4)2}>
func.func @sub_axes(%x: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@big, [{"a":(1)2}, {"a":(2)4, "b"}]>},
                    %y: tensor<16xf32> {sdy.sharding = #sdy.sharding<@big, [{"a":(2)2, ?}], replicated={"a":(1)2}, unreduced={"a":(4)2}>}) {
  return
}

// Meshes written inline instead of as a symbol, with a device order, and
// the maximal (single-device) mesh.
// CHECK-LABEL: func.func @inline_meshes
// CHECK-SAME: #sdy.sharding<mesh<["x"=4, "y"=2]>, [{"x"}, {"y"}]>
// CHECK-SAME: #sdy.sharding<mesh<["x"=4], device_ids=[3, 2, 1, 0]>, [{"x"}]>
// CHECK-SAME: #sdy.sharding<mesh<[], device_ids=[0]>, []>
// CHECK: sdy.sharding_constraint %{{.*}} <mesh<["x"=4, "y"=2]>, [{}, {"x":(1)2}]>
func.func @inline_meshes(%x: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=4, "y"=2]>, [{"x"}, {"y"}]>},
                         %y: tensor<16xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=4], device_ids=[3, 2, 1, 0]>, [{"x"}]>},
                         %s: tensor<f32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[0]>, []>}) -> tensor<16x8xf32> {
  %0 = sdy.sharding_constraint %x <mesh<["x"=4, "y"=2]>, [{}, {"x":(1)2}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
