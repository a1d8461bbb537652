// RUN: toast-opt %s | toast-opt | FileCheck %s
// RUN: toast-opt %s --mlir-print-op-generic | toast-opt | FileCheck %s

// Round trip of control flow, calls, barriers, device ids and collectives.

// CHECK-LABEL: func.func @while
// CHECK-SAME: (%[[X:[^:]+]]: tensor<i64>, %[[Y:[^:]+]]: tensor<4xf32>)
func.func @while(%x: tensor<i64>, %y: tensor<4xf32>) -> tensor<i64> {
  // CHECK: %[[C:.+]] = stablehlo.constant dense<10> : tensor<i64>
  %c = stablehlo.constant dense<10> : tensor<i64>
  // CHECK: %[[W:.+]]:2 = stablehlo.while(%[[I:.+]] = %[[X]], %[[V:.+]] = %[[Y]]) : tensor<i64>, tensor<4xf32> attributes {mhlo.frontend_attributes = {a = "b"}}
  // CHECK-NEXT: cond {
  // CHECK-NEXT: %[[P:.+]] = stablehlo.compare LT, %[[I]], %[[C]] : (tensor<i64>, tensor<i64>) -> tensor<i1>
  // CHECK-NEXT: stablehlo.return %[[P]] : tensor<i1>
  // CHECK-NEXT: } do {
  // CHECK-NEXT: %[[N:.+]] = stablehlo.add %[[I]], %[[I]] : tensor<i64>
  // CHECK-NEXT: stablehlo.return %[[N]], %[[V]] : tensor<i64>, tensor<4xf32>
  // CHECK-NEXT: }
  %0:2 = stablehlo.while(%i = %x, %v = %y) : tensor<i64>, tensor<4xf32> attributes {mhlo.frontend_attributes = {a = "b"}}
   cond {
    %p = stablehlo.compare LT, %i, %c : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %n = stablehlo.add %i, %i : tensor<i64>
    stablehlo.return %n, %v : tensor<i64>, tensor<4xf32>
  }
  // CHECK: return %[[W]]#0 : tensor<i64>
  return %0#0 : tensor<i64>
}

// The generic form of while prints in the pretty form; so does a loop
// without loop-carried values.
// CHECK-LABEL: func.func @while_generic
// CHECK-SAME: (%[[X:[^:]+]]: tensor<i64>)
func.func @while_generic(%x: tensor<i64>) {
  // CHECK: stablehlo.while(%[[I:.+]] = %[[X]]) : tensor<i64>
  // CHECK-NEXT: cond {
  // CHECK-NEXT: stablehlo.compare LT, %[[I]], %[[I]]
  // CHECK: } do {
  // CHECK-NEXT: stablehlo.return %[[I]] : tensor<i64>
  %0 = "stablehlo.while"(%x) ({
  ^bb0(%a: tensor<i64>):
    %p = stablehlo.compare LT, %a, %a : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>):
    stablehlo.return %a : tensor<i64>
  }) : (tensor<i64>) -> tensor<i64>
  // CHECK: stablehlo.while()
  // CHECK-NEXT: cond {
  // CHECK: } do {
  // CHECK-NEXT: stablehlo.return{{$}}
  stablehlo.while() cond {
    %t = stablehlo.constant dense<false> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  } do {
    stablehlo.return
  }
  return
}

// case and if print in generic form.
// CHECK-LABEL: func.func @case_if
// CHECK-SAME: (%[[I:[^:]+]]: tensor<i32>, %[[P:[^:]+]]: tensor<i1>, %[[A:[^:]+]]: tensor<2xi64>, %[[B:[^:]+]]: tensor<2xi64>)
func.func @case_if(%i: tensor<i32>, %p: tensor<i1>, %a: tensor<2xi64>, %b: tensor<2xi64>) {
  // CHECK: "stablehlo.case"(%[[I]]) ({
  // CHECK-NEXT: stablehlo.return %[[A]], %[[A]] : tensor<2xi64>, tensor<2xi64>
  // CHECK-NEXT: }, {
  // CHECK-NEXT: stablehlo.return %[[B]], %[[B]] : tensor<2xi64>, tensor<2xi64>
  // CHECK-NEXT: }) : (tensor<i32>) -> (tensor<2xi64>, tensor<2xi64>)
  %r0, %r1 = "stablehlo.case"(%i) ({
    stablehlo.return %a, %a : tensor<2xi64>, tensor<2xi64>
  }, {
    stablehlo.return %b, %b : tensor<2xi64>, tensor<2xi64>
  }) : (tensor<i32>) -> (tensor<2xi64>, tensor<2xi64>)
  // CHECK: "stablehlo.case"(%[[I]]) ({
  // CHECK-NEXT: stablehlo.return{{$}}
  // CHECK-NEXT: }) : (tensor<i32>) -> ()
  "stablehlo.case"(%i) ({
    stablehlo.return
  }) : (tensor<i32>) -> ()
  // CHECK: "stablehlo.if"(%[[P]]) ({
  // CHECK-NEXT: stablehlo.return %[[A]] : tensor<2xi64>
  // CHECK-NEXT: }, {
  // CHECK-NEXT: stablehlo.return %[[B]] : tensor<2xi64>
  // CHECK-NEXT: }) : (tensor<i1>) -> tensor<2xi64>
  %s = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<2xi64>
  }, {
    stablehlo.return %b : tensor<2xi64>
  }) : (tensor<i1>) -> tensor<2xi64>
  return
}

