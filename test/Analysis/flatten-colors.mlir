// Named dimensions through reshapes that merge and split dims (issue 18).
// A flatten (B, S, D) -> (B*S, D) gives the merged dim one name per factor
// (a *split* dim, printed "B.S"): the linear layer's rows carry both the
// batch color and the sequence color, the unflatten hands them back to
// separate dims, and the head split (B, S, H*K) -> (B, S, H, K) connects
// H and K through the layer to the weight's output dim. With one name per
// dim (before) this program had 6 colors: the S after the unflatten was
// not the S of the input, and the head split's K started a color of its
// own.
//
// RUN: toast-opt %S/../Search/Inputs/flatten-layer.mlir --toast-test-nda-colors | FileCheck %s
// RUN: toast-opt %S/../Search/Inputs/flatten-layer.mlir --toast-nda=json=%t.json -o /dev/null
// RUN: %python %S/Inputs/nda_dims.py %t.json | FileCheck %s --check-prefix=DIMS
// RUN: %python %S/Inputs/check_nda_json.py %t.json --colors 5 | FileCheck %s --check-prefix=JSON
// JSON: OK

// CHECK: module attributes {nda.num_bits = 0 : i64, nda.num_colors = 5 : i64, nda.num_conflicts = 0 : i64, nda.num_sets = 0 : i64}
// CHECK: func.func @layer(%arg0: tensor<2x4x8xf32> {nda.colors = "[[B:c[0-9]+]],[[S:c[0-9]+]],[[D:c[0-9]+]]"}, %arg1: tensor<8x16xf32> {nda.colors = "[[D]],[[H:c[0-9]+]].[[K:c[0-9]+]]"})
// The flatten: B*S is split into B and S.
// CHECK: stablehlo.reshape %arg0 {nda.colors = ["[[B]].[[S]],[[D]]"]}
// CHECK: stablehlo.dot_general {{.*}}nda.colors = ["[[B]].[[S]],[[H]].[[K]]"]
// CHECK: stablehlo.tanh {{.*}}nda.colors = ["[[B]].[[S]],[[H]].[[K]]"]
// The unflatten and the head split.
// CHECK: stablehlo.reshape {{.*}}nda.colors = ["[[B]],[[S]],[[H]].[[K]]"]
// CHECK: stablehlo.reshape {{.*}}nda.colors = ["[[B]],[[S]],[[H]],[[K]]"]

// The minor part of a split dim is named `[dim.part]`; it is its own node,
// one per I-class like any name, in the color of its factor.
// DIMS: arg0[1] [[S:c[0-9]+]] n1
// DIMS: #0 stablehlo.reshape#0[0] [[B:c[0-9]+]] n5
// DIMS: #0 stablehlo.reshape#0[0.1] [[S]] n6
// DIMS: use #1 stablehlo.dot_general(0)[0.1] [[S]]
// DIMS: #1 stablehlo.dot_general#0[0.1] [[S]]
// DIMS: #3 stablehlo.reshape#0[2.1] [[K:c[0-9]+]]
// DIMS: use #4 stablehlo.reshape(0)[2.1] [[K]]
