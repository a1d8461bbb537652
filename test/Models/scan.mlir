// --scan: the repeated layers as stablehlo.while loops over stacked parameters.
// RUN: toast-models t32 --scan --layers 3 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet | toast-opt | toast-opt | FileCheck %s --check-prefix=TRAIN
// RUN: toast-models t32 --scan --remat --layers 3 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet | toast-opt | FileCheck %s --check-prefix=REMAT
// RUN: toast-models t2b --scan --layers 3 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet | toast-opt --mlir-print-op-generic | toast-opt | FileCheck %s --check-prefix=T2B
// RUN: toast-models t7b --scan --gradients --layers 2 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet | toast-opt | FileCheck %s --check-prefix=GRAD
// RUN: toast-models t2b --scan --dtype bf16 --layers 2 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet | toast-opt | FileCheck %s --check-prefix=BF16
// RUN: toast-models transformer --scan --inference --layers 3 --batch 2 --seq 8 --d-model 16 --heads 2 --key-size 8 --vocab 32 --hidden 24 --quiet | toast-opt | toast-opt | FileCheck %s --check-prefix=INF
// RUN: toast-models itx --scan --layers 3 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet | toast-opt | toast-opt | FileCheck %s --check-prefix=ITX1
// RUN: toast-models itx --scan --layers 3 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --decode-steps 4 --quiet | toast-opt | toast-opt | FileCheck %s --check-prefix=ITX4
// RUN: toast-models t32 --scan --layers 3 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 -o /dev/null 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: toast-models t32 --scan --layers 3 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet | toast-run - | FileCheck %s --check-prefix=EXEC
// RUN: not toast-models mlp --scan 2>&1 | FileCheck %s --check-prefix=MLP
// RUN: not toast-models gns --scan 2>&1 | FileCheck %s --check-prefix=GNS
// RUN: not toast-models unet --scan 2>&1 | FileCheck %s --check-prefix=UNET
// RUN: not toast-models t32 --scan --mp-steps 2 2>&1 | FileCheck %s --check-prefix=LIST
// RUN: not toast-models t32 --remat 2>&1 | FileCheck %s --check-prefix=REMAT-NOSCAN
// RUN: not toast-models t32 --scan --remat --inference 2>&1 | FileCheck %s --check-prefix=REMAT-INF
// RUN: not toast-models itx --scan --remat 2>&1 | FileCheck %s --check-prefix=REMAT-ITX
// RUN: not toast-models mlp --remat 2>&1 | FileCheck %s --check-prefix=REMAT-MLP

