// The search shards dimensions the mesh does not divide by padding them
// (pad=true, the default) (docs/dialects.md): an MLP whose sizes 12 and 20 do not divide 8 was left
// unpartitioned; now the hidden width is sharded (3 columns per device, the
// last devices holding padding) and the program still computes what the
// original computes, in PartIR:Core and after lowering.
//
// RUN: toast-models mlp --batch 12 --d-model 12 --hidden 20 --quiet -o %t.mlp.mlir
// RUN: toast-opt %t.mlp.mlir --toast-auto-partition="mesh=B=8 device=file:%S/Inputs/slow.json rollouts=300 budget-s=0 threads=1 min-dims=2 report=true progress=false" -o %t.auto.mlir 2>&1 | FileCheck %s --check-prefix=CHOSE
// RUN: FileCheck %s --check-prefix=CORE < %t.auto.mlir
// RUN: toast-run --compare %t.mlp.mlir %t.auto.mlir --seed 3 | FileCheck %s
// RUN: toast-opt %t.auto.mlir --partir-lower-to-hlo -o %t.hlo.mlir
// RUN: toast-run --compare %t.mlp.mlir %t.hlo.mlir --seed 3 | FileCheck %s

// CHOSE: remark: auto-partition chose 1 actions; shard color {{[0-9]+}} (params.layer_0.w[1]: {{[0-9]+}} dims) on axis B
// CORE: partir.slice 1 %{{.*}}[%{{.*}} : !partir.range<8>] : tensor<12x20xf32> -> tensor<12x3xf32>
// CHECK: results agree

// With pad=false, the search leaves such dimensions alone.
// RUN: toast-opt %t.mlp.mlir --toast-auto-partition="mesh=B=8 device=file:%S/Inputs/slow.json rollouts=300 budget-s=0 threads=1 min-dims=2 pad=false report=true progress=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPAD
// NOPAD: remark: auto-partition chose 0 actions
