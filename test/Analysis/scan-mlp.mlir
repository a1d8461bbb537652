// A 4-layer MLP as jax.lax.scan exports it (weights stacked [L, ...], one
// stablehlo.while whose body slices layer i with dynamic_slice at the loop
// counter). Names inside the body are first-class:
//  * the carried h (while operand, cond/body block arguments, the body's
//    yielded value and the result) is one node per dim, in x's colors;
//  * the layer dim of a stack is indexed by the dynamic_slice (NotTileable,
//    blocked) and stays out of the body; the other dims of w1/w2 are the
//    body's matmul dims;
//  * the while and the body's stablehlo.return are not opaque ops.
// RUN: toast-opt %S/../Partition/Inputs/scan-mlp.mlir --toast-test-nda-colors | FileCheck %s
// RUN: toast-opt %S/../Partition/Inputs/scan-mlp.mlir --toast-nda=json=%t.json -o /dev/null
// RUN: %python %S/Inputs/check_nda_json.py %t.json --conflicts 0 --colors 7
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: %python %S/Inputs/nda_dims.py %t.json | FileCheck %s --check-prefix=DIMS

// Colors B (batch), X (features), U (hidden) as for the unrolled MLP, plus
// the stacking dims of w1 and w2 and of their slices (7 colors).
// CHECK: nda.num_colors = 7 : i64, nda.num_conflicts = 0 : i64
// CHECK: func.func public @main(%arg0: {{.*}}nda.colors = "[[B:c[0-9]+]],[[X:c[0-9]+]]"}, %arg1: {{.*}}nda.colors = "[[L1:c[0-9]+]],[[X]],[[U:c[0-9]+]]"}, %arg2: {{.*}}nda.colors = "[[L2:c[0-9]+]],[[U]],[[X]]"})
// CHECK: stablehlo.while
// CHECK-SAME: nda.colors = ["", "[[B]],[[X]]", "[[L1]],[[X]],[[U]]", "[[L2]],[[U]],[[X]]"]
// CHECK-SAME: nda.region_colors = {{\[}}["", "[[B]],[[X]]", "[[L1]],[[X]],[[U]]", "[[L2]],[[U]],[[X]]"], ["", "[[B]],[[X]]", "[[L1]],[[X]],[[U]]", "[[L2]],[[U]],[[X]]"]]
// CHECK: stablehlo.dynamic_slice {{.*}}nda.colors = ["[[S1:c[0-9]+]],[[X]],[[U]]"]
// CHECK: stablehlo.reshape {{.*}}nda.colors = ["[[X]],[[U]]"]
// CHECK: stablehlo.dot_general {{.*}}nda.colors = ["[[B]],[[U]]"]
// CHECK: stablehlo.maximum {{.*}}nda.colors = ["[[B]],[[U]]"]
// CHECK: stablehlo.dynamic_slice {{.*}}nda.colors = ["[[S2:c[0-9]+]],[[U]],[[X]]"]
// CHECK: stablehlo.reshape {{.*}}nda.colors = ["[[U]],[[X]]"]
// CHECK: %[[Y:.*]] = stablehlo.dot_general {{.*}}nda.colors = ["[[B]],[[X]]"]
// CHECK: stablehlo.return %{{.*}}, %[[Y]], %{{.*}}, %{{.*}} :

// JSON: "num_blocked_dims": 6,
// JSON: "num_opaque_ops": 0,

// The carried h: one node per dim from the operand to the yield.
// DIMS: batch.x[0] [[B:c[0-9]+]] n{{[0-9]+}}
// DIMS: use #1 stablehlo.while(1)[0] [[B]] [[H:n[0-9]+]]
// DIMS: #1 stablehlo.while#1[0] [[B]] [[H]]
// DIMS: #1 stablehlo.while region0 arg1[0] [[B]] [[H]]
// DIMS: #1 stablehlo.while region1 arg1[0] [[B]] [[H]]
// The layer dim of w1 reaches the dynamic_slice and stops there.
// DIMS: use #6 stablehlo.dynamic_slice(0)[0] [[L1:c[0-9]+]] n{{[0-9]+}} blocked
// DIMS-NEXT: use #6 stablehlo.dynamic_slice(0)[1] [[X:c[0-9]+]] [[W1X:n[0-9]+]]{{$}}
// DIMS-NEXT: use #6 stablehlo.dynamic_slice(0)[2] [[U:c[0-9]+]] [[W1U:n[0-9]+]]{{$}}
// DIMS-NEXT: #6 stablehlo.dynamic_slice#0[0] [[S1:c[0-9]+]] n{{[0-9]+}} blocked
// DIMS-NEXT: #6 stablehlo.dynamic_slice#0[1] [[X]] [[W1X]]
// DIMS-NEXT: #6 stablehlo.dynamic_slice#0[2] [[U]] [[W1U]]
// w1's feature and hidden dims are the matmul's contraction and output.
// DIMS: use #8 stablehlo.dot_general(0)[1] [[X]] [[K:n[0-9]+]]
// DIMS-NEXT: use #8 stablehlo.dot_general(1)[0] [[X]] [[K]]
// DIMS-NEXT: use #8 stablehlo.dot_general(1)[1] [[U]] [[N:n[0-9]+]]
// DIMS-NEXT: #8 stablehlo.dot_general#0[0] [[B]]
// DIMS-NEXT: #8 stablehlo.dot_general#0[1] [[U]] [[N]]
// The yielded value (the last matmul) returns into h's node.
// DIMS: #14 stablehlo.dot_general#0[0] [[B]]
// DIMS: use #17 stablehlo.return(1)[0] [[B]] [[H]]
