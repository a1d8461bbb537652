// Bad device-local programs: located errors and exit status 1, never a
// crash or a hang.
// RUN: split-file %s %t

// The partitioned signature, in global shapes, must be the original's.
// RUN: not toast-run --compare %t/orig.mlir %t/wrong-shape.mlir 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: wrong-shape.mlir:2:3: error: toast-run: argument #0 has type 'tensor<16x4xf32>' in the partitioned program but 'tensor<8x4xf32>' in the original (the global type of a device-local argument is its type times its sharding's tiles)
// RUN: not toast-run --compare %t/orig.mlir %t/two-results.mlir 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: two-results.mlir:2:3: error: toast-run: result count mismatch: the original returns 1 values, the partitioned one 2
// RUN: not toast-run --compare %t/two-results.mlir %t/orig.mlir 2>&1 | FileCheck %s --check-prefix=ORIGINAL
// ORIGINAL: two-results.mlir:2:3: error: toast-run: the ORIGINAL program must be global (it is device-local); pass it second

// Missing or malformed sharding attributes.
// RUN: not toast-run %t/malformed-dims.mlir 2>&1 | FileCheck %s --check-prefix=DIMS
// DIMS: malformed-dims.mlir:2:3: error: toast-run: argument #0 of @main: malformed 'partir.sharding' "x" (expected per-dimension axis lists such as {{\[\["B"\], \[\]\]}})
// RUN: not toast-run %t/unknown-axis.mlir 2>&1 | FileCheck %s --check-prefix=AXIS
// AXIS: unknown-axis.mlir:2:3: error: toast-run: result #0 of @main: 'partir.sharding' {{\[\["z"\], \[\]\]}} names an axis that is not in the mesh
// RUN: not toast-run %t/rank.mlir 2>&1 | FileCheck %s --check-prefix=RANK
// RANK: rank.mlir:2:3: error: toast-run: argument #0 of @main: 'partir.sharding' {{.*}} has 1 dimensions, the value 2
// RUN: not toast-run %t/no-mesh.mlir 2>&1 | FileCheck %s --check-prefix=NOMESH
// NOMESH: no-mesh.mlir:1:1: error: toast-run: @main is a PartIR:HLO program but has no partir.mesh attribute (on the function or the module)
// RUN: not toast-run %t/bad-hlo-sharding.mlir 2>&1 | FileCheck %s --check-prefix=HLOSHARDING
// HLOSHARDING: bad-hlo-sharding.mlir:2:3: error: toast-run: argument #0 of @main: malformed 'toast.global_sharding' "{devices=[4,1]<=[3]}": {{.*}}
// RUN: not toast-run %t/maximal.mlir 2>&1 | FileCheck %s --check-prefix=MAXIMAL
// MAXIMAL: maximal.mlir:2:3: error: toast-run: argument #0 of @main: unsupported 'toast.global_sharding' "{maximal device=0}" (only tiled and replicated shardings)
// RUN: not toast-run %t/device-count.mlir 2>&1 | FileCheck %s --check-prefix=DEVICES
// DEVICES: device-count.mlir:2:3: error: toast-run: result #0 of @main: 'toast.global_sharding' "{devices=[2,1]<=[2]}" places the value on 2 devices, but mhlo.num_partitions is 4
// RUN: not toast-run %t/no-partitions.mlir 2>&1 | FileCheck %s --check-prefix=NOPARTITIONS
// NOPARTITIONS: no-partitions.mlir:3:8: error: toast-run: a StableHLO program with collectives or 'toast.global_sharding' needs a positive integer 'mhlo.num_partitions' module attribute

