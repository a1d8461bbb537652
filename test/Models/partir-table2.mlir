// PartIR Table 2 on the full-size T32 (289 parameter tensors), with the
// paper's schedules (appendix A.6) written by parameter name in
// Inputs/t32-*.json, on a batch=8 x model=4 mesh. Every T32 row except EMB
// matches the paper exactly (see docs/models.md).
//
// RUN: toast-models t32 --quiet -o %t.mlir
// RUN: toast-opt %t.mlir --partir-schedule="file=%S/Inputs/t32-mp.json" --partir-lower-to-hlo --partir-optimize-collectives | %python %S/Inputs/count_collectives.py | FileCheck %s --check-prefix=MP
// RUN: toast-opt %t.mlir --partir-schedule="file=%S/Inputs/t32-bp.json" --partir-lower-to-hlo --partir-optimize-collectives | %python %S/Inputs/count_collectives.py | FileCheck %s --check-prefix=BP
// RUN: toast-opt %t.mlir --partir-schedule="file=%S/Inputs/t32-bp-mp.json" --partir-lower-to-hlo --partir-optimize-collectives | %python %S/Inputs/count_collectives.py | FileCheck %s --check-prefix=BPMP
// RUN: toast-opt %t.mlir --partir-schedule="file=%S/Inputs/t32-bp-mp-z2.json" --partir-lower-to-hlo --partir-optimize-collectives | %python %S/Inputs/count_collectives.py | FileCheck %s --check-prefix=ZTWO
// RUN: toast-opt %t.mlir --partir-schedule="file=%S/Inputs/t32-bp-mp-z3.json" --partir-lower-to-hlo --partir-optimize-collectives | %python %S/Inputs/count_collectives.py | FileCheck %s --check-prefix=ZTHREE

// Megatron: 4 all-reduces per layer (2 forward, 2 backward).
// MP: AG=0 AR=128 RS=0 A2A=0

// Batch parallelism: one all-reduce per parameter gradient plus the loss
// (paper: 290). The tied embedding's two gradient contributions (input
// lookup and output projection) are summed before their one all-reduce
// (the reduction sinks through the transpose and the partial sums merge).
// BP: AG=0 AR=290 RS=0 A2A=0

// Both tactics (BP then MP): the Megatron all-reduces plus the gradient all-reduces (paper:
// 418). The gradients of Megatron-sharded weights are reduced over the batch
// before any gather, so the sharded optimizer update needs none.
// BPMP: AG=0 AR=418 RS=0 A2A=0

// ZeRO-2 and ZeRO-3 shard the optimizer state (and, for ZeRO-3, the
// parameters) of the embedding and the four matrices of every layer on the
// batch axis ("embeddings and four-parameter tensors per layer in this
// experiment", PartIR 7.3): 129 gradient all-reduces become
// reduce-scatters. ZeRO-2 gathers each updated parameter once; ZeRO-3
// gathers each parameter per reading op (forward and backward; the tied
// embedding is read three times), 2 x 128 + 3.
// ZTWO: AG=129 AR=289 RS=129 A2A=0
// ZTHREE: AG=259 AR=289 RS=129 A2A=0
