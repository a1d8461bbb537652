// A Shardy export without a partitioning mesh: the error points at its
// sdy.mesh and the import that adopts it; after the import the search runs.
// RUN: not toast-opt %s --toast-auto-partition="rollouts=5 budget-s=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=HINT
// RUN: toast-opt %s --partir-import-shardings --toast-auto-partition="rollouts=5 budget-s=0 progress=false" -o /dev/null

// HINT: error: no mesh: give one in the schedule or option
// HINT: sdy-mesh-hint.mlir:[[@LINE+2]]:3: note: the module declares this Shardy mesh: --partir-import-shardings makes it the partitioning mesh
module attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16xf32> {
    %b = stablehlo.tanh %a : tensor<8x16xf32>
    return %b : tensor<8x16xf32>
  }
}
