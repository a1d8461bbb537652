// Ops no backend runs: a side-effect-free op whose result nothing reads (a
// JAX decode loop's body broadcasts `dense<true>` to a mask it never uses,
// once per layer). The canonicalizer erases them, and XLA's dead code
// elimination does, so the simulator skips them in every block it walks,
// and the analytic cost neither prices them nor hoists their constants.
// Before, an unpartitioned loop body was priced with its dead broadcast
// (the start state 2.3% slow here; the GPT-2 generate export 7.6e-6) and
// every state kept its dead `dense<true>` as a hoisted constant (1 byte).
// Deadness crosses region boundaries: a dead body op reading a value from
// outside the loop does not keep it alive (the top-level dot `%ax` read
// only there is dead too; before, 69% of the start state), and a dead
// reader fuses nothing (@fuse: its multiply was stored for a dead dot,
// 16.184 us instead of 8.092 us).
//
// The simulator: the program prices as if the dead lines were not there.
// RUN: toast-opt %s --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIM
// RUN: sed '/DEAD/d' %s | toast-opt --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIM
// SIM: step time      : 115.970 ns
// SIM: peak memory    : 52.01 KiB (53256 B)
//
// The analytic cost prices every state of a search exactly as lowering and
// simulating it does (TOAST_CHECK_ANALYTIC prints every state that differs).
// Partitioning erases them first, as lowering would (the dead dot, the
// negate, the mask and its constant, the multiply), so the search and
// every pricing see the program without them.
// RUN: env TOAST_CHECK_ANALYTIC=1e-12 toast-opt %s --toast-auto-partition="mesh=B=4,M=2 device=a100 seed=1 rollouts=60 budget-s=0 threads=1 materialize=false" -o %t.state.mlir 2>&1 | FileCheck %s --check-prefix=EXACT --implicit-check-not=check-analytic
// RUN: FileCheck %s --check-prefix=STATE --input-file=%t.state.mlir --implicit-check-not=stablehlo.negate --implicit-check-not=stablehlo.multiply --implicit-check-not='dense<true>'
// EXACT: remark: erased 5 ops of @main whose results nothing reads
// EXACT: mcts chose {{[0-9]+}} actions
// STATE: stablehlo.while
//
// The planned program shows none of them either (they were copied into it
// before, though never priced), and computes what the input computes.
// RUN: toast-opt %s --toast-auto-partition="mesh=B=4,M=2 device=a100 seed=1 rollouts=60 budget-s=0 threads=1 emit=planned progress=false" -o %t.planned.mlir
// RUN: FileCheck %s --check-prefix=PLANNED --input-file=%t.planned.mlir --implicit-check-not=stablehlo.negate --implicit-check-not=stablehlo.multiply --implicit-check-not='dense<true>' 
// RUN: toast-run --compare %s %t.planned.mlir | FileCheck %s --check-prefix=AGREE
// PLANNED: stablehlo.while
// AGREE: results agree
func.func @main(%x: tensor<32x16xf32>, %w1: tensor<4x16x64xf32>,
                %w2: tensor<4x64x16xf32>) -> tensor<32x16xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %ax = stablehlo.dot_general %x, %x, contracting_dims = [1] x [1] : (tensor<32x16xf32>, tensor<32x16xf32>) -> tensor<32x32xf32> // DEAD
  %r:4 = stablehlo.while(%i = %c0, %h = %x, %a = %w1, %b = %w2) : tensor<i32>, tensor<32x16xf32>, tensor<4x16x64xf32>, tensor<4x64x16xf32>
   cond {
    %n = stablehlo.constant dense<4> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %s1 = stablehlo.dynamic_slice %a, %i, %z, %z, sizes = [1, 16, 64] : (tensor<4x16x64xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x16x64xf32>
    %m1 = stablehlo.reshape %s1 : (tensor<1x16x64xf32>) -> tensor<16x64xf32>
    %u = stablehlo.dot_general %h, %m1, contracting_dims = [1] x [0] : (tensor<32x16xf32>, tensor<16x64xf32>) -> tensor<32x64xf32>
    %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %zeros = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %relu = stablehlo.maximum %u, %zeros : tensor<32x64xf32>
    %s2 = stablehlo.dynamic_slice %b, %i, %z, %z, sizes = [1, 64, 16] : (tensor<4x64x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x64x16xf32>
    %m2 = stablehlo.reshape %s2 : (tensor<1x64x16xf32>) -> tensor<64x16xf32>
    %y = stablehlo.dot_general %relu, %m2, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x16xf32>) -> tensor<32x16xf32>
    %dx = stablehlo.negate %ax : tensor<32x32xf32> // DEAD
    %t = stablehlo.constant dense<true> : tensor<i1> // DEAD
    %mask = stablehlo.broadcast_in_dim %t, dims = [] : (tensor<i1>) -> tensor<1x1024xi1> // DEAD
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %next, %y, %a, %b : tensor<i32>, tensor<32x16xf32>, tensor<4x16x64xf32>, tensor<4x64x16xf32>
  }
  %unused = stablehlo.multiply %r#1, %r#1 : tensor<32x16xf32> // DEAD
  return %r#1 : tensor<32x16xf32>
}
