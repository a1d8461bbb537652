// Schedules select an op's result by its position: `#N` is the first
// result of op N of the entry function (ops numbered in pre-order, an op
// before the ops of its regions), `#N.R` its result R. A tiling of such an
// intermediate value decides its op's loop where propagation alone finds a
// conflict (as PartIR's tile action): tokens tiled by rows give the
// scores' two operands rows on B, so propagation leaves the dot whole;
// tiling the dot's result (#2) by rows makes it loop over its rows and
// gather the other operand. The result computes what the original does.
//
// RUN: toast-opt %s --partir-manual-partition="name=BP axis=B inputs=x=0 mesh=B=4" | FileCheck %s --check-prefix=CONFLICT
// RUN: toast-opt %s --partir-manual-partition="name=BP axis=B inputs=x=0;#2=0 mesh=B=4" | FileCheck %s --check-prefix=PINNED
// RUN: toast-opt %s --partir-manual-partition="name=BP axis=B inputs=x=0;#2.0=0 mesh=B=4" | FileCheck %s --check-prefix=PINNED
// RUN: toast-opt %s --partir-manual-partition="name=BP axis=B inputs=x=0;#2=0 mesh=B=4" --partir-materialize-core --partir-lower-to-hlo -o %t.mlir
// RUN: FileCheck %s --check-prefix=LOCAL < %t.mlir
// RUN: toast-run --compare %s %t.mlir | FileCheck %s --check-prefix=AGREE
// (An argument tiled explicitly another way still makes a conflict:
// control-flow.mlir, @conflict.)
//
// Bad selectors are located errors:
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=#9=0 mesh=B=4" 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=#2.1=0 mesh=B=4" 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=#two=0 mesh=B=4" 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not toast-opt %s --partir-manual-partition="name=BP axis=B inputs=#2.=0 mesh=B=4" 2>&1 | FileCheck %s --check-prefix=SYNTAX

// CONFLICT: stablehlo.exponential %arg0 {partir.loops = ["B:0"]}
// CONFLICT: stablehlo.negate %arg0 {partir.loops = ["B:0"]}
// CONFLICT: stablehlo.dot_general
// CONFLICT-NOT: partir.loops
// CONFLICT-SAME: -> tensor<16x16xf32>

// PINNED: stablehlo.dot_general {{.*}}partir.loops = ["B:0"]

// LOCAL: partir_hlo.all_gather
// LOCAL: stablehlo.dot_general {{.*}} -> tensor<4x16xf32>
// AGREE: results agree

// RANGE: error: tactic 'BP': selector '#9' is out of range (@main has 5 ops)
// RESULT: error: tactic 'BP': selector '#2.1' selects result 1 of 'stablehlo.dot_general', which has 1 result
// SYNTAX: error: tactic 'BP': selector '#{{.*}}' is not #N or #N.R (op N of @main in pre-order, its result R)

func.func @main(%x: tensor<16x8xf32> {partir.name = "x"},
                %y: tensor<16x16xf32> {partir.name = "y"}) -> tensor<16x16xf32> {
  %q = stablehlo.exponential %x : tensor<16x8xf32>
  %k = stablehlo.negate %x : tensor<16x8xf32>
  %s = stablehlo.dot_general %q, %k, contracting_dims = [1] x [1] : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x16xf32>
  %t = stablehlo.add %s, %y : tensor<16x16xf32>
  return %t : tensor<16x16xf32>
}