// Stacked parameters and optimizer state, [L, ...]; the embedding is not.
// TRAIN-LABEL: module @t32_train_step
// TRAIN: tensor<32x16xf32> {{{.*}}partir.name = "params.embedder.embedding"}
// TRAIN-SAME: tensor<3x16xf32> {{{.*}}partir.name = "params.layers.pre_attn_norm.scale"}
// TRAIN-SAME: tensor<3x16xf32> {{{.*}}partir.name = "params.layers.pre_attn_norm.offset"}
// TRAIN-SAME: tensor<3x3x4x16x4xf32> {{{.*}}partir.name = "params.layers.attn.qkv_einsum.w"}
// TRAIN-SAME: tensor<3x4x4x16xf32> {{{.*}}partir.name = "params.layers.attn.attn_vec_einsum.w"}
// TRAIN-SAME: tensor<3x16xf32> {{{.*}}partir.name = "params.layers.post_attn_norm.scale"}
// TRAIN-SAME: tensor<3x2x16x24xf32> {{{.*}}partir.name = "params.layers.mlp.dense_up.w"}
// TRAIN-SAME: tensor<3x24x16xf32> {{{.*}}partir.name = "params.layers.mlp.dense_down.w"}
// TRAIN-SAME: tensor<32x16xf32> {{{.*}}partir.name = "opt_state.mu.embedder.embedding"}
// TRAIN-SAME: tensor<3x3x4x16x4xf32> {{{.*}}partir.name = "opt_state.mu.layers.attn.qkv_einsum.w"}
// TRAIN-SAME: tensor<3x24x16xf32> {{{.*}}partir.name = "opt_state.nu.layers.mlp.dense_down.w"}
// TRAIN-SAME: partir.name = "opt_state.step"
// TRAIN-NOT: layer_
// TRAIN-SAME: -> (tensor<f32> {jax.result_info = "loss"}
// TRAIN-SAME: tensor<3x3x4x16x4xf32> {jax.result_info = "params.layers.attn.qkv_einsum.w"}
// TRAIN-SAME: tensor<3x3x4x16x4xf32> {jax.result_info = "opt_state.mu.layers.attn.qkv_einsum.w"}
// TRAIN-SAME: tensor<3x24x16xf32> {jax.result_info = "opt_state.nu.layers.mlp.dense_down.w"}
// Forward: carry (i, x, stacked residuals [L, ...], positions, mask,
// params); the residuals start with the first norm's centered input
// [L, B, T, D] and include the attention probabilities [L, B, H, T, T].
// TRAIN: stablehlo.while(%[[I:[^ ]*]] = %{{[^ ]*}}, %{{[^ ]*}} = %{{[^ ]*}}, %[[R0:[^ ]*]] = %{{[^ ]*}},
// TRAIN-SAME: : tensor<i32>, tensor<2x8x16xf32>, tensor<3x2x8x16xf32>, tensor<3x2x8xf32>,
// TRAIN-SAME: tensor<3x2x4x8x8xf32>
// TRAIN-SAME: tensor<3x2x8x24xf32>, tensor<8xf32>, tensor<8x8xi1>, tensor<3x16xf32>
// TRAIN: cond {
// TRAIN: %[[N:[^ ]*]] = stablehlo.constant dense<3> : tensor<i32>
// TRAIN: stablehlo.compare LT, %[[I]], %[[N]], SIGNED
// TRAIN: } do {
// The layer's parameters are read at i, its 6 contractions run, then the
// residuals are written at i.
// TRAIN: %[[W:[^ ]*]] = stablehlo.dynamic_slice %{{.*}}, %[[I]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, sizes = [1, 3, 4, 16, 4] : (tensor<3x3x4x16x4xf32>
// TRAIN-NEXT: stablehlo.reshape %[[W]] : (tensor<1x3x4x16x4xf32>) -> tensor<3x4x16x4xf32>
// TRAIN-COUNT-6: stablehlo.dot_general
// TRAIN-NOT: stablehlo.dot_general
// TRAIN: %[[RS:[^ ]*]] = stablehlo.reshape %{{.*}} : (tensor<2x8x16xf32>) -> tensor<1x2x8x16xf32>
// TRAIN: stablehlo.dynamic_update_slice %[[R0]], %[[RS]], %[[I]], %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3x2x8x16xf32>, tensor<1x2x8x16xf32>
// TRAIN: stablehlo.dynamic_update_slice %{{.*}}, %{{.*}}, %[[I]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3x2x4x8x8xf32>, tensor<1x2x4x8x8xf32>
// TRAIN: %[[ONE:[^ ]*]] = stablehlo.constant dense<1> : tensor<i32>
// TRAIN: %[[NEXT:[^ ]*]] = stablehlo.add %[[I]], %[[ONE]] : tensor<i32>
// TRAIN: stablehlo.return %[[NEXT]],
// Between the loops: the loop-invariant residuals (RoPE tables), once.
// TRAIN: stablehlo.sine
// TRAIN: stablehlo.cosine
// Backward: carry (i, dx, gradient buffers, stacked residuals, invariants,
// params), visiting layer 2 - i.
// TRAIN: stablehlo.while(%[[J:[^ ]*]] =
// TRAIN-SAME: : tensor<i32>, tensor<2x8x16xf32>, tensor<3x16xf32>, tensor<3x16xf32>, tensor<3x3x4x16x4xf32>
// TRAIN-SAME: tensor<3x2x4x8x8xf32>
// TRAIN-SAME: tensor<8x8xi1>, tensor<8x2xf32>
// TRAIN: stablehlo.compare LT, %[[J]]
// TRAIN: } do {
// TRAIN: %[[LAST:[^ ]*]] = stablehlo.constant dense<2> : tensor<i32>
// TRAIN: %[[L:[^ ]*]] = stablehlo.subtract %[[LAST]], %[[J]] : tensor<i32>
// TRAIN: stablehlo.dynamic_slice %{{.*}}, %[[L]], %{{.*}}, %{{.*}}, %{{.*}}, sizes = [1, 2, 8, 16] : (tensor<3x2x8x16xf32>
// TRAIN: stablehlo.dynamic_slice %{{.*}}, %[[L]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, sizes = [1, 2, 4, 8, 8] : (tensor<3x2x4x8x8xf32>
// TRAIN: stablehlo.dynamic_slice %{{.*}}, %[[L]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, sizes = [1, 3, 4, 16, 4]
// No recomputation: the backward pass of the 6 contractions (2 each), no
// forward one, and no tanh (the GeLU's VJP reads its saved output).
// TRAIN-NOT: stablehlo.tanh
// TRAIN-COUNT-12: stablehlo.dot_general
// TRAIN-NOT: stablehlo.dot_general
// TRAIN-NOT: stablehlo.tanh
// The gradients are written at 2 - i.
// TRAIN: stablehlo.dynamic_update_slice %{{.*}}, %{{.*}}, %[[L]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3x3x4x16x4xf32>, tensor<1x3x4x16x4xf32>
// TRAIN-NOT: stablehlo.dot_general
// TRAIN: stablehlo.return
// Adam on the stacked tensors, outside the loops.
// TRAIN: stablehlo.sqrt {{.*}} : tensor<3x3x4x16x4xf32>
// TRAIN-NOT: stablehlo.while
// TRAIN: return

