// How many all_gathers an op reading one gathered value through two
// operands costs (Adam's g * g). The collective optimizer copies a gather
// once per op that reads it: the op itself when it reads the gather
// directly (one copy for both operands), else each operand's own
// all_slice, all_to_all or padding-mask select (one each). The pricer and
// the planned emitter counted readers by op. The first pattern was priced
// with three gathers where lowering has two (a second reader, the negate,
// moves the copies next to their readers, and the multiply's two operands
// share one); the second and third with one where lowering has two (each
// operand slices the gather on M, or turns it into an all_to_all): the
// program was priced 14.005 us with 5 all_gathers, lowered 16.005 us with
// 6. On a tiny GNS with context actions, 76 of 140 checked states were
// priced high (up to 37%); now 1 (an all_reduce order, another cause).
//
// RUN: toast-opt %s --toast-emit-planned="device=a100 report=true" --partir-simulate="device=a100 summary=true" -o %t.mlir 2>&1 | FileCheck %s
// RUN: toast-opt %s --partir-materialize-core --partir-lower-to-hlo --partir-simulate="device=a100 summary=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CORE
// RUN: toast-run --compare %s %t.mlir | FileCheck %s --check-prefix=AGREE
// CHECK: remark: planned: analytic step time 1.6005{{[0-9]+}}e-02 ms, 6 all_gather, 0 all_reduce, 0 reduce_scatter, 2 all_to_all
// CHECK: step time      : 16.005 us
// CHECK: all_gather=6 all_reduce=0 reduce_scatter=0 all_to_all=2
// CORE: step time      : 16.005 us
// CORE: all_gather=6 all_reduce=0 reduce_scatter=0 all_to_all=2
// AGREE: results agree

module attributes {partir.mesh = #partir.mesh<["B"=2, "M"=2]>} {
  func.func @main(%a: tensor<8x12xf32> {partir.tiling = ["B:0", "M:1"]}, %b: tensor<8x12xf32> {partir.tiling = ["B:0"]}, %c: tensor<8x12xf32> {partir.tiling = ["B:0", "M:1"]}) -> (tensor<8x12xf32>, tensor<8x12xf32>, tensor<8x12xf32>, tensor<8x12xf32>) {
    // The multiply reads the copy (gathered on M) once for both.
    %t = stablehlo.tanh %a {partir.loops = ["B:0", "M:1"]} : tensor<8x12xf32>
    %n = stablehlo.negate %t {partir.loops = ["B:0"]} : tensor<8x12xf32>
    %m = stablehlo.multiply %t, %t {partir.loops = ["B:0"]} : tensor<8x12xf32>
    // Gathered on B, then each operand sliced on M.
    %u = stablehlo.tanh %b {partir.loops = ["B:0"]} : tensor<8x12xf32>
    %p = stablehlo.multiply %u, %u {partir.loops = ["M:1"]} : tensor<8x12xf32>
    // An all_to_all per operand.
    %v = stablehlo.tanh %c {partir.loops = ["B:0", "M:1"]} : tensor<8x12xf32>
    %q = stablehlo.multiply %v, %v {partir.loops = ["B:1"]} : tensor<8x12xf32>
    return %m, %n, %p, %q : tensor<8x12xf32>, tensor<8x12xf32>, tensor<8x12xf32>, tensor<8x12xf32>
  }
}