// Collectives over axes (or devices) that are not in the mesh.
// RUN: not toast-run %t/hlo-axis.mlir 2>&1 | FileCheck %s --check-prefix=HLOAXIS
// HLOAXIS: hlo-axis.mlir:3:10: error: 'partir_hlo.all_reduce' op axis "z" is not in the mesh
// A function called from the entry may carry another partir.mesh than the
// entry's, which the program runs on: the verifier checked its collectives'
// types against its own mesh, and the run finds the shapes differ.
// RUN: not toast-run %t/mesh-gather.mlir 2>&1 | FileCheck %s --check-prefix=MESHGATHER
// MESHGATHER: mesh-gather.mlir:7:10: error: toast-run: on the run's mesh ["x"=4] (the op's types are for its partir.mesh ["x"=2]), result #0 would be 'tensor<16xf32>', not 'tensor<8xf32>'
// RUN: not toast-run %t/mesh-slice.mlir 2>&1 | FileCheck %s --check-prefix=MESHSLICE
// MESHSLICE: mesh-slice.mlir:7:10: error: toast-run: on the run's mesh ["x"=4, "y"=2] (the op's types are for its partir.mesh ["x"=2]), result #0 would be 'tensor<1x4xf32>', not 'tensor<2x4xf32>'
// RUN: not toast-run %t/mesh-scatter.mlir 2>&1 | FileCheck %s --check-prefix=MESHSCATTER
// MESHSCATTER: mesh-scatter.mlir:7:10: error: toast-run: on the run's mesh ["x"=3] (the op's types are for its partir.mesh ["x"=2]), result #0 would be 'tensor<0xf32>', not 'tensor<1xf32>'
// RUN: not toast-run %t/mesh-all-to-all.mlir 2>&1 | FileCheck %s --check-prefix=MESHA2A
// MESHA2A: mesh-all-to-all.mlir:7:10: error: toast-run: on the run's mesh ["x"=4] (the op's types are for its partir.mesh ["x"=2]), result #0 would be 'tensor<8x0xf32>', not 'tensor<4x1xf32>'
// RUN: not toast-run %t/exported-group.mlir 2>&1 | FileCheck %s --check-prefix=GROUP
// GROUP: exported-group.mlir:3:10: error: toast-run: replica_groups id 9 is out of range: there are 4 devices

// Unsupported element types.
// RUN: not toast-run %t/f8.mlir 2>&1 | FileCheck %s --check-prefix=F8
// F8: f8.mlir:2:3: error: toast-run: unsupported type 'tensor<4xf8E4M3FN>' of argument #0 of @main

// Devices that take different paths to collectives fail instead of
// waiting for each other forever.
// RUN: not toast-run %t/diverge.mlir 2>&1 | FileCheck %s --check-prefix=DIVERGE
// DIVERGE: diverge.mlir:8:12: error: toast-run: device 0 waits at this 'stablehlo.all_reduce' but another device returned or is at a different collective (devices must run the same collectives in the same order)

//--- orig.mlir
module {
  func.func @main(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
    return %a : tensor<8x4xf32>
  }
}
//--- wrong-shape.mlir
module attributes {partir.mesh = #partir.mesh<["x"=2]>} {
  func.func @main(%a: tensor<8x4xf32> {partir.sharding = [["x"], []]}) -> tensor<8x4xf32> {
    return %a : tensor<8x4xf32>
  }
}
//--- two-results.mlir
module attributes {partir.mesh = #partir.mesh<["x"=2]>} {
  func.func @main(%a: tensor<4x4xf32> {partir.sharding = [["x"], []]}) -> (tensor<4x4xf32> {partir.sharding = [["x"], []]}, tensor<4x4xf32> {partir.sharding = [["x"], []]}) {
    return %a, %a : tensor<4x4xf32>, tensor<4x4xf32>
  }
}
//--- malformed-dims.mlir
module attributes {partir.mesh = #partir.mesh<["x"=2]>} {
  func.func @main(%a: tensor<4x4xf32> {partir.sharding = "x"}) -> tensor<4x4xf32> {
    return %a : tensor<4x4xf32>
  }
}
//--- unknown-axis.mlir
module attributes {partir.mesh = #partir.mesh<["x"=2]>} {
  func.func @main(%a: tensor<4x4xf32>) -> (tensor<4x4xf32> {partir.sharding = [["z"], []]}) {
    return %a : tensor<4x4xf32>
  }
}
//--- rank.mlir
module attributes {partir.mesh = #partir.mesh<["x"=2]>} {
  func.func @main(%a: tensor<4x4xf32> {partir.sharding = [["x"]]}) -> tensor<4x4xf32> {
    return %a : tensor<4x4xf32>
  }
}
//--- no-mesh.mlir
func.func @main(%a: tensor<4x4xf32> {partir.sharding = [["x"], []]}) -> tensor<4x4xf32> {
  return %a : tensor<4x4xf32>
}
//--- bad-hlo-sharding.mlir
module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @main(%a: tensor<4x4xf32> {toast.global_sharding = "{devices=[4,1]<=[3]}"}) -> tensor<4x4xf32> {
    return %a : tensor<4x4xf32>
  }
}
//--- maximal.mlir
module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @main(%a: tensor<4x4xf32> {toast.global_sharding = "{maximal device=0}"}) -> tensor<4x4xf32> {
    return %a : tensor<4x4xf32>
  }
}
//--- device-count.mlir
module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @main(%a: tensor<4x4xf32>) -> (tensor<4x4xf32> {toast.global_sharding = "{devices=[2,1]<=[2]}"}) {
    return %a : tensor<4x4xf32>
  }
}
//--- no-partitions.mlir
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %a2 = stablehlo.add %a, %a : tensor<4xf32>
  %r = "stablehlo.all_reduce"(%a2) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %s = stablehlo.add %x, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
