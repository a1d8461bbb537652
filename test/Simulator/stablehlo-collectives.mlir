// Device-local StableHLO with stablehlo collectives (replica groups) is
// priced like PartIR:HLO: the group size is the number of ids in a replica
// group, the link is the device's default interconnect. Unit device:
// 1e9 B/s, 1e-6 s per ring step; tensors of 1024xf32 = 4096 B.
//
//   all_reduce, groups of 4:      6 steps, 2*3/4*4096 = 6144 B, 1.2144e-05 s
//   all_gather, groups of 2 (result 4096 B): 1, 2048 B, 3.048e-06 s
//   reduce_scatter, groups of 8:  7, 7/8*4096 = 3584 B, 1.0584e-05 s
//   all_to_all, split_count 4:    3, 3/2*4096 = 6144 B, 9.144e-06 s
//   collective_permute:           1, 4096 B, 5.096e-06 s
//   total 4.0016e-05 s, 22016 B
//
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/unit-device.json json=%t.json summary=false" -o /dev/null
// RUN: FileCheck %s < %t.json

// CHECK:      "step_time_s": 4.0016e-05,
// CHECK:      "comm_bytes": 22016,
// CHECK:      "collectives": {
// CHECK-NEXT:   "all_gather": 1,
// CHECK-NEXT:   "all_reduce": 1,
// CHECK-NEXT:   "reduce_scatter": 1,
// CHECK-NEXT:   "all_to_all": 1,
// CHECK-NEXT:   "collective_permute": 1
// CHECK:      "collective_time_s": {
// CHECK-NEXT:   "all_gather": 3.048e-06,
// CHECK-NEXT:   "all_reduce": 1.2144e-05,
// CHECK-NEXT:   "reduce_scatter": 1.0584e-05,
// CHECK-NEXT:   "all_to_all": 9.144e-06,
// CHECK-NEXT:   "collective_permute": 5.096e-06
// CHECK:      "collective_bytes": {
// CHECK-NEXT:   "all_gather": 2048,
// CHECK-NEXT:   "all_reduce": 6144,
// CHECK-NEXT:   "reduce_scatter": 3584,
// CHECK-NEXT:   "all_to_all": 6144,
// CHECK-NEXT:   "collective_permute": 4096

func.func @main(%x: tensor<1024xf32>, %h: tensor<512xf32>, %m: tensor<16x64xf32>)
    -> (tensor<1024xf32>, tensor<1024xf32>, tensor<128xf32>, tensor<64x16xf32>, tensor<1024xf32>) {
  %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1, 2, 3], [4, 5, 6, 7]]> : tensor<2x4xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<1024xf32>) -> tensor<1024xf32>
  %1 = "stablehlo.all_gather"(%h) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>}> : (tensor<512xf32>) -> tensor<1024xf32>
  %2 = "stablehlo.reduce_scatter"(%x) <{replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, scatter_dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<1024xf32>) -> tensor<128xf32>
  %3 = "stablehlo.all_to_all"(%m) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, split_count = 4 : i64, split_dimension = 1 : i64}> : (tensor<16x64xf32>) -> tensor<64x16xf32>
  %4 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<1024xf32>) -> tensor<1024xf32>
  return %0, %1, %2, %3, %4 : tensor<1024xf32>, tensor<1024xf32>, tensor<128xf32>, tensor<64x16xf32>, tensor<1024xf32>
}
