// --toast-auto-partition="emit=planned": the strategy found becomes the
// device-local PartIR:HLO the search priced, built from its plan
// (design.md section 6), in one pass: it computes what the original
// computes and simulates to the step time of the PartIR:Core path's
// program, a padded one too (a batch of 6 rows on 4 devices inside a
// scanned loop). A winner the planner leaves to the reference path (here a
// lax.cond MLP whose branches read a captured value sliced) is
// materialized and lowered as that path does, with a remark: the output is
// device-local either way. Bad values are errors.
// RUN: split-file %s %t
// RUN: toast-models t2b --scan --layers 2 --batch 8 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 32 --quiet -o %t/t2b.mlir
// RUN: toast-opt %t/t2b.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/Inputs/slow.json seed=1 rollouts=300 budget-s=0 progress=false emit=planned" --partir-simulate="device=file:%S/Inputs/slow.json json=%t/planned.json summary=false" -o %t/planned.mlir
// RUN: toast-run --compare %t/t2b.mlir %t/planned.mlir --seed 5 | FileCheck %s --check-prefix=SAME
// RUN: toast-opt %t/t2b.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/Inputs/slow.json seed=1 rollouts=300 budget-s=0 progress=false" --partir-lower-to-hlo --partir-simulate="device=file:%S/Inputs/slow.json json=%t/core.json summary=false" -o /dev/null
// RUN: %python %S/Inputs/step_time_at_most.py %t/planned.json %t/core.json | FileCheck %s --check-prefix=EQUAL
// RUN: %python %S/Inputs/step_time_at_most.py %t/core.json %t/planned.json | FileCheck %s --check-prefix=EQUAL
//
// RUN: toast-opt %t/padded.mlir --toast-auto-partition="mesh=B=4 device=a100 seed=1 rollouts=50 budget-s=0 progress=false emit=planned" --partir-simulate="device=a100 json=%t/padded.json summary=false" -o %t/padded.out.mlir 2>&1 | FileCheck %s --check-prefix=PLANNED --allow-empty
// RUN: FileCheck %s --check-prefix=LOCAL < %t/padded.out.mlir
// RUN: toast-run --compare %t/padded.mlir %t/padded.out.mlir | FileCheck %s --check-prefix=SAME
// RUN: toast-opt %t/padded.mlir --toast-auto-partition="mesh=B=4 device=a100 seed=1 rollouts=50 budget-s=0 progress=false" --partir-lower-to-hlo --partir-simulate="device=a100 json=%t/padded.core.json summary=false" -o /dev/null
// RUN: %python %S/Inputs/step_time_at_most.py %t/padded.json %t/padded.core.json | FileCheck %s --check-prefix=EQUAL
// RUN: %python %S/Inputs/step_time_at_most.py %t/padded.core.json %t/padded.json | FileCheck %s --check-prefix=EQUAL
//
// RUN: toast-opt %t/cond.mlir --toast-auto-partition="mesh=B=4 device=a100 seed=1 rollouts=50 budget-s=0 progress=false emit=planned" -o %t/cond.out.mlir 2>&1 | FileCheck %s --check-prefix=FALLBACK
// RUN: FileCheck %s --check-prefix=CONDLOCAL < %t/cond.out.mlir
// RUN: toast-run --compare %t/cond.mlir %t/cond.out.mlir | FileCheck %s --check-prefix=SAME
//
// RUN: not toast-opt %t/padded.mlir --toast-auto-partition="mesh=B=4 emit=bogus" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BOGUS
// RUN: not toast-opt %t/padded.mlir --toast-auto-partition="mesh=B=4 emit=planned materialize=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOMAT

