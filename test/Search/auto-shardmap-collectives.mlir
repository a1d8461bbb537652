// A shard_map body's own collectives (here a collective_permute, as JAX
// pipelines write them) are part of every state's price: the analytic
// cost of a state that leaves the region whole counts them as the
// simulator does (before, it dropped them: the start state was priced at
// 7.22 us of compute where the program simulates to 10.09 us, so states
// priced by the reference path, which lowers and simulates them, looked
// worse than they are). The region passes per-device values in and out,
// so every state is priced by the reference path: the start at what its
// lowered program simulates to (10.43 us: the global program's 10.09 us
// and the all_gather of the region's per-device result before the return),
// the winner at its lowered program's simulation, and the partitioned
// program computes what the original does.
// RUN: toast-opt %s --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIM
// RUN: toast-opt %s --toast-auto-partition="mesh=a=2,b=2 device=a100 rollouts=100 budget-s=0 seed=1 threads=1" --partir-lower-to-hlo --partir-simulate="device=a100 summary=true" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: toast-run --compare %s %t.mlir | FileCheck %s --check-prefix=AGREE
//
// emit=planned does not build shard_map regions (isolated from above,
// inlined by lowering): the winner goes through PartIR:Core and lowering
// with a remark, and --toast-emit-planned says why it cannot.
// RUN: toast-opt %s --toast-auto-partition="mesh=a=2,b=2 device=a100 rollouts=100 budget-s=0 seed=1 threads=1 progress=false emit=planned" --partir-simulate="device=a100 summary=true" -o %t.planned.mlir 2>&1 | FileCheck %s --check-prefix=PLANNED
// RUN: toast-run --compare %s %t.planned.mlir | FileCheck %s --check-prefix=AGREE
// RUN: not toast-opt %s --toast-auto-partition="mesh=a=2,b=2 device=a100 rollouts=100 budget-s=0 seed=1 threads=1 progress=false materialize=false" --toast-emit-planned=device=a100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOEMIT

// SIM: step time      : 10.094 us (compute 7.220 us, communication 2.874 us)
// SIM: collective_permute=1
// AUTO: start cost 1 (10.431 us step
// AUTO: mcts chose 1 actions {{.*}}: cost {{.*}} (6.652 us step
// AUTO: step time      : 6.652 us (compute 3.779 us, communication 2.874 us)
// AUTO: collective_permute=1
// AGREE: results agree
// PLANNED: remark: emit=planned: the program has shard_map regions, which the emitter does not build; emitted through PartIR:Core and lowering
// PLANNED: step time      : 6.652 us (compute 3.779 us, communication 2.874 us)
// NOEMIT: error: planned program: the emitter does not build shard_map regions (sdy.manual_computation); lower with --partir-materialize-core --partir-lower-to-hlo

module {
  sdy.mesh @mesh = <["a"=2, "b"=2]>
  func.func @main(%x: tensor<256x512xf32>, %w: tensor<512x512xf32>) -> tensor<256x512xf32> {
    %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<256x512xf32>, tensor<512x512xf32>) -> tensor<256x512xf32>
    %0 = sdy.manual_computation(%h) in_shardings=[<@mesh, [{"a"}, {}]>] out_shardings=[<@mesh, [{"a"}, {}]>] manual_axes={"a"} (%l: tensor<128x512xf32>) {
      %p = "stablehlo.collective_permute"(%l) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, source_target_pairs = dense<[[0, 2], [2, 0], [1, 3], [3, 1]]> : tensor<4x2xi64>}> : (tensor<128x512xf32>) -> tensor<128x512xf32>
      %e = stablehlo.exponential %p : tensor<128x512xf32>
      sdy.return %e : tensor<128x512xf32>
    } : (tensor<256x512xf32>) -> tensor<256x512xf32>
    return %0 : tensor<256x512xf32>
  }
}
