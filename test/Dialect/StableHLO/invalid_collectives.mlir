// RUN: toast-opt %s -split-input-file -verify-diagnostics

// Verifier errors of the collectives: replica groups, dimensions, counts.

func.func @all_reduce_groups_rank(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.all_reduce' op replica_groups must have rank 2, got rank 1}}
  %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[0, 1]> : tensor<2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @all_reduce_groups_duplicate(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.all_reduce' op replica_groups contains 1 more than once}}
  %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @all_reduce_groups_negative(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.all_reduce' op replica_groups contains invalid id -2}}
  %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, -2]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @all_reduce_groups_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.all_reduce' op attribute 'replica_groups' failed to satisfy constraint: 64-bit signless integer elements attribute}}
  %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi32>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @all_reduce_result_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.all_reduce' op result types must equal the operand types}}
  %0 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @all_reduce_result_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.all_reduce' op expects one result per operand}}
  %0:2 = "stablehlo.all_reduce"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @all_reduce_missing_groups(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.all_reduce' op requires attribute 'replica_groups'}}
  %0 = "stablehlo.all_reduce"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @all_gather_dim(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.all_gather' op all_gather_dim 1 is out of range [0, 1)}}
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @all_gather_groups(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.all_gather' op replica_groups contains 0 more than once}}
  %0 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 0]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @all_gather_results(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.all_gather' op expects one result per operand}}
  %0:2 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func @reduce_scatter_dim(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.reduce_scatter' op scatter_dimension -1 is out of range [0, 1)}}
  %0 = "stablehlo.reduce_scatter"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = -1 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @reduce_scatter_groups(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.reduce_scatter' op replica_groups must have rank 2, got rank 3}}
  %0 = "stablehlo.reduce_scatter"(%x) <{replica_groups = dense<[[[0, 1]]]> : tensor<1x1x2xi64>, scatter_dimension = 0 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @all_to_all_split_count(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'stablehlo.all_to_all' op split_count must be positive}}
  %0 = "stablehlo.all_to_all"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 0 : i64, split_dimension = 1 : i64}> : (tensor<4x4xf32>) -> tensor<8x2xf32>
  return
}

// -----

func.func @all_to_all_negative_split_count(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'stablehlo.all_to_all' op split_count must be positive}}
  %0 = "stablehlo.all_to_all"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = -2 : i64, split_dimension = 1 : i64}> : (tensor<4x4xf32>) -> tensor<8x2xf32>
  return
}

// -----

func.func @all_to_all_split_dim(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'stablehlo.all_to_all' op split_dimension 2 is out of range [0, 2)}}
  %0 = "stablehlo.all_to_all"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 2 : i64}> : (tensor<4x4xf32>) -> tensor<8x2xf32>
  return
}

// -----

func.func @all_to_all_concat_dim(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'stablehlo.all_to_all' op concat_dimension 3 is out of range [0, 2)}}
  %0 = "stablehlo.all_to_all"(%x) <{concat_dimension = 3 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<4x4xf32>) -> tensor<8x2xf32>
  return
}

// -----

func.func @all_to_all_divisible(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'stablehlo.all_to_all' op split dimension size 3 is not divisible by split_count 2}}
  %0 = "stablehlo.all_to_all"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<4x3xf32>) -> tensor<8x2xf32>
  return
}

// -----

func.func @all_to_all_groups(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'stablehlo.all_to_all' op replica_groups contains 3 more than once}}
  %0 = "stablehlo.all_to_all"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 3], [3, 1]]> : tensor<2x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<4x4xf32>) -> tensor<8x2xf32>
  return
}

// -----

func.func @collective_permute_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.collective_permute' op source_target_pairs must have shape [N, 2]}}
  %0 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1, 2]]> : tensor<1x3xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @collective_permute_source(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.collective_permute' op source 0 appears more than once}}
  %0 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1], [0, 2]]> : tensor<2x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @collective_permute_target(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.collective_permute' op target 1 appears more than once}}
  %0 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1], [2, 1]]> : tensor<2x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @collective_permute_negative(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.collective_permute' op source_target_pairs must not contain negative ids}}
  %0 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, -1]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// The spec requires type(result) = type(operand): a permute moves whole values.
func.func @collective_permute_result_shape(%x: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.collective_permute' op result type 'tensor<4xf32>' must equal the operand type 'tensor<2xf32>'}}
  %0 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<2xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @collective_permute_result_element_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.collective_permute' op result type 'tensor<4xf16>' must equal the operand type 'tensor<4xf32>'}}
  %0 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

// Equal means equal: a dynamic result for a static operand is rejected too.
func.func @collective_permute_result_dynamic(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.collective_permute' op result type 'tensor<?xf32>' must equal the operand type 'tensor<4xf32>'}}
  %0 = "stablehlo.collective_permute"(%x) <{source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @collective_broadcast_result_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.collective_broadcast' op result type 'tensor<2x2xf32>' must equal the operand type 'tensor<4xf32>'}}
  %0 = "stablehlo.collective_broadcast"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @collective_broadcast_result_element_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.collective_broadcast' op result type 'tensor<4xi32>' must equal the operand type 'tensor<4xf32>'}}
  %0 = "stablehlo.collective_broadcast"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<4xi32>
  return
}

// -----

func.func @collective_broadcast_groups(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.collective_broadcast' op replica_groups contains 1 more than once}}
  %0 = "stablehlo.collective_broadcast"(%x) <{replica_groups = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @channel_handle_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{invalid properties {channel_handle = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} for op stablehlo.collective_broadcast: Invalid attribute `channel_handle` in property conversion: 1 : i64}}
  %0 = "stablehlo.collective_broadcast"(%x) <{channel_handle = 1 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<4xf32>) -> tensor<4xf32>
  return
}
