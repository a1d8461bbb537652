// Programs the automatic search refuses up front, with located errors
// (before, each state it priced failed to lower, or the pass exited 0 with
// a program that names devices that do not exist, or sliced local values
// as if they were global).
// RUN: split-file %s %t
// RUN: not toast-opt %t/permute.mlir --toast-auto-partition="mesh=B=2 rollouts=5 budget-s=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PERMUTE
// RUN: not toast-opt %t/reduce.mlir --toast-auto-partition="mesh=B=2 rollouts=5 budget-s=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REDUCE
// RUN: not toast-opt %t/subaxis.mlir --toast-auto-partition="mesh=x=4,y=2 rollouts=5 budget-s=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SUBAXIS
// RUN: toast-opt %t/subaxis.mlir --partir-import-shardings --toast-auto-partition="rollouts=5 budget-s=0 progress=false" -o /dev/null
// RUN: toast-opt %t/global.mlir --partir-manual-partition="name=BP axis=B inputs=arg0=0 mesh=B=2" --toast-emit-planned -o %t/local.mlir
// RUN: not toast-opt %t/local.mlir --toast-auto-partition="rollouts=5 budget-s=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOCAL
// RUN: toast-opt %t/global.mlir --partir-manual-partition="name=BP axis=B inputs=arg0=0 mesh=B=2" --partir-materialize-core --partir-lower-to-hlo --partir-export-stablehlo -o %t/exported.mlir
// RUN: not toast-opt %t/exported.mlir --toast-auto-partition="mesh=B=2 rollouts=5 budget-s=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOCAL
// RUN: not toast-opt %t/partitions.mlir --toast-auto-partition="mesh=B=4 rollouts=5 budget-s=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PARTITIONS

// PERMUTE: permute.mlir:3:8: error: automatic partition: this collective names device 7, which the mesh #partir.mesh<["B"=2]> of 2 devices does not have
// REDUCE: reduce.mlir:3:8: error: automatic partition: this collective names device 2, which the mesh #partir.mesh<["B"=2]> of 2 devices does not have
// SUBAXIS: subaxis.mlir:5:10: error: cannot lower the manual_computation: operand 0 is sharded on the sub-axis "x":(1)2, which the device-local program cannot express
// SUBAXIS: note: import the shardings first (--partir-import-shardings)
// SUBAXIS-NOT: error
// LOCAL: .mlir:{{[0-9]+}}:3: error: automatic partition: the program is device-local already (lowered to PartIR:HLO, or exported from it); partition the global program
// PARTITIONS: partitions.mlir:4:10: error: automatic partition: this collective was written for 2 devices (mhlo.num_partitions), the mesh #partir.mesh<["B"=4]> has 4

//--- permute.mlir
func.func @main(%x: tensor<256x1024xf32>, %w: tensor<1024x1024xf32>) -> tensor<256x1024xf32> {
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<256x1024xf32>, tensor<1024x1024xf32>) -> tensor<256x1024xf32>
  %c = "stablehlo.collective_permute"(%y) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 7], [7, 0]]> : tensor<2x2xi64>}> : (tensor<256x1024xf32>) -> tensor<256x1024xf32>
  return %c : tensor<256x1024xf32>
}

//--- reduce.mlir
func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %y = stablehlo.tanh %x : tensor<64x64xf32>
  %c = "stablehlo.all_reduce"(%y) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

//--- subaxis.mlir
module @sub attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4, "y"=2]>
  func.func public @main(%a: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {}]>}) -> (tensor<8x6xf32>) {
    %0 = stablehlo.add %a, %a : tensor<8x6xf32>
    %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"x":(1)2}, {}]>] out_shardings=[<@mesh, [{"x":(1)2}, {}]>] manual_axes={"x"} (%b: tensor<4x6xf32>) {
      %2 = stablehlo.tanh %b : tensor<4x6xf32>
      sdy.return %2 : tensor<4x6xf32>
    } : (tensor<8x6xf32>) -> tensor<8x6xf32>
    return %1 : tensor<8x6xf32>
  }
}

//--- global.mlir
func.func @main(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

//--- partitions.mlir
module attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %y = stablehlo.tanh %x : tensor<64x64xf32>
    %c = "stablehlo.all_reduce"(%y) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    return %c : tensor<64x64xf32>
  }
}
