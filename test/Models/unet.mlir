// Diffusion U-Net training step (tiny).
// RUN: toast-models unet --batch 2 --resolution 8 --channels 4 --heads 2 --quiet | toast-opt | toast-opt | FileCheck %s
// RUN: toast-models unet --batch 2 --resolution 8 --channels 4 --heads 2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: not toast-models unet --resolution 6 2>&1 | FileCheck %s --check-prefix=RES
// RUN: not toast-models unet --channels 4 --heads 3 2>&1 | FileCheck %s --check-prefix=HEADS

// CHECK-LABEL: module @unet_train_step
// CHECK: tensor<3x3x3x4xf32> {{{.*}}partir.name = "params.conv_in.w"}
// CHECK-SAME: tensor<3x3x4x16xf32> {{{.*}}partir.name = "params.down.level_0.conv_residual_block_0.conv1.w"}
// CHECK-SAME: partir.name = "params.down.level_0.downsample.w"
// CHECK-SAME: tensor<2x16x8xf32> {{{.*}}partir.name = "params.mid.multi_head_attention.query.w"}
// CHECK-SAME: tensor<2x8x16xf32> {{{.*}}partir.name = "params.mid.multi_head_attention.output.w"}
// CHECK-SAME: partir.name = "params.up.level_2.conv_residual_block_3.skip.w"
// CHECK-SAME: partir.name = "params.out.conv.b"
// CHECK-SAME: partir.name = "opt_state.step"
// CHECK-SAME: tensor<2x8x8x3xf32> {{{.*}}partir.name = "batch.noisy_images"}
// CHECK-SAME: tensor<2xf32> {{{.*}}partir.name = "batch.timesteps"}
// CHECK-SAME: tensor<2x8x8x3xf32> {{{.*}}partir.name = "batch.noise"}
// CHECK: stablehlo.convolution({{.*}}) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = {{\[\[}}1, 1], [1, 1]]
// The strided downsampling convolution.
// CHECK: window = {stride = [2, 2]
// Nearest-neighbour upsampling.
// CHECK: stablehlo.broadcast_in_dim {{.*}}, dims = [0, 1, 3, 5] : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x2x2x16xf32>
// Backward: kernel gradients contract the batch as the feature dimension,
// input gradients convolve with the reversed kernel.
// CHECK: stablehlo.convolution({{.*}}) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f]
// CHECK: stablehlo.reverse
// CHECK: dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f]
// CHECK: return

// STATS: unet: {{[0-9]+}} parameters ({{.*}}) in 282 tensors, 850 arguments
// RES: --resolution must be a multiple of 4
// HEADS: --heads (3) must divide the middle channel count (16)