// CHECK-LABEL: func.func @custom_call
// CHECK-SAME: (%[[X:[^:]+]]: tensor<3x4xf32>)
func.func @custom_call(%x: tensor<3x4xf32>) {
  // CHECK: stablehlo.custom_call @foo(%[[X]], %[[X]]) {backend_config = "bar", has_side_effect = true} : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<1x2x3xf32>
  %0 = stablehlo.custom_call @foo(%x, %x) {backend_config = "bar", has_side_effect = true} : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<1x2x3xf32>
  // GSPMD's sharding annotations.
  // CHECK: %[[S:.+]] = stablehlo.custom_call @Sharding(%[[X]]) {backend_config = "", mhlo.sharding = "{devices=[1,2]<=[2]}"} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %1 = stablehlo.custom_call @Sharding(%x) {backend_config = "", mhlo.sharding = "{devices=[1,2]<=[2]}"} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  // CHECK: stablehlo.custom_call @SPMDFullToShardShape(%[[S]]) {mhlo.sharding = "{manual}"} : (tensor<3x4xf32>) -> tensor<3x2xf32>
  %2 = stablehlo.custom_call @SPMDFullToShardShape(%1) {mhlo.sharding = "{manual}"} : (tensor<3x4xf32>) -> tensor<3x2xf32>
  // No results; a dotted target name.
  // CHECK: stablehlo.custom_call @check.expect_eq(%[[X]], %[[X]]) {has_side_effect = true} : (tensor<3x4xf32>, tensor<3x4xf32>) -> ()
  stablehlo.custom_call @check.expect_eq(%x, %x) {has_side_effect = true} : (tensor<3x4xf32>, tensor<3x4xf32>) -> ()
  // The default has_side_effect = false is not printed; names that are not
  // identifiers are quoted.
  // CHECK: stablehlo.custom_call @"weird name"() : () -> tensor<f32>
  %3 = stablehlo.custom_call @"weird name"() {has_side_effect = false} : () -> tensor<f32>
  // CHECK: stablehlo.custom_call @multi(%[[X]]) : (tensor<3x4xf32>) -> (tensor<f32>, tensor<2xi32>)
  %4:2 = "stablehlo.custom_call"(%x) <{call_target_name = "multi"}> : (tensor<3x4xf32>) -> (tensor<f32>, tensor<2xi32>)
  return
}

