// The differential check on automatically partitioned tiny models: the
// program AutomaticPartition produces computes what the original computes
// (the reference interpreter runs both on the same random arguments).
// Priced on a slow device (Inputs/slow.json) so that the search shards.

// RUN: toast-models gns --nodes 8 --edges 16 --mp-steps 2 --latent 8 --hidden 12 --mlp-layers 1 --quiet -o %t.gns.mlir
// RUN: toast-opt %t.gns.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/Inputs/slow.json rollouts=1000 budget-s=0 threads=2 min-dims=2 report=true progress=false" -o %t.gns.auto.mlir 2>&1 | FileCheck %s --check-prefix=CHOSE
// RUN: toast-run --compare %t.gns.mlir %t.gns.auto.mlir --seed 3 | FileCheck %s

// RUN: toast-models itx --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet -o %t.itx.mlir
// RUN: toast-opt %t.itx.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/Inputs/slow.json rollouts=1000 budget-s=0 threads=2 min-dims=2 report=true progress=false" -o %t.itx.auto.mlir 2>&1 | FileCheck %s --check-prefix=CHOSE
// RUN: toast-run --compare %t.itx.mlir %t.itx.auto.mlir --seed 3 | FileCheck %s

// RUN: toast-models t7b --layers 1 --batch 4 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet -o %t.t7b.mlir
// RUN: toast-opt %t.t7b.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/Inputs/slow.json rollouts=1000 budget-s=0 threads=2 min-dims=2 report=true progress=false" -o %t.t7b.auto.mlir 2>&1 | FileCheck %s --check-prefix=CHOSE
// RUN: toast-run --compare %t.t7b.mlir %t.t7b.auto.mlir --seed 3 | FileCheck %s

// U-Net states are slower to price: a smaller budget.
// RUN: toast-models unet --batch 4 --channels 8 --resolution 8 --heads 2 --quiet -o %t.unet.mlir
// RUN: toast-opt %t.unet.mlir --toast-auto-partition="mesh=B=4,M=2 device=file:%S/Inputs/slow.json rollouts=30 budget-s=0 threads=2 min-dims=2 report=true progress=false" -o %t.unet.auto.mlir 2>&1 | FileCheck %s --check-prefix=CHOSE
// RUN: toast-run --compare %t.unet.mlir %t.unet.auto.mlir --seed 3 | FileCheck %s

// CHOSE: remark: auto-partition chose {{[1-9][0-9]*}} actions; shard color
// CHECK: results agree
