// --partir-import-shardings on the other sdy ops exports contain: a reshard
// asks for a layout like a sharding_constraint and goes away; sharding
// groups go away (not enforced); sdy.constant becomes a stablehlo.constant;
// annotations inside a shard_map body (about local values) are not
// imported, only dropped. sdy
// collectives describe an already partitioned program: an error.
// RUN: split-file %s %t
// RUN: toast-opt %t/ops.mlir --partir-import-shardings | FileCheck %s
// RUN: toast-opt %t/ops.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo -o %t/ops-hlo.mlir
// RUN: toast-run --compare %t/ops.mlir %t/ops-hlo.mlir | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/collective.mlir --partir-import-shardings -verify-diagnostics

// CHECK-LABEL: func.func @main
// CHECK-SAME: %arg0: tensor<16x8xf32> {partir.tiling = ["x:0"]}
// CHECK-NOT: sdy.reshard
// CHECK-NOT: sdy.sharding_group
// CHECK: stablehlo.constant dense<2.000000e+00> : tensor<16x8xf32>
// CHECK-NOT: sdy.constant
// CHECK: sdy.manual_computation
// CHECK-NOT: sdy.sharding_constraint
// CHECK: sdy.return
// AGREE: results agree

//--- ops.mlir
module {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%a: tensor<16x8xf32>) -> tensor<16x8xf32> {
    %r = sdy.reshard %a <@mesh, [{"x"}, {}]> : tensor<16x8xf32>
    sdy.sharding_group %r group_id=3 : tensor<16x8xf32>
    %c = sdy.constant dense<2.0> : tensor<16x8xf32>
    %m = stablehlo.multiply %r, %c : tensor<16x8xf32>
    %0 = sdy.manual_computation(%m) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%l: tensor<8x8xf32>) {
      %k = sdy.sharding_constraint %l <@mesh, [{}, {}]> : tensor<8x8xf32>
      %e = stablehlo.exponential %k : tensor<8x8xf32>
      sdy.return %e : tensor<8x8xf32>
    } : (tensor<16x8xf32>) -> tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}

//--- collective.mlir
module {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%a: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<16x8xf32> {
    // expected-error @+1 {{'sdy.all_gather' describes communication in an already partitioned program, which the import does not support}}
    %0 = sdy.all_gather [{"x"}, {}] %a out_sharding=<@mesh, [{}, {}]> : tensor<16x8xf32>
    return %0 : tensor<16x8xf32>
  }
}
