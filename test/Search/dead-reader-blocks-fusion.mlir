// A reader that never runs still keeps its value's loop from fusing.
// materializeCore's fuser fuses a loop into its reader's slice only when
// the loop has one use, and it counts every use in the IR: the dead
// exponentials below (erased later by the optimizer's greedy driver) keep
// %t1's and %t2's loops out of %s's. The planner left dead readers out
// (ProgramModel drops their uses) and fused both chains into %s, highest
// operand first, so it ran %d2's chain before %d1's: the 40x1000 temporary
// of %d1 then met %t2 and the planned peak was 4000 B above lowering's
// (on corpus kan1, {B:4, M:2}, a state 2.0% low on peak).
//
// RUN: toast-opt %s --toast-emit-planned="device=a100" --partir-simulate="device=a100 summary=true" -o %t.planned.mlir 2>&1 | FileCheck %s --check-prefix=PLANNED
// RUN: toast-opt %s --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CORE
// RUN: FileCheck %s --check-prefix=ORDER < %t.planned.mlir
// RUN: toast-run --compare %s %t.planned.mlir | FileCheck %s --check-prefix=AGREE
// PLANNED: peak memory    : 482.34 KiB (493920 B)
// CORE: peak memory    : 482.34 KiB (493920 B)
// ORDER: stablehlo.dot_general %arg0, %arg1
// ORDER: stablehlo.dot_general %arg3, %arg4
// AGREE: results agree

module attributes {partir.mesh = #partir.mesh<["B"=4]>} {
  func.func @main(%w1: tensor<40x8xf32>, %x: tensor<8x1000xf32>, %v: tensor<1000x100xf32>, %w2: tensor<40x40xf32>, %y: tensor<40x100xf32>) -> tensor<40x100xf32> {
    %d1 = stablehlo.dot_general %w1, %x, contracting_dims = [1] x [0] {partir.loops = ["B:0"]} : (tensor<40x8xf32>, tensor<8x1000xf32>) -> tensor<40x1000xf32>
    %r1 = stablehlo.dot_general %d1, %v, contracting_dims = [1] x [0] {partir.loops = ["B:0"]} : (tensor<40x1000xf32>, tensor<1000x100xf32>) -> tensor<40x100xf32>
    %d2 = stablehlo.dot_general %w2, %y, contracting_dims = [1] x [0] {partir.loops = ["B:0"]} : (tensor<40x40xf32>, tensor<40x100xf32>) -> tensor<40x100xf32>
    %t1 = stablehlo.negate %r1 {partir.loops = ["B:0"]} : tensor<40x100xf32>
    %t2 = stablehlo.negate %d2 {partir.loops = ["B:0"]} : tensor<40x100xf32>
    %s = stablehlo.add %t1, %t2 {partir.loops = ["B:0"]} : tensor<40x100xf32>
    %e1 = stablehlo.exponential %t1 {partir.loops = ["B:0"]} : tensor<40x100xf32>
    %e2 = stablehlo.exponential %t2 {partir.loops = ["B:0"]} : tensor<40x100xf32>
    return %s : tensor<40x100xf32>
  }
}
