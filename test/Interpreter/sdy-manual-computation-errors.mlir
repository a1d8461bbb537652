// Programs with sdy ops that toast-run cannot give a meaning to: located
// errors and exit status 1, never a crash or a hang.
// RUN: split-file %s %t

// The out_sharding says the result is replicated on "a", but the devices
// return different values.
// RUN: not toast-run %t/disagree.mlir 2>&1 | FileCheck %s --check-prefix=DISAGREE
// DISAGREE: disagree.mlir:4:8: error: toast-run: result #0 of 'sdy.manual_computation': devices 0 and 1 hold the same part of the result but differ

// Partial values have no global meaning.
// RUN: not toast-run %t/all-reduce.mlir 2>&1 | FileCheck %s --check-prefix=PARTIAL
// PARTIAL: all-reduce.mlir:3:8: error: toast-run: 'sdy.all_reduce' reduces partial (unreduced) values, which a global program cannot hold

// Collectives in the body use the mesh's devices; a group outside it fails.
// RUN: not toast-run %t/bad-group.mlir 2>&1 | FileCheck %s --check-prefix=GROUP
// GROUP: bad-group.mlir:5:10: error: toast-run: replica_groups id 2 is out of range: there are 2 devices

//--- disagree.mlir
sdy.mesh @mesh = <["a"=2]>
func.func @main() -> tensor<2xf32> {
  %x = stablehlo.constant dense<1.0> : tensor<2xf32>
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"a"} (%l: tensor<2xf32>) {
    %pid = stablehlo.partition_id : tensor<ui32>
    %p = stablehlo.convert %pid : (tensor<ui32>) -> tensor<f32>
    %pb = stablehlo.broadcast_in_dim %p, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %y = stablehlo.add %l, %pb : tensor<2xf32>
    sdy.return %y : tensor<2xf32>
  } : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

//--- all-reduce.mlir
sdy.mesh @mesh = <["a"=2]>
func.func @main(%x: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"a"}>}) -> tensor<4xf32> {
  %0 = sdy.all_reduce {"a"} %x out_sharding=<@mesh, [{}]> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

//--- bad-group.mlir
sdy.mesh @mesh = <["a"=2]>
func.func @main() -> tensor<2xf32> {
  %x = stablehlo.constant dense<1.0> : tensor<2xf32>
  %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"a"} (%l: tensor<2xf32>) {
    %s = "stablehlo.all_reduce"(%l) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%u: tensor<f32>, %v: tensor<f32>):
      %w = stablehlo.add %u, %v : tensor<f32>
      stablehlo.return %w : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    sdy.return %s : tensor<2xf32>
  } : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
