// The inference transformer: prefill, KV cache, decode step(s).
// RUN: toast-models itx --layers 2 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --quiet | toast-opt | toast-opt | FileCheck %s --check-prefix=ONE
// RUN: toast-models itx --layers 2 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 --decode-steps 4 --quiet | toast-opt | toast-opt | FileCheck %s --check-prefix=LOOP
// RUN: toast-models itx --layers 2 --batch 2 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// ONE-LABEL: module @itx_generate
// ONE: partir.name = "params.layer_0.attn.q_einsum.w"
// ONE-SAME: tensor<2x1x16x4xf32> {{{.*}}partir.name = "params.layer_0.attn.kv_einsum.w"}
// ONE-SAME: tensor<16x32xf32> {{{.*}}partir.name = "params.unembed.w"}
// ONE-SAME: tensor<2x8xi32> {{{.*}}partir.name = "batch.prompt"}
// ONE-SAME: -> (tensor<2x2xi32> {jax.result_info = "generated"}, tensor<2x32xf32> {jax.result_info = "logits"})
// RoPE and the cache write of the prefill.
// ONE: stablehlo.sine
// ONE: stablehlo.cosine
// ONE: stablehlo.dynamic_update_slice {{.*}} -> tensor<2x9x1x4xf32>
// Greedy next token: a two-input reduce.
// ONE: stablehlo.reduce
// ONE: reducer
// The decode step attends to the whole cache.
// ONE: stablehlo.dot_general {{.*}}batching_dims = [0, 2] x [0, 2], contracting_dims = [4] x [3]{{.*}} -> tensor<2x1x1x4x9xf32>
// ONE-NOT: stablehlo.while

// LOOP-LABEL: module @itx_generate
// LOOP: -> (tensor<2x5xi32> {jax.result_info = "generated"}
// LOOP: stablehlo.while
// LOOP: cond
// LOOP: stablehlo.compare LT
// LOOP: do
// LOOP: stablehlo.dynamic_update_slice {{.*}} -> tensor<2x12x1x4xf32>
// LOOP: stablehlo.return

// STATS: itx: {{[0-9]+}} parameters ({{.*}}) in 17 tensors, 18 arguments
