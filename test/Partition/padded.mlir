// Padded (uneven) tiling: 10 rows and 6 columns on 4 devices give 3 and 2
// rows per device, the last devices holding padding (docs/dialects.md).
// Each input of Inputs/padded-families.mlir (elementwise, reductions of
// every kind, argmax, dot_general, gather, scatter, concatenate, slice,
// dynamic_slice) is tiled along an indivisible dimension; the program
// computes what the original computed in PartIR:Core (run sequentially),
// after lowering to PartIR:HLO (SPMD on 4 devices) and after export to
// StableHLO collectives.
//
// RUN: toast-opt %S/Inputs/padded-families.mlir --partir-manual-partition="axis=B inputs=x=0 mesh=B=4" --partir-materialize-core -o %t.rows.mlir
// RUN: toast-run --compare %S/Inputs/padded-families.mlir %t.rows.mlir | FileCheck %s
// RUN: toast-opt %t.rows.mlir --partir-lower-to-hlo -o %t.rows.hlo.mlir
// RUN: toast-run --compare %S/Inputs/padded-families.mlir %t.rows.hlo.mlir | FileCheck %s --check-prefixes=CHECK,SPMD
// RUN: toast-opt %t.rows.hlo.mlir --partir-export-stablehlo -o %t.rows.exp.mlir
// RUN: toast-run --compare %S/Inputs/padded-families.mlir %t.rows.exp.mlir | FileCheck %s --check-prefixes=CHECK,EXPORTED
//
// Columns: the dot_general contracts the padded dimension.
// RUN: toast-opt %S/Inputs/padded-families.mlir --partir-manual-partition="axis=B inputs=x=1 mesh=B=4" --partir-materialize-core -o %t.cols.mlir
// RUN: FileCheck %s --check-prefix=MASK < %t.cols.mlir
// RUN: toast-run --compare %S/Inputs/padded-families.mlir %t.cols.mlir | FileCheck %s
// RUN: toast-opt %t.cols.mlir --partir-lower-to-hlo -o %t.cols.hlo.mlir
// RUN: FileCheck %s --check-prefix=HLO < %t.cols.hlo.mlir
// RUN: toast-run --compare %S/Inputs/padded-families.mlir %t.cols.hlo.mlir | FileCheck %s --check-prefixes=CHECK,SPMD
// RUN: toast-opt %t.cols.hlo.mlir --partir-export-stablehlo -o %t.cols.exp.mlir
// RUN: toast-run --compare %S/Inputs/padded-families.mlir %t.cols.exp.mlir | FileCheck %s --check-prefixes=CHECK,EXPORTED
//
// The weight's contracting rows, the gather and scatter indices, and the
// table's columns:
// RUN: toast-opt %S/Inputs/padded-families.mlir --partir-manual-partition="axis=B inputs=w=0 mesh=B=4" --partir-materialize-core --partir-lower-to-hlo -o %t.w.mlir
// RUN: toast-run --compare %S/Inputs/padded-families.mlir %t.w.mlir | FileCheck %s --check-prefixes=CHECK,SPMD
// RUN: toast-opt %S/Inputs/padded-families.mlir --partir-manual-partition="axis=B inputs=idx=0 mesh=B=4" --partir-materialize-core --partir-lower-to-hlo -o %t.idx.mlir
// RUN: toast-run --compare %S/Inputs/padded-families.mlir %t.idx.mlir | FileCheck %s --check-prefixes=CHECK,SPMD
// RUN: toast-opt %S/Inputs/padded-families.mlir --partir-manual-partition="axis=B inputs=tab=1 mesh=B=4" --partir-materialize-core --partir-lower-to-hlo -o %t.tab.mlir
// RUN: toast-run --compare %S/Inputs/padded-families.mlir %t.tab.mlir | FileCheck %s --check-prefixes=CHECK,SPMD
//
// An axis of size 1 cuts nothing, so it never is the one axis that pads a
// dimension: the rows on M (padded) and then on B of size 1, or in the
// other order, tile, lower and export (both levels are recorded).
// RUN: toast-opt %S/Inputs/padded-families.mlir --partir-manual-partition="name=m axis=M inputs=x=0 mesh=B=1,M=4" --partir-manual-partition="name=b axis=B inputs=x=0" --partir-materialize-core --partir-lower-to-hlo -o %t.unit.mlir
// RUN: FileCheck %s --check-prefix=UNIT-MB < %t.unit.mlir
// RUN: toast-run --compare %S/Inputs/padded-families.mlir %t.unit.mlir | FileCheck %s --check-prefixes=CHECK,SPMD
// RUN: toast-opt %t.unit.mlir --partir-export-stablehlo -o %t.unit.exp.mlir
// RUN: toast-run --compare %S/Inputs/padded-families.mlir %t.unit.exp.mlir | FileCheck %s --check-prefixes=CHECK,EXPORTED
// RUN: toast-opt %S/Inputs/padded-families.mlir --partir-manual-partition="name=b axis=B inputs=x=0 mesh=B=1,M=4" --partir-manual-partition="name=m axis=M inputs=x=0" --partir-materialize-core --partir-lower-to-hlo -o %t.unit2.mlir
// RUN: FileCheck %s --check-prefix=UNIT-BM < %t.unit2.mlir
// RUN: toast-run --compare %S/Inputs/padded-families.mlir %t.unit2.mlir | FileCheck %s --check-prefixes=CHECK,SPMD
// UNIT-MB: %arg0: tensor<3x6xf32> {partir.name = "x", partir.sharding = {{\[}}["M", "B"], []], toast.global_shape = array<i64: 10, 6>}
// UNIT-BM: %arg0: tensor<3x6xf32> {partir.name = "x", partir.sharding = {{\[}}["B", "M"], []], toast.global_shape = array<i64: 10, 6>}

