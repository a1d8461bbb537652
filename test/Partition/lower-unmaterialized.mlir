// Lowering, exporting or simulating a program whose tactic passes' state
// has not been materialized into PartIR:Core is an error, not the global
// program returned or priced as if it were device-local. With
// --partir-materialize-core first it lowers.
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=x=0 mesh=B=2" --partir-lower-to-hlo -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=x=0 mesh=B=2" --partir-simulate -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIM
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=x=0 mesh=B=2" --partir-export-stablehlo -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPORT
// RUN: toast-opt %s --partir-manual-partition="name=BP axis=B inputs=x=0 mesh=B=2" --partir-materialize-core --partir-lower-to-hlo | FileCheck %s

// ERR: error: partir-lower-to-hlo: the program carries a partitioning that is not materialized yet (partir.tiling / partir.loops attributes); run --partir-materialize-core first
// SIM: error: partir-simulate: the program carries a partitioning that is not materialized yet
// EXPORT: error: partir-export-stablehlo: the program carries a partitioning that is not materialized yet
// CHECK: func.func @main(%{{.*}}: tensor<4x8xf32> {partir.name = "x", partir.sharding
module {
  func.func @main(%x: tensor<8x8xf32> {partir.name = "x"}) -> tensor<8x8xf32> {
    %y = stablehlo.exponential %x : tensor<8x8xf32>
    return %y : tensor<8x8xf32>
  }
}
