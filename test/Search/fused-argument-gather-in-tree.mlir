// An argument whose tiling loop fused into the innermost loop of a fusion
// tree's root (%b's B tile into the add's B loop, which the transpose and
// the dots fused into) is prepended to that loop's body like a producer,
// in operand order: %b, the add's operand 1, comes before operand 0's
// producers, so its M gather runs before them. The planner emitted it with
// the add itself, after the tree: peak 11,142 B against lowering's
// 11,382 B, 2.1% low (found by review on a hand state).
//
// RUN: toast-opt %s --toast-emit-planned="device=a100" --partir-simulate="device=a100 summary=true" -o %t.planned.mlir 2>&1 | FileCheck %s --check-prefix=COST
// RUN: toast-opt %s --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST
// RUN: toast-run --compare %s %t.planned.mlir | FileCheck %s --check-prefix=AGREE
// COST: step time      : 76.054 us
// COST: peak memory    : {{.*}} (11382 B)
// AGREE: results agree

module attributes {partir.mesh = #partir.mesh<["B"=4, "M"=3]>} {
  func.func @main(%a: tensor<60x10xf32> {partir.tiling = ["B:0", "M:1"]}, %p: tensor<240xf32> {partir.tiling = ["M:0"]}, %b: tensor<6x40xf32> {partir.tiling = ["B:1", "M:0"]}) -> (tensor<6x40xf32>) {
  %e = stablehlo.exponential %a {partir.loops = ["B:0", "M:0"]} : tensor<60x10xf32>
  %r = stablehlo.reshape %e {partir.loops = ["M:0"]} : (tensor<60x10xf32>) -> tensor<6x100xf32>
  %q = stablehlo.reshape %p {partir.loops = ["M:0"]} : (tensor<240xf32>) -> tensor<6x40xf32>
  %qn = stablehlo.negate %q {partir.loops = ["M:1"]} : tensor<6x40xf32>
  %qt = stablehlo.transpose %qn, dims = [1, 0] {partir.loops = ["B:0", "M:1"]} : (tensor<6x40xf32>) -> tensor<40x6xf32>
  %d = stablehlo.dot_general %qt, %r, contracting_dims = [1] x [0] {partir.loops = ["B:0", "M:2"]} : (tensor<40x6xf32>, tensor<6x100xf32>) -> tensor<40x100xf32>
  %rt = stablehlo.transpose %r, dims = [1, 0] {partir.loops = ["B:0", "M:1"]} : (tensor<6x100xf32>) -> tensor<100x6xf32>
  %d2 = stablehlo.dot_general %d, %rt, contracting_dims = [1] x [0] {partir.loops = ["B:0", "M:2"]} : (tensor<40x100xf32>, tensor<100x6xf32>) -> tensor<40x6xf32>
  %o = stablehlo.transpose %d2, dims = [1, 0] {partir.loops = ["B:1"]} : (tensor<40x6xf32>) -> tensor<6x40xf32>
  %s = stablehlo.add %o, %b {partir.loops = ["B:1"]} : tensor<6x40xf32>
  return %s : tensor<6x40xf32>
  }
}
