// TOAST figure 5b: one NDA action shards the sequence color S of the
// simplified attention layer. Resolution b0=0 shards the last dimensions
// of a, c and d (sequence sharding): one all_gather (of the keys) and one
// reduce_scatter (of the output), plus the all_reduce that the mock
// softmax's row sum over the sharded dimension needs. Resolution b0=1 is
// the other one of §3.5: two all_gathers. The analytic cost (remarks)
// counts the same collectives as the lowered program, and the
// materialized PartIR:Core program computes what the original does.
//
// RUN: toast-opt %S/Inputs/figure5-attention.mlir --toast-test-apply-nda-action="mesh=S=2 arg=0 dim=0 bits=0=0 axis=S" --partir-materialize-core --partir-lower-to-hlo 2>%t.remarks0 | FileCheck %s --check-prefix=SEQ
// RUN: FileCheck %s --check-prefix=REMARK0 < %t.remarks0
// RUN: toast-opt %S/Inputs/figure5-attention.mlir --toast-test-apply-nda-action="mesh=S=2 arg=0 dim=0 bits=0=1 axis=S" --partir-materialize-core --partir-lower-to-hlo 2>%t.remarks1 | FileCheck %s --check-prefix=OTHER
// RUN: FileCheck %s --check-prefix=REMARK1 < %t.remarks1
// RUN: toast-opt %S/Inputs/figure5-attention.mlir --toast-test-apply-nda-action="mesh=S=2 arg=0 dim=0 bits=0=0 axis=S" --partir-materialize-core -o %t.core.mlir 2>/dev/null
// RUN: toast-run --compare %S/Inputs/figure5-attention.mlir %t.core.mlir --entry attn --seed 3 | FileCheck %s --check-prefix=CMP
// RUN: not toast-opt %S/Inputs/figure5-attention.mlir --toast-test-apply-nda-action="mesh=S=2 arg=0 dim=0 bits=0=0 axis=Q" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADAXIS

// SEQ-LABEL: func.func @attn(%arg0: tensor<4x4xf32> {partir.sharding = {{\[\["S"\], \[\]\]}}}
// SEQ: %[[K:.*]] = stablehlo.dot_general %arg0, %arg2
// SEQ: partir_hlo.all_gather [{"S"}, {}] %[[K]] : tensor<4x6xf32> -> tensor<8x6xf32>
// SEQ: partir_hlo.all_reduce "sum" ["S"] {{.*}} : tensor<8xf32>
// SEQ: partir_hlo.reduce_scatter "sum" [{"S"}, {}] {{.*}} : tensor<8x5xf32> -> tensor<4x5xf32>
// SEQ-NOT: partir_hlo.all_gather
// SEQ: return {{.*}} : tensor<4x5xf32>

// REMARK0: remark: shard color {{[0-9]+}} (arg0[0]: {{[0-9]+}} dims) resolution b0=0 on axis S
// REMARK0: remark: analytic: all_gather 1 all_reduce 1 reduce_scatter 1 all_to_all 0

// OTHER-COUNT-2: partir_hlo.all_gather
// OTHER-NOT: partir_hlo.reduce_scatter
// OTHER-NOT: partir_hlo.all_reduce

// REMARK1: remark: analytic: all_gather 2 all_reduce 0 reduce_scatter 0 all_to_all 0

// CMP-LABEL: comparing @attn
// CMP: results agree

// BADAXIS: error: automatic partitioning: axis "Q" is not in the mesh
