// Tiny decoder-only transformer training steps of every preset.
// RUN: toast-models t32 --layers 2 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet | toast-opt | toast-opt | FileCheck %s --check-prefix=T32
// RUN: toast-models t2b --layers 2 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet | toast-opt | toast-opt | FileCheck %s --check-prefix=T2B
// RUN: toast-models t7b --layers 1 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet | toast-opt --mlir-print-op-generic | toast-opt | FileCheck %s --check-prefix=T7B
// RUN: toast-models transformer --layers 1 --batch 2 --seq 8 --d-model 16 --heads 2 --key-size 8 --vocab 32 --hidden 24 --inference --quiet | toast-opt | FileCheck %s --check-prefix=INF
// RUN: toast-models t32 --embedding gather --layers 1 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet | FileCheck %s --check-prefix=GATHER
// RUN: toast-models t32 --layers 3 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 -o /dev/null 2>&1 | FileCheck %s --check-prefix=COUNT

// T32-LABEL: module @t32_train_step
// T32: partir.name = "params.embedder.embedding"
// T32-SAME: partir.name = "params.layer_0.pre_attn_norm.scale"
// T32-SAME: partir.name = "params.layer_0.pre_attn_norm.offset"
// T32-SAME: tensor<3x4x16x4xf32> {{{.*}}partir.name = "params.layer_0.attn.qkv_einsum.w"}
// T32-SAME: tensor<4x4x16xf32> {{{.*}}partir.name = "params.layer_0.attn.attn_vec_einsum.w"}
// T32-SAME: partir.name = "params.layer_0.post_attn_norm.scale"
// T32-SAME: tensor<2x16x24xf32> {{{.*}}partir.name = "params.layer_0.mlp.dense_up.w"}
// T32-SAME: tensor<24x16xf32> {{{.*}}partir.name = "params.layer_1.mlp.dense_down.w"}
// T32-SAME: partir.name = "opt_state.mu.embedder.embedding"
// T32-SAME: partir.name = "opt_state.nu.layer_1.mlp.dense_down.w"
// T32-SAME: partir.name = "opt_state.step"
// T32-SAME: tensor<2x8xi32> {{{.*}}partir.name = "batch.tokens"}
// T32-SAME: tensor<2x8xi32> {{{.*}}partir.name = "batch.targets"}
// Causal mask, one-hot embedding, heads as dot_general batching dims.
// T32: stablehlo.iota dim = 0 : tensor<8x8xi32>
// T32: stablehlo.compare GE,
// T32: stablehlo.iota dim = 2 : tensor<2x8x32xi32>
// T32: stablehlo.compare EQ,
// T32: stablehlo.dot_general {{.*}}contracting_dims = [2] x [0]{{.*}} : (tensor<2x8x32xf32>, tensor<32x16xf32>) -> tensor<2x8x16xf32>
// T32: stablehlo.dot_general {{.*}}batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3]{{.*}} -> tensor<2x4x8x8xf32>
// T32: stablehlo.select
// T32: stablehlo.reduce({{.*}}) applies stablehlo.maximum across dimensions = [3]
// T32: stablehlo.exponential
// T32: stablehlo.dot_general {{.*}}batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1]{{.*}} -> tensor<2x4x8x4xf32>
// T32: stablehlo.tanh
// The gated MLP uses its [2, D, F] weight in one contraction.
// T32: stablehlo.dot_general {{.*}}contracting_dims = [2] x [1]{{.*}} : (tensor<2x8x16xf32>, tensor<2x16x24xf32>) -> tensor<2x8x2x24xf32>
// T32-NOT: stablehlo.scatter
// T32: return

// Multi-query attention splits the query heads with a reshape.
// T2B-LABEL: module @t2b_train_step
// T2B: tensor<4x16x4xf32> {{{.*}}partir.name = "params.layer_0.attn.q_einsum.w"}
// T2B-SAME: tensor<2x1x16x4xf32> {{{.*}}partir.name = "params.layer_0.attn.kv_einsum.w"}
// T2B-SAME: partir.name = "params.final_norm.scale"
// Gemma looks the embedding up with a gather and scatter-adds its gradient.
// T2B: "stablehlo.gather"
// T2B: stablehlo.reshape {{.*}} -> tensor<2x8x1x4x4xf32>
// T2B: stablehlo.dot_general {{.*}}batching_dims = [0, 2] x [0, 2], contracting_dims = [4] x [3]{{.*}} -> tensor<2x1x8x4x8xf32>
// T2B: "stablehlo.scatter"

// T7B-LABEL: module @t7b_train_step
// T7B: partir.name = "params.layer_0.attn.qkv_einsum.w"
// T7B-NOT: post_attn_norm
// T7B: return

// GATHER: "stablehlo.gather"

// INF-LABEL: module @transformer_forward
// INF-NOT: opt_state
// INF: -> (tensor<2x8x32xf32> {jax.result_info = "logits"})

// 9 tensors per block plus the tied embedding.
// COUNT: t32: {{[0-9]+}} parameters ({{.*}}) in 28 tensors, 87 arguments
