// JAX's GPT-2 `generate` export partitioned by the search on {M: 2} and run:
// the decode `while` carries its weights and key/value caches tiled on M
// (device-local types in the loop's signature) and its body holds the
// collectives, and the two devices produce the tokens the original
// produces. The export's weights are elided, so both programs run on the
// same random weights (--fill-elided). About 30 s and 1.3 GB.
// REQUIRES: corpus
// RUN: toast-opt %corpus/exports/jax_gpt2_generate_bs1.mlir --toast-auto-partition="mesh=M=2 device=a100 seed=1 rollouts=40 budget-s=0 progress=false" --partir-lower-to-hlo --partir-optimize-collectives -o %t.hlo.mlir 2>/dev/null
// RUN: FileCheck %s --input-file=%t.hlo.mlir
// RUN: toast-run --compare %corpus/exports/jax_gpt2_generate_bs1.mlir %t.hlo.mlir --fill-elided | FileCheck %s --check-prefix=AGREE

// CHECK: stablehlo.while
// CHECK-SAME: tensor<50257x384xf16>
// CHECK-SAME: tensor<1x20x12x32xf32>
// CHECK: partir_hlo.all_reduce
// CHECK: partir_hlo.all_gather

// AGREE: @main runs SPMD on 2 devices (PartIR:HLO)
// AGREE: result #0 tensor<1x20xi32>: max abs error 0.000e+00, max rel error 0.000e+00: ok
// AGREE: results agree