//--- hlo-axis.mlir
module attributes {partir.mesh = #partir.mesh<["x"=2]>} {
  func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
    %r = partir_hlo.all_reduce "sum" ["z"] %a : tensor<4xf32>
    return %r : tensor<4xf32>
  }
}
//--- mesh-gather.mlir
module attributes {partir.mesh = #partir.mesh<["x"=2]>} {
  func.func @main(%a: tensor<4xf32>) -> tensor<8xf32> attributes {partir.mesh = #partir.mesh<["x"=4]>} {
    %r = func.call @gather(%a) : (tensor<4xf32>) -> tensor<8xf32>
    return %r : tensor<8xf32>
  }
  func.func private @gather(%a: tensor<4xf32>) -> tensor<8xf32> {
    %g = partir_hlo.all_gather [{"x"}] %a : tensor<4xf32> -> tensor<8xf32>
    return %g : tensor<8xf32>
  }
}
//--- mesh-slice.mlir
module {
  func.func @main(%a: tensor<4x4xf32>) -> tensor<2x4xf32> attributes {partir.mesh = #partir.mesh<["x"=4, "y"=2]>} {
    %r = func.call @slice(%a) : (tensor<4x4xf32>) -> tensor<2x4xf32>
    return %r : tensor<2x4xf32>
  }
  func.func private @slice(%a: tensor<4x4xf32>) -> tensor<2x4xf32> attributes {partir.mesh = #partir.mesh<["x"=2]>} {
    %s = partir_hlo.all_slice [{"x"}, {}] %a : tensor<4x4xf32> -> tensor<2x4xf32>
    return %s : tensor<2x4xf32>
  }
}
//--- mesh-scatter.mlir
module attributes {partir.mesh = #partir.mesh<["x"=2]>} {
  func.func @main(%a: tensor<2xf32>) -> tensor<1xf32> attributes {partir.mesh = #partir.mesh<["x"=3]>} {
    %r = func.call @scatter(%a) : (tensor<2xf32>) -> tensor<1xf32>
    return %r : tensor<1xf32>
  }
  func.func private @scatter(%a: tensor<2xf32>) -> tensor<1xf32> {
    %s = partir_hlo.reduce_scatter "sum" [{"x"}] %a : tensor<2xf32> -> tensor<1xf32>
    return %s : tensor<1xf32>
  }
}
//--- mesh-all-to-all.mlir
module attributes {partir.mesh = #partir.mesh<["x"=2]>} {
  func.func @main(%a: tensor<2x2xf32>) -> tensor<4x1xf32> attributes {partir.mesh = #partir.mesh<["x"=4]>} {
    %r = func.call @a2a(%a) : (tensor<2x2xf32>) -> tensor<4x1xf32>
    return %r : tensor<4x1xf32>
  }
  func.func private @a2a(%a: tensor<2x2xf32>) -> tensor<4x1xf32> {
    %s = partir_hlo.all_to_all 0 -> 1 ["x"] %a : tensor<2x2xf32> -> tensor<4x1xf32>
    return %s : tensor<4x1xf32>
  }
}
//--- exported-group.mlir
module attributes {mhlo.num_partitions = 4 : i32} {
  func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
    %r = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 9], [1, 2]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}
//--- f8.mlir
module attributes {partir.mesh = #partir.mesh<["x"=2]>} {
  func.func @main(%a: tensor<2xf8E4M3FN> {partir.sharding = [["x"]]}) -> tensor<2xf8E4M3FN> {
    return %a : tensor<2xf8E4M3FN>
  }
}
//--- diverge.mlir
module attributes {mhlo.num_partitions = 2 : i32} {
  func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
    %p = stablehlo.partition_id : tensor<ui32>
    %zero = stablehlo.constant dense<0> : tensor<ui32>
    %first = stablehlo.compare EQ, %p, %zero : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    // Only device 0 reaches the all_reduce.
    %r = "stablehlo.if"(%first) ({
      %s = "stablehlo.all_reduce"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
      ^bb0(%x: tensor<f32>, %y: tensor<f32>):
        %t = stablehlo.add %x, %y : tensor<f32>
        stablehlo.return %t : tensor<f32>
      }) : (tensor<4xf32>) -> tensor<4xf32>
      stablehlo.return %s : tensor<4xf32>
    }, {
      stablehlo.return %a : tensor<4xf32>
    }) : (tensor<i1>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}
