// PartIR Listings 3-5: the matmul chain under BP, BP+MP and BP+MP+Z3 on
// mesh {B:4, M:2}, lowered to device-local PartIR:HLO. BP needs no
// collective; BP+MP ends in one all_reduce over M; BP+MP+Z3 gathers both
// parameters over B before their matmul.
//
// RUN: toast-opt %S/../../../Partition/Inputs/matmul-chain.mlir --partir-schedule=file=%S/../../../Partition/Inputs/bp.json --partir-lower-to-hlo | FileCheck %s --check-prefix=BP
// RUN: toast-opt %S/../../../Partition/Inputs/matmul-chain.mlir --partir-schedule=file=%S/../../../Partition/Inputs/bp-mp.json --partir-lower-to-hlo | FileCheck %s --check-prefix=MP
// RUN: toast-opt %S/../../../Partition/Inputs/matmul-chain.mlir --partir-schedule=file=%S/../../../Partition/Inputs/bp-mp-z3.json --partir-lower-to-hlo | FileCheck %s --check-prefix=Z3

// BP-LABEL: func.func @main
// BP-SAME: (%[[X:.*]]: tensor<64x8xf32> {partir.name = "x", partir.sharding = {{\[\["B"\], \[\]\]}}},
// BP-SAME: %[[W1:.*]]: tensor<8x16xf32> {partir.name = "w1"}, %[[W2:.*]]: tensor<16x8xf32> {partir.name = "w2"})
// BP-SAME: -> (tensor<64x8xf32> {partir.sharding = {{\[\["B"\], \[\]\]}}})
// BP-SAME: attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>}
// BP-NEXT: %[[X1:.*]] = stablehlo.dot_general %[[X]], %[[W1]], {{.*}} -> tensor<64x16xf32>
// BP-NEXT: %[[X2:.*]] = stablehlo.dot_general %[[X1]], %[[W2]], {{.*}} -> tensor<64x8xf32>
// BP-NEXT: return %[[X2]] : tensor<64x8xf32>

// MP-LABEL: func.func @main
// MP-SAME: %[[X:.*]]: tensor<64x8xf32>
// MP-SAME: %[[W1:.*]]: tensor<8x8xf32> {partir.name = "w1", partir.sharding = {{\[\[\], \["M"\]\]}}}
// MP-SAME: %[[W2:.*]]: tensor<8x8xf32> {partir.name = "w2", partir.sharding = {{\[\["M"\], \[\]\]}}}
// MP-NEXT: %[[X1:.*]] = stablehlo.dot_general %[[X]], %[[W1]], {{.*}} -> tensor<64x8xf32>
// MP-NEXT: %[[X2:.*]] = stablehlo.dot_general %[[X1]], %[[W2]], {{.*}} -> tensor<64x8xf32>
// MP-NEXT: %[[X3:.*]] = partir_hlo.all_reduce "sum" ["M"] %[[X2]] : tensor<64x8xf32>
// MP-NEXT: return %[[X3]] : tensor<64x8xf32>

// Z3-LABEL: func.func @main
// Z3-SAME: %[[X:.*]]: tensor<64x8xf32>
// Z3-SAME: %[[W1:.*]]: tensor<2x8xf32> {partir.name = "w1", partir.sharding = {{\[\["B"\], \["M"\]\]}}}
// Z3-SAME: %[[W2:.*]]: tensor<8x2xf32> {partir.name = "w2", partir.sharding = {{\[\["M"\], \["B"\]\]}}}
// Z3-DAG: %[[W1G:.*]] = partir_hlo.all_gather [{"B"}, {}] %[[W1]] : tensor<2x8xf32> -> tensor<8x8xf32>
// Z3-DAG: %[[W2G:.*]] = partir_hlo.all_gather [{}, {"B"}] %[[W2]] : tensor<8x2xf32> -> tensor<8x8xf32>
// Z3: %[[X1:.*]] = stablehlo.dot_general %[[X]], %[[W1G]], {{.*}} -> tensor<64x8xf32>
// Z3-NEXT: %[[X2:.*]] = stablehlo.dot_general %[[X1]], %[[W2G]], {{.*}} -> tensor<64x8xf32>
// Z3-NEXT: %[[X3:.*]] = partir_hlo.all_reduce "sum" ["M"] %[[X2]] : tensor<64x8xf32>
// Z3-NEXT: return %[[X3]] : tensor<64x8xf32>
