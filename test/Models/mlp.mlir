// The papers' two-layer MLP: forward only and the Adam training step.
// RUN: toast-models mlp --inference --batch 4 --d-model 8 --hidden 16 --quiet | toast-opt | toast-opt | FileCheck %s --check-prefix=FWD
// RUN: toast-models mlp --batch 4 --d-model 8 --hidden 16 --quiet | toast-opt | toast-opt | FileCheck %s --check-prefix=TRAIN
// RUN: toast-models mlp --batch 4 --d-model 8 --hidden 16 --dtype bf16 --quiet | toast-opt | FileCheck %s --check-prefix=BF16
// RUN: toast-models mlp --batch 4 --d-model 8 --hidden 16 -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// FWD-LABEL: module @mlp_forward
// FWD: func.func @main(%{{.*}}: tensor<8x16xf32> {{{.*}}partir.name = "params.layer_0.w"}, %{{.*}}: tensor<16x8xf32> {{{.*}}partir.name = "params.layer_1.w"}, %{{.*}}: tensor<4x8xf32> {{{.*}}partir.name = "batch.x"}) -> (tensor<4x8xf32> {jax.result_info = "y"})
// FWD: stablehlo.dot_general
// FWD: stablehlo.maximum
// FWD: stablehlo.dot_general
// FWD-NOT: stablehlo.dot_general

// TRAIN-LABEL: module @mlp_train_step
// TRAIN-SAME: mhlo.num_partitions = 1 : i32
// TRAIN: partir.name = "opt_state.mu.layer_0.w"
// TRAIN-SAME: partir.name = "opt_state.nu.layer_1.w"
// TRAIN-SAME: %{{.*}}: tensor<i32> {{{.*}}partir.name = "opt_state.step"}
// TRAIN-SAME: partir.name = "batch.y"
// TRAIN-SAME: -> (tensor<f32> {jax.result_info = "loss"}, tensor<8x16xf32> {jax.result_info = "params.layer_0.w"}
// TRAIN-SAME: tensor<i32> {jax.result_info = "opt_state.step"})
// The backward pass: the gradient of x @ w1 w.r.t. w1 contracts the batch.
// TRAIN: stablehlo.dot_general %{{.*}}, %{{.*}}, contracting_dims = [0] x [0]{{.*}} -> tensor<8x16xf32>
// Adam's bias correction.
// TRAIN: stablehlo.power
// TRAIN: stablehlo.sqrt

// BF16: tensor<8x16xbf16> {{{.*}}partir.name = "params.layer_0.w"}
// BF16: stablehlo.convert {{.*}} -> tensor<4x8xf32>

// STATS: mlp: 256 parameters (0.000B) in 2 tensors, 9 arguments, {{[0-9]+}} ops
