// SPMD differential tests of tiny toast-models models (docs/models.md) on
// the mesh {batch:2, model:2}: each partitioned training step (or, for
// itx, prefill and decode) is lowered to PartIR:HLO with collective
// optimization and exported to StableHLO, both run on 4 simulated devices
// and compared with the original on the same random inputs.
// Schedules (Inputs/tiny-*.json): BP splits the batch inputs; MP is the
// Megatron split of the transformer (t32-mp.json of test/Models) and of the
// MLP's two matrices; Z3 additionally shards the parameters and optimizer
// state over the other axis (first divisible dimension). The GNS batch has
// a size-1 global feature, so its BP splits the node and edge inputs only.
//
// RUN: toast-models t32 --layers 1 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet -o %t.t32.mlir
// RUN: toast-opt %t.t32.mlir --partir-schedule=file=%S/Inputs/tiny-bp.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.t32.tiny-bp.hlo.mlir
// RUN: toast-run --compare %t.t32.mlir %t.t32.tiny-bp.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.t32.tiny-bp.hlo.mlir --partir-export-stablehlo -o %t.t32.tiny-bp.exp.mlir
// RUN: toast-run --compare %t.t32.mlir %t.t32.tiny-bp.exp.mlir | FileCheck %s
// RUN: toast-opt %t.t32.mlir --partir-schedule=file=%S/Inputs/tiny-t32-mp.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.t32.tiny-t32-mp.hlo.mlir
// RUN: toast-run --compare %t.t32.mlir %t.t32.tiny-t32-mp.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.t32.tiny-t32-mp.hlo.mlir --partir-export-stablehlo -o %t.t32.tiny-t32-mp.exp.mlir
// RUN: toast-run --compare %t.t32.mlir %t.t32.tiny-t32-mp.exp.mlir | FileCheck %s
// RUN: toast-opt %t.t32.mlir --partir-schedule=file=%S/Inputs/tiny-t32-bp-mp-z3.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.t32.tiny-t32-bp-mp-z3.hlo.mlir
// RUN: toast-run --compare %t.t32.mlir %t.t32.tiny-t32-bp-mp-z3.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.t32.tiny-t32-bp-mp-z3.hlo.mlir --partir-export-stablehlo -o %t.t32.tiny-t32-bp-mp-z3.exp.mlir
// RUN: toast-run --compare %t.t32.mlir %t.t32.tiny-t32-bp-mp-z3.exp.mlir | FileCheck %s
//
// RUN: toast-models mlp --batch 4 --d-model 8 --hidden 16 --quiet -o %t.mlp.mlir
// RUN: toast-opt %t.mlp.mlir --partir-schedule=file=%S/Inputs/tiny-bp.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.mlp.tiny-bp.hlo.mlir
// RUN: toast-run --compare %t.mlp.mlir %t.mlp.tiny-bp.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.mlp.tiny-bp.hlo.mlir --partir-export-stablehlo -o %t.mlp.tiny-bp.exp.mlir
// RUN: toast-run --compare %t.mlp.mlir %t.mlp.tiny-bp.exp.mlir | FileCheck %s
// RUN: toast-opt %t.mlp.mlir --partir-schedule=file=%S/Inputs/tiny-mlp-mp.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.mlp.tiny-mlp-mp.hlo.mlir
// RUN: toast-run --compare %t.mlp.mlir %t.mlp.tiny-mlp-mp.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.mlp.tiny-mlp-mp.hlo.mlir --partir-export-stablehlo -o %t.mlp.tiny-mlp-mp.exp.mlir
// RUN: toast-run --compare %t.mlp.mlir %t.mlp.tiny-mlp-mp.exp.mlir | FileCheck %s
// RUN: toast-opt %t.mlp.mlir --partir-schedule=file=%S/Inputs/tiny-mlp-bp-mp-z3.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.mlp.tiny-mlp-bp-mp-z3.hlo.mlir
// RUN: toast-run --compare %t.mlp.mlir %t.mlp.tiny-mlp-bp-mp-z3.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.mlp.tiny-mlp-bp-mp-z3.hlo.mlir --partir-export-stablehlo -o %t.mlp.tiny-mlp-bp-mp-z3.exp.mlir
// RUN: toast-run --compare %t.mlp.mlir %t.mlp.tiny-mlp-bp-mp-z3.exp.mlir | FileCheck %s
//
// RUN: toast-models itx --layers 1 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --decode-steps 2 --quiet -o %t.itx.mlir
// RUN: toast-opt %t.itx.mlir --partir-schedule=file=%S/Inputs/tiny-bp.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.itx.tiny-bp.hlo.mlir
// RUN: toast-run --compare %t.itx.mlir %t.itx.tiny-bp.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.itx.tiny-bp.hlo.mlir --partir-export-stablehlo -o %t.itx.tiny-bp.exp.mlir
// RUN: toast-run --compare %t.itx.mlir %t.itx.tiny-bp.exp.mlir | FileCheck %s
// RUN: toast-opt %t.itx.mlir --partir-schedule=file=%S/Inputs/tiny-itx-bp-z3.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.itx.tiny-itx-bp-z3.hlo.mlir
// RUN: toast-run --compare %t.itx.mlir %t.itx.tiny-itx-bp-z3.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.itx.tiny-itx-bp-z3.hlo.mlir --partir-export-stablehlo -o %t.itx.tiny-itx-bp-z3.exp.mlir
// RUN: toast-run --compare %t.itx.mlir %t.itx.tiny-itx-bp-z3.exp.mlir | FileCheck %s
//
// RUN: toast-models gns --nodes 6 --edges 10 --mp-steps 2 --latent 8 --hidden 12 --mlp-layers 1 --quiet -o %t.gns.mlir
// RUN: toast-opt %t.gns.mlir --partir-schedule=file=%S/Inputs/tiny-gns-bp.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.gns.tiny-gns-bp.hlo.mlir
// RUN: toast-run --compare %t.gns.mlir %t.gns.tiny-gns-bp.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.gns.tiny-gns-bp.hlo.mlir --partir-export-stablehlo -o %t.gns.tiny-gns-bp.exp.mlir
// RUN: toast-run --compare %t.gns.mlir %t.gns.tiny-gns-bp.exp.mlir | FileCheck %s
// RUN: toast-opt %t.gns.mlir --partir-schedule=file=%S/Inputs/tiny-gns-bp-z3.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.gns.tiny-gns-bp-z3.hlo.mlir
// RUN: toast-run --compare %t.gns.mlir %t.gns.tiny-gns-bp-z3.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.gns.tiny-gns-bp-z3.hlo.mlir --partir-export-stablehlo -o %t.gns.tiny-gns-bp-z3.exp.mlir
// RUN: toast-run --compare %t.gns.mlir %t.gns.tiny-gns-bp-z3.exp.mlir | FileCheck %s
//
// RUN: toast-models unet --batch 2 --resolution 8 --channels 4 --heads 2 --quiet -o %t.unet.mlir
// RUN: toast-opt %t.unet.mlir --partir-schedule=file=%S/Inputs/tiny-bp.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.unet.tiny-bp.hlo.mlir
// RUN: toast-run --compare %t.unet.mlir %t.unet.tiny-bp.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.unet.tiny-bp.hlo.mlir --partir-export-stablehlo -o %t.unet.tiny-bp.exp.mlir
// RUN: toast-run --compare %t.unet.mlir %t.unet.tiny-bp.exp.mlir | FileCheck %s
// RUN: toast-opt %t.unet.mlir --partir-schedule=file=%S/Inputs/tiny-bp-z3.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.unet.tiny-bp-z3.hlo.mlir
// RUN: toast-run --compare %t.unet.mlir %t.unet.tiny-bp-z3.hlo.mlir | FileCheck %s
// RUN: toast-opt %t.unet.tiny-bp-z3.hlo.mlir --partir-export-stablehlo -o %t.unet.tiny-bp-z3.exp.mlir
// RUN: toast-run --compare %t.unet.mlir %t.unet.tiny-bp-z3.exp.mlir | FileCheck %s
//
// The transformer under BP+MP+Z3 without collective optimization:
// RUN: toast-opt %t.t32.mlir --partir-schedule=file=%S/Inputs/tiny-t32-bp-mp-z3.json --partir-lower-to-hlo=optimize=false -o %t.t32.plain.mlir
// RUN: toast-run --compare %t.t32.mlir %t.t32.plain.mlir | FileCheck %s