// --remat: the forward loop saves only the layer inputs; the backward loop
// recomputes the layer from them (all contractions but the MLP's last,
// whose output its backward pass does not read).
// REMAT-LABEL: module @t32_train_step
// REMAT: stablehlo.while
// REMAT-SAME: : tensor<i32>, tensor<2x8x16xf32>, tensor<3x2x8x16xf32>, tensor<8xf32>, tensor<8x8xi1>, tensor<3x16xf32>
// REMAT: } do {
// REMAT: %[[XS:[^ ]*]] = stablehlo.reshape %{{.*}} : (tensor<2x8x16xf32>) -> tensor<1x2x8x16xf32>
// REMAT: stablehlo.dynamic_update_slice %{{.*}}, %[[XS]], %{{.*}} : (tensor<3x2x8x16xf32>, tensor<1x2x8x16xf32>
// REMAT-NOT: stablehlo.dynamic_update_slice
// REMAT: stablehlo.while
// REMAT-SAME: : tensor<i32>, tensor<2x8x16xf32>, tensor<3x16xf32>, tensor<3x16xf32>, tensor<3x3x4x16x4xf32>, tensor<3x4x4x16xf32>, tensor<3x16xf32>, tensor<3x16xf32>, tensor<3x16xf32>, tensor<3x2x16x24xf32>, tensor<3x24x16xf32>, tensor<3x2x8x16xf32>, tensor<8xf32>, tensor<8x8xi1>, tensor<3x16xf32>
// REMAT: } do {
// REMAT: stablehlo.dynamic_slice %{{.*}}, sizes = [1, 2, 8, 16] : (tensor<3x2x8x16xf32>
// REMAT-COUNT-17: stablehlo.dot_general
// REMAT-NOT: stablehlo.dot_general
// REMAT: stablehlo.return
// REMAT-NOT: stablehlo.while

// Grouped attention, gather embedding and final norm scanned the same way.
// T2B-LABEL: module @t2b_train_step
// T2B: tensor<3x4x16x4xf32> {{{.*}}partir.name = "params.layers.attn.q_einsum.w"}
// T2B-SAME: tensor<3x2x1x16x4xf32> {{{.*}}partir.name = "params.layers.attn.kv_einsum.w"}
// T2B-SAME: tensor<16xf32> {{{.*}}partir.name = "params.final_norm.scale"}
// T2B: "stablehlo.gather"
// T2B: stablehlo.while
// T2B: stablehlo.dynamic_slice
// T2B: stablehlo.while
// T2B: stablehlo.dynamic_update_slice
// T2B: "stablehlo.scatter"

// GRAD-LABEL: module @t7b_train_step
// GRAD-NOT: opt_state
// GRAD: -> (tensor<f32> {jax.result_info = "loss"}, tensor<32x16xf32> {jax.result_info = "grad.embedder.embedding"}, tensor<2x16xf32> {jax.result_info = "grad.layers.pre_attn_norm.scale"}, tensor<2x3x4x16x4xf32> {jax.result_info = "grad.layers.attn.qkv_einsum.w"}

