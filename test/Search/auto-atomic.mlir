// Values the start state keeps whole on an axis (`partir.atomic`: a
// schedule's atomic action, or the axes an imported closed sharding leaves
// unused) are never tiled on it by the automatic search: their NDA nodes
// do not take that axis (NdaEnvironment::Impl::findAtomicNodes). Before,
// the search put the axis on them anyway and materializing its answer
// failed ("setExplicitTiling: axis ... used twice or atomic"). Readers may
// still slice such a value; the results agree with the original.
// RUN: split-file %s %t
// RUN: toast-opt %toast_src_root/examples/mlp.mlir --partir-atomic="value=batch.x axis=B mesh=B=4,M=2" --toast-auto-partition="algorithm=exhaustive device=a100" -o %t/mlp-core.mlir 2>&1 | FileCheck %s --check-prefix=MLP
// RUN: FileCheck %s --check-prefix=MLP-CORE --input-file=%t/mlp-core.mlir
// RUN: toast-opt %t/mlp-core.mlir --partir-lower-to-hlo -o %t/mlp-hlo.mlir
// RUN: toast-run --compare %toast_src_root/examples/mlp.mlir %t/mlp-hlo.mlir --seed 1 | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/sub.mlir --partir-import-shardings --toast-auto-partition="algorithm=exhaustive device=a100" -o %t/sub-core.mlir 2>&1 | FileCheck %s --check-prefix=SUB
// RUN: toast-opt %t/sub-core.mlir --partir-lower-to-hlo -o %t/sub-hlo.mlir
// RUN: toast-run --compare %t/sub.mlir %t/sub-hlo.mlir --seed 3 | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/sub.mlir --partir-import-shardings --toast-auto-partition="algorithm=mcts device=a100 rollouts=40 budget-s=0 seed=2 emit=planned" -o %t/sub-planned.mlir
// RUN: toast-run --compare %t/sub.mlir %t/sub-planned.mlir --seed 3 | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t/sub.mlir --partir-import-shardings --toast-auto-partition="algorithm=random device=a100 rollouts=40 budget-s=0 seed=2" --partir-lower-to-hlo -o %t/sub-random.mlir
// RUN: toast-run --compare %t/sub.mlir %t/sub-random.mlir --seed 3 | FileCheck %s --check-prefix=AGREE

// AGREE: results agree

// The batch dims stay whole on B in x itself; its readers loop over B.
// MLP: exhaustive chose 3 actions
// MLP-NEXT: shard color 0 (batch.x[0]: 9 dims) on axis B
// MLP-CORE: partir.slice 1 %arg0[%arg3] : tensor<256x1024xf32> -> tensor<256x512xf32>
// MLP-CORE: partir.loop "B" [#partir.any]
// MLP-CORE-NEXT: partir.yield %0 : tensor<256x1024xf32>

// A shard_map over a sub-axis of "x" with closed shardings: the argument
// and the body's values are atomic on "x:(2)2" and "y".
// SUB: exhaustive chose
// SUB-NOT: error

//--- sub.mlir
module @sub attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["x"=4, "y"=2]>
  func.func public @main(%a: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {}]>}) -> (tensor<8x6xf32>) {
    %0 = stablehlo.add %a, %a : tensor<8x6xf32>
    %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"x":(1)2}, {}]>] out_shardings=[<@mesh, [{"x":(1)2}, {}]>] manual_axes={"x"} (%b: tensor<4x6xf32>) {
      %2 = stablehlo.tanh %b : tensor<4x6xf32>
      sdy.return %2 : tensor<4x6xf32>
    } : (tensor<8x6xf32>) -> tensor<8x6xf32>
    %3 = stablehlo.multiply %1, %0 : tensor<8x6xf32>
    return %3 : tensor<8x6xf32>
  }
}
