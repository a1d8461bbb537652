// emit=planned falls back to PartIR:Core and lowering, with a remark that
// says why, whenever the planned emitter cannot build the winner (before,
// the pass failed): here a reducer in a loop body that reads a value
// computed outside the loop. A shard_map in a called function is inlined
// first (the sdy dialect is inlinable): before, the call stayed, the
// analytic cost priced it as free (start 6.88 us where the program
// simulates to 10.09 us, winner 6.3 us lowering to 12.4 us) and the
// emitter left the region in the device-local program.
// RUN: split-file %s %t
// RUN: toast-opt %t/reducer.mlir --toast-auto-partition="mesh=B=4 device=a100 seed=1 min-dims=1 rollouts=30 budget-s=0 emit=planned progress=false" -o %t/reducer-out.mlir 2>&1 | FileCheck %s --check-prefix=REDUCER
// RUN: toast-run --compare %t/reducer.mlir %t/reducer-out.mlir | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/callee.mlir --toast-auto-partition="mesh=a=2,b=2 device=a100 rollouts=30 budget-s=0 seed=1 emit=planned" --partir-simulate="device=a100 summary=true" -o %t/callee-out.mlir 2>&1 | FileCheck %s --check-prefix=CALLEE
// RUN: toast-run --compare %t/callee.mlir %t/callee-out.mlir | FileCheck %s --check-prefix=AGREE

// REDUCER: remark: emit=planned: the emitter cannot build this strategy (planned program: an op's region reads a value the plan does not give it); emitted through PartIR:Core and lowering
// CALLEE: remark: inlined 1 call into @main
// CALLEE: start cost 1 (10.431 us step
// CALLEE: mcts chose 1 actions {{.*}} (6.652 us step
// CALLEE: remark: emit=planned: the program has shard_map regions
// CALLEE: step time      : 6.652 us
// AGREE: results agree

//--- reducer.mlir
func.func @main(%x: tensor<16x8xf32>, %w: tensor<8x8xf32>, %t: tensor<f32>) -> tensor<16x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %s = stablehlo.multiply %t, %one : tensor<f32>
  %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, tensor<16x8xf32>
   cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %y = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] : (tensor<16x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
    %z = stablehlo.constant dense<0.0> : tensor<f32>
    %m = stablehlo.reduce(%y init: %z) across dimensions = [1] : (tensor<16x8xf32>, tensor<f32>) -> tensor<16xf32>
     reducer(%a: tensor<f32>, %b: tensor<f32>) {
      %q = stablehlo.add %a, %b : tensor<f32>
      %q2 = stablehlo.multiply %q, %s : tensor<f32>
      stablehlo.return %q2 : tensor<f32>
    }
    %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<16xf32>) -> tensor<16x8xf32>
    %o = stablehlo.add %y, %mb : tensor<16x8xf32>
    %t2 = stablehlo.tanh %o : tensor<16x8xf32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %c1 : tensor<i32>
    stablehlo.return %next, %t2 : tensor<i32>, tensor<16x8xf32>
  }
  return %r#1 : tensor<16x8xf32>
}

//--- callee.mlir
module {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @main(%x: tensor<256x512xf32>, %w: tensor<512x512xf32>) -> tensor<256x512xf32> {
    %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<256x512xf32>, tensor<512x512xf32>) -> tensor<256x512xf32>
    %0 = func.call @stage(%h) : (tensor<256x512xf32>) -> tensor<256x512xf32>
    return %0 : tensor<256x512xf32>
  }
  func.func private @stage(%h: tensor<256x512xf32>) -> tensor<256x512xf32> {
    %0 = sdy.manual_computation(%h) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%l: tensor<128x512xf32>) {
      %p = "stablehlo.collective_permute"(%l) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 2], [2, 0], [1, 3], [3, 1]]> : tensor<4x2xi64>}> : (tensor<128x512xf32>) -> tensor<128x512xf32>
      %e = stablehlo.exponential %p : tensor<128x512xf32>
      sdy.return %e : tensor<128x512xf32>
    } : (tensor<256x512xf32>) -> tensor<256x512xf32>
    return %0 : tensor<256x512xf32>
  }
}