// BF16: tensor<2x4x16x4xbf16> {{{.*}}partir.name = "params.layers.attn.q_einsum.w"}
// BF16: stablehlo.while
// BF16: stablehlo.while

// Forward only: one loop.
// INF-LABEL: module @transformer_forward
// INF-NOT: opt_state
// INF: stablehlo.while
// INF-SAME: : tensor<i32>, tensor<2x8x16xf32>, tensor<8xf32>, tensor<8x8xi1>, tensor<3x16xf32>
// INF-NOT: stablehlo.while
// INF: return

// ITX, one decode step: a layer loop for the prefill and one for the step,
// each reading and writing back its layer's stacked cache.
// ITX1-LABEL: module @itx_generate
// ITX1: tensor<3x4x16x4xf32> {{{.*}}partir.name = "params.layers.attn.q_einsum.w"}
// ITX1-SAME: tensor<3x2x1x16x4xf32> {{{.*}}partir.name = "params.layers.attn.kv_einsum.w"}
// ITX1-SAME: tensor<16x32xf32> {{{.*}}partir.name = "params.unembed.w"}
// ITX1: stablehlo.while
// ITX1-SAME: : tensor<i32>, tensor<2x8x16xf32>, tensor<3x2x9x1x4xf32>, tensor<3x2x9x1x4xf32>, tensor<i32>, tensor<8xf32>, tensor<8x8xi1>
// ITX1: stablehlo.dynamic_slice {{.*}} sizes = [1, 2, 9, 1, 4]
// ITX1: stablehlo.dynamic_update_slice {{.*}} : (tensor<2x9x1x4xf32>, tensor<2x8x1x4xf32>
// ITX1: stablehlo.dynamic_update_slice {{.*}} : (tensor<3x2x9x1x4xf32>, tensor<1x2x9x1x4xf32>
// ITX1: stablehlo.while
// ITX1-SAME: : tensor<i32>, tensor<2x1x16xf32>, tensor<3x2x9x1x4xf32>, tensor<3x2x9x1x4xf32>, tensor<i32>, tensor<1xf32>, tensor<1x9xi1>
// ITX1-NOT: stablehlo.while
// ITX1: return

// ITX, 4 decode steps: the layer loop nested in the decode loop.
// ITX4-LABEL: module @itx_generate
// ITX4: stablehlo.while
// ITX4-SAME: tensor<3x2x12x1x4xf32>
// ITX4: stablehlo.while
// ITX4-SAME: : tensor<i32>, tensor<2xi32>, tensor<2x5xi32>, tensor<2x32xf32>, tensor<3x2x12x1x4xf32>, tensor<3x2x12x1x4xf32>, tensor<32x16xf32>, tensor<3x16xf32>
// ITX4: do {
// ITX4: stablehlo.while
// ITX4-SAME: : tensor<i32>, tensor<2x1x16xf32>, tensor<3x2x12x1x4xf32>, tensor<3x2x12x1x4xf32>, tensor<i32>, tensor<1xf32>, tensor<1x12xi1>
// ITX4: stablehlo.return
// ITX4: stablehlo.return

// One tensor per parameter kind, plus the embedding.
// COUNT: t32: 7280 parameters ({{.*}}) in 10 tensors, 33 arguments

// The scanned program runs in the interpreter.
// EXEC: @main ran on random arguments
// EXEC: result #0: tensor<f32>

// MLP: toast-models: model 'mlp' does not take --scan (it takes: --layers --batch --d-model --hidden)
// GNS: toast-models: model 'gns' does not take --scan (it takes: --nodes --edges
// UNET: toast-models: model 'unet' does not take --scan (it takes: --batch --resolution --channels --heads)
// LIST: toast-models: model 't32' does not take --mp-steps (it takes: --layers {{.*}} --hidden --scan --remat --flatten-linear)
// REMAT-NOSCAN: toast-models: --remat applies to --scan
// REMAT-INF: toast-models: --remat applies to training steps (not --inference)
// REMAT-ITX: toast-models: model 'itx' does not take --remat (it takes: --layers {{.*}} --scan)
// REMAT-MLP: toast-models: model 'mlp' does not take --remat (it takes: --layers --batch --d-model --hidden)