// CHECK-LABEL: func.func @custom_call_attrs
func.func @custom_call_attrs(%x: tensor<3x4xf32>) {
  // CHECK: stablehlo.custom_call @tpu_custom_call(%{{.+}}) {api_version = 4 : i32, backend_config = {flag = true, n = 3 : i64}, called_computations = [@callee], operand_layouts = [dense<[1, 0]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 0]> : tensor<2xindex>]} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %0 = stablehlo.custom_call @tpu_custom_call(%x) {api_version = 4 : i32, backend_config = {flag = true, n = 3 : i64}, called_computations = [@callee], operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  // CHECK: stablehlo.custom_call @legacy(%{{.+}}) {api_version = 2 : i32, backend_config = "opaque"} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %1 = stablehlo.custom_call @legacy(%x) {api_version = 2 : i32, backend_config = "opaque"} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

func.func private @callee(%x: tensor<3x4xf32>) -> tensor<3x4xf32>

func.func private @add_n.impl(%x: tensor<i64>, %y: tensor<i64>) -> tensor<i64> {
  %0 = stablehlo.add %x, %y : tensor<i64>
  return %0 : tensor<i64>
}

// CHECK-LABEL: func.func @composite
// CHECK-SAME: (%[[A:[^:]+]]: tensor<i64>, %[[B:[^:]+]]: tensor<i64>)
func.func @composite(%a: tensor<i64>, %b: tensor<i64>) {
  // CHECK: stablehlo.composite "stablehlo.add_n" %[[A]], %[[B]] {composite_attributes = {n = 2 : i64}, decomposition = @add_n.impl} : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %0 = stablehlo.composite "stablehlo.add_n" %a, %b { composite_attributes = { n = 2 : i64 }, decomposition = @add_n.impl } : (tensor<i64>, tensor<i64>) -> tensor<i64>
  // CHECK: stablehlo.composite "tenstorrent.rms_norm" %[[A]], %[[B]] {decomposition = @add_n.impl, version = 3 : i32} : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %1 = stablehlo.composite "tenstorrent.rms_norm" %a, %b {decomposition = @add_n.impl, version = 3 : i32} : (tensor<i64>, tensor<i64>) -> tensor<i64>
  // Default-valued attributes are not printed.
  // CHECK: stablehlo.composite "x.y" %[[A]], %[[B]] {decomposition = @add_n.impl} : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %2 = "stablehlo.composite"(%a, %b) <{name = "x.y", decomposition = @add_n.impl, composite_attributes = {}, version = 0 : i32}> : (tensor<i64>, tensor<i64>) -> tensor<i64>
  return
}

// CHECK-LABEL: func.func @barrier_ids
// CHECK-SAME: (%[[A:[^:]+]]: tensor<4xf32>, %[[P:[^:]+]]: tensor<i1>)
func.func @barrier_ids(%a: tensor<4xf32>, %p: tensor<i1>) {
  // CHECK: stablehlo.optimization_barrier %[[A]], %[[P]] : tensor<4xf32>, tensor<i1>
  %0:2 = stablehlo.optimization_barrier %a, %p : tensor<4xf32>, tensor<i1>
  // CHECK: stablehlo.optimization_barrier {foo = 1 : i64} %[[A]] : tensor<4xf32>
  %1 = stablehlo.optimization_barrier {foo = 1 : i64} %a : tensor<4xf32>
  // CHECK: stablehlo.optimization_barrier (){{$}}
  stablehlo.optimization_barrier ()
  // CHECK: stablehlo.partition_id : tensor<ui32>
  %2 = stablehlo.partition_id : tensor<ui32>
  // CHECK: stablehlo.replica_id : tensor<ui32>
  %3 = stablehlo.replica_id : tensor<ui32>
  return
}

// Collectives print in generic form.
// CHECK-LABEL: func.func @collectives
// CHECK-SAME: (%[[X:[^:]+]]: tensor<8x4xf32>, %[[S:[^:]+]]: tensor<f32>)
func.func @collectives(%x: tensor<8x4xf32>, %s: tensor<f32>) {
  // CHECK: "stablehlo.all_reduce"(%[[S]]) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
  // CHECK-NEXT: ^bb0(%[[L:[^:]+]]: tensor<f32>, %[[R:[^:]+]]: tensor<f32>):
  // CHECK-NEXT: %[[SUM:.+]] = stablehlo.add %[[L]], %[[R]] : tensor<f32>
  // CHECK-NEXT: stablehlo.return %[[SUM]] : tensor<f32>
  // CHECK-NEXT: }) : (tensor<f32>) -> tensor<f32>
  %0 = "stablehlo.all_reduce"(%s) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, use_global_device_ids}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<f32>) -> tensor<f32>
  // CHECK: "stablehlo.all_gather"(%[[X]]) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<{{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> : (tensor<8x4xf32>) -> tensor<16x4xf32>
  %1 = "stablehlo.all_gather"(%x) <{all_gather_dim = 0 : i64, channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : tensor<4x2xi64>, use_global_device_ids}> : (tensor<8x4xf32>) -> tensor<16x4xf32>
  // CHECK: "stablehlo.reduce_scatter"(%[[X]]) <{replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, scatter_dimension = 1 : i64}> ({
  // CHECK: }) : (tensor<8x4xf32>) -> tensor<8x2xf32>
  %2 = "stablehlo.reduce_scatter"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = 1 : i64}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) : (tensor<8x4xf32>) -> tensor<8x2xf32>
  // CHECK: "stablehlo.all_to_all"(%[[X]]) <{concat_dimension = 0 : i64, replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<8x4xf32>) -> tensor<16x2xf32>
  %3 = "stablehlo.all_to_all"(%x) <{concat_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, split_count = 2 : i64, split_dimension = 1 : i64}> : (tensor<8x4xf32>) -> tensor<16x2xf32>
  // CHECK: "stablehlo.collective_permute"(%[[X]]) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, source_target_pairs = dense<{{\[\[}}0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %4 = "stablehlo.collective_permute"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
  // CHECK: "stablehlo.collective_broadcast"(%[[X]]) <{replica_groups = dense<{{\[\[}}0, 1]]> : tensor<1x2xi64>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %5 = "stablehlo.collective_broadcast"(%x) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return
}

// Older exports put the collective attributes in the attribute dictionary;
// -1 pads short replica groups; an all_reduce may reduce several operands.
// CHECK-LABEL: func.func @collectives_attr_dict
func.func @collectives_attr_dict(%x: tensor<8x4xf32>, %y: tensor<2xi32>) {
  // CHECK: "stablehlo.all_reduce"(%{{.+}}, %{{.+}}) <{replica_groups = dense<{{\[\[}}0, 2, -1], [1, 3, 5]]> : tensor<2x3xi64>}> ({
  // CHECK: }) {mhlo.sharding = "{replicated}"} : (tensor<8x4xf32>, tensor<2xi32>) -> (tensor<8x4xf32>, tensor<2xi32>)
  %0:2 = "stablehlo.all_reduce"(%x, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %r : tensor<f32>
  }) {replica_groups = dense<[[0, 2, -1], [1, 3, 5]]> : tensor<2x3xi64>, mhlo.sharding = "{replicated}"} : (tensor<8x4xf32>, tensor<2xi32>) -> (tensor<8x4xf32>, tensor<2xi32>)
  return
}
