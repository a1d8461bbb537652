// An op whose region reads a value defined above it (a reducer selecting
// between two constants of the function, as torch-xla's MoE export writes
// its boolean reductions) is emitted by emit=planned like any other op: its
// region reads the constants the plan gives it, a duplicate of an earlier
// equal constant (%t, merged with %t0) included. Before, the emitter
// refused such programs ("op not planned yet"), then crashed on the
// duplicate. The emitted program
// computes what the original does and simulates to the PartIR:Core
// path's step time.
// RUN: toast-opt %s --toast-auto-partition="mesh=B=4,M=2 device=file:%S/Inputs/slow.json seed=1 rollouts=50 budget-s=0 progress=false emit=planned" --partir-simulate="device=file:%S/Inputs/slow.json json=%t.planned.json summary=false" -o %t.planned.mlir
// RUN: FileCheck %s < %t.planned.mlir
// RUN: toast-run --compare %s %t.planned.mlir | FileCheck %s --check-prefix=SAME
// RUN: toast-opt %s --toast-auto-partition="mesh=B=4,M=2 device=file:%S/Inputs/slow.json seed=1 rollouts=50 budget-s=0 progress=false" --partir-lower-to-hlo --partir-simulate="device=file:%S/Inputs/slow.json json=%t.core.json summary=false" -o /dev/null
// RUN: %python %S/Inputs/step_time_at_most.py %t.planned.json %t.core.json | FileCheck %s --check-prefix=EQUAL
// RUN: %python %S/Inputs/step_time_at_most.py %t.core.json %t.planned.json | FileCheck %s --check-prefix=EQUAL

// CHECK: func.func public @main(%{{.*}}: tensor<1x16xf32>
// CHECK-DAG: %[[T:.*]] = stablehlo.constant dense<true> : tensor<i1>
// CHECK-DAG: %[[F:.*]] = stablehlo.constant dense<false> : tensor<i1>
// CHECK-NOT: stablehlo.constant dense<true>
// CHECK: stablehlo.reduce(%{{.*}} init: %[[F]]) across dimensions = [1] : (tensor<1x32xi1>, tensor<i1>) -> tensor<1xi1>
// CHECK: stablehlo.select %{{.*}}, %[[T]], %[[F]] : tensor<i1>, tensor<i1>
// SAME: results agree
// EQUAL: : ok

module @reducer_captures {
  func.func public @main(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>) -> (tensor<8xf32>, tensor<8x32xf32>, tensor<i1>) {
    %t0 = stablehlo.constant dense<true> : tensor<i1>
    %t = stablehlo.constant dense<true> : tensor<i1>
    %f = stablehlo.constant dense<false> : tensor<i1>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %one = stablehlo.constant dense<1.0> : tensor<8xf32>
    %zeros = stablehlo.constant dense<0.0> : tensor<8xf32>
    %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %zb = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %c = stablehlo.compare GT, %y, %zb : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xi1>
    %r = stablehlo.reduce(%c init: %f) across dimensions = [1] : (tensor<8x32xi1>, tensor<i1>) -> tensor<8xi1>
     reducer(%a: tensor<i1>, %b: tensor<i1>) {
      %o = stablehlo.or %a, %b : tensor<i1>
      %s = stablehlo.select %o, %t, %f : tensor<i1>, tensor<i1>
      stablehlo.return %s : tensor<i1>
    }
    %out = stablehlo.select %r, %one, %zeros : tensor<8xi1>, tensor<8xf32>
    return %out, %y, %t0 : tensor<8xf32>, tensor<8x32xf32>, tensor<i1>
  }
}
