// RUN: toast-opt %s --toast-test-print-sharding-rules | FileCheck %s

// The sharding-rule registry: one function per StableHLO op, in
// alphabetical order, then one per CHLO op. Rules print as
//   (operand dims...)->(result dims...) {factor=size...} reduction={...}
//   not_tileable={...}
// with `_` for an unmapped dimension; ops without a rule print "opaque".
// The pass also verifies every rule (see test/lib/Interfaces).

// CHECK-LABEL: func.func @abs(
func.func @abs(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.abs{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.abs %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @add(
func.func @add(%x: tensor<2x3xf32>, %d: tensor<?x3xf32>) {
  // CHECK: stablehlo.add{{.*}}toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.add %x, %x : tensor<2x3xf32>
  // Dynamic shapes have no rule.
  // CHECK: stablehlo.add{{.*}}toast.sharding_rule = "opaque"
  %1 = stablehlo.add %d, %d : tensor<?x3xf32>
  return
}

// CHECK-LABEL: func.func @after_all(
func.func @after_all(%t: !stablehlo.token) {
  // Tokens order side effects: opaque.
  // CHECK: stablehlo.after_all{{.*}}toast.sharding_rule = "opaque"
  %0 = stablehlo.after_all %t, %t : !stablehlo.token
  return
}

// CHECK-LABEL: func.func @all_gather(
func.func @all_gather(%x: tensor<8x4xf32>) {
  // CHECK: stablehlo.all_gather{{.*}}toast.sharding_rule = "opaque"
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<8x4xf32>) -> tensor<16x4xf32>
  return
}

// CHECK-LABEL: func.func @all_reduce(
func.func @all_reduce(%x: tensor<8x4xf32>) {
  // CHECK: stablehlo.all_reduce
  // CHECK: }) {toast.sharding_rule = "opaque"}
  %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return
}

// CHECK-LABEL: func.func @all_to_all(
func.func @all_to_all(%x: tensor<8x4xf32>) {
  // CHECK: stablehlo.all_to_all{{.*}}toast.sharding_rule = "opaque"
  %0 = "stablehlo.all_to_all"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<8x4xf32>) -> tensor<16x2xf32>
  return
}

// CHECK-LABEL: func.func @and(
func.func @and(%x: tensor<2x3xi1>) {
  // CHECK: stablehlo.and{{.*}}toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.and %x, %x : tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @atan2(
func.func @atan2(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.atan2{{.*}}toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.atan2 %x, %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @batch_norm_grad(
func.func @batch_norm_grad(%x: tensor<8x3x4xf32>, %s: tensor<3xf32>) {
  // The feature dimension is parallel everywhere; the others feed the sums
  // over them (grad_scale, grad_offset and grad_operand): not tileable.
  // CHECK: stablehlo.batch_norm_grad{{.*}}toast.sharding_rule = "([i, k, j], [k], [k], [k], [i, k, j])->([i, k, j], [k], [k]) {i=8, j=4, k=3} not_tileable={i, j}"
  %0:3 = "stablehlo.batch_norm_grad"(%x, %s, %s, %s, %x) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<8x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<8x3x4xf32>) -> (tensor<8x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
  return
}

// CHECK-LABEL: func.func @batch_norm_inference(
func.func @batch_norm_inference(%x: tensor<8x3x4xf32>, %s: tensor<3xf32>, %y: tensor<2x5xf32>, %t: tensor<2xf32>) {
  // Elementwise given the statistics: every dimension is parallel, the
  // feature dimension also on the four per-feature operands.
  // CHECK: stablehlo.batch_norm_inference{{.*}}toast.sharding_rule = "([i, k, j], [k], [k], [k], [k])->([i, k, j]) {i=8, j=4, k=3}"
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %s, %s, %s) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<8x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<8x3x4xf32>
  // CHECK: stablehlo.batch_norm_inference{{.*}}toast.sharding_rule = "([j, i], [j], [j], [j], [j])->([j, i]) {i=5, j=2}"
  %1 = "stablehlo.batch_norm_inference"(%y, %t, %t, %t, %t) {epsilon = 1.0e-3 : f32, feature_index = 0 : i64} : (tensor<2x5xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x5xf32>
  return
}

// CHECK-LABEL: func.func @batch_norm_training(
func.func @batch_norm_training(%x: tensor<8x3x4xf32>, %s: tensor<3xf32>) {
  // The statistics reduce over every dimension but the feature dimension,
  // and the output uses them: those dimensions are not tileable.
  // CHECK: stablehlo.batch_norm_training{{.*}}toast.sharding_rule = "([i, k, j], [k], [k])->([i, k, j], [k], [k]) {i=8, j=4, k=3} not_tileable={i, j}"
  %0:3 = "stablehlo.batch_norm_training"(%x, %s, %s) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<8x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<8x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
  return
}

// CHECK-LABEL: func.func @bitcast_convert(
func.func @bitcast_convert(%x: tensor<4xf32>, %y: tensor<4x2xbf16>) {
  // CHECK: stablehlo.bitcast_convert{{.*}}toast.sharding_rule = "([i])->([i]) {i=4}"
  %0 = stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xui32>
  // CHECK: stablehlo.bitcast_convert{{.*}}toast.sharding_rule = "([i])->([i, j]) {i=4, j=2} not_tileable={j}"
  %1 = stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4x2xbf16>
  // CHECK: stablehlo.bitcast_convert{{.*}}toast.sharding_rule = "([i, j])->([i]) {i=4, j=2} not_tileable={j}"
  %2 = stablehlo.bitcast_convert %y : (tensor<4x2xbf16>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @broadcast(
func.func @broadcast(%x: tensor<2x3xf32>) {
  // New leading dimensions get their own factors.
  // CHECK: stablehlo.broadcast{{.*}}toast.sharding_rule = "([k, l])->([i, j, k, l]) {i=4, j=5, k=2, l=3}"
  %0 = stablehlo.broadcast %x, sizes = [4, 5] : (tensor<2x3xf32>) -> tensor<4x5x2x3xf32>
  return
}

// CHECK-LABEL: func.func @broadcast_in_dim(
func.func @broadcast_in_dim(%v: tensor<128xf32>, %s: tensor<f32>, %o: tensor<1x3xf32>) {
  // CHECK: stablehlo.broadcast_in_dim{{.*}}toast.sharding_rule = "([j])->([i, j]) {i=4, j=128}"
  %0 = stablehlo.broadcast_in_dim %v, dims = [1] : (tensor<128xf32>) -> tensor<4x128xf32>
  // CHECK: stablehlo.broadcast_in_dim{{.*}}toast.sharding_rule = "([])->([i, j]) {i=2, j=3}"
  %1 = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  // The size-1 operand dimension 0 expands to 5: unmapped on the operand.
  // CHECK: stablehlo.broadcast_in_dim{{.*}}toast.sharding_rule = "([_, i])->([i, j, k]) {i=3, j=4, k=5}"
  %2 = stablehlo.broadcast_in_dim %o, dims = [2, 0] : (tensor<1x3xf32>) -> tensor<3x4x5xf32>
  // A size-1 dimension that stays size 1 is mapped.
  // CHECK: stablehlo.broadcast_in_dim{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=1, j=3}"
  %3 = stablehlo.broadcast_in_dim %o, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<1x3xf32>
  return
}

// CHECK-LABEL: func.func @case(
func.func @case(%i: tensor<i32>, %a: tensor<2x3xf32>) {
  // CHECK: stablehlo.case
  // CHECK: }) {toast.sharding_rule = "edges: #0 (region 0 return 0, region 1 return 0)->(result 0)"}
  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %a : tensor<2x3xf32>
  }, {
    stablehlo.return %a : tensor<2x3xf32>
  }) : (tensor<i32>) -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @cbrt(
func.func @cbrt(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.cbrt{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.cbrt %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @ceil(
func.func @ceil(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.ceil{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.ceil %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @cholesky(
func.func @cholesky(%a: tensor<2x3x3xf32>) {
  // CHECK: stablehlo.cholesky{{.*}}toast.sharding_rule = "([i, j, k])->([i, j, k]) {i=2, j=3, k=3} not_tileable={j, k}"
  %0 = stablehlo.cholesky %a, lower = true : tensor<2x3x3xf32>
  return
}

// CHECK-LABEL: func.func @clamp(
func.func @clamp(%x: tensor<2x3xf32>, %s: tensor<f32>) {
  // CHECK: stablehlo.clamp{{.*}}toast.sharding_rule = "([], [i, j], [])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.clamp %s, %x, %s : (tensor<f32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  // CHECK: stablehlo.clamp{{.*}}toast.sharding_rule = "([i, j], [i, j], [i, j])->([i, j]) {i=2, j=3}"
  %1 = stablehlo.clamp %x, %x, %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @collective_broadcast(
func.func @collective_broadcast(%x: tensor<8x4xf32>) {
  // CHECK: stablehlo.collective_broadcast{{.*}}toast.sharding_rule = "opaque"
  %0 = "stablehlo.collective_broadcast"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return
}

// CHECK-LABEL: func.func @collective_permute(
func.func @collective_permute(%x: tensor<8x4xf32>) {
  // CHECK: stablehlo.collective_permute{{.*}}toast.sharding_rule = "opaque"
  %0 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return
}

// CHECK-LABEL: func.func @compare(
func.func @compare(%a: tensor<2x3xf32>) {
  // CHECK: stablehlo.compare{{.*}}toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.compare LT, %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @complex(
func.func @complex(%re: tensor<2x3xf64>) {
  // CHECK: stablehlo.complex{{.*}}toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.complex %re, %re : tensor<2x3xcomplex<f64>>
  return
}

// CHECK-LABEL: func.func private @add_impl(
func.func private @add_impl(%x: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: stablehlo.add{{.*}}toast.sharding_rule = "([i], [i])->([i]) {i=2}"
  %0 = stablehlo.add %x, %y : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func.func @composite(
func.func @composite(%a: tensor<2xf32>) {
  // CHECK: stablehlo.composite{{.*}}toast.sharding_rule = "opaque"
  %0 = stablehlo.composite "my.add" %a, %a {decomposition = @add_impl} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// CHECK-LABEL: func.func @concatenate(
func.func @concatenate(%a: tensor<2x3xf32>, %b: tensor<5x3xf32>) {
  // CHECK: stablehlo.concatenate{{.*}}toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=7, j=3} not_tileable={i}"
  %0 = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2x3xf32>, tensor<5x3xf32>) -> tensor<7x3xf32>
  return
}

// CHECK-LABEL: func.func @constant(
func.func @constant() {
  // CHECK: stablehlo.constant{{.*}}toast.sharding_rule = "()->([i, j]) {i=4, j=5}"
  %0 = stablehlo.constant dense<0.0> : tensor<4x5xf32>
  // CHECK: stablehlo.constant{{.*}}toast.sharding_rule = "()->([]) {}"
  %1 = stablehlo.constant dense<1.0> : tensor<f32>
  return
}

// CHECK-LABEL: func.func @convert(
func.func @convert(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.convert{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.convert %x : (tensor<2x3xf32>) -> tensor<2x3xbf16>
  return
}

// CHECK-LABEL: func.func @convolution(
func.func @convolution(%x: tensor<8x32x32x3xf32>, %k: tensor<3x3x3x16xf32>, %n: tensor<8x3x32x32xf32>, %kn: tensor<16x3x1x1xf32>, %g: tensor<8x32x32x16xf32>, %kg: tensor<3x3x1x16xf32>) {
  // NHWC, 3x3 window: spatial dims are not tileable.
  // CHECK: stablehlo.convolution{{.*}}toast.sharding_rule = "([i, j, k, m], [_, _, m, l])->([i, j, k, l]) {i=8, j=32, k=32, l=16, m=3} reduction={m} not_tileable={j, k}"
  %0 = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x32x32x16xf32>
  // NCHW 1x1 convolution: pointwise in space.
  // CHECK: stablehlo.convolution{{.*}}toast.sharding_rule = "([i, m, j, k], [l, m, _, _])->([i, l, j, k]) {i=8, j=32, k=32, l=16, m=3} reduction={m}"
  %1 = stablehlo.convolution(%n, %kn) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x3x32x32xf32>, tensor<16x3x1x1xf32>) -> tensor<8x16x32x32xf32>
  // Depthwise: grouped input features stay unmapped.
  // CHECK: stablehlo.convolution{{.*}}toast.sharding_rule = "([i, j, k, _], [_, _, _, l])->([i, j, k, l]) {i=8, j=32, k=32, l=16} not_tileable={j, k}"
  %2 = stablehlo.convolution(%g, %kg) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 16 : i64} : (tensor<8x32x32x16xf32>, tensor<3x3x1x16xf32>) -> tensor<8x32x32x16xf32>
  return
}

// CHECK-LABEL: func.func @cosine(
func.func @cosine(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.cosine{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.cosine %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @count_leading_zeros(
func.func @count_leading_zeros(%x: tensor<2x3xi32>) {
  // CHECK: stablehlo.count_leading_zeros{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.count_leading_zeros %x : tensor<2x3xi32>
  return
}

// CHECK-LABEL: func.func @create_token(
func.func @create_token() {
  // CHECK: stablehlo.create_token{{.*}}toast.sharding_rule = "opaque"
  %0 = stablehlo.create_token : !stablehlo.token
  return
}

// CHECK-LABEL: func.func @custom_call(
func.func @custom_call(%x: tensor<3x4xf32>) {
  // CHECK: stablehlo.custom_call{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=3, j=4}"
  %0 = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = "{devices=[1,2]<=[2]}"} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  // CHECK: stablehlo.custom_call{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=3, j=4}"
  %1 = stablehlo.custom_call @MoveToHost(%x) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  // CHECK: stablehlo.custom_call{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=3, j=4}"
  %4 = stablehlo.custom_call @tt.mark_argument(%x) {mhlo.frontend_attributes = {ttir.name = "x"}} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  // A marker that changes the type is not an identity.
  // CHECK: stablehlo.custom_call{{.*}}toast.sharding_rule = "opaque"
  %5 = stablehlo.custom_call @tt.mark_argument(%x) : (tensor<3x4xf32>) -> tensor<4x3xf32>
  // CHECK: stablehlo.custom_call{{.*}}toast.sharding_rule = "opaque"
  %2 = stablehlo.custom_call @SPMDFullToShardShape(%x) {mhlo.sharding = "{manual}"} : (tensor<3x4xf32>) -> tensor<3x2xf32>
  // CHECK: stablehlo.custom_call{{.*}}toast.sharding_rule = "opaque"
  %3 = stablehlo.custom_call @foo(%x) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  // CHECK: stablehlo.custom_call{{.*}}toast.sharding_rule = "opaque"
  stablehlo.custom_call @check.expect_eq(%x, %x) {has_side_effect = true} : (tensor<3x4xf32>, tensor<3x4xf32>) -> ()
  return
}

// CHECK-LABEL: func.func @divide(
func.func @divide(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.divide{{.*}}toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.divide %x, %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @dot(
func.func @dot(%a: tensor<8x4xf32>, %b: tensor<4x16xf32>, %v: tensor<4xf32>) {
  // CHECK: stablehlo.dot{{.*}}toast.sharding_rule = "([i, k], [k, j])->([i, j]) {i=8, j=16, k=4} reduction={k}"
  %0 = stablehlo.dot %a, %b : (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
  // CHECK: stablehlo.dot{{.*}}toast.sharding_rule = "([i, j], [j])->([i]) {i=8, j=4} reduction={j}"
  %1 = stablehlo.dot %a, %v : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8xf32>
  // CHECK: stablehlo.dot{{.*}}toast.sharding_rule = "([i], [i])->([]) {i=4} reduction={i}"
  %2 = stablehlo.dot %v, %v : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @dot_general(
func.func @dot_general(%a: tensor<8x4xf32>, %b: tensor<4x16xf32>, %q: tensor<2x8x4x6xf32>, %k: tensor<2x6x8x5xf32>) {
  // CHECK: stablehlo.dot_general{{.*}}toast.sharding_rule = "([i, k], [k, j])->([i, j]) {i=8, j=16, k=4} reduction={k}"
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
  // Batching dims come first in the result, then lhs free, rhs free.
  // CHECK: stablehlo.dot_general{{.*}}toast.sharding_rule = "([i, m, k, j], [i, j, m, l])->([i, j, k, l]) {i=2, j=6, k=4, l=5, m=8} reduction={m}"
  %1 = stablehlo.dot_general %q, %k, batching_dims = [0, 3] x [0, 1], contracting_dims = [1] x [2] : (tensor<2x8x4x6xf32>, tensor<2x6x8x5xf32>) -> tensor<2x6x4x5xf32>
  return
}

// CHECK-LABEL: func.func @dynamic_slice(
func.func @dynamic_slice(%x: tensor<8x4xf32>, %i: tensor<i64>) {
  // CHECK: stablehlo.dynamic_slice{{.*}}toast.sharding_rule = "([i, j], [], [])->([i, j]) {i=2, j=4} not_tileable={i}"
  %0 = stablehlo.dynamic_slice %x, %i, %i, sizes = [2, 4] : (tensor<8x4xf32>, tensor<i64>, tensor<i64>) -> tensor<2x4xf32>
  return
}

// CHECK-LABEL: func.func @dynamic_update_slice(
func.func @dynamic_update_slice(%x: tensor<8x4xf32>, %u: tensor<2x4xf32>, %i: tensor<i64>) {
  // CHECK: stablehlo.dynamic_update_slice{{.*}}toast.sharding_rule = "([i, j], [i, j], [], [])->([i, j]) {i=8, j=4} not_tileable={i}"
  %0 = stablehlo.dynamic_update_slice %x, %u, %i, %i : (tensor<8x4xf32>, tensor<2x4xf32>, tensor<i64>, tensor<i64>) -> tensor<8x4xf32>
  return
}

// CHECK-LABEL: func.func @einsum(
func.func @einsum(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %q: tensor<5x2x3xf32>, %s: tensor<3x3xf32>) {
  // Letters of the result are parallel, summed ones reductions.
  // CHECK: stablehlo.einsum{{.*}}toast.sharding_rule = "([i, j], [j, k])->([i, k]) {i=2, j=3, k=4} reduction={j}"
  %0 = stablehlo.einsum %a, %b, config = "ab,bc->ac" : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  // `...` labels align on the minor dimensions; a letter of one operand
  // only that the result lacks is a reduction too.
  // CHECK: stablehlo.einsum{{.*}}toast.sharding_rule = "([i, j, k], [j, k])->([i, j]) {i=5, j=2, k=3} reduction={k}"
  %1 = stablehlo.einsum %q, %a, config = "...ij,...ij->...i" : (tensor<5x2x3xf32>, tensor<2x3xf32>) -> tensor<5x2xf32>
  // A diagonal is not tileable; its second dimension stays unmapped.
  // CHECK: stablehlo.einsum{{.*}}toast.sharding_rule = "([i, _], [i, j])->([j]) {i=3, j=4} not_tileable={i}"
  %2 = stablehlo.einsum %s, %b, config = "aa,ab->b" : (tensor<3x3xf32>, tensor<3x4xf32>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @exponential(
func.func @exponential(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.exponential{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.exponential %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @exponential_minus_one(
func.func @exponential_minus_one(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.exponential_minus_one{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.exponential_minus_one %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @fft(
func.func @fft(%x: tensor<4x16xf32>, %c: tensor<2x4x8xcomplex<f32>>) {
  // CHECK: stablehlo.fft{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=4, j=9} not_tileable={j}"
  %0 = stablehlo.fft %x, type = RFFT, length = [16] : (tensor<4x16xf32>) -> tensor<4x9xcomplex<f32>>
  // CHECK: stablehlo.fft{{.*}}toast.sharding_rule = "([i, j, k])->([i, j, k]) {i=2, j=4, k=8} not_tileable={j, k}"
  %1 = stablehlo.fft %c, type = FFT, length = [4, 8] : (tensor<2x4x8xcomplex<f32>>) -> tensor<2x4x8xcomplex<f32>>
  return
}

// CHECK-LABEL: func.func @floor(
func.func @floor(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.floor{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.floor %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @gather(
func.func @gather(%table: tensor<1000x64xf32>, %ids: tensor<8x16x1xi32>, %x: tensor<2x8x4xf32>, %i: tensor<2x3x1xi32>, %t: tensor<10x10x10x10xf32>, %j: tensor<1x1x4x3xi64>) {
  // Embedding lookup: batch dims of the ids, full rows of the table.
  // CHECK: stablehlo.gather{{.*}}toast.sharding_rule = "([_, k], [i, j, _])->([i, j, k]) {i=8, j=16, k=64}"
  %0 = "stablehlo.gather"(%table, %ids) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 64>}> : (tensor<1000x64xf32>, tensor<8x16x1xi32>) -> tensor<8x16x64xf32>
  // Batching dims join the operand's batching dim.
  // CHECK: stablehlo.gather{{.*}}toast.sharding_rule = "([i, _, k], [i, j, _])->([i, j, k]) {i=2, j=3, k=4}"
  %1 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1, 4>}> : (tensor<2x8x4xf32>, tensor<2x3x1xi32>) -> tensor<2x3x4xf32>
  // Partial windows stay unmapped; only the full dim 0 is tileable.
  // CHECK: stablehlo.gather{{.*}}toast.sharding_rule = "([j, _, _, _], [i, k, l, _])->([i, j, _, _, _, k, l]) {i=1, j=10, k=1, l=4}"
  %2 = "stablehlo.gather"(%t, %j) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2, 3, 4], start_index_map = [1, 2, 3], index_vector_dim = 3>, slice_sizes = array<i64: 10, 2, 2, 2>}> : (tensor<10x10x10x10xf32>, tensor<1x1x4x3xi64>) -> tensor<1x10x2x2x2x1x4xf32>
  return
}

// CHECK-LABEL: func.func @get_dimension_size(
func.func @get_dimension_size(%x: tensor<2x3xf32>) {
  // A tile would report its own size: nothing is tileable.
  // CHECK: stablehlo.get_dimension_size{{.*}}toast.sharding_rule = "([i, j])->([]) {i=2, j=3} not_tileable={i, j}"
  %0 = stablehlo.get_dimension_size %x, dim = 1 : (tensor<2x3xf32>) -> tensor<i32>
  return
}

// CHECK-LABEL: func.func @get_tuple_element(
func.func @get_tuple_element(%t: tuple<tensor<2x3xf32>, tensor<i32>>) {
  // Tuples have no dimensions to map: opaque.
  // CHECK: stablehlo.get_tuple_element{{.*}}toast.sharding_rule = "opaque"
  %0 = stablehlo.get_tuple_element %t[0] : (tuple<tensor<2x3xf32>, tensor<i32>>) -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @if(
func.func @if(%p: tensor<i1>, %a: tensor<2x3xf32>) {
  // CHECK: stablehlo.if
  // CHECK: }) {toast.sharding_rule = "edges: #0 (region 0 return 0, region 1 return 0)->(result 0)"}
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<2x3xf32>
  }, {
    stablehlo.return %a : tensor<2x3xf32>
  }) : (tensor<i1>) -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @imag(
func.func @imag(%c: tensor<2x3xcomplex<f32>>) {
  // CHECK: stablehlo.imag{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.imag %c : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @infeed(
func.func @infeed(%t: !stablehlo.token) {
  // Transfers stay whole on every device and keep their order: opaque.
  // CHECK: stablehlo.infeed{{.*}}toast.sharding_rule = "opaque"
  %0:2 = "stablehlo.infeed"(%t) {infeed_config = ""} : (!stablehlo.token) -> (tensor<2x3xf32>, !stablehlo.token)
  return
}

// CHECK-LABEL: func.func @iota(
func.func @iota() {
  // CHECK: stablehlo.iota{{.*}}toast.sharding_rule = "()->([i, j]) {i=4, j=5} not_tileable={j}"
  %0 = stablehlo.iota dim = 1 : tensor<4x5xi32>
  return
}

// CHECK-LABEL: func.func @is_finite(
func.func @is_finite(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.is_finite{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.is_finite %x : (tensor<2x3xf32>) -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @log(
func.func @log(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.log{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.log %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @log_plus_one(
func.func @log_plus_one(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.log_plus_one{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.log_plus_one %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @logistic(
func.func @logistic(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.logistic{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.logistic %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @map(
func.func @map(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.map
  // CHECK: }) {toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=2, j=3}"}
  %0 = "stablehlo.map"(%x, %x) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.multiply %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @maximum(
func.func @maximum(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.maximum{{.*}}toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.maximum %x, %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @minimum(
func.func @minimum(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.minimum{{.*}}toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.minimum %x, %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @multiply(
func.func @multiply(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.multiply{{.*}}toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.multiply %x, %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @negate(
func.func @negate(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.negate{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.negate %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @not(
func.func @not(%x: tensor<2x3xi1>) {
  // CHECK: stablehlo.not{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.not %x : tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @optimization_barrier(
func.func @optimization_barrier(%a: tensor<2x3xf32>, %p: tensor<i1>) {
  // CHECK: stablehlo.optimization_barrier{{.*}}toast.sharding_rule = "([i, j], [])->([i, j], []) {i=2, j=3}"
  %0:2 = stablehlo.optimization_barrier %a, %p : tensor<2x3xf32>, tensor<i1>
  return
}

// CHECK-LABEL: func.func @or(
func.func @or(%x: tensor<2x3xi1>) {
  // CHECK: stablehlo.or{{.*}}toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.or %x, %x : tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @outfeed(
func.func @outfeed(%x: tensor<2x3xf32>, %t: !stablehlo.token) {
  // CHECK: stablehlo.outfeed{{.*}}toast.sharding_rule = "opaque"
  %0 = "stablehlo.outfeed"(%x, %t) {outfeed_config = ""} : (tensor<2x3xf32>, !stablehlo.token) -> !stablehlo.token
  return
}

// CHECK-LABEL: func.func @pad(
func.func @pad(%x: tensor<2x3xf32>, %z: tensor<f32>) {
  // CHECK: stablehlo.pad{{.*}}toast.sharding_rule = "([i, j], [])->([i, j]) {i=2, j=6} not_tileable={j}"
  %0 = stablehlo.pad %x, %z, low = [0, 1], high = [0, 2], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x6xf32>
  return
}

// CHECK-LABEL: func.func @partition_id(
func.func @partition_id() {
  // CHECK: stablehlo.partition_id{{.*}}toast.sharding_rule = "opaque"
  %0 = stablehlo.partition_id : tensor<ui32>
  return
}

// CHECK-LABEL: func.func @popcnt(
func.func @popcnt(%x: tensor<2x3xi32>) {
  // CHECK: stablehlo.popcnt{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.popcnt %x : tensor<2x3xi32>
  return
}

// CHECK-LABEL: func.func @power(
func.func @power(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.power{{.*}}toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.power %x, %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @real(
func.func @real(%c: tensor<2x3xcomplex<f32>>) {
  // CHECK: stablehlo.real{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.real %c : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @recv(
func.func @recv(%t: !stablehlo.token) {
  // CHECK: stablehlo.recv{{.*}}toast.sharding_rule = "opaque"
  %0:2 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 3>, is_host_transfer = true} : (!stablehlo.token) -> (tensor<2x3xf32>, !stablehlo.token)
  return
}

// CHECK-LABEL: func.func @reduce(
func.func @reduce(%x: tensor<2x64x13xf32>, %z: tensor<f32>, %i: tensor<2x64x13xi32>, %zi: tensor<i32>) {
  // CHECK: stablehlo.reduce{{.*}}toast.sharding_rule = "([i, j, k], [])->([i, k]) {i=2, j=64, k=13} reduction={j}"
  %0 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<2x64x13xf32>, tensor<f32>) -> tensor<2x13xf32>
  // Variadic: every input and result share the factors.
  // CHECK: stablehlo.reduce{{.*}}toast.sharding_rule = "([i, j, k], [i, j, k], [], [])->([j], [j]) {i=2, j=64, k=13} reduction={i, k}"
  %1:2 = stablehlo.reduce(%x init: %z), (%i init: %zi) across dimensions = [0, 2] : (tensor<2x64x13xf32>, tensor<2x64x13xi32>, tensor<f32>, tensor<i32>) -> (tensor<64xf32>, tensor<64xi32>)
   reducer(%a1: tensor<f32>, %a3: tensor<f32>) (%a2: tensor<i32>, %a4: tensor<i32>) {
    %c = stablehlo.compare GT, %a1, %a3 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %m = stablehlo.select %c, %a1, %a3 : tensor<i1>, tensor<f32>
    %n = stablehlo.select %c, %a2, %a4 : tensor<i1>, tensor<i32>
    stablehlo.return %m, %n : tensor<f32>, tensor<i32>
  }
  return
}

// CHECK-LABEL: func.func @reduce_precision(
func.func @reduce_precision(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.reduce_precision{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.reduce_precision %x, format = e5m10 : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @reduce_scatter(
func.func @reduce_scatter(%x: tensor<8x4xf32>) {
  // CHECK: stablehlo.reduce_scatter
  // CHECK: }) {toast.sharding_rule = "opaque"}
  %0 = "stablehlo.reduce_scatter"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 1 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<8x4xf32>) -> tensor<8x2xf32>
  return
}

// CHECK-LABEL: func.func @reduce_window(
func.func @reduce_window(%x: tensor<8x112x112x3xf32>, %z: tensor<f32>) {
  // Max pooling: the window dims are not tileable, batch and channels are.
  // CHECK: stablehlo.reduce_window
  // CHECK: }) {toast.sharding_rule = "([i, j, k, l], [])->([i, j, k, l]) {i=8, j=56, k=56, l=3} not_tileable={j, k}"}
  %0 = "stablehlo.reduce_window"(%x, %z) <{padding = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<8x112x112x3xf32>, tensor<f32>) -> tensor<8x56x56x3xf32>
  return
}

// CHECK-LABEL: func.func @remainder(
func.func @remainder(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.remainder{{.*}}toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.remainder %x, %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @replica_id(
func.func @replica_id() {
  // CHECK: stablehlo.replica_id{{.*}}toast.sharding_rule = "opaque"
  %0 = stablehlo.replica_id : tensor<ui32>
  return
}

// CHECK-LABEL: func.func @reshape(
func.func @reshape(%a: tensor<16xf32>, %b: tensor<4x4xf32>, %c: tensor<1x28x28x1xf32>, %d: tensor<2x3x4xf32>, %e: tensor<6x4xf32>, %f: tensor<4x6xf32>, %g: tensor<2x4x8xf32>, %h: tensor<32x3xf32>) {
  // Split: a factor per output dim; the input dim is compound, major first.
  // CHECK: stablehlo.reshape{{.*}}toast.sharding_rule = "([ij])->([i, j]) {i=4, j=4}"
  %0 = stablehlo.reshape %a : (tensor<16xf32>) -> tensor<4x4xf32>
  // Merge: a factor per input dim; the merged output dim maps both.
  // CHECK: stablehlo.reshape{{.*}}toast.sharding_rule = "([i, j])->([ij]) {i=4, j=4}"
  %1 = stablehlo.reshape %b : (tensor<4x4xf32>) -> tensor<16xf32>
  // Size-1 dims are unmapped.
  // CHECK: stablehlo.reshape{{.*}}toast.sharding_rule = "([_, i, j, _])->([_, ij]) {i=28, j=28}"
  %2 = stablehlo.reshape %c : (tensor<1x28x28x1xf32>) -> tensor<1x784xf32>
  // Equal dims map 1:1 around a merge.
  // CHECK: stablehlo.reshape{{.*}}toast.sharding_rule = "([i, j, k])->([i, jk]) {i=2, j=3, k=4}"
  %3 = stablehlo.reshape %d : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  // Mixed group 6x4 -> 4x6 (4 does not divide 6, no chain of factors): only
  // the major dims map, to gcd(6, 4) = 2.
  // CHECK: stablehlo.reshape{{.*}}toast.sharding_rule = "([i, _])->([i, _]) {i=2}"
  %4 = stablehlo.reshape %e : (tensor<6x4xf32>) -> tensor<4x6xf32>
  // Mixed group 4x6 -> 2x12 (chain 2 | 4 | 24): both sides compound.
  // CHECK: stablehlo.reshape{{.*}}toast.sharding_rule = "([ij, k])->([i, jk]) {i=2, j=2, k=6}"
  %5 = stablehlo.reshape %f : (tensor<4x6xf32>) -> tensor<2x12xf32>
  // Head split (B, S, H*K) -> (B, S, H, K): H is the major factor.
  // CHECK: stablehlo.reshape{{.*}}toast.sharding_rule = "([i, j, kl])->([i, j, k, l]) {i=2, j=4, k=4, l=2}"
  %6 = stablehlo.reshape %g : (tensor<2x4x8xf32>) -> tensor<2x4x4x2xf32>
  // Unflatten (B*S, D) -> (B, S, D).
  // CHECK: stablehlo.reshape{{.*}}toast.sharding_rule = "([ij, k])->([i, j, k]) {i=4, j=8, k=3}"
  %7 = stablehlo.reshape %h : (tensor<32x3xf32>) -> tensor<4x8x3xf32>
  return
}

// CHECK-LABEL: func.func @reverse(
func.func @reverse(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.reverse{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3} not_tileable={j}"
  %0 = stablehlo.reverse %x, dims = [1] : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @rng(
func.func @rng(%a: tensor<f32>, %shape: tensor<2xi64>) {
  // CHECK: stablehlo.rng{{.*}}toast.sharding_rule = "opaque"
  %0 = stablehlo.rng %a, %a, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  return
}

// CHECK-LABEL: func.func @rng_bit_generator(
func.func @rng_bit_generator(%s: tensor<2xui64>) {
  // CHECK: stablehlo.rng_bit_generator{{.*}}toast.sharding_rule = "opaque"
  %0:2 = stablehlo.rng_bit_generator %s, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4x5xui32>)
  return
}

// CHECK-LABEL: func.func @round_nearest_afz(
func.func @round_nearest_afz(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.round_nearest_afz{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.round_nearest_afz %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @round_nearest_even(
func.func @round_nearest_even(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.round_nearest_even{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.round_nearest_even %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @rsqrt(
func.func @rsqrt(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.rsqrt{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.rsqrt %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @scatter(
func.func @scatter(%grad: tensor<1000x64xf32>, %ids: tensor<8x16x1xi32>, %upd: tensor<8x16x64xf32>, %x: tensor<2x8xf32>, %i: tensor<2x3x1xi32>, %u: tensor<2x3xf32>) {
  // Embedding gradient (scatter-add): the ids' batch dims are a reduction.
  // CHECK: stablehlo.scatter
  // CHECK: }) {toast.sharding_rule = "([i, j], [k, l, _], [k, l, j])->([i, j]) {i=1000, j=64, k=8, l=16} reduction={k, l} not_tileable={i}"}
  %0 = "stablehlo.scatter"(%grad, %ids, %upd) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<1000x64xf32>, tensor<8x16x1xi32>, tensor<8x16x64xf32>) -> tensor<1000x64xf32>
  // Overwriting scatter with batching dims: the batching dim is parallel.
  // CHECK: stablehlo.scatter
  // CHECK: }) {toast.sharding_rule = "([i, j], [i, _, _], [i, _])->([i, j]) {i=2, j=8} not_tileable={j}"}
  %1 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    stablehlo.return %b : tensor<f32>
  }) : (tensor<2x8xf32>, tensor<2x3x1xi32>, tensor<2x3xf32>) -> tensor<2x8xf32>
  return
}

// CHECK-LABEL: func.func @select(
func.func @select(%p: tensor<2x3xi1>, %s: tensor<i1>, %x: tensor<2x3xf32>) {
  // CHECK: stablehlo.select{{.*}}toast.sharding_rule = "([i, j], [i, j], [i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.select %p, %x, %x : tensor<2x3xi1>, tensor<2x3xf32>
  // CHECK: stablehlo.select{{.*}}toast.sharding_rule = "([], [i, j], [i, j])->([i, j]) {i=2, j=3}"
  %1 = stablehlo.select %s, %x, %x : tensor<i1>, tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @select_and_scatter(
func.func @select_and_scatter(%o: tensor<2x4x6xf32>, %s: tensor<2x2x6xf32>, %z: tensor<f32>) {
  // CHECK: stablehlo.select_and_scatter
  // CHECK: }) {toast.sharding_rule = "([i, j, k], [i, j, k], [])->([i, j, k]) {i=2, j=4, k=6} not_tileable={j}"}
  %0 = "stablehlo.select_and_scatter"(%o, %s, %z) <{window_dimensions = array<i64: 1, 2, 1>, window_strides = array<i64: 1, 2, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) : (tensor<2x4x6xf32>, tensor<2x2x6xf32>, tensor<f32>) -> tensor<2x4x6xf32>
  return
}

// CHECK-LABEL: func.func @send(
func.func @send(%x: tensor<2x3xf32>, %t: !stablehlo.token) {
  // CHECK: stablehlo.send{{.*}}toast.sharding_rule = "opaque"
  %0 = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>, is_host_transfer = true} : (tensor<2x3xf32>, !stablehlo.token) -> !stablehlo.token
  return
}

// CHECK-LABEL: func.func @shift_left(
func.func @shift_left(%x: tensor<2x3xi32>) {
  // CHECK: stablehlo.shift_left{{.*}}toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.shift_left %x, %x : tensor<2x3xi32>
  return
}

// CHECK-LABEL: func.func @shift_right_arithmetic(
func.func @shift_right_arithmetic(%x: tensor<2x3xi32>) {
  // CHECK: stablehlo.shift_right_arithmetic{{.*}}toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.shift_right_arithmetic %x, %x : tensor<2x3xi32>
  return
}

// CHECK-LABEL: func.func @shift_right_logical(
func.func @shift_right_logical(%x: tensor<2x3xi32>) {
  // CHECK: stablehlo.shift_right_logical{{.*}}toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.shift_right_logical %x, %x : tensor<2x3xi32>
  return
}

// CHECK-LABEL: func.func @sign(
func.func @sign(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.sign{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.sign %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @sine(
func.func @sine(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.sine{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.sine %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @slice(
func.func @slice(%x: tensor<2x4x6xf32>) {
  // Dim 0 is whole, dim 1 is cut, dim 2 is strided.
  // CHECK: stablehlo.slice{{.*}}toast.sharding_rule = "([i, j, k])->([i, j, k]) {i=2, j=2, k=3} not_tileable={j, k}"
  %0 = stablehlo.slice %x [0:2, 1:3, 0:6:2] : (tensor<2x4x6xf32>) -> tensor<2x2x3xf32>
  return
}

// CHECK-LABEL: func.func @sort(
func.func @sort(%k: tensor<5x7xf32>, %v: tensor<5x7xi32>) {
  // CHECK: stablehlo.sort
  // CHECK: }) {toast.sharding_rule = "([i, j], [i, j])->([i, j], [i, j]) {i=5, j=7} not_tileable={j}"}
  %0:2 = "stablehlo.sort"(%k, %v) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %p = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<5x7xf32>, tensor<5x7xi32>) -> (tensor<5x7xf32>, tensor<5x7xi32>)
  // dimension = -1 is the last dimension.
  // CHECK: stablehlo.sort
  // CHECK: }) {toast.sharding_rule = "([i, j])->([i, j]) {i=5, j=7} not_tileable={j}"}
  %1 = "stablehlo.sort"(%k) <{dimension = -1 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) : (tensor<5x7xf32>) -> tensor<5x7xf32>
  return
}

// CHECK-LABEL: func.func @sqrt(
func.func @sqrt(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.sqrt{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.sqrt %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @subtract(
func.func @subtract(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.subtract{{.*}}toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.subtract %x, %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @tan(
func.func @tan(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.tan{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.tan %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @tanh(
func.func @tanh(%x: tensor<2x3xf32>) {
  // CHECK: stablehlo.tanh{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.tanh %x : tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @torch_index_select(
func.func @torch_index_select(%x: tensor<5x4xf32>, %i: tensor<3xi32>, %b: tensor<8x6x10x2xf32>, %j: tensor<8x7xi32>) {
  // The selected dimension stays unmapped, like an indexed gather dimension.
  // CHECK: stablehlo.torch_index_select{{.*}}toast.sharding_rule = "([_, j], [i])->([i, j]) {i=3, j=4}"
  %0 = "stablehlo.torch_index_select"(%x, %i) {batch_dims = 0 : i64, dim = 0 : i64} : (tensor<5x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  // A batch dimension maps the operand, the index and the result.
  // CHECK: stablehlo.torch_index_select{{.*}}toast.sharding_rule = "([i, j, _, l], [i, k])->([i, j, k, l]) {i=8, j=6, k=7, l=2}"
  %1 = "stablehlo.torch_index_select"(%b, %j) {batch_dims = 1 : i64, dim = 2 : i64} : (tensor<8x6x10x2xf32>, tensor<8x7xi32>) -> tensor<8x6x7x2xf32>
  return
}

// CHECK-LABEL: func.func @transpose(
func.func @transpose(%x: tensor<2x3x4xf32>) {
  // CHECK: stablehlo.transpose{{.*}}toast.sharding_rule = "([j, k, i])->([i, j, k]) {i=4, j=2, k=3}"
  %0 = stablehlo.transpose %x, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return
}

// CHECK-LABEL: func.func @triangular_solve(
func.func @triangular_solve(%a: tensor<2x3x3xf32>, %b: tensor<2x3x4xf32>) {
  // CHECK: stablehlo.triangular_solve{{.*}}toast.sharding_rule = "([i, _, _], [i, j, k])->([i, j, k]) {i=2, j=3, k=4} not_tileable={j, k}"
  %0 = "stablehlo.triangular_solve"(%a, %b) <{left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>}> : (tensor<2x3x3xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// CHECK-LABEL: func.func @tuple(
func.func @tuple(%x: tensor<2x3xf32>, %i: tensor<i32>) {
  // CHECK: stablehlo.tuple{{.*}}toast.sharding_rule = "opaque"
  %0 = stablehlo.tuple %x, %i : tuple<tensor<2x3xf32>, tensor<i32>>
  return
}

// CHECK-LABEL: func.func @unary_einsum(
func.func @unary_einsum(%a: tensor<2x3xf32>, %s: tensor<3x3xf32>) {
  // CHECK: stablehlo.unary_einsum{{.*}}toast.sharding_rule = "([i, j])->([i]) {i=2, j=3} reduction={j}"
  %0 = stablehlo.unary_einsum %a, config = "ab->a" : (tensor<2x3xf32>) -> tensor<2xf32>
  // CHECK: stablehlo.unary_einsum{{.*}}toast.sharding_rule = "([i, j])->([j, i]) {i=2, j=3}"
  %1 = stablehlo.unary_einsum %a, config = "ab->ba" : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // CHECK: stablehlo.unary_einsum{{.*}}toast.sharding_rule = "([i, _])->([]) {i=3} not_tileable={i}"
  %2 = stablehlo.unary_einsum %s, config = "ii->" : (tensor<3x3xf32>) -> tensor<f32>
  return
}

// while ties operand i, both regions' argument i, the body's return operand
// i and result i (Shardy's data-flow edges); it has no rule of its own.
// CHECK-LABEL: func.func @while(
func.func @while(%n: tensor<i64>, %v: tensor<4x8xf32>) {
  // CHECK: stablehlo.while{{.*}}toast.sharding_rule = "edges: #0 (operand 0, region 1 return 0)->(result 0, region 0 arg 0, region 1 arg 0) #1 (operand 1, region 1 return 1)->(result 1, region 0 arg 1, region 1 arg 1)"
  %0:2 = stablehlo.while(%i = %n, %x = %v) : tensor<i64>, tensor<4x8xf32>
   cond {
    %p = stablehlo.compare LT, %i, %i : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    // CHECK: stablehlo.exponential{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=4, j=8}"
    %y = stablehlo.exponential %x : tensor<4x8xf32>
    stablehlo.return %i, %y : tensor<i64>, tensor<4x8xf32>
  }
  return
}

// CHECK-LABEL: func.func @xor(
func.func @xor(%x: tensor<2x3xi1>) {
  // CHECK: stablehlo.xor{{.*}}toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=2, j=3}"
  %0 = stablehlo.xor %x, %x : tensor<2x3xi1>
  return
}

// CHLO.

// CHECK-LABEL: func.func @chlo_acos(
func.func @chlo_acos(%x: tensor<2x3xf32>) {
  // CHECK: chlo.acos{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.acos %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @chlo_acosh(
func.func @chlo_acosh(%x: tensor<2x3xf32>) {
  // CHECK: chlo.acosh{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.acosh %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @chlo_asin(
func.func @chlo_asin(%x: tensor<2x3xf32>) {
  // CHECK: chlo.asin{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.asin %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @chlo_asinh(
func.func @chlo_asinh(%x: tensor<2x3xf32>) {
  // CHECK: chlo.asinh{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.asinh %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @chlo_atan(
func.func @chlo_atan(%x: tensor<2x3xf32>) {
  // CHECK: chlo.atan{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.atan %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @chlo_atanh(
func.func @chlo_atanh(%x: tensor<2x3xf32>) {
  // CHECK: chlo.atanh{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.atanh %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @chlo_bessel_i1e(
func.func @chlo_bessel_i1e(%x: tensor<2x3xf32>) {
  // CHECK: chlo.bessel_i1e{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.bessel_i1e %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @chlo_conj(
func.func @chlo_conj(%x: tensor<2x3xf32>) {
  // CHECK: chlo.conj{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.conj %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @chlo_cosh(
func.func @chlo_cosh(%x: tensor<2x3xf32>) {
  // CHECK: chlo.cosh{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.cosh %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @chlo_digamma(
func.func @chlo_digamma(%x: tensor<2x3xf32>) {
  // CHECK: chlo.digamma{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.digamma %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @chlo_erf(
func.func @chlo_erf(%x: tensor<2x3xf32>) {
  // CHECK: chlo.erf{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.erf %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @chlo_erf_inv(
func.func @chlo_erf_inv(%x: tensor<2x3xf32>) {
  // CHECK: chlo.erf_inv{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.erf_inv %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @chlo_erfc(
func.func @chlo_erfc(%x: tensor<2x3xf32>) {
  // CHECK: chlo.erfc{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.erfc %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @chlo_is_inf(
func.func @chlo_is_inf(%x: tensor<2x3xf32>) {
  // CHECK: chlo.is_inf{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.is_inf %x : tensor<2x3xf32> -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @chlo_is_neg_inf(
func.func @chlo_is_neg_inf(%x: tensor<2x3xf32>) {
  // CHECK: chlo.is_neg_inf{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.is_neg_inf %x : tensor<2x3xf32> -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @chlo_is_pos_inf(
func.func @chlo_is_pos_inf(%x: tensor<2x3xf32>) {
  // CHECK: chlo.is_pos_inf{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.is_pos_inf %x : tensor<2x3xf32> -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @chlo_lgamma(
func.func @chlo_lgamma(%x: tensor<2x3xf32>) {
  // CHECK: chlo.lgamma{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.lgamma %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @chlo_next_after(
func.func @chlo_next_after(%x: tensor<2x3xf32>) {
  // CHECK: chlo.next_after{{.*}}toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.next_after %x, %x : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @chlo_polygamma(
func.func @chlo_polygamma(%x: tensor<2x3xf32>) {
  // CHECK: chlo.polygamma{{.*}}toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.polygamma %x, %x : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @chlo_sinh(
func.func @chlo_sinh(%x: tensor<2x3xf32>) {
  // CHECK: chlo.sinh{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.sinh %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @chlo_square(
func.func @chlo_square(%x: tensor<2x3xf32>) {
  // CHECK: chlo.square{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.square %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @chlo_tan(
func.func @chlo_tan(%x: tensor<2x3xf32>) {
  // CHECK: chlo.tan{{.*}}toast.sharding_rule = "([i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.tan %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @chlo_top_k(
func.func @chlo_top_k(%x: tensor<5x3x10xf32>) {
  // CHECK: chlo.top_k{{.*}}toast.sharding_rule = "([i, j, k])->([i, j, k], [i, j, k]) {i=5, j=3, k=2} not_tileable={k}"
  %0:2 = chlo.top_k(%x, k = 2) : tensor<5x3x10xf32> -> (tensor<5x3x2xf32>, tensor<5x3x2xi32>)
  return
}

// CHECK-LABEL: func.func @chlo_zeta(
func.func @chlo_zeta(%x: tensor<2x3xf32>) {
  // CHECK: chlo.zeta{{.*}}toast.sharding_rule = "([i, j], [i, j])->([i, j]) {i=2, j=3}"
  %0 = chlo.zeta %x, %x : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return
}
