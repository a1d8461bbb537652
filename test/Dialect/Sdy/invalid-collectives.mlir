// Verifier and parser errors of the sdy collectives, reshard,
// sharding_group and constant.
// RUN: toast-opt %s -split-input-file -verify-diagnostics

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @gather_not_suffix(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<16x8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op dimension 0: the operand's axes must be the result's followed by the gathered axes (operand {"y"}, axes {}, result {})}}
  %0 = sdy.all_gather [{}, {"x"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

// Without a known sharding the operand is replicated: nothing to gather.
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @gather_replicated(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op dimension 1: the operand's axes must be the result's followed by the gathered axes (operand {}, axes {"x"}, result {})}}
  %0 = sdy.all_gather [{}, {"x"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @gather_rank(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'sdy.all_gather' op has 1 axis lists for a tensor of rank 2}}
  %0 = sdy.all_gather [{}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @slice_unknown_axis(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'sdy.all_slice' op unknown axis "z" in mesh @mesh}}
  %0 = sdy.all_slice [{}, {"z"}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @slice_mismatch(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'sdy.all_slice' op dimension 1: the result's axes must be the operand's followed by the sliced axes (operand {}, axes {"x"}, result {"y"})}}
  %0 = sdy.all_slice [{}, {"x"}] %arg0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @slice_sub_axis(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'sdy.all_slice' op sub-axis "y":(1)3 does not divide axis "y" of size 4}}
  %0 = sdy.all_slice [{}, {"y":(1)3}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @reduce_axis_kept(%arg0: tensor<16x2xf32>) -> tensor<16x2xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op reduction axis "y" also shards dimension 0 of the result}}
  %0 = sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<16x2xf32>
  return %0 : tensor<16x2xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @reduce_changes_layout(%arg0: tensor<16x2xf32>) -> tensor<16x2xf32> {
  // expected-error @+1 {{'sdy.all_reduce' op dimension 1: all_reduce keeps the dimension shardings, but the operand has {} and the result {"x"}}}
  %0 = sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<16x2xf32>
  return %0 : tensor<16x2xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @reduce_scatter_mismatch(%arg0: tensor<16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}], unreduced={"y"}>}) -> tensor<16xf32> {
  // expected-error @+1 {{'sdy.reduce_scatter' op dimension 0: the result's axes must be the operand's followed by the scattered axes (operand {"x"}, axes {"y"}, result {"y", "x"})}}
  %0 = sdy.reduce_scatter [{"y"}] %arg0 out_sharding=<@mesh, [{"y", "x"}]> : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @all_to_all_not_minor(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<16x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op dimension 0 is sharded on {"x", "y"}, which does not end with the moved axes {"x"}}}
  %0 = sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @all_to_all_dims(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<16x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op moves axes from dimension 0 to 2, which must be two different dimensions in [0, 2)}}
  %0 = sdy.all_to_all [{"x"}: 0->2] %arg0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @all_to_all_result(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<16x8xf32> {
  // expected-error @+1 {{'sdy.all_to_all' op dimension 1: moving the axes gives {"x"} but out_sharding has {"y"}}}
  %0 = sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @permute_sizes(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<16x8xf32> {
  // expected-error @+1 {{'sdy.collective_permute' op dimension 0 is split in 2 by the operand's {"x"} but in 4 by the result's {"y"}; a collective_permute keeps the shard sizes}}
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @other = <["x"=2]>
func.func @two_meshes(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}, {}]>}) -> tensor<16x8xf32> {
  // expected-error @+1 {{'sdy.collective_permute' op the operand's sharding #sdy.sharding<@other, [{"x"}, {}]> and out_sharding use different meshes}}
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"x"}, {}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @out_sharding_rank(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{'sdy.all_slice' op sharding has 1 dimension shardings but 'tensor<16x8xf32>' has rank 2}}
  %0 = sdy.all_slice [{"x"}, {}] %arg0 out_sharding=<@mesh, [{"x"}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @reshard(%arg0: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{'sdy.reshard' op axis "x" is used twice in the sharding}}
  %0 = sdy.reshard %arg0 <@mesh, [{"x", "x"}]> : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

func.func @constant_type() -> tensor<4xf32> {
  // expected-error @+1 {{'sdy.constant' op failed to verify that all of {value, output} have same type}}
  %0 = "sdy.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @all_to_all_syntax(%arg0: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{expected '->'}}
  %0 = sdy.all_to_all [{"x"}: 0 1] %arg0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
