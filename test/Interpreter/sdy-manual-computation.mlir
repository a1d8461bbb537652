// toast-run runs a global program with sdy.manual_computation (shard_map)
// as the region means: operands split over the manual axes by their
// in_shardings, the body once per device on its local shards (free axes
// replicate), results reassembled by the out_shardings. Checked against
// values computed by hand, with partition ids, a collective in the body,
// a free axis, sub-axes and a mesh with a device order.
// RUN: split-file %s %t
// RUN: toast-run %t/checks.mlir | FileCheck %s --check-prefix=CHECKS
// CHECKS: @main: 4 checks passed, 0 failed

// A shard_map of a matmul with the contraction split (Megatron, psum in the
// body) computes what the plain matmul computes.
// RUN: toast-run --compare %t/matmul.mlir %t/matmul-shardmap.mlir --seed 3 | FileCheck %s --check-prefix=COMPARE
// COMPARE: comparing @main on random arguments
// COMPARE-NEXT: result #0 tensor<8x6xf32>: max abs error {{.*}}: ok

// The real JAX export (a GPipe pipeline on 8 devices, with collective_permute
// in the body) runs.
// RUN: %if corpus %{ toast-run %corpus/exports/jax_mlp_pipeline_shardmap_sdy.mlir | FileCheck %s --check-prefix=CORPUS %}
// CORPUS: result #0: tensor<f32>

