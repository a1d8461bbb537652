// RUN: toast-opt %s -split-input-file -verify-diagnostics

// Verifier errors and malformed syntax of while, case, if and composite.

func.func @while_result_types(%x: tensor<i64>) {
  // expected-error @+1 {{'stablehlo.while' op result types must equal the operand types}}
  %0 = "stablehlo.while"(%x) ({
  ^bb0(%a: tensor<i64>):
    %p = stablehlo.compare LT, %a, %a : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>):
    stablehlo.return %a : tensor<i64>
  }) : (tensor<i64>) -> tensor<i32>
  return
}

// -----

func.func @while_region_args(%x: tensor<i64>) {
  // expected-error @+1 {{'stablehlo.while' op region arguments must have the operand types}}
  %0 = "stablehlo.while"(%x) ({
  ^bb0(%a: tensor<i32>):
    %p = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %p : tensor<i1>
  }, {
  ^bb0(%a: tensor<i64>):
    stablehlo.return %a : tensor<i64>
  }) : (tensor<i64>) -> tensor<i64>
  return
}

// -----

func.func @while_cond_type(%x: tensor<i64>) {
  // expected-error @+1 {{'stablehlo.while' op cond must return values of types ('tensor<i1>'), got ('tensor<i64>')}}
  %0 = stablehlo.while(%i = %x) : tensor<i64>
   cond {
    stablehlo.return %i : tensor<i64>
  } do {
    stablehlo.return %i : tensor<i64>
  }
  return
}

// -----

func.func @while_body_type(%x: tensor<i64>) {
  // expected-error @+1 {{'stablehlo.while' op body must return values of types ('tensor<i64>'), got ('tensor<i32>')}}
  %0 = stablehlo.while(%i = %x) : tensor<i64>
   cond {
    %p = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %c = stablehlo.convert %i : (tensor<i64>) -> tensor<i32>
    stablehlo.return %c : tensor<i32>
  }
  return
}

// -----

func.func @while_cond_empty(%x: tensor<i64>) {
  // expected-error @+1 {{'stablehlo.while' op cond must end with a terminator}}
  %0 = "stablehlo.while"(%x) ({
  ^bb0(%a: tensor<i64>):
  }, {
  ^bb0(%a: tensor<i64>):
    stablehlo.return %a : tensor<i64>
  }) : (tensor<i64>) -> tensor<i64>
  return
}

// -----

func.func @while_type_count(%x: tensor<i64>) {
  // expected-error @+1 {{custom op 'stablehlo.while' expected 1 types, got 2}}
  %0 = stablehlo.while(%i = %x) : tensor<i64>, tensor<i64>
   cond {
    %p = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    stablehlo.return %i : tensor<i64>
  }
  return
}

// -----

func.func @while_missing_do(%x: tensor<i64>) {
  %0 = stablehlo.while(%i = %x) : tensor<i64>
   cond {
    %p = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %p : tensor<i1>
  }
  // expected-error @+1 {{custom op 'stablehlo.while' expected 'do'}}
  return
}

// -----

func.func @case_no_branch(%i: tensor<i32>) {
  // expected-error @+1 {{'stablehlo.case' op expects at least one branch}}
  "stablehlo.case"(%i) : (tensor<i32>) -> ()
  return
}

// -----

func.func @case_branch_types(%i: tensor<i32>, %a: tensor<2xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'stablehlo.case' op branch 1 must return values of types ('tensor<2xf32>'), got ('tensor<3xf32>')}}
  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %a : tensor<2xf32>
  }, {
    stablehlo.return %b : tensor<3xf32>
  }) : (tensor<i32>) -> tensor<2xf32>
  return
}

// -----

func.func @case_branch_args(%i: tensor<i32>, %a: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.case' op branch 0 must not take arguments}}
  %0 = "stablehlo.case"(%i) ({
  ^bb0(%x: tensor<2xf32>):
    stablehlo.return %x : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<2xf32>
  return
}

// -----

func.func @case_index_type(%i: tensor<i64>, %a: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.case' op operand #0 must be 0D tensor of 32-bit signless integer values, but got 'tensor<i64>'}}
  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %a : tensor<2xf32>
  }) : (tensor<i64>) -> tensor<2xf32>
  return
}

// -----

func.func @case_branch_empty(%i: tensor<i32>) {
  // expected-error @+1 {{'stablehlo.case' op branch 0 must end with a terminator}}
  "stablehlo.case"(%i) ({
  ^bb0:
  }) : (tensor<i32>) -> ()
  return
}

// -----

func.func @if_pred_type(%p: tensor<2xi1>, %a: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.if' op operand #0 must be 0D tensor of 1-bit signless integer values, but got 'tensor<2xi1>'}}
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<2xf32>
  }, {
    stablehlo.return %a : tensor<2xf32>
  }) : (tensor<2xi1>) -> tensor<2xf32>
  return
}

// -----

func.func @if_true_branch(%p: tensor<i1>, %a: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.if' op true_branch must return values of types ('tensor<2xf32>'), got ()}}
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return
  }, {
    stablehlo.return %a : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  return
}

// -----

func.func @if_false_branch(%p: tensor<i1>, %a: tensor<2xf32>, %b: tensor<2xf16>) {
  // expected-error @+1 {{'stablehlo.if' op false_branch must return values of types ('tensor<2xf32>'), got ('tensor<2xf16>')}}
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<2xf32>
  }, {
    stablehlo.return %b : tensor<2xf16>
  }) : (tensor<i1>) -> tensor<2xf32>
  return
}

// -----

func.func @if_branch_args(%p: tensor<i1>, %a: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.if' op branches must not take arguments}}
  %0 = "stablehlo.if"(%p) ({
  ^bb0(%x: tensor<2xf32>):
    stablehlo.return %x : tensor<2xf32>
  }, {
    stablehlo.return %a : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  return
}

// -----

func.func @if_one_region(%p: tensor<i1>, %a: tensor<2xf32>) {
  // expected-error @+1 {{'stablehlo.if' op expected 2 regions}}
  %0 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  return
}

// -----

func.func @composite_missing(%x: tensor<i64>) {
  // expected-error @+1 {{'stablehlo.composite' op decomposition @nowhere does not exist}}
  %0 = stablehlo.composite "my.op" %x {decomposition = @nowhere} : (tensor<i64>) -> tensor<i64>
  return
}

// -----

func.func @composite_no_decomposition(%x: tensor<i64>) {
  // expected-error @+1 {{'stablehlo.composite' op requires attribute 'decomposition'}}
  %0 = stablehlo.composite "my.op" %x : (tensor<i64>) -> tensor<i64>
  return
}

// -----

module @g {
}

func.func @composite_not_function(%x: tensor<i64>) {
  // expected-error @+1 {{'stablehlo.composite' op decomposition @g is not a function}}
  %0 = stablehlo.composite "my.op" %x {decomposition = @g} : (tensor<i64>) -> tensor<i64>
  return
}

// -----

func.func private @impl(%x: tensor<i32>) -> tensor<i32>

func.func @composite_types(%x: tensor<i64>) {
  // expected-error @+1 {{'stablehlo.composite' op types do not match decomposition @impl}}
  %0 = stablehlo.composite "my.op" %x {decomposition = @impl} : (tensor<i64>) -> tensor<i64>
  return
}

// -----

func.func private @impl(%x: tensor<i64>) -> tensor<i64>

func.func @composite_name(%x: tensor<i64>) {
  // expected-error @+1 {{expected attribute value}}
  %0 = stablehlo.composite my.op %x {decomposition = @impl} : (tensor<i64>) -> tensor<i64>
  return
}