//
// The paper's T32 schedules of test/Models (BP, MP, BP+MP, BP+MP+Z2,
// BP+MP+Z3 on the mesh {batch:8, model:4}) on a tiny t32 with a batch of 8:
// 32 simulated devices.
// RUN: toast-models t32 --layers 1 --batch 8 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet -o %t.t32b8.mlir
// RUN: toast-opt %t.t32b8.mlir --partir-schedule=file=%S/../Models/Inputs/t32-bp.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.paper.t32-bp.hlo.mlir
// RUN: toast-run --compare %t.t32b8.mlir %t.paper.t32-bp.hlo.mlir | FileCheck %s --check-prefix=PAPER
// RUN: toast-opt %t.paper.t32-bp.hlo.mlir --partir-export-stablehlo -o %t.paper.t32-bp.exp.mlir
// RUN: toast-run --compare %t.t32b8.mlir %t.paper.t32-bp.exp.mlir | FileCheck %s --check-prefix=PAPER
// RUN: toast-opt %t.t32b8.mlir --partir-schedule=file=%S/../Models/Inputs/t32-mp.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.paper.t32-mp.hlo.mlir
// RUN: toast-run --compare %t.t32b8.mlir %t.paper.t32-mp.hlo.mlir | FileCheck %s --check-prefix=PAPER
// RUN: toast-opt %t.paper.t32-mp.hlo.mlir --partir-export-stablehlo -o %t.paper.t32-mp.exp.mlir
// RUN: toast-run --compare %t.t32b8.mlir %t.paper.t32-mp.exp.mlir | FileCheck %s --check-prefix=PAPER
// RUN: toast-opt %t.t32b8.mlir --partir-schedule=file=%S/../Models/Inputs/t32-bp-mp.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.paper.t32-bp-mp.hlo.mlir
// RUN: toast-run --compare %t.t32b8.mlir %t.paper.t32-bp-mp.hlo.mlir | FileCheck %s --check-prefix=PAPER
// RUN: toast-opt %t.paper.t32-bp-mp.hlo.mlir --partir-export-stablehlo -o %t.paper.t32-bp-mp.exp.mlir
// RUN: toast-run --compare %t.t32b8.mlir %t.paper.t32-bp-mp.exp.mlir | FileCheck %s --check-prefix=PAPER
// RUN: toast-opt %t.t32b8.mlir --partir-schedule=file=%S/../Models/Inputs/t32-bp-mp-z2.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.paper.t32-bp-mp-z2.hlo.mlir
// RUN: toast-run --compare %t.t32b8.mlir %t.paper.t32-bp-mp-z2.hlo.mlir | FileCheck %s --check-prefix=PAPER
// RUN: toast-opt %t.paper.t32-bp-mp-z2.hlo.mlir --partir-export-stablehlo -o %t.paper.t32-bp-mp-z2.exp.mlir
// RUN: toast-run --compare %t.t32b8.mlir %t.paper.t32-bp-mp-z2.exp.mlir | FileCheck %s --check-prefix=PAPER
// RUN: toast-opt %t.t32b8.mlir --partir-schedule=file=%S/../Models/Inputs/t32-bp-mp-z3.json --partir-lower-to-hlo --partir-optimize-collectives -o %t.paper.t32-bp-mp-z3.hlo.mlir
// RUN: toast-run --compare %t.t32b8.mlir %t.paper.t32-bp-mp-z3.hlo.mlir | FileCheck %s --check-prefix=PAPER
// RUN: toast-opt %t.paper.t32-bp-mp-z3.hlo.mlir --partir-export-stablehlo -o %t.paper.t32-bp-mp-z3.exp.mlir
// RUN: toast-run --compare %t.t32b8.mlir %t.paper.t32-bp-mp-z3.exp.mlir | FileCheck %s --check-prefix=PAPER

// CHECK: @main runs SPMD on 4 devices
// CHECK-NOT: MISMATCH
// CHECK: results agree

// PAPER: @main runs SPMD on 32 devices
// PAPER-NOT: MISMATCH
// PAPER: results agree