//--- checks.mlir
sdy.mesh @mesh = <["a"=2, "b"=2]>
sdy.mesh @reversed = <["a"=4], device_ids=[3, 2, 1, 0]>
func.func @main() {
  // x[r][c] = 4r + c on an 8x4 grid.
  %r = stablehlo.iota dim = 0 : tensor<8x4xf32>
  %c = stablehlo.iota dim = 1 : tensor<8x4xf32>
  %four = stablehlo.constant dense<4.0> : tensor<8x4xf32>
  %r4 = stablehlo.multiply %r, %four : tensor<8x4xf32>
  %x = stablehlo.add %r4, %c : tensor<8x4xf32>
  // Device (a, b) has id 2a + b and holds rows 4a.., columns 2b..; it adds
  // 100 * id, and all devices sum all elements.
  %0:2 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {"b"}]>] out_shardings=[<@mesh, [{"a"}, {"b"}]>, <@mesh, [{}]>] manual_axes={"a", "b"} (%l: tensor<4x2xf32>) {
    %pid = stablehlo.partition_id : tensor<ui32>
    %p = stablehlo.convert %pid : (tensor<ui32>) -> tensor<f32>
    %hundred = stablehlo.constant dense<100.0> : tensor<f32>
    %p100 = stablehlo.multiply %p, %hundred : tensor<f32>
    %pb = stablehlo.broadcast_in_dim %p100, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %y = stablehlo.add %l, %pb : tensor<4x2xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %s = stablehlo.reduce(%l init: %zero) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x2xf32>, tensor<f32>) -> tensor<f32>
    %s1 = stablehlo.reshape %s : (tensor<f32>) -> tensor<1xf32>
    %t = "stablehlo.all_reduce"(%s1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%u: tensor<f32>, %v: tensor<f32>):
      %w = stablehlo.add %u, %v : tensor<f32>
      stablehlo.return %w : tensor<f32>
    }) : (tensor<1xf32>) -> tensor<1xf32>
    sdy.return %y, %t : tensor<4x2xf32>, tensor<1xf32>
  } : (tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<1xf32>)
  %e0 = stablehlo.constant dense<[[0.0, 1.0, 102.0, 103.0], [4.0, 5.0, 106.0, 107.0], [8.0, 9.0, 110.0, 111.0], [12.0, 13.0, 114.0, 115.0],
                                  [216.0, 217.0, 318.0, 319.0], [220.0, 221.0, 322.0, 323.0], [224.0, 225.0, 326.0, 327.0], [228.0, 229.0, 330.0, 331.0]]> : tensor<8x4xf32>
  stablehlo.custom_call @check.expect_eq(%0#0, %e0) {has_side_effect = true} : (tensor<8x4xf32>, tensor<8x4xf32>) -> ()
  %e1 = stablehlo.constant dense<496.0> : tensor<1xf32>
  stablehlo.custom_call @check.expect_eq(%0#1, %e1) {has_side_effect = true} : (tensor<1xf32>, tensor<1xf32>) -> ()

  // Only "a" is manual: "b" is free, so each body sees whole columns, and
  // the devices that differ in "b" compute the same block.
  %1 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}, {"b"}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%l: tensor<4x4xf32>) {
    %y = stablehlo.add %l, %l : tensor<4x4xf32>
    sdy.return %y : tensor<4x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %x2 = stablehlo.add %x, %x : tensor<8x4xf32>
  stablehlo.custom_call @check.expect_eq(%1, %x2) {has_side_effect = true} : (tensor<8x4xf32>, tensor<8x4xf32>) -> ()

  // Mesh positions 0..3 hold devices 3..0. Rows split on the major
  // sub-axis "a":(1)2 (positions 0-1 get rows 0-3); the body adds its
  // partition id's half (id / 2), which only the major sub-axis decides,
  // so the devices that differ in the minor one agree.
  %2 = sdy.manual_computation(%x) in_shardings=[<@reversed, [{"a":(1)2}, {}]>] out_shardings=[<@reversed, [{"a":(1)2}, {}]>] manual_axes={"a"} (%l: tensor<4x4xf32>) {
    %pid = stablehlo.partition_id : tensor<ui32>
    %two = stablehlo.constant dense<2> : tensor<ui32>
    %half = stablehlo.divide %pid, %two : tensor<ui32>
    %h = stablehlo.convert %half : (tensor<ui32>) -> tensor<f32>
    %hb = stablehlo.broadcast_in_dim %h, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %y = stablehlo.add %l, %hb : tensor<4x4xf32>
    sdy.return %y : tensor<4x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  // Rows 0-3 are on devices 3 and 2 (half 1), rows 4-7 on 1 and 0 (half 0).
  %ones = stablehlo.constant dense<[[1.0], [1.0], [1.0], [1.0], [0.0], [0.0], [0.0], [0.0]]> : tensor<8x1xf32>
  %ob = stablehlo.broadcast_in_dim %ones, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x4xf32>
  %e2 = stablehlo.add %x, %ob : tensor<8x4xf32>
  stablehlo.custom_call @check.expect_eq(%2, %e2) {has_side_effect = true} : (tensor<8x4xf32>, tensor<8x4xf32>) -> ()
  return
}

//--- matmul.mlir
func.func @main(%x: tensor<8x4xf32>, %w: tensor<4x6xf32>) -> tensor<8x6xf32> {
  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

//--- matmul-shardmap.mlir
module attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @main(%x: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a"}, {"b"}]>}, %w: tensor<4x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b"}, {}]>}) -> tensor<8x6xf32> {
    %0 = sdy.manual_computation(%x, %w) in_shardings=[<@mesh, [{"a"}, {"b"}]>, <@mesh, [{"b"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a", "b"} (%lx: tensor<4x2xf32>, %lw: tensor<2x6xf32>) {
      %p = stablehlo.dot_general %lx, %lw, contracting_dims = [1] x [0] : (tensor<4x2xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
      %s = "stablehlo.all_reduce"(%p) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
      ^bb0(%u: tensor<f32>, %v: tensor<f32>):
        %w2 = stablehlo.add %u, %v : tensor<f32>
        stablehlo.return %w2 : tensor<f32>
      }) : (tensor<4x6xf32>) -> tensor<4x6xf32>
      sdy.return %s : tensor<4x6xf32>
    } : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
    return %0 : tensor<8x6xf32>
  }
}