// SPMD: @main runs SPMD on 4 devices (PartIR:HLO)
// EXPORTED: @main runs SPMD on 4 devices (exported StableHLO)
// CHECK: results agree

// The padded slice names its range; a reduction over the padded dimension
// (the dot_general's contraction) replaces the padding of both operands by
// zeros, selecting with the validity of the padded layout (6 real columns
// of 4 x 2), sliced like the data.
// MASK:      partir.slice 1 %{{.*}}[%{{.*}} : !partir.range<4>] : tensor<10x6xf32> -> tensor<10x2xf32>
// MASK:      %[[VALID:.*]] = stablehlo.constant dense<[true, true, true, true, true, true, false, false]> : tensor<8xi1>
// MASK-NEXT: %[[MINE:.*]] = partir.slice 0 %[[VALID]][%{{.*}}] : tensor<8xi1> -> tensor<2xi1>
// MASK-NEXT: %[[PRED:.*]] = stablehlo.broadcast_in_dim %[[MINE]], dims = [1] : (tensor<2xi1>) -> tensor<10x2xi1>
// MASK-NEXT: %[[ZERO:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<10x2xf32>
// MASK-NEXT: %[[LHS:.*]] = stablehlo.select %[[PRED]], %{{.*}}, %[[ZERO]]
// MASK:      %[[RHS:.*]] = stablehlo.select
// MASK-NEXT: stablehlo.dot_general %[[LHS]], %[[RHS]], contracting_dims = [1] x [0] : (tensor<10x2xf32>, tensor<2x5xf32>) -> tensor<10x5xf32>

// The device-local boundary records the global shape of padded values;
// collectives move padded shapes.
// HLO: func.func public @main(%arg0: tensor<10x2xf32> {partir.name = "x", partir.sharding = {{\[}}[], ["B"]], toast.global_shape = array<i64: 10, 6>}
// HLO: partir_hlo.all_gather [{}, {"B"}] %{{.*}} : tensor<10x2xf32> -> tensor<10x6xf32>
