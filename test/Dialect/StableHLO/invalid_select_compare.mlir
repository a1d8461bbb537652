// RUN: toast-opt %s -split-input-file -verify-diagnostics

// Verifier errors and malformed syntax of clamp, select and compare.

func.func @clamp_element_type(%lo: tensor<i32>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.clamp' op min, operand, max and result must have the same element type}}
  %0 = stablehlo.clamp %lo, %x, %lo : (tensor<i32>, tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
  return
}

// -----

func.func @clamp_bound_shape(%lo: tensor<2xf32>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.clamp' op min must be a scalar or have shape 'tensor<4xf32>'}}
  %0 = stablehlo.clamp %lo, %x, %x : (tensor<2xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @clamp_max_shape(%hi: tensor<2xf32>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.clamp' op max must be a scalar or have shape 'tensor<4xf32>'}}
  %0 = stablehlo.clamp %x, %x, %hi : (tensor<4xf32>, tensor<4xf32>, tensor<2xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @clamp_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.clamp' op result type must equal the operand type}}
  %0 = stablehlo.clamp %x, %x, %x : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @select_pred_shape(%p: tensor<2xi1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.select' op pred must be a scalar or have shape 'tensor<4xf32>'}}
  %0 = stablehlo.select %p, %a, %a : tensor<2xi1>, tensor<4xf32>
  return
}

// -----

func.func @select_branch_types(%p: tensor<i1>, %a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{'stablehlo.select' op on_true, on_false and result must have the same type}}
  %0 = stablehlo.select %p, %a, %b : (tensor<i1>, tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @select_pred_type(%p: tensor<4xi32>, %a: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.select' op operand #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<4xi32>'}}
  %0 = stablehlo.select %p, %a, %a : tensor<4xi32>, tensor<4xf32>
  return
}

// -----

func.func @select_type_list(%p: tensor<4xi1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.select' expected 'pred_type, value_type'}}
  %0 = stablehlo.select %p, %a, %a : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @select_function_type(%p: tensor<4xi1>, %a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'stablehlo.select' expected (pred, on_true, on_false) -> result type or 'pred_type, value_type'}}
  %0 = stablehlo.select %p, %a, %a : (tensor<4xi1>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @compare_element_types(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{'stablehlo.compare' op lhs and rhs must have the same element type}}
  %0 = stablehlo.compare LT, %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xi1>
  return
}

// -----

func.func @compare_result(%a: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.compare' op result #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = stablehlo.compare LT, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @compare_direction_keyword(%a: tensor<4xf32>) {
  // expected-error @+2 {{custom op 'stablehlo.compare' expected ::toast::stablehlo::ComparisonDirection to be one of: EQ, NE, GE, GT, LE, LT}}
  // expected-error @+1 {{custom op 'stablehlo.compare' failed to parse HLO_ComparisonDirectionAttr parameter 'value' which is to be a `::toast::stablehlo::ComparisonDirection`}}
  %0 = stablehlo.compare LESS, %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

func.func @compare_type_keyword(%a: tensor<4xf32>) {
  // expected-error @+2 {{custom op 'stablehlo.compare' expected ::toast::stablehlo::ComparisonType to be one of: NOTYPE, FLOAT, TOTALORDER, SIGNED, UNSIGNED}}
  // expected-error @+1 {{custom op 'stablehlo.compare' failed to parse HLO_ComparisonTypeAttr parameter 'value' which is to be a `::toast::stablehlo::ComparisonType`}}
  %0 = stablehlo.compare LT, %a, %a, DOUBLE : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

func.func @compare_missing_direction(%a: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.compare' op requires attribute 'comparison_direction'}}
  %0 = "stablehlo.compare"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

func.func @compare_direction_attr(%a: tensor<4xf32>) {
  // expected-error @+1 {{'stablehlo.compare' op attribute 'comparison_direction' failed to satisfy constraint: comparison direction}}
  %0 = "stablehlo.compare"(%a, %a) {comparison_direction = #stablehlo<comparison_type FLOAT>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}
