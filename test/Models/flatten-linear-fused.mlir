// The PyTorch-way twin (--flatten-linear) contracts each fused attention
// weight (kv_einsum in t2b, qkv_einsum in t7b) in one linear layer and
// splits its output, as the batched twin contracts the whole weight once.
// Under batch and Megatron sharding in bf16 it then has the batched twin's
// collectives plus one all_reduce per layer: the gradients of the MLP's gate
// and up weights, two linear layers on the contiguous halves of dense_up
// (fusing them would transpose the whole weight every step). Before, the
// flattened twin sliced every fused weight into one linear layer per part:
// AR=21 under BP for both presets (here 19 and 17; batched 17 and 15).
// Both twins compute the same step, and the flattened one partitioned
// computes what it computes.
//
// RUN: toast-models t2b --dtype bf16 --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet -o %t.b2.mlir
// RUN: toast-models t2b --dtype bf16 --flatten-linear --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet -o %t.f2.mlir
// RUN: toast-opt %t.b2.mlir --partir-schedule=file=%S/Inputs/flatten-bp.json --partir-lower-to-hlo | %python %S/Inputs/count_collectives.py | FileCheck %s --check-prefix=T2B-BP
// RUN: toast-opt %t.f2.mlir --partir-schedule=file=%S/Inputs/flatten-bp.json --partir-lower-to-hlo | %python %S/Inputs/count_collectives.py | FileCheck %s --check-prefix=T2B-BP-FLAT
// RUN: toast-opt %t.b2.mlir --partir-schedule=file=%S/Inputs/flatten-t2b-bp-mp.json --partir-lower-to-hlo | %python %S/Inputs/count_collectives.py | FileCheck %s --check-prefix=T2B-MP
// RUN: toast-opt %t.f2.mlir --partir-schedule=file=%S/Inputs/flatten-t2b-bp-mp.json --partir-lower-to-hlo | %python %S/Inputs/count_collectives.py | FileCheck %s --check-prefix=T2B-MP-FLAT
//
// RUN: toast-models t7b --dtype bf16 --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet -o %t.b7.mlir
// RUN: toast-models t7b --dtype bf16 --flatten-linear --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet -o %t.f7.mlir
// RUN: toast-opt %t.b7.mlir --partir-schedule=file=%S/Inputs/flatten-bp.json --partir-lower-to-hlo | %python %S/Inputs/count_collectives.py | FileCheck %s --check-prefix=T7B-BP
// RUN: toast-opt %t.f7.mlir --partir-schedule=file=%S/Inputs/flatten-bp.json --partir-lower-to-hlo | %python %S/Inputs/count_collectives.py | FileCheck %s --check-prefix=T7B-BP-FLAT
// RUN: toast-opt %t.b7.mlir --partir-schedule=file=%S/Inputs/flatten-t7b-bp-mp.json --partir-lower-to-hlo | %python %S/Inputs/count_collectives.py | FileCheck %s --check-prefix=T7B-MP
// RUN: toast-opt %t.f7.mlir --partir-schedule=file=%S/Inputs/flatten-t7b-bp-mp.json --partir-lower-to-hlo | %python %S/Inputs/count_collectives.py | FileCheck %s --check-prefix=T7B-MP-FLAT
//
// One linear layer for the q/k/v weight [3, H, D, K] as [D, H*3*K] (heads
// major, so that head sharding is a block of its columns); gate and up
// read the two halves of [2, D, F].
// RUN: FileCheck %s --check-prefix=FUSED < %t.f7.mlir
//
// Same step in f32 (the twins agree exactly; the partitioned bf16 steps
// differ from the unpartitioned ones by bf16 rounding in the all_reduces).
// RUN: toast-models t7b --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet -o %t.b7f.mlir
// RUN: toast-models t7b --flatten-linear --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet -o %t.f7f.mlir
// RUN: toast-run --compare %t.b7f.mlir %t.f7f.mlir | FileCheck %s --check-prefix=AGREE
// RUN: toast-opt %t.f7f.mlir --partir-schedule=file=%S/Inputs/flatten-t7b-bp-mp.json --partir-lower-to-hlo -o %t.f7f.mp.mlir
// RUN: toast-run --compare %t.f7f.mlir %t.f7f.mp.mlir | FileCheck %s --check-prefix=AGREE
// RUN: toast-models t2b --flatten-linear --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet -o %t.f2f.mlir
// RUN: toast-opt %t.f2f.mlir --partir-schedule=file=%S/Inputs/flatten-t2b-bp-mp.json --partir-lower-to-hlo -o %t.f2f.mp.mlir
// RUN: toast-run --compare %t.f2f.mlir %t.f2f.mp.mlir | FileCheck %s --check-prefix=AGREE

// T2B-BP: AG=2 AR=17 RS=0 A2A=0
// T2B-BP-FLAT: AG=2 AR=19 RS=0 A2A=0
// T2B-MP: AG=4 AR=33 RS=0 A2A=0
// T2B-MP-FLAT: AG=4 AR=35 RS=0 A2A=0
// T7B-BP: AG=2 AR=15 RS=0 A2A=0
// T7B-BP-FLAT: AG=2 AR=17 RS=0 A2A=0
// T7B-MP: AG=4 AR=27 RS=0 A2A=0
// T7B-MP-FLAT: AG=4 AR=29 RS=0 A2A=0
// FUSED: stablehlo.transpose {{.*}} : (tensor<3x4x16x4xbf16>) -> tensor<16x4x3x4xbf16>
// FUSED: stablehlo.reshape {{.*}} : (tensor<16x4x3x4xbf16>) -> tensor<16x48xbf16>
// FUSED: stablehlo.slice {{.*}} [0:1, 0:16, 0:24] : (tensor<2x16x24xbf16>) -> tensor<1x16x24xbf16>
// FUSED: stablehlo.slice {{.*}} [1:2, 0:16, 0:24] : (tensor<2x16x24xbf16>) -> tensor<1x16x24xbf16>
// AGREE: results agree
