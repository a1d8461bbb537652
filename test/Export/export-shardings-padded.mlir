// Uneven shardings: 10 rows and 6 columns on 4 devices. XLA (GSPMD) and
// Shardy shardings of the global program just name the tiling; the global
// shapes stay and the partitioner pads (docs/export.md). Exported and
// imported back, they give a padded SPMD program that computes what the
// original computes, in both forms; the device-local export records the
// global shape next to its HloSharding.
//
// RUN: toast-opt %S/../Partition/Inputs/padded-families.mlir --partir-manual-partition="axis=B inputs=x=0 mesh=B=4" --partir-export-shardings=format=mhlo -o %t.mhlo.mlir
// RUN: FileCheck %s --check-prefix=MHLO < %t.mhlo.mlir
// RUN: toast-opt %S/../Partition/Inputs/padded-families.mlir --partir-manual-partition="axis=B inputs=x=1 mesh=B=4" --partir-export-shardings=format=sdy -o %t.sdy.mlir
// RUN: FileCheck %s --check-prefix=SDY < %t.sdy.mlir
// RUN: toast-opt %t.mhlo.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo --partir-export-stablehlo -o %t.mhlo.spmd.mlir
// RUN: FileCheck %s --check-prefix=SPMD < %t.mhlo.spmd.mlir
// RUN: toast-run --compare %S/../Partition/Inputs/padded-families.mlir %t.mhlo.spmd.mlir | FileCheck %s
// RUN: toast-opt %t.sdy.mlir --partir-import-shardings --partir-materialize-core --partir-lower-to-hlo --partir-export-stablehlo -o %t.sdy.spmd.mlir
// RUN: toast-run --compare %S/../Partition/Inputs/padded-families.mlir %t.sdy.spmd.mlir | FileCheck %s

// MHLO: func.func public @main(%{{.*}}: tensor<10x6xf32> {{{.*}}mhlo.sharding = "{devices=[4,1]<=[4]}"
// SDY: func.func public @main(%{{.*}}: tensor<10x6xf32> {{{.*}}sdy.sharding = #sdy.sharding<@mesh, [{}, {"B"}]>
// SPMD: func.func public @main(%{{.*}}: tensor<3x6xf32> {{{.*}}toast.global_shape = array<i64: 10, 6>, toast.global_sharding = "{devices=[4,1]<=[4]}"}
// CHECK: results agree
