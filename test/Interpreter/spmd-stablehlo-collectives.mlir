// StableHLO collectives on 4 simulated partitions, checked on every device
// against values computed from its partition_id: the process groups of the
// specification's modes for one replica (flattened ids, cross_partition,
// cross_replica, cross_replica_and_partition), all_gather, all_reduce,
// reduce_scatter, all_to_all, collective_permute, collective_broadcast.
// RUN: toast-run %s | FileCheck %s
// CHECK: @main runs SPMD on 4 devices (exported StableHLO)
// CHECK: @main: 48 checks passed, 0 failed

module attributes {mhlo.num_partitions = 4 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main() {
    %pid = stablehlo.partition_id : tensor<ui32>
    %p = stablehlo.convert %pid : (tensor<ui32>) -> tensor<f32>
    %x = stablehlo.broadcast_in_dim %p, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %one = stablehlo.constant dense<1.0> : tensor<2xf32>
    %two = stablehlo.constant dense<2.0> : tensor<2xf32>
    %three = stablehlo.constant dense<3.0> : tensor<2xf32>
    %four = stablehlo.constant dense<4.0> : tensor<2xf32>
    %six = stablehlo.constant dense<6.0> : tensor<2xf32>

    // Flattened ids: devices {0, 2} and {1, 3} add: 2 and 4.
    %sum = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    %odd = stablehlo.remainder %x, %two : tensor<2xf32>
    %odd2 = stablehlo.multiply %odd, %two : tensor<2xf32>
    %sumExpected = stablehlo.add %odd2, %two : tensor<2xf32>
    stablehlo.custom_call @check.expect_eq(%sum, %sumExpected) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()

    // A region the interpreter does not recognize as one op (a - b + b + b
    // = a + b) runs per element.
    %sum2 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %d = stablehlo.subtract %a, %b : tensor<f32>
      %e = stablehlo.add %d, %b : tensor<f32>
      %f = stablehlo.add %e, %b : tensor<f32>
      stablehlo.return %f : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    stablehlo.custom_call @check.expect_eq(%sum2, %six) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()