// SAME: results agree
// EQUAL: : ok
// PLANNED-NOT: remark
// FALLBACK: remark: emit=planned: the strategy found is priced by the reference path; emitted through PartIR:Core and lowering
// LOCAL: func.func public @main(%arg0: tensor<2x16xf32>
// LOCAL-NOT: partir.loop
// CONDLOCAL: func.func public @main(%arg0: tensor<8x16xf32>
// CONDLOCAL-NOT: partir.loop
// BOGUS: error: --toast-auto-partition: unknown emit 'bogus' (expected core or planned)
// NOMAT: error: --toast-auto-partition: emit=planned builds the partitioned program; it does not go with materialize=false

//--- padded.mlir
module @scan_mlp_padded {
  func.func public @main(%x: tensor<6x16xf32> {jax.arg_info = "batch.x"},
                         %w1: tensor<4x16x64xf32> {jax.arg_info = "params.layers.w1"},
                         %w2: tensor<4x64x16xf32> {jax.arg_info = "params.layers.w2"})
      -> (tensor<6x16xf32> {jax.result_info = "result"}) {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:4 = stablehlo.while(%i = %c0, %h = %x, %a = %w1, %b = %w2) : tensor<i32>, tensor<6x16xf32>, tensor<4x16x64xf32>, tensor<4x64x16xf32>
     cond {
      %n = stablehlo.constant dense<4> : tensor<i32>
      %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %s1 = stablehlo.dynamic_slice %a, %i, %z, %z, sizes = [1, 16, 64] : (tensor<4x16x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x64xf32>
      %m1 = stablehlo.reshape %s1 : (tensor<1x16x64xf32>) -> tensor<16x64xf32>
      %u = stablehlo.dot_general %h, %m1, contracting_dims = [1] x [0] : (tensor<6x16xf32>, tensor<16x64xf32>) -> tensor<6x64xf32>
      %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %zeros = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<6x64xf32>
      %relu = stablehlo.maximum %u, %zeros : tensor<6x64xf32>
      %s2 = stablehlo.dynamic_slice %b, %i, %z, %z, sizes = [1, 64, 16] : (tensor<4x64x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x16xf32>
      %m2 = stablehlo.reshape %s2 : (tensor<1x64x16xf32>) -> tensor<64x16xf32>
      %y = stablehlo.dot_general %relu, %m2, contracting_dims = [1] x [0] : (tensor<6x64xf32>, tensor<64x16xf32>) -> tensor<6x16xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %next, %y, %a, %b : tensor<i32>, tensor<6x16xf32>, tensor<4x16x64xf32>, tensor<4x64x16xf32>
    }
    return %r#1 : tensor<6x16xf32>
  }
}

//--- cond.mlir
module @cond_mlp {
  func.func public @main(%x: tensor<32x16xf32> {jax.arg_info = "batch.x"},
                         %w1: tensor<16x64xf32> {jax.arg_info = "params.w1"},
                         %w2: tensor<16x64xf32> {jax.arg_info = "params.w2"},
                         %w3: tensor<64x16xf32> {jax.arg_info = "params.w3"},
                         %p: tensor<i1> {jax.arg_info = "flag"})
      -> (tensor<32x16xf32> {jax.result_info = "result"}) {
    %k = stablehlo.convert %p : (tensor<i1>) -> tensor<i32>
    %h = "stablehlo.case"(%k) ({
      %a = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
      %t = stablehlo.tanh %a : tensor<32x64xf32>
      stablehlo.return %t : tensor<32x64xf32>
    }, {
      %b = stablehlo.dot_general %x, %w2, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
      %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %zeros = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
      %r = stablehlo.maximum %b, %zeros : tensor<32x64xf32>
      stablehlo.return %r : tensor<32x64xf32>
    }) : (tensor<i32>) -> tensor<32x64xf32>
    %y = stablehlo.dot_general %h, %w3, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x16xf32>) -> tensor<32x16xf32>
    %s = "stablehlo.if"(%p) ({
      %n = stablehlo.negate %y : tensor<32x16xf32>
      stablehlo.return %n : tensor<32x16xf32>
    }, {
      stablehlo.return %y : tensor<32x16xf32>
    }) : (tensor<i1>) -> tensor<32x16xf32>
    return %s : tensor<32x16xf32>
  }
}
