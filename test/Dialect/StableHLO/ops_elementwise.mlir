// RUN: toast-opt %s | toast-opt | FileCheck %s
// RUN: toast-opt %s --mlir-print-op-generic | toast-opt | FileCheck %s

// Round trip of the elementwise ops: unary, binary, compare, select, clamp,
// complex, conversions, and the discardable attributes exports attach.

// CHECK-LABEL: func.func @unary_float
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4xf32>)
func.func @unary_float(%x: tensor<4xf32>) {
  // CHECK: stablehlo.cbrt %[[X]] : tensor<4xf32>
  %0 = stablehlo.cbrt %x : tensor<4xf32>
  // CHECK: stablehlo.ceil %[[X]] : tensor<4xf32>
  %1 = stablehlo.ceil %x : tensor<4xf32>
  // CHECK: stablehlo.cosine %[[X]] : tensor<4xf32>
  %2 = stablehlo.cosine %x : tensor<4xf32>
  // CHECK: stablehlo.exponential %[[X]] : tensor<4xf32>
  %3 = stablehlo.exponential %x : tensor<4xf32>
  // CHECK: stablehlo.exponential_minus_one %[[X]] : tensor<4xf32>
  %4 = stablehlo.exponential_minus_one %x : tensor<4xf32>
  // CHECK: stablehlo.floor %[[X]] : tensor<4xf32>
  %5 = stablehlo.floor %x : tensor<4xf32>
  // CHECK: stablehlo.log %[[X]] : tensor<4xf32>
  %6 = stablehlo.log %x : tensor<4xf32>
  // CHECK: stablehlo.log_plus_one %[[X]] : tensor<4xf32>
  %7 = stablehlo.log_plus_one %x : tensor<4xf32>
  // CHECK: stablehlo.logistic %[[X]] : tensor<4xf32>
  %8 = stablehlo.logistic %x : tensor<4xf32>
  // CHECK: stablehlo.negate %[[X]] : tensor<4xf32>
  %9 = stablehlo.negate %x : tensor<4xf32>
  // CHECK: stablehlo.round_nearest_afz %[[X]] : tensor<4xf32>
  %10 = stablehlo.round_nearest_afz %x : tensor<4xf32>
  // CHECK: stablehlo.round_nearest_even %[[X]] : tensor<4xf32>
  %11 = stablehlo.round_nearest_even %x : tensor<4xf32>
  // CHECK: stablehlo.rsqrt %[[X]] : tensor<4xf32>
  %12 = stablehlo.rsqrt %x : tensor<4xf32>
  // CHECK: stablehlo.sign %[[X]] : tensor<4xf32>
  %13 = stablehlo.sign %x : tensor<4xf32>
  // CHECK: stablehlo.sine %[[X]] : tensor<4xf32>
  %14 = stablehlo.sine %x : tensor<4xf32>
  // CHECK: stablehlo.sqrt %[[X]] : tensor<4xf32>
  %15 = stablehlo.sqrt %x : tensor<4xf32>
  // CHECK: stablehlo.tan %[[X]] : tensor<4xf32>
  %16 = stablehlo.tan %x : tensor<4xf32>
  // CHECK: stablehlo.tanh %[[X]] : tensor<4xf32>
  %17 = stablehlo.tanh %x : tensor<4xf32>
  // CHECK: stablehlo.abs %[[X]] : tensor<4xf32>
  %18 = stablehlo.abs %x : tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @unary_int
// CHECK-SAME: (%[[I:[^:]+]]: tensor<4xi32>, %[[P:[^:]+]]: tensor<4xi1>)
func.func @unary_int(%i: tensor<4xi32>, %p: tensor<4xi1>) {
  // CHECK: stablehlo.count_leading_zeros %[[I]] : tensor<4xi32>
  %0 = stablehlo.count_leading_zeros %i : tensor<4xi32>
  // CHECK: stablehlo.popcnt %[[I]] : tensor<4xi32>
  %1 = stablehlo.popcnt %i : tensor<4xi32>
  // CHECK: stablehlo.not %[[I]] : tensor<4xi32>
  %2 = stablehlo.not %i : tensor<4xi32>
  // CHECK: stablehlo.not %[[P]] : tensor<4xi1>
  %3 = stablehlo.not %p : tensor<4xi1>
  return
}

// Ops whose result type differs from the operand type print a function type.
// CHECK-LABEL: func.func @unary_mixed_types
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4xf32>, %[[C:[^:]+]]: tensor<2xcomplex<f32>>)
func.func @unary_mixed_types(%x: tensor<4xf32>, %c: tensor<2xcomplex<f32>>) {
  // CHECK: stablehlo.abs %[[C]] : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %0 = stablehlo.abs %c : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  // CHECK: stablehlo.real %[[C]] : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %1 = stablehlo.real %c : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  // CHECK: stablehlo.imag %[[C]] : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  %2 = stablehlo.imag %c : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
  // CHECK: stablehlo.is_finite %[[X]] : (tensor<4xf32>) -> tensor<4xi1>
  %3 = stablehlo.is_finite %x : (tensor<4xf32>) -> tensor<4xi1>
  // CHECK: stablehlo.convert %[[X]] : (tensor<4xf32>) -> tensor<4xbf16>
  %4 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xbf16>
  // CHECK: stablehlo.convert %[[X]] : (tensor<4xf32>) -> tensor<4xcomplex<f32>>
  %5 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xcomplex<f32>>
  // A function type whose types all agree prints as the single type.
  // CHECK: stablehlo.convert %[[X]] : tensor<4xf32>
  %6 = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: stablehlo.negate %[[C]] : tensor<2xcomplex<f32>>
  %7 = stablehlo.negate %c : tensor<2xcomplex<f32>>
  return
}

