// Round trip of the sdy collectives, reshard, sharding_group and constant,
// pretty and generic, in Shardy's syntax. The operand's sharding comes from
// the function argument or the producing collective.
// RUN: toast-opt %s | toast-opt | FileCheck %s
// RUN: toast-opt %s --mlir-print-op-generic | toast-opt | FileCheck %s

sdy.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func @gather_slice
// CHECK-NEXT: %[[G:.*]] = sdy.all_gather [{}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<16x8xf32>
// CHECK-NEXT: %[[S:.*]] = sdy.all_slice [{}, {"x"}] %[[G]] out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<16x8xf32>
// CHECK-NEXT: sdy.collective_permute %[[S]] out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<16x8xf32>
func.func @gather_slice(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<16x8xf32> {
  %0 = sdy.all_gather [{}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {}]> : tensor<16x8xf32>
  %1 = sdy.all_slice [{}, {"x"}] %0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<16x8xf32>
  %2 = sdy.collective_permute %1 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<16x8xf32>
  return %2 : tensor<16x8xf32>
}

// CHECK-LABEL: func.func @permute_axes
// CHECK-NEXT: sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y":(1)2}, {"x"}]> : tensor<16x8xf32>
func.func @permute_axes(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y":(2)2}]>}) -> tensor<16x8xf32> {
  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, [{"y":(1)2}, {"x"}]> : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}

// CHECK-LABEL: func.func @reductions
// CHECK-NEXT: %[[R:.*]] = sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<16x2xf32>
// CHECK-NEXT: %[[S:.*]] = sdy.reduce_scatter [{"y"}, {}] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<16x2xf32>
// CHECK-NEXT: stablehlo.add %[[R]], %[[S]]
func.func @reductions(%arg0: tensor<16x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}], unreduced={"y"}>}) -> tensor<16x2xf32> {
  %0 = sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<16x2xf32>
  %1 = sdy.reduce_scatter [{"y"}, {}] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<16x2xf32>
  %2 = stablehlo.add %0, %1 : tensor<16x2xf32>
  return %2 : tensor<16x2xf32>
}

// CHECK-LABEL: func.func @all_to_all
// CHECK-NEXT: sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<16x8xf32>
// CHECK-NEXT: sdy.all_to_all [{"x"}: 1->0, {"y":(2)2}: 2->1] %arg1 out_sharding=<@mesh, [{"x"}, {"y":(2)2}, {}]> : tensor<16x8x4xf32>
func.func @all_to_all(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                      %arg1: tensor<16x8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}, {"y":(2)2}]>}) -> tensor<16x8xf32> {
  %0 = sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"x"}]> : tensor<16x8xf32>
  %1 = sdy.all_to_all [{"x"}: 1->0, {"y":(2)2}: 2->1] %arg1 out_sharding=<@mesh, [{"x"}, {"y":(2)2}, {}]> : tensor<16x8x4xf32>
  return %0 : tensor<16x8xf32>
}

// CHECK-LABEL: func.func @misc
// CHECK-NEXT: %[[C:.*]] = sdy.constant dense<1.000000e+00> : tensor<8xf32>
// CHECK-NEXT: sdy.sharding_group %[[C]] group_id=21 : tensor<8xf32>
// CHECK-NEXT: sdy.sharding_group %arg0 group_id=21 : tensor<8xf32>
// CHECK-NEXT: %[[R:.*]] = sdy.reshard %arg0 <@mesh, [{"x", "y"}]> : tensor<8xf32>
// CHECK-NEXT: sdy.reshard %[[R]] <mesh<["z"=2]>, [{"z"}]> : tensor<8xf32>
func.func @misc(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = sdy.constant dense<1.000000e+00> : tensor<8xf32>
  sdy.sharding_group %0 group_id=21 : tensor<8xf32>
  sdy.sharding_group %arg0 group_id=21 : tensor<8xf32>
  %1 = sdy.reshard %arg0 <@mesh, [{"x", "y"}]> : tensor<8xf32>
  %2 = sdy.reshard %1 <mesh<["z"=2]>, [{"z"}]> : tensor<8xf32>
  return %2 : tensor<8xf32>
}
