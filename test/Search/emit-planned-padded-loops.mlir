// --toast-emit-planned on padded states inside loops (the loop model's,
// docs/search.md "Padded states inside loops"): the emitted program
// computes what the original does and simulates to the step time of the
// PartIR:Core path's program.
//
// (1) A carried batch of 6 rows on 4 devices: the loop carries the padded
// local tile (2 rows).
// RUN: split-file %s %t
// RUN: toast-opt %t/carry.mlir --partir-manual-partition="name=BP axis=B inputs=arg0=0 mesh=B=4" --toast-emit-planned --partir-simulate="device=a100 json=%t/carry.json summary=false" -o %t/carry.planned.mlir
// RUN: FileCheck %s --check-prefix=CARRY < %t/carry.planned.mlir
// RUN: toast-run --compare %t/carry.mlir %t/carry.planned.mlir | FileCheck %s --check-prefix=SAME
// RUN: toast-opt %t/carry.mlir --partir-manual-partition="name=BP axis=B inputs=arg0=0 mesh=B=4" --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=a100 json=%t/carry.core.json summary=false" -o /dev/null
// RUN: %python %S/Inputs/step_time_at_most.py %t/carry.json %t/carry.core.json | FileCheck %s --check-prefix=EQUAL
// RUN: %python %S/Inputs/step_time_at_most.py %t/carry.core.json %t/carry.json | FileCheck %s --check-prefix=EQUAL
//
// (3) The same carry over two levels, the batch on B (padded) and the width
// on M, the weight carried too: the boundary makes the carry local level by
// level (a 2x8 tile), as it does the function's arguments.
// RUN: toast-opt %t/carry2.mlir --partir-manual-partition="name=BP axis=B inputs=arg0=0 mesh=B=4,M=2" --partir-manual-partition="name=MP axis=M inputs=arg0=1" --toast-emit-planned --partir-simulate="device=a100 json=%t/carry2.json summary=false" -o %t/carry2.planned.mlir
// RUN: FileCheck %s --check-prefix=CARRY2 < %t/carry2.planned.mlir
// RUN: toast-run --compare %t/carry2.mlir %t/carry2.planned.mlir | FileCheck %s --check-prefix=SAME
// RUN: toast-opt %t/carry2.mlir --partir-manual-partition="name=BP axis=B inputs=arg0=0 mesh=B=4,M=2" --partir-manual-partition="name=MP axis=M inputs=arg0=1" --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=a100 json=%t/carry2.core.json summary=false" -o %t/carry2.core.mlir
// RUN: FileCheck %s --check-prefix=CARRY2 < %t/carry2.core.mlir
// RUN: %python %S/Inputs/step_time_at_most.py %t/carry2.json %t/carry2.core.json | FileCheck %s --check-prefix=EQUAL
// RUN: %python %S/Inputs/step_time_at_most.py %t/carry2.core.json %t/carry2.json | FileCheck %s --check-prefix=EQUAL
//
// (2) A contraction over 6 on 4 devices inside the body: lowering masks
// both operands there, and canonicalization hoists the masks' validity
// vector and zero tiles to the entry; the body slices the validity, and
// the selects read the zero tiles from outside.
// RUN: toast-opt %t/masked.mlir --partir-manual-partition="name=MP axis=B inputs=arg1=0 mesh=B=4" --toast-emit-planned --partir-simulate="device=a100 json=%t/masked.json summary=false" -o %t/masked.planned.mlir
// RUN: FileCheck %s --check-prefix=MASKED < %t/masked.planned.mlir
// RUN: toast-run --compare %t/masked.mlir %t/masked.planned.mlir | FileCheck %s --check-prefix=SAME
// RUN: toast-opt %t/masked.mlir --partir-manual-partition="name=MP axis=B inputs=arg1=0 mesh=B=4" --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=a100 json=%t/masked.core.json summary=false" -o /dev/null
// RUN: %python %S/Inputs/step_time_at_most.py %t/masked.json %t/masked.core.json | FileCheck %s --check-prefix=EQUAL
// RUN: %python %S/Inputs/step_time_at_most.py %t/masked.core.json %t/masked.json | FileCheck %s --check-prefix=EQUAL

// SAME: results agree
// EQUAL: : ok
// CARRY: func.func @main(%arg0: tensor<2x16xf32> {partir.sharding = {{\[}}["B"], []], toast.global_shape = array<i64: 6, 16>}
// CARRY: stablehlo.while({{.*}}) : tensor<i32>, tensor<2x16xf32>
// CARRY2: stablehlo.while({{.*}}) : tensor<i32>, tensor<2x8xf32>, tensor<8x16xf32>
// CARRY2-NOT: all_slice
// CARRY2: return
// MASKED-DAG: %[[ZW:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<2x6xf32>
// MASKED-DAG: %[[ZH:.*]] = stablehlo.constant dense<0.000000e+00> : tensor<8x2xf32>
// MASKED-DAG: %[[VALID:.*]] = stablehlo.constant dense<[true, true, true, true, true, true, false, false]> : tensor<8xi1>
// MASKED: stablehlo.while
// MASKED: do {
// MASKED: partir_hlo.all_slice [{"B"}] %[[VALID]] : tensor<8xi1> -> tensor<2xi1>
// MASKED: stablehlo.select %{{.*}}, %{{.*}}, %[[ZH]] : tensor<8x2xi1>, tensor<8x2xf32>
// MASKED: partir_hlo.all_slice [{"B"}] %[[VALID]] : tensor<8xi1> -> tensor<2xi1>
// MASKED: stablehlo.select %{{.*}}, %{{.*}}, %[[ZW]] : tensor<2x6xi1>, tensor<2x6xf32>
// MASKED: stablehlo.dot_general
// MASKED: partir_hlo.all_reduce "sum" ["B"]

//--- carry.mlir
func.func @main(%x: tensor<6x16xf32>, %w: tensor<16x16xf32>) -> tensor<6x16xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, tensor<6x16xf32>
    cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %y = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] : (tensor<6x16xf32>, tensor<16x16xf32>) -> tensor<6x16xf32>
      %t = stablehlo.tanh %y : tensor<6x16xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next, %t : tensor<i32>, tensor<6x16xf32>
    }
  return %r#1 : tensor<6x16xf32>
}

//--- masked.mlir
func.func @main(%x: tensor<8x6xf32>, %w: tensor<6x6xf32>) -> tensor<8x6xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %h = %x, %v = %w) : tensor<i32>, tensor<8x6xf32>, tensor<6x6xf32>
    cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %y = stablehlo.dot_general %h, %v, contracting_dims = [1] x [0] : (tensor<8x6xf32>, tensor<6x6xf32>) -> tensor<8x6xf32>
      %t = stablehlo.tanh %y : tensor<8x6xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next, %t, %v : tensor<i32>, tensor<8x6xf32>, tensor<6x6xf32>
    }
  return %r#1 : tensor<8x6xf32>
}

//--- carry2.mlir
func.func @main(%x: tensor<6x16xf32>, %w: tensor<16x16xf32>) -> tensor<6x16xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %h = %x, %v = %w) : tensor<i32>, tensor<6x16xf32>, tensor<16x16xf32>
    cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %y = stablehlo.dot_general %h, %v, contracting_dims = [1] x [0] : (tensor<6x16xf32>, tensor<16x16xf32>) -> tensor<6x16xf32>
      %t = stablehlo.tanh %y : tensor<6x16xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next, %t, %v : tensor<i32>, tensor<6x16xf32>, tensor<16x16xf32>
    }
  return %r#1 : tensor<6x16xf32>
}