// CHECK-LABEL: func.func @bitcast_convert
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4xf32>, %[[Y:[^:]+]]: tensor<4x2xbf16>)
func.func @bitcast_convert(%x: tensor<4xf32>, %y: tensor<4x2xbf16>) {
  // CHECK: stablehlo.bitcast_convert %[[X]] : (tensor<4xf32>) -> tensor<4xui32>
  %0 = stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xui32>
  // CHECK: stablehlo.bitcast_convert %[[X]] : (tensor<4xf32>) -> tensor<4x2xbf16>
  %1 = stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4x2xbf16>
  // CHECK: stablehlo.bitcast_convert %[[Y]] : (tensor<4x2xbf16>) -> tensor<4xf32>
  %2 = stablehlo.bitcast_convert %y : (tensor<4x2xbf16>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @reduce_precision
// CHECK-SAME: (%[[X:[^:]+]]: tensor<4xf32>)
func.func @reduce_precision(%x: tensor<4xf32>) {
  // CHECK: stablehlo.reduce_precision %[[X]], format = e5m10 : tensor<4xf32>
  %0 = stablehlo.reduce_precision %x, format = e5m10 : tensor<4xf32>
  // CHECK: stablehlo.reduce_precision %[[X]], format = e8m0 : tensor<4xf32>
  %1 = "stablehlo.reduce_precision"(%x) {exponent_bits = 8 : i32, mantissa_bits = 0 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @binary
// CHECK-SAME: (%[[A:[^:]+]]: tensor<4xf32>, %[[B:[^:]+]]: tensor<4xf32>)
func.func @binary(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // CHECK: stablehlo.add %[[A]], %[[B]] : tensor<4xf32>
  %0 = stablehlo.add %a, %b : tensor<4xf32>
  // CHECK: stablehlo.atan2 %[[A]], %[[B]] : tensor<4xf32>
  %1 = stablehlo.atan2 %a, %b : tensor<4xf32>
  // CHECK: stablehlo.divide %[[A]], %[[B]] : tensor<4xf32>
  %2 = stablehlo.divide %a, %b : tensor<4xf32>
  // CHECK: stablehlo.maximum %[[A]], %[[B]] : tensor<4xf32>
  %3 = stablehlo.maximum %a, %b : tensor<4xf32>
  // CHECK: stablehlo.minimum %[[A]], %[[B]] : tensor<4xf32>
  %4 = stablehlo.minimum %a, %b : tensor<4xf32>
  // CHECK: stablehlo.multiply %[[A]], %[[B]] : tensor<4xf32>
  %5 = stablehlo.multiply %a, %b : tensor<4xf32>
  // CHECK: stablehlo.power %[[A]], %[[B]] : tensor<4xf32>
  %6 = stablehlo.power %a, %b : tensor<4xf32>
  // CHECK: stablehlo.remainder %[[A]], %[[B]] : tensor<4xf32>
  %7 = stablehlo.remainder %a, %b : tensor<4xf32>
  // CHECK: stablehlo.subtract %[[B]], %[[A]] : tensor<4xf32>
  %8 = stablehlo.subtract %b, %a : tensor<4xf32>
  // The function-type form of equal types prints as the single type.
  // CHECK: stablehlo.add %[[A]], %[[B]] : tensor<4xf32>
  %9 = stablehlo.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @binary_int
// CHECK-SAME: (%[[A:[^:]+]]: tensor<4xi32>, %[[B:[^:]+]]: tensor<4xi32>)
func.func @binary_int(%a: tensor<4xi32>, %b: tensor<4xi32>) {
  // CHECK: stablehlo.and %[[A]], %[[B]] : tensor<4xi32>
  %0 = stablehlo.and %a, %b : tensor<4xi32>
  // CHECK: stablehlo.or %[[A]], %[[B]] : tensor<4xi32>
  %1 = stablehlo.or %a, %b : tensor<4xi32>
  // CHECK: stablehlo.xor %[[A]], %[[B]] : tensor<4xi32>
  %2 = stablehlo.xor %a, %b : tensor<4xi32>
  // CHECK: stablehlo.shift_left %[[A]], %[[B]] : tensor<4xi32>
  %3 = stablehlo.shift_left %a, %b : tensor<4xi32>
  // CHECK: stablehlo.shift_right_arithmetic %[[A]], %[[B]] : tensor<4xi32>
  %4 = stablehlo.shift_right_arithmetic %a, %b : tensor<4xi32>
  // CHECK: stablehlo.shift_right_logical %[[A]], %[[B]] : tensor<4xi32>
  %5 = stablehlo.shift_right_logical %a, %b : tensor<4xi32>
  return
}

// CHECK-LABEL: func.func @complex
// CHECK-SAME: (%[[RE:[^:]+]]: tensor<2xf64>, %[[IM:[^:]+]]: tensor<2xf64>)
func.func @complex(%re: tensor<2xf64>, %im: tensor<2xf64>) {
  // CHECK: stablehlo.complex %[[RE]], %[[IM]] : tensor<2xcomplex<f64>>
  %0 = stablehlo.complex %re, %im : tensor<2xcomplex<f64>>
  // CHECK: stablehlo.complex %[[RE]], %[[IM]] : tensor<2xcomplex<f64>>
  %1 = stablehlo.complex %re, %im : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xcomplex<f64>>
  return
}

// CHECK-LABEL: func.func @compare
// CHECK-SAME: (%[[A:[^:]+]]: tensor<4xf32>, %[[B:[^:]+]]: tensor<4xf32>, %[[I:[^:]+]]: tensor<4xui32>)
func.func @compare(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xui32>) {
  // CHECK: stablehlo.compare NE, %[[A]], %[[B]], FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %0 = stablehlo.compare  NE, %a, %b,  FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: stablehlo.compare LT, %[[A]], %[[B]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = stablehlo.compare LT, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: stablehlo.compare GE, %[[I]], %[[I]], UNSIGNED : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  %2 = stablehlo.compare GE, %i, %i, UNSIGNED : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  // Generic form with enum attributes in the attribute dictionary.
  // CHECK: stablehlo.compare EQ, %[[A]], %[[B]], TOTALORDER : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %3 = "stablehlo.compare"(%a, %b) {comparison_direction = #stablehlo<comparison_direction EQ>, compare_type = #stablehlo<comparison_type TOTALORDER>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: stablehlo.compare GT, %[[A]], %[[B]], NOTYPE
  %4 = stablehlo.compare GT, %a, %b, NOTYPE : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: stablehlo.compare LE, %[[A]], %[[B]], SIGNED
  %5 = stablehlo.compare LE, %a, %b, SIGNED : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// CHECK-LABEL: func.func @select
// CHECK-SAME: (%[[P:[^:]+]]: tensor<4xi1>, %[[S:[^:]+]]: tensor<i1>, %[[A:[^:]+]]: tensor<4xf32>, %[[B:[^:]+]]: tensor<4xf32>)
func.func @select(%p: tensor<4xi1>, %s: tensor<i1>, %a: tensor<4xf32>, %b: tensor<4xf32>) {
  // CHECK: stablehlo.select %[[P]], %[[A]], %[[B]] : tensor<4xi1>, tensor<4xf32>
  %0 = stablehlo.select %p, %a, %b : tensor<4xi1>, tensor<4xf32>
  // A scalar predicate selects whole tensors.
  // CHECK: stablehlo.select %[[S]], %[[B]], %[[A]] : tensor<i1>, tensor<4xf32>
  %1 = stablehlo.select %s, %b, %a : tensor<i1>, tensor<4xf32>
  // CHECK: stablehlo.select %[[P]], %[[A]], %[[B]] : tensor<4xi1>, tensor<4xf32>
  %2 = stablehlo.select %p, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @clamp
// CHECK-SAME: (%[[LO:[^:]+]]: tensor<f32>, %[[X:[^:]+]]: tensor<4xf32>, %[[HI:[^:]+]]: tensor<f32>, %[[V:[^:]+]]: tensor<4xf32>)
func.func @clamp(%lo: tensor<f32>, %x: tensor<4xf32>, %hi: tensor<f32>, %v: tensor<4xf32>) {
  // Scalar bounds.
  // CHECK: stablehlo.clamp %[[LO]], %[[X]], %[[HI]] : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %0 = stablehlo.clamp %lo, %x, %hi : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  // Bounds of the operand's shape.
  // CHECK: stablehlo.clamp %[[V]], %[[X]], %[[V]] : tensor<4xf32>
  %1 = stablehlo.clamp %v, %x, %v : tensor<4xf32>
  // Mixed: scalar min, tensor max.
  // CHECK: stablehlo.clamp %[[LO]], %[[X]], %[[V]] : (tensor<f32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = stablehlo.clamp %lo, %x, %v : (tensor<f32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// Element types beyond f32/i32, dynamic and zero-sized shapes.
// CHECK-LABEL: func.func @element_types
func.func @element_types(%a: tensor<2x?xbf16>, %b: tensor<0xf8E4M3FN>, %c: tensor<3xui8>, %d: tensor<i64>) {
  // CHECK: stablehlo.add %{{.+}}, %{{.+}} : tensor<2x?xbf16>
  %0 = stablehlo.add %a, %a : tensor<2x?xbf16>
  // CHECK: stablehlo.multiply %{{.+}}, %{{.+}} : tensor<0xf8E4M3FN>
  %1 = stablehlo.multiply %b, %b : tensor<0xf8E4M3FN>
  // CHECK: stablehlo.subtract %{{.+}}, %{{.+}} : tensor<3xui8>
  %2 = stablehlo.subtract %c, %c : tensor<3xui8>
  // CHECK: stablehlo.negate %{{.+}} : tensor<i64>
  %3 = stablehlo.negate %d : tensor<i64>
  return
}

// Discardable attributes of exports are kept on functions and ops.
// CHECK-LABEL: func.func public @discardable
// CHECK-SAME: %{{[^:]+}}: tensor<4xf32> {mhlo.layout_mode = "default", mhlo.sharding = "{devices=[2]<=[2]}"}
// CHECK-SAME: -> (tensor<4xf32> {jax.result_info = "result[0]"})
func.func public @discardable(%a: tensor<4xf32> {mhlo.sharding = "{devices=[2]<=[2]}", mhlo.layout_mode = "default"}) -> (tensor<4xf32> {jax.result_info = "result[0]"}) {
  // CHECK: stablehlo.add %{{.+}}, %{{.+}} {mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22x\22}]>"}, mhlo.sharding = "{replicated}"} : tensor<4xf32>
  %0 = stablehlo.add %a, %a {mhlo.sharding = "{replicated}", mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<@mesh, [{\22x\22}]>"}} : tensor<4xf32>
  // CHECK: stablehlo.negate %{{.+}} {foo.bar = 3 : i64} : tensor<4xf32>
  %1 = stablehlo.negate %0 {foo.bar = 3 : i64} : tensor<4xf32>
  // CHECK: stablehlo.compare EQ, %{{.+}}, %{{.+}} {mhlo.sharding = "{replicated}"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %2 = stablehlo.compare EQ, %1, %1 {mhlo.sharding = "{replicated}"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %1 : tensor<4xf32>
}
