// shard_map regions Toast cannot honour: located errors, never a crash.
// RUN: split-file %s %t
// RUN: toast-opt %t/sub-axis.mlir --partir-import-shardings -verify-diagnostics
// RUN: toast-opt %t/mesh.mlir --partir-lower-to-hlo -verify-diagnostics
// RUN: not toast-opt %t/mesh.mlir --toast-auto-partition="mesh=b=2,a=2 rollouts=5 budget-s=0 progress=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: toast-opt %t/mesh.mlir --toast-auto-partition="mesh=a=2,b=2 rollouts=5 budget-s=0 progress=false" --partir-lower-to-hlo -o /dev/null
// RUN: not toast-opt %t/callee.mlir --toast-auto-partition="mesh=b=2,a=2 rollouts=5 budget-s=0 progress=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO

// The automatic partitioner lowers every strategy it prices through the
// reference path, and its winner: it refuses such a mesh up front (before,
// each such pricing failed and the search crashed on their infinite costs).
// AUTO: error: cannot lower the manual_computation: its mesh #sdy.mesh<["a"=2, "b"=2]> is not the partitioning mesh #partir.mesh<["b"=2, "a"=2]>
// AUTO: note: partition on its mesh: mesh=a=2,b=2

//--- sub-axis.mlir
// The import splits a mesh axis where sub-axes cut it; sub-axes of one
// axis that overlap without nesting leave no common split.
module {
  // expected-error @+1 {{cannot partition on this mesh: the sub-axes of axis "a" split it in ways that do not nest (at 2 and 3 devices)}}
  sdy.mesh @mesh = <["a"=6]>
  func.func @main(%x: tensor<12xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a":(1)2}]>}) -> tensor<12xf32> {
    %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a":(1)3}]>] out_shardings=[<@mesh, [{}]>] manual_axes={"a"} (%l: tensor<4xf32>) {
      %c = stablehlo.constant dense<0.0> : tensor<12xf32>
      sdy.return %c : tensor<12xf32>
    } : (tensor<12xf32>) -> tensor<12xf32>
    return %0 : tensor<12xf32>
  }
}

//--- mesh.mlir
// The body's collectives name devices of its mesh, which must be the mesh
// the program is partitioned on.
module attributes {partir.mesh = #partir.mesh<["b"=2, "a"=2]>} {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    // expected-error @+2 {{cannot lower the manual_computation: its mesh #sdy.mesh<["a"=2, "b"=2]> is not the partitioning mesh #partir.mesh<["b"=2, "a"=2]>}}
    // expected-note @+1 {{partition on its mesh: mesh=a=2,b=2}}
    %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%l: tensor<4xf32>) {
      sdy.return %l : tensor<4xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}

//--- callee.mlir
// The same region in a function the entry calls (lowering inlines every
// shard_map of the module).
module {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func private @body(%x: tensor<8xf32>) -> tensor<8xf32> {
    %0 = sdy.manual_computation(%x) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%l: tensor<4xf32>) {
      sdy.return %l : tensor<4xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %0 = func.call @body(%x) : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
