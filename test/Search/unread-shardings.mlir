// The search starts from the tactics' state, not from sharding annotations
// no import read: it says so (replicated ones ask for nothing and are not
// counted), and the lowered device-local boundary drops them (they describe
// the global value on the user's mesh, not the shard).
// RUN: toast-opt %s --toast-auto-partition="mesh=B=2 rollouts=10 budget-s=0 progress=false" --partir-lower-to-hlo -o %t.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: toast-opt %s --partir-import-shardings --toast-auto-partition="rollouts=10 budget-s=0 progress=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=IMPORTED --allow-empty

// WARN: warning: automatic partition: 2 sharding annotations (mhlo.sharding, sdy.sharding, sharding constraints) are not read by the search; run --partir-import-shardings first to keep them
// IMPORTED-NOT: warning
// CHECK: func.func @main(
// CHECK-NOT: mhlo.sharding
// CHECK-SAME: {
module attributes {mhlo.num_partitions = 2 : i32} {
  func.func @main(%x: tensor<8x16xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"},
                  %w: tensor<16x16xf32> {mhlo.sharding = "{replicated}"})
      -> (tensor<8x16xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}) {
    %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    return %y : tensor<8x16xf32>
  }
}