    // cross_replica (no channel): each device is alone with its replica.
    %alone = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0]]> : tensor<1x1xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    stablehlo.custom_call @check.expect_eq(%alone, %x) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()

    // cross_replica_and_partition (channel, replica ids): all partitions.
    %all = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<[[0]]> : tensor<1x1xi64>}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2xf32>) -> tensor<2xf32>
    stablehlo.custom_call @check.expect_eq(%all, %six) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()

    // all_gather in group order: [3, 3, 1, 1] on devices 1 and 3.
    %g = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, replica_groups = dense<[[2, 0], [3, 1]]> : tensor<2x2xi64>, use_global_device_ids}> : (tensor<2xf32>) -> tensor<4xf32>
    %g0 = stablehlo.slice %g [0:2] : (tensor<4xf32>) -> tensor<2xf32>
    %g1 = stablehlo.slice %g [2:4] : (tensor<4xf32>) -> tensor<2xf32>
    %gExpected0 = stablehlo.add %odd, %two : tensor<2xf32>
    stablehlo.custom_call @check.expect_eq(%g0, %gExpected0) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
    stablehlo.custom_call @check.expect_eq(%g1, %odd) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()

    // reduce_scatter over everyone: element i of the sum goes to device i.
    %iota = stablehlo.iota dim = 0 : tensor<4xf32>
    %xi = stablehlo.broadcast_in_dim %p, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %v = stablehlo.add %iota, %xi : tensor<4xf32>
    %rs = "stablehlo.reduce_scatter"(%v) <{scatter_dimension = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<4xf32>) -> tensor<1xf32>
    // sum over devices d of (i + d) at i = pid: 4 pid + 6.
    %p1 = stablehlo.reshape %p : (tensor<f32>) -> tensor<1xf32>
    %four1 = stablehlo.constant dense<4.0> : tensor<1xf32>
    %six1 = stablehlo.constant dense<6.0> : tensor<1xf32>
    %p4 = stablehlo.multiply %p1, %four1 : tensor<1xf32>
    %rsExpected = stablehlo.add %p4, %six1 : tensor<1xf32>
    stablehlo.custom_call @check.expect_eq(%rs, %rsExpected) {has_side_effect = true} : (tensor<1xf32>, tensor<1xf32>) -> ()

    // all_to_all: device d sends element j of its [10d + j] to member j and
    // receives [10j + d] from each member j.
    %ten = stablehlo.constant dense<10.0> : tensor<4xf32>
    %tenp = stablehlo.multiply %xi, %ten : tensor<4xf32>
    %mine = stablehlo.add %tenp, %iota : tensor<4xf32>
    %a2a = "stablehlo.all_to_all"(%mine) <{split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 4 : i64, channel_handle = #stablehlo.channel_handle<handle = 6, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
    %iota10 = stablehlo.multiply %iota, %ten : tensor<4xf32>
    %a2aExpected = stablehlo.add %iota10, %xi : tensor<4xf32>
    stablehlo.custom_call @check.expect_eq(%a2a, %a2aExpected) {has_side_effect = true} : (tensor<4xf32>, tensor<4xf32>) -> ()

    // collective_permute: a ring 0 -> 1 -> 2 -> 0; device 3 receives
    // nothing (zeros).
    %perm = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1], [1, 2], [2, 0]]> : tensor<3x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>}> : (tensor<2xf32>) -> tensor<2xf32>
    %prev = stablehlo.add %x, %two : tensor<2xf32>
    %prevMod = stablehlo.remainder %prev, %three : tensor<2xf32>
    %isLast = stablehlo.compare EQ, %x, %three : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
    %zero = stablehlo.constant dense<0.0> : tensor<2xf32>
    %permExpected = stablehlo.select %isLast, %zero, %prevMod : tensor<2xi1>, tensor<2xf32>
    stablehlo.custom_call @check.expect_eq(%perm, %permExpected) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()

    // cross_replica collective_permute: the pairs name replica 0, so every
    // device receives its own value.
    %permSelf = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 0]]> : tensor<1x2xi64>}> : (tensor<2xf32>) -> tensor<2xf32>
    stablehlo.custom_call @check.expect_eq(%permSelf, %x) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()

    // collective_broadcast from the first member: groups [3, 0] and [1, 2].
    %bc = "stablehlo.collective_broadcast"(%x) <{replica_groups = dense<[[3, 0], [1, 2]]> : tensor<2x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 8, type = 1>}> : (tensor<2xf32>) -> tensor<2xf32>
    %inFirst = stablehlo.compare EQ, %odd, %one : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
    %firstOdd = stablehlo.compare LT, %x, %two : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
    %inGroup30 = stablehlo.xor %inFirst, %firstOdd : tensor<2xi1>
    // Devices 1, 2 (group [1, 2]) get 1; devices 0, 3 get 3.
    %bcExpected = stablehlo.select %inGroup30, %three, %one : tensor<2xi1>, tensor<2xf32>
    stablehlo.custom_call @check.expect_eq(%bc, %bcExpected) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()

    // collective_broadcast to a device in no group gives zeros: devices 1
    // and 2 get device 2's value, 0 and 3 (outside [2, 1]) get 0.
    %bcSome = "stablehlo.collective_broadcast"(%x) <{replica_groups = dense<[[2, 1]]> : tensor<1x2xi64>, channel_handle = #stablehlo.channel_handle<handle = 9, type = 1>}> : (tensor<2xf32>) -> tensor<2xf32>
    %bcSomeExpected = stablehlo.select %inGroup30, %zero, %two : tensor<2xi1>, tensor<2xf32>
    stablehlo.custom_call @check.expect_eq(%bcSome, %bcSomeExpected) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
    return
  }
}
