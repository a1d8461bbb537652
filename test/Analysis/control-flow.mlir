// Loops and conditionals (docs/nda.md, "Loops and conditionals"): each tied
// class of a stablehlo.if/case/while is one name per dim, names in every
// body are ordinary names, and neither the region ops nor their
// stablehlo.return terminators are opaque.
// RUN: toast-opt %s --split-input-file --toast-test-nda-colors | FileCheck %s
// RUN: toast-opt %s --split-input-file --toast-nda=json=- -o /dev/null | FileCheck %s --check-prefix=JSON

// Both branches' results are the if's result: w's and v's output dims meet
// there (one color H); case branches (one passes %r through) likewise.
// CHECK-LABEL: func.func @branches
// CHECK-SAME: %arg2: {{.*}}nda.colors = "[[B:c[0-9]+]],[[X:c[0-9]+]]"}, %arg3: {{.*}}nda.colors = "[[X]],[[H:c[0-9]+]]"}, %arg4: {{.*}}nda.colors = "[[X]],[[H]]"}
// CHECK: stablehlo.dot_general {{.*}}nda.colors = ["[[B]],[[H]]"]
// CHECK: stablehlo.dot_general {{.*}}nda.colors = ["[[B]],[[H]]"]
// CHECK: {nda.colors = ["[[B]],[[H]]"]} : (tensor<i1>) -> tensor<8x6xf32>
// CHECK: stablehlo.tanh {{.*}}nda.colors = ["[[B]],[[H]]"]
// CHECK: stablehlo.negate {{.*}}nda.colors = ["[[B]],[[H]]"]
// CHECK: {nda.colors = ["[[B]],[[H]]"]} : (tensor<i32>) -> tensor<8x6xf32>
// JSON: "num_colors": 3,
// JSON: "num_opaque_ops": 0,
func.func @branches(%p: tensor<i1>, %i: tensor<i32>, %x: tensor<8x4xf32>, %w: tensor<4x6xf32>, %v: tensor<4x6xf32>) -> tensor<8x6xf32> {
  %r = "stablehlo.if"(%p) ({
    %a = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
    stablehlo.return %a : tensor<8x6xf32>
  }, {
    %b = stablehlo.dot_general %x, %v, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
    stablehlo.return %b : tensor<8x6xf32>
  }) : (tensor<i1>) -> tensor<8x6xf32>
  %c = "stablehlo.case"(%i) ({
    %t = stablehlo.tanh %r : tensor<8x6xf32>
    stablehlo.return %t : tensor<8x6xf32>
  }, {
    stablehlo.return %r : tensor<8x6xf32>
  }, {
    %n = stablehlo.negate %r : tensor<8x6xf32>
    stablehlo.return %n : tensor<8x6xf32>
  }) : (tensor<i32>) -> tensor<8x6xf32>
  return %c : tensor<8x6xf32>
}

// -----

// A loop over steps around a scan over stacked layers (a decode loop with
// scanned layers). The inner body captures the stacks (plain def-use
// edges); the carried h keeps x's colors through both loops, and the inner
// body's matmuls use w1's and w2's non-layer dims.
// CHECK-LABEL: func.func @nested
// CHECK-SAME: %arg0: {{.*}}nda.colors = "[[B:c[0-9]+]],[[X:c[0-9]+]]"}, %arg1: {{.*}}nda.colors = "[[L1:c[0-9]+]],[[X]],[[U:c[0-9]+]]"}, %arg2: {{.*}}nda.colors = "[[L2:c[0-9]+]],[[U]],[[X]]"}
// CHECK: stablehlo.while{{.*}}nda.colors = ["", "[[B]],[[X]]"], nda.region_colors = {{\[}}["", "[[B]],[[X]]"], ["", "[[B]],[[X]]"]]
// CHECK: stablehlo.while{{.*}}nda.colors = ["", "[[B]],[[X]]"], nda.region_colors = {{\[}}["", "[[B]],[[X]]"], ["", "[[B]],[[X]]"]]
// CHECK: stablehlo.dynamic_slice {{.*}}nda.colors = ["{{c[0-9]+}},[[X]],[[U]]"]
// CHECK: stablehlo.dot_general {{.*}}nda.colors = ["[[B]],[[U]]"]
// CHECK: stablehlo.tanh {{.*}}nda.colors = ["[[B]],[[U]]"]
// CHECK: stablehlo.dynamic_slice {{.*}}nda.colors = ["{{c[0-9]+}},[[U]],[[X]]"]
// CHECK: stablehlo.dot_general {{.*}}nda.colors = ["[[B]],[[X]]"]
// JSON: "num_colors": 7,
// JSON: "num_conflicts": 0,
// JSON: "num_opaque_ops": 0,
func.func @nested(%x: tensor<8x4xf32>, %w1: tensor<3x4x6xf32>, %w2: tensor<3x6x4xf32>) -> tensor<8x4xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %h = %x) : tensor<i32>, tensor<8x4xf32>
   cond {
    %n = stablehlo.constant dense<2> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %s:2 = stablehlo.while(%j = %c0, %g = %h) : tensor<i32>, tensor<8x4xf32>
     cond {
      %m = stablehlo.constant dense<3> : tensor<i32>
      %q = stablehlo.compare LT, %j, %m : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %q : tensor<i1>
    } do {
      %z = stablehlo.constant dense<0> : tensor<i32>
      %a1 = stablehlo.dynamic_slice %w1, %j, %z, %z, sizes = [1, 4, 6] : (tensor<3x4x6xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x6xf32>
      %m1 = stablehlo.reshape %a1 : (tensor<1x4x6xf32>) -> tensor<4x6xf32>
      %u = stablehlo.dot_general %g, %m1, contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x6xf32>) -> tensor<8x6xf32>
      %t = stablehlo.tanh %u : tensor<8x6xf32>
      %a2 = stablehlo.dynamic_slice %w2, %j, %z, %z, sizes = [1, 6, 4] : (tensor<3x6x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x6x4xf32>
      %m2 = stablehlo.reshape %a2 : (tensor<1x6x4xf32>) -> tensor<6x4xf32>
      %y = stablehlo.dot_general %t, %m2, contracting_dims = [1] x [0] : (tensor<8x6xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
      %one = stablehlo.constant dense<1> : tensor<i32>
      %jn = stablehlo.add %j, %one : tensor<i32>
      stablehlo.return %jn, %y : tensor<i32>, tensor<8x4xf32>
    }
    %one = stablehlo.constant dense<1> : tensor<i32>
    %in = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %in, %s#1 : tensor<i32>, tensor<8x4xf32>
  }
  return %r#1 : tensor<8x4xf32>
}
