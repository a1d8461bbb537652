// PartIR Listing 6 on the matmul chain (Listing 2), mesh {B:4, M:2}: the
// schedules BP, BP+MP and BP+MP+Z3, as JSON schedules and as a pipeline of
// tactic passes (both must give the same PartIR:Core).
//
// RUN: toast-opt %S/Inputs/matmul-chain.mlir --partir-schedule=file=%S/Inputs/bp.json | FileCheck %s --check-prefix=BP
// RUN: toast-opt %S/Inputs/matmul-chain.mlir --partir-manual-partition="name=BP axis=B inputs=x=0 mesh=B=4,M=2" --partir-materialize-core | FileCheck %s --check-prefix=BP
// RUN: toast-opt %S/Inputs/matmul-chain.mlir --partir-schedule=file=%S/Inputs/bp-mp.json | FileCheck %s --check-prefix=MP
// RUN: toast-opt %S/Inputs/matmul-chain.mlir --partir-manual-partition="name=BP axis=B inputs=x=0 mesh=B=4,M=2" --partir-manual-partition="name=MP axis=M inputs=w1=1" --partir-materialize-core | FileCheck %s --check-prefix=MP
// RUN: toast-opt %S/Inputs/matmul-chain.mlir --partir-schedule=file=%S/Inputs/bp-mp-z3.json | FileCheck %s --check-prefix=Z3
// RUN: toast-opt %S/Inputs/matmul-chain.mlir --partir-manual-partition="name=BP axis=B inputs=arg0=0 mesh=B=4,M=2" --partir-manual-partition="name=MP axis=M inputs=w1=1" --partir-manual-partition="name=Z3 axis=B inputs=w1=0;w2=1" --partir-materialize-core | FileCheck %s --check-prefix=Z3
// RUN: toast-opt %S/Inputs/matmul-chain.mlir --partir-schedule="file=%S/Inputs/bp-mp-z3.json report=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// BP is Listing 8: one loop over B holds both matmuls.
// BP: module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=2]>}
// BP: %[[R:.*]] = partir.loop "B" [#partir.tile<0>] (%[[RB:.*]]: !partir.range<4>) {
// BP-NEXT: %[[XS:.*]] = partir.slice 0 %arg0[%[[RB]]] : tensor<256x8xf32> -> tensor<64x8xf32>
// BP-NEXT: %[[X1:.*]] = stablehlo.dot_general %[[XS]], %arg1, {{.*}} -> tensor<64x16xf32>
// BP-NEXT: %[[X2:.*]] = stablehlo.dot_general %[[X1]], %arg2, {{.*}} -> tensor<64x8xf32>
// BP-NEXT: partir.yield %[[X2]] : tensor<64x8xf32>
// BP-NEXT: } : tensor<256x8xf32>
// BP-NEXT: return %[[R]]

// BP+MP is the program after inference in §5.2.2: a #sum loop over M inside
// the B loop, w1 sliced on dim 1 and w2 on dim 0.
// MP: %[[R:.*]] = partir.loop "B" [#partir.tile<0>] (%[[RB:.*]]: !partir.range<4>) {
// MP-NEXT: %[[XS:.*]] = partir.slice 0 %arg0[%[[RB]]] : tensor<256x8xf32> -> tensor<64x8xf32>
// MP-NEXT: %[[S:.*]] = partir.loop "M" [#partir.sum] (%[[RM:.*]]: !partir.range<2>) {
// MP-NEXT: %[[W1S:.*]] = partir.slice 1 %arg1[%[[RM]]] : tensor<8x16xf32> -> tensor<8x8xf32>
// MP-NEXT: %[[X1:.*]] = stablehlo.dot_general %[[XS]], %[[W1S]], {{.*}} -> tensor<64x8xf32>
// MP-NEXT: %[[W2S:.*]] = partir.slice 0 %arg2[%[[RM]]] : tensor<16x8xf32> -> tensor<8x8xf32>
// MP-NEXT: %[[X2:.*]] = stablehlo.dot_general %[[X1]], %[[W2S]], {{.*}} -> tensor<64x8xf32>
// MP-NEXT: partir.yield %[[X2]] : tensor<64x8xf32>
// MP-NEXT: } : tensor<64x8xf32>
// MP-NEXT: partir.yield %[[S]] : tensor<64x8xf32>
// MP-NEXT: } : tensor<256x8xf32>
// MP-NEXT: return %[[R]]

// Z3 deep-tiles the parameters on B inside their M slicing (appendix B.1.2);
// the matmuls keep their BP+MP loops and slice the tiled parameters.
// Z3: %[[W1T:.*]] = partir.loop "M" [#partir.tile<1>] (%[[A:.*]]: !partir.range<2>) {
// Z3-NEXT: partir.loop "B" [#partir.tile<0>] (%[[B:.*]]: !partir.range<4>) {
// Z3-NEXT: %[[S1:.*]] = partir.slice 1 %arg1[%[[A]]] : tensor<8x16xf32> -> tensor<8x8xf32>
// Z3-NEXT: partir.slice 0 %[[S1]][%[[B]]] : tensor<8x8xf32> -> tensor<2x8xf32>
// Z3: %[[W2T:.*]] = partir.loop "M" [#partir.tile<0>] (%[[C:.*]]: !partir.range<2>) {
// Z3-NEXT: partir.loop "B" [#partir.tile<1>] (%[[D:.*]]: !partir.range<4>) {
// Z3-NEXT: %[[S2:.*]] = partir.slice 0 %arg2[%[[C]]] : tensor<16x8xf32> -> tensor<8x8xf32>
// Z3-NEXT: partir.slice 1 %[[S2]][%[[D]]] : tensor<8x8xf32> -> tensor<8x2xf32>
// Z3: partir.loop "B" [#partir.tile<0>]
// Z3: partir.loop "M" [#partir.sum]
// Z3-NEXT: partir.slice 1 %[[W1T]][%{{.*}}] : tensor<8x16xf32> -> tensor<8x8xf32>
// Z3: partir.slice 0 %[[W2T]][%{{.*}}] : tensor<16x8xf32> -> tensor<8x8xf32>

// REPORT: partir-schedule: tactic {{BP}}: 1 actions, 2 ops partitioned on its axis, 2 loops added, 0 conflicts
// REPORT-NEXT: partir-schedule: tactic {{MP}}: 1 actions, 2 ops partitioned on its axis, 2 loops added, 0 conflicts
// REPORT-NEXT: partir-schedule: tactic {{Z3}}: 2 actions, 2 ops partitioned on its axis, 0 loops added, 0 conflicts
