// Vocabulary sharding of a transformer whose vocabulary the mesh does not
// divide (issue 18): a tiny t2b with a vocabulary of 31 on M=2 (16 rows per
// device, one of padding on the last). The embedding table (tied with the
// logits projection) and its optimizer state sharded on the vocabulary by a
// manual tactic, then the search continues from that state; the result
// computes what the original computes, after the search and after
// lowering. On this program the search alone does not pick vocabulary
// sharding: it does not pay under the cost model (docs/performance.md).
//
// RUN: toast-models t2b --layers 1 --batch 2 --seq 4 --d-model 8 --heads 2 --key-size 4 --vocab 31 --hidden 16 --quiet -o %t.t2b.mlir
// RUN: toast-opt %t.t2b.mlir --partir-manual-partition="name=V axis=M inputs=re:.*embedder.embedding=0 mesh=B=2,M=2" --toast-auto-partition="mesh=B=2,M=2 device=file:%S/Inputs/slow.json rollouts=100 budget-s=0 threads=1 min-dims=2 progress=false" -o %t.auto.mlir
// RUN: FileCheck %s --check-prefix=CORE < %t.auto.mlir
// RUN: toast-run --compare %t.t2b.mlir %t.auto.mlir --seed 3 | FileCheck %s
// RUN: toast-opt %t.auto.mlir --partir-lower-to-hlo -o %t.hlo.mlir
// RUN: FileCheck %s --check-prefix=HLO < %t.hlo.mlir
// RUN: toast-run --compare %t.t2b.mlir %t.hlo.mlir --seed 3 | FileCheck %s

// CORE: partir.slice 0 %arg0[%{{.*}} : !partir.range<2>] : tensor<31x8xf32> -> tensor<16x8xf32>
// HLO: func.func @main(%arg0: tensor<16x8xf32> {{.*}}partir.sharding = {{\[\[}}"M"], []]{{.*}}toast.global_shape = array<i64: 31, 8>
// CHECK: results agree
